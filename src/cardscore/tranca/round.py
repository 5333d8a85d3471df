"""A Tranca round as JSON: read it, check every rule, and report every problem at once.

The input (``decks`` defaults from ``players``; ``melds``, ``piles``, ``dollars`` and ``hand``
default to empty; ``took_morto`` and ``went_out`` are required)::

    {"players": 4, "decks": 2,
     "teams": [{"name": "Ana & Bia", "players": ["Ana", "Bia"],
                "melds": [["4H","5H","6H","7H","8H","9H","2C"], ["KS","KD","KH"]],
                "piles": [{"pile": "A", "clean": false, "cards": 7}],
                "dollars": ["3H"], "hand": ["AS", "3C"],
                "took_morto": true, "went_out": true, "went_out_player": "Bia"},
               ...]}

``players`` (optional, per team) names the team's players; ``hand`` may also be an object of
hands per player (``{"Ana": ["AS"], "Bia": ["3C"]}``) and ``went_out_player`` says who went
out — both only feed a match's per-player statistics. ``rules`` (optional) holds house rules,
``{"edges_only": true}``.

>>> round_ = parse_round({"players": 2, "teams": [
...     {"name": "Ana", "melds": [["Kh", "Kd", "Ks", "Kc", "Kh", "Kd", "Ks"]], "took_morto": True, "went_out": True},
...     {"name": "Bia", "hand": ["3s", "Ah"], "took_morto": False, "went_out": False}]})
>>> [team.name for team in round_.teams], round_.decks
(['Ana', 'Bia'], 2)
>>> parse_round({"players": 2, "teams": [{"name": "Ana", "dollars": ["3c"], "took_morto": True},
...                                       {"name": "Bia", "hand": ["3h"], "went_out": False}]})
Traceback (most recent call last):
...
cardscore.tranca.round.InvalidRoundError: team 'Ana': "went_out" is missing ...; team 'Bia': "took_morto" is missing ...; team 'Ana', dollars: 3♣ is a tranca (a black 3): it can only stay in a hand; team 'Bia', hand: 3♥ is a dollar (a red 3): dollars are laid apart, never held — move it to "dollars"
"""

from __future__ import annotations

import contextlib
import difflib
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from itertools import chain
from typing import Any, Generic, Protocol, TypeVar

from cardscore.cards import Card, Rank, parse_cards
from cardscore.errors import CardscoreError, Problem
from cardscore.limits import round_size_problems
from cardscore.tranca.melds import Meld, card_order, meld_problems
from cardscore.tranca.piles import Pile, parse_rank, pile_problems
from cardscore.tranca.rules import (
    CANASTRA_SIZE,
    PLAYER_COUNTS,
    TrancaRules,
    decks_for,
    is_dollar,
    is_tranca,
    team_count,
    team_size,
)
from cardscore.tranca.teams import TeamRound

__all__ = ["InvalidRoundError", "Round", "parse_round", "round_problems"]

_ROUND_KEYS = ("players", "decks", "teams", "rules")
_TEAM_KEYS = (
    "name",
    "players",
    "melds",
    "piles",
    "dollars",
    "hand",
    "took_morto",
    "went_out",
    "went_out_player",
)
_RULE_KEYS = ("edges_only",)
_MORTOS = 2  # two mortos are set aside whatever the number of players


_CHECKED: ContextVar[bool] = ContextVar("tranca_round_checked", default=False)


class InvalidRoundError(CardscoreError):
    """A round that cannot be read or cannot have happened; ``problems`` lists every reason."""


@dataclass(slots=True)
class _Draft:
    """One team as read, before it is known to be valid (every field may be partial)."""

    label: str
    name: str | None
    players: tuple[str, ...] = ()
    melds: list[tuple[tuple[Card, ...], bool]] = field(default_factory=list)
    """Each meld's cards that could be read, and whether all of them could."""
    piles: list[Pile] = field(default_factory=list)
    dollars: tuple[Card, ...] = ()
    hand: tuple[Card, ...] = ()
    hands: tuple[tuple[str, tuple[Card, ...]], ...] = ()
    took_morto: bool | None = None
    went_out: bool | None = None
    went_out_player: str | None = None


def _unknown_keys(data: Mapping[Any, Any], known: Sequence[str], where: str) -> list[Problem]:
    problems = []
    for key in data:
        if key in known:
            continue
        close = difflib.get_close_matches(str(key), known, n=1)
        if close:
            problems.append(Problem.of("unknown_key_close", key=str(key), close=close[0]).at(where))
        else:
            known_keys = ", ".join(known)
            problems.append(Problem.of("unknown_key", key=str(key), known=known_keys).at(where))
    return problems


