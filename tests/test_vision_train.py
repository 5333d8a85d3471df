"""Training data: the font-drawn designs and the training-only options of the table maker."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2", reason="needs the vision extra (opencv)")
pytest.importorskip("PIL", reason="needs the train extra (pillow)")

from cardscore.cards import Card, Rank, full_deck  # noqa: E402
from cardscore.vision.train.fontdecks import FONT_DECKS, font_decks  # noqa: E402
from cardscore.vision.train.synth import (  # noqa: E402
    SceneMaker,
    point_symmetric_index,
    rank_box,
)

COURTS = (Rank.JACK, Rank.QUEEN, Rank.KING)


@pytest.fixture(scope="module")
def decks(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[Card, np.ndarray]]:
    fonts = Path("/usr/share/fonts")
    stems = {p.stem for p in fonts.rglob("*.ttf")} if fonts.is_dir() else set()
    # Without the system fonts the training command fetches Debian's; a test must not (like a
    # missing extra, this skips even in CI).
    if not set(FONT_DECKS) <= stems:
        pytest.skip("the DejaVu and Liberation fonts are not installed")
    return font_decks(tmp_path_factory.mktemp("fonts"), seed=0)


def test_every_font_design_is_a_full_deck_with_a_point_symmetric_index(
    decks: dict[str, dict[Card, np.ndarray]],
) -> None:
    assert sorted(decks) == sorted(f"font/{stem}" for stem in FONT_DECKS)
    for faces in decks.values():
        assert set(faces) == set(full_deck())
        for card, face in faces.items():
            assert face.shape == (336, 240, 4)
            assert point_symmetric_index(face), card
            # The labeller finds the rank glyph in the top-left corner, a glyph's size.
            x0, y0, x1, y1 = rank_box(face, card.rank is Rank.TEN)
            assert x0 < 0.15, card
            assert (x0 + x1) / 2 < 0.2, card
            assert y0 < 0.06, card
            assert 0.07 < (y1 - y0) * 336 / 240 < 0.18, card


def test_designs_differ_and_are_seeded(decks: dict[str, dict[Card, np.ndarray]]) -> None:
    queen = Card("Qs")
    glyphs = [faces[queen][:60, :45] for faces in decks.values()]
    assert len({g.tobytes() for g in glyphs}) == len(glyphs)
    again = font_decks(Path("/nonexistent-cache"), seed=0)  # system fonts: no fetching
    assert all(np.array_equal(again[n][queen], decks[n][queen]) for n in decks)


def _dealt(maker: SceneMaker, tables: int) -> Counter[Rank]:
    counts: Counter[Rank] = Counter()
    for _ in range(tables):
        counts.update(p.card.rank for p in maker.layout(800, 1100))
    return counts


def test_court_weight_deals_more_court_cards(decks: dict[str, dict[Card, np.ndarray]]) -> None:
    plain = _dealt(SceneMaker(decks, seed=1), 100)
    courts = _dealt(SceneMaker(decks, seed=1, court_weight=2.0), 100)

    def share(c: Counter[Rank]) -> float:
        return sum(c[r] for r in COURTS) / sum(c.values())

    assert 0.15 < share(plain) < 0.32  # 3 ranks of 13
    assert share(courts) > share(plain) + 0.07  # 6 of 16 expected


def test_each_recipe_writes_a_shipped_model() -> None:
    from cardscore.vision.classifier import MODEL_PATH, MODEL_PATHS
    from cardscore.vision.train.__main__ import RECIPES

    assert RECIPES["plain"].model == MODEL_PATH.name
    # The recogniser averages exactly the models the recipes rebuild.
    assert sorted(p.name for p in MODEL_PATHS) == sorted(r.model for r in RECIPES.values())
    assert sum(p.stat().st_size for p in MODEL_PATHS) <= 20 * 2**20


def test_soft_crops_blur_and_are_seeded() -> None:
    torch = pytest.importorskip("torch", reason="needs the train extra (torch)")
    from cardscore.vision.train.__main__ import _augment

    rng = np.random.default_rng(0)
    crops = torch.from_numpy((rng.random((256, 40, 40, 3)) > 0.5).astype(np.uint8) * 255)

    def run(soft: bool) -> tuple[np.ndarray, float]:
        gen = torch.Generator().manual_seed(1)
        out = _augment(crops, gen, soft).numpy().astype(float)
        return out, float(torch.rand(1, generator=gen))

    plain, plain_next = run(False)
    again, again_next = run(False)
    soft, soft_next = run(True)
    assert np.array_equal(plain, again)
    assert plain_next == again_next
    # The fonts recipe's extra draws come after the plain recipe's blur: its crops differ, and
    # soft focus and coarse pixels smooth them (less difference between neighbouring pixels).
    assert soft_next != plain_next
    assert not np.array_equal(plain, soft)

    def roughness(x: np.ndarray) -> float:
        return float(np.abs(np.diff(x, axis=2)).mean())

    assert roughness(soft) < 0.9 * roughness(plain)
