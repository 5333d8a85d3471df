"""What the scorers say, not only the totals: every term, its detail and the records' fields.

The totals are checked against the seeds elsewhere; these pin the explanation a player reads
(worked by hand from the rules: which cards score, what each king stands for, in what order).
"""

from __future__ import annotations

import pytest

from cardscore.cards import Card, parse_cards
from cardscore.crosskings.scoring import Hand, explain
from cardscore.errors import CardscoreError
from cardscore.gongzhu.rules import Rules
from cardscore.gongzhu.scoring import score_hand, score_pile

# --- Gong Zhu ----------------------------------------------------------------------------------

DOUBLES = "10♣ doubles the other points"


@pytest.mark.parametrize(
    ("cards", "rules", "terms", "pile"),
    [
        (
            "QS 5H 10C JD",
            Rules(),
            [
                ("hearts", -10, "5♥"),
                ("all_hearts", 0, ""),
                ("pig", -100, "Q♠"),
                ("goat", 100, "J♦"),
                ("doubler", -10, DOUBLES),
            ],
            "5PGD",
        ),
        (
            "TC 2H",
            Rules(),
            [
                ("hearts", 0, ""),
                ("all_hearts", 0, ""),
                ("pig", 0, ""),
                ("goat", 0, ""),
                ("doubler", 50, "10♣ alone is worth +50"),
            ],
            "2D",
        ),
        (
            "TC 2H",
            Rules(low_hearts_count_for_doubler=True),
            [
                ("hearts", 0, ""),
                ("all_hearts", 0, ""),
                ("pig", 0, ""),
                ("goat", 0, ""),
                ("doubler", 0, DOUBLES),
            ],
            "2D",
        ),
        (
            "AH 3C KH 2H JD QS",  # 3♣ carries no points: left out
            Rules(),
            [
                ("hearts", -90, "K♥ A♥"),
                ("all_hearts", 0, ""),
                ("pig", -100, "Q♠"),
                ("goat", 100, "J♦"),
                ("doubler", 0, ""),
            ],
            "2KAPG",
        ),
        (
            "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH QS JD",
            Rules(),
            [
                ("hearts", -200, "5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥"),
                ("all_hearts", 400, "all 13 hearts count +200 instead of -200"),
                ("pig", 100, "Q♠ counts +100 with all hearts and J♦"),
                ("goat", 100, "J♦"),
                ("doubler", 0, ""),
            ],
            "23456789TJQKAPG",
        ),
        (
            "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH QS",
            Rules(pig_plus_with_all_hearts=True),
            [
                ("hearts", -200, "5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥"),
                ("all_hearts", 400, "all 13 hearts count +200 instead of -200"),
                ("pig", 100, "Q♠ counts +100 with all hearts (house rule)"),
                ("goat", 0, ""),
                ("doubler", 0, ""),
            ],
            "23456789TJQKAP",
        ),
    ],
)
def test_gongzhu_terms_by_hand(
    cards: str, rules: Rules, terms: list[tuple[str, int, str]], pile: str
) -> None:
    result = score_pile(parse_cards(cards), rules)
    assert [(t.name, t.points, t.text) for t in result.breakdown] == terms
    assert result.total == sum(points for _, points, _ in terms)
    assert result.pile == pile
    record = result.as_dict()
    assert (record["total"], record["pile"]) == (result.total, pile)
    assert record["cards"] == [c.code for c in result.cards]
    assert [(x["term"], x["points"]) for x in record["terms"]] == [(n, p) for n, p, _ in terms]
    # The note is what the cards alone do not say: text (never null in the JSON).
    assert [x["note"] for x in record["terms"]] == [
        text.removeprefix(" ".join(str(c) for c in parse_cards(" ".join(x["cards"])))).strip()
        for x, (_, _, text) in zip(record["terms"], terms, strict=True)
    ]


def test_gongzhu_scoring_cards_are_kept_hearts_first() -> None:
    result = score_pile(parse_cards("QS TC AH JD 2H 3C"))
    assert [c.code for c in result.cards] == ["2h", "Ah", "Tc", "Jd", "Qs"]
    assert result._repr_html_() == result.breakdown._repr_html_()


def test_gongzhu_a_card_twice_is_an_error() -> None:
    with pytest.raises(CardscoreError, match="Q♠"):
        score_pile(parse_cards("QS QS"))


def test_gongzhu_hand_from_cards_and_strings() -> None:
    piles = score_hand([parse_cards("QS"), "G", "23456789TJQKA", "D"])
    assert [p.total for p in piles] == [-100, 100, 200, 50]
    with pytest.raises(CardscoreError) as error:
        score_hand(["PX", "G", "GZ", ""])
    assert [str(p)[:8] for p in error.value.problems] == ["pile 1: ", "pile 3: "]
    # 2♥ is worth 0: beside 10♣ it leaves the 10♣ alone (+50), unless the house rule counts it
    # (then the 10♣ doubles 0).
    piles = ["2D", "3456789TJQKA", "P", "G"]
    assert score_hand(piles)[0].total == 50
    assert score_hand(piles, Rules(low_hearts_count_for_doubler=True))[0].total == 0


