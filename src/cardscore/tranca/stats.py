"""Match statistics: per team (canastras by kind, trancas held, rounds won, going out) and per
player, where the rounds record who (``went_out_player``, hands per player) — or where a player
plays alone, so the team is the player.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from cardscore.cards import Card
from cardscore.matches import sole_leader
from cardscore.tranca.melds import CanastraKind
from cardscore.tranca.round import Round
from cardscore.tranca.rules import card_points, is_tranca
from cardscore.tranca.scoring import RoundScore
from cardscore.tranca.tally import TallyRound, TallyTeam
from cardscore.tranca.teams import Team, TeamRound

__all__ = ["MatchStats", "PlayerStats", "RunningStats", "TeamStats", "match_stats"]


@dataclass(frozen=True, slots=True)
class TeamStats:
    name: str
    rounds: int
    rounds_won: int
    """Rounds in which the team scored strictly more than every other team."""
    points: int
    clean_canastras: int
    dirty_canastras: int
    twos_canastras: int
    dollars: int
    trancas: int
    """Black 3s left in hand at the end of rounds."""
    went_out: int
    took_morto: int


@dataclass(frozen=True, slots=True)
class PlayerStats:
    name: str
    team: str
    went_out: int
    trancas: int
    """Black 3s this player held at the end of rounds (from hands recorded per player)."""
    hand_points: int
    """What the cards this player held (trancas aside) cost."""
    rounds_recorded: int
    """Rounds with this player's hand or going out on record."""


@dataclass(frozen=True, slots=True)
class MatchStats:
    teams: tuple[TeamStats, ...]
    players: tuple[PlayerStats, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "teams": [asdict(t) for t in self.teams],
            "players": [asdict(p) for p in self.players],
        }


def _round_winner(score: RoundScore) -> str | None:
    return sole_leader({t.name: t.total for t in score.teams})


def _player_rounds(team: Team, side: TeamRound) -> dict[str, tuple[bool, tuple[Card, ...]]]:
    """Per player on record for this side: whether they went out, and the cards they held."""
    named = [
        *team.players,
        *side.players,
        *(who for who, _ in side.hands),
        *([side.went_out_player] if side.went_out_player else []),
    ]
    if len(set(named)) <= 1 and len(team.players) <= 1:
        # A player alone is the team: everything the side records is theirs.
        who = named[0] if named else team.name
        return {who: (side.went_out, side.hand)}
    found = {who: (side.went_out_player == who, held) for who, held in side.hands}
    if side.went_out_player is not None and side.went_out_player not in found:
        found[side.went_out_player] = (True, ())
    return found


@dataclass
class _Tally:
    team: str
    went_out: int = 0
    trancas: int = 0
    hand_points: int = 0
    rounds_recorded: int = 0


_TEAM_FIELDS = tuple(f for f in TeamStats.__dataclass_fields__ if f != "name")


class RunningStats:
    """Match statistics kept round by round: :meth:`stats` after adding every round is
    :func:`match_stats` of the whole match, each round costing the same however long the match.

    Players named by the rounds but not by the match's teams come after the listed ones, in the
    order the whole-match reading meets them: team by team, then round by round.

    >>> from cardscore.tranca import parse_round, score_round
    >>> running = RunningStats([Team("Ana"), Team("Bia")])
    >>> round_ = parse_round({"players": 2, "teams": [
    ...     {"name": "Ana", "melds": [["Ah", "Kh", "Qh", "Jh", "Th", "9h", "8h"]],
    ...      "took_morto": True, "went_out": True},
    ...     {"name": "Bia", "hand": ["3s"], "took_morto": True, "went_out": False}]})
    >>> running.add(round_, score_round(round_))
    >>> [(t.name, t.rounds_won, t.clean_canastras, t.trancas) for t in running.stats().teams]
    [('Ana', 1, 1, 0), ('Bia', 0, 0, 1)]
    """

    def __init__(self, teams: Sequence[Team]) -> None:
        self._teams = tuple(teams)
        self._sums = {team.name: dict.fromkeys(_TEAM_FIELDS, 0) for team in self._teams}
        self._tallies = {p: _Tally(t.name) for t in self._teams for p in t.players}
        self._listed = len(self._tallies)
        self._named = set(self._tallies)
        self._first: dict[str, tuple[int, int, int]] = {}
        self._rounds = 0

    def add(self, round_: Round | TallyRound, score: RoundScore) -> None:
        """Count one more round (scored as ``score``)."""
        self._rounds += 1
        winner = _round_winner(score)
        for index, team in enumerate(self._teams):
            side = round_.team(team.name)
            kinds = side.canastra_kinds()
            counts = {
                "rounds": 1,
                "rounds_won": int(winner == team.name),
                "points": score[team.name].total,
                "clean_canastras": kinds.count(CanastraKind.CLEAN),
                "dirty_canastras": kinds.count(CanastraKind.DIRTY),
                "twos_canastras": kinds.count(CanastraKind.TWOS),
                "dollars": side.dollar_count,
                "trancas": side.tranca_count,
                "went_out": int(side.went_out),
                "took_morto": int(side.took_morto),
            }
            sums = self._sums[team.name]
            for field_name, value in counts.items():
                sums[field_name] += value
            if isinstance(side, TallyTeam):
                continue  # a tally names no player and no card: per-player counts skip it
            for place, (who, (out, held)) in enumerate(_player_rounds(team, side).items()):
                self._count(who, (index, self._rounds, place), team.name, out, held)

    def _count(
        self, who: str, seen: tuple[int, int, int], team: str, out: bool, held: tuple[Card, ...]
    ) -> None:
        tally = self._tallies.setdefault(who, _Tally(team))
        if who not in self._named:
            first = self._first.get(who)
            if first is None or seen < first:  # the whole-match reading meets it here first
                self._first[who] = seen
                tally.team = team
        tally.went_out += out
        tally.trancas += sum(1 for c in held if is_tranca(c))
        tally.hand_points -= sum(card_points(c) for c in held if not is_tranca(c))
        tally.rounds_recorded += 1

    def stats(self) -> MatchStats:
        names = list(self._tallies)
        strangers = sorted(names[self._listed :], key=self._first.__getitem__)
        return MatchStats(
            tuple(TeamStats(name, **sums) for name, sums in self._sums.items()),
            tuple(
                PlayerStats(name, t.team, t.went_out, t.trancas, t.hand_points, t.rounds_recorded)
                for name in [*names[: self._listed], *strangers]
                for t in [self._tallies[name]]
            ),
        )


def match_stats(
    teams: Sequence[Team], rounds: Sequence[Round | TallyRound], scores: Sequence[RoundScore]
) -> MatchStats:
    """Statistics of ``rounds`` (already scored as ``scores``) between ``teams``."""
    running = RunningStats(teams)
    for round_, score in zip(rounds, scores, strict=True):
        running.add(round_, score)
    return running.stats()
