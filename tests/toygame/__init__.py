"""Toy: a game that exists only to prove that a game is declared once.

Each player shows some cards; a hand scores the sum of its ranks (ace 1, jack 11, queen 12,
king 13); the first to reach the target wins. It is a whole cardscore game in one small package:
its library (here), its CLI (:mod:`.cli`), its web parts (:mod:`.web`, templates, static files,
page text) and one registry entry (:data:`GAME`).

>>> hand_points("Ah Kd 5c")
19
"""

from __future__ import annotations

from cardscore.cards import parse_cards
from cardscore.registry import Game, Web

__all__ = ["GAME", "RANK_POINTS", "hand_points"]

RANK_POINTS = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}


def hand_points(cards: str) -> int:
    """The points of a hand: the sum of its ranks (raises CardscoreError on a bad card)."""
    return sum(RANK_POINTS.get(card.code[0]) or int(card.code[0]) for card in parse_cards(cards))


GAME = Game(
    name="toy",
    title="Toy",
    summary="Sum the ranks of your cards; first to the target wins.",
    players=(2,),
    module="tests.toygame",
    cli="tests.toygame.cli:group",
    actions=("score", "match"),
    web=Web(
        start="/toy",
        link="toy.link",
        blurb="toy.blurb",
        pages="tests.toygame.web:pages",
        api="tests.toygame.web:api",
        adapter="tests.toygame.web:ToyAdapter",
        match_in="tests.toygame.web:ToyMatchIn",
        round_in="tests.toygame.web:ToyRoundIn",
        templates="tests.toygame:templates",
        static="tests.toygame:static",
        i18n="tests.toygame:i18n",
    ),
)
"""The game's one registry entry: ``cardscore.registry.register(GAME)`` adds it everywhere."""
