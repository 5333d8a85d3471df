"""The shipped index classifiers (ONNX), loaded once per process and run on the CPU.

Every ``.onnx`` file in ``models/`` is one member of an ensemble (``python -m
cardscore.vision.train --recipe ...`` rebuilds each). Their log-probabilities are averaged,
which is averaging their logits: a card needs every member's support to come out sure, so the
members' different mistakes cancel.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

__all__ = ["MODEL_PATH", "MODEL_PATHS", "classify"]

MODELS = Path(__file__).parent / "models"
MODEL_PATH = MODELS / "index_classifier.onnx"  # the plain recipe's model
MODEL_PATHS = tuple(sorted(MODELS.glob("*.onnx")))


@lru_cache(maxsize=4)
def _session(path: str, threads: int) -> object:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    return ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])


def classify(
    crops: np.ndarray, model: Path | Sequence[Path] | None = None, threads: int = 2
) -> np.ndarray:
    """Class probabilities (N, 53) for uint8 crops (N, 40, 40, 3).

    ``model``: one ONNX file, or several to average; by default every shipped one.
    """
    if len(crops) == 0:
        return np.zeros((0, 53), np.float32)
    paths = MODEL_PATHS if model is None else [model] if isinstance(model, Path) else model
    logits = np.zeros((len(crops), 53), np.float32)
    for path in paths:
        session = _session(str(path), threads)
        logits += session.run(None, {"crops": crops})[0]  # type: ignore[attr-defined]
    # The softmax of the mean logits: the normalised geometric mean of the members' probabilities.
    logits /= len(paths)
    logits -= logits.max(axis=1, keepdims=True)
    probs = np.exp(logits)
    out: np.ndarray = probs / probs.sum(axis=1, keepdims=True)
    return out
