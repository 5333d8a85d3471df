"""What the pages show besides the catalogue's fixed text: numbers by locale, the library's
reasons for each term of a score, poker hand names.

Numbers as each language writes them:

>>> number(2200, "pt-BR"), number(-1000, "en"), signed(1200, "pt-BR"), signed(0, "en")
('2.200', '-1,000', '+1.200', '0')
>>> percent(0.44681, "pt-BR"), percent(0.44681, "en"), percent(0.5, "pt-BR", 1)
('44,68%', '44.68%', '50,0%')

A score's reasons, which the library writes in English, read in the page's language (a reason
of card codes alone, or one not known here, is left as it is):

>>> detail("pile of 7 A (clean)", "pt-BR"), detail("never taken", "pt-BR")
('monte de 7 A (limpo)', 'nunca pegou')
>>> detail("14 cards: 1 meld, 1 pile", "pt-BR"), detail("3♥ 3♦", "pt-BR")
('14 cartas: 1 jogo, 1 monte', '3♥ 3♦')
>>> detail("never taken", "en")
'never taken'

Poker hands by class number (1 = royal flush … 7,462):

>>> hand_name(187, "pt-BR"), hand_name(187, "en")
('Full house, reis com cincos', 'Full house, kings over fives')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from cardscore.web.i18n import translator

__all__ = [
    "category_name",
    "detail",
    "formatters",
    "hand_name",
    "number",
    "percent",
    "signed",
    "with_details",
]


def _separators(language: str) -> tuple[str, str]:
    """(thousands, decimal) as the language writes them."""
    return (".", ",") if language == "pt-BR" else (",", ".")


def _swap(text: str, language: str) -> str:
    thousands, decimal = _separators(language)
    return text.translate({ord(","): thousands, ord("."): decimal})


def number(value: int | float, language: str) -> str:
    """A whole number with the language's thousands separator."""
    return _swap(f"{value:,}", language)


def signed(value: int, language: str) -> str:
    """Points won or lost: ``+1,200``, ``-45``, ``0``."""
    return ("+" if value > 0 else "") + number(value, language)


def percent(fraction: float, language: str, digits: int = 2) -> str:
    """A share as a percentage with ``digits`` decimals."""
    return _swap(f"{fraction * 100:,.{digits}f}", language) + "%"


# The library's reasons (cardscore.tranca.scoring, .piles, cardscore.gongzhu.scoring), each a
# pattern and the catalogue key that says it again; the groups are the key's {a}, {b}, {c}.
_DETAILS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), key)
    for pattern, key in (
        (r"(\d+) cards?: (.+)", "detail.table"),
        (r"pile of (\d+) 2s", "detail.pile_twos"),
        (r"pile of (\d+) (\S+) \(clean\)", "detail.pile_clean"),
        (r"pile of (\d+) (\S+) \(dirty: (\d+) \S+ and a 2\)", "detail.pile_dirty"),
        (r"(\d+) dollars? × \+100 with a canastra", "detail.dollar_bonus"),
        (r"(\d+) dollars? × −100 without a canastra", "detail.dollar_penalty"),
        (r"taken", "detail.taken"),
        (r"never taken", "detail.never_taken"),
        (r"went out", "detail.went_out"),
        (r"all 13 hearts count \+200 instead of -200", "detail.all_hearts"),
        (r"Q♠ counts \+100 with all hearts and J♦", "detail.pig_with_goat"),
        (r"Q♠ counts \+100 with all hearts \(house rule\)", "detail.pig_house_rule"),
        (r"10♣ doubles the other points", "detail.doubler"),
        (r"10♣ alone is worth \+50", "detail.doubler_alone"),
    )
)
_PARTS = re.compile(r"(\d+) (meld|pile)s?")


def detail(text: str, language: str) -> str:
    """A term's reason in ``language`` (English and unknown reasons as they are)."""
    if language == "en" or not text:
        return text
    t = translator(language)
    for pattern, key in _DETAILS:
        found = pattern.fullmatch(text)
        if found is None:
            continue
        groups = list(found.groups())
        if key == "detail.table":
            groups[1] = ", ".join(
                t(f"detail.{kind}_{'one' if n == '1' else 'many'}", n=n)
                for n, kind in _PARTS.findall(groups[1])
            )
        return t(key, **dict(zip("abc", groups, strict=False)))
    return text


