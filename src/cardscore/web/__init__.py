"""The cardscore web app: keep a match from a phone, score games in a browser.

Install it with ``pip install 'cardscore[web]'`` and start it with ``cardscore serve``.
:func:`create_app` builds the FastAPI application (JSON API under ``/api``, pages at ``/``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["create_app"]

if TYPE_CHECKING:  # pragma: no cover
    from cardscore.web.app import create_app


def __getattr__(name: str) -> Any:
    # Importing the package must not need the web extra (the CLI checks for it first).
    if name == "create_app":
        from cardscore.web.app import create_app

        return create_app
    raise AttributeError(name)
