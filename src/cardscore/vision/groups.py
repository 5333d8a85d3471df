"""Stage 5, cards → groups: melds, closed piles (with their orientation), dollars and loose
cards.

Cards whose outlines overlap form a group (:func:`~cardscore.vision.cards.group_cards`):
several cards make a meld (its cards in the order laid, along a row or down a column), a
lone red 3 is a dollar, a lone black 3 a loose card (3s never form a canastra), any other
lone card is the top of a closed pile. A pile turned 90° to the melds is horizontal (clean),
one lying like them vertical (dirty). Only melds that look legal and lie alike set that
reference; without them the photo's own axes decide. What the groups are worth in a Tranca
round lives with Tranca (:mod:`cardscore.tranca.photo`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from cardscore.cards import Card
from cardscore.tranca.rules import is_dollar
from cardscore.vision.cards import Placement, fan_of, group_cards
from cardscore.vision.geometry import NORMAL_WIDTH, angle_gap, common_upright
from cardscore.vision.meld_rules import is_pile_top, plausible_meld

__all__ = [
    "Group",
    "confirmed_by_meld",
    "covered_in_columns",
    "find_groups",
    "is_dollar",
    "is_pile_top",
    "meld_reference",
    "pile_orientation",
]


class _Shown(Protocol):
    """A card as reported (:class:`~cardscore.vision.recognition.SeenCard`)."""

    @property
    def card(self) -> Card: ...


@dataclass(frozen=True)
class Group:
    """Cards lying together: a ``meld``, a closed ``pile`` (with orientation), a ``dollar``, or
    a ``loose`` card that can be none of these (a lone black 3: no canastra is made of 3s)."""

    kind: str
    cards: tuple[int, ...]  # positions in :attr:`Recognition.cards`
    orientation: str | None = None  # piles: "horizontal" (clean) or "vertical" (dirty)

    def as_dict(self, seen: Sequence[_Shown]) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind,
            "cards": [seen[i].card.code for i in self.cards],
            "positions": list(self.cards),
        }
        if self.orientation is not None:
            out["orientation"] = self.orientation
            out["clean"] = self.orientation == "horizontal"
        return out


def find_groups(cards: Sequence[Placement]) -> tuple[Group, ...]:
    """The groups the cards (normalised px) lie in, in reading order: melds, piles, dollars
    and loose cards (positions in ``cards``).

    >>> run = [Placement(Card(c), 0.9, 100 + 40 * k, 100, 0, 1, None) for k, c in enumerate(["5h", "6h", "7h"])]
    >>> lone = [Placement(Card(c), 0.9, 600, y, a, 1, None) for c, y, a in (("Kc", 100, 90), ("3d", 400, 0), ("3s", 700, 0))]
    >>> [(g.kind, g.cards, g.orientation) for g in find_groups([*run, *lone])]
    [('meld', (0, 1, 2), None), ('pile', (3,), 'horizontal'), ('dollar', (4,), None), ('loose', (5,), None)]
    """
    placed = list(cards)
    w = NORMAL_WIDTH
    raw = group_cards(placed, w)
    reference = meld_reference([[placed[i] for i in g] for g in raw if len(g) > 1])
    groups = []
    for members in raw:
        card = placed[members[0]]
        if len(members) > 1:
            groups.append(Group("meld", _as_laid(members, placed)))
        elif is_dollar(card.card):
            groups.append(Group("dollar", tuple(members)))
        elif not is_pile_top(card.card):
            groups.append(Group("loose", tuple(members)))
        else:
            orientation = pile_orientation(card.angle, reference)
            groups.append(Group("pile", tuple(members), orientation))
    return tuple(groups)


def _as_laid(members: list[int], placed: Sequence[Placement]) -> tuple[int, ...]:
    """A meld's cards in their order along its fan (left to right in a row, top to bottom
    in a column, as its first card faces), else as found."""
    fan = fan_of([placed[i] for i in members])
    if fan is None:
        return tuple(members)
    return tuple(members[k] for k in fan.order)


def confirmed_by_meld(
    cards: Sequence[Card], alternatives: Sequence[Card | None], groups: Sequence[Group]
) -> frozenset[int]:
    """The cards their meld confirms: in a meld of three or more that is legal as read and
    would not be with the card's alternative (its runner-up) in its place. The meld has ruled
    out the one other card the reader thought it might be.

    >>> from cardscore.cards import parse_cards
    >>> jacks = Group("meld", (0, 1, 2))
    >>> sorted(confirmed_by_meld(parse_cards("Jh Js Jd"), [None, Card("3s"), Card("Jc")], [jacks]))
    [1]
    """
    out: set[int] = set()
    for group in groups:
        if group.kind != "meld" or len(group.cards) < 3:
            continue
        read = [cards[i] for i in group.cards]
        if not plausible_meld(read):
            continue
        for k, i in enumerate(group.cards):
            other = alternatives[i]
            if other is not None and not plausible_meld([*read[:k], other, *read[k + 1 :]]):
                out.add(i)
    return frozenset(out)


def covered_in_columns(cards: Sequence[Placement], groups: Sequence[Group]) -> frozenset[int]:
    """The cards of melds fanned down a column that were read at one corner: the next card's
    edge crosses their index below the rank, and half hides the suit.

    >>> column = [Placement(Card(c), 0.9, 100, 100 + 60 * k, 0, 1 + (k == 2), None) for k, c in enumerate(["7c", "7s", "7d"])]
    >>> row = [Placement(Card(c), 0.9, 400 + 40 * k, 100, 0, 1, None) for k, c in enumerate(["7h", "8h", "9h"])]
    >>> sorted(covered_in_columns(column + row, find_groups(column + row)))
    [0, 1]
    """
    out: set[int] = set()
    for group in groups:
        if group.kind != "meld":
            continue
        fan = fan_of([cards[i] for i in group.cards])
        if fan is not None and fan.column:
            out.update(i for i in group.cards if cards[i].indices == 1)
    return frozenset(out)


def meld_reference(melds: Sequence[Sequence[Placement]]) -> float | None:
    """The upright direction the melds show, or ``None`` when they give no trustworthy one.

    Only melds that are plausible (:func:`plausible_meld`) and whose cards lie alike count, and
    they must agree with each other: a wrong group of two cards turned 90° to each other
    (an overlapping pair on a photo) must not turn every lone card into a clean pile.

    >>> run = [Placement(Card(c), 1.0, 0, 0, a, 1, None) for c, a in (("5h", 2), ("6h", -1), ("7h", 1))]
    >>> odd = [Placement(Card(c), 1.0, 0, 0, a, 1, None) for c, a in (("3s", 81), ("Qs", 270))]
    >>> round(meld_reference([run, odd]), 1), meld_reference([odd])
    (0.7, None)
    """
    angles = []
    for meld in melds:
        own = [p.angle for p in meld]
        if plausible_meld([p.card for p in meld]) and common_upright(own) is not None:
            angles.extend(own)
    return common_upright(angles) if angles else None


def pile_orientation(pile_angle: float, reference: float | None) -> str:
    """'horizontal' or 'vertical': relative to the melds' upright direction, else the photo's.

    >>> pile_orientation(92.0, 1.0), pile_orientation(178.0, 3.0), pile_orientation(270.0, None)
    ('horizontal', 'vertical', 'horizontal')
    >>> pile_orientation(0.0, None), pile_orientation(0.0, 88.0)
    ('vertical', 'horizontal')
    """
    return "horizontal" if angle_gap(pile_angle, reference or 0.0, 180.0) > 45 else "vertical"
