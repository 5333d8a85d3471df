"""Tranca's terms as a player reads them: every term's detail, plurals, and the records."""

from __future__ import annotations

from typing import Any

import pytest

from cardscore.tranca.melds import Meld, meld_problems
from cardscore.tranca.round import parse_round
from cardscore.tranca.scoring import RoundScore, score_round

US = {
    "name": "Us",
    "melds": [
        ["4h", "5h", "6h", "7h", "8h", "9h", "2c"],
        ["4s", "5s", "6s", "7s", "8s", "9s"],
        ["5c", "6c", "7c", "8c", "9c", "2d"],
    ],
    "dollars": ["3h", "3d", "3h"],
    "hand": ["As", "2d", "9h", "3c", "7d"],
    "took_morto": False,
    "went_out": True,
}
ONE = {
    "name": "One",
    "melds": [["4d", "5d", "6d"]],
    "dollars": ["3d"],
    "took_morto": True,
    "went_out": False,
}
BARE = {"name": "Bare", "took_morto": True, "went_out": False}


def scored(*teams: dict[str, Any]) -> RoundScore:
    return score_round(parse_round({"players": 2 * len(teams), "teams": list(teams)}))


def terms(score: RoundScore, name: str) -> list[tuple[str, int, str]]:
    return [(t.name, t.points, t.text) for t in score[name].breakdown]


def test_the_seed_sample_term_by_term() -> None:
    # The seed's sample (worked by hand in the seed), term by term as a player reads it:
    assert terms(scored(US, BARE), "Us") == [
        ("table_cards", 135, "19 cards: 3 melds"),
        ("dirty_canastras", 100, "4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 2♣"),
        ("dollar_cards", 15, "3♥ 3♥ 3♦"),
        ("dollar_bonus", 300, "3 dollars × +100 with a canastra"),
        ("morto", -100, "never taken"),
        ("final_move", 100, "went out"),
        ("hand_cards", -40, "2♦ 7♦ 9♥ A♠"),
        ("trancas", -100, "3♣"),
    ]


def test_one_meld_one_dollar_no_canastra() -> None:
    assert terms(scored(ONE, BARE), "One") == [
        ("table_cards", 15, "3 cards: 1 meld"),
        ("dollar_cards", 5, "3♦"),
        ("dollar_bonus", -100, "1 dollar × −100 without a canastra"),
        ("morto", 0, "taken"),
        ("final_move", 0, ""),
        ("hand_cards", 0, ""),
        ("trancas", 0, ""),
    ]


def test_an_empty_side() -> None:
    assert terms(scored(ONE, BARE), "Bare") == [
        ("table_cards", 0, ""),
        ("dollar_cards", 0, ""),
        ("dollar_bonus", 0, ""),
        ("morto", 0, "taken"),
        ("final_move", 0, ""),
        ("hand_cards", 0, ""),
        ("trancas", 0, ""),
    ]


def test_round_score_records() -> None:
    score = scored(ONE, BARE)
    assert score.totals == {"One": -80, "Bare": 0}
    with pytest.raises(KeyError) as missing:
        score["Nobody"]
    assert missing.value.args == ("Nobody",)
    assert score._repr_html_() == score["One"]._repr_html_() + score["Bare"]._repr_html_()
    assert score._repr_html_().startswith("<h4>One</h4>")


def test_meld_problems_list_what_is_missing() -> None:
    assert meld_problems("7h 9h Th Kh") == (
        "7♥ 9♥ 10♥ K♥ is no sequence: it lacks 8♥, J♥ and Q♥, and no 2 fills them",
    )
    assert meld_problems("4h 5s") == ("4♥ 5♠ has 2 cards; a meld needs at least 3",)


def test_meld_records() -> None:
    meld = Meld("4h 5h 6h")
    assert str(meld.extend("7h")) == "4♥ 5♥ 6♥ 7♥"
    assert meld._repr_html_().count("<span") == 3
    assert meld._repr_html_().count("</span> <span") == 2


def test_extending_a_meld_follows_the_rules_given() -> None:
    from cardscore.errors import CardscoreError
    from cardscore.tranca.rules import TrancaRules

    sevens = Meld("7h 7d 7c")
    assert str(sevens.extend("7s")) == "7♠ 7♥ 7♦ 7♣"
    with pytest.raises(CardscoreError):
        sevens.extend("7s", rules=TrancaRules(edges_only=True))


