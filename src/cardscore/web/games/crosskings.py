"""Cross Kings against the computer: a "match" is one game, a "round" one move.

The deal stays on the server (face-down cards must stay hidden: :meth:`public_config` drops it);
a move names only its cell, so nobody can choose the card under a face-down cell. After each of
the player's moves, :meth:`reply` adds the computer's.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from cardscore.cards import parse_card
from cardscore.crosskings import Bot, Game, cell_index
from cardscore.errors import CardscoreError
from cardscore.matches import sole_leader
from cardscore.web.games.base import Checked, Defaults, RoundSummary, Summary

__all__ = ["SIDES", "CrossKingsAdapter", "game_of"]

SIDES = ["P1", "P2"]
"""Player 1 is the person at the page, player 2 the computer."""


def game_of(config: Mapping[str, Any], documents: Sequence[Mapping[str, Any]]) -> Game:
    """The game after the moves (each ``{"move": "d3"}``; a card after ``=`` is ignored)."""
    game = Game(tuple(parse_card(c) for c in config["cards"]), cell_index(config["start"]))
    for number, document in enumerate(documents, start=1):
        move = document.get("move") if isinstance(document, Mapping) else None
        if not isinstance(move, str):
            raise CardscoreError(f'move {number}: a move is {{"move": "d3"}}, not {document!r}')
        try:
            game = game.move(move.partition("=")[0].strip())
        except CardscoreError as error:
            raise CardscoreError(p.at(f"move {number} {move!r}") for p in error.problems) from None
    return game


class CrossKingsAdapter(Defaults):
    name = "crosskings"
    # Half the moves are the computer's, and each of the player's moves was answered: none can
    # be swapped for another (a replaced move could even turn up a face-down card). Undo instead.
    replaceable = False

    def new_config(self, request: Mapping[str, Any]) -> dict[str, Any]:
        level = int(request.get("level", 2))
        seed = request.get("seed")
        seed = random.SystemRandom().randrange(2**31) if seed is None else int(seed)
        Bot(level)  # a level it does not know is a CardscoreError
        game = Game.deal(seed=seed)
        return {
            "cards": [c.code for c in game.cards],
            "start": "c3",
            "level": level,
            "seed": seed,
        }

    def public_config(self, config: Mapping[str, Any]) -> dict[str, Any]:
        return {"level": config["level"]}

    def reply(
        self, config: Mapping[str, Any], documents: Sequence[Mapping[str, Any]]
    ) -> list[dict[str, Any]]:
        """The moves with the computer's answer added when it is its turn."""
        game = game_of(config, documents)
        moves = [dict(d) for d in documents]
        if not game.is_over and game.to_move == 2:
            bot = Bot(int(config["level"]), seed=int(config["seed"]) + len(moves))
            moves.append({"move": bot.choose(game)})
        return moves

    def undo(self, documents: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """Back to the player's previous turn (their move and the computer's answer)."""
        keep = len(documents) - (2 if len(documents) % 2 == 0 else 1)
        return [dict(d) for d in documents[: max(keep, 0)]]

    def check_rounds(
        self, config: Mapping[str, Any], documents: Sequence[Mapping[str, Any]]
    ) -> Checked:
        game = game_of(config, documents)
        if len(documents) > len(game.moves):
            raise CardscoreError("the game is over")
        checked = [{"move": m.notation} for m in game.moves]
        return Checked(checked, self._summary(game))

    def summary(self, config: Mapping[str, Any], documents: Sequence[Mapping[str, Any]]) -> Summary:
        return self._summary(game_of(config, documents))

    @staticmethod
    def _summary(game: Game) -> Summary:
        rounds: list[RoundSummary] = []
        before = [0, 0]
        for number in range(1, len(game.moves) + 1):
            position = game.undo(len(game.moves) - number)
            totals = [position.p1.score(), position.p2.score()]
            move = game.moves[number - 1]
            rounds.append(
                {
                    "number": number,
                    "points": [t - b for t, b in zip(totals, before, strict=True)],
                    "totals": totals,
                    "detail": {"player": move.player, "move": move.notation},
                }
            )
            before = totals
        totals = [game.p1.score(), game.p2.score()]
        leader = sole_leader(dict(zip(SIDES, totals, strict=True)))
        return {
            "sides": list(SIDES),
            "rounds": rounds,
            "totals": totals,
            "leader": leader,
            "winner": leader if game.is_over else None,
            "over": game.is_over,
            "target": 0,
            "stats": {
                "to_move": game.to_move,
                "marker": game.marker,
                "legal_moves": list(game.legal_moves),
                "cards_left": game.cards_left,
                "face_down_left": game.face_down_left,
            },
        }
