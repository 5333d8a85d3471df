"""The recognition's tuning tables: what a change to the pipeline is chosen on, never a measure.

    python benchmarks/vision_tuning.py [SET ...]

Sets (all by default):

- ``trained-layout``: the 18 Debian designs the models were trained on, laid out by the
  independent renderer (``tests/render_tables.py``, seeds 200–209, the stroke designs' cloths
  in turn): a layout the training generator never drew, so what fails there is the pipeline's
  geometry, not the models' knowledge of a design.
- ``trained-views``: the same tables photographed from a seat (far edge 0.7) and turned 20°.
- ``cloths``: six of the trained designs (every third, seeds 200–203) and the stroke designs
  (seeds 204–209) on cloths the training generator seldom draws: white, light grey, light
  wood, dark, red, beige.
- ``cream``: the stroke designs printed faded (cream paper, grey ink), seeds 300–314.
- ``older-five``: the first five held-out designs on the training generator's tables (seed
  7000, 40 tables, 1.2 times the normalised scale); the benchmark reads the other seeds.
- ``older-five-tilted``: the same, photographed by a pinhole camera tilted 5–40° from any
  side (the cards whose index the photo shows whole: ``SceneMaker.photo_truth``).
- ``trained-tilted``: the trained designs on the training generator's tables photographed
  at an angle (seed 8000, 60 tables): a trained design's cards, so what fails there is the
  geometry of a photo taken at an angle.
- ``older-five-seated``: the older five laid out by the independent renderer (seeds
  200–219) and photographed from a seat (far edge 0.7 and 0.55): designs the models never
  saw, straightened.
- ``columns``: melds fanned down in columns (the independent renderer's ``columns``): half
  the trained designs and the older five (seeds 200–205), flat and from a seat (far edge
  0.7), and the stroke designs (seeds 200–219), flat.
- ``stroke``: the stroke designs, seeds 200–219, flat, from a seat (far edge 0.55) and
  turned 20°.
- ``jumbo``: the stroke designs with a jumbo index (0.22 and 0.26 card widths high, as
  Brazil's "naipe grande" decks print it), seeds 200–209.
- ``close-ups``: one card, or two or three fanned, filling much of the photo
  (``render_close_up``): six of the trained designs (every third, seeds 200–209) and the
  stroke designs (seeds 200–219).
- ``learnt``: the trained designs and the older five laid out by the independent renderer
  (seeds 200–219), each read on its last fifteen tables with the deck learnt from its first
  five (``learn_from_photos``, as ``cardscore deck learn --labels`` does);
  ``learnt-shipped``: the same fifteen tables read as shipped.

Each prints cards right, extra, wrong and unflagged, right flagged, melds exact and piles
oriented. The Debian sets need the deck cache the training command builds.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cardscore.cards import Card
from cardscore.vision import recognize
from cardscore.vision.evaluate import TableScore, score_table

if TYPE_CHECKING:
    from cardscore.vision.deck import DeckProfile

Truth = list[tuple[Card, float, float, int]]
# Image, truth, kinds, card width, the deck profile it is read with (None: as shipped), and
# for a photo that cuts cards off, score_table's ``unseen`` and ``mirrored``.
Table = (
    tuple[np.ndarray, Truth, dict[int, str], float, "DeckProfile | None"]
    | tuple[
        np.ndarray,
        Truth,
        dict[int, str],
        float,
        "DeckProfile | None",
        Truth,
        list[tuple[float, float]],
    ]
)


def _laid_out(
    decks: tuple[str, ...],
    seeds: range,
    views: tuple[tuple[str, float, float], ...],
    columns: bool = False,
) -> Iterator[tuple[str, Table]]:
    """Debian designs' tables laid out by the independent renderer, in each view (a name,
    the seat's keystone and the turn in the photo; an empty name: flat, labelled by the
    design alone), the melds fanned in rows or ``columns``."""
    from tests.render_tables import DESIGNS, render_table

    from train.decks import default_cache, load_decks

    for deck in load_decks(default_cache(), decks):
        for view, keystone, turn in views:
            for seed in seeds:
                design = DESIGNS[seed % len(DESIGNS)]
                t = render_table(
                    seed, design, faces=deck.faces, keystone=keystone, turn=turn, columns=columns
                )
                label = f"{deck.name} {view}" if view else deck.name
                yield label, (t.image, t.truth, t.kinds, t.card_width, None)


def _trained(views: tuple[tuple[str, float, float], ...]) -> Iterator[tuple[str, Table]]:
    """The trained Debian designs' tables (seeds 200–209) in each view."""
    from train.decks import TRAIN_DECKS

    return _laid_out(TRAIN_DECKS, range(200, 210), views)


