"""Quick entry: a Tranca round given as the numbers a table counts on paper, checked for sense.

A tally round is the round JSON with ``"tally": true`` and, per team, numbers instead of cards
(every number defaults to 0; ``took_morto`` and ``went_out`` are required)::

    {"players": 4, "tally": true,
     "teams": [{"name": "Us", "table_points": 270, "clean_canastras": 1, "dirty_canastras": 1,
                "twos_canastras": 0, "dollars": 2, "trancas": 0, "hand_points": 0,
                "took_morto": true, "went_out": true}, ...]}

``table_points`` are the card points of the melds and piles (dollars not included: they count
by ``dollars``); ``hand_points`` the card points still held, black 3s not included (they count
by ``trancas``). It is scored by the same rules and terms as a card-by-card round
(:func:`cardscore.tranca.score_round`); what no table could show is refused, every reason at
once.

>>> round_ = parse_tally({"players": 2, "tally": True, "teams": [
...     {"name": "Ana", "table_points": 70, "clean_canastras": 1, "dollars": 1,
...      "took_morto": True, "went_out": True},
...     {"name": "Bia", "table_points": 20, "trancas": 1, "hand_points": 15,
...      "took_morto": False, "went_out": False}]})
>>> round_.team("Ana").has_canastra, round_.decks
(True, 2)
>>> parse_tally({"players": 2, "tally": True, "teams": [
...     {"name": "Ana", "table_points": 12, "dollars": 5, "took_morto": True, "went_out": True},
...     {"name": "Bia", "took_morto": True, "went_out": True}]})
Traceback (most recent call last):
...
cardscore.tranca.round.InvalidRoundError: team 'Ana': table_points must be a multiple of 5 ...
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardscore.cards import Card, Rank, Suit
from cardscore.errors import Problem
from cardscore.limits import MAX_TALLY_COUNT, MAX_TALLY_POINTS, MAX_TEAMS
from cardscore.tranca.melds import CanastraKind
from cardscore.tranca.round import InvalidRoundError, Round, RoundSides, parse_round
from cardscore.tranca.rules import (
    CANASTRA_SIZE,
    PLAYER_COUNTS,
    TrancaRules,
    card_points,
    decks_for,
    is_dollar,
    is_tranca,
    team_count,
    team_size,
)

__all__ = ["TallyRound", "TallyTeam", "parse_tally", "read_round", "tally_problems"]

COUNTS = (
    "table_points",
    "clean_canastras",
    "dirty_canastras",
    "twos_canastras",
    "dollars",
    "trancas",
    "hand_points",
)
"""A tally team's numbers, in the order a table reads them."""
_FLAGS = ("took_morto", "went_out")
_TEAM_KEYS = ("name", *COUNTS, *_FLAGS)
_ROUND_KEYS = ("players", "decks", "tally", "teams")
_POINT_STEP = 5  # every card counts 5, 10 or 15
_MORTOS = 2

_DECK = tuple(Card(rank, suit) for rank in Rank for suit in Suit)
_DECK_POINTS = sum(card_points(c) for c in _DECK if not is_tranca(c) and not is_dollar(c))
"""Card points of one deck without its 3s: what melds and hands can hold from it (420)."""
_DOLLARS_PER_DECK = sum(1 for c in _DECK if is_dollar(c))
_TRANCAS_PER_DECK = sum(1 for c in _DECK if is_tranca(c))
_TWOS_PER_DECK = sum(1 for c in _DECK if c.rank is Rank.TWO)
_LOWEST = min(card_points(c) for c in _DECK if c.rank is not Rank.THREE)
_TWO = card_points(Card("2c"))
_CANASTRA_NEEDS = {
    # the fewest points a canastra can show: seven of the cheapest cards, a 2 as the wild
    CanastraKind.CLEAN: CANASTRA_SIZE * _LOWEST,
    CanastraKind.DIRTY: (CANASTRA_SIZE - 1) * _LOWEST + _TWO,
    CanastraKind.TWOS: CANASTRA_SIZE * _TWO,
}


