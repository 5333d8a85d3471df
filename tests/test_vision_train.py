"""Training data: the font-drawn designs and the training-only options of the table maker."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.conftest import need, need_module

cv2 = need_module("cv2", "needs the vision extra (opencv)")
need_module("PIL", "needs the train extra (pillow)")

from cardscore.cards import Card, Rank, Suit, full_deck  # noqa: E402
from cardscore.tranca.melds import Meld, meld_problems  # noqa: E402
from cardscore.tranca.piles import pile_problems  # noqa: E402
from cardscore.vision.labels import BACKGROUND  # noqa: E402
from train.fontdecks import (  # noqa: E402
    FONT_DECKS,
    PACKAGES,
    SUIT_FONTS,
    boxed_right,
    font_decks,
)
from train.played import played_sides  # noqa: E402
from train.synth import (  # noqa: E402
    SceneMaker,
    Weather,
    camera_view,
    draw_weather,
    point_symmetric_index,
    seen_at,
)

COURTS = (Rank.JACK, Rank.QUEEN, Rank.KING)


@pytest.fixture(scope="module")
def decks(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[Card, np.ndarray]]:
    fonts = Path("/usr/share/fonts")
    files = [*fonts.rglob("*.ttf"), *fonts.rglob("*.otf")] if fonts.is_dir() else []
    stems = {p.stem for p in files}
    # Without the system fonts the training command fetches Debian's; a test must not: CI
    # installs the font packages (.ci/run), elsewhere this skips.
    need(
        {*FONT_DECKS, *SUIT_FONTS} <= stems,
        f"the training designs' fonts are not installed (apt-get install {' '.join(PACKAGES)})",
    )
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
            # The labeller finds the rank glyph in the top-left corner, a glyph's size (a
            # design whose style it misboxes is drawn again).
            assert boxed_right(card, face), card


def test_every_font_draws_what_its_designs_ask_of_it(
    decks: dict[str, dict[Card, np.ndarray]],
) -> None:
    """Whatever suit font a seed picks, it has the four suits; every rank font, every rank
    (a font without the glyph draws nothing, and the design could not be made)."""
    from train.fontdecks import SUIT_CHARS, font_files, glyph

    fonts = font_files(Path("/nonexistent-cache"))
    for stem in SUIT_FONTS:
        for char in SUIT_CHARS.values():
            assert glyph(fonts[stem], char, 20).max() > 200, (stem, char)
    for stem in FONT_DECKS:
        for text in ("A", "10", "J", "Q", "K", *"23456789"):
            assert glyph(fonts[stem], text, 20).max() > 200, (stem, text)


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


def test_designs_are_drawn_as_often_as_their_weight(
    decks: dict[str, dict[Card, np.ndarray]],
) -> None:
    """A design of weight 3 is the table's three times as often as one of weight 1; without
    weights every design is alike (the benchmark's draws)."""
    from train.__main__ import RECIPES

    heavy, light = sorted(decks)[:2]
    few = {heavy: decks[heavy], light: decks[light]}
    weighted = SceneMaker(few, seed=3, weights={heavy: 3})
    drawn = Counter(weighted.layout(600, 900)[0].deck for _ in range(400))
    assert drawn[light] / 400 == pytest.approx(0.25, abs=0.06)
    plain = SceneMaker(few, seed=3)
    alike = Counter(plain.layout(600, 900)[0].deck for _ in range(400))
    assert alike[light] / 400 == pytest.approx(0.5, abs=0.07)
    with pytest.raises(ValueError, match="font/nowhere"):
        SceneMaker(few, seed=3, weights={"font/nowhere": 2})
    assert all(RECIPES[r].printed_weight > 1 for r in ("plain", "fonts"))


def test_suit_fonts_draw_each_suit_where_its_code_is(
    decks: dict[str, dict[Card, np.ndarray]],
) -> None:
    """(The fixture skips where the fonts are not installed.) A font whose ♠ looks like the reference's ♣ and its ♣ like the ♠ (FreeSerifBold's are
    swapped) would teach clubs as spades: each suit font's pair matches DejaVu's pair better
    the right way round than crossed."""
    from train.fontdecks import SUIT_CHARS, font_files, glyph

    fonts = font_files(Path("/nonexistent-cache"))

    def drawn(stem: str, suit: Suit) -> np.ndarray:
        ink = glyph(fonts[stem], SUIT_CHARS[suit], 24).astype(np.float64)
        return cv2.resize(ink, (20, 24), interpolation=cv2.INTER_AREA).ravel()

    def like(a: np.ndarray, b: np.ndarray) -> float:
        return float(np.corrcoef(a, b)[0, 1])

    ref = {s: drawn("DejaVuSans", s) for s in (Suit.SPADES, Suit.CLUBS)}
    for stem in (*SUIT_FONTS, "FreeSerifBold"):
        spade, club = drawn(stem, Suit.SPADES), drawn(stem, Suit.CLUBS)
        straight = like(spade, ref[Suit.SPADES]) + like(club, ref[Suit.CLUBS])
        crossed = like(spade, ref[Suit.CLUBS]) + like(club, ref[Suit.SPADES])
        assert (straight > crossed) == (stem != "FreeSerifBold"), stem


def test_ci_installs_every_font_package() -> None:
    ci = (Path(__file__).resolve().parents[1] / ".ci" / "run").read_text()
    assert set(PACKAGES) <= set(re.findall(r"fonts-[\w-]+", ci))


def test_each_recipe_writes_a_shipped_model() -> None:
    from cardscore.vision.classifier import MODEL_PATH, MODEL_PATHS
    from train.__main__ import RECIPES

    assert RECIPES["plain"].model == MODEL_PATH.name
    # The recogniser averages exactly the models the recipes rebuild.
    assert sorted(p.name for p in MODEL_PATHS) == sorted(r.model for r in RECIPES.values())
    assert sum(p.stat().st_size for p in MODEL_PATHS) <= 20 * 2**20


def test_soft_crops_blur_and_are_seeded() -> None:
    torch = need_module("torch", "needs the train extra (torch)")
    from train.__main__ import _augment

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


# --- tables from rounds the Tranca engine played -----------------------------------------------


def _problems(kind: str, cards: list[Card], size: int) -> list[str]:
    """Why a group seen on a played table is no part of a legal end-of-round table."""
    if kind == "meld":
        return [str(p) for p in meld_problems(cards)] + (
            ["no meld seen whole"] * (size != len(cards))
        )
    if kind == "dollar":
        return [] if [c.code for c in cards] in (["3h"], ["3d"]) else [f"{cards} is no dollar"]
    clean = kind == "pile:horizontal"
    top = cards[0]
    problems = [
        str(p) for p in pile_problems({"pile": top.rank.label, "clean": clean, "cards": size})
    ]
    if len(cards) != 1:
        problems.append("a closed pile shows one card")
    if not clean and top.rank is Rank.TWO:
        problems.append("a dirty pile's top card is a natural, the 2 lies inside")
    return problems


def test_played_sides_are_legal_end_of_round_tables_and_seeded() -> None:
    sides = [side for side, _ in zip(played_sides(seed=7), range(40), strict=False)]
    for side in sides:
        for group in side:
            assert _problems(group.kind, list(group.cards), group.size) == [], group
    again = [side for side, _ in zip(played_sides(seed=7), range(40), strict=False)]
    assert again == sides
    other = [side for side, _ in zip(played_sides(seed=8), range(40), strict=False)]
    assert other != sides
    # The game's own mix, which random tables never deal: jokers in melds, long runs, closed
    # piles both clean and dirty, dollars.
    groups = [g for side in sides for g in side]
    melds = [Meld(g.cards) for g in groups if g.kind == "meld"]
    assert sum(m.joker is not None for m in melds) >= 10
    assert any(m.suit is not None and m.size >= 7 for m in melds)
    kinds = Counter(g.kind for g in groups)
    assert min(kinds["pile:horizontal"], kinds["pile:vertical"], kinds["dollar"]) > 0


def test_no_set_canastra_is_closed_when_close_is_zero() -> None:
    sides = [side for side, _ in zip(played_sides(seed=7, close=0.0), range(20), strict=False)]
    assert {g.kind for side in sides for g in side} == {"meld", "dollar"}
    canastras = [g for side in sides for g in side if g.size >= 7]
    assert canastras
    assert all(g.kind == "meld" for g in canastras)


def test_a_played_share_of_the_tables_are_played_sides_legal_and_seeded(
    decks: dict[str, dict[Card, np.ndarray]],
) -> None:
    few = dict(sorted(decks.items())[:2])  # two designs: each maker measures every face

    def tables(played: float, count: int) -> list[tuple[dict[int, str], list[Any], bytes]]:
        maker = SceneMaker(few, seed=3, played=played)
        return [
            (scene.groups, scene.cards, scene.image.tobytes())
            for scene in (maker.scene() for _ in range(count))
        ]

    mixed = tables(0.5, 10)
    assert tables(0.5, 10) == mixed
    played = [(groups, cards) for groups, cards, _ in mixed if groups]
    assert 2 <= len(played) <= 8  # random tables carry no groups
    for groups, cards in played:
        assert {p.group for p in cards} == set(groups)
        for number, kind in groups.items():
            seen = [p.card for p in cards if p.group == number]
            size = len(seen) if kind == "meld" else 7  # a closed pile holds 7 or more
            assert _problems(kind, seen, size) == [], (kind, seen)
        assert len({p.deck for p in cards}) == 1
    # Without played tables the maker draws the tables it always drew.
    plain = SceneMaker(few, seed=3)
    assert [(s.groups, s.cards, s.image.tobytes()) for s in (plain.scene() for _ in range(2))] == [
        ({}, cards, image) for _, cards, image in tables(0.0, 2)
    ]


def test_a_tilted_camera_keeps_the_photo_and_shrinks_the_far_side() -> None:
    """Whatever side it leans from, the photo keeps the table's centre and about its area,
    and the table's far edge comes out shorter than its near one (no longer a rectangle)."""
    h, w = 800, 1100
    corners = [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]
    for seed in range(20):
        view = camera_view(np.random.default_rng(seed), h, w)
        seen = np.array([seen_at(view, x, y) for x, y in corners])
        assert np.allclose(seen.mean(axis=0), (w / 2, h / 2), atol=0.1 * w)
        d1, d2 = seen[2] - seen[0], seen[3] - seen[1]
        area = 0.5 * abs(d1[0] * d2[1] - d1[1] * d2[0])
        assert area == pytest.approx(h * w, rel=1e-6)
        sides = [np.hypot(*(seen[(k + 1) % 4] - seen[k])) for k in range(4)]
        flat = (w, h, w, h)
        stretch = [a / b for a, b in zip(sides, flat, strict=True)]
        # Opposite sides seen at different stretches: the far one smaller.
        assert max(abs(stretch[0] - stretch[2]), abs(stretch[1] - stretch[3])) > 0.03


def test_a_tilted_tables_indices_are_labelled_as_a_flat_tables(
    decks: dict[str, dict[Card, np.ndarray]],
) -> None:
    """Tables photographed at an angle have their index glyphs labelled about as often as
    flat tables: the points the labels come from are seen through the photo's own view (were
    they not, few would lie on a glyph)."""
    from train.__main__ import scene_crops

    few = dict(sorted(decks.items())[:2])

    def labelled(maker: SceneMaker) -> float:
        rng = np.random.default_rng(0)
        glyphs = points = 0
        for _ in range(6):
            scene = maker.scene()
            _x, y = scene_crops(maker, scene, rng, negatives=0.0)
            glyphs += int((y != BACKGROUND).sum())
            points += sum(trusted for *_, trusted in maker.index_points(scene))
        return glyphs / points

    tilted = SceneMaker(few, seed=4, tilted=1.0)
    assert labelled(tilted) >= 0.85 * labelled(SceneMaker(few, seed=4))
    # A view was drawn for every tilted table, and without tilted tables the maker draws the
    # tables it always drew.
    assert tilted.scene().view is not None
    flat, default = SceneMaker(few, seed=4, tilted=0.0), SceneMaker(few, seed=4)
    a, b = flat.scene(), default.scene()
    assert a.view is None
    assert np.array_equal(a.image, b.image)


def test_a_faded_deck_prints_its_paper_and_greyer_ink() -> None:
    """White comes out the paper's colour, black that far toward it, and nothing is
    lighter than the paper: a cream deck's contrast is lower than the rendered face's."""
    paper = (180.0, 220.0, 240.0)
    faded = Weather(faded=(paper, 0.6))
    face = np.array([[[255, 255, 255], [0, 0, 0], [0, 0, 255]]], np.float32)
    out = faded.print_face(face)
    assert np.allclose(out[0, 0], paper)
    assert np.allclose(out[0, 1], np.array(paper) * 0.4)
    assert np.allclose(out[0, 2], (72.0, 88.0, 240.0))  # red ink keeps its red on cream
    assert np.array_equal(Weather().print_face(face), face)


def test_a_shake_streaks_a_point_along_its_direction_and_keeps_the_light() -> None:
    dot = np.zeros((41, 41, 3), np.float32)
    dot[20, 20] = 900.0
    for angle, axis in ((0.0, 1), (90.0, 0)):
        streak = Weather(shake=(9.0, angle)).move(dot)
        assert streak.sum() == pytest.approx(dot.sum(), rel=1e-4)
        lit = np.argwhere(streak[..., 0] > 1.0)
        # Spread 9 px along the shake's direction, not across it.
        assert np.ptp(lit[:, axis]) >= 7
        assert np.ptp(lit[:, 1 - axis]) == 0


def test_glare_whitens_its_spot_and_leaves_the_far_table() -> None:
    table = np.full((100, 200, 3), 60.0, np.float32)
    lit = Weather(glare=(0.25, 0.5, 0.1, 0.1, 0.8)).light(table)
    assert lit[50, 50, 0] == pytest.approx(60 + 0.8 * 195, rel=1e-3)
    assert lit[50, 190, 0] == pytest.approx(60.0, abs=0.01)
    cast = Weather(cast=(1.2, 1.0, 0.8)).light(table)
    assert np.allclose(cast[0, 0], (72.0, 60.0, 48.0))


def test_weathered_tables_are_a_share_and_without_them_the_tables_are_as_always(
    decks: dict[str, dict[Card, np.ndarray]],
) -> None:
    few = dict(sorted(decks.items())[:2])
    # Every weather is drawn now and then, and each is seeded.
    draws = [draw_weather(np.random.default_rng(seed)) for seed in range(40)]
    for part in ("faded", "cast", "glare", "shake"):
        share = np.mean([getattr(w, part) is not None for w in draws])
        assert 0.2 <= share <= 0.6, part
    assert draw_weather(np.random.default_rng(3)) == draw_weather(np.random.default_rng(3))
    plain, default = SceneMaker(few, seed=5, weathered=0.0), SceneMaker(few, seed=5)
    assert np.array_equal(plain.scene().image, default.scene().image)
    weathered = SceneMaker(few, seed=5, weathered=1.0)
    assert not np.array_equal(weathered.scene().image, SceneMaker(few, seed=5).scene().image)


def test_a_reseeded_maker_draws_what_a_new_maker_of_that_seed_draws(
    decks: dict[str, dict[Card, np.ndarray]],
) -> None:
    few = dict(sorted(decks.items())[:2])
    fresh = SceneMaker(few, seed=8, played=0.5)
    reused = SceneMaker(few, seed=3, played=0.5)
    [reused.scene() for _ in range(3)]
    reused.reseed(8)
    for _ in range(4):
        a, b = fresh.scene(), reused.scene()
        assert (a.groups, a.cards) == (b.groups, b.cards)
        assert np.array_equal(a.image, b.image)


_SHARDS = """
import hashlib, sys
import cv2
cv2.setNumThreads(1)  # as main() does before forking workers
from pathlib import Path
from rich.progress import Progress
import train.__main__ as t
from train.fontdecks import font_decks
from train.synth import SceneMaker
t.SHARD = 3
decks = dict(sorted(font_decks(Path(sys.argv[1]), seed=0).items())[:2])
maker = SceneMaker(decks, seed=0, played=0.5)
for seed, workers in ((5, 1), (5, 2), (6, 2)):
    x, y = t.build_dataset(maker, 7, seed, Progress(disable=True), t.Drawing(True, workers))
    assert len(x) > 50, len(x)
    print(hashlib.sha256(x.tobytes() + y.tobytes()).hexdigest())
"""


def test_sharded_tables_are_the_same_whatever_the_number_of_workers(
    decks: dict[str, dict[Card, np.ndarray]], tmp_path: Path
) -> None:
    """``--shards``: each shard of tables from its own seed, so two forked workers draw the
    crops one process draws (three shards, the last one short); another seed, other crops.
    In a fresh process: forked workers must not inherit a started OpenCV thread pool."""
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-c", _SHARDS, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert run.returncode == 0, run.stderr
    one, two, other = run.stdout.split()
    assert one == two
    assert other != one


def test_a_cache_of_rendered_faces_is_read_without_the_card_packages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Training on a machine that reaches no package archive (a GPU machine, say) needs
    only the rendered faces."""
    import train.decks

    out = tmp_path / "rendered" / "aisleriot_anglo"
    out.mkdir(parents=True)
    for card in full_deck():
        cv2.imwrite(str(out / f"{card.code}.png"), np.full((336, 240, 4), 255, np.uint8))

    def fetch(*_args: object) -> None:
        raise AssertionError("a package was fetched")

    monkeypatch.setattr(train.decks, "fetch_decks", fetch)
    monkeypatch.setattr(train.decks, "_rsvg", fetch)
    [deck] = train.decks.load_decks(tmp_path, ("aisleriot/anglo",))
    assert deck.name == "aisleriot/anglo"
    assert set(deck.faces) == set(full_deck())
    (out / "Qh.png").unlink()  # a face missing: rendered (fetched) again
    with pytest.raises(AssertionError, match="fetched"):
        train.decks.load_decks(tmp_path, ("aisleriot/anglo",))


def test_every_training_command_in_the_guide_parses() -> None:
    """The guide's ``python -m train`` lines name only options the command takes."""
    import shlex

    from tests.conftest import ROOT
    from train.__main__ import _parser

    guide = (ROOT / "docs" / "recognition.md").read_text("utf-8")
    lines = re.findall(r"^python -m train (.*?)(?:\s+#.*)?$", guide, re.MULTILINE)
    assert len(lines) >= 5
    for line in lines:
        _parser().parse_args(shlex.split(line))


def test_a_font_misboxed_in_every_style_is_refused_by_name(
    decks: dict[str, dict[Card, np.ndarray]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A design the labeller cannot box in any style would teach its indices as "no index":
    the command stops, naming the font."""
    import train.fontdecks

    stem = FONT_DECKS[0]
    monkeypatch.setattr(train.fontdecks, "FONT_DECKS", (stem,))
    monkeypatch.setattr(
        train.fontdecks, "boxed_right", lambda card, face: card.rank is not Rank.TWO
    )
    with pytest.raises(
        ValueError, match=f"^font/{stem}: the labeller misboxes its index in every style"
    ):
        font_decks(tmp_path, seed=0)
    monkeypatch.setattr(train.fontdecks, "boxed_right", lambda card, face: True)
    assert list(font_decks(tmp_path, seed=0)) == [f"font/{stem}"]


@pytest.mark.parametrize("option", ["--played", "--tilted", "--weathered"])
def test_the_played_tilted_and_weathered_shares_are_shares(
    capsys: pytest.CaptureFixture[str], option: str
) -> None:
    from train.__main__ import main

    with pytest.raises(SystemExit) as stop:
        main([option, "1.5"])
    assert stop.value.code == 2
    assert f"{option} is a share of the tables, from 0 to 1, not 1.5" in capsys.readouterr().err


# --- crops harvested from labelled real photos ------------------------------------------------


@pytest.mark.needs_shared
def test_real_photo_crops_are_labelled_with_the_photos_own_cards(shared: Path) -> None:
    from cardscore.vision.classifier import MODEL_PATH
    from cardscore.vision.evaluate import read_labels
    from cardscore.vision.labels import BACKGROUND
    from train.real import photo_crops

    folder = shared / "data" / "real-photos"
    labels = read_labels(folder)
    for name in ("train_01.jpg", "train_06.jpg"):
        cards = labels[name]
        x, y = photo_crops(folder / name, cards, MODEL_PATH, np.random.default_rng(0), 3, 0.5)
        assert x.shape == (len(y), 32, 32, 3)
        found = Counter(Card.from_id(int(label)) for label in y if label != BACKGROUND)
        assert set(found) <= set(cards)
        # Each card crop is cut three times; a card shows two indices at most.
        assert all(n % 3 == 0 and n <= 3 * 2 * 4 for n in found.values())
        assert len(found) >= len(cards) - 3
        assert (y == BACKGROUND).sum() > 5 * len(found)
    # train_06's label lists a Jd where the photo shows a Js: no crop of it becomes a Jd (the
    # model reads a J♠, far above the J♦ it is restricted to).
    assert Card("Jd") not in found
    again, _ = photo_crops(
        folder / name, labels[name], MODEL_PATH, np.random.default_rng(0), 3, 0.5
    )
    assert np.array_equal(again, x)


def test_a_recipe_that_learns_from_photos_says_where_they_are_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from train.__main__ import main

    with pytest.raises(SystemExit) as stop:
        main(["--recipe", "plain", "--photos", str(tmp_path)])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "'plain' recipe learns from labelled photos" in err
    assert repr(str(tmp_path)) in err


# --- a quick training run, end to end -----------------------------------------------------------


# export() keeps torch's TorchScript exporter on purpose (dynamo=False); torch says it is legacy.
@pytest.mark.filterwarnings("ignore:You are using the legacy TorchScript-based ONNX export")
def test_a_quick_training_run_learns_and_exports_a_model_the_recogniser_reads(
    decks: dict[str, dict[Card, np.ndarray]], tmp_path: Path
) -> None:
    """The training code itself, on CPU torch: a few font-drawn tables, two epochs, ONNX out.

    Checks that the network learns (its loss on its crops falls well below the untrained
    network's), that the ONNX export computes what the torch network does, and that the
    recogniser's classifier loads it and reads the crops' labels as the network does.
    """
    torch = need_module("torch", "needs the train extra (torch)")
    need_module("onnx", "needs the train extra (onnx)")
    from rich.progress import Progress

    from cardscore.vision.classifier import classify
    from cardscore.vision.labels import BACKGROUND
    from train.__main__ import build_dataset, export, train
    from train.model import build_net

    torch.set_num_threads(1)
    quiet = Progress(disable=True)
    x, y = build_dataset(SceneMaker(decks, seed=0, played=0.5), 6, 0, quiet)
    assert x.shape[1:] == (32, 32, 3)
    assert (y != BACKGROUND).sum() >= 30  # card indices, not only background

    def loss(net: Any) -> float:
        with torch.no_grad():
            logits = net(torch.from_numpy(x))
            return float(torch.nn.functional.cross_entropy(logits, torch.from_numpy(y)))

    torch.manual_seed(0)
    untrained = loss(build_net(1).eval())
    net = train(x, y, 2, 0, quiet)
    assert loss(net) < 0.5 * untrained

    path = tmp_path / "quick.onnx"
    export(net, path)
    with torch.no_grad():
        expected = torch.softmax(net(torch.from_numpy(x)), dim=1).numpy()
    probs = classify(x, path, threads=1)
    assert probs.shape == (len(x), 53)
    np.testing.assert_allclose(probs, expected, atol=1e-4)
    assert (probs.argmax(1) == expected.argmax(1)).all()


@pytest.mark.filterwarnings("ignore:You are using the legacy TorchScript-based ONNX export")
def test_the_quick_command_writes_a_model_the_recogniser_loads(
    decks: dict[str, dict[Card, np.ndarray]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``python -m train --quick``, CI's smoke run of the one command: the font designs (the
    fixture checked their fonts are installed: nothing is fetched), played tables among them."""
    need_module("torch", "needs the train extra (torch)")
    need_module("onnx", "needs the train extra (onnx)")
    from cardscore.vision.classifier import classify
    from train.__main__ import main

    out = tmp_path / "models"
    main(["--quick", "--seed", "1", "--threads", "1", "--out", str(out), "--cache", str(tmp_path)])
    assert f"wrote {out / 'index_classifier.onnx'}" in capsys.readouterr().out
    crops = np.random.default_rng(0).integers(0, 255, (5, 32, 32, 3), dtype=np.uint8)
    probs = classify(crops, out / "index_classifier.onnx", threads=1)
    assert probs.shape == (5, 53)
    np.testing.assert_allclose(probs.sum(axis=1), 1, atol=1e-5)


def test_the_quick_command_never_writes_over_the_shipped_models(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from train.__main__ import main

    with pytest.raises(SystemExit) as stop:
        main(["--quick"])
    assert stop.value.code == 2
    assert "give it an --out other than the shipped models'" in capsys.readouterr().err


def test_the_screen_command_writes_an_int8_copy_tied_to_its_model(
    decks: dict[str, dict[Card, np.ndarray]], tmp_path: Path
) -> None:
    """``python -m train.screen``: the plain model quantised, its ranges measured on a few
    synthetic tables; it names the model it was made from and reads crops as that model does,
    give or take the int8 rounding."""
    need_module("onnx", "needs the train extra (onnx)")
    import onnx
    import onnxruntime as ort

    from cardscore.vision.classifier import MODEL_PATH, SOURCE_KEY
    from cardscore.vision.deck import model_hash
    from train.screen import calibration_crops, main

    out = tmp_path / "screen.onnx"
    main(["--scenes", "3", "--cache", str(tmp_path), "--out", str(out)])
    meta = {p.key: p.value for p in onnx.load(str(out)).metadata_props}
    assert meta[SOURCE_KEY] == model_hash(MODEL_PATH)
    assert out.stat().st_size < MODEL_PATH.stat().st_size / 2  # int8 weights
    crops = calibration_crops(11, 2, tmp_path)  # other tables than its ranges'
    assert len(crops) > 100

    def logits(path: Path) -> np.ndarray:
        session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
        out: np.ndarray = session.run(["logits"], {"crops": crops})[0]
        return out

    exact, rounded = logits(MODEL_PATH), logits(out)
    assert np.median(np.abs(rounded - exact).max(axis=1)) < 0.3
    assert (rounded.argmax(axis=1) == exact.argmax(axis=1)).mean() > 0.98


def test_a_photo_expects_the_cards_whose_index_it_shows_whole(
    decks: dict[str, dict[Card, np.ndarray]],
) -> None:
    """A benchmark's truth is the cards whose index the photo shows whole: a tilted photo
    cuts off some cards' indices though their centres lie in it, and shows some indices of
    cards whose centres lie outside. The rest, and the cards' mirror images beyond the
    table's edges, are not expected."""
    few = dict(sorted(decks.items())[:2])
    maker = SceneMaker(few, seed=11, tilted=1.0)
    counted_by_centre = mirrored = 0
    for _ in range(8):
        scene = maker.scene(tranca=True)
        shown, cut, mirrored_here = maker.photo_truth(scene, 1.5)
        assert len(shown) + len(cut) == len(scene.cards)
        assert sorted(c for c, *_ in shown + cut) == sorted(p.card for p in scene.cards)
        h, w = scene.owner.shape
        inside = [0 <= x < 1.5 * w and 0 <= y < 1.5 * h for _, x, y, _ in cut]
        counted_by_centre += sum(inside)
        # The warp mirrors the table beyond its edges, and the cards with it.
        mirrored += len(mirrored_here)
    assert counted_by_centre > 0
    assert mirrored > 0
    # A flat photo of a table drawn inside it shows nearly every card's index.
    flat = SceneMaker(few, seed=11)
    for _ in range(4):
        scene = flat.scene(tranca=True)
        shown, _, mirrored_here = flat.photo_truth(scene)
        assert len(shown) >= 0.9 * len(scene.cards)
        assert not mirrored_here
