"""Kings-wild hand scoring: runs and sets, each king standing for the card that scores best.

A run is consecutive ranks in one suit (aces low: A-2-…-8), a set is cards of one rank; a card
may be in both. A run or set of length L ≥ 3 scores 2L − 3, minus 1 per king in it. Each king
stands for a distinct A–8 card its holder lacks (possibly one the opponent holds), chosen to
maximise the total; a king counts in both its run and its set. Kings never form a set of kings.

>>> from cardscore.cards import parse_cards
>>> score(parse_cards("2S 3S 4S KH"))
4
>>> print(explain(parse_cards("2S 3S 4S KH")).breakdown.to_text())
run    4  A♠ 2♠ 3♠ 4♠ (K♥ as A♠)
total  4
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from cardscore.breakdown import Breakdown, Term
from cardscore.cards import Card
from cardscore.crosskings import _c_solver
from cardscore.crosskings.cards import CARDS, RANKS, cards_of, is_king, mask_of

__all__ = ["Hand", "HandScore", "explain", "score", "score_mask"]


def score_mask(mask: int) -> int:
    """The score of a hand given as a card mask (see :mod:`cardscore.crosskings.cards`)."""
    points: int = _c_solver.score(mask)[0]
    return points


def score(cards: Iterable[Card]) -> int:
    """The best score of a hand.

    >>> from cardscore.cards import parse_cards
    >>> score(parse_cards("AC AD 2H 2D 3H 3C 3D 4H 4C 5H 5D KS KH KD KC"))
    28
    """
    return score_mask(mask_of(cards))


@dataclass(frozen=True, slots=True)
class HandScore:
    """A hand's best score, what each king stands for, and the runs and sets that score."""

    cards: tuple[Card, ...]
    kings: tuple[tuple[Card, Card], ...]
    """(king, the card it stands for), kings in suit order."""
    breakdown: Breakdown

    @property
    def total(self) -> int:
        return self.breakdown.total

    def as_dict(self) -> dict[str, object]:
        """``{"total", "terms", "cards", "kings"}``: what ``crosskings score --json`` prints.

        A term's cards are the run or set as it scores, a king as the card it stands for."""
        return {
            **self.breakdown.as_dict(),
            "cards": [c.code for c in self.cards],
            "kings": {king.code: card.code for king, card in self.kings},
        }

    def _repr_html_(self) -> str:
        return self.breakdown._repr_html_()


def explain(cards: Iterable[Card]) -> HandScore:
    """Score a hand and say why: the king assignment chosen and every run and set that scores.

    >>> from cardscore.cards import parse_cards
    >>> result = explain(parse_cards("7H 8H KS KC 7S 7D"))
    >>> result.total, [(k.code, c.code) for k, c in result.kings]
    (6, [('Ks', '5h'), ('Kc', '6h')])
    """
    given = tuple(cards)
    mask = mask_of(given)
    total, assigned = _c_solver.score(mask)
    kings = tuple(c for c in cards_of(mask) if is_king(c))
    stands_for = cards_of(assigned)
    pairs = tuple(zip(kings, stands_for, strict=True))
    as_king = {card: king for king, card in pairs}
    naturals = {c for c in given if not is_king(c)}
    effective = naturals | set(stands_for)

    terms: list[Term] = []
    for suit_cards in _by_suit(effective):
        for run in _runs(suit_cards):
            kings_in = [as_king[c] for c in run if c in as_king]
            note = _king_note(run, as_king)
            terms.append(Term("run", 2 * len(run) - 3 - len(kings_in), note, tuple(run)))
    for rank in RANKS[:-1]:
        group = sorted((c for c in effective if c.rank is rank), key=lambda c: c.suit.index)
        if len(group) >= 3:
            kings_in = [as_king[c] for c in group if c in as_king]
            note = _king_note(group, as_king)
            terms.append(Term("set", 2 * len(group) - 3 - len(kings_in), note, tuple(group)))
    if not terms:
        terms.append(Term("runs_and_sets", 0, "no run or set of three or more"))
    breakdown = Breakdown(tuple(terms))
    if breakdown.total != total:  # the breakdown is rebuilt independently of the C search
        raise AssertionError(f"breakdown {breakdown.total} != score {total} for {given!r}")
    return HandScore(tuple(sorted(given, key=CARDS.index)), pairs, breakdown)


def _by_suit(cards: set[Card]) -> Iterator[list[Card]]:
    for suit_index in range(4):
        yield sorted(
            (c for c in cards if c.suit.index == suit_index), key=lambda c: RANKS.index(c.rank)
        )


def _runs(suit_cards: list[Card]) -> Iterator[list[Card]]:
    """Maximal runs of 3 or more consecutive ranks (aces low) in one suit's sorted cards."""
    run: list[Card] = []
    for card in suit_cards:
        if run and RANKS.index(card.rank) != RANKS.index(run[-1].rank) + 1:
            if len(run) >= 3:
                yield run
            run = []
        run.append(card)
    if len(run) >= 3:
        yield run


def _king_note(cards: list[Card], as_king: dict[Card, Card]) -> str:
    notes = [f"{as_king[c]} as {c}" for c in cards if c in as_king]
    return f"({', '.join(notes)})" if notes else ""


@dataclass(frozen=True, slots=True)
class Hand:
    """The cards one player has taken, in the order taken.

    >>> from cardscore.cards import parse_cards
    >>> hand = Hand(parse_cards("2S 3S 4S KH"))
    >>> hand.score(), str(hand), len(hand)
    (4, '2♠ 3♠ 4♠ K♥', 4)
    """

    cards: tuple[Card, ...] = ()

    def score(self) -> int:
        return score(self.cards)

    def explain(self) -> HandScore:
        return explain(self.cards)

    @property
    def mask(self) -> int:
        return mask_of(self.cards)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def __contains__(self, card: object) -> bool:
        return card in self.cards

    def __repr__(self) -> str:
        return f"Hand(parse_cards({' '.join(c.code for c in self.cards)!r}))"

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.cards)

    def _repr_html_(self) -> str:
        cards = " ".join(c._repr_html_() for c in self.cards) or "(no cards)"
        return f"<div>{cards} — <b>{self.score()}</b> points</div>"
