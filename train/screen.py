"""Rebuild the shipped screen, an int8 copy of the plain classifier: ``python -m train.screen``.

The plain model reads every crop of a photo, and nearly all of them are background; its int8
copy (:data:`cardscore.vision.classifier.SCREEN_PATH`) tells those apart in about half the
time, and the plain model itself then reads only the crops the copy did not rule out
(:func:`cardscore.vision.classifier.classify`). The copy is ONNX Runtime's static
quantisation of the shipped plain model after its first pooling (:func:`quantise`), its
activation ranges measured on crops of seeded synthetic tables of the font-drawn designs (no
test table, real photo or held-out design is looked at). The copy's metadata holds the SHA-256
of the model it was made from: a retrained plain model is never screened by a stale copy.
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
    """Writes ``source``'s int8 copy to ``out``, its activation ranges measured on ``crops``.

    The first convolution and its pooling stay in float: three input channels make too
    short a product for int8 to pay (the int8 convolution took longer than the float one),
    and a pooled int8 tensor is a quarter of the size to quantise. Everything after the
    first pooling is int8 (:func:`_int8_tail`).
    """
    import onnx
    from onnx import compose, utils
    from onnxruntime.quantization.shape_inference import quant_pre_process

    with tempfile.TemporaryDirectory() as folder:
        prepared, head, tail = (Path(folder) / f"{n}.onnx" for n in ("prepared", "head", "tail"))
        quant_pre_process(str(source), str(prepared))
        graph = onnx.load(str(prepared)).graph
        cut = next(n for n in graph.node if n.op_type == "MaxPool").output[0]
        outputs = [o.name for o in graph.output]
        utils.extract_model(str(prepared), str(head), ["crops"], [cut])
        utils.extract_model(str(prepared), str(tail), [cut], outputs)
        pooled = _run(head, crops)
        _int8_tail(tail, cut, pooled)
        first, rest = onnx.load(str(head)), onnx.load(str(tail))
    for part in (first, rest):  # both describe the cut tensor: merging wants one description
        kept = [v for v in part.graph.value_info if v.name != cut]
        del part.graph.value_info[:]
        part.graph.value_info.extend(kept)
    rest.ir_version = first.ir_version
    model = compose.merge_models(first, rest, io_map=[(cut, cut)])
    onnx.helper.set_model_props(model, {SOURCE_KEY: model_hash(source)})
    onnx.checker.check_model(model)
    onnx.save(model, str(out))


def _run(path: Path, crops: np.ndarray) -> np.ndarray:
    """The (single-output) model's output for ``crops``."""
    import onnxruntime as ort

    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    parts = [
        session.run(None, {"crops": crops[i : i + BATCH]})[0] for i in range(0, len(crops), BATCH)
    ]
    return np.concatenate(parts)


def _int8_tail(path: Path, name: str, inputs: np.ndarray) -> None:
    """Quantises the model at ``path`` in place, its ranges measured on ``inputs`` (its input
    ``name``): QDQ, int8 weights per channel on 7 bits (CPUs without VNNI multiply them
    without overflow), uint8 activations."""
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )

    class Inputs(CalibrationDataReader):  # type: ignore[misc]
        def __init__(self) -> None:
            self.start = 0

        def get_next(self) -> dict[str, np.ndarray] | None:
            if self.start >= len(inputs):
                return None
            self.start += BATCH
            return {name: inputs[self.start - BATCH : self.start]}

    quantize_static(
        str(path),
        str(path),
        Inputs(),
        quant_format=QuantFormat.QDQ,
        activation_type=QuantType.QUInt8,
        weight_type=QuantType.QInt8,
        per_channel=True,
        reduce_range=True,
        calibrate_method=CalibrationMethod.MinMax,
    )


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
