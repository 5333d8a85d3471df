"""``cardscore gongzhu``: score piles, hands and matches from the command line."""

from __future__ import annotations

from pathlib import Path

import click

from cardscore.cards import parse_cards
from cardscore.cli.output import (
    breakdown_table,
    console,
    echo_json,
    json_option,
    photo_options,
    vision_reader,
)
from cardscore.errors import CardscoreError, Problem
from cardscore.gongzhu.notation import parse_pile
from cardscore.gongzhu.rules import Rules
from cardscore.gongzhu.scoring import score_hand, score_pile

__all__ = ["group"]


def _rules_options(function: click.decorators.FC) -> click.decorators.FC:
    function = click.option(
        "--low-hearts-count-for-doubler",
        "--low-hearts-double",
        "low_hearts_count_for_doubler",
        is_flag=True,
        help="House rule: ♥2–♥4 count as scoring cards for the ♣10 (♥2 ♣10 is 0, not +50).",
    )(function)
    return click.option(
        "--pig-plus-with-all-hearts",
        is_flag=True,
        help="House rule: all hearts plus ♠Q is worth +300 even without ♦J.",
    )(function)


@click.group("gongzhu")
def group() -> None:
    """Gong Zhu (Chinese Hearts): score the cards each player collected."""


@group.command("score")
@click.argument("pile", nargs=-1)
@photo_options("the pile (the collected cards spread out)")
@click.option(
    "--cards",
    "card_codes",
    is_flag=True,
    help="The arguments are standard cards in any notation (AH QS JD 10C), not a pile string; "
    "cards that carry no points are ignored.",
)
@click.option("--explain", is_flag=True, help="Show the breakdown as a table.")
@_rules_options
@json_option
def score_command(
    pile: tuple[str, ...],
    photo: Path | None,
    deck_path: Path | None,
    card_codes: bool,
    explain: bool,
    pig_plus_with_all_hearts: bool,
    low_hearts_count_for_doubler: bool,
    as_json: bool,
) -> None:
    """Score one player's PILE.

    PILE is the seed's notation, 23456789TJQKA for ♥2–♥A, P for ♠Q, G for ♦J and D for ♣10
    (e.g. 23456789TJQKAPGD); with --cards, the arguments are standard cards instead.
    """
    rules = Rules(pig_plus_with_all_hearts, low_hearts_count_for_doubler)
    if (photo is None) == (not pile):
        raise CardscoreError(Problem.of("pile_or_photo"))
    if photo is not None:
        cards = tuple(vision_reader("photo_cards")(photo, deck_path))
    else:
        cards = parse_cards(pile) if card_codes else parse_pile("".join(pile))
    result = score_pile(cards, rules)
    if as_json:
        echo_json(result.as_dict())
    elif explain:
        console().print(
            breakdown_table(result.breakdown, title=f"Gong Zhu pile {result.pile or '(empty)'}")
        )
    else:
        click.echo(result.total)


@group.command("hand")
@click.argument("piles", nargs=4)
@_rules_options
@json_option
def hand_command(
    piles: tuple[str, ...],
    pig_plus_with_all_hearts: bool,
    low_hearts_count_for_doubler: bool,
    as_json: bool,
) -> None:
    """Score the four PILES of one hand (pile notation, '' for a player with none)."""
    rules = Rules(pig_plus_with_all_hearts, low_hearts_count_for_doubler)
    scores = score_hand(piles, rules)
    if as_json:
        echo_json({"scores": [s.as_dict() for s in scores]})
        return
    for number, result in enumerate(scores, start=1):
        click.echo(f"player {number}: {result.total:>5}  {result.pile}")
