"""The pages' forms checked by the API's own request models, with messages in the page's language.

A form's fields are text; the API's models (:mod:`cardscore.web.api.schemas`) are strict JSON.
The form's values go through the same model in lax mode (so ``"3500"`` reads as 3500), and
every error is said in the user's language, naming the field as the form labels it:

>>> from cardscore.web.api.schemas import GongzhuMatchIn
>>> checked(GongzhuMatchIn, {"game": "gongzhu", "players": ["A", "B", "C", "D"], "limit": "abc"},
...         "pt-BR")
(None, ['Limite de derrota: "abc" não é um número inteiro'])
>>> checked(GongzhuMatchIn, {"game": "gongzhu", "players": ["A", "B", "C", "D"], "limit": "0"},
...         "en")
(None, ['Losing limit: must be at most -1, not 0'])
>>> model, problems = checked(GongzhuMatchIn, {"game": "gongzhu", "players": list("ABCD")}, "en")
>>> model.limit, problems
(-1000, [])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from fastapi import Request
from fastapi.responses import RedirectResponse
from pydantic import BaseModel, ValidationError

from cardscore.errors import CardscoreError
from cardscore.web.i18n import translator
from cardscore.web.i18n.text import validation_message
from cardscore.web.pages.render import games_of, language_of, store_of

__all__ = ["checked", "create_match"]

Model = TypeVar("Model", bound=BaseModel)

# A field's label on the form, by the model's location of it.
_FIELDS = {
    "target": "tranca.target",
    "limit": "gongzhu.limit",
    "level": "crosskings.level",
    "players": "tranca.players",
}


def _label(loc: tuple[Any, ...], t: Callable[..., str]) -> str:
    match loc:
        case ("teams", int(team), "name"):
            return f"{t('tranca.team')} {team + 1} · {t('tranca.team_name')}"
        case ("teams", int(team), "players", int(player)):
            return f"{t('tranca.team')} {team + 1} · {t('tranca.player')} {player + 1}"
        case ("players", int(player)):
            return f"{t('tranca.player')} {player + 1}"
        case (str(field),) if field in _FIELDS:
            return t(_FIELDS[field])
    return ".".join(str(part) for part in loc)


def checked(
    model: type[Model], data: Mapping[str, Any], language: str
) -> tuple[Model | None, list[str]]:
    """``data`` checked by ``model`` as the API checks it: the model, or every problem."""
    try:
        return model.model_validate(data, strict=False), []
    except ValidationError as error:
        t = translator(language)
        return None, [
            f"{_label(tuple(e['loc']), t)}: {validation_message(e, language)}"
            for e in error.errors(include_url=False)
        ]


def create_match(request: Request, data: Mapping[str, Any]) -> RedirectResponse | list[str]:
    """A new match from a page's form, checked by its game's own request model (the registry's
    ``match_in``, as ``POST /api/matches`` checks it): a redirect to its page, or every problem."""
    game = data["game"]
    model_type = next(g.match_in for g in games_of(request) if g.name == game)
    model, problems = checked(model_type, data, language_of(request))
    if model is None:
        return problems
    try:
        created = store_of(request).create(game, model.model_dump())
    except CardscoreError as error:
        return list(error.problems)
    return RedirectResponse(f"/m/{created.id}/{created.edit_key}", status_code=303)
