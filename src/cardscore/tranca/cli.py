"""``cardscore tranca``: score rounds and matches from round JSON files."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.table import Table

from cardscore.cli.lazy import LazyGroup
from cardscore.cli.output import console, echo_json, json_option, print_breakdowns
from cardscore.errors import CardscoreError, Problem
from cardscore.tranca.round import InvalidRoundError, Round
from cardscore.tranca.rules import TrancaRules
from cardscore.tranca.scoring import score_round
from cardscore.tranca.tally import TallyRound, read_round
from cardscore.tranca.teams import Team

if TYPE_CHECKING:
    from cardscore.tranca.match import Match

__all__ = ["group"]

_ROUND_FILE = click.Path(dir_okay=False, allow_dash=True)


def _edges_only_option(function: click.decorators.FC) -> click.decorators.FC:
    return click.option(
        "--edges-only",
        is_flag=True,
        help="House rule: sets (melds of one rank) only of 4, 5, K or A.",
    )(function)


def _load(source: str) -> Any:
    """The JSON in file ``source`` (``-`` for stdin); unreadable input is a CardscoreError."""
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except OSError as error:
        reason = str(error.strerror)
        raise CardscoreError(Problem.of("cannot_read", source=source, reason=reason)) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise CardscoreError(
            Problem.of(
                "bad_json", source=source, error=error.msg, line=error.lineno, column=error.colno
            )
        ) from None


def _read_round(source: str, rules: TrancaRules | None) -> Round | TallyRound:
    return read_round(_load(source), rules=rules)


# `play` (the whole game engine) is imported only when it is called: `tranca score` stays fast.
@click.group("tranca", cls=LazyGroup, lazy={"play": "cardscore.tranca.play_cli:play_command"})
def group() -> None:
    """Tranca (Brazilian canasta): score rounds and matches from round JSON files.

    A round file lists, per team, its melds, closed piles, dollars, hand, and whether it took
    its morto and went out (see the README's Tranca section for the format).
    """


@group.command("score")
@click.argument("round_file", metavar="ROUND.json", type=_ROUND_FILE)
@_edges_only_option
@json_option
def score_command(round_file: str, edges_only: bool, as_json: bool) -> None:
    """Score one round: every team's terms and total (ROUND.json, or - for stdin)."""
    rules = TrancaRules(edges_only=True) if edges_only else None
    score = score_round(_read_round(round_file, rules))
    if as_json:
        echo_json(score.as_dict())
        return
    print_breakdowns((team.name, team.breakdown) for team in score.teams)


@group.command("match")
@click.argument("round_files", metavar="ROUND.json...", nargs=-1, required=True, type=_ROUND_FILE)
@click.option(
    "--target",
    type=click.IntRange(min=1),
    default=None,
    help="Points that end the match (default 3,500; 5,000 with six players).",
)
@click.option("--stats", "show_stats", is_flag=True, help="Also print statistics per team.")
@_edges_only_option
@json_option
def match_command(
    round_files: tuple[str, ...],
    target: int | None,
    show_stats: bool,
    edges_only: bool,
    as_json: bool,
) -> None:
    """Score rounds in order: running totals per round and the winner once the target is reached.

    The teams (names, order and players) come from the first round; every later round must
    list the same teams in the same order.
    """
    from cardscore.tranca.match import Match  # here: `tranca score` does not need it

    rules = TrancaRules(edges_only=True) if edges_only else None
    problems: list[Problem] = []
    rounds: list[tuple[str, Round | TallyRound]] = []
    for source in round_files:
        try:
            rounds.append((source, _read_round(source, rules)))
        except CardscoreError as error:
            problems.extend(p.at(source) for p in error.problems)
    if problems:
        raise InvalidRoundError(problems)
    first = rounds[0][1]
    match = Match(
        [Team(t.name, t.players) for t in first.teams],
        players=first.players,
        target=target,
        rules=first.rules,
    )
    for source, round_ in rounds:
        if match.is_over:
            problems.append(
                Problem.of("match_ended", round=len(match.rounds), winner=str(match.winner)).at(
                    source
                )
            )
            continue
        try:
            match.add_round(round_)
        except CardscoreError as error:
            problems.extend(p.at(source) for p in error.problems)
    if problems:
        raise InvalidRoundError(problems)
    if as_json:
        data: dict[str, Any] = {
            "target": match.target,
            "teams": list(match.names),
            "rounds": [r.as_dict() for r in match.rounds],
            "totals": match.totals,
            "winner": match.winner,
        }
        if show_stats:
            data["stats"] = match.stats().as_dict()
        echo_json(data)
        return
    out = console()
    out.print(_totals_table(match))
    out.print(match.status(), markup=False)
    if show_stats:
        out.print()
        out.print(_stats_table(match))
        if match.stats().players:
            out.print()
            out.print(_players_table(match))


def _totals_table(match: Match) -> Table:
    table = Table(box=None, pad_edge=False)
    table.add_column("round", justify="right")
    for name in match.names:
        table.add_column(name, justify="right")
    for record in match.rounds:
        table.add_row(
            str(record.number),
            *(f"{record.totals[n]:,} ({record.scores[n]:+,})" for n in match.names),
        )
    return table


def _stats_table(match: Match) -> Table:
    stats = match.stats()
    table = Table(box=None, pad_edge=False)
    table.add_column("team")
    for title in ("won", "went out", "clean", "dirty", "2s", "dollars", "trancas"):
        table.add_column(title, justify="right")
    for team in stats.teams:
        table.add_row(
            team.name,
            *map(
                str,
                (
                    team.rounds_won,
                    team.went_out,
                    team.clean_canastras,
                    team.dirty_canastras,
                    team.twos_canastras,
                    team.dollars,
                    team.trancas,
                ),
            ),
        )
    return table


def _players_table(match: Match) -> Table:
    table = Table(box=None, pad_edge=False)
    for title in ("player", "team", "went out", "trancas", "hand points"):
        table.add_column(title, justify="left" if title in ("player", "team") else "right")
    for player in match.stats().players:
        table.add_row(
            player.name,
            player.team,
            str(player.went_out),
            str(player.trancas),
            str(player.hand_points),
        )
    return table
