"""``cardscore crosskings``: score hands, deal, analyse a game record, play the computer."""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import TYPE_CHECKING

import click

from cardscore.cli.output import (
    ask,
    breakdown_table,
    console,
    counting_bar,
    echo_json,
    json_option,
)
from cardscore.crosskings.cards import parse_hand
from cardscore.crosskings.game import Game
from cardscore.crosskings.scoring import explain
from cardscore.errors import CardscoreError, IllegalMoveError, InvalidNotationError, Problem

# The solver, the bots and the progress bar are imported by the commands that use them, so
# `cardscore crosskings score` starts fast.
if TYPE_CHECKING:
    from cardscore.crosskings.analysis import Analysis
    from cardscore.crosskings.anytime import SearchResult
    from cardscore.crosskings.solver import Objective

LEVELS = range(5)
"""The computer's levels, as ``bots.LEVELS`` numbers them (a test checks they agree)."""

__all__ = ["group"]


@click.group("crosskings")
def group() -> None:
    """Cross Kings: the 6×6 grid game with kings wild, and its exact solver."""


@group.command("score")
@click.argument("cards", nargs=-1, required=True)
@click.option("--explain", "show", is_flag=True, help="Show the runs, sets and kings as a table.")
@json_option
def score_command(cards: tuple[str, ...], show: bool, as_json: bool) -> None:
    """Score one hand of CARDS (A–8 and K, any notation), kings wild: e.g. 2S 3S 4S KH."""
    result = explain(parse_hand(cards))
    if as_json:
        echo_json(result.as_dict())
    elif show:
        table = breakdown_table(result.breakdown, title="Cross Kings hand")
        console().print(table)
        for king, card in result.kings:
            click.echo(f"{king} stands for {card}")
    else:
        click.echo(result.total)


@group.command("deal")
@click.option("--seed", type=int, default=None, help="Seed of the shuffle (a repeatable deal).")
@click.option("--start", default="c3", show_default=True, help="Centre cell of the marker.")
@click.option("--random-moves", type=int, default=0, help="Then play this many random moves.")
@click.option("--move-seed", type=int, default=0, show_default=True, help="Seed of those moves.")
def deal_command(seed: int | None, start: str, random_moves: int, move_seed: int) -> None:
    """Print a new game record (JSON) for `analyse` or `play --load`."""
    game = Game.deal(seed, start)
    rng = random.Random(move_seed)
    for _ in range(random_moves):
        if game.is_over:
            break
        game = game.random_move(rng)
    click.echo(game.to_json())


def _load(path: str) -> Game:
    try:
        return Game.load(path)
    except OSError as error:
        reason = str(error.strerror)
        raise CardscoreError(Problem.of("cannot_read", source=path, reason=reason)) from None


@group.command("analyse")
@click.argument("game_file", metavar="GAME.json")
@click.option(
    "--objective",
    type=click.Choice(["result", "margin"]),
    default="result",
    show_default=True,
    help="Maximise expected result (win 1, draw ½) then margin, or expected margin.",
)
@click.option("--svg", "svg_path", type=click.Path(dir_okay=False), help="Write the board here.")
@click.option(
    "--seconds",
    type=float,
    default=None,
    help="Anytime search for this long instead of the exact solve (for early positions).",
)
@json_option
def analyse_command(
    game_file: str, objective: str, svg_path: str | None, seconds: float | None, as_json: bool
) -> None:
    """Evaluate every legal move of the game in GAME.json exactly (win/draw/loss, margin)."""
    game = _load(game_file)
    if game.is_over:
        raise IllegalMoveError(Problem.of("nothing_to_analyse").at(game_file))
    if seconds is not None:
        result = _search_with_progress(game, seconds, show=not as_json)
        if as_json:
            echo_json(
                {
                    "best": result.cell,
                    "exact": result.exact,
                    "exact_margin": result.exact_margin,
                    "depth": result.depth,
                    "expected_result": _finite(result.expected_result),
                    "expected_margin": _finite(result.expected_margin),
                }
            )
        else:
            how = (
                "exact"
                if result.exact_margin
                else "exact expected result"
                if result.exact
                else f"estimated, {result.depth} plies deep"
            )
            click.echo(f"best move {result.cell} ({how})")
        return
    from cardscore.crosskings.svg import Board

    goal: Objective = "margin" if objective == "margin" else "result"
    analysis = _analyse_with_progress(game, goal, show=not as_json)
    if svg_path:
        Path(svg_path).write_text(Board(game, analysis).svg(), encoding="utf-8")
    if as_json:
        echo_json(analysis.as_dict())
        return
    click.echo(Board(game).text())
    click.echo(analysis.to_text())


