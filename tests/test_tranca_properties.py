"""Hypothesis properties of Tranca scoring, on random rounds that fit in the decks.

Rounds are drawn from the real decks (so they are legal by construction): the order of melds and
of cards never changes the score, the terms always add up to the total, the JSON round-trips,
and an independent, naive scorer written here agrees.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from cardscore.cards import Card, Rank, Suit
from cardscore.tranca import TERMS, Meld, parse_round, score_round
from cardscore.tranca.melds import meld_problems
from cardscore.tranca.rules import decks_for, team_count, team_size

RANKS = list(Rank)
SUITS = list(Suit)
NATURAL = [r for r in RANKS if r.index >= Rank.FOUR.index]  # 4…A
# A 15, 8–K 10, 4–7 5, 2 10 (and a red 3 as a card 5)
VALUE = dict.fromkeys(RANKS, 10) | {Rank.ACE: 15, Rank.THREE: 5} | dict.fromkeys(NATURAL[:4], 5)


def take(pool: Counter[Card], cards: list[Card]) -> bool:
    """Remove ``cards`` from the pool if it holds them all."""
    need = Counter(cards)
    if any(pool[c] < n for c, n in need.items()):
        return False
    pool.subtract(need)
    return True


@st.composite
def melds(draw: st.DrawFn, pool: Counter[Card]) -> list[Card] | None:
    kind = draw(st.sampled_from(["sequence", "set", "twos"]))
    joker = draw(st.booleans())
    if kind == "sequence":
        suit = draw(st.sampled_from(SUITS))
        low = draw(st.integers(0, len(NATURAL) - 3))
        length = draw(st.integers(3, len(NATURAL) - low))
        cards = [Card(r, suit) for r in NATURAL[low : low + length]]
        if joker and length < len(NATURAL):
            at = draw(st.integers(0, length - 1))
            cards[at] = Card(Rank.TWO, draw(st.sampled_from(SUITS)))
    elif kind == "set":
        rank = draw(st.sampled_from(NATURAL))
        cards = [
            Card(rank, s) for s in draw(st.lists(st.sampled_from(SUITS), min_size=3, max_size=8))
        ]
        if joker:
            cards[0] = Card(Rank.TWO, draw(st.sampled_from(SUITS)))
    else:
        cards = [
            Card(Rank.TWO, s)
            for s in draw(st.lists(st.sampled_from(SUITS), min_size=3, max_size=8))
        ]
    return cards if take(pool, cards) else None


@st.composite
def rounds(draw: st.DrawFn) -> dict[str, Any]:
    players = draw(st.sampled_from([2, 3, 4, 6]))
    decks = decks_for(players)
    pool: Counter[Card] = Counter({Card(r, s): decks for r in RANKS for s in SUITS})
    teams = []
    for number in range(team_count(players)):
        team_melds = [m for m in draw(st.lists(melds(pool), max_size=4)) if m is not None]
        piles = []
        if draw(st.booleans()):
            rank = draw(st.sampled_from([Rank.TWO, *NATURAL]))
            clean = draw(st.booleans()) or rank is Rank.TWO
            size = draw(st.integers(7, 8))
            of_rank = [c for c in pool.elements() if c.rank is rank]
            twos = [c for c in pool.elements() if c.rank is Rank.TWO]
            needed = size if clean else size - 1
            if len(of_rank) >= needed and (clean or twos):
                take(pool, of_rank[:needed] + ([] if clean else twos[:1]))
                piles.append({"pile": rank.value, "clean": clean, "cards": size})
        reds = [c for c in pool.elements() if c.rank is Rank.THREE and c.suit.is_red]
        dollars = reds[: draw(st.integers(0, 2))]
        take(pool, dollars)
        others = sorted(c for c in pool.elements() if not (c.rank is Rank.THREE and c.suit.is_red))
        hand = draw(st.lists(st.sampled_from(others), max_size=6, unique=True)) if others else []
        take(pool, hand)
        teams.append(
            {
                "name": f"team {number}",
                "melds": [[c.code for c in m] for m in team_melds],
                "piles": piles,
                "dollars": [c.code for c in dollars],
                "hand": [c.code for c in hand],
                "took_morto": draw(st.booleans()),
                "went_out": False,
            }
        )
    can_go_out = [t for t in teams if t["piles"] or any(len(m) >= 7 for m in t["melds"])]
    if can_go_out and draw(st.booleans()):
        out = draw(st.sampled_from(can_go_out))
        out["went_out"] = True
        if team_size(players) == 1:
            out["hand"] = []
    took = [t for t in teams if t["took_morto"]]
    for side in took[2:]:  # there are two mortos: a third team takes none
        side["took_morto"] = False
    return {"players": players, "teams": teams}


def naive_total(team: dict[str, Any]) -> int:
    """The rules read straight off the seed, independent of the package's model."""
    table = [Card(c) for meld in team["melds"] for c in meld]
    points = sum(VALUE[c.rank] for c in table)
    canastras = 0
    for meld in team["melds"]:
        if len(meld) >= 7:
            twos = sum(Card(c).rank is Rank.TWO for c in meld)
            canastras += 1
            points += 1000 if twos == len(meld) else 100 if twos else 200
    for pile in team["piles"]:
        rank = Rank(pile["pile"])
        canastras += 1
        if rank is Rank.TWO:
            points += 10 * pile["cards"] + 1000
        elif pile["clean"]:
            points += VALUE[rank] * pile["cards"] + 200
        else:
            points += VALUE[rank] * (pile["cards"] - 1) + 10 + 100
    dollars = len(team["dollars"])
    points += 5 * dollars + (100 if canastras else -100) * dollars
    points += 0 if team["took_morto"] else -100
    points += 100 if team["went_out"] else 0
    for code in team["hand"]:
        card = Card(code)
        points -= 100 if card.rank is Rank.THREE else VALUE[card.rank]
    return points


