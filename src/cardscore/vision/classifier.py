"""The shipped index classifiers (ONNX), loaded once per process and run on the CPU.

Every ``.onnx`` file in ``models/`` but the screen is one member of an ensemble (``python -m
train --recipe ...`` in a checkout rebuilds each). Their log-probabilities are averaged,
which is averaging their logits: a card needs every member's support to come out sure, so the
members' different mistakes cancel. Most crops are plain background to the first member; only
the others (a few per cent) go through the rest. The first member's own int8 copy, the screen
(:data:`SCREEN_PATH`, ``python -m train.screen``), rules out most of the background at half its
cost first, so the first member reads only what it left. While a deck profile is in use
(:func:`cardscore.vision.deck.reading_with`), each member's logits take its correction; while
cards are expected (:func:`cardscore.vision.deck.expecting`), the others are ruled out.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np

from cardscore.vision.deck import DeckProfile, active_deck, expected_bias, model_hash
from cardscore.vision.labels import BACKGROUND
from cardscore.vision.parallel import THREADS, each

__all__ = ["MODEL_PATH", "MODEL_PATHS", "SCREEN", "SCREEN_PATH", "classify", "outputs"]

MODELS = Path(__file__).parent / "models"
MODEL_PATH = MODELS / "index_classifier.onnx"  # the plain recipe's model
# The plain model's int8 copy (no member: it only rules crops out before the plain model reads).
SCREEN_PATH = MODELS / "index_classifier.screen.onnx"
# The plain model first: it screens the crops for the others.
MODEL_PATHS = (
    MODEL_PATH,
    *sorted(p for p in MODELS.glob("*.onnx") if p not in (MODEL_PATH, SCREEN_PATH)),
)
# A crop the first member gives less than this for every card is background for the ensemble
# (its label smoothing leaves about 0.001 per card on background; a hit needs readings.MIN_PROB).
SCREEN = 0.005
# A crop the int8 copy gives less than this for every card is background, unread by the first
# member. The copy's logits differ from the model's by 0.025 (median; 0.10 at the 99th
# percentile): of the shared photos' 31,206 crops it leaves 9.2% to the model, and none it
# rules out is given more than 0.0038 by the model (0.0036 of 11,213 crops of rendered tables
# of unseen designs), under SCREEN: the outputs are those of the model reading every crop.
LOOSE_SCREEN = 0.003
# Where the screen's metadata names the model it was made from (train/screen.py).
SOURCE_KEY = "source_sha256"
# Crops go through a member this many at a time: a photo gives thousands of candidates, and
# one batch of them all would hold every layer's activations at once (about 0.1 MB a crop,
# most of a gigabyte). Small batches keep the peak low, and their activations stay in the
# core's cache: 32 crops a batch read the screen's 3,600 crops of a 12 MP photo in a fifth
# less time than 256 (a crop's outputs do not depend on its batch).
BATCH = 32
# Under this many crops a call is one batch on one thread: splitting it costs more than it saves.
MIN_SPLIT = 32


@lru_cache(maxsize=4)
def _session(path: str) -> object:
    import onnxruntime as ort

    options = ort.SessionOptions()
    # One thread a run: the batches run side by side instead (_run). A small net's layers
    # split across threads wait for each other at every layer; whole batches never do, and
    # give the same outputs.
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    # The screen's first layers are float, the rest int8 (train/screen.py); moving its first
    # quantisation up through the pooling would run that pooling unblocked, at several times
    # the cost. The float models have no quantisation to move.
    return ort.InferenceSession(
        path,
        options,
        providers=["CPUExecutionProvider"],
        disabled_optimizers=["QDQPropagationTransformer"],
    )


def classify(
    crops: np.ndarray, model: Path | Sequence[Path] | None = None, threads: int = THREADS
) -> np.ndarray:
    """Class probabilities (N, 53) for uint8 crops (N, 32, 32, 3): crops.CROP.

    ``model``: one ONNX file, or several to average; by default every shipped one. A crop
    that the screen rules out (:data:`LOOSE_SCREEN`) keeps the screen's probabilities: no card
    above that.
    """
    if len(crops) == 0:
        return np.zeros((0, 53), np.float32)
    paths = MODEL_PATHS if model is None else [model] if isinstance(model, Path) else model
    deck = active_deck()
    if deck is not None:
        deck.check(paths)
    screen = _screen_of(paths[0])
    # The shipped models' own reading too, which a deck tempers its correction with
    # (DeckProfile.temper): a softmax more, a millisecond a photo.
    if screen is None:
        near = np.arange(len(crops))
        first, first_shipped = _logits(paths[0], crops, threads, deck, 0)
        probs, shipped = _softmax(first), _softmax(first_shipped)
    else:
        # A deck's correction of the first member applies to its copy's embeddings too.
        loose, loose_shipped = _logits(screen, crops, threads, deck, 0)
        probs, shipped = _softmax(loose), _softmax(loose_shipped)
        near = np.flatnonzero(probs[:, :BACKGROUND].max(axis=1) >= LOOSE_SCREEN)
        first, first_shipped = _logits(paths[0], crops[near], threads, deck, 0)
        probs[near], shipped[near] = _softmax(first), _softmax(first_shipped)
    kept = probs[near, :BACKGROUND].max(axis=1) >= SCREEN
    rows = near[kept]
    if len(paths) > 1 and len(rows):
        logits, logits_shipped = first[kept], first_shipped[kept]
        for m, path in enumerate(paths[1:], start=1):
            more, more_shipped = _logits(path, crops[rows], threads, deck, m)
            logits, logits_shipped = logits + more, logits_shipped + more_shipped
        # The softmax of the mean logits: the members' probabilities' normalised geometric mean.
        probs[rows] = _softmax(logits / len(paths))
        shipped[rows] = _softmax(logits_shipped / len(paths))
    return probs if deck is None else deck.temper(probs, shipped)


def _screen_of(path: Path) -> Path | None:
    """The shipped screen when ``path`` is the model it was made from, else None."""
    if Path(path) != MODEL_PATH or not SCREEN_PATH.is_file():
        return None
    meta = _session(str(SCREEN_PATH)).get_modelmeta()  # type: ignore[attr-defined]
    made_from = meta.custom_metadata_map.get(SOURCE_KEY)
    return SCREEN_PATH if made_from == model_hash(MODEL_PATH) else None


def outputs(path: Path, crops: np.ndarray, threads: int = THREADS) -> tuple[np.ndarray, np.ndarray]:
    """One member's logits (N, 53) and embeddings (N, D): its penultimate layer, which a
    deck profile's correction reads."""
    if len(crops) == 0:
        return np.zeros((0, 53), np.float32), np.zeros((0, 0), np.float32)
    logits, embedding = _run(path, ["logits", "embedding"], crops, threads)
    return logits, embedding


