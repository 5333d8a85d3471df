"""Package attributes imported on first use (PEP 562), so importing a package stays cheap.

A game package keeps its light names imported eagerly and lists the heavy ones here; the CLI
then imports only what the command being run uses.

>>> import cardscore.poker
>>> "Dealer" in dir(cardscore.poker), cardscore.poker.Dealer.__name__
(True, 'Dealer')
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(
    package: str, exports: dict[str, tuple[str, ...]]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package``: ``exports`` maps submodule → names."""
    where = {name: module for module, names in exports.items() for name in names}

    def __getattr__(name: str) -> Any:  # noqa: N807 (the module hook's own name)
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:  # noqa: N807
        return sorted({*vars(sys.modules[package]), *where})

    return __getattr__, __dir__