def _read_cards(
    value: object, where: str, problems: list[Problem]
) -> tuple[tuple[Card, ...], bool]:
    """The cards that can be read from a list (or a string) of codes, and whether all could."""
    if isinstance(value, str):
        items: list[object] = [value]
    elif isinstance(value, list | tuple):
        items = list(value)
    else:
        problems.append(Problem.of("not_a_card_list", where=where, value=repr(value)))
        return (), False
    try:
        return parse_cards(items), True  # type: ignore[arg-type]
    except CardscoreError as error:
        problems.extend(p.at(where) for p in error.problems)
    readable: list[Card] = []
    for item in items:
        with contextlib.suppress(CardscoreError):
            readable.extend(parse_cards([item]))  # type: ignore[list-item]
    return tuple(readable), False


def _read_team(number: int, data: object, rules: TrancaRules, problems: list[Problem]) -> _Draft:
    if not isinstance(data, Mapping):
        problems.append(Problem.of("not_a_team", value=repr(data)).at(f"team {number}"))
        return _Draft(f"team {number}", None)
    name = data.get("name")
    if isinstance(name, str) and name.strip():
        draft = _Draft(f"team {name!r}", name)
    else:
        draft = _Draft(f"team {number}", None)
        problems.append(Problem.of("team_needs_name", value=repr(name)).at(f"team {number}"))
    label = draft.label
    problems.extend(_unknown_keys(data, _TEAM_KEYS, label))

    players = data.get("players", [])
    if isinstance(players, list) and all(isinstance(p, str) and p.strip() for p in players):
        draft.players = tuple(players)
        if len(set(players)) != len(players):
            problems.append(Problem.of("player_twice", players=repr(players)).at(label))
    else:
        problems.append(Problem.of("players_not_names", value=repr(players)).at(label))

    melds = data.get("melds", [])
    if not isinstance(melds, list):
        problems.append(Problem.of("melds_not_list").at(label))
        melds = []
    for i, meld in enumerate(melds, start=1):
        draft.melds.append(_read_cards(meld, f"{label}, meld {i}", problems))

    piles = data.get("piles", [])
    if not isinstance(piles, list):
        problems.append(Problem.of("piles_not_list").at(label))
        piles = []
    for i, pile in enumerate(piles, start=1):
        found = pile_problems(pile, rules)
        problems.extend(p.at(f"{label}, pile {i}") for p in found)
        if not found:  # as Pile.from_dict reads it, without checking it once more
            draft.piles.append(
                Pile(parse_rank(pile["pile"]), pile.get("clean", True), pile.get("cards", 7))
            )

    draft.dollars, _ = _read_cards(data.get("dollars", []), f"{label}, dollars", problems)

    hand = data.get("hand", [])
    if isinstance(hand, Mapping):
        hands = []
        for who, held in hand.items():
            if not isinstance(who, str) or not who.strip():
                problems.append(Problem.of("not_a_name", value=repr(who)).at(f"{label}, hand"))
                continue
            cards, _ = _read_cards(held, f"{label}, hand of {who}", problems)
            hands.append((who, cards))
        draft.hands = tuple(hands)
        draft.hand = tuple(c for _, held in hands for c in held)
    else:
        draft.hand, _ = _read_cards(hand, f"{label}, hand", problems)

    for key in ("took_morto", "went_out"):
        value = data.get(key)
        if value is None:
            problems.append(Problem.of(f"{key}_missing").at(label))
        elif not isinstance(value, bool):
            problems.append(Problem.of("not_a_bool", key=key, value=repr(value)).at(label))
        else:
            setattr(draft, key, value)

    who = data.get("went_out_player")
    if who is not None:
        if isinstance(who, str) and who.strip():
            draft.went_out_player = who
        else:
            problems.append(Problem.of("went_out_player_not_name", value=repr(who)).at(label))
    return draft


