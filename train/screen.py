"""Rebuild the shipped screen, an int8 copy of the plain classifier: ``python -m train.screen``.

The plain model reads every crop of a photo, and nearly all of them are background; its int8
copy (:data:`cardscore.vision.classifier.SCREEN_PATH`) tells those apart in about half the
time, and the plain model itself then reads only the crops the copy did not rule out
(:func:`cardscore.vision.classifier.classify`). The copy is ONNX Runtime's static
quantisation of the shipped plain model (QDQ, int8 weights per channel on 7 bits, which
CPUs without VNNI multiply without overflow; uint8 activations), its activation ranges
measured on crops of seeded synthetic tables of the font-drawn designs (no test table, real
photo or held-out design is looked at). The copy's metadata
holds the SHA-256 of the model it was made from: a retrained plain model is never screened
by a stale copy.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np

from cardscore.vision.classifier import MODEL_PATH, SCREEN_PATH, SOURCE_KEY
from cardscore.vision.deck import model_hash

__all__ = ["calibration_crops", "main", "quantise"]
SCENES = 40  # synthetic tables whose crops measure the activation ranges
BATCH = 128


def calibration_crops(seed: int, scenes: int, cache: Path | None) -> np.ndarray:
    """Crops (N, 32, 32, 3) of ``scenes`` synthetic tables of the font-drawn designs, the
    plain recipe's kind (indices and background), as training labels them."""
    from rich.progress import Progress

    from train.__main__ import synthetic_crops

    with Progress(disable=True) as progress:
        x, _ = synthetic_crops("plain", seed, scenes, cache, None, progress, fonts_only=True)
    return x


def quantise(source: Path, out: Path, crops: np.ndarray) -> None:
    """Writes ``source``'s int8 copy to ``out``, its activation ranges measured on ``crops``."""
    import onnx
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    class Crops(CalibrationDataReader):  # type: ignore[misc]
        def __init__(self) -> None:
            self.start = 0

        def get_next(self) -> dict[str, np.ndarray] | None:
            if self.start >= len(crops):
                return None
            self.start += BATCH
            return {"crops": crops[self.start - BATCH : self.start]}

    with tempfile.TemporaryDirectory() as folder:
        prepared = Path(folder) / "prepared.onnx"
        quant_pre_process(str(source), str(prepared))
        quantize_static(
            str(prepared),
            str(out),
            Crops(),
            quant_format=QuantFormat.QDQ,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
            per_channel=True,
            reduce_range=True,
            calibrate_method=CalibrationMethod.MinMax,
        )
    model = onnx.load(str(out))
    onnx.helper.set_model_props(model, {SOURCE_KEY: model_hash(source)})
    onnx.save(model, str(out))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m train.screen", description=__doc__)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--scenes", type=int, default=SCENES)
    parser.add_argument("--cache", type=Path, default=None, help="deck (font) cache folder")
    parser.add_argument("--source", type=Path, default=MODEL_PATH, help="the fp32 model")
    parser.add_argument("--out", type=Path, default=SCREEN_PATH)
    args = parser.parse_args(argv)
    crops = calibration_crops(args.seed, args.scenes, args.cache)
    quantise(args.source, args.out, crops)
    print(f"wrote {args.out} from {args.source}, ranges from {len(crops)} crops")


if __name__ == "__main__":
    main()
