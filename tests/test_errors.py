"""The error contract: every problem has a stable code, its params, and a message in each locale."""

from __future__ import annotations

import pickle
import random
import re
import string
from collections.abc import Callable
from pathlib import Path

import pytest

import cardscore
from cardscore.cards import parse_cards
from cardscore.errors import (
    CardscoreError,
    IllegalMoveError,
    ImpossibleTableError,
    Problem,
    catalogue,
    translate,
)
from cardscore.tranca.actions import Action, ActionKind, parse_action
from cardscore.tranca.game import PlayRules, TrancaState
from cardscore.tranca.melds import InvalidMeldError
from cardscore.tranca.round import InvalidRoundError

SRC = Path(cardscore.__file__).parent
LOCALES = ("en", "pt-BR")


def _fields(template: str) -> set[str]:
    return {re.split(r"[.\[!:]", f)[0] for _, f, _, _ in string.Formatter().parse(template) if f}


def _codes_in_source() -> set[str]:
    """Every literal code given to ``Problem.of`` in the library (f-string codes listed apart)."""
    found: set[str] = set()
    for path in SRC.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        found |= set(re.findall(r'Problem\.of\(\s*"([a-z_]+)"', text))
    return found


def _error_classes() -> list[type[CardscoreError]]:
    pending, seen = [CardscoreError], []
    while pending:
        cls = pending.pop()
        seen.append(cls)
        pending.extend(cls.__subclasses__())
    return seen


def test_both_catalogues_say_the_same_codes_with_the_same_params() -> None:
    english, portuguese = catalogue("en"), catalogue("pt-BR")
    assert set(english) == set(portuguese)
    for code, template in english.items():
        assert _fields(portuguese[code]) <= _fields(template) | {"message"}, code
        assert portuguese[code] != template or template == "{message}", code


def test_every_code_the_library_uses_is_in_the_catalogues() -> None:
    used = _codes_in_source() | {
        f"{key}_missing" for key in ("took_morto", "went_out")
    }  # round.py builds these two from the key's name
    used |= {f"{w}_{kind}" for w in ("bet", "raise") for kind in ("fixed", "range")}
    used |= {f"sequence_gap{two}{ace}" for two in ("", "_two") for ace in ("", "_ace")}
    missing = used - set(catalogue("en"))
    assert not missing
    # an error class's own code is the default for plain-text problems
    assert {cls.code for cls in _error_classes()} <= set(catalogue("en"))
    assert {InvalidMeldError.code, InvalidRoundError.code} == {"invalid_meld", "invalid_round"}


def test_a_problem_is_its_message_with_a_code_and_params() -> None:
    problem = Problem.of("card_in_two_piles", card="Q♠", piles="1, 2")
    assert problem == "Q♠ is in piles 1 and 2; one deck holds only one"
    assert isinstance(problem, str)
    assert problem.as_dict() == {
        "code": "card_in_two_piles",
        "params": {"card": "Q♠", "piles": "1, 2"},
        "message": "Q♠ is in piles 1 and 2; one deck holds only one",
    }
    copy = pickle.loads(pickle.dumps(ImpossibleTableError([problem])))
    assert copy.problems[0].code == "card_in_two_piles"
    assert copy.problems[0].params == problem.params


def test_plain_strings_get_their_error_class_code() -> None:
    error = IllegalMoveError(["not now", Problem.of("no_hand_to_undo")])
    assert [p.code for p in error.problems] == ["illegal_move", "no_hand_to_undo"]
    assert InvalidRoundError("odd").problems[0].code == "invalid_round"
    assert translate(error.problems[0], "pt-BR") == "jogada proibida: not now"
    with pytest.raises(TypeError):
        CardscoreError([])


def test_translation_keeps_the_place_and_falls_back() -> None:
    problem = Problem.of("meld_too_short", cards="4♥ 5♥", n=2).at("team 'A', meld 1").at("round 2")
    assert problem == "round 2: team 'A', meld 1: 4♥ 5♥ has 2 cards; a meld needs at least 3"
    assert translate(problem, "pt-BR") == (
        "round 2: team 'A', meld 1: 4♥ 5♥ tem 2 cartas; um jogo precisa de pelo menos 3"
    )
    assert translate(problem, "en") == str(problem)
    assert translate(problem, "de") == str(problem)  # no German catalogue: English
    assert translate(Problem("odd", "no_such_code"), "pt-BR") == "odd"
    assert translate(Problem("odd", "pile_too_small"), "pt-BR") == "odd"  # params missing


@pytest.mark.parametrize(
    ("code", "params", "english", "portuguese"),
    [
        ("too_many_copies", {"card": "A♥", "n": 3, "decks": 1},
         "A♥ appears 3 times, but 1 deck holds only 1",
         "A♥ aparece 3 vezes, mas 1 baralho tem só 1"),
        ("many_went_out", {"teams": "A, B", "n": 2},
         "A and B both went out; at most one team goes out in a round",
         "A e B bateram; só uma dupla bate por rodada"),
        ("dirty_twos_pile", {},
         'pile 2 cannot be dirty: a canastra of 2s is its own kind (leave out "clean")',
         'um monte de 2 não pode ser sujo: a canastra de 2 é de um tipo próprio (não informe "clean")'),
    ],
)  # fmt: skip
def test_plurals_in_both_languages(
    code: str, params: dict[str, str | int], english: str, portuguese: str
) -> None:
    problem = Problem.of(code, **params)
    assert problem == english
    assert translate(problem, "pt-BR") == portuguese


# -- the Tranca play engine -------------------------------------------------------------------

_DEFAULT_CODES = {cls.code for cls in _error_classes()}


