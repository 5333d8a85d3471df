"""A Tranca match: rounds in order, running totals, undo and edits, and the winner at the target.

A match ends at the end of the round in which a team reaches the target (3,500 up to four
players, 5,000 for six); the higher total wins, and a tie for the lead plays on.

>>> match = Match(["Ana", "Bia"], players=2, target=700)
>>> def side(name, melds, out):
...     return {"name": name, "melds": melds, "took_morto": True, "went_out": out}
>>> canastra = [["Ah", "Kh", "Qh", "Jh", "Th", "9h", "8h"]]
>>> record = match.add_round({"players": 2, "teams": [side("Ana", canastra, True), side("Bia", [], False)]})
>>> record.number, record.totals, match.is_over
(1, {'Ana': 375, 'Bia': 0}, False)
>>> _ = match.add_round({"players": 2, "teams": [side("Ana", [], False), side("Bia", canastra, True)]})
>>> match.totals, match.is_over, match.winner
({'Ana': 375, 'Bia': 375}, False, None)
>>> _ = match.undo()
>>> _ = match.add_round({"players": 2, "teams": [side("Ana", canastra, True), side("Bia", [], False)]})
>>> match.totals, match.winner
({'Ana': 750, 'Bia': 0}, 'Ana')
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardscore.errors import CardscoreError, IllegalMoveError, Problem
from cardscore.matches import JsonMatch, sole_leader
from cardscore.tranca.round import InvalidRoundError, Round
from cardscore.tranca.rules import PLAYER_COUNTS, TrancaRules, target_for, team_count, team_size
from cardscore.tranca.scoring import RoundScore, score_round
from cardscore.tranca.stats import MatchStats, RunningStats
from cardscore.tranca.tally import TallyRound, read_round
from cardscore.tranca.teams import Team

__all__ = ["Match", "RoundRecord"]


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One round of a match: the round, its scores, and every team's total after it."""

    number: int
    """1 for the first round."""
    round: Round | TallyRound
    """Card by card, or a tally (quick entry)."""
    score: RoundScore
    totals: dict[str, int]

    @property
    def scores(self) -> dict[str, int]:
        return self.score.totals

    def as_dict(self) -> dict[str, Any]:
        return {"number": self.number, "scores": self.scores, "totals": self.totals}