def _trained_layout() -> Iterator[tuple[str, Table]]:
    return _trained((("", 1.0, 0.0),))


def _trained_views() -> Iterator[tuple[str, Table]]:
    return _trained((("seat 0.7", 0.7, 0.0), ("turned 20°", 1.0, 20.0)))


# Tablecloths the training generator seldom draws (BGR): a white one is as bright as paper.
CLOTHS = {
    "white": (235, 235, 235),
    "light grey": (200, 200, 200),
    "light wood": (150, 190, 215),
    "dark": (35, 35, 35),
    "red": (40, 40, 170),
    "beige": (190, 215, 225),
}


def _cloths() -> Iterator[tuple[str, Table]]:
    from dataclasses import replace

    from tests.render_tables import DESIGNS, render_table

    from train.decks import TRAIN_DECKS, default_cache, load_decks

    decks = load_decks(default_cache(), TRAIN_DECKS[::3])
    for cloth, bgr in CLOTHS.items():
        for deck in decks:
            for seed in range(200, 204):
                design = replace(DESIGNS[seed % len(DESIGNS)], cloth=bgr)
                t = render_table(seed, design, faces=deck.faces)
                yield (
                    f"six trained designs, {cloth}",
                    (t.image, t.truth, t.kinds, t.card_width, None),
                )
        for design in DESIGNS:
            for seed in range(204, 210):
                t = render_table(seed, replace(design, cloth=bgr))
                yield f"stroke designs, {cloth}", (t.image, t.truth, t.kinds, t.card_width, None)


def _cream() -> Iterator[tuple[str, Table]]:
    from tests.render_tables import DESIGNS, cream, render_table

    for design in DESIGNS:
        for seed in range(300, 315):
            t = render_table(seed, cream(design))
            yield design.name, (t.image, t.truth, t.kinds, t.card_width, None)


def _older_five(tilted: float = 0.0) -> Iterator[tuple[str, Table]]:
    from train.decks import HELD_OUT

    return _generated(HELD_OUT[:5], 7000, 40, tilted)


def _generated(
    decks: tuple[str, ...], seed: int, tables: int, tilted: float
) -> Iterator[tuple[str, Table]]:
    """The training generator's Tranca tables of ``decks`` at 1.2 times the normalised
    scale, a ``tilted`` share photographed at an angle."""
    from train.decks import default_cache, load_decks
    from train.synth import SceneMaker

    faces = {d.name: d.faces for d in load_decks(default_cache(), decks)}
    maker = SceneMaker(faces, seed, tilted=tilted)
    for _ in range(tables):
        scene = maker.scene(tranca=True)
        image = cv2.resize(scene.image, None, fx=1.2, fy=1.2, interpolation=cv2.INTER_CUBIC)
        # Photographed at an angle, only the cards whose index the photo shows count.
        truth, unseen, mirrored = maker.photo_truth(scene, 1.2)
        width = scene.cards[0].width * 1.2
        yield scene.cards[0].deck, (image, truth, scene.groups, width, None, unseen, mirrored)


def _older_five_tilted() -> Iterator[tuple[str, Table]]:
    return _older_five(tilted=1.0)


def _trained_tilted() -> Iterator[tuple[str, Table]]:
    from train.decks import TRAIN_DECKS

    return _generated(TRAIN_DECKS, 8000, 60, 1.0)


def _older_five_seated() -> Iterator[tuple[str, Table]]:
    from train.decks import HELD_OUT

    seats = (("seat 0.7", 0.7, 0.0), ("seat 0.55", 0.55, 0.0))
    return _laid_out(HELD_OUT[:5], range(200, 220), seats)


def _columns() -> Iterator[tuple[str, Table]]:
    from tests.render_tables import DESIGNS, render_table

    from train.decks import HELD_OUT, TRAIN_DECKS

    views = (("columns", 1.0, 0.0), ("columns, seat 0.7", 0.7, 0.0))
    yield from _laid_out(TRAIN_DECKS[::2] + HELD_OUT[:5], range(200, 206), views, columns=True)
    for design in DESIGNS:
        for seed in range(200, 220):
            t = render_table(seed, design, columns=True)
            yield f"{design.name} columns", (t.image, t.truth, t.kinds, t.card_width, None)


