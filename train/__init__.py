"""Training code for the recogniser's index classifiers: run from a checkout, not installed.

``python -m train --seed 0`` in the repository's root (with the ``train`` and ``vision``
extras) rebuilds a shipped model; the wheel carries only ``src/cardscore`` and the models this
writes there, never this folder. It imports the installed package (the recogniser's candidate
stage labels the crops, the Tranca engine plays the tables' rounds), never the other way round.
"""