@dataclass(frozen=True, slots=True)
class TallyTeam:
    """One team's numbers at the end of a round (see the module); not checked on its own."""

    name: str
    took_morto: bool
    went_out: bool
    table_points: int = 0
    clean_canastras: int = 0
    dirty_canastras: int = 0
    twos_canastras: int = 0
    dollars: int = 0
    trancas: int = 0
    hand_points: int = 0

    # What a match's statistics read of a side: a tally names no player and no card.
    players: tuple[str, ...] = field(default=(), init=False, repr=False, compare=False)
    hands: tuple[tuple[str, tuple[Card, ...]], ...] = field(
        default=(), init=False, repr=False, compare=False
    )
    went_out_player: None = field(default=None, init=False, repr=False, compare=False)

    def canastra_kinds(self) -> tuple[CanastraKind, ...]:
        return (
            (CanastraKind.CLEAN,) * self.clean_canastras
            + (CanastraKind.DIRTY,) * self.dirty_canastras
            + (CanastraKind.TWOS,) * self.twos_canastras
        )

    @property
    def has_canastra(self) -> bool:
        return bool(self.canastra_kinds())

    @property
    def dollar_count(self) -> int:
        return self.dollars

    @property
    def tranca_count(self) -> int:
        return self.trancas

    def as_dict(self) -> dict[str, Any]:
        """The tally-JSON object of this team (``parse_tally`` reads it back)."""
        return {
            "name": self.name,
            **{key: getattr(self, key) for key in COUNTS},
            "took_morto": self.took_morto,
            "went_out": self.went_out,
        }


def _team_problems(team: TallyTeam, players: int) -> list[Problem]:
    label = f"team {team.name!r}"
    problems: list[Problem] = []
    for key in COUNTS:
        value = getattr(team, key)
        limit = MAX_TALLY_POINTS if key.endswith("_points") else MAX_TALLY_COUNT
        if not 0 <= value <= limit:
            problems.append(Problem.of("tally_count", key=key, value=value, limit=limit).at(label))
        elif key.endswith("_points") and value % _POINT_STEP:
            problems.append(Problem.of("tally_points_step", key=key, value=value).at(label))
    need = sum(_CANASTRA_NEEDS[kind] for kind in team.canastra_kinds())
    if 0 <= team.table_points < need:
        problems.append(
            Problem.of(
                "tally_table_below_canastras",
                points=team.table_points,
                n=len(team.canastra_kinds()),
                need=need,
            ).at(label)
        )
    if team.went_out and not team.has_canastra:
        problems.append(Problem.of("out_without_canastra", team=label))
    if team.went_out and team_size(players) == 1 and (team.hand_points or team.trancas):
        problems.append(
            Problem.of("tally_out_holds", points=team.hand_points, trancas=team.trancas).at(label)
        )
    return problems


def tally_problems(players: int, teams: Sequence[TallyTeam], decks: int = 0) -> list[Problem]:
    """Every reason the numbers could not come from one table (empty when they could)."""
    if players not in PLAYER_COUNTS:
        return [Problem.of("bad_players", value=repr(players))]
    decks = decks or decks_for(players)
    problems: list[Problem] = []
    expected = team_count(players)
    if len(teams) != expected:
        code = "side_count_alone" if team_size(players) == 1 else "side_count"
        problems.append(Problem.of(code, players=players, expected=expected, n=len(teams)))
    names = Counter(t.name for t in teams)
    problems.extend(
        Problem.of("team_name_twice", name=name, n=n) for name, n in names.items() if n > 1
    )
    for team in teams:
        problems.extend(_team_problems(team, players))
    took = [f"team {t.name!r}" for t in teams if t.took_morto]
    if len(took) > _MORTOS:
        problems.append(Problem.of("too_many_mortos", teams=", ".join(took), n=len(took)))
    out = [f"team {t.name!r}" for t in teams if t.went_out]
    if len(out) > 1:
        problems.append(Problem.of("many_went_out", teams=", ".join(out), n=len(out)))
    for key, per_deck in (("dollars", _DOLLARS_PER_DECK), ("trancas", _TRANCAS_PER_DECK)):
        n = sum(getattr(t, key) for t in teams)
        if n > per_deck * decks:
            problems.append(
                Problem.of(f"tally_{key}_overcount", n=n, decks=decks, held=per_deck * decks)
            )
    wilds = sum(CANASTRA_SIZE * t.twos_canastras + t.dirty_canastras for t in teams)
    if wilds > _TWOS_PER_DECK * decks:
        problems.append(
            Problem.of("tally_twos_overcount", n=wilds, decks=decks, held=_TWOS_PER_DECK * decks)
        )
    points = sum(_counted(t.table_points) + _counted(t.hand_points) for t in teams)
    if points > _DECK_POINTS * decks:
        problems.append(
            Problem.of("tally_points_overcount", n=points, decks=decks, held=_DECK_POINTS * decks)
        )
    return problems


def _counted(points: int) -> int:
    """Points as a deck could hold them (a count out of bounds is reported on its own)."""
    return points if 0 <= points <= MAX_TALLY_POINTS else 0


