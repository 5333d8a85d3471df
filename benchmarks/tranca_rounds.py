"""Tranca: how long checking and scoring a round takes, next to an unchecked naive sum.

Run: ``python benchmarks/tranca_rounds.py`` (from the repository root). The naive peer adds the
points straight from the JSON with no validation at all, so the ratio is the price of checking
every rule (melds, dollars, trancas, going out, card counts across the round).
"""

from __future__ import annotations

import json
import timeit
from pathlib import Path
from typing import Any

from cardscore.cards import Card, Rank
from cardscore.tranca import Match, Meld, Team, parse_round, score_round

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = [json.loads((ROOT / f"examples/tranca/round{n}.json").read_text()) for n in (1, 2, 3)]
VALUE = (
    dict.fromkeys(Rank, 10)
    | {Rank.ACE: 15, Rank.THREE: 5}
    | dict.fromkeys((Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN), 5)
)


def naive(data: dict[str, Any]) -> list[int]:
    """Unchecked: card values, canastra bonuses, dollars, morto, going out, hand, trancas."""
    totals = []
    for team in data["teams"]:
        points, canastras = 0, 0
        for meld in team.get("melds", []):
            cards = [Card(c) for c in meld]
            points += sum(VALUE[c.rank] for c in cards)
            if len(cards) >= 7:
                canastras += 1
                twos = sum(c.rank is Rank.TWO for c in cards)
                points += 1000 if twos == len(cards) else 100 if twos else 200
        for pile in team.get("piles", []):
            canastras += 1
            rank = Rank("T" if pile["pile"] == "10" else pile["pile"])
            n = pile.get("cards", 7)
            if rank is Rank.TWO:
                points += 10 * n + 1000
            elif pile.get("clean", True):
                points += VALUE[rank] * n + 200
            else:
                points += VALUE[rank] * (n - 1) + 10 + 100
        dollars = len(team.get("dollars", []))
        points += dollars * (105 if canastras else -95)
        points += (0 if team["took_morto"] else -100) + (100 if team["went_out"] else 0)
        hand = team.get("hand", [])
        held = [c for cards in hand.values() for c in cards] if isinstance(hand, dict) else hand
        points -= sum(100 if c[0] == "3" else VALUE[Card(c).rank] for c in held)
        totals.append(points)
    return totals


def per_call(stmt: Any, number: int) -> float:
    return min(timeit.repeat(stmt, number=number, repeat=5)) / number * 1e6


def main() -> None:
    parsed = [parse_round(r) for r in ROUNDS]
    for data, round_ in zip(ROUNDS, parsed, strict=True):  # the peer must agree first
        assert naive(data) == [team.total for team in score_round(round_).teams]

    def match() -> None:
        m = Match([Team(t.name, t.players) for t in parsed[0].teams])
        for r in parsed:
            m.add_round(r)

    rows = [
        (
            "parse_round + score_round (3 example rounds)",
            lambda: [score_round(parse_round(r)) for r in ROUNDS],
            200,
        ),
        ("naive unchecked sum (same 3 rounds)", lambda: [naive(r) for r in ROUNDS], 200),
        ("score_round only (3 parsed rounds)", lambda: [score_round(r) for r in parsed], 1000),
        ("Match of the 3 parsed rounds", match, 500),
        ("Meld('4h 5h 6h 7h 8h 9h 2c')", lambda: Meld("4h 5h 6h 7h 8h 9h 2c"), 5000),
    ]
    width = max(len(name) for name, _, _ in rows)
    print(f"{'what':<{width}}  µs/call")
    results = {}
    for name, stmt, number in rows:
        results[name] = per_call(stmt, number)
        print(f"{name:<{width}}  {results[name]:8.1f}")
    ratio = results[rows[0][0]] / results[rows[1][0]]
    print(f"checked / naive: {ratio:.1f}×")


if __name__ == "__main__":
    main()
