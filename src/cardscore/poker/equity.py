"""Equity and draw odds: exact where the cases can be counted, Monte Carlo where not.

- :func:`draw_odds`: five-card draw — what discarding some cards and drawing replacements makes;
- :func:`draw_equity`: five-card draw hands against each other, each drawing;
- :func:`holdem_equity`: hold'em hole cards (or ranges like ``QQ+, AKs``) on any board.

Equity is a player's expected share of the pot: a win counts 1, a two-way split ½.

>>> odds = draw_odds("Ah Kh 7h 2h 9c", discard="9c")  # one card to a four-flush
>>> round(odds.probability("flush"), 4), odds.draws  # 9 hearts among 47 unseen cards
(0.1915, 47)
>>> result = holdem_equity(["As Ah", "Kd Kc"], board="2s 7h 9d")
>>> result.exact, [round(e, 4) for e in result.equities]
(True, [0.9162, 0.0838])
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from cardscore.cards import RANKS, Card, parse_cards
from cardscore.errors import IllegalMoveError, ImpossibleTableError, InvalidNotationError, Problem
from cardscore.poker import _c_eval
from cardscore.poker.evaluate import HandRank, evaluate
from cardscore.poker.tables import CATEGORY_RANGES, Category
from cardscore.poker.tracker import discard_problems

__all__ = [
    "DrawOdds",
    "EquityResult",
    "all_hands",
    "draw_equity",
    "draw_odds",
    "holdem_equity",
    "parse_range",
]

CardsLike = Sequence[Card] | Iterable[Card | str] | str
EXACT_LIMIT = 3_000_000
"""Enumerate exactly when there are at most this many deals; sample otherwise."""


def all_hands(cards: int = 5) -> npt.NDArray[np.uint8]:
    """Every ``cards``-card hand from one deck as card ids, one per row (colex order).

    >>> hands = all_hands()
    >>> hands.shape, hands[0].tolist(), hands[-1].tolist()
    ((2598960, 5), [0, 1, 2, 3, 4], [47, 48, 49, 50, 51])
    """
    raw = _c_eval.combinations(52, cards)
    return np.frombuffer(raw, dtype=np.uint8).reshape(-1, cards)


def _distinct(groups: Sequence[Sequence[Card]], what: str = "cards") -> None:
    seen: dict[Card, int] = {}
    problems = []
    for cards in groups:
        for card in cards:
            if card in seen:
                problems.append(Problem.of("dealt_twice", code=card.code, what=what))
            seen[card] = 1
    if problems:
        raise ImpossibleTableError(problems)


@dataclass(frozen=True, slots=True)
class DrawOdds:
    """What a draw makes: how many of the possible draws end in each class."""

    kept: tuple[Card, ...]
    discarded: tuple[Card, ...]
    draws: int
    """How many different draws there are (all equally likely)."""
    counts: tuple[int, ...]
    """Draws ending in each class, indexed by class number (index 0 unused)."""
    before: HandRank | None

    def probability(self, category: Category | str) -> float:
        """Chance the final hand is in ``category`` (a :class:`Category` or its wording)."""
        category = Category(category) if isinstance(category, str) else category
        span = CATEGORY_RANGES[category]
        return sum(self.counts[span.start : span.stop]) / self.draws

    def at_least(self, category: Category | str) -> float:
        """Chance the final hand is ``category`` or better."""
        category = Category(category) if isinstance(category, str) else category
        return sum(self.counts[1 : CATEGORY_RANGES[category].stop]) / self.draws

    @property
    def improve(self) -> float:
        """Chance of ending with a better category than the hand had before the draw."""
        if self.before is None:
            return 1.0
        return sum(self.counts[1 : CATEGORY_RANGES[self.before.category].start]) / self.draws

    @property
    def expected_percentile(self) -> float:
        """Mean share of all five-card hands that the final hand beats."""
        return sum(n * HandRank(r).percentile for r, n in enumerate(self.counts) if n) / self.draws

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{name}</td><td>{chance:.2%}</td></tr>"
            for name, chance in self.categories().items()
            if chance
        )
        return f"<table><tr><th>final hand</th><th>chance</th></tr>{rows}</table>"

    def categories(self) -> dict[str, float]:
        return {c.value: self.probability(c) for c in Category}

    def as_dict(self) -> dict[str, Any]:
        return {
            "kept": [c.code for c in self.kept],
            "discarded": [c.code for c in self.discarded],
            "draws": self.draws,
            "improve": self.improve,
            "categories": self.categories(),
        }


def draw_odds(hand: CardsLike, discard: CardsLike = (), dead: CardsLike = ()) -> DrawOdds:
    """Exact odds of every final hand after discarding ``discard`` from a five-card ``hand``.

    Replacement cards come from the cards not in ``hand`` and not in ``dead`` (cards seen
    elsewhere). Draws of four from 47 cards are 178,365 cases: still exact, in milliseconds.

    >>> odds = draw_odds("8s 8h Kc 5d 2h", discard="Kc 5d 2h")
    >>> round(odds.improve, 4), round(odds.probability("three of a kind"), 4)
    (0.2871, 0.1143)
    """
    cards = parse_cards(hand)
    thrown = parse_cards(discard)
    seen = parse_cards(dead)
    problems = discard_problems(cards, thrown)
    if len(cards) != 5:
        raise ImpossibleTableError([Problem.of("draw_hand_size", n=len(cards)), *problems])
    if problems:
        raise IllegalMoveError(problems)
    _distinct([cards, seen])
    kept = tuple(c for c in cards if c not in thrown)
    unseen = bytes(i for i in range(52) if Card.from_id(i) not in set(cards) | set(seen))
    raw = _c_eval.draw_histogram(bytes(c.id for c in kept), unseen, len(thrown))
    counts = tuple(int(n) for n in np.frombuffer(raw, dtype=np.uint32))
    return DrawOdds(kept, thrown, math.comb(len(unseen), len(thrown)), counts, evaluate(cards))


@dataclass(frozen=True, slots=True)
class EquityResult:
    """Each player's share of the pot, and how it was found."""

    equities: tuple[float, ...]
    trials: int
    """Deals counted (every deal when exact, the samples otherwise)."""
    exact: bool

    def as_dict(self) -> dict[str, Any]:
        return {"equities": list(self.equities), "trials": self.trials, "exact": self.exact}


