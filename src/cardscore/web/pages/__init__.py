"""Server-rendered pages (Jinja2) for phones and laptops; a little vanilla JS does the entry.

Forms that change something carry a CSRF token (double submit: a cookie and a hidden field that
must match, signed with the server's secret); the match page talks to the JSON API with the key
from its own URL. The start page and the match page are here; each game's own pages are the
router its registry entry names.
"""

from __future__ import annotations

from fastapi import APIRouter

from cardscore.web.pages import home, match
from cardscore.web.pages.render import error_page

__all__ = ["error_page", "router"]

router = APIRouter(include_in_schema=False)
for module in (home, match):
    router.include_router(module.router)
