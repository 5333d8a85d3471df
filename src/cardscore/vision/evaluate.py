"""Scoring recognition against known answers: labelled photos and synthetic tables.

Used by ``benchmarks/vision_bench.py`` and the tests. Cards are compared as multisets (two
decks may put the same card on the table twice).
"""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from cardscore.cards import Card, parse_cards
from cardscore.vision.recognition import Recognition

__all__ = [
    "PhotoScore",
    "TableScore",
    "cards_of",
    "match_cards",
    "read_labels",
    "score_cards",
    "score_table",
]


@dataclass(frozen=True)
class PhotoScore:
    """Card counts for one photo: right, reported, expected; and what went wrong."""

    name: str
    right: int
    reported: int
    expected: int
    missed: tuple[Card, ...]
    extra: tuple[Card, ...]

    @property
    def precision(self) -> float:
        return self.right / self.reported if self.reported else 1.0

    @property
    def recall(self) -> float:
        return self.right / self.expected if self.expected else 1.0


def score_cards(name: str, seen: list[Card], expected: list[Card]) -> PhotoScore:
    """Multiset comparison of the cards reported with those expected.

    >>> s = score_cards("x", parse_cards("As Kd Kd"), parse_cards("As Kd 2c"))
    >>> s.right, s.precision, s.recall, s.missed, s.extra
    (2, 0.6666666666666666, 0.6666666666666666, (Card('2c'),), (Card('Kd'),))
    """
    got, want = Counter(seen), Counter(expected)
    right = sum((got & want).values())
    missed = tuple(sorted((want - got).elements()))
    extra = tuple(sorted((got - want).elements()))
    return PhotoScore(name, right, sum(got.values()), sum(want.values()), missed, extra)


def read_labels(folder: Path) -> dict[str, list[Card]]:
    """``labels.csv`` of a photo folder: image name → cards listed (any notation)."""
    with (folder / "labels.csv").open(newline="") as handle:
        return {row["image"]: list(parse_cards(row["cards"])) for row in csv.DictReader(handle)}


def cards_of(result: Recognition) -> list[Card]:
    return [seen.card for seen in result.cards]


@dataclass
class TableScore:
    """Totals over synthetic Tranca tables."""

    cards: int = 0
    cards_right: int = 0
    cards_extra: int = 0
    melds: int = 0
    melds_exact: int = 0
    piles: int = 0
    piles_right: int = 0
    dollars: int = 0
    dollars_right: int = 0
    flagged: int = 0
    flagged_wrong: int = 0  # flagged cards that were indeed wrong (flags doing their job)
    wrong_unflagged: int = 0  # the dangerous kind: a wrong card nobody is asked about

    def add(self, other: TableScore) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


def match_cards(
    where: list[tuple[float, float]], result: Recognition, width: float
) -> dict[int, int]:
    """Each true card (its centre in ``where``) to the reported card that stands for it: the
    nearest pairs first, each card once, within 0.45 card widths."""
    pairs: list[tuple[float, int, int]] = []
    for i, (x, y) in enumerate(where):
        for j, seen in enumerate(result.cards):
            d = ((seen.x - x) ** 2 + (seen.y - y) ** 2) ** 0.5
            if d < 0.45 * width:
                pairs.append((d, i, j))
    match: dict[int, int] = {}
    taken: set[int] = set()
    for _, i, j in sorted(pairs):
        if i not in match and j not in taken:
            match[i] = j
            taken.add(j)
    return match


def score_table(
    truth: list[tuple[Card, float, float, int]],
    kinds: dict[int, str],
    result: Recognition,
    width: float,
    unseen: Sequence[tuple[Card, float, float, int]] = (),
    mirrored: Sequence[tuple[float, float]] = (),
) -> TableScore:
    """Compare a recognition with a synthetic table's truth.

    ``truth`` holds (card, x, y, group) per placed card in the photo's pixels, ``kinds`` each
    group's kind (``meld``, ``dollar``, ``pile:horizontal`` or ``pile:vertical``), ``width``
    the card width in pixels.

    ``unseen`` holds the table's cards the photo shows no index of (cut by its edge), in the
    same terms: no one could read them, so none is expected. A card reported for one of them
    counts only when it is wrong (an extra card, and wrong); a group with one of them is not
    judged. ``mirrored``: where a card's mirror image lies (a synthetic photo's border shows
    its table mirrored): whatever is read there leaves the count.
    """
    score = TableScore()
    everyone = [*truth, *unseen, *((None, x, y, -1) for x, y in mirrored)]
    match = match_cards([(x, y) for _, x, y, _ in everyone], result, width)
    # A right reading of an unseen card is neither expected nor extra: it leaves the count.
    read_unseen = {
        j
        for i, j in match.items()
        if i >= len(truth) and everyone[i][0] in (result.cards[j].card, None)
    }
    match = {i: j for i, j in match.items() if i < len(truth)}
    taken = set(match.values())
    score.cards = len(truth)
    score.cards_extra = len(result.cards) - len(taken) - len(read_unseen)
    right = {i for i, j in match.items() if result.cards[j].card == truth[i][0]}
    score.cards_right = len(right)
    for j, seen in enumerate(result.cards):
        if j in read_unseen:
            continue
        wrong = j not in {match[i] for i in right}
        score.flagged += seen.flagged
        score.flagged_wrong += seen.flagged and wrong
        score.wrong_unflagged += (not seen.flagged) and wrong
    group_of = {j: g for g in result.groups for j in g.cards}
    cut = {g for *_, g in unseen}
    for gid, kind in kinds.items():
        members = [i for i, t in enumerate(truth) if t[3] == gid]
        if not members or gid in cut:
            continue
        if kind == "meld":
            score.melds += 1
            if all(i in right for i in members):
                found = {match[i] for i in members}
                group = group_of.get(match[members[0]])
                score.melds_exact += (
                    group is not None and group.kind == "meld" and set(group.cards) == found
                )
        elif kind == "dollar":
            score.dollars += 1
            i = members[0]
            group = group_of.get(match[i]) if i in right else None
            score.dollars_right += group is not None and group.kind == "dollar"
        else:
            score.piles += 1
            i = members[0]
            group = group_of.get(match[i]) if i in match else None
            orientation = kind.split(":")[1]
            score.piles_right += (
                group is not None and group.kind == "pile" and group.orientation == orientation
            )
    return score
