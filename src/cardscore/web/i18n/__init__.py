"""Page text in English and Brazilian Portuguese, chosen from the browser and switchable.

>>> choose_language("pt-BR,pt;q=0.9,en;q=0.8")
'pt-BR'
>>> choose_language("de-DE,de;q=0.9"), choose_language("pt;q=0.5, en;q=0.9"), choose_language(None)
('en', 'en', 'en')
>>> translator("pt-BR")("undo"), translator("en")("term.new_thing")
('Desfazer', 'new thing')
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from cardscore.web.games import web_games

__all__ = ["JS_KEYS", "LANGUAGES", "choose_language", "messages", "translator"]

LANGUAGES = {"en": "English", "pt-BR": "Português (Brasil)"}
_FILES = {"en": "en.json", "pt-BR": "pt_BR.json"}
_HERE = Path(__file__).parent
JS_KEYS = (
    *("conflict_help", "undo_confirm", "remove", "remove_last", "clean", "meld", "melds"),
    *("closed_canastra", "closed_canastras", "dollars", "hand", "took_morto", "went_out"),
    *("nobody_went_out", "editing_round", "new_round", "who_went_out", "hand_of"),
    *("photo", "photo_reading", "photo_read", "photo_flagged", "photo_unavailable"),
    *("photo_jumbo", "photo_shaken"),
    *("photo_replacing", "photo_maybe", "photo_delete", "photo_cancel", "photo_card"),
    *("photo_preparing", "photo_sending", "saving", "checking", "undoing"),
    *("no_connection", "slow_connection", "http_error", "queued", "queued_behind"),
    *("pending_title", "pending_round", "pending_edit", "pending_waiting", "pending_conflict"),
    *("pending_refused", "pending_save_anyway", "pending_discard", "pending_discard_confirm"),
    *("tally.table_points", "tally.clean_canastras", "tally.dirty_canastras"),
    *("tally.twos_canastras", "tally.dollars", "tally.trancas", "tally.hand_points"),
    *("deck_none", "deck_learnt_one", "deck_learnt", "deck_learning", "deck_taught"),
    *("deck_forget_confirm", "deck_missed"),
)


def messages(language: str) -> dict[str, str]:
    """The page text in ``language``: the app's, then what each registered game brings."""
    return _messages(language, tuple(g.i18n for g in web_games() if g.i18n is not None))


@cache
def _messages(language: str, folders: tuple[Path, ...]) -> dict[str, str]:
    data: dict[str, str] = {}
    for folder in (_HERE, *folders):
        path = folder / _FILES[language]
        if path.is_file():
            data = {**json.loads(path.read_text(encoding="utf-8")), **data}
    return data


def _match(tag: str) -> str | None:
    tag = tag.strip().lower()
    if tag.startswith("pt"):
        return "pt-BR"
    if tag.startswith("en"):
        return "en"
    return None


def choose_language(accept_language: str | None, cookie: str | None = None) -> str:
    """The language a cookie set, else the best one the browser accepts, else English."""
    if cookie in LANGUAGES:
        assert cookie is not None
        return cookie
    ranked: list[tuple[float, int, str]] = []
    for position, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        language = _match(tag)
        if language and quality > 0:
            ranked.append((-quality, position, language))
    return min(ranked)[2] if ranked else "en"


def translator(language: str) -> Callable[..., str]:
    """``t(key, **values)``: the text for ``key`` in ``language`` (English if missing)."""
    table = messages(language)
    english = messages("en")

    def t(key: str, **values: Any) -> str:
        text = table.get(key) or english.get(key)
        if text is None:
            # Terms and statistics a game adds later read fine from their names meanwhile.
            text = key.partition(".")[2].replace("_", " ") if key[:5] in ("term.", "stat.") else key
        return text.format(**values) if values else text

    return t