class Match(JsonMatch):
    """Rounds of Tranca between teams that keep their names and order.

    ``teams`` are names or :class:`Team` objects (with their players); ``target`` defaults to
    3,500 (up to four players) or 5,000 (six). Every change (``add_round``, ``undo``,
    ``edit_round``) returns a frozen :class:`RoundRecord`.
    """

    def __init__(
        self,
        teams: Iterable[str | Team],
        players: int = 4,
        target: int | None = None,
        rules: TrancaRules | None = None,
    ) -> None:
        self.teams = tuple(t if isinstance(t, Team) else Team(t) for t in teams)
        self.players = players
        self.rules = rules or TrancaRules()
        problems = self._setup_problems(target)
        if problems:
            raise CardscoreError(problems)
        self.target = target if target is not None else target_for(players)
        self._records: list[RoundRecord] = []
        self._stats: RunningStats | None = None  # kept round by round; None: count again

    def _setup_problems(self, target: int | None) -> list[Problem]:
        if self.players not in PLAYER_COUNTS:
            return [Problem.of("bad_players", value=repr(self.players))]
        problems = []
        expected, size = team_count(self.players), team_size(self.players)
        if len(self.teams) != expected:
            code = "side_count_alone" if size == 1 else "side_count"
            problems.append(
                Problem.of(code, players=self.players, expected=expected, n=len(self.teams))
            )
        names = [t.name for t in self.teams]
        if len(set(names)) != len(names):
            problems.append(Problem.of("team_names_differ", names=repr(names)))
        for team in self.teams:
            if team.players and len(team.players) != size:
                label, n = f"team {team.name!r}", len(team.players)
                problems.append(
                    Problem.of("team_size", team=label, n=n, players=self.players, size=size)
                )
        everyone = [p for t in self.teams for p in t.players]
        if len(set(everyone)) != len(everyone):
            problems.append(Problem.of("player_in_two_teams_any", players=repr(everyone)))
        if target is not None and (
            not isinstance(target, int) or isinstance(target, bool) or target <= 0
        ):
            problems.append(Problem.of("bad_target", value=repr(target)))
        return problems

    # --- state ---------------------------------------------------------------------------

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(team.name for team in self.teams)

    @property
    def rounds(self) -> tuple[RoundRecord, ...]:
        return tuple(self._records)

    @property
    def totals(self) -> dict[str, int]:
        if self._records:
            return dict(self._records[-1].totals)
        return dict.fromkeys(self.names, 0)

    @property
    def leader(self) -> str | None:
        """The team with the sole highest total (``None`` on a tie or before any round)."""
        return sole_leader(self.totals) if self._records else None

    @property
    def winner(self) -> str | None:
        """The team with the higher total once a team reached the target (``None`` before)."""
        return sole_leader(self.totals, reaching=self.target)

    @property
    def tied(self) -> bool:
        """A team reached the target but shares the highest total: the match plays on."""
        return max(self.totals.values()) >= self.target and self.winner is None

    def status(self) -> str:
        """One line for people: the winner, a tie at the target (play on), or the target."""
        totals, target = self.totals, self.target
        if self.winner is not None:
            others = " to ".join(f"{t:,}" for n, t in totals.items() if n != self.winner)
            won = totals[self.winner]
            return f"winner: {self.winner}, {won:,} to {others} (target {target:,})"
        if self.tied:
            return f"tied at {max(totals.values()):,}: play on (target {target:,})"
        return f"no winner yet: the target is {target:,}"

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    # --- rounds --------------------------------------------------------------------------

    def _as_round(self, round_: Round | TallyRound | Mapping[str, Any]) -> Round | TallyRound:
        if isinstance(round_, Round | TallyRound):
            return round_
        return read_round(round_, rules=self.rules)

    def round_problems(self, round_: Round | TallyRound) -> list[Problem]:
        """Why ``round_`` cannot be a round of this match (empty when it can)."""
        problems = []
        if round_.players != self.players:
            problems.append(
                Problem.of("round_players_differ", players=round_.players, match=self.players)
            )
        if round_.names != self.names:
            code = (
                "teams_reordered" if sorted(round_.names) == sorted(self.names) else "teams_differ"
            )
            problems.append(
                Problem.of(code, teams=repr(list(round_.names)), match=repr(list(self.names)))
            )
        if round_.rules != self.rules:
            own, match = str(round_.rules.as_dict()), str(self.rules.as_dict())
            problems.append(Problem.of("round_rules_differ", own=own, match=match))
        for team in self.teams:
            if not team.players or team.name not in round_.names:
                continue
            side = round_.team(team.name)
            named = set(side.players) | {who for who, _ in side.hands}
            if side.went_out_player is not None:
                named.add(side.went_out_player)
            strangers = sorted(named - set(team.players))
            if strangers:
                names, players = ", ".join(map(repr, strangers)), repr(list(team.players))
                problems.append(
                    Problem.of("not_a_team_player", names=names, players=players).at(
                        f"team {team.name!r}"
                    )
                )
        return problems

    def can_add_round(self, round_: Round | TallyRound | Mapping[str, Any]) -> bool:
        try:
            self.verify_add_round(round_)
        except CardscoreError:
            return False
        return True

    def verify_add_round(
        self, round_: Round | TallyRound | Mapping[str, Any]
    ) -> Round | TallyRound:
        """The round, checked against the match; raises with every problem otherwise."""
        if self.is_over:
            winner = self.winner or ""
            raise IllegalMoveError(
                Problem.of("match_over", winner=winner, total=self.totals[winner])
            )
        checked = self._as_round(round_)
        problems = self.round_problems(checked)
        if problems:
            raise InvalidRoundError(problems)
        return checked

    def add_round(self, round_: Round | TallyRound | Mapping[str, Any]) -> RoundRecord:
        """Score the next round and add it; returns its record."""
        checked = self.verify_add_round(round_)
        record = self._record(len(self._records) + 1, checked, self.totals)
        self._records.append(record)
        if self._stats is not None:
            self._stats.add(checked, record.score)
        return record

    def _record(
        self, number: int, round_: Round | TallyRound, before: Mapping[str, int]
    ) -> RoundRecord:
        score = score_round(round_)
        totals = {name: before[name] + score[name].total for name in self.names}
        return RoundRecord(number, round_, score, totals)

    def undo(self) -> RoundRecord:
        """Take back the last round; returns its record."""
        if not self._records:
            raise IllegalMoveError(Problem.of("no_round_to_undo"))
        self._stats = None
        return self._records.pop()

    def edit_round(self, index: int, round_: Round | TallyRound | Mapping[str, Any]) -> RoundRecord:
        """Replace round ``index`` (0 for the first) and recompute every total after it.

        An edit that would end the match before its last round is refused.
        """
        if not 0 <= index < len(self._records):
            raise IllegalMoveError(Problem.of("no_such_round", index=index, n=len(self._records)))
        checked = self._as_round(round_)
        problems = self.round_problems(checked)
        if problems:
            raise InvalidRoundError(problems)
        rounds = [r.round for r in self._records]
        rounds[index] = checked
        self._records = self._replay(rounds)
        self._stats = None
        return self._records[index]

    add = add_round
    replace = edit_round

    def _replay(self, rounds: Sequence[Round | TallyRound]) -> list[RoundRecord]:
        records: list[RoundRecord] = []
        totals = dict.fromkeys(self.names, 0)
        for number, round_ in enumerate(rounds, start=1):
            winner = sole_leader(totals, reaching=self.target)
            if winner is not None:
                raise IllegalMoveError(
                    Problem.of(
                        "edit_ends_match",
                        round=number - 1,
                        winner=winner,
                        total=totals[winner],
                        n=len(rounds) - number + 1,
                    )
                )
            record = self._record(number, round_, totals)
            records.append(record)
            totals = record.totals
        return records

    # --- statistics and JSON -------------------------------------------------------------

    def stats(self) -> MatchStats:
        """Per team and per player: canastras by kind, trancas held, rounds won, going out
        (kept round by round as rounds are added)."""
        if self._stats is None:
            self._stats = RunningStats(self.teams)
            for record in self._records:
                self._stats.add(record.round, record.score)
        return self._stats.stats()

    def as_dict(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "target": self.target,
            "rules": self.rules.as_dict(),
            "teams": [team.as_dict() for team in self.teams],
            "rounds": [r.round.as_dict() for r in self._records],
        }

    @classmethod
    def from_json(cls, text: str | Mapping[str, Any]) -> Match:
        data = cls.read(text)
        try:
            rules = TrancaRules(**data.get("rules", {}))
            teams = [Team(t["name"], tuple(t.get("players", ()))) for t in data["teams"]]
        except (KeyError, TypeError, AttributeError, ValueError) as error:
            raise CardscoreError(Problem.of("match_bad_teams", error=repr(error))) from None
        match = cls(teams, players=data.get("players", 4), target=data.get("target"), rules=rules)
        problems: list[Problem] = []
        rounds = []
        for number, raw in enumerate(data.get("rounds", []), start=1):
            try:
                checked = read_round(raw, rules=rules)
            except CardscoreError as error:
                problems.extend(p.at(f"round {number}") for p in error.problems)
                continue
            problems.extend(p.at(f"round {number}") for p in match.round_problems(checked))
            rounds.append(checked)
        if problems:
            raise InvalidRoundError(problems)
        match._records = match._replay(rounds)
        return match

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{html.escape(n)}</th>" for n in self.names)
        rows = "".join(
            f"<tr><td>{r.number}</td>"
            + "".join(f"<td>{r.totals[n]} ({r.scores[n]:+})</td>" for n in self.names)
            + "</tr>"
            for r in self._records
        )
        result = html.escape(self.status())
        return (
            f"<table><thead><tr><th>round</th>{head}</tr></thead><tbody>{rows}</tbody></table>"
            f"<p>{result}</p>"
        )

    def __repr__(self) -> str:
        return (
            f"<Match {' vs '.join(self.names)}: {len(self._records)} round(s), totals "
            f"{self.totals}, target {self.target}>"
        )