def _refusals() -> list[Problem]:
    """The problems of many refused engine actions: random tries along random rounds."""
    found: list[Problem] = []

    def attempt(act: Callable[[], object]) -> bool:
        try:
            act()
        except CardscoreError as error:
            found.extend(error.problems)
            return False
        return True

    rng = random.Random(25)
    for seed in range(6):
        game = TrancaState((2, 3, 4)[seed % 3], seed=seed)
        attempt(game.undo)
        while not game.is_over:
            hand = [c.code for c in game.hand(game.to_act)]
            other = rng.choice([c.code for c in game.hand((game.to_act + 1) % game.players)])
            a, b, c = rng.sample(hand, 3) if len(hand) >= 3 else (hand * 3)[:3]
            for move in (
                "draw", "take", f"take {a} {b}", f"take {a}", "take 1", "take 1 " + a,
                f"meld {a} {b} {c}", f"meld {a} {b}", f"meld {other} {a} {b}", f"add 1 {a}",
                f"add 9 {a}", f"discard {a} {b}", f"discard {other}", "meld", "bogus", "add x 4s",
                "",
            ):  # fmt: skip
                attempt(lambda g=game, m=move: g.verify(parse_action(m)))
            attempt(lambda g=game: g.add(0, []))
            two = parse_cards([a, b])
            attempt(lambda g=game, t=two: g.verify(Action(ActionKind.TAKE, t, meld=0)))
            attempt(lambda g=game, t=two: g.verify(Action(ActionKind.DISCARD, t)))
            game.play(rng.choice(game.legal_actions()))
        attempt(lambda g=game: g.play("draw"))
    attempt(lambda: PlayRules.from_dict({"edges": True, "edges_only": 1}))
    attempt(lambda: TrancaState(4, names=["Ana", "Ana"], first=7, deck=["Ah"]))
    attempt(lambda: TrancaState.from_dict({"game": "poker"}))
    attempt(lambda: TrancaState.from_dict({"game": "tranca", "version": 9}))
    attempt(lambda: TrancaState.from_dict({"game": "tranca", "version": 1}))
    saved = TrancaState(2, seed=1).as_dict()
    attempt(lambda: TrancaState.from_dict({**saved, "actions": [{"seat": 1, "move": "draw"}]}))
    attempt(lambda: TrancaState.from_dict({**saved, "actions": [{"seat": 0, "move": "take"}]}))
    attempt(lambda: TrancaState.from_dict({**saved, "actions": [7]}))
    return found


def _english_text(code: str) -> list[str]:
    """The literal runs of ``code``'s English template long enough to be words, not symbols."""
    runs = (text for text, _, _, _ in string.Formatter().parse(catalogue("en")[code]))
    words = (re.sub(r"\"[^\"]*\"", "", run).strip(" :;,(){}…") for run in runs)  # not JSON keys
    return [run for run in words if len(run) >= 6]


def test_every_engine_refusal_has_its_own_code_and_reads_in_portuguese() -> None:
    refusals = _refusals()
    codes = {p.code for p in refusals}
    assert {
        "round_over", "already_drew", "draw_first", "not_held", "no_such_meld", "pile_empty",
        "top_laid_at_once", "top_makes_no_meld", "top_fits_nothing", "discard_one",
        "take_meld_or_cards", "add_no_cards", "nothing_to_undo", "not_a_move", "empty_move",
        "not_a_meld_number", "unknown_house_rule", "house_rule_not_bool", "player_names",
        "bad_first_seat", "not_a_saved_game", "save_version", "save_key_missing",
        "save_action_seat", "save_action_shape", "meld_mixed",
    } <= codes  # fmt: skip
    assert not codes & _DEFAULT_CODES  # no plain-text problem left
    places = [catalogue("en")[c] for c in catalogue("en") if c.startswith("place_")]
    for problem in refusals:
        said = translate(problem, "pt-BR")
        assert said != problem, problem
        english = [run for run in _english_text(problem.code) if run in said]
        assert not english, (said, english)
        where = str(problem.params.get("where", ""))
        assert not [p for p in places if p in where.split(": ") and p in said], said


def test_an_engine_refusal_names_its_rule_in_both_languages() -> None:
    game = TrancaState(4, seed=1)
    with pytest.raises(IllegalMoveError) as refused:
        game.discard(game.hand(0)[0])
    (problem,) = refused.value.problems
    assert problem == "turn (6): Ana must first draw from the stock or take the pile"
    assert problem.as_dict() == {
        "code": "draw_first",
        "params": {"name": "Ana", "where": "turn (6)"},
        "message": "turn (6): Ana must first draw from the stock or take the pile",
    }
    assert (
        translate(problem, "pt-BR")
        == "vez (6): Ana precisa primeiro comprar do monte ou pegar o lixo"
    )
    moved = problem.at("action 1 ('discard 4s')")
    assert translate(moved, "pt-BR") == (
        "action 1 ('discard 4s'): vez (6): Ana precisa primeiro comprar do monte ou pegar o lixo"
    )


# The vision extra's errors too, whether or not its modules are imported here.
_ERRORS = "|".join(
    {cls.__name__ for cls in _error_classes()} | {"ImageError", "SpreadError", "DeckProfileError"}
)


def test_the_library_raises_no_plain_text_problem() -> None:
    """Outside the web app (its own issue), every raised problem is a coded ``Problem``."""
    raised = re.compile(rf"\b(?:{_ERRORS})\(\s*\[?\s*f?[\"']")
    plain = [
        f"{path.relative_to(SRC)}:{text[: m.start()].count(chr(10)) + 1}"
        for path in SRC.rglob("*.py")
        if "web" not in path.relative_to(SRC).parts and path.name != "errors.py"
        for text in [path.read_text(encoding="utf-8")]
        for m in raised.finditer(text)
    ]
    assert not plain
