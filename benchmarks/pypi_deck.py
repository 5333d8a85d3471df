"""A casino-style printed deck from PyPI, for measuring only: never trained or tuned on.

``SimplePlayingCards`` 1.1.0 ships PNG faces (537×750) of a US casino deck ("Bee": two
corner indices, the court cards' classic art), the kind of deck a real table brings. Its
licence allows personal use only, so the faces are fetched into the deck cache by
``pip download`` when a benchmark asks for them and are never committed, shipped or used
for training.
"""

from __future__ import annotations

import subprocess
import sys
import tarfile
from pathlib import Path

import cv2
import numpy as np

from cardscore.cards import Card

PACKAGE = "SimplePlayingCards==1.1.0"
NAME = "pypi/simpleplayingcards-bee"
# The images' order (checked by eye against the faces; the package's docstring has the
# middle two suits the other way round): spades, hearts, diamonds, clubs, each A to K.
_SUITS = "shdc"
_RANKS = "A23456789TJQK"


def bee_faces(cache: Path) -> dict[Card, np.ndarray] | None:
    """The deck's 52 faces (BGRA), fetched once into ``cache / "pypi"``; None when PyPI
    cannot be reached and nothing is cached."""
    folder = cache / "pypi" / "SimplePlayingCards-1.1.0" / "img"
    if not folder.is_dir():
        download = cache / "pypi"
        download.mkdir(parents=True, exist_ok=True)
        fetched = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
             "-d", str(download), PACKAGE],
            capture_output=True,
        )  # fmt: skip
        archives = sorted(download.glob("SimplePlayingCards-1.1.0.tar.gz"))
        if fetched.returncode or not archives:
            return None
        with tarfile.open(archives[0]) as archive:
            archive.extractall(download, filter="data")
    faces = {}
    for index in range(1, 53):
        suit, rank = divmod(index - 1, 13)
        face = cv2.imread(str(folder / f"{index}.png"), cv2.IMREAD_UNCHANGED)
        if face is None:
            return None
        faces[Card(_RANKS[rank] + _SUITS[suit])] = face
    return faces
