"""Gong Zhu matches: a hand is the four players' piles, the match ends at a losing limit."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardscore.errors import CardscoreError
from cardscore.gongzhu import Match, Rules, format_pile, parse_piles
from cardscore.web.games.base import Checked, Defaults, RoundSummary, Summary, breakdown_dict

__all__ = ["GongzhuAdapter"]


def _match(config: Mapping[str, Any]) -> Match:
    rules = Rules.from_mapping(config.get("rules"))
    return Match(tuple(config["players"]), limit=int(config["limit"]), rules=rules)


def _piles(document: Mapping[str, Any]) -> list[str]:
    """The hand's four piles in pile notation (a pile may be given as standard cards)."""
    piles = document.get("piles")
    if not isinstance(piles, list) or not all(isinstance(p, str) for p in piles):
        raise CardscoreError("a hand has 'piles': a list of four piles, one per player")
    notation = document.get("notation", "pile")
    if notation not in ("pile", "cards"):
        raise CardscoreError(f"'notation' is 'pile' or 'cards', not {notation!r}")
    return [format_pile(p) for p in parse_piles(piles, cards=notation == "cards")]


class GongzhuAdapter(Defaults):
    name = "gongzhu"

    def new_config(self, request: Mapping[str, Any]) -> dict[str, Any]:
        players = [str(p).strip() for p in request.get("players", [])]
        limit = int(request.get("limit", -1000))
        rules = dict(request.get("rules") or {})
        Match(tuple(players), limit=limit)  # four names and a negative limit, or a problem
        return {"players": players, "limit": limit, "rules": rules}

    def check_rounds(
        self, config: Mapping[str, Any], documents: Sequence[Mapping[str, Any]]
    ) -> Checked:
        match = _match(config)
        checked: list[dict[str, Any]] = []
        for number, document in enumerate(documents, start=1):
            try:
                piles = _piles(document)
                match.play_hand(piles)
            except CardscoreError as error:
                raise CardscoreError(p.at(f"hand {number}") for p in error.problems) from None
            checked.append({"piles": piles})
        return Checked(checked, self.summary(config, checked))

    def summary(self, config: Mapping[str, Any], documents: Sequence[Mapping[str, Any]]) -> Summary:
        match = _match(config)
        rounds: list[RoundSummary] = []
        for document in documents:
            hand = match.play_hand(list(document["piles"]))
            rounds.append(
                {
                    "number": hand.number,
                    "points": [s.total for s in hand.scores],
                    "totals": list(hand.totals),
                    "detail": {
                        "scores": [s.as_dict() for s in hand.scores],
                        "breakdowns": [
                            breakdown_dict(player, s.breakdown)
                            for player, s in zip(match.players, hand.scores, strict=True)
                        ],
                    },
                }
            )
        return {
            "sides": list(match.players),
            "rounds": rounds,
            "totals": list(match.totals.values()),
            "leader": match.leader,
            "winner": match.winner,
            "over": match.is_over,
            "target": match.limit,
            "stats": {"losers": list(match.losers)},
        }
