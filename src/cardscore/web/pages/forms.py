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

from pydantic import BaseModel, ValidationError

from cardscore.web.i18n import translator
from cardscore.web.i18n.text import validation_message

__all__ = ["checked"]

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
