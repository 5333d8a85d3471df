"""Start-up: the CLI imports only what the command being run needs (``python -X importtime``).

Times are measured by ``benchmarks/run.py cli``; these tests check the imports behind them.
"""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest

from cardscore.cli import _LAZY_COMMANDS, cli
from cardscore.registry import games

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
HEAVY = ("numpy", "cv2", "onnxruntime", "PIL", "fastapi", "sqlalchemy", "rich.progress")
GAMES = tuple(f"cardscore.{game.name}" for game in games())
_IMPORTED = re.compile(r"^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)\s*$", re.MULTILINE)
# -X importtime misses modules importlib.import_module loads (the CLI's lazy groups), so the
# run also reports sys.modules once the command is done.
_RUN = (
    "import sys; from cardscore.cli import main; code = main(sys.argv[1:]); "
    "print('\\nMODULES', *sorted(sys.modules), file=sys.stderr); sys.exit(code)"
)


def _run(command: list[str]) -> str:
    run = subprocess.run(command, capture_output=True, text=True, check=False, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stderr


def imported_by(*args: str) -> set[str]:
    """Every module ``cardscore ARGS`` imports."""
    report = _run([sys.executable, "-X", "importtime", "-c", _RUN, *args])
    listed = report.rpartition("\nMODULES ")[2].split()
    modules = set(_IMPORTED.findall(report)) | set(listed)
    assert "cardscore.cli" in modules  # the parse found the report
    return modules


def test_help_as_typed_imports_nothing_heavy() -> None:
    report = _run([sys.executable, "-X", "importtime", "-m", "cardscore", "--help"])
    modules = set(_IMPORTED.findall(report))
    assert "click" in modules
    tables = ("cardscore.poker", "cardscore.crosskings", "cardscore.tranca", "cardscore.vision")
    assert among(modules, ("numpy", "cv2", "onnxruntime", *tables)) == []


def among(modules: set[str], prefixes: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == p or m.startswith(p + ".") for p in prefixes))


@pytest.mark.parametrize("args", [["--help"], ["games"], *([g.name, "--help"] for g in games())])
def test_help_imports_no_game_code_and_nothing_heavy(args: list[str]) -> None:
    modules = imported_by(*args)
    assert among(modules, (*HEAVY, *GAMES, "rich")) == []


def test_each_command_imports_only_what_it_uses() -> None:
    rank = imported_by("poker", "rank", "As", "Ks", "Qs", "Js", "Ts", "--explain")
    assert among(rank, HEAVY) == []
    assert among(rank, ("cardscore.poker",)) == [
        "cardscore.poker",
        "cardscore.poker._c_eval",
        "cardscore.poker.cli",
        "cardscore.poker.evaluate",
        "cardscore.poker.tables",
    ]
    kings = imported_by("crosskings", "score", "AC", "AD", "2H")
    assert among(kings, (*HEAVY, "cardscore.poker", "cardscore.tranca", "cardscore.vision")) == []
    assert among(kings, ("cardscore.crosskings.analysis", "cardscore.crosskings.bots")) == []
    tranca = imported_by("tranca", "score", str(EXAMPLES / "tranca" / "round1.json"))
    assert among(tranca, (*HEAVY, "cardscore.poker", "cardscore.crosskings")) == []


def test_the_registry_lists_each_game_as_its_cli_declares_it() -> None:
    words = " ".join
    for game in games():
        group = game.load_cli()
        assert words(game.help.split()) == words((group.help or "").split())
        assert [name for name, _ in game.commands] == sorted(
            group.list_commands(click.Context(cli))
        )
        for name, text in game.commands:
            command = group.get_command(click.Context(cli), name)
            assert command is not None
            first = (command.help or "").split("\n\n")[0]
            assert words(text.split()) == words(first.split()), f"{game.name} {name}"


def test_lazy_top_level_commands_are_listed_with_their_own_help() -> None:
    ctx = click.Context(cli)
    for name, (target, text) in _LAZY_COMMANDS.items():
        module, _, attribute = target.partition(":")
        importlib.import_module(module)  # cardscore's own: never skipped
        command = cli.get_command(ctx, name)
        assert command is not None
        assert (command.help or "").split("\n\n")[0] == text
        assert command is getattr(sys.modules[module], attribute)


def test_crosskings_levels_agree_with_the_bots() -> None:
    from cardscore.crosskings import bots, cli

    assert list(cli.LEVELS) == sorted(bots.LEVELS)