def _stroke() -> Iterator[tuple[str, Table]]:
    from tests.render_tables import DESIGNS, render_table

    views = (("flat", 1.0, 0.0), ("seat 0.55", 0.55, 0.0), ("turned 20°", 1.0, 20.0))
    for view, keystone, turn in views:
        for design in DESIGNS:
            for seed in range(200, 220):
                t = render_table(seed, design, keystone=keystone, turn=turn)
                yield f"{design.name} {view}", (t.image, t.truth, t.kinds, t.card_width, None)


def _jumbo() -> Iterator[tuple[str, Table]]:
    from dataclasses import replace

    from tests.render_tables import DESIGNS, render_table

    for index in JUMBO:
        for design in DESIGNS:
            for seed in range(200, 210):
                t = render_table(seed, replace(design, index=index))
                yield (
                    f"{design.name} index {index}",
                    (t.image, t.truth, t.kinds, t.card_width, None),
                )


def _close_ups() -> Iterator[tuple[str, Table]]:
    from tests.render_tables import DESIGNS, render_close_up

    from train.decks import TRAIN_DECKS, default_cache, load_decks

    for deck in load_decks(default_cache(), TRAIN_DECKS[::3]):
        for seed in range(200, 210):
            t = render_close_up(seed, DESIGNS[seed % len(DESIGNS)], faces=deck.faces)
            yield deck.name, (t.image, t.truth, t.kinds, t.card_width, None)
    for design in DESIGNS:
        for seed in range(200, 220):
            t = render_close_up(seed, design)
            yield design.name, (t.image, t.truth, t.kinds, t.card_width, None)


def _learnt(shipped: bool = False) -> Iterator[tuple[str, Table]]:
    from tests.render_tables import DESIGNS, render_table

    from cardscore.vision.learn import learn_from_photos
    from train.decks import HELD_OUT, TRAIN_DECKS, default_cache, load_decks

    for deck in load_decks(default_cache(), TRAIN_DECKS + HELD_OUT[:5]):
        drawn = [render_table(s, DESIGNS[s % len(DESIGNS)], faces=deck.faces) for s in LEARNT]
        labelled = [(t.image, [c for c, *_ in t.truth], f"table {k}") for k, t in enumerate(drawn)]
        profile = None if shipped else learn_from_photos(labelled[:5], name=deck.name).profile
        for t in drawn[5:]:
            yield deck.name, (t.image, t.truth, t.kinds, t.card_width, profile)


def _learnt_shipped() -> Iterator[tuple[str, Table]]:
    return _learnt(shipped=True)


SETS = {
    "trained-layout": _trained_layout,
    "trained-views": _trained_views,
    "cloths": _cloths,
    "cream": _cream,
    "older-five": _older_five,
    "older-five-tilted": _older_five_tilted,
    "trained-tilted": _trained_tilted,
    "older-five-seated": _older_five_seated,
    "columns": _columns,
    "stroke": _stroke,
    "jumbo": _jumbo,
    "learnt": _learnt,
    "learnt-shipped": _learnt_shipped,
    "close-ups": _close_ups,
}
JUMBO = (0.22, 0.26)  # the jumbo set's index heights, card widths (the stroke designs': 0.13)
LEARNT = range(200, 220)  # the learnt set's seeds: a deck learnt from the first five


def _line(name: str, t: TableScore) -> str:
    right = t.cards_right
    return (
        f"| {name} | {right}/{t.cards} | {t.cards_extra} | {t.wrong_unflagged} | "
        f"{t.flagged - t.flagged_wrong} | {t.melds_exact}/{t.melds} | {t.piles_right}/{t.piles} |"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # No `choices`: Python 3.11's argparse checks an empty list of positionals against them.
    parser.add_argument("sets", nargs="*", metavar="SET", help=f"of {', '.join(SETS)} (all)")
    args = parser.parse_args()
    unknown = [name for name in args.sets if name not in SETS]
    if unknown:
        parser.error(f"no such set: {', '.join(map(repr, unknown))} (sets: {', '.join(SETS)})")
    for name in args.sets or list(SETS):
        print(f"## {name}\n")
        print("| tables | cards right | extra | wrong unflagged | right flagged | melds | piles |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        groups: dict[str, TableScore] = {}
        total = TableScore()
        for label, (image, truth, kinds, width, deck, *cut) in SETS[name]():
            read = recognize(image, deck=deck)
            score = score_table(truth, kinds, read, width, *cut)
            groups.setdefault(label, TableScore()).add(score)
            total.add(score)
        for label, score in groups.items():
            print(_line(label, score))
        print(_line("**all**", total) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
