"""Third stage: index hits → physical cards → melds, piles and dollars, by geometry alone.

A card shows the same index at two opposite corners; two hits of one card, turned 180° from
each other and as far apart as a card's corners, are one physical card. Cards whose outlines
overlap form a group: several cards make a meld, a lone red 3 is a dollar, a lone black 3 a
loose card (3s never form a canastra), any other lone card is the top of a closed pile. A pile
turned 90° to the melds is horizontal (clean), one lying like them vertical (dirty). Only melds
that look legal and lie alike set that reference; without them the photo's own axes decide.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations

import cv2
import numpy as np

from cardscore.cards import Card, Rank
from cardscore.tranca.melds import meld_problems
from cardscore.vision.detect import IndexHit
from cardscore.vision.proposals import angle_gap

__all__ = [
    "ASPECT",
    "Placement",
    "adopt_weak",
    "card_axes",
    "card_width_from_indices",
    "common_upright",
    "group_cards",
    "hit_centre",
    "in_order",
    "index_to_centre",
    "is_dollar",
    "is_pile_top",
    "meld_doubts",
    "meld_reference",
    "mendable",
    "one_per_spot",
    "order_along",
    "pair_indices",
    "pile_orientation",
    "places_along",
    "plausible_meld",
    "straighten",
]

ASPECT = 1.4  # card height / width
INDEX_U, INDEX_V = (
    0.13,
    0.12,
)  # rank glyph centre from the top-left corner, in W and H (deck average)
FLAG_BELOW = 0.9  # cards less sure than this are flagged for the user to confirm
GROUPED = 0.12  # outlines sharing more than this fraction of a card lie in one group
PAIR_ANGLE = 50.0  # a corner index's angle may come from its local edges, tens of degrees off
COHERENT = 0.95  # mean resultant length of doubled angles: two cards within about 18°
# A weak card this close (card widths, centre to centre) to a card found is another reading of
# it. Not more: a tight fan puts the next card 0.25 W over, and a centre guessed from one index
# (decks place their indices differently) can land 0.19 W from its neighbour's.
SAME_CARD = 0.15
SAME_SPOT = 0.08  # two cards' centres this close (card widths): one card read twice
# Two one-index cards turned half a turn from each other (within TURNED degrees) this close:
# one card's two corners read as different cards, each centre guessed from its own corner
# with the deck-average offsets (a deck's own can put the two 0.25 W apart).
TURNED, TURNED_SPOT = 20.0, 0.35
# A card's two indices: read as the same card at least this surely, half a turn apart within
# MEASURE_TURN degrees, the second where the deck-average diagonal points within
# MEASURE_BEARING degrees (card_width_from_indices).
MEASURE_PROB, MEASURE_TURN, MEASURE_BEARING = 0.5, 20.0, 8.0
STRAIGHTEN = 15.0  # a one-index card this far (degrees) from its meld's angle takes the meld's


@dataclass(frozen=True)
class Placement:
    """A physical card found in normalised pixels (card width ``w``)."""

    card: Card
    confidence: float
    x: float
    y: float
    angle: float  # rotation, degrees counter-clockwise as seen; 0 = upright
    indices: int  # corner indices read (1 or 2)
    runner_up: Card | None

    def corners(self, w: float) -> np.ndarray:
        """The outline's four corners (4, 2), clockwise from the card's top-left."""
        t = np.deg2rad(self.angle)
        right = np.array([np.cos(t), -np.sin(t)]) * w / 2
        down = np.array([np.sin(t), np.cos(t)]) * w * ASPECT / 2
        c = np.array([self.x, self.y])
        return np.array([c - right - down, c + right - down, c + right + down, c - right + down])


def card_axes(angle: float) -> tuple[np.ndarray, np.ndarray]:
    """Unit vectors along a card turned ``angle``: its right and its down, in image px."""
    t = np.deg2rad(angle)
    return np.array([np.cos(t), -np.sin(t)]), np.array([np.sin(t), np.cos(t)])


def index_to_centre(angle: float, w: float) -> np.ndarray:
    """From a card's top-left corner index to its centre, for a card turned ``angle``."""
    right, down = card_axes(angle)
    return np.asarray((0.5 - INDEX_U) * w * right + (0.5 - INDEX_V) * w * ASPECT * down)


def hit_centre(hit: IndexHit, w: float) -> np.ndarray:
    """Where a corner index read puts its card's centre (cards ``w`` wide)."""
    return np.asarray(np.array([hit.x, hit.y]) + index_to_centre(hit.angle, w))