# --- ranges --------------------------------------------------------------------------------

_RANK_CHARS = "".join(r.value for r in RANKS)


def _pairs(rank: int) -> list[tuple[Card, Card]]:
    cards = [Card.from_id(rank * 4 + s) for s in range(4)]
    return [(a, b) for i, a in enumerate(cards) for b in cards[i + 1 :]]


def _two_ranks(high: int, low: int, suited: bool | None) -> list[tuple[Card, Card]]:
    out = []
    for s1 in range(4):
        for s2 in range(4):
            if suited is None or (s1 == s2) == suited:
                out.append((Card.from_id(high * 4 + s1), Card.from_id(low * 4 + s2)))
    return out


def parse_range(text: str) -> tuple[tuple[Card, Card], ...]:
    """Hold'em starting hands in the usual shorthand, as two-card combinations.

    ``QQ`` (6 combos), ``QQ+`` (QQ, KK, AA), ``AKs`` (4), ``AKo`` (12), ``AK`` (16),
    ``ATs+`` (ATs … AKs), ``AhKh`` (one), separated by commas or spaces.

    >>> len(parse_range("QQ+")), len(parse_range("AKs, AKo")), len(parse_range("A9s+"))
    (18, 16, 20)
    >>> parse_range("AhKh")
    ((Card('Ah'), Card('Kh')),)
    """
    combos: list[tuple[Card, Card]] = []
    problems = []
    for token in (t for t in text.replace(",", " ").split() if t):
        found = _range_token(token)
        if found is None:
            problems.append(Problem.of("not_a_range", token=token))
        else:
            combos.extend(c for c in found if c not in combos)
    if problems:
        raise InvalidNotationError(problems)
    if not combos:
        raise InvalidNotationError(Problem.of("range_empty", text=repr(text)))
    return tuple(combos)


def _range_token(token: str) -> list[tuple[Card, Card]] | None:
    plus = token.endswith("+")
    body = token[:-1] if plus else token
    if len(body) == 4 and not plus:
        try:
            a, b = parse_cards([body[:2], body[2:]])
        except InvalidNotationError:
            return None
        return None if a == b else [(a, b)]
    if len(body) not in (2, 3) or body[0].upper() not in _RANK_CHARS:
        return None
    if body[1].upper() not in _RANK_CHARS:
        return None
    high, low = _RANK_CHARS.index(body[0].upper()), _RANK_CHARS.index(body[1].upper())
    kind = body[2:].lower()
    if kind not in ("", "s", "o"):
        return None
    suited = None if kind == "" else kind == "s"
    if high == low:
        if suited is not None:
            return None
        return [c for r in range(high, 13 if plus else high + 1) for c in _pairs(r)]
    high, low = max(high, low), min(high, low)
    lows = range(low, high) if plus else range(low, low + 1)
    return [c for lo in lows for c in _two_ranks(high, lo, suited)]