def test_table_detail_counts_melds_and_piles() -> None:
    a = {
        "name": "A",
        "melds": [["4d", "5d", "6d"], ["8s", "9s", "Ts"]],
        "piles": [{"pile": "K"}],
        "dollars": ["3d", "3h"],
        "took_morto": True,
        "went_out": False,
    }
    b = {
        "name": "B",
        "melds": [["4c", "5c", "6c"]],
        "piles": [{"pile": "A", "clean": False}, {"pile": "Q"}],
        "took_morto": True,
        "went_out": False,
    }
    score = scored(a, b)
    # 4-5-6♦ 15 + 8-9-10♠ 30 + seven kings 70; 4-5-6♣ 15 + six aces and a 2 100 + seven queens 70
    assert terms(score, "A")[:4] == [
        ("table_cards", 115, "13 cards: 2 melds, 1 pile"),
        ("clean_canastras", 200, "pile of 7 K (clean)"),
        ("dollar_cards", 10, "3♥ 3♦"),
        ("dollar_bonus", 200, "2 dollars × +100 with a canastra"),
    ]
    assert terms(score, "B")[:3] == [
        ("table_cards", 185, "17 cards: 1 meld, 2 piles"),
        ("dirty_canastras", 100, "pile of 7 A (dirty: 6 A and a 2)"),
        ("clean_canastras", 200, "pile of 7 Q (clean)"),
    ]


@pytest.mark.parametrize(
    ("cards", "problem"),
    [
        ("", "it has 0 cards; a meld needs at least 3"),
        (
            "2c 2d 5h 6h",
            "2♣ 2♦ 5♥ 6♥ has 2 2s (2♦ 2♣): a meld takes at most one 2 as joker"
            " (unless it is made only of 2s)",
        ),
        (  # one natural card and two 2s: a set's rank is read from its only natural card
            "Kh 2c 2d",
            "K♥ 2♣ 2♦ has 2 2s (2♦ 2♣): a meld takes at most one 2 as joker"
            " (unless it is made only of 2s)",
        ),
        (
            "5h 6d 7h",
            "5♥ 6♦ 7♥ is neither a set (one rank) nor a sequence (one suit): it mixes ♥ and ♦",
        ),
        (
            "5h 5h 6h 7h",
            "5♥ 5♥ 6♥ 7♥ is no sequence: 5♥ appears twice (a sequence holds each rank once)",
        ),
        (
            "4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah 2c",
            "4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥ 2♣: the 2 has no place, the sequence already"
            " runs from 4 to A (3s never go in melds, the ace is only high)",
        ),
        # An ace above a low run reads as a try at an ace-low sequence, and is told so; above
        # an 8 it is a plain gap.
        (
            "7h 8h Ah",
            "7♥ 8♥ A♥ is no sequence: it lacks 9♥, 10♥, J♥, Q♥ and K♥, and no 2 fills them"
            " (the ace ranks only above the king)",
        ),
        ("8h 9h Ah", "8♥ 9♥ A♥ is no sequence: it lacks 10♥, J♥, Q♥ and K♥, and no 2 fills them"),
    ],
)
def test_every_meld_problem_reads_whole(cards: str, problem: str) -> None:
    assert [str(p) for p in meld_problems(cards)] == [problem]


def test_the_edges_only_house_rule_names_the_edges() -> None:
    from cardscore.tranca.rules import TrancaRules

    assert [str(p) for p in meld_problems("7h 7d 7c", TrancaRules(edges_only=True))] == [
        "7♥ 7♦ 7♣ is a set of 7s, but the house rule 'edges only' allows sets of 4, 5, K, A only"
    ]


def test_melds_are_laid_in_order() -> None:
    assert str(Meld("2c 2h 2s")) == "2♠ 2♥ 2♣"
    assert str(Meld("Kh Kd 2c Ks")) == "K♠ K♥ K♦ 2♣"
    assert str(Meld("9h 7h 8h 2c")) == "7♥ 8♥ 9♥ 2♣"
