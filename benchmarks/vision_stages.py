"""CPU time of each recognition stage on a photo upscaled to 12 MP, with the models loaded.

    python benchmarks/vision_stages.py [PHOTO ...] [--runs 5] [--side 4000]

Each photo (by default the shared ``train_01.jpg`` and ``train_06.jpg``) is resized to
``--side`` × 3/4 of it (4000×3000: 12 MP), written as a JPEG to a temporary folder, and read
``--runs`` times after one warm-up read; each stage's CPU time (``time.process_time``: all of
the process's threads, so a busy machine's other work does not count) is the mean per read.
``candidates`` and ``classifier`` (crops cut and classified) lie within ``readings``.
To compare two trees, run it from each in turn with ``PYTHONPATH=TREE/src``, alternating.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2

import cardscore.vision.recognition as recognition
from cardscore.vision import readings
from cardscore.vision.crops import CropReader

STAGES = ("decode", "regions", "readings", "candidates", "classifier", "cards", "repairs", "groups")


def _timed(spent: dict[str, float], stage: str, f: Callable[..., Any]) -> Callable[..., Any]:
    """``f``, adding its CPU time to ``spent[stage]``."""

    def run(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return f(*args, **kwargs)
        finally:
            spent[stage] = spent.get(stage, 0.0) + time.process_time() - start

    return run


def _instrument(spent: dict[str, float]) -> None:
    """Wraps each stage where recognition (and the readings stage) call it."""
    for stage, name in (
        ("decode", "load_image"),
        ("regions", "find_regions"),
        ("readings", "read_indices"),
        ("cards", "find_cards"),
        ("repairs", "repair"),
        ("groups", "find_groups"),
    ):
        setattr(recognition, name, _timed(spent, stage, getattr(recognition, name)))
    # A photo's page (paper, axes) is read once for its candidates, and for the bold look.
    for name in ("read_page", "candidates", "bold_candidates"):
        setattr(readings, name, _timed(spent, "candidates", getattr(readings, name)))
    CropReader.read = _timed(spent, "classifier", CropReader.read)  # type: ignore[method-assign]


def main() -> None:
    shared = Path(os.environ.get("CARDSCORE_SHARED", "/work/shared")) / "data" / "real-photos"
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("photos", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--side", type=int, default=4000)
    args = parser.parse_args()
    photos = args.photos or [shared / "train_01.jpg", shared / "train_06.jpg"]
    spent: dict[str, float] = {}
    _instrument(spent)
    with tempfile.TemporaryDirectory() as folder:
        for photo in photos:
            image = cv2.imread(str(photo))
            if image is None:
                raise SystemExit(f"not a photo: {photo}")
            big = cv2.resize(image, (args.side, args.side * 3 // 4), interpolation=cv2.INTER_CUBIC)
            path = Path(folder) / f"{photo.stem}.jpg"
            cv2.imwrite(str(path), big, [cv2.IMWRITE_JPEG_QUALITY, 92])
            recognition.recognize(path)  # models loaded, caches warm
            spent.clear()
            start = time.process_time()
            for _ in range(args.runs):
                recognition.recognize(path)
            total = (time.process_time() - start) / args.runs
            figures = "  ".join(f"{s} {spent.get(s, 0.0) / args.runs:.3f}" for s in STAGES)
            print(f"{photo.name} {big.shape[1]}x{big.shape[0]}: {figures}  total {total:.3f} s CPU")


if __name__ == "__main__":
    main()