def _team_rule_problems(draft: _Draft, players: int, rules: TrancaRules) -> list[Problem]:
    label = draft.label
    problems: list[Problem] = []
    has_canastra = bool(draft.piles)
    for i, (cards, complete) in enumerate(draft.melds, start=1):
        if not complete:
            continue  # its unreadable cards are already reported
        found = meld_problems(cards, rules)
        problems.extend(p.at(f"{label}, meld {i}") for p in found)
        has_canastra = has_canastra or (not found and len(cards) >= CANASTRA_SIZE)
    for card in draft.dollars:
        if is_tranca(card):
            problems.append(Problem.of("tranca_laid", card=str(card)).at(f"{label}, dollars"))
        elif not is_dollar(card):
            problems.append(Problem.of("not_a_dollar", card=str(card)).at(f"{label}, dollars"))
    for card in draft.hand:
        if is_dollar(card):
            problems.append(Problem.of("dollar_held", card=str(card)).at(f"{label}, hand"))
    size = team_size(players)
    if draft.players and len(draft.players) != size:
        problems.append(
            Problem.of("team_size", team=label, n=len(draft.players), players=players, size=size)
        )
    if draft.hands:
        if draft.players:
            strangers = [who for who, _ in draft.hands if who not in draft.players]
            if strangers:
                names = ", ".join(map(repr, strangers))
                problems.append(
                    Problem.of(
                        "not_a_team_player", names=names, players=repr(list(draft.players))
                    ).at(f"{label}, hand")
                )
        elif len(draft.hands) > size:
            problems.append(
                Problem.of("too_many_hands", n=len(draft.hands), size=size).at(f"{label}, hand")
            )
    if draft.went_out:
        if not has_canastra:
            problems.append(Problem.of("out_without_canastra", team=label))
        if size == 1 and draft.hand:
            still = " ".join(map(str, draft.hand))
            problems.append(
                Problem.of("out_still_holds", team=label, n=len(draft.hand), cards=still)
            )
    who = draft.went_out_player
    if who is not None:
        if draft.went_out is False:
            problems.append(Problem.of("went_out_player_stayed", name=who).at(label))
        known = draft.players or tuple(name for name, _ in draft.hands)
        if known and who not in known:
            problems.append(
                Problem.of("went_out_player_unknown", name=who, players=repr(list(known))).at(label)
            )
        held = next((cards for name, cards in draft.hands if name == who), ())
        if held:
            shown = " ".join(map(str, held))
            problems.append(Problem.of("player_out_holds", name=who, cards=shown).at(label))
    return problems


def _count_problems(drafts: Sequence[_Draft], decks: int) -> list[Problem]:
    """Every card, and every rank with piles, used more often than the decks hold."""
    if _counts_fit(drafts, decks):
        return []  # the usual case: no need to note where every card lies
    return _overuse_problems(drafts, decks)


def _counts_fit(drafts: Sequence[_Draft], decks: int) -> bool:
    """Whether no card and no rank is used more often than the decks hold (what
    :func:`_overuse_problems` checks, counting cards only)."""
    counts = Counter(
        chain.from_iterable(
            chain(chain.from_iterable(cards for cards, _ in d.melds), d.dollars, d.hand)
            for d in drafts  # ``hand`` holds every card of ``hands``
        )
    )
    if counts and max(counts.values()) > decks:
        return False
    piled: Counter[Rank] = Counter()
    for d in drafts:
        for pile in d.piles:
            piled.update(pile.rank_counts())
    if not piled:
        return True
    of_rank: Counter[Rank] = Counter()
    for card, n in counts.items():
        of_rank[card.rank] += n  # each card within ``decks`` here, so no capping needed
    return all(of_rank[rank] + n <= 4 * decks for rank, n in piled.items())