_SLOW_FROM = 24
"""Cards left from which an exact solve may take minutes: the CLI then suggests ``--seconds``."""


def _slow_hint(game: Game) -> str | None:
    """What to tell someone about to wait long for an exact solve (``None`` when it is quick)."""
    if game.cards_left < _SLOW_FROM:
        return None
    return (
        f"{game.cards_left} cards left: the exact solve may take minutes; "
        "--seconds 10 gives an anytime estimate instead"
    )


def _analyse_with_progress(game: Game, objective: Objective, show: bool) -> Analysis:
    """The exact analysis; on a terminal, a progress bar (moves solved) and a hint on stderr."""
    from rich.console import Console

    from cardscore.crosskings.analysis import analyse

    err = Console(stderr=True)
    if not show or not err.is_terminal:
        return analyse(game, objective=objective)
    hint = _slow_hint(game)
    if hint:
        err.print(f"hint: {hint}", markup=False)
    with counting_bar("solving moves", err) as report:
        report(0, len(game.legal_cells))
        return analyse(game, objective=objective, progress=report)


def _finite(x: float) -> float | None:
    return None if math.isnan(x) else x


def _search_with_progress(game: Game, seconds: float, show: bool) -> SearchResult:
    """The anytime search with a rich progress bar (time used, depth, current best)."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from cardscore.crosskings.anytime import search

    if not show:
        return search(game, seconds)
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console(), transient=True) as bar:
        task = bar.add_task("searching", total=seconds)

        def report(depth: int, elapsed: float, best: str) -> None:
            bar.update(task, completed=elapsed, description=f"{depth} plies, best so far {best}")

        return search(game, seconds, progress=report)


@group.command("play")
@click.option("--seed", type=int, default=None, help="Seed of the deal.")
@click.option(
    "--level",
    type=click.IntRange(min(LEVELS), max(LEVELS)),
    default=3,
    show_default=True,
    help="Computer level: 0 random, 1 greedy, 2–4 search 0.25/1/4 s a move.",
)
@click.option("--second", is_flag=True, help="Let the computer move first.")
@click.option("--load", "load_path", type=click.Path(dir_okay=False), help="Resume a game record.")
@click.option("--save", "save_path", type=click.Path(dir_okay=False), help="Save the game here.")
def play_command(
    seed: int | None, level: int, second: bool, load_path: str | None, save_path: str | None
) -> None:
    """Play against the computer in the terminal: type a cell (c4), `hint`, `undo` or `quit`."""
    from cardscore.crosskings.bots import Bot
    from cardscore.crosskings.svg import Board

    out = console()
    game = _load(load_path) if load_path else Game.deal(seed)
    human = 2 if second else 1
    bot = Bot(level, seed)
    while not game.is_over:
        out.print(Board(game).text(), markup=False)
        out.print(
            f"P1 {game.p1.score()} ({game.p1})  ·  P2 {game.p2.score()} ({game.p2})",
            markup=False,
        )
        if game.to_move != human:
            with out.status(f"computer (level {level}) thinking…"):
                cell = bot.choose(game)
            game = game.move(cell)
            last = game.moves[-1]
            out.print(f"[bold]computer takes {last.notation.split('=')[0]}: {last.card}[/bold]")
            continue
        answer = ask(f"your move ({' '.join(game.legal_moves)})")
        if answer is None:
            break
        if answer == "undo":
            game = game.undo(min(2, len(game.moves)))
            continue
        if answer == "hint":
            hint = _search_with_progress(game, 2.0, show=True)
            out.print(f"hint: {hint.cell} ({'exact' if hint.exact else 'estimated'})")
            continue
        try:
            game = game.move(answer)
        except (IllegalMoveError, InvalidNotationError) as error:
            out.print("; ".join(error.problems), style="red", markup=False)
            continue
        out.print(f"you take {game.moves[-1].card}")
    if game.is_over:
        out.print(Board(game).text(), markup=False)
        p1, p2 = game.p1.score(), game.p2.score()
        mine, theirs = (p1, p2) if human == 1 else (p2, p1)
        verdict = "you win" if mine > theirs else "you lose" if mine < theirs else "a draw"
        out.print(f"game over: P1 {p1} – P2 {p2}: {verdict}")
    if save_path:
        game.save(save_path)
        out.print(f"saved to {save_path}")