# --- hold'em -------------------------------------------------------------------------------


def _as_range(player: str | Sequence[Card]) -> tuple[tuple[Card, Card], ...]:
    if isinstance(player, str):
        try:
            cards = parse_cards(player)
        except InvalidNotationError:
            return parse_range(player)
    else:
        cards = parse_cards(player)
    if len(cards) != 2:
        raise ImpossibleTableError(Problem.of("hole_cards", n=len(cards)))
    return ((cards[0], cards[1]),)


def _progress(enabled: bool) -> Any:
    """A rich progress bar on stderr, or nothing."""
    if not enabled:
        return nullcontext(None)
    from rich.console import Console
    from rich.progress import Progress

    return Progress(console=Console(stderr=True), transient=True)


def holdem_equity(
    players: Sequence[str | Sequence[Card]],
    board: CardsLike = (),
    dead: CardsLike = (),
    *,
    trials: int | None = None,
    seed: int | None = None,
    progress: bool = False,
) -> EquityResult:
    """Hold'em equity of two or more players on a board of 0, 3, 4 or 5 cards.

    Each player is hole cards (``"As Ah"``) or a range (``"QQ+, AKs"``). With fixed hole
    cards and at most :data:`EXACT_LIMIT` boards to come (always, except preflop with 5+
    players), every board is counted; otherwise ``trials`` deals (default 200,000) are sampled.

    >>> holdem_equity(["Ah Kh", "2c 2d"], board="Qh Jh 3h 4s 9s").equities
    (1.0, 0.0)
    >>> r = holdem_equity(["Ah Ad", "KK"], board="2c 7d 9h", trials=20000, seed=1)
    >>> r.exact, round(r.equities[0], 2)
    (False, 0.92)
    """
    if len(players) < 2:
        raise ImpossibleTableError(Problem.of("two_players"))
    ranges = [_as_range(p) for p in players]
    known = parse_cards(board)
    gone = parse_cards(dead)
    if len(known) not in (0, 3, 4, 5):
        raise ImpossibleTableError(Problem.of("board_size", n=len(known)))
    _distinct([known, gone, *([c for combo in r for c in combo] for r in ranges if len(r) == 1)])
    to_come = 5 - len(known)
    fixed = all(len(r) == 1 for r in ranges)
    used = {c for r in ranges if len(r) == 1 for c in r[0]} | set(known) | set(gone)
    deck = bytes(i for i in range(52) if Card.from_id(i) not in used)
    if fixed and trials is None and math.comb(len(deck), to_come) <= EXACT_LIMIT:
        hands = bytes(c.id for r in ranges for c in r[0])
        raw = _c_eval.showdown_enumerate(
            hands, len(ranges), 2, bytes(c.id for c in known), deck, to_come
        )
        boards = int(raw[-1])
        return EquityResult(tuple(float(s) / boards for s in raw[:-1]), boards, True)
    return _holdem_sample(ranges, known, gone, trials or 200_000, seed, progress)