def _partners(a: IndexHit, b: IndexHit, w: float) -> tuple[float, float] | None:
    """If a and b can be the two corner indices of one card: the card's angle, and how far
    (card sizes) b lies from where a deck-average card puts a's other corner; else ``None``."""
    if a.card != b.card or angle_gap(a.angle, b.angle + 180) > PAIR_ANGLE:
        return None
    v = np.array([b.x - a.x, b.y - a.y])
    # Generous: decks place their indices differently, and a hit's angle may be a guess
    # (the photo's axes) some degrees off the card's own; so the offset is checked in a's
    # frame and in the frame halfway between the two hits' angles. Both hits can also share
    # one wrong angle (a 7's diagonal stroke read upright 35° off, at both corners): then
    # the photo's nearest axes, where the corners do fit, are the card's.
    halfway = a.angle + ((b.angle + 180 - a.angle + 180) % 360 - 180) / 2
    square = 90.0 * round(halfway / 90.0)
    for angle, card_angle in ((a.angle, a.angle), (halfway, a.angle), (square, square)):
        right, down = card_axes(angle)
        du, dv = float(v @ right) / w, float(v @ down) / (w * ASPECT)
        if 0.4 <= du <= 1.1 and 0.55 <= dv <= 1.05:
            return card_angle, float(np.hypot(du - (1 - 2 * INDEX_U), dv - (1 - 2 * INDEX_V)))
    return None


def pair_indices(hits: list[IndexHit], w: float) -> list[Placement]:
    """Physical cards from index hits, pairing each card's two corners where both show.

    The pairs that fit a card best are taken first: in a fanned set the top card's far
    corner also fits the next card's index, a card width and a step away.
    """
    pairs = sorted(
        (fit[1], -hits[i].prob, i, j, fit[0])
        for i in range(len(hits))
        for j in range(len(hits))
        if hits[i].prob >= hits[j].prob and i != j and (fit := _partners(hits[i], hits[j], w))
    )
    used: set[int] = set()
    partner_of: dict[int, tuple[int, float]] = {}
    for _, _, i, j, card_angle in pairs:
        if i not in used and j not in used:
            used.update((i, j))
            partner_of[i] = (j, card_angle)
    cards: list[Placement] = []
    for i in sorted(range(len(hits)), key=lambda i: -hits[i].prob):
        a = hits[i]
        if i in partner_of:
            j, card_angle = partner_of[i]
            b = hits[j]
            # The surer hit gives the angle (the other's may be tens of degrees off), turned
            # to whichever of the card's two ends is nearer upright.
            angle = min(card_angle % 360, (card_angle + 180) % 360, key=lambda t: angle_gap(t, 0))
            c = (np.array([a.x, a.y]) + np.array([b.x, b.y])) / 2
            both = 1 - (1 - a.prob) * (1 - b.prob)
            cards.append(
                Placement(
                    a.card, both, float(c[0]), float(c[1]), angle, 2, a.runner_up or b.runner_up
                )
            )
        elif i not in used:
            c = hit_centre(a, w)
            cards.append(
                Placement(a.card, a.prob, float(c[0]), float(c[1]), a.angle, 1, a.runner_up)
            )
    return cards


def _overlap(p: Placement, q: Placement, w: float) -> float:
    """Shared area of two outlines, as a fraction of one card."""
    a = p.corners(w * 0.95).astype(np.float32)
    b = q.corners(w * 0.95).astype(np.float32)
    area, _ = cv2.intersectConvexConvex(a, b)
    return float(area) / (0.95 * 0.95 * w * w * ASPECT)


