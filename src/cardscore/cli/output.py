"""One output convention for every command: people by default, ``--json`` for machines."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from enum import Enum
from typing import TYPE_CHECKING, Any, TypeVar

import click

from cardscore.cards import Card

if TYPE_CHECKING:  # rich is imported by the commands that print with it, not at start-up
    from rich.console import Console
    from rich.table import Table

    from cardscore.breakdown import Breakdown

__all__ = [
    "ask",
    "breakdown_table",
    "console",
    "counting_bar",
    "echo_json",
    "json_default",
    "json_option",
    "photo_options",
    "print_breakdowns",
    "vision_reader",
]

F = TypeVar("F", bound=Callable[..., Any])


def json_default(value: Any) -> Any:
    """Serialise cards as canonical codes (``Ah``, ``Th``) and enums as their values."""
    if isinstance(value, Card):
        return value.code
    if isinstance(value, Enum):
        return value.value
    if hasattr(value, "as_dict"):
        return value.as_dict()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def echo_json(data: Any) -> None:
    """Print ``data`` as JSON on stdout (UTF-8, cards as codes)."""
    click.echo(json.dumps(data, default=json_default, ensure_ascii=False, indent=2))


def json_option(function: F) -> F:
    """The ``--json`` flag, identical on every command."""
    return click.option(
        "--json", "as_json", is_flag=True, help="Print JSON for machines instead of text."
    )(function)


def photo_options(what: str) -> Callable[[F], F]:
    """``--photo PHOTO`` (reading ``what`` from a photo) and ``--deck PROFILE``, the same on every
    command that reads cards from a photo."""
    from pathlib import Path

    def decorate(function: F) -> F:
        deck = click.option(
            "--deck",
            "deck_path",
            type=click.Path(dir_okay=False, path_type=Path),
            help="With --photo: a deck profile (cardscore deck learn).",
        )
        photo = click.option(
            "--photo",
            type=click.Path(dir_okay=False, path_type=Path),
            help=f"Read {what} from a photo instead (vision extra).",
        )
        return photo(deck(function))

    return decorate


def vision_reader(name: str) -> Callable[..., Any]:
    """The photo-reading function ``name`` of :mod:`cardscore.vision.cli`, or a clear error when
    the vision extra is not installed."""
    try:
        from cardscore.vision import cli as vision_cli
    except ImportError as missing:
        from cardscore.errors import CardscoreError, Problem

        raise CardscoreError(Problem.of("photo_needs_vision", module=str(missing.name))) from None
    reader: Callable[..., Any] = getattr(vision_cli, name)
    return reader


def ask(text: str, default: str = "") -> str | None:
    """The player's answer to ``text``, or ``None`` when they quit: ``q``, ``quit``, or the end of
    input (Ctrl-D, a piped file run out). Ctrl-C still aborts."""
    try:
        answer: str = click.prompt(text, default=default, show_default=bool(default))
    except click.Abort as abort:
        if isinstance(abort.__context__, EOFError):
            click.echo()
            return None
        raise
    answer = answer.strip()
    return None if answer.lower() in ("q", "quit") else answer


def console() -> Console:
    """A rich console on stdout; plain text when stdout is not a terminal."""
    from rich.console import Console

    return Console(file=sys.stdout, highlight=False, soft_wrap=True)


@contextmanager
def counting_bar(what: str, err: Console) -> Iterator[Callable[[int, int], None]]:
    """A progress bar on ``err`` (a terminal) that counts ``what`` is done (done of total,
    and the time it has taken), gone when the block ends; yields the function that moves
    it, ``report(done, total)``."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn(what), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=err, transient=True) as bar:
        task = bar.add_task(what, total=None)

        def report(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield report


def print_breakdowns(named: Iterable[tuple[str, Breakdown]]) -> None:
    """Each side's name, then its breakdown as a table; a blank line between sides."""
    out = console()
    for number, (name, breakdown) in enumerate(named):
        if number:
            out.print()
        out.print(name, markup=False)
        out.print(breakdown_table(breakdown))


def breakdown_table(breakdown: Breakdown, title: str | None = None) -> Table:
    """A rich table of a score's terms and total."""
    from rich.table import Table

    table = Table(title=title, show_footer=True, box=None, pad_edge=False)
    table.add_column("term", footer="total")
    table.add_column("points", justify="right", footer=str(breakdown.total))
    table.add_column("why")
    for term in breakdown:
        table.add_row(term.name, str(term.points), term.text)
    return table
