"""The ``cardscore`` command line: one sub-command group per registered game.

Bad input exits with status 2 and one ``cardscore: error: …`` line per problem on stderr,
nothing on stdout; with ``--json``, stderr gets ``{"problems": [{"code", "params", "message"}]}``
instead, the elements the web API's problem bodies carry.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

import click

from cardscore._version import __version__
from cardscore.cli.output import echo_json, json_option
from cardscore.errors import CardscoreError, Problem
from cardscore.registry import Game, games, get_game

__all__ = ["cli", "main"]


_LAZY_COMMANDS = {
    "deck": (
        "cardscore.vision.cli:deck_group",
        "Teach cardscore a table's deck: learn a profile, then read with --deck.",
    ),
    "recognize": (
        "cardscore.vision.cli:recognize_command",
        "Read the cards, melds, piles and dollars on a table from PHOTO.",
    ),
    "serve": ("cardscore.web.cli:serve", "Start the web app and print its address."),
}
"""Top-level commands in optional extras: where each lives, and its help for the listing."""


def _write_commands(formatter: click.HelpFormatter, rows: list[tuple[str, str]]) -> None:
    """The ``Commands:`` section as click writes it, from help text already at hand."""
    if not rows:
        return
    limit = formatter.width - 6 - max(len(name) for name, _ in rows)
    with formatter.section("Commands"):
        formatter.write_dl(
            [
                (name, click.Command(name, help=text).get_short_help_str(limit))
                for name, text in rows
            ]
        )


class _LazyGameGroup(click.Group):
    """A game's command group as the registry declares it.

    Its help and command list come from the registry, so ``cardscore poker --help`` imports
    no game code; the game's CLI module is imported when one of its commands is called.
    """

    def __init__(self, game: Game) -> None:
        super().__init__(game.name, help=game.help)
        self.game = game

    def _loaded(self) -> click.Group:
        group: click.Group = self.game.load_cli()
        return group

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(name for name, _ in self.game.commands)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in dict(self.game.commands):
            return None
        return self._loaded().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        _write_commands(formatter, sorted(self.game.commands))


class _GameGroup(click.Group):
    """Adds each registered game's command group lazily, so start-up stays fast."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        names = [*super().list_commands(ctx), *(g.name for g in games())]
        return sorted([*names, *_LAZY_COMMANDS])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            return command
        if cmd_name in _VISION:
            return _vision_command(cmd_name)
        if cmd_name == "serve":  # imported lazily: it is the only command that needs the web extra
            from cardscore.web.cli import serve

            return serve
        try:
            game = get_game(cmd_name)
        except LookupError:
            return None
        if not (game.help and game.commands):  # a game that declares no CLI text: load it
            loaded: click.Command = game.load_cli()
            return loaded
        return _LazyGameGroup(game)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Listed from the registry's and this module's text: no command is imported."""
        rows = {name: command.help or "" for name, command in self.commands.items()}
        rows |= {name: text for name, (_, text) in _LAZY_COMMANDS.items()}
        rows |= {game.name: game.help or game.summary for game in games()}
        _write_commands(formatter, sorted(rows.items()))


@click.group(cls=_GameGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="cardscore")
def cli() -> None:
    """Settle card games: score rounds, hands and matches, with the reasoning behind every point."""


@cli.command("games")
@json_option
def games_command(as_json: bool) -> None:
    """List the games cardscore knows."""
    available = games()
    if as_json:
        echo_json(
            [
                {
                    "name": g.name,
                    "title": g.title,
                    "players": list(g.players),
                    "actions": list(g.actions),
                }
                for g in available
            ]
        )
        return
    width = max(len(g.name) for g in available)
    for game in available:
        click.echo(f"{game.name:<{width}}  {game.title} — {game.summary}")


# Commands of the optional vision package, by name: their help without the extra.
_VISION = {
    "recognize": "Read the cards on a table photo",
    "deck": "Teach cardscore a table's deck",
}


def _vision_command(name: str) -> click.Command:
    """``recognize`` and ``deck`` live in the optional vision package: imported when asked for."""
    try:
        from cardscore.vision.cli import deck_group, recognize_command
    except ImportError as missing:
        reason = f"{missing.name or missing}"

        @click.command(
            name,
            context_settings={"ignore_unknown_options": True},
            help=(f"{_VISION[name]} (needs: pip install 'cardscore[vision]')."),
        )
        @click.argument("args", nargs=-1, type=click.UNPROCESSED)
        def unavailable(args: tuple[str, ...]) -> None:
            raise CardscoreError(Problem.of("recognition_needs_vision", module=reason))

        return unavailable
    return recognize_command if name == "recognize" else deck_group


def _error(message: str) -> None:
    click.echo(f"cardscore: error: {message}", err=True)


def _report(problems: Sequence[Problem], as_json: bool) -> int:
    """Write every problem to stderr (one line each, or one JSON object); exit status 2."""
    if as_json:
        click.echo(
            json.dumps({"problems": [p.as_dict() for p in problems]}, ensure_ascii=False), err=True
        )
    else:
        for problem in problems:
            _error(problem)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (0 ok, 2 bad input)."""
    args = list(argv) if argv is not None else sys.argv[1:]
    as_json = "--json" in args
    try:
        result: Any = cli.main(args=args, prog_name="cardscore", standalone_mode=False)
    except CardscoreError as error:
        return _report(error.problems, as_json)
    except click.exceptions.NoArgsIsHelpError as error:
        click.echo(error.ctx.get_help() if error.ctx is not None else "")
        return 0
    except click.UsageError as error:
        hint = f" (see '{error.ctx.command_path} --help')" if error.ctx is not None else ""
        message = error.format_message().replace("\n", " ") + hint
        return _report([Problem(message, "usage")], as_json)
    except click.ClickException as error:  # a file click could not open, say: bad input too
        return _report([Problem(error.format_message().replace("\n", " "), "usage")], as_json)
    except click.Abort:
        _error("aborted")
        return 130
    except BrokenPipeError:
        return 0
    return result if isinstance(result, int) else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
