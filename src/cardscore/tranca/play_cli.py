"""``cardscore tranca play``: a round (or a match) against the computer, in the terminal.

The front end only reads moves, calls :class:`~cardscore.tranca.game.TrancaState` and prints;
the rules, the computer's moves and the score all come from the library.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import click

from cardscore.cli.output import echo_json, json_option, print_breakdowns
from cardscore.errors import CardscoreError, Problem
from cardscore.tranca.actions import ActionKind, Move
from cardscore.tranca.game import NAMES, TrancaState, suit_sorted
from cardscore.tranca.match import Match
from cardscore.tranca.melds import format_cards
from cardscore.tranca.players import Computer, computer, hint
from cardscore.tranca.rules import team_count
from cardscore.tranca.scoring import RoundScore
from cardscore.tranca.teams import Team

__all__ = ["play_command"]

SAVE_KIND = "tranca-play"
YOU = 0
HELP = (
    "moves: draw | take | take <cards> | take <meld number> | meld <cards> | "
    "add <meld number> <cards> | discard <card> | hint | undo | save | quit"
)


def _names(players: int, computer_only: bool) -> list[str]:
    names = list(NAMES[:players])
    if not computer_only:
        names[YOU] = "You"
    return names


def _describe(state: TrancaState, move: Move, viewer: int | None) -> str:
    """One line per move as the viewer may see it (others' drawn cards stay hidden)."""
    who = state.names[move.seat]
    you = who == "You"

    def verb(word: str) -> str:
        return {"goes": "go", "takes": "take"}.get(word, word[:-1]) if you else word

    action = move.action
    kind = action.kind
    if kind is ActionKind.DRAW:
        text = f"{who} {verb('draws')}" + (
            f" {format_cards(move.received)}" if move.seat == viewer and move.received else ""
        )
    elif kind is ActionKind.TAKE:
        laid = (
            f"onto meld {action.meld + 1}"
            if action.meld is not None
            else f"with {format_cards(action.cards)}"
        )
        text = f"{who} {verb('takes')} the discard pile, laying its top card {laid}"
    elif kind is ActionKind.MELD:
        text = f"{who} {verb('melds')} {format_cards(action.cards)}"
    elif kind is ActionKind.ADD:
        assert action.meld is not None
        text = f"{who} {verb('adds')} {format_cards(action.cards)} to meld {action.meld + 1}"
    else:
        text = f"{who} {verb('discards')} {format_cards(action.cards)}"
    if move.dollars:
        text += f"; {verb('lays')} the dollar(s) {format_cards(move.dollars)}"
    if move.took_morto:
        text += f"; {verb('takes')} a morto"
    if move.went_out:
        text += f"; {verb('goes')} out"
    return text


def _table(state: TrancaState, viewer: int) -> str:
    lines = []
    for team in range(state.teams):
        melds = state.team_melds(team)
        shown = "   ".join(f"{i}) {m}" for i, m in enumerate(melds, start=1)) or "no melds"
        dollars = state.observation(viewer).dollars[team]
        extra = f"   dollars {format_cards(dollars)}" if dollars else ""
        morto = "   (morto taken)" if state.took_morto[team] else ""
        lines.append(f"  {state.team_name(team)}: {shown}{extra}{morto}")
    top = state.top
    size = len(state.pile)
    pile = f"top {top} ({size} card{'s' if size > 1 else ''})" if top is not None else "empty"
    others = ", ".join(
        f"{state.names[s]} {state.sizes[s]}" for s in range(state.players) if s != viewer
    )
    lines.append(
        f"  pile: {pile}   stock: {state.stock_size}   mortos left: {state.mortos_left}"
        f"   cards held: {others}"
    )
    hand = suit_sorted(state.hand(viewer))
    by_suit: dict[str, list[str]] = {}
    for card in hand:
        by_suit.setdefault(card.suit.symbol, []).append(str(card))
    lines.append(f"  your hand ({len(hand)}): " + " | ".join(" ".join(v) for v in by_suit.values()))
    return "\n".join(lines)


def _print_score(score: RoundScore) -> None:
    print_breakdowns((team.name, team.breakdown) for team in score.teams)


def _save(path: str, state: TrancaState, match: Match | None, level: int, seed: int) -> None:
    data: dict[str, Any] = {
        "kind": SAVE_KIND,
        "level": level,
        "seed": seed,
        "target": match.target if match is not None else None,
        "rounds": [record.round.as_dict() for record in match.rounds] if match else [],
        "game": state.as_dict(),
    }
    Path(path).write_text(json.dumps(data, indent=1), encoding="utf-8")


def _load(path: str) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise CardscoreError(Problem.of("save_unreadable", error=str(error)).at(path)) from None
    if not isinstance(data, dict) or data.get("kind") != SAVE_KIND:
        raise CardscoreError(Problem.of("not_a_play_save").at(path))
    missing = [key for key in ("level", "seed", "target", "rounds", "game") if key not in data]
    if missing:
        raise CardscoreError([Problem.of("save_lacks", key=key).at(path) for key in missing])
    return data


def _computer_turns(
    state: TrancaState, bots: list[Computer], viewer: int | None, show: bool
) -> None:
    while not state.is_over and state.to_act != viewer:
        move = state.play(bots[state.to_act].choose(state))
        if show:
            click.echo(_describe(state, move, viewer))


def _user_turn(state: TrancaState, line: str) -> str | None:
    """Do one typed command; returns a control word (``quit``, ``save``) or None."""
    word = line.strip().lower()
    if word in ("quit", "exit", "q"):
        return "quit"
    if word == "save":
        return "save"
    if word in ("help", "?"):
        click.echo(HELP)
        return None
    if word == "hint":
        click.echo(f"hint: {hint(state).notation}")
        return None
    if word == "undo":
        if not state.history or all(seat != YOU for seat, _ in state.history):
            click.echo("refused: there is no move of yours to undo")
            return None
        while True:
            move = state.undo()
            if move.seat == YOU:
                break
        click.echo(f"undone: {move.action.notation} (and the computer's moves after it)")
        return None
    try:
        move = state.play(line.strip())
    except CardscoreError as error:
        for problem in error.problems:
            click.echo(f"refused: {problem}")
        return None
    click.echo(_describe(state, move, YOU))
    return None


@click.command("play")
@click.option("--players", type=click.Choice(["2", "3", "4", "6"]), default="4", show_default=True)
@click.option(
    "--level",
    type=click.IntRange(0, 3),
    default=None,
    help="Computer level: 0 random, 1 greedy, 2 planner, 3 search (default 2; 1 when --computer-only).",
)
@click.option(
    "--seed", type=int, default=None, help="Deal (and computer) seed, for a repeatable game."
)
@click.option(
    "--target", type=click.IntRange(min=1), default=None, help="Play a match to this many points."
)
@click.option(
    "--save", "save_path", default=None, help="Keep the game in this file (after every move)."
)
@click.option("--load", "load_path", default=None, help="Go on with a game saved with --save.")
@click.option("--computer-only", is_flag=True, help="The computer plays every seat (one round).")
@click.option(
    "--budget",
    type=click.FloatRange(min=0.01),
    default=0.25,
    show_default=True,
    help="Level 3's seconds per move.",
)
@json_option
def play_command(
    players: str,
    level: int | None,
    seed: int | None,
    target: int | None,
    save_path: str | None,
    load_path: str | None,
    computer_only: bool,
    budget: float,
    as_json: bool,
) -> None:
    """Play Tranca against the computer (you sit at seat 1; partners and opponents are computer).

    Moves: draw, take (or take 9h Th, or take 2 for meld 2), meld 7h 8h 9h, add 2 Ts,
    discard Kc, hint, undo, save, quit. At the round's end every team's score is shown by the
    same scorer as 'cardscore tranca score'.
    """
    count = int(players)
    if as_json and not computer_only:
        raise click.UsageError("--json goes with --computer-only (an interactive game is text)")
    seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
    if computer_only:
        _computer_only(count, 1 if level is None else level, seed, budget, as_json)
        return
    level = 2 if level is None else level
    rounds: list[dict[str, Any]] = []
    state: TrancaState | None = None
    if load_path is not None:
        data = _load(load_path)
        level, seed, target = data["level"], data["seed"], data["target"]
        rounds = data["rounds"]
        state = TrancaState.from_dict(data["game"])
        count = state.players
    names = _names(count, computer_only=False) if state is None else list(state.names)
    match: Match | None = None
    if target is not None:
        match = Match(_match_teams(names, count), players=count, target=target)
        for round_ in rounds:
            match.add_round(round_)
    number = len(rounds)
    while True:
        if state is None:
            state = TrancaState(count, seed=seed + number, names=names, first=number % count)
        bots = [computer(level, seed=seed * 10 + s, budget=budget) for s in range(count)]
        if _play_round(state, bots, save_path, match, level, seed) == "quit":
            if save_path:
                _save(save_path, state, match, level, seed)
                click.echo(f"saved to {save_path}; go on with --load {save_path}")
            return
        score = state.score()
        out = state.went_out_seat
        ending = f"{state.names[out]} went out" if out is not None else "the stock ran out"
        click.echo(f"\nround over: {ending}")
        _print_score(score)
        if match is None:
            return
        match.add_round(state.to_round())
        click.echo("match: " + ", ".join(f"{n} {t:,}" for n, t in match.totals.items()))
        if match.is_over:
            click.echo(f"winner: {match.winner} (target {match.target:,})")
            return
        number += 1
        state = None


def _match_teams(names: list[str], count: int) -> list[Team]:
    teams = team_count(count)
    return [
        Team(" & ".join(names[s] for s in range(t, count, teams)), tuple(names[t::teams]))
        for t in range(teams)
    ]


def _play_round(
    state: TrancaState,
    bots: list[Computer],
    save_path: str | None,
    match: Match | None,
    level: int,
    seed: int,
) -> str | None:
    _computer_turns(state, bots, YOU, show=True)
    while not state.is_over:
        click.echo(f"\n{state.names[YOU]} to {state.phase.value}:")
        click.echo(_table(state, YOU))
        line = sys.stdin.readline()
        if not line:
            return "quit"  # end of input
        click.echo(f"> {line.strip()}")
        control = _user_turn(state, line)
        if control == "quit":
            return "quit"
        if control == "save":
            if save_path:
                _save(save_path, state, match, level, seed)
                click.echo(f"saved to {save_path}")
            else:
                click.echo("refused: start the game with --save FILE to save it")
            continue
        _computer_turns(state, bots, YOU, show=True)
        if save_path:
            _save(save_path, state, match, level, seed)
    return None


def _computer_only(players: int, level: int, seed: int, budget: float, as_json: bool) -> None:
    state = TrancaState(players, seed=seed)
    bots = [computer(level, seed=seed * 10 + s, budget=budget) for s in range(players)]
    _computer_turns(state, bots, None, show=not as_json)
    score = state.score()
    if as_json:
        echo_json({"round": state.round_dict(), "scores": [t.as_dict() for t in score.teams]})
        return
    _print_score(score)
