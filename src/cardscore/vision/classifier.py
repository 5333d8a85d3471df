"""The shipped index classifiers (ONNX), loaded once per process and run on the CPU.

Every ``.onnx`` file in ``models/`` is one member of an ensemble (``python -m train
--recipe ...`` in a checkout rebuilds each). Their log-probabilities are averaged,
which is averaging their logits: a card needs every member's support to come out sure, so the
members' different mistakes cancel. Most crops are plain background to the first member; only
the others (a few per cent) go through the rest. While a deck profile is in use
(:func:`cardscore.vision.deck.reading_with`), each member's logits take its correction; while
cards are expected (:func:`cardscore.vision.deck.expecting`), the others are ruled out.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

from cardscore.vision.deck import DeckProfile, active_deck, expected_bias
from cardscore.vision.labels import BACKGROUND

__all__ = ["MODEL_PATH", "MODEL_PATHS", "SCREEN", "classify", "outputs"]

MODELS = Path(__file__).parent / "models"
MODEL_PATH = MODELS / "index_classifier.onnx"  # the plain recipe's model
# The plain model first: it screens the crops for the others.
MODEL_PATHS = (MODEL_PATH, *sorted(p for p in MODELS.glob("*.onnx") if p != MODEL_PATH))
# A crop the first member gives less than this for every card is background for the ensemble
# (its label smoothing leaves about 0.001 per card on background; a hit needs readings.MIN_PROB).
SCREEN = 0.005
# Crops go through a member this many at a time: a photo gives thousands of candidates, and
# one batch of them all would hold every layer's activations at once (about 0.1 MB a crop,
# most of a gigabyte). Small batches keep the peak low and cost nothing in speed.
BATCH = 256


@lru_cache(maxsize=4)
def _session(path: str, threads: int) -> object:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    # Idle pool threads sleep instead of spinning: a recognition runs many small batches
    # between Python stages, and spinning threads would take the cores those stages need
    # (on a busy machine, a third of the classifier's CPU time; its outputs are the same).
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])


def classify(
    crops: np.ndarray, model: Path | Sequence[Path] | None = None, threads: int = 2
) -> np.ndarray:
    """Class probabilities (N, 53) for uint8 crops (N, 32, 32, 3): crops.CROP.

    ``model``: one ONNX file, or several to average; by default every shipped one.
    """
    if len(crops) == 0:
        return np.zeros((0, 53), np.float32)
    paths = MODEL_PATHS if model is None else [model] if isinstance(model, Path) else model
    deck = active_deck()
    if deck is not None:
        deck.check(paths)
    first = _logits(paths[0], crops, threads, deck, 0)
    probs = _softmax(first)
    rows = np.flatnonzero(probs[:, :BACKGROUND].max(axis=1) >= SCREEN)
    if len(paths) > 1 and len(rows):
        logits = first[rows]
        for m, path in enumerate(paths[1:], start=1):
            logits = logits + _logits(path, crops[rows], threads, deck, m)
        # The softmax of the mean logits: the members' probabilities' normalised geometric mean.
        probs[rows] = _softmax(logits / len(paths))
    return probs


def outputs(path: Path, crops: np.ndarray, threads: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """One member's logits (N, 53) and embeddings (N, D): its penultimate layer, which a
    deck profile's correction reads."""
    if len(crops) == 0:
        return np.zeros((0, 53), np.float32), np.zeros((0, 0), np.float32)
    logits, embedding = _run(path, ["logits", "embedding"], crops, threads)
    return logits, embedding


def _logits(
    path: Path, crops: np.ndarray, threads: int, deck: DeckProfile | None = None, member: int = 0
) -> np.ndarray:
    if deck is not None:
        logits = deck.adjust(member, *outputs(path, crops, threads))
    else:
        logits = _run(path, ["logits"], crops, threads)[0]
    bias = expected_bias()
    return logits if bias is None else logits + bias


def _run(path: Path, names: list[str], crops: np.ndarray, threads: int) -> list[np.ndarray]:
    """The model's ``names`` outputs for ``crops``, :data:`BATCH` crops at a time."""
    session = _session(str(path), threads)
    parts = [
        session.run(names, {"crops": crops[i : i + BATCH]})  # type: ignore[attr-defined]
        for i in range(0, len(crops), BATCH)
    ]
    return [np.concatenate([part[k] for part in parts]) for k in range(len(names))]


def _softmax(logits: np.ndarray) -> np.ndarray:
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    out: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return out
