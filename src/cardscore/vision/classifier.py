"""The shipped index classifier (ONNX), loaded once per process and run on the CPU."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

__all__ = ["MODEL_PATH", "classify"]

MODEL_PATH = Path(__file__).parent / "models" / "index_classifier.onnx"


@lru_cache(maxsize=4)
def _session(path: str, threads: int) -> object:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    return ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])


def classify(crops: np.ndarray, model: Path | None = None, threads: int = 2) -> np.ndarray:
    """Class probabilities (N, 53) for uint8 crops (N, 40, 40, 3)."""
    if len(crops) == 0:
        return np.zeros((0, 53), np.float32)
    session = _session(str(model or MODEL_PATH), threads)
    logits: np.ndarray = session.run(None, {"crops": crops})[0]  # type: ignore[attr-defined]
    logits = logits - logits.max(axis=1, keepdims=True)
    probs = np.exp(logits)
    out: np.ndarray = probs / probs.sum(axis=1, keepdims=True)
    return out
