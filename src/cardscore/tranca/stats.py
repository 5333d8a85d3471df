"""Match statistics: per team (canastras by kind, trancas held, rounds won, going out) and per
player, where the rounds record who (``went_out_player``, hands per player) — or where a player
plays alone, so the team is the player.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from cardscore.cards import Card
from cardscore.tranca.melds import CanastraKind
from cardscore.tranca.round import Round
from cardscore.tranca.rules import card_points, is_tranca
from cardscore.tranca.scoring import RoundScore
from cardscore.tranca.teams import Team, TeamRound

__all__ = ["MatchStats", "PlayerStats", "TeamStats", "match_stats"]


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
    best = max(t.total for t in score.teams)
    leaders = [t.name for t in score.teams if t.total == best]
    return leaders[0] if len(leaders) == 1 else None


def _team_stats(name: str, sides: Sequence[TeamRound], scores: Sequence[RoundScore]) -> TeamStats:
    kinds = [k for side in sides for k in side.canastra_kinds()]
    return TeamStats(
        name=name,
        rounds=len(sides),
        rounds_won=sum(1 for s in scores if _round_winner(s) == name),
        points=sum(s[name].total for s in scores),
        clean_canastras=kinds.count(CanastraKind.CLEAN),
        dirty_canastras=kinds.count(CanastraKind.DIRTY),
        twos_canastras=kinds.count(CanastraKind.TWOS),
        dollars=sum(len(side.dollars) for side in sides),
        trancas=sum(len(side.trancas) for side in sides),
        went_out=sum(side.went_out for side in sides),
        took_morto=sum(side.took_morto for side in sides),
    )


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


def match_stats(
    teams: Sequence[Team], rounds: Sequence[Round], scores: Sequence[RoundScore]
) -> MatchStats:
    """Statistics of ``rounds`` (already scored as ``scores``) between ``teams``."""
    team_stats = []
    tallies: dict[str, _Tally] = {p: _Tally(t.name) for t in teams for p in t.players}
    for team in teams:
        sides = [r.team(team.name) for r in rounds]
        team_stats.append(_team_stats(team.name, sides, scores))
        for side in sides:
            for who, (out, held) in _player_rounds(team, side).items():
                tally = tallies.setdefault(who, _Tally(team.name))
                tally.went_out += out
                tally.trancas += sum(1 for c in held if is_tranca(c))
                tally.hand_points -= sum(card_points(c) for c in held if not is_tranca(c))
                tally.rounds_recorded += 1
    return MatchStats(
        tuple(team_stats),
        tuple(
            PlayerStats(name, t.team, t.went_out, t.trancas, t.hand_points, t.rounds_recorded)
            for name, t in tallies.items()
        ),
    )