@dataclass(frozen=True, slots=True)
class TallyRound(RoundSides[TallyTeam]):
    """A checked tally round: the number of players, the decks and each team's numbers.

    Building one that no table could show raises :class:`InvalidRoundError` with every
    problem. ``rules`` are the match's house rules (a tally shows no meld they could refuse).
    """

    players: int
    teams: tuple[TallyTeam, ...]
    decks: int = 0
    rules: TrancaRules = field(default_factory=TrancaRules)

    def __post_init__(self) -> None:
        self._settle()
        problems = tally_problems(self.players, self.teams, self.decks)
        if problems:
            raise InvalidRoundError(problems)

    def as_dict(self) -> dict[str, Any]:
        """The round's JSON object; ``parse_tally(round.as_dict()) == round``."""
        return {
            "players": self.players,
            "decks": self.decks,
            "tally": True,
            "teams": [team.as_dict() for team in self.teams],
        }


def _unknown(data: Mapping[Any, Any], known: Sequence[str], where: str) -> list[Problem]:
    return [
        Problem.of("unknown_key", key=str(key), known=", ".join(known)).at(where)
        for key in data
        if key not in known
    ]


def _read_team(number: int, data: object, problems: list[Problem]) -> TallyTeam | None:
    if not isinstance(data, Mapping):
        problems.append(Problem.of("not_a_team", value=repr(data)).at(f"team {number}"))
        return None
    name = data.get("name")
    ok = isinstance(name, str) and bool(name.strip())
    label = f"team {name!r}" if ok else f"team {number}"
    if not ok:
        problems.append(Problem.of("team_needs_name", value=repr(name)).at(label))
    found = len(problems)
    problems.extend(_unknown(data, _TEAM_KEYS, label))
    counts: dict[str, int] = {}
    for key in COUNTS:
        value = data.get(key, 0)
        if isinstance(value, int) and not isinstance(value, bool):
            counts[key] = value
        else:
            limit = MAX_TALLY_POINTS if key.endswith("_points") else MAX_TALLY_COUNT
            problems.append(
                Problem.of("tally_count", key=key, value=repr(value), limit=limit).at(label)
            )
    flags: dict[str, bool] = {}
    for key in _FLAGS:
        value = data.get(key)
        if value is None:
            problems.append(Problem.of(f"{key}_missing").at(label))
        elif not isinstance(value, bool):
            problems.append(Problem.of("not_a_bool", key=key, value=repr(value)).at(label))
        else:
            flags[key] = value
    if not ok or len(problems) > found:
        return None
    assert isinstance(name, str)
    return TallyTeam(name, flags["took_morto"], flags["went_out"], **counts)


def parse_tally(data: Mapping[str, Any], *, rules: TrancaRules | None = None) -> TallyRound:
    """Read a tally round from its JSON object; raises :class:`InvalidRoundError` otherwise."""
    if not isinstance(data, Mapping):
        raise InvalidRoundError(Problem.of("round_not_object", kind=type(data).__name__))
    problems = _unknown(data, _ROUND_KEYS, "round")
    players = data.get("players")
    if not isinstance(players, int) or isinstance(players, bool) or players not in PLAYER_COUNTS:
        shown = "missing" if "players" not in data else repr(players)
        problems.append(Problem.of("bad_players", value=shown))
    decks = data.get("decks", 0)
    if not isinstance(decks, int) or isinstance(decks, bool) or decks < 0 or decks > 3:
        problems.append(Problem.of("bad_decks", decks=repr(decks)))
    teams = data.get("teams")
    if not isinstance(teams, list) or not teams or len(teams) > MAX_TEAMS:
        problems.append(Problem.of("teams_not_list", value=repr(teams)[:80]))
        teams = []
    read = [_read_team(i, team, problems) for i, team in enumerate(teams, start=1)]
    if problems:
        raise InvalidRoundError(problems)
    return TallyRound(
        players,  # type: ignore[arg-type]  # checked above
        tuple(t for t in read if t is not None),
        decks,
        rules or TrancaRules(),
    )


def read_round(data: Mapping[str, Any], *, rules: TrancaRules | None = None) -> Round | TallyRound:
    """A card-by-card round, or a tally round where the object says ``"tally": true``.

    >>> read_round({"players": 2, "tally": True, "teams": [
    ...     {"name": "Ana", "took_morto": True, "went_out": False},
    ...     {"name": "Bia", "took_morto": True, "went_out": False}]}).names
    ('Ana', 'Bia')
    """
    if isinstance(data, Mapping) and data.get("tally") is True:
        return parse_tally(data, rules=rules)
    if isinstance(data, Mapping) and data.get("tally") is False:  # said of a card round: fine
        data = {key: value for key, value in data.items() if key != "tally"}
    return parse_round(data, rules=rules)
