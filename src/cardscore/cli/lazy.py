"""A click group whose commands can live in modules imported only when they are called.

>>> import click
>>> @click.group(cls=LazyGroup, lazy={"games": "cardscore.cli:games_command"})
... def demo() -> None:
...     "A demo."
>>> demo.list_commands(click.Context(demo)), demo.get_command(click.Context(demo), "games").name
(['games'], 'games')
"""

from __future__ import annotations

import importlib
from typing import Any

import click

__all__ = ["LazyGroup"]


class LazyGroup(click.Group):
    """``lazy`` maps a command name to the ``module:attribute`` of its click command."""

    def __init__(self, *args: Any, lazy: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy and cmd_name not in self.commands:
            module, _, attribute = self.lazy[cmd_name].partition(":")
            command: click.Command = getattr(importlib.import_module(module), attribute)
            self.add_command(command, cmd_name)
        return super().get_command(ctx, cmd_name)
