"""``cardscore toy``: score a hand."""

from __future__ import annotations

import click

from tests.toygame import hand_points

__all__ = ["group"]


@click.group("toy")
def group() -> None:
    """Toy: sum the ranks of your cards."""


@group.command("score")
@click.argument("cards")
def score(cards: str) -> None:
    """Score one hand, e.g. 'Ah Kd 5c'."""
    click.echo(hand_points(cards))
