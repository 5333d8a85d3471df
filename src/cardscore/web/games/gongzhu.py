"""Gong Zhu matches: a hand is the four players' piles, the match ends at a losing limit."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardscore.cards import parse_cards
from cardscore.errors import CardscoreError, Problem
from cardscore.gongzhu import Match, Rules, format_pile, parse_pile
from cardscore.limits import MAX_PILE_TEXT
from cardscore.web.games.base import Checked, Defaults, RoundSummary, Summary, breakdown_dict

__all__ = ["GongzhuAdapter"]


def _rules(config: Mapping[str, Any]) -> Rules:
    rules = config.get("rules") or {}
    return Rules(
        pig_plus_with_all_hearts=bool(rules.get("pig_plus_with_all_hearts", False)),
        low_hearts_count_for_doubler=bool(rules.get("low_hearts_count_for_doubler", False)),
    )


def _match(config: Mapping[str, Any]) -> Match:
    return Match(tuple(config["players"]), limit=int(config["limit"]), rules=_rules(config))


def _piles(document: Mapping[str, Any]) -> list[str]:
    """The hand's four piles in pile notation (a pile may be given as standard cards)."""
    piles = document.get("piles")
    if not isinstance(piles, list) or len(piles) != 4:
        raise CardscoreError("a hand has 'piles': a list of four piles, one per player")
    notation = document.get("notation", "pile")
    if notation not in ("pile", "cards"):
        raise CardscoreError(f"'notation' is 'pile' or 'cards', not {notation!r}")
    problems: list[str] = []
    out: list[str] = []
    for number, pile in enumerate(piles, start=1):
        if not isinstance(pile, str):
            problems.append(f"pile {number} is {pile!r}, not a string")
            continue
        if len(pile) > MAX_PILE_TEXT:
            problems.append(
                Problem.of("pile_text_too_long", position=number, n=len(pile), limit=MAX_PILE_TEXT)
            )
            continue
        try:
            cards = parse_cards(pile) if notation == "cards" and pile.strip() else parse_pile(pile)
            out.append(format_pile(cards))
        except CardscoreError as error:
            problems.extend(f"pile {number}: {p}" for p in error.problems)
    if problems:
        raise CardscoreError(problems)
    return out


class GongzhuAdapter(Defaults):
    name = "gongzhu"

    def new_config(self, request: Mapping[str, Any]) -> dict[str, Any]:
        players = [str(p).strip() for p in request.get("players", [])]
        limit = int(request.get("limit", -1000))
        rules = dict(request.get("rules") or {})
        try:
            Match(tuple(players), limit=limit)
        except ValueError as error:
            raise CardscoreError(str(error)) from None
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
                raise CardscoreError(f"hand {number}: {p}" for p in error.problems) from None
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
        totals = list(match.totals.values())
        best = max(totals) if rounds else None
        leaders = [p for p, t in match.totals.items() if t == best]
        return {
            "sides": list(match.players),
            "rounds": rounds,
            "totals": totals,
            "leader": leaders[0] if rounds and len(leaders) == 1 else None,
            "winner": match.winner,
            "over": match.is_over,
            "target": match.limit,
            "stats": {"losers": list(match.losers)},
        }