def _holdem_sample(
    ranges: list[tuple[tuple[Card, Card], ...]],
    board: tuple[Card, ...],
    dead: tuple[Card, ...],
    trials: int,
    seed: int | None,
    progress: bool,
) -> EquityResult:
    rng = np.random.default_rng(seed)
    p = len(ranges)
    to_come = 5 - len(board)
    combo_ids = [np.array([[a.id, b.id] for a, b in r], dtype=np.int64) for r in ranges]
    blocked = np.zeros(52, dtype=bool)
    blocked[[c.id for c in board + dead]] = True
    shares = np.zeros(p)
    done = 0
    chunk = 50_000
    with _progress(progress) as bar:
        task = bar.add_task("sampling deals", total=trials) if bar else None
        attempts = 0
        while done < trials:
            n = min(chunk, trials - done)
            holes = np.stack([ids[rng.integers(0, len(ids), n)] for ids in combo_ids], axis=1)
            flat = holes.reshape(n, -1)
            taken = np.zeros((n, 52), dtype=bool)
            np.put_along_axis(taken, flat, True, axis=1)
            ok = (taken.sum(axis=1) == 2 * p) & ~(taken & blocked).any(axis=1)
            attempts += 1
            if not ok.any():
                if attempts > 50:
                    raise ImpossibleTableError(Problem.of("ranges_overlap"))
                continue
            holes, taken = holes[ok], taken[ok] | blocked
            m = len(holes)
            keys = rng.random((m, 52))
            keys[taken] = 2.0
            runout = np.argpartition(keys, to_come, axis=1)[:, :to_come] if to_come else None
            boards = np.empty((m, 5), dtype=np.int64)
            boards[:, : len(board)] = [c.id for c in board]
            if runout is not None:
                boards[:, len(board) :] = runout
            cards = np.concatenate(
                [holes, np.broadcast_to(boards[:, None, :], (m, p, 5))], axis=2
            ).astype(np.uint8)
            shares += _c_eval.showdown_batch(np.ascontiguousarray(cards), p, 7)
            done += m
            if bar:
                bar.update(task, completed=done)
    return EquityResult(tuple(float(s) / done for s in shares), done, False)


# --- five-card draw against each other -----------------------------------------------------


def draw_equity(
    hands: Sequence[CardsLike],
    discards: Sequence[CardsLike] | None = None,
    *,
    trials: int = 100_000,
    seed: int | None = None,
    progress: bool = False,
) -> EquityResult:
    """Five-card draw: each player discards (``discards[i]``, none if omitted) and draws from
    the unseen cards; the pot's expected share for each at showdown (Monte Carlo).

    With no discards the result is exact — it is just the showdown.

    >>> draw_equity(["Ah Ad Ac 2s 3h", "Kh Kd Ks Qc Jc"]).equities
    (1.0, 0.0)
    >>> r = draw_equity(["Ah Ad 7c 5s 3h", "Kh Qh 9h 2h 4c"], ["7c 5s 3h", "4c"], seed=2)
    >>> [round(e, 1) for e in r.equities]
    [0.8, 0.2]
    """
    parsed = [parse_cards(h) for h in hands]
    thrown = [parse_cards(d) for d in (discards or [()] * len(parsed))]
    if len(thrown) != len(parsed):
        raise ImpossibleTableError(Problem.of("discards_per_hand"))
    problems = [
        Problem.of("draw_hand_size", n=len(h)).at(f"hand {i + 1}")
        for i, h in enumerate(parsed)
        if len(h) != 5
    ]
    if problems:
        raise ImpossibleTableError(problems)
    for i, (h, d) in enumerate(zip(parsed, thrown, strict=True)):
        problems += [p.at(f"hand {i + 1}") for p in discard_problems(h, d)]
    if problems:
        raise IllegalMoveError(problems)
    _distinct(parsed)
    if not any(thrown):
        ranks = [evaluate(h).rank for h in parsed]
        best = min(ranks)
        winners = ranks.count(best)
        return EquityResult(tuple((r == best) / winners for r in ranks), 1, True)
    rng = np.random.default_rng(seed)
    p = len(parsed)
    kept = [[c.id for c in h if c not in d] for h, d in zip(parsed, thrown, strict=True)]
    need = [len(d) for d in thrown]
    unseen = np.array(
        [i for i in range(52) if Card.from_id(i) not in {c for h in parsed for c in h}]
    )
    if sum(need) > len(unseen):
        raise ImpossibleTableError(Problem.of("draws_exceed_deck"))
    shares = np.zeros(p)
    done = 0
    with _progress(progress) as bar:
        task = bar.add_task("sampling draws", total=trials) if bar else None
        while done < trials:
            n = min(50_000, trials - done)
            order = np.argsort(rng.random((n, len(unseen))), axis=1)[:, : sum(need)]
            drawn = unseen[order]
            cards = np.empty((n, p, 5), dtype=np.uint8)
            at = 0
            for i in range(p):
                cards[:, i, : len(kept[i])] = kept[i]
                cards[:, i, len(kept[i]) :] = drawn[:, at : at + need[i]]
                at += need[i]
            shares += _c_eval.showdown_batch(cards, p, 5)
            done += n
            if bar:
                bar.update(task, completed=done)
    return EquityResult(tuple(float(s) / done for s in shares), done, False)
