"""Recognition: an illegal meld that no runner-up mends has its cards' indices read again."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import need_module

need_module("cv2", "needs the vision extra (opencv)")
need_module("onnxruntime", "needs the vision extra (onnxruntime)")

from cardscore.cards import Card  # noqa: E402
from cardscore.vision import crops, repairs  # noqa: E402
from cardscore.vision.cards import Placement  # noqa: E402
from cardscore.vision.crops import CropReader  # noqa: E402
from cardscore.vision.geometry import index_to_centre  # noqa: E402
from cardscore.vision.labels import BACKGROUND  # noqa: E402
from cardscore.vision.readings import IndexHit  # noqa: E402
from cardscore.vision.repairs import meld_doubts  # noqa: E402

W = 120.0
STEP = 0.3 * W


def _meld(codes: str, steps: list[int] | None = None) -> tuple[list[Placement], list[IndexHit]]:
    """Upright cards fanned left to right (at these steps, else one each), each with the
    index hit that made it."""
    cards, hits = [], []
    for k, code in enumerate(codes.split()):
        x = 100 + (steps[k] if steps else k) * STEP
        cards.append(Placement(Card(code), 0.9, x, 300.0, 0.0, 1, None))
        sx, sy = np.array([x, 300.0]) - index_to_centre(0.0, W)
        hits.append(IndexHit(Card(code), 0.9, float(sx), float(sy), 0.0, None, size=28.0))
    return cards, hits


def _reads(monkeypatch: pytest.MonkeyPatch, beliefs: dict[float, dict[str, float]]) -> None:
    """Crops of the index at x (normalised px) read these cards at these probabilities."""

    def crop_batch(norm: np.ndarray, points: list[tuple[float, float, float, float]]) -> np.ndarray:
        return np.array(points, np.float32)  # the "crops" carry their points to classify

    def classify(crops: np.ndarray, model: object = None) -> np.ndarray:
        out = np.zeros((len(crops), BACKGROUND + 1), np.float32)
        for row, (x, *_) in zip(out, crops, strict=True):
            for code, p in beliefs.get(round(float(x)), {}).items():
                row[Card(code).id] = p
            row[BACKGROUND] = 1 - row.sum()
        return out

    monkeypatch.setattr(crops, "crop_batch", crop_batch)
    monkeypatch.setattr(crops, "classify", classify)


def _mends(cards: list[Placement], hits: list[IndexHit]) -> dict[int, tuple[str, float]]:
    image = np.full((600, 600, 3), 255, np.uint8)
    melds = [list(range(len(cards)))]
    found = repairs.reread_mends(CropReader(image), cards, melds, hits, meld_doubts(cards, melds))
    return {i: (card.code, round(p, 3)) for i, (card, p) in found.items()}


def test_a_run_misread_beyond_its_runner_up_takes_the_card_the_reread_gives_some_belief(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # From a held-out table: 7h 8h 9h Th, the 8h read as a 6h (runner-up none that mends).
    cards, hits = _meld("7h 6h 9h Th")
    x = [round(h.x) for h in hits]
    _reads(monkeypatch, {x[1]: {"6h": 0.9, "8h": 0.045}})
    assert _mends(cards, hits) == {1: ("8h", 0.045)}
    # Too little belief: nothing mended (every card stays flagged by meld_doubts).
    _reads(monkeypatch, {x[1]: {"6h": 0.97, "8h": 0.02}})
    assert _mends(cards, hits) == {}


def test_the_run_must_stay_in_order_along_the_fan(monkeypatch: pytest.MonkeyPatch) -> None:
    # An 8h in the ten's place makes 7h 6h 9h 8h: a legal run as a set of cards, but out of
    # the fan's order, however sure that reading.
    cards, hits = _meld("7h 6h 9h Th")
    x = [round(h.x) for h in hits]
    _reads(monkeypatch, {x[3]: {"Th": 0.5, "8h": 0.4}, x[1]: {"6h": 0.9, "8h": 0.04}})
    assert _mends(cards, hits) == {1: ("8h", 0.04)}


def test_never_a_two_and_never_a_choice_between_two_alike_readings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cards, hits = _meld("6s Qh 6d 6c")
    x = [round(h.x) for h in hits]
    _reads(monkeypatch, {x[1]: {"Qh": 0.9, "2h": 0.09}})  # a 2 is the joker: fits anything
    assert _mends(cards, hits) == {}
    _reads(monkeypatch, {x[1]: {"Qh": 0.8, "6h": 0.06, "6s": 0.05}})
    assert _mends(cards, hits) == {}
    _reads(monkeypatch, {x[1]: {"Qh": 0.8, "6h": 0.12, "6s": 0.05}})
    assert _mends(cards, hits) == {1: ("6h", 0.12)}


def test_a_run_out_of_order_along_its_fan_is_mended_too(monkeypatch: pytest.MonkeyPatch) -> None:
    # From a held-out table: 5h 6h 7h 8h 9h Th, the 5h read as a Jh: a legal run as cards,
    # not as laid. Every card is in doubt; the re-read finds the 5h.
    cards, hits = _meld("Jh 6h 7h 8h 9h Th")
    assert meld_doubts(cards, [list(range(6))]) == dict.fromkeys(range(6))
    x = [round(h.x) for h in hits]
    _reads(monkeypatch, {x[0]: {"Jh": 0.8, "5h": 0.1}})
    assert _mends(cards, hits) == {0: ("5h", 0.1)}


def test_a_fan_with_a_gap_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    # From a held-out table: 6s 7s 8s 9s Ts Js Qs, the Js missed. The Qs read again gives the
    # Js some belief, and would make a legal run in order; the gap says a card is missing.
    cards, hits = _meld("6s 7s 8s 9s Ts Qs", [0, 1, 2, 3, 4, 6])
    x = [round(h.x) for h in hits]
    _reads(monkeypatch, {x[5]: {"Qs": 0.6, "Js": 0.3}})
    assert _mends(cards, hits) == {}
    cards, hits = _meld("6s 7s 8s 9s Ts Qs")  # the same readings, evenly fanned
    _reads(monkeypatch, {round(hits[5].x): {"Qs": 0.6, "Js": 0.3}})
    assert _mends(cards, hits) == {5: ("Js", 0.3)}


def test_a_legal_meld_or_one_its_runner_ups_mend_is_not_read_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shown: list[object] = []
    monkeypatch.setattr(crops, "classify", lambda crops, model=None: shown.append(crops))
    cards, hits = _meld("7h 8h 9h")
    assert _mends(cards, hits) == {}
    cards[1] = Placement(Card("6h"), 0.6, cards[1].x, 300.0, 0.0, 1, Card("8h"))
    assert _mends(cards, hits) == {}
    assert shown == []
