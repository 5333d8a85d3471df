"""``cardscore recognize PHOTO``: the cards, melds and piles on a table, and a Tranca draft;
``cardscore deck learn``: a profile of the table's deck to read with (``--deck``); ``cardscore
deck show``: which cards a profile learnt."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from cardscore.cards import Card, full_deck
from cardscore.cli.output import console, counting_bar, echo_json, json_option
from cardscore.errors import CardscoreError, Problem
from cardscore.vision.deck import DeckProfile
from cardscore.vision.recognition import Recognition, SeenCard, recognize

if TYPE_CHECKING:
    from cardscore.vision.learn import Learnt

__all__ = [
    "deck_group",
    "deck_option",
    "load_deck",
    "photo_cards",
    "photo_rows",
    "read_with_deck",
    "recognize_command",
    "text_report",
]


def load_deck(path: Path | None) -> DeckProfile | None:
    """The profile at ``path`` (None: none), checked against the installed models."""
    if path is None:
        return None
    from cardscore.vision.classifier import MODEL_PATHS

    deck = DeckProfile.load(path)
    deck.check(MODEL_PATHS)
    return deck


def read_with_deck(
    photo: Path, deck_path: Path | None, card_width: float | None = None, melds: bool = True
) -> Recognition:
    """:func:`~cardscore.vision.recognition.recognize` ``photo`` with the profile at
    ``deck_path``: a bad profile and a bad photo are reported together, not one per try.
    ``melds`` false: another game's photo, whose fans are no Tranca melds."""
    try:
        deck = load_deck(deck_path)
    except CardscoreError as error:
        photo_problems = _photo_problems(photo)
        if not photo_problems:
            raise  # the profile's own error, of its own class
        raise CardscoreError([*error.problems, *photo_problems]) from None
    return recognize(photo, card_width=card_width, deck=deck, melds=melds)


def _photo_problems(photo: Path) -> tuple[Problem, ...]:
    """What is wrong with ``photo`` as a photo to read (nothing: ``()``)."""
    from cardscore.vision.image_io import ImageError, load_image

    try:
        load_image(photo)
    except ImageError as error:
        return error.problems
    return ()


deck_option = click.option(
    "--deck",
    "deck_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Read with this deck profile (made by: cardscore deck learn).",
)


def text_report(result: Recognition) -> str:
    """The people-readable report."""
    leaned = f"; taken {result.tilt:.0f}° off overhead, straightened" if result.tilt else ""
    if result.sharpened:
        leaned += "; blurred or shaken, sharpened: a steadier photo reads better"
    if result.jumbo:
        leaned += "; a jumbo index, read less surely: check its cards by eye"
    lines = [f"{len(result.cards)} cards (card width {result.card_width:.0f} px{leaned}):"]
    for n, seen in enumerate(result.cards):
        mark = "  ? please confirm" + (f" (or {seen.alternative.code})" if seen.alternative else "")
        lines.append(
            f"  {n:>2}  {seen.card.code:<3} {seen.card!s:<4} {seen.confidence:5.3f}  "
            f"at ({seen.x:.0f}, {seen.y:.0f}), turned {seen.angle:.0f}°"
            + (mark if seen.flagged else "")
        )
    lines.append("groups:")
    for group in result.groups:
        cards = " ".join(result.cards[i].card.code for i in group.cards)
        extra = ""
        if group.orientation:
            clean = "clean" if group.orientation == "horizontal" else "dirty"
            extra = f" — {group.orientation} ({clean})"
        lines.append(f"  {group.kind:<6} {cards}{extra}")
    draft = result.tranca_draft()
    lines.append("tranca draft (add hand, took_morto and went_out):")
    lines.append(f"  melds:   {draft['melds']}")
    lines.append(f"  piles:   {draft['piles']}")
    lines.append(f"  dollars: {draft['dollars']}")
    if result.flagged:
        lines.append(f"{len(result.flagged)} card(s) need confirming (marked ?)")
    return "\n".join(lines)


@click.command("recognize")
@click.argument("photo", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--annotate",
    "annotate_path",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    help="Also write the photo with boxes, codes and groups drawn on it (e.g. out.png).",
)
@click.option(
    "--card-width",
    type=float,
    default=None,
    help="Card width in pixels, if known (skips the estimate).",
)
@deck_option
@json_option
def recognize_command(
    photo: Path,
    annotate_path: Path | None,
    card_width: float | None,
    deck_path: Path | None,
    as_json: bool,
) -> None:
    """Read the cards, melds, piles and dollars on a table from PHOTO.

    Prints every card (code, confidence, where), the groups, and a draft Tranca team entry;
    unsure cards are flagged for you to confirm.
    """
    result = read_with_deck(photo, deck_path, card_width)
    if annotate_path is not None:
        from cardscore.vision.annotate import save_annotated

        save_annotated(photo, result, annotate_path)
    if as_json:
        echo_json(result.as_dict())
    else:
        console().print(text_report(result), markup=False)


@click.group("deck")
def deck_group() -> None:
    """Teach cardscore a table's deck: learn a profile, then read with --deck."""


