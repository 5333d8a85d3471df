"""Score the cards one player collected, and the four piles of a whole hand.

>>> from cardscore.cards import parse_cards
>>> score_pile(parse_pile("23456789TJQKAPGD")).total
800
>>> print(score_pile(parse_cards("QS 5H 10C")).breakdown.to_text())
hearts      -10  5♥
all_hearts    0
pig        -100  Q♠
goat          0
doubler    -110  10♣ doubles the other points
total      -220
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from cardscore.breakdown import Breakdown, Term
from cardscore.cards import Card, Rank, Suit, check_decks, parse_cards
from cardscore.errors import CardscoreError, ImpossibleTableError, Problem
from cardscore.gongzhu.notation import format_pile, parse_pile
from cardscore.gongzhu.rules import DOUBLER, GOAT, HEART_POINTS, PIG, Rules
from cardscore.limits import MAX_PILE_TEXT

__all__ = ["PileScore", "parse_piles", "score_hand", "score_pile"]

_ALL_HEARTS = 13


@dataclass(frozen=True, slots=True)
class PileScore:
    """A player's collected scoring cards, the terms of their score and the total."""

    cards: tuple[Card, ...]
    breakdown: Breakdown

    @property
    def total(self) -> int:
        return self.breakdown.total

    @property
    def pile(self) -> str:
        """The scoring cards in the seed's pile notation."""
        return format_pile(self.cards)

    def as_dict(self) -> dict[str, object]:
        """``{"total", "terms", "pile", "cards"}``: what ``gongzhu score --json`` prints."""
        return {
            **self.breakdown.as_dict(),
            "pile": self.pile,
            "cards": [c.code for c in self.cards],
        }

    def _repr_html_(self) -> str:
        return self.breakdown._repr_html_()


def _is_scoring(card: Card) -> bool:
    return card in (PIG, GOAT, DOUBLER) or card.suit is Suit.HEARTS


_SCORING = (*(Card(rank, Suit.HEARTS) for rank in Rank), PIG, GOAT, DOUBLER)


def score_pile(cards: Iterable[Card], rules: Rules = Rules()) -> PileScore:
    """Score one player's collected cards; cards that carry no points are ignored.

    A card given twice is an error: one deck holds one of each.
    """
    given = list(cards)
    check_decks(given, decks=1)
    scoring = tuple(sorted((c for c in given if _is_scoring(c)), key=_pile_order))
    hearts = [c for c in scoring if c.suit is Suit.HEARTS]
    all_hearts = len(hearts) == _ALL_HEARTS
    has_pig, has_goat, has_doubler = PIG in scoring, GOAT in scoring, DOUBLER in scoring

    heart_points = sum(HEART_POINTS[c.rank] for c in hearts)
    hearts_term = Term(
        "hearts", heart_points, cards=tuple(c for c in hearts if HEART_POINTS[c.rank])
    )
    # All hearts turn the hearts' -200 into +200: a swing of twice their face value.
    all_hearts_term = (
        Term("all_hearts", -2 * heart_points, "all 13 hearts count +200 instead of -200")
        if all_hearts
        else Term("all_hearts", 0)
    )
    pig_positive = all_hearts and (has_goat or rules.pig_plus_with_all_hearts)
    if has_pig:
        why = "counts +100 with all hearts" + (" and J♦" if has_goat else " (house rule)")
        pig_term = Term("pig", 100, why, (PIG,)) if pig_positive else Term("pig", -100, "", (PIG,))
    else:
        pig_term = Term("pig", 0)
    goat_term = Term("goat", 100, cards=(GOAT,)) if has_goat else Term("goat", 0)
    terms = [hearts_term, all_hearts_term, pig_term, goat_term]

    if has_doubler:
        counts_for_doubler = any(
            c != DOUBLER
            and (
                c in (PIG, GOAT)
                or HEART_POINTS[c.rank] != 0
                or (rules.low_hearts_count_for_doubler and c.suit is Suit.HEARTS)
            )
            for c in scoring
        )
        if counts_for_doubler:
            subtotal = sum(t.points for t in terms)
            terms.append(Term("doubler", subtotal, "doubles the other points", (DOUBLER,)))
        else:
            terms.append(Term("doubler", 50, "alone is worth +50", (DOUBLER,)))
    else:
        terms.append(Term("doubler", 0))
    return PileScore(scoring, Breakdown(tuple(terms)))


def _pile_order(card: Card) -> tuple[int, int]:
    return (1 if card.suit is not Suit.HEARTS else 0, card.id)


def parse_piles(
    piles: Sequence[Iterable[Card] | str], *, cards: bool = False
) -> tuple[tuple[Card, ...], ...]:
    """The four piles of one hand, checked together; every problem is reported at once.

    A pile is cards or a string: pile notation, or standard card codes with ``cards=True``.
    Every scoring card is won in some trick, so the four piles hold all sixteen between them,
    each once.

    >>> [format_pile(p) for p in parse_piles(["23456789TJQKA", "P", "G", "D"])]
    ['23456789TJQKA', 'P', 'G', 'D']
    >>> parse_piles(["P", "PG", "", ""])
    Traceback (most recent call last):
    ...
    cardscore.errors.ImpossibleTableError: Q♠ is in piles 1 and 2; one deck holds only one; the piles lack 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥ 10♣: every scoring card is won in some trick, so a hand's four piles hold all sixteen
    """
    if len(piles) != 4:
        raise CardscoreError(Problem.of("not_four_piles", n=len(piles)))
    too_long = [  # bounded before reading: no pile of a real hand comes near
        Problem.of("pile_text_too_long", position=number, n=len(pile), limit=MAX_PILE_TEXT)
        for number, pile in enumerate(piles, start=1)
        if isinstance(pile, str) and len(pile) > MAX_PILE_TEXT
    ]
    if too_long:
        raise CardscoreError(too_long)
    card_piles: list[tuple[Card, ...]] = []
    errors: list[tuple[int, CardscoreError]] = []
    for number, pile in enumerate(piles, start=1):
        try:
            if isinstance(pile, str):
                card_piles.append(parse_cards(pile) if cards else parse_pile(pile))
            else:
                card_piles.append(tuple(pile))
        except CardscoreError as error:
            errors.append((number, error))
    if errors:
        # Every pile's problems at once, keeping the error's cause when all piles share it.
        kinds = {type(error) for _, error in errors}
        kind = kinds.pop() if len(kinds) == 1 else CardscoreError
        raise kind(p.at(f"pile {n}") for n, error in errors for p in error.problems)
    where: dict[Card, list[int]] = {}
    for number, pile in enumerate(card_piles, start=1):
        for card in set(pile):
            where.setdefault(card, []).append(number)
    problems = [
        Problem.of("card_in_two_piles", card=str(card), piles=", ".join(map(str, numbers)))
        for card, numbers in sorted(where.items())
        if len(numbers) > 1
    ]
    missing = sorted((c for c in _SCORING if c not in where), key=_pile_order)
    if missing:
        problems.append(Problem.of("piles_lack", cards=" ".join(map(str, missing))))
    if problems:
        raise ImpossibleTableError(problems)
    return tuple(card_piles)


def score_hand(
    piles: Sequence[Iterable[Card] | str], rules: Rules = Rules(), *, cards: bool = False
) -> tuple[PileScore, ...]:
    """Score every player's pile of one hand, read and checked as :func:`parse_piles` does.

    >>> [s.total for s in score_hand(["23456789TJQKA", "P", "G", "D"])]
    [200, -100, 100, 50]
    """
    return tuple(score_pile(pile, rules) for pile in parse_piles(piles, cards=cards))