def _logits(
    path: Path, crops: np.ndarray, threads: int, deck: DeckProfile | None = None, member: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """The member's logits for ``crops`` with ``deck``'s correction, and without it (equal
    where there is no deck)."""
    if len(crops) == 0:  # all screened out: no embedding to correct
        empty = np.zeros((0, 53), np.float32)
        return empty, empty
    if deck is not None:
        shipped, embedding = outputs(path, crops, threads)
        logits = deck.adjust(member, shipped, embedding)
    else:
        logits = shipped = _run(path, ["logits"], crops, threads)[0]
    bias = expected_bias()
    return (logits, shipped) if bias is None else (logits + bias, shipped + bias)


def _run(path: Path, names: list[str], crops: np.ndarray, threads: int) -> list[np.ndarray]:
    """The model's ``names`` outputs for ``crops``, in batches of at most :data:`BATCH`
    crops, ``threads`` batches at a time (:func:`_batches`)."""
    session = _session(str(path))

    def run(batch: np.ndarray) -> list[np.ndarray]:
        out: list[np.ndarray] = session.run(names, {"crops": batch})  # type: ignore[attr-defined]
        return out

    parts = each(run, _batches(crops, threads), threads)
    return [np.concatenate([part[k] for part in parts]) for k in range(len(names))]


def _batches(crops: np.ndarray, threads: int) -> list[np.ndarray]:
    """``crops`` in near-equal batches of at most :data:`BATCH`, a multiple of ``threads`` of
    them so that every thread has as much to do (one batch under :data:`MIN_SPLIT` crops).

    >>> [len(b) for b in _batches(np.zeros((100, 32, 32, 3), np.uint8), 2)]
    [25, 25, 25, 25]
    >>> [len(b) for b in _batches(np.zeros((40, 32, 32, 3), np.uint8), 2)]
    [20, 20]
    >>> [len(b) for b in _batches(np.zeros((40, 32, 32, 3), np.uint8), 1)]
    [20, 20]
    >>> [len(b) for b in _batches(np.zeros((20, 32, 32, 3), np.uint8), 2)]
    [20]
    """
    if threads <= 1 or len(crops) < MIN_SPLIT:
        count = -(-len(crops) // BATCH)
    else:
        count = threads * -(-len(crops) // (threads * BATCH))
    return np.array_split(crops, max(1, count))


def _softmax(logits: np.ndarray) -> np.ndarray:
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    out: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return out