def group_cards(cards: list[Placement], w: float) -> list[list[int]]:
    """Indices of cards grouped by overlapping outlines (union–find), in reading order."""
    parent = list(range(len(cards)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(len(cards)):
        for j in range(i + 1, len(cards)):
            if _overlap(cards[i], cards[j], w) > GROUPED:
                parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for i in range(len(cards)):
        groups.setdefault(find(i), []).append(i)
    out = [sorted(g, key=lambda i: (cards[i].x, cards[i].y)) for g in groups.values()]
    return sorted(out, key=lambda g: (min(cards[i].y for i in g), min(cards[i].x for i in g)))


def adopt_weak(
    cards: list[Placement], weak: list[Placement], w: float, groups: list[list[int]]
) -> list[Placement]:
    """Weak cards (too unsure to report alone) that complete a meld they lie in.

    A weak card is adopted when the groups its outline overlaps hold two cards or more, it
    lies like them, sits on no card already found, and they with it still look like a legal
    meld: a second Ac half hidden in a fanned set of aces. A weak card may bridge a lone card
    and the rest of its meld (a run's second card read weakly), and one adopted card can make
    room for the next (two weak cards side by side): adoption repeats with the groups redrawn.
    Where no one weak card completes a meld, two together may (a run's 6 and 8 both read
    weakly): the surest such pair is adopted. Adopted cards stay flagged (their confidence is
    low).
    """
    adopted: list[Placement] = []
    pending = sorted(weak, key=lambda p: -p.confidence)
    while pending:
        everyone = cards + adopted
        taken = []
        for p in pending:
            if _completes([p], everyone, groups, w, adopted):
                adopted.append(p)
                taken.append(p)
        if not taken:
            pair = next(
                (
                    [p, q]
                    for p, q in combinations(pending, 2)
                    if np.hypot(p.x - q.x, p.y - q.y) >= SAME_CARD * w
                    and _completes([p, q], everyone, groups, w, adopted)
                ),
                None,
            )
            if pair is None:
                break
            adopted += pair
            taken = pair
        pending = [p for p in pending if p not in taken]
        groups = group_cards(cards + adopted, w)
    return adopted


def _completes(
    new: list[Placement],
    everyone: list[Placement],
    groups: list[list[int]],
    w: float,
    adopted: list[Placement],
) -> bool:
    """Whether the ``new`` weak cards lie in groups of two or more of ``everyone`` (each on
    no card found or ``adopted``, lying like them) and with them look like a legal meld, a
    misread card mended included (:func:`mendable`)."""
    touching = [
        g for g in groups if any(_overlap(p, everyone[i], w) > GROUPED for p in new for i in g)
    ]
    members = [everyone[i] for g in touching for i in g]
    if len(members) < 2:
        return False
    if any(np.hypot(p.x - q.x, p.y - q.y) < SAME_CARD * w for p in new for q in members + adopted):
        return False
    if common_upright([q.angle for q in members + new]) is None:
        return False
    # Mended, it is a card found that was misread: a weak card is taken as read.
    return mendable(members + [replace(p, runner_up=None) for p in new])


def straighten(cards: list[Placement], groups: list[list[int]], w: float) -> list[Placement]:
    """Cards of a meld lie alike: a card seen by one index at an angle far from the others'
    is re-centred at their angle (its index stays where it was seen).

    One index gives the card's centre through its angle: a 9d read best 30° off (a stroke
    taken for the card's edge) put its centre on its neighbour's and its outline across the
    meld. Only groups of three or more whose other cards all lie alike (:data:`COHERENT`)
    set the angle; two-index cards keep theirs (both corners fix it).
    """
    out = list(cards)
    for group in groups:
        if len(group) < 3:
            continue
        for i in group:
            p = cards[i]
            others = [cards[j].angle for j in group if j != i]
            common = common_upright(others)
            if p.indices != 1 or common is None:
                continue
            # common_upright is modulo 180°: the meld's cards are upright, so take the end near p's.
            if angle_gap(common, p.angle) > 90:
                common += 180
            if angle_gap(common, p.angle) <= STRAIGHTEN:
                continue
            # The centre from the same index spot, seen at the meld's angle.
            shift = index_to_centre(common, w) - index_to_centre(p.angle, w)
            out[i] = replace(
                p, x=p.x + float(shift[0]), y=p.y + float(shift[1]), angle=common % 360
            )
    return out


def one_per_spot(cards: list[Placement], w: float) -> list[Placement]:
    """One card per spot: of two cards whose centres lie closer than :data:`SAME_SPOT` (or
    :data:`TURNED_SPOT`, both read at one corner, half a turn apart), the one with more
    indices read, then the surer, stays (the order is kept).

    No two cards lie that close (a tight fan puts the next a quarter of a card over), so the
    two are one card read twice: its two corners, each alone, read as different cards (a real
    Q♠ whose second corner read as a 4♠).

    >>> queen, four = (Placement(Card(c), p, x, 0, a, 1, None) for c, p, x, a in (("Qs", 0.74, 0, 0), ("4s", 0.52, 5, 180)))
    >>> [p.card.code for p in one_per_spot([four, queen], 120)], len(one_per_spot([four, queen], 12))
    (['Qs'], 2)
    """
    kept: list[Placement] = []
    for p in sorted(cards, key=lambda p: (-p.indices, -p.confidence)):
        if not any(_one_spot(p, q, w) for q in kept):
            kept.append(p)
    return [p for p in cards if any(p is q for q in kept)]


def _one_spot(p: Placement, q: Placement, w: float) -> bool:
    """Whether two cards found are one card read twice (see :func:`one_per_spot`)."""
    d = np.hypot(p.x - q.x, p.y - q.y)
    if d < SAME_SPOT * w:
        return True
    turned = p.indices == q.indices == 1 and angle_gap(p.angle, q.angle + 180) < TURNED
    return bool(turned and d < TURNED_SPOT * w)


def in_order(cards: Sequence[Card]) -> bool:
    """Whether a run's cards, in their order along the fan, climb or fall one way (a 2, the
    joker, anywhere; the ace high, as Tranca has it); any set is.

    >>> from cardscore.cards import parse_cards
    >>> [in_order(parse_cards(c)) for c in ("7h 8h 9h", "Kh Qh 2c Th", "Qh Kh Ah", "Jh 6h 7h 8h")]
    [True, True, True, False]
    """
    ranks = [c.rank.index for c in cards if c.rank is not Rank.TWO]
    steps = np.diff(ranks)
    return bool((steps == 0).all() or (steps > 0).all() or (steps < 0).all())


def places_along(members: Sequence[Placement]) -> np.ndarray | None:
    """Each member's place along the fan they lie in (px, along the cards' common right);
    ``None`` when they do not lie alike."""
    common = common_upright([p.angle for p in members])
    if common is None:
        return None
    right, _ = card_axes(common)
    return np.array([np.array([p.x, p.y]) @ right for p in members])


def order_along(members: Sequence[Placement]) -> list[int] | None:
    """The members' positions in their order along the fan they lie in; ``None`` when they
    do not lie alike."""
    places = places_along(members)
    return None if places is None else np.argsort(places).tolist()


def _laid_right(codes: Sequence[Card], order: Sequence[int] | None) -> bool:
    """A legal-looking meld, its run in order along the fan (when that is known)."""
    return plausible_meld(codes) and (order is None or in_order([codes[k] for k in order]))


def meld_doubts(cards: list[Placement], groups: list[list[int]]) -> dict[int, Card | None]:
    """Cards that keep a group of three or more from looking like a meld, to be flagged.

    Maps a card's index to its runner-up when swapping in the runner-ups of that card alone,
    or else of two cards (one pair only), makes the group a legal-looking meld (Ts in a run of
    clubs whose runner-up is Tc), else to ``None``. A group no single card explains has all
    its cards flagged. A run out of order along its fan is no meld as laid (J♥ 6♥ 7♥ 8♥ 9♥
    10♥: the 5♥ misread).
    """
    doubts: dict[int, Card | None] = {}
    for group in groups:
        if len(group) < 3:
            continue
        codes = [cards[i].card for i in group]
        order = order_along([cards[i] for i in group])
        if plausible_meld(codes):
            if order is not None and not in_order([codes[k] for k in order]):
                # Out of order: no runner-up or odd card to tell apart.
                doubts.update(dict.fromkeys(group))
            continue
        mend = _mending(codes, [cards[i].runner_up for i in group])
        if not _laid_right([mend.get(k, c) for k, c in enumerate(codes)], order):
            mend = {}
        fixes: dict[int, Card | None] = {group[k]: alt for k, alt in mend.items()}
        if not fixes:
            odd = [i for k, i in enumerate(group) if plausible_meld(codes[:k] + codes[k + 1 :])]
            fixes = dict.fromkeys(odd or group)
        doubts.update(fixes)
    return doubts


def _mending(codes: list[Card], runner_ups: list[Card | None]) -> dict[int, Card]:
    """The runner-ups that make ``codes`` a meld: of one card if exactly one does, else of two
    cards if exactly one pair does; ``{}`` when none or several would (nothing to choose by).

    Two: in one held-out design a run's J and Q both read as a "10", each with its own card
    as runner-up.
    """
    mends = _mends(codes, runner_ups)
    if len(mends) != 1:
        return {}
    return {k: alt for k in mends[0] if (alt := runner_ups[k]) is not None}


def _mends(codes: Sequence[Card], runner_ups: Sequence[Card | None]) -> list[tuple[int, ...]]:
    """The fewest cards (one, else two) whose runner-ups swapped in make ``codes`` a meld:
    every such choice; ``[]`` when none does."""
    alts = {k: alt for k, alt in enumerate(runner_ups) if alt is not None}
    for size in (1, 2):
        mends = [
            swap
            for swap in combinations(sorted(alts), size)
            if plausible_meld([alts[k] if k in swap else c for k, c in enumerate(codes)])
        ]
        if mends:
            return mends
    return []


def mendable(cards: Sequence[Placement]) -> bool:
    """Whether these cards look like a legal meld (:func:`plausible_meld`) as read, or with
    the runner-ups of one or two of them (:func:`meld_doubts` will flag and mend those).

    >>> read = [Placement(Card(c), 0.9, 0, 0, 0, 1, Card(r) if r else None) for c, r in (("Js", ""), ("9s", "Qs"), ("Ks", ""))]
    >>> plausible_meld([p.card for p in read]), mendable(read)
    (False, True)
    """
    codes = [p.card for p in cards]
    return plausible_meld(codes) or bool(_mends(codes, [p.runner_up for p in cards]))


def is_dollar(card: Card) -> bool:
    """Red 3s are Tranca's dollars."""
    return card.rank is Rank.THREE and card.suit.value in "hd"


def is_pile_top(card: Card) -> bool:
    """Can a lone card be the top of a closed canastra? Not a 3: 3s never go in melds."""
    return card.rank is not Rank.THREE


def plausible_meld(cards: Sequence[Card]) -> bool:
    """Could these overlapping cards be a Tranca meld, as :mod:`cardscore.tranca.melds` has it?

    Three or more must be a legal meld (one rank, or one suit in sequence, at most one 2 as
    joker); two must become one with a single card more (a meld seen with one card missed).

    >>> from cardscore.cards import parse_cards
    >>> [plausible_meld(parse_cards(c)) for c in ("5h 6h 7h", "Kd Kc 2s", "5h 7h", "3s Qs", "9h 8c 2h")]
    [True, True, True, False, False]
    """
    if len(cards) >= 3:
        return not meld_problems(cards)
    if len(cards) == 2:
        return any(not meld_problems([*cards, Card.from_id(i)]) for i in range(52))
    return False


def common_upright(angles: Sequence[float]) -> float | None:
    """The common long-axis direction (period 180°) of cards lying alike, else ``None``."""
    t = np.deg2rad(np.array(angles, dtype=float) * 2)
    c, s = float(np.cos(t).mean()), float(np.sin(t).mean())
    if np.hypot(c, s) < COHERENT:
        return None
    return float(np.degrees(np.arctan2(s, c)) / 2)


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


def card_width_from_indices(hits: Sequence[IndexHit]) -> float | None:
    """The card width the hits' own whole cards measure (their pixels), or None under two.

    A card seen whole shows its index twice, the second turned half a turn at the far end of
    its diagonal; that diagonal is a card width times a deck-average factor (decks place
    their indices a little differently: about ±10%), whatever the table's colour, so it
    checks the card width the white regions gave. Each pair of surely read hits of one card
    half a turn apart, the second lying where the first's diagonal points, measures one
    card; the median of at least two is returned.

    >>> from cardscore.cards import Card
    >>> from cardscore.vision.detect import IndexHit
    >>> a = IndexHit(Card("7d"), 0.9, 100.0, 100.0, 0.0, None)
    >>> b = IndexHit(Card("7d"), 0.9, 100 + 0.74 * 150, 100 + 0.76 * 1.4 * 150, 180.0, None)
    >>> c = IndexHit(Card("Kc"), 0.9, 400.0, 100.0, 0.0, None)
    >>> d = IndexHit(Card("Kc"), 0.9, 400 + 0.74 * 150, 100 + 0.76 * 1.4 * 150, 180.0, None)
    >>> round(card_width_from_indices([a, b, c, d]), 1)
    150.0
    >>> card_width_from_indices([a, b]) is None  # one card: not enough
    True
    """
    sure = [h for h in hits if h.prob >= MEASURE_PROB]
    widths = []
    for i, a in enumerate(sure):
        for b in sure[i + 1 :]:
            if a.card != b.card or angle_gap(a.angle, b.angle + 180) > MEASURE_TURN:
                continue
            # A one-wide deck-average card turned like a: from its index to the other, twice
            # the way to its centre. Seen from either index (a card is point-symmetric), the
            # other lies along it: one card, measured once.
            diagonal = 2 * index_to_centre(a.angle, 1.0)
            offset = np.array([b.x - a.x, b.y - a.y])
            cross = diagonal[0] * offset[1] - diagonal[1] * offset[0]
            turn = np.degrees(np.arctan2(cross, diagonal @ offset))
            if abs(turn) <= MEASURE_BEARING:
                widths.append(float(np.hypot(*offset) / np.hypot(*diagonal)))
    return float(np.median(widths)) if len(widths) >= 2 else None