# The web app's own problems (cardscore.web: store, routes, security, game adapters) and the
# HTTP phrases a browser may meet, each a pattern and its catalogue key; groups as above.
_PROBLEMS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.DOTALL), key)
    for pattern, key in (
        (r"(?:round|hand|move|pile) (\d+)(?: ('[^']*'))?: (.+)", "problem.at"),
        (
            r"match ('[^']*') changed since you loaded it \(you sent version (\d+), it is now "
            r"(\w+)\): reload it and enter the round again",
            "problem.conflict",
        ),
        (r"there is no match ('[^']*')", "problem.no_match"),
        (r"match ('[^']*') has no round (\d+)", "problem.no_round"),
        (r"there is no round to undo", "problem.nothing_to_undo"),
        (r"this key does not open match ('[^']*')", "problem.bad_key"),
        (
            r"the share link only reads this match; use the edit link to change it",
            "problem.read_only",
        ),
        (
            r"the form's security token is missing or stale: reload the page and try again",
            "problem.csrf",
        ),
        (r"unknown game ('[^']*')", "problem.unknown_game"),
        (r"game ('[^']*') is not installed on this server", "problem.unknown_game"),
        (r"the photo is larger than ([\d,]+) bytes", "problem.photo_large"),
        (r"the photo is empty", "problem.photo_empty"),
        (r"the upload is not a JPEG, PNG, WebP or HEIC image", "problem.not_image"),
        (r"the image has more than ([\d,]+) pixels", "problem.too_many_pixels"),
        (
            r"the image is (\d+)×(\d+) = [\d,]+ pixels; the limit is ([\d,]+)",
            "problem.image_too_big",
        ),
        (r"the (\w+) image cannot be read: .*", "problem.unreadable_image"),
        (r"the game is over", "problem.game_over"),
        (r"a hand has 'piles': a list of four piles, one per player", "problem.four_piles"),
        (r"an unexpected error happened; it has been logged", "problem.unexpected"),
        (r"the body is not valid JSON: (.+)", "problem.not_json"),
        (
            r"(Not Found|Method Not Allowed|Unauthorized|Forbidden|Conflict|Payload Too Large|"
            r"Content Too Large|Too Many Requests|Service Unavailable|Bad Request|"
            r"Unprocessable (?:Entity|Content)|Internal Server Error)",
            "problem.http",
        ),
    )
)


def problem_text(problem: str, language: str) -> str:
    """A problem's message in ``language``: the library's by its code (when it carries one),
    the web app's own by its wording; any other is left as it is.
    """
    if language == "en":
        return str(problem)
    # A coded problem with its parameters is the library's to say; a plain one (a message
    # given as text, coded only by its error's class) is read by its wording below.
    if getattr(problem, "params", None):
        translated = _library_translation(problem, language)
        if translated is not None:
            return translated
    t = translator(language)
    for pattern, key in _PROBLEMS:
        found = pattern.fullmatch(str(problem))
        if found is None:
            continue
        a, b, c = [*found.groups(), None, None, None][:3]
        if key == "problem.at":
            kind = str(problem).split(" ", 1)[0]
            where = t(f"problem.where_{kind}", n=a) + (f" {b}" if b else "")
            return f"{where}: {problem_text(c or '', language)}"
        if key == "problem.http":
            return t(f"http.{(a or '').lower().replace(' ', '_')}")
        numbers = [
            _swap(g, language) if g and g.replace(",", "").isdigit() else g for g in (a, b, c)
        ]
        return t(key, **dict(zip("abc", numbers, strict=True)))
    return str(problem)


def _library_translation(problem: str, language: str) -> str | None:
    """A coded problem said by the library's catalogue (:func:`cardscore.errors.translate`),
    its places ("team 'Ana', meld 2") in ``language`` too."""
    try:
        from cardscore.errors import Problem, catalogue, translate
    except ImportError:  # a library without problem codes
        return None
    if not isinstance(problem, Problem):
        return None
    params = {
        k: places(v, language) if isinstance(v, str) else v for k, v in problem.params.items()
    }
    template = catalogue(language).get(problem.code, "")
    if "{where}" in template and "|" not in template:
        # A template that places the problem itself (translate() reads "where" as a prefix).
        return template.format(**params)
    return translate(Problem(str(problem), problem.code, params), language)