@settings(max_examples=150, deadline=None)
@given(rounds())
def test_random_legal_rounds_score_like_the_naive_reading(data: dict[str, Any]) -> None:
    score = score_round(parse_round(data))
    assert [t.total for t in score.teams] == [naive_total(t) for t in data["teams"]]


@settings(max_examples=150, deadline=None)
@given(rounds())
def test_breakdown_always_sums_to_the_total(data: dict[str, Any]) -> None:
    for team in score_round(parse_round(data)).as_dict()["teams"]:
        assert team["total"] == sum(term["points"] for term in team["terms"])
        assert {term["term"] for term in team["terms"]} <= set(TERMS)


@settings(max_examples=100, deadline=None)
@given(rounds(), st.randoms(use_true_random=False))
def test_order_of_melds_and_cards_never_changes_the_score(data: dict[str, Any], rnd: Any) -> None:
    expected = score_round(parse_round(data))
    for team in data["teams"]:
        rnd.shuffle(team["melds"])
        for meld in team["melds"]:
            rnd.shuffle(meld)
        rnd.shuffle(team["piles"])
        rnd.shuffle(team["hand"])
        rnd.shuffle(team["dollars"])
    shuffled = score_round(parse_round(data))
    assert [t.total for t in shuffled.teams] == [t.total for t in expected.teams]
    for mixed, first in zip(shuffled.as_dict()["teams"], expected.as_dict()["teams"], strict=True):
        assert sorted(map(repr, mixed["terms"])) == sorted(map(repr, first["terms"]))


@settings(max_examples=100, deadline=None)
@given(rounds())
def test_json_round_trip(data: dict[str, Any]) -> None:
    round_ = parse_round(data)
    assert parse_round(round_.as_dict()) == round_


@settings(max_examples=200, deadline=None)
@given(st.data(), st.randoms(use_true_random=False))
def test_meld_is_the_same_whatever_the_order(data: st.DataObject, rnd: Any) -> None:
    cards = data.draw(melds(Counter({Card(r, s): 8 for r in RANKS for s in SUITS})))
    assert cards is not None  # eight decks hold every meld the strategy makes
    meld = Meld(cards)
    rnd.shuffle(cards)
    assert Meld(cards) == meld
    assert sorted(meld.cards) == sorted(cards)
    # a 3 never fits; a second 2 never fits a meld with naturals
    assert meld_problems([*cards, Card("3h")])
    if meld.joker is not None:
        assert meld_problems([*cards, Card("2s")])