@deck_group.command("learn")
@click.option(
    "--labels",
    type=click.Path(dir_okay=False, path_type=Path),
    help="A CSV of labelled photos (columns image,cards; the images beside it).",
)
@click.option(
    "--spread",
    type=click.Path(dir_okay=False, path_type=Path),
    help="A photo of the whole deck face up: four rows (♠ ♥ ♦ ♣), A to K in each.",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="Profile to write.",
)
@json_option
def learn_command(labels: Path | None, spread: Path | None, out: Path, as_json: bool) -> None:
    """Learn a deck profile from labelled photos (--labels) or a deck spread (--spread).

    Photos whose labels disagree with what is read are reported, and only their agreeing
    cards are learnt. Then: cardscore recognize --deck OUT PHOTO.
    """
    from cardscore.vision.learn import learn_from_spread

    if (labels is None) == (spread is None):
        raise CardscoreError(Problem.of("learn_labels_or_spread"))
    learnt = (
        _learn_with_progress(labels, out.stem, show=not as_json)
        if labels is not None
        else learn_from_spread(spread or Path(), name=out.stem)
    )
    learnt.profile.save(out)
    known = set(learnt.profile.learnt)
    cards = len(known)
    if as_json:
        echo_json(
            {
                "out": str(out),
                "cards_learnt": cards,
                "not_learnt": [c.code for c in full_deck() if c not in known],
                "crops": learnt.crops,
                "photos": [
                    {
                        "image": p.image,
                        "learnt": p.learnt,
                        "missed": [c.code for c in p.missed],
                        "extra": [c.code for c in p.extra],
                    }
                    for p in learnt.photos
                ],
            }
        )
    else:
        click.echo(f"learnt {cards} of 52 cards from {learnt.crops} crops: wrote {out}")
        if cards < 52:
            click.echo(
                f"the other {52 - cards} were in no photo: where this deck would read one of "
                f"them otherwise than the shipped models, neither reading is sure (which: "
                f"cardscore deck show {out})"
            )


def _learn_with_progress(labels: Path, name: str, show: bool) -> Learnt:
    """:func:`~cardscore.vision.learn.learn_from_labels`, each photo's check on stderr
    (unless not ``show``n), and on a terminal a progress bar of the photos read."""
    from rich.console import Console

    from cardscore.vision.learn import learn_from_labels

    if not show:
        return learn_from_labels(labels, name=name)
    err = Console(stderr=True, highlight=False)
    if not err.is_terminal:
        return learn_from_labels(
            labels, progress=lambda line: click.echo(line, err=True), name=name
        )
    with counting_bar("learning the deck", err) as report:
        return learn_from_labels(
            labels, progress=lambda line: err.print(line, markup=False), step=report, name=name
        )


@deck_group.command("show")
@click.argument("profile", type=click.Path(dir_okay=False, path_type=Path))
@json_option
def show_command(profile: Path, as_json: bool) -> None:
    """Which cards the deck PROFILE learnt, and whether it fits the installed models."""
    from cardscore.vision.classifier import MODEL_PATHS
    from cardscore.vision.deck import DeckProfileError

    deck = DeckProfile.load(profile)
    try:
        deck.check(MODEL_PATHS)
        fits = None
    except DeckProfileError as error:
        fits = error
    learnt = deck.learnt
    if as_json:
        echo_json(
            {
                "name": deck.name,
                "models": list(deck.models),
                "fits_models": fits is None,
                "learnt": [c.code for c in learnt],
                "crops": {c.code: deck.examples[c.id] for c in learnt},
            }
        )
        return
    click.echo(f"{deck.name or profile.name}: {len(learnt)} of 52 cards learnt")
    click.echo(deck.grid())
    click.echo("fits the installed models" if fits is None else f"does not fit: {fits.problems[0]}")


def _read(cards: list[Card], where: str = "") -> None:
    """One stderr line of the ``cards`` read (``where``: which of the photo's rows): a game's
    answer from a photo is only as right as its cards, and stdout carries the answer alone."""
    listed = " ".join(str(c) for c in cards) or "none"
    click.echo(f"photo: {where}{len(cards)} card(s) read: {listed}", err=True)


def _confirm(flagged: list[tuple[str, SeenCard]]) -> None:
    """One stderr line per card the reader is unsure of: the user confirms them."""
    for where, seen in flagged:
        other = f" (or {seen.alternative})" if seen.alternative else ""
        click.echo(f"photo: please confirm {seen.card}{other} {where}", err=True)


def photo_rows(photo: Path, size: int, deck_path: Path | None = None) -> list[list[Card]]:
    """The rows of ``size`` cards on a photo (one per player), for a game's command; the
    unsure cards are listed on stderr."""
    from cardscore.vision.hands import rows_of_cards

    rows = rows_of_cards(read_with_deck(photo, deck_path, melds=False), size)
    for k, row in enumerate(rows, 1):
        _read([s.card for s in row], f"row {k}: ")
    _confirm([(f"in row {k}", s) for k, row in enumerate(rows, 1) for s in row if s.flagged])
    return [[s.card for s in row] for row in rows]


def photo_cards(photo: Path, deck_path: Path | None = None) -> list[Card]:
    """Every card on a photo, for a game's command; the unsure ones listed on stderr."""
    result = read_with_deck(photo, deck_path, melds=False)
    _read([s.card for s in result.cards])
    _confirm([(f"at ({s.x:.0f}, {s.y:.0f})", s) for s in result.cards if s.flagged])
    return [s.card for s in result.cards]