_PLACE = re.compile(r"\b(discard pile|team|round|pile|meld|dollars|hand|move|and|player)\b")
_QUOTED = re.compile(r"('[^']*'|\"[^\"]*\")")


def places(text: str, language: str) -> str:
    """Where a problem lies, in ``language``; what is quoted (a name, a card) stays as it is.

    >>> places("team 'Ana and Bo', meld 2", "pt-BR"), places("team 'A' and team 'B'", "pt-BR")
    ("dupla 'Ana and Bo', jogo 2", "dupla 'A' e dupla 'B'")
    >>> places("discard pile (4.4)", "pt-BR")
    'lixo (4.4)'
    """
    if language == "en":
        return text
    t = translator(language)
    return "".join(
        part if i % 2 else _PLACE.sub(lambda m: t(f"place.{m.group(1).replace(' ', '_')}"), part)
        for i, part in enumerate(_QUOTED.split(text))
    )


def category_name(category: str, language: str) -> str:
    """A poker category (``'full house'``) as the language names it."""
    return translator(language)(f"poker.category.{category}")


def _names(t: Callable[..., str], which: str) -> list[str]:
    return t(f"poker.ranks_{which}").split("|")


def hand_name(rank: int, language: str) -> str:
    """A poker hand class described in ``language``: ``'Full house, kings over fives'``."""
    from cardscore.cards import RANKS
    from cardscore.poker.evaluate import HandRank

    hand = HandRank(rank)
    if language == "en":
        return hand.description
    t = translator(language)
    one, many = _names(t, "one"), _names(t, "many")
    r = hand.ranks

    def labels(ranks: tuple[int, ...]) -> str:
        return "-".join(RANKS[i].label for i in ranks)

    values = {
        "royal flush": {},
        "straight flush": {"a": one[r[0]]},
        "four of a kind": {"a": many[r[0]], "b": one[r[4]]},
        "full house": {"a": many[r[0]], "b": many[r[3]]},
        "flush": {"a": labels(r)},
        "straight": {"a": one[r[0]]},
        "three of a kind": {"a": many[r[0]], "b": labels(r[3:])},
        "two pair": {"a": many[r[0]], "b": many[r[2]], "c": one[r[4]]},
        "pair": {"a": many[r[0]], "b": labels(r[2:])},
        "high card": {"a": labels(r)},
    }[hand.category.value]
    return t(f"poker.hand.{hand.category.value}", **values)


def with_details(scored: dict[str, Any], language: str) -> dict[str, Any]:
    """A scored round (``breakdowns`` of ``terms``) with every reason in ``language``."""
    if language == "en":
        return scored
    breakdowns = [
        {
            **b,
            "terms": [{**term, "detail": detail(term["detail"], language)} for term in b["terms"]],
        }
        for b in scored.get("breakdowns", [])
    ]
    return {**scored, "breakdowns": breakdowns}


def validation_message(error: Mapping[str, Any], language: str) -> str:
    """What a request model's (Pydantic's) error says, in ``language``."""
    t = translator(language)
    kind, ctx, given = error["type"], error.get("ctx") or {}, error.get("input")
    shown = f'"{given}"' if isinstance(given, str) else repr(given)
    if kind in ("int_parsing", "int_type", "int_from_float"):
        return t("form.not_whole", value=shown)
    if kind == "string_too_long":
        return t("form.too_long", most=ctx["max_length"], length=len(str(given)))
    if kind == "string_too_short":
        return t("form.empty")
    if kind in ("greater_than_equal", "less_than_equal"):
        bound = int(ctx.get("ge", ctx.get("le", 0)))
        if str(given).lstrip("-").isdigit():
            shown = number(int(str(given)), language)
        return t(f"form.{kind}", bound=number(bound, language), value=shown)
    if kind == "literal_error":
        return t("form.one_of", expected=ctx.get("expected", ""), value=shown)
    if kind == "missing":
        return t("form.missing")
    return str(error.get("msg", kind))


def formatters(language: str) -> dict[str, Callable[..., str]]:
    """The helpers a page's template calls, bound to its language."""
    return {
        "num": lambda value: number(value, language),
        "signed": lambda value: signed(value, language),
        "pct": lambda fraction, digits=2: percent(fraction, language, digits),
        "detail": lambda text: detail(text, language),
        "hand_name": lambda rank: hand_name(rank, language),
        "category_name": lambda category: category_name(category, language),
        "problem": lambda text: problem_text(text, language),
    }