# --- Cross Kings -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "kings", "terms"),
    [
        ("2S 3S 4S KH", {"Kh": "As"}, [("run", 4, "A♠ 2♠ 3♠ 4♠ (K♥ as A♠)")]),
        (
            "7H 8H KS KC 7S 7D",
            {"Ks": "5h", "Kc": "6h"},
            [("run", 3, "5♥ 6♥ 7♥ 8♥ (K♠ as 5♥, K♣ as 6♥)"), ("set", 3, "7♠ 7♥ 7♦")],
        ),
        ("4D 5D 6D 6C 6H", {}, [("run", 3, "4♦ 5♦ 6♦"), ("set", 3, "6♥ 6♦ 6♣")]),
        ("2C 3C 5C 6C 7C", {}, [("run", 3, "5♣ 6♣ 7♣")]),  # 2-3 is too short
        ("AS 2S 3S 4S 5S 6S 7S 8S", {}, [("run", 13, "A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠")]),
        ("", {}, [("runs_and_sets", 0, "no run or set of three or more")]),
    ],
)
def test_crosskings_terms_by_hand(
    cards: str, kings: dict[str, str], terms: list[tuple[str, int, str]]
) -> None:
    result = explain(parse_cards(cards))
    assert [(t.name, t.points, t.text) for t in result.breakdown] == terms
    assert {k.code: c.code for k, c in result.kings} == kings
    assert result.total == sum(points for _, points, _ in terms)
    record = result.as_dict()
    assert record["total"] == result.total
    assert record["cards"] == [c.code for c in result.cards]
    assert record["kings"] == kings
    assert [(x["term"], x["points"]) for x in record["terms"]] == [(k, p) for k, p, _ in terms]
    assert [x["note"] for x in record["terms"]] == [
        text.removeprefix(" ".join(str(c) for c in parse_cards(" ".join(x["cards"])))).strip()
        for x, (_, _, text) in zip(record["terms"], terms, strict=True)
    ]
    assert result._repr_html_() == result.breakdown._repr_html_()


def test_crosskings_cards_are_listed_in_deck_order() -> None:
    result = explain(parse_cards("7H 8H KS KC 7S 7D"))
    assert [c.code for c in result.cards] == ["7s", "Ks", "7h", "8h", "7d", "Kc"]


def test_crosskings_hand_record() -> None:
    hand = Hand(parse_cards("2S 3S 4S KH"))
    assert hand.score() == 4
    assert hand.explain() == explain(parse_cards("2S 3S 4S KH"))
    assert repr(hand) == "Hand(parse_cards('2s 3s 4s Kh'))"
    assert str(hand) == "2♠ 3♠ 4♠ K♥"
    assert list(hand) == list(parse_cards("2S 3S 4S KH"))
    assert Card("3s") in hand
    assert Card("3h") not in hand
    assert len(hand) == 4
    assert hand._repr_html_().endswith(" — <b>4</b> points</div>")
    assert hand._repr_html_().count("<span") == 4
    assert Hand()._repr_html_() == "<div>(no cards) — <b>0</b> points</div>"


def test_gongzhu_hand_problems_keep_their_cause_only_when_shared() -> None:
    with pytest.raises(CardscoreError) as error:
        score_hand(["P", "G", "D"])
    assert [str(p) for p in error.value.problems] == [
        "a hand has four piles, one per player, not 3"
    ]
    # A repeated card (impossible table) and a bad symbol (notation): the causes differ, so the
    # error is the common CardscoreError, naming both.
    with pytest.raises(CardscoreError) as error:
        score_hand(["PP", "X", "", ""])
    assert type(error.value) is CardscoreError
    assert len(error.value.problems) == 2


def test_crosskings_explain_checks_its_breakdown_against_the_solver(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cardscore.crosskings import scoring

    real = scoring._c_solver.score

    class OffByOne:
        @staticmethod
        def score(mask: int) -> tuple[int, int]:
            total, assigned = real(mask)
            return total + 1, assigned

    monkeypatch.setattr(scoring, "_c_solver", OffByOne)
    with pytest.raises(AssertionError, match=r"^breakdown 4 != score 5 for \(Card\('2s'\)"):
        explain(parse_cards("2S 3S 4S KH"))


def test_crosskings_hand_html_separates_the_cards() -> None:
    assert Hand(parse_cards("2S 3S 4S KH"))._repr_html_().count("</span> <span") == 3
