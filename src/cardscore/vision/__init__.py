"""Recognition: read the cards, melds, piles and dollars on a Tranca table from a photo.

Needs the ``vision`` extra (``pip install 'cardscore[vision]'``: onnxruntime, OpenCV and
pillow-heif). ``recognize(photo)`` takes a path, the file's bytes (a web upload), a PIL image
or a BGR array and returns a :class:`Recognition` with ``.cards`` (one per physical card),
``.groups`` and ``.tranca_draft()``.
"""

from __future__ import annotations

from cardscore.vision.channels import ChannelOrderWarning
from cardscore.vision.image_io import ImageError
from cardscore.vision.recognition import Group, Recognition, SeenCard, recognize

__all__ = ["ChannelOrderWarning", "Group", "ImageError", "Recognition", "SeenCard", "recognize"]