def _overuse_problems(drafts: Sequence[_Draft], decks: int) -> list[Problem]:
    """The problems of :func:`_count_problems`, each naming every place its cards lie."""
    places: dict[Card, Counter[str]] = defaultdict(Counter)
    for d in drafts:
        for i, (cards, _) in enumerate(d.melds, start=1):
            for card in cards:
                places[card][f"{d.label} meld {i}"] += 1
        for card in d.dollars:
            places[card][f"{d.label} dollars"] += 1
        if d.hands:
            for who, held in d.hands:
                for card in held:
                    places[card][f"{d.label} hand of {who}"] += 1
        else:
            for card in d.hand:
                places[card][f"{d.label} hand"] += 1
    problems = []
    for card in sorted(places, key=card_order):
        used = sum(places[card].values())
        if used > decks:
            found = _where(places[card])
            problems.append(
                Problem.of("card_overused", card=str(card), n=used, places=found, decks=decks)
            )
    # Pile cards have no suits: they count against their rank's total, as do the cards above
    # (each card at most ``decks`` times, so an excess already reported is not reported again).
    pile_places: dict[Rank, Counter[str]] = defaultdict(Counter)
    for d in drafts:
        for i, pile in enumerate(d.piles, start=1):
            for rank, n in pile.rank_counts().items():
                pile_places[rank][
                    f"{d.label} pile {i}" + (" (its 2)" if rank is not pile.rank else "")
                ] += n
    for rank in sorted(pile_places):
        of_rank = {card: where for card, where in places.items() if card.rank is rank}
        capped = sum(min(sum(w.values()), decks) for w in of_rank.values())
        piled = sum(pile_places[rank].values())
        if capped + piled > 4 * decks:
            every: Counter[str] = Counter()
            for where in of_rank.values():
                every.update(where)
            every.update(pile_places[rank])
            used = sum(every.values())
            problems.append(
                Problem.of(
                    "rank_overused",
                    rank=rank.label,
                    n=used,
                    places=_where(every),
                    decks=decks,
                    held=4 * decks,
                )
            )
    return problems


def _where(places: Counter[str]) -> str:
    return ", ".join(place if n == 1 else f"{place} ×{n}" for place, n in places.items())


def _rule_problems(
    players: int, decks: int, rules: TrancaRules, drafts: Sequence[_Draft]
) -> list[Problem]:
    problems: list[Problem] = []
    expected = team_count(players)
    if len(drafts) != expected:
        code = "side_count_alone" if team_size(players) == 1 else "side_count"
        problems.append(Problem.of(code, players=players, expected=expected, n=len(drafts)))
    names = Counter(d.name for d in drafts if d.name is not None)
    problems.extend(
        Problem.of("team_name_twice", name=name, n=n) for name, n in names.items() if n > 1
    )
    seen: dict[str, str] = {}
    for d in drafts:
        for player in d.players:
            if player in seen and seen[player] != d.label:
                problems.append(
                    Problem.of(
                        "player_in_two_teams", name=player, first=seen[player], second=d.label
                    )
                )
            seen.setdefault(player, d.label)
    for draft in drafts:
        problems.extend(_team_rule_problems(draft, players, rules))
    took = [d.label for d in drafts if d.took_morto]
    if len(took) > _MORTOS:
        problems.append(Problem.of("too_many_mortos", teams=", ".join(took), n=len(took)))
    out = [d.label for d in drafts if d.went_out]
    if len(out) > 1:
        problems.append(Problem.of("many_went_out", teams=", ".join(out), n=len(out)))
    problems.extend(_count_problems(drafts, decks))
    return problems


def _read_rules(value: object, problems: list[Problem]) -> TrancaRules | None:
    if not isinstance(value, Mapping):
        problems.append(Problem.of("rules_not_object", value=repr(value)))
        return None
    problems.extend(_unknown_keys(value, _RULE_KEYS, "rules"))
    edges_only = value.get("edges_only", False)
    if not isinstance(edges_only, bool):
        problems.append(
            Problem.of("not_a_bool", key="edges_only", value=repr(edges_only)).at("rules")
        )
        return None
    return TrancaRules(edges_only=edges_only)


def _read_int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def parse_round(data: Mapping[str, Any], *, rules: TrancaRules | None = None) -> Round:
    """Read a round from its JSON object, checking every rule.

    Raises :class:`InvalidRoundError` listing every problem: which team, which meld, which card
    and why. ``rules`` defaults to the round's own ``"rules"`` (or the defaults); giving rules
    that differ from the round's is itself a problem.
    """
    if not isinstance(data, Mapping):
        raise InvalidRoundError(Problem.of("round_not_object", kind=type(data).__name__))
    too_large = round_size_problems(data)
    if too_large:  # before any parsing: an oversized round costs nothing more
        raise InvalidRoundError(too_large)
    problems = _unknown_keys(data, _ROUND_KEYS, "round")
    if "rules" in data:
        own = _read_rules(data["rules"], problems)
        if rules is not None and own is not None and own != rules:
            problems.append(
                Problem.of("rules_differ", own=str(own.as_dict()), given=str(rules.as_dict()))
            )
        rules = rules or own
    rules = rules or TrancaRules()

    players = _read_int(data.get("players"))
    if players not in PLAYER_COUNTS:
        shown = "missing" if "players" not in data else repr(data["players"])
        problems.append(Problem.of("bad_players", value=shown))
        players = None
    decks = _read_int(data.get("decks")) if "decks" in data else None
    if "decks" in data and (decks is None or decks < 1):
        problems.append(Problem.of("bad_decks", decks=repr(data["decks"])))
        decks = None
    elif decks is None and players is not None:
        decks = decks_for(players)

    teams = data.get("teams")
    if not isinstance(teams, list) or not teams:
        problems.append(Problem.of("teams_not_list", value=repr(teams)))
        teams = []
    drafts = [_read_team(i, team, rules, problems) for i, team in enumerate(teams, start=1)]
    if players is not None and decks is not None and drafts:
        problems.extend(_rule_problems(players, decks, rules, drafts))
    if problems:
        raise InvalidRoundError(problems)
    assert players is not None  # for mypy: without problems, both were read
    assert decks is not None
    token = _CHECKED.set(True)
    try:
        return Round(players, tuple(_team_of(d, rules) for d in drafts), decks, rules)
    finally:
        _CHECKED.reset(token)


def _team_of(draft: _Draft, rules: TrancaRules) -> TeamRound:
    assert draft.name is not None
    assert draft.took_morto is not None
    assert draft.went_out is not None
    return TeamRound(
        name=draft.name,
        took_morto=draft.took_morto,
        went_out=draft.went_out,
        melds=tuple(Meld(cards, rules=rules) for cards, _ in draft.melds),
        piles=tuple(draft.piles),
        dollars=draft.dollars,
        hand=draft.hand,
        players=draft.players,
        hands=draft.hands,
        went_out_player=draft.went_out_player,
    )


def _draft_of(team: TeamRound) -> _Draft:
    return _Draft(
        label=f"team {team.name!r}",
        name=team.name,
        players=team.players,
        melds=[(m.cards, True) for m in team.melds],
        piles=list(team.piles),
        dollars=team.dollars,
        hand=team.hand,
        hands=team.hands,
        took_morto=team.took_morto,
        went_out=team.went_out,
        went_out_player=team.went_out_player,
    )


def round_problems(
    players: int, teams: Iterable[TeamRound], decks: int = 0, rules: TrancaRules | None = None
) -> tuple[Problem, ...]:
    """Every rule a round built from :class:`TeamRound` objects breaks (empty if none)."""
    if players not in PLAYER_COUNTS:
        return (Problem.of("bad_players", value=repr(players)),)
    decks = decks or decks_for(players)
    return tuple(
        _rule_problems(players, decks, rules or TrancaRules(), [_draft_of(t) for t in teams])
    )


class _Named(Protocol):
    @property
    def name(self) -> str: ...


_Side = TypeVar("_Side", bound=_Named)


class RoundSides(Generic[_Side]):
    """What every kind of round shares: its teams in order, found by name, and the standard
    number of decks filled in."""

    __slots__ = ()
    players: int
    teams: tuple[_Side, ...]
    decks: int

    def _settle(self) -> None:
        """Teams as a tuple, and ``decks=0`` as the standard for ``players``."""
        object.__setattr__(self, "teams", tuple(self.teams))
        if self.decks == 0 and self.players in PLAYER_COUNTS:
            object.__setattr__(self, "decks", decks_for(self.players))

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(team.name for team in self.teams)

    def team(self, name: str) -> _Side:
        for team in self.teams:
            if team.name == name:
                return team
        raise KeyError(name)


@dataclass(frozen=True, slots=True)
class Round(RoundSides[TeamRound]):
    """A checked round: the number of players, the decks, and each team's side, in order.

    ``decks=0`` means the standard for ``players`` (2 up to four players, 3 for six). Building a
    round that breaks a rule raises :class:`InvalidRoundError` with every problem.
    """

    players: int
    teams: tuple[TeamRound, ...]
    decks: int = 0
    rules: TrancaRules = field(default_factory=TrancaRules)

    def __post_init__(self) -> None:
        self._settle()
        if _CHECKED.get():
            return  # parse_round has just checked every rule on the same cards
        problems = round_problems(self.players, self.teams, self.decks, self.rules)
        if problems:
            raise InvalidRoundError(problems)

    def as_dict(self) -> dict[str, Any]:
        """The round's JSON object; ``parse_round(round.as_dict()) == round``."""
        data: dict[str, Any] = {
            "players": self.players,
            "decks": self.decks,
            "teams": [team.as_dict() for team in self.teams],
        }
        if self.rules != TrancaRules():
            data["rules"] = self.rules.as_dict()
        return data
