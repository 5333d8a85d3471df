"""The Tranca engine: every rule of play by name, and properties over random legal play."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardscore.cards import Card, parse_cards
from cardscore.errors import CardscoreError, IllegalMoveError
from cardscore.tranca import parse_round, score_round
from cardscore.tranca.actions import ActionKind, parse_action
from cardscore.tranca.game import HAND_SIZE, Phase, PlayRules, TrancaState

FULL = [Card.from_id(i) for i in range(52)]
RED_THREES = {Card("3h"), Card("3d")}


def deck_for(
    players: int, hands: list[str], mortos: tuple[str, str] = ("", ""), stock: str = ""
) -> list[Card]:
    """A deck dealing ``hands`` (the rest filled in card order), mortos, then ``stock`` first.

    Cards not named fill the gaps in id order, red 3s last, so a test sees no red 3 it did not
    ask for until deep in the stock.
    """
    decks = 3 if players == 6 else 2
    left = Counter(dict.fromkeys(FULL, decks))
    named = (
        [parse_cards(h) for h in hands] + [parse_cards(m) for m in mortos] + [parse_cards(stock)]
    )
    for cards in named:
        left.subtract(cards)
    assert min(left.values()) >= 0, "a test deck uses a card too often"
    filler = sorted(left.elements(), key=lambda c: (c in RED_THREES, c.id))
    deck: list[Card] = []
    for cards in [*named[:players], *([[]] * (players - len(hands)))][:players]:
        need = HAND_SIZE - len(cards)
        deck.extend(cards)
        deck.extend(filler[:need])
        del filler[:need]
    for cards in named[len(hands) : len(hands) + 2]:
        need = HAND_SIZE - len(cards)
        deck.extend(cards)
        deck.extend(filler[:need])
        del filler[:need]
    deck.extend(named[-1])
    deck.extend(filler)
    return deck


def game_with(players: int, hands: list[str], **kwargs: object) -> TrancaState:
    mortos = kwargs.pop("mortos", ("", ""))
    stock = kwargs.pop("stock", "")
    deck = deck_for(players, hands, mortos, stock)  # type: ignore[arg-type]
    return TrancaState(players, deck=deck, **kwargs)  # type: ignore[arg-type]


def all_cards(game: TrancaState) -> Counter[Card]:
    counts: Counter[Card] = Counter()
    for cards in game.card_places().values():
        counts.update(cards)
    return counts


def play_randomly(game: TrancaState, rng: random.Random, limit: int = 10_000) -> None:
    for _ in range(limit):
        if game.is_over:
            return
        game.play(rng.choice(game.legal_actions()))
    raise AssertionError("the round did not end")


# -- the deal ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "decks"), [(2, 2), (3, 2), (4, 2), (6, 3)])
def test_rule_deal_11_each_two_mortos_of_11_and_decks_by_players(players: int, decks: int) -> None:
    game = TrancaState(players, seed=3)
    assert game.decks == decks
    assert game.mortos_left == 2
    assert all(len(m) == HAND_SIZE for m in game.mortos)
    dollars = sum(len(d) for d in game.dollars)
    assert sum(game.sizes) == players * HAND_SIZE  # red 3s replaced, so every hand holds 11
    assert game.stock_size == 52 * decks - (players + 2) * HAND_SIZE - dollars
    assert all_cards(game) == Counter(dict.fromkeys(FULL, decks))


def test_rule_teams_alternate_seats() -> None:
    game = TrancaState(4, seed=1)
    assert [game.team_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert game.team_name(0) == "Ana & Caio"
    six = TrancaState(6, seed=1)
    assert six.team_seats(1) == (1, 3, 5)
    assert TrancaState(3, seed=1).teams == 3


def test_rule_red_threes_dealt_are_laid_and_replaced_at_once() -> None:
    game = game_with(2, ["3h 3d 4s 5s 6s 7s 8s 9s Ts Js Qs"], stock="Kh Kd")
    assert [Card(c) for c in ("3h", "3d")] == [Card.from_id(i) for i in game.dollars[0]]
    assert Counter(game.hand(0)) >= Counter(parse_cards("Kh Kd"))
    assert len(game.hand(0)) == HAND_SIZE


def test_rule_red_three_drawn_is_laid_and_replaced_at_once() -> None:
    game = game_with(2, [], stock="3h 3d Ah")
    move = game.draw()
    assert move.dollars == parse_cards("3h 3d")
    assert move.received == parse_cards("Ah")
    assert len(game.hand(0)) == HAND_SIZE + 1


# -- turn order -------------------------------------------------------------------------------


def test_rule_a_turn_starts_with_a_draw_or_take_and_ends_with_a_discard() -> None:
    game = game_with(2, ["4s 5s 6s 7s 8s 9s Ts Js Qs Ks As"], stock="Ah")
    with pytest.raises(IllegalMoveError, match=r"turn \(6\).*must first draw"):
        game.discard("4s")
    game.draw()
    with pytest.raises(IllegalMoveError, match=r"already drawn"):
        game.draw()
    game.discard("As")
    assert (game.to_act, game.phase) == (1, Phase.DRAW)


# -- melds and 2s -----------------------------------------------------------------------------


def test_rule_melds_need_three_cards_and_at_most_one_two_as_wild() -> None:
    game = game_with(2, ["4s 5s 2h 2d 8s 9s Ts Js Qs Ks As"], stock="Ah")
    game.draw()
    with pytest.raises(IllegalMoveError, match="at most one 2"):
        game.meld("4s 5s 2h 2d")
    with pytest.raises(IllegalMoveError, match="at least 3"):
        game.meld("4s 5s")
    game.meld("4s 5s 2h")  # the 2 stands for the 6
    assert not game.can_add(0, "2d")  # a second 2 never goes in
    with pytest.raises(IllegalMoveError, match="lacks 6♠ and 7♠"):
        game.add(0, "8s")  # two gaps, one 2
    game.meld("8s 9s Ts")
    game.add(1, "2d")
    assert [c.code for c in game.team_melds(0)[1].cards] == ["8s", "9s", "Ts", "2d"]


def test_rule_a_meld_of_cards_not_in_hand_is_refused() -> None:
    game = game_with(2, ["4s 5s 6s 7s 8s 9s Ts Js Qs Ks As"], stock="Ah")
    game.draw()
    with pytest.raises(IllegalMoveError, match="you hold no 4♥"):
        game.meld("4h 5h 6h")


# -- the discard pile -------------------------------------------------------------------------


def test_rule_take_pile_when_top_fits_a_team_meld_and_top_is_used_first() -> None:
    game = game_with(
        2,
        ["7c 8c 9c Ks Kh 4d 6d 8d Td Qd Ad", "Tc Ah As 4h 6h 8h Js Jh Qs Qh 5d"],
        stock="Kc Kd 5s",
    )
    game.draw()
    game.meld("7c 8c 9c")
    game.discard("Kc")  # seat 1 cannot use K♣
    game.draw()
    game.discard("Tc")
    assert game.can_take(meld=0)
    move = game.take(meld=0)
    assert move.action.meld == 0
    assert [c.code for c in game.team_melds(0)[0].cards] == ["7c", "8c", "9c", "Tc"]
    assert game.pile == []
    assert game.phase is Phase.PLAY
    assert Card("Kc") in game.hand(0)  # the whole pile went into the hand


def test_rule_take_pile_with_two_hand_cards_like_the_documents_example_2() -> None:
    game = game_with(
        2,
        ["Jc 2d 4s 6s 8s Ts Qs 4h 6h 8h Th", "Tc Ah As 4d 6d 8d Js Jh Qd Qh 5d"],
        stock="Kc Kd",
    )
    game.draw()
    game.discard("Kc")
    game.draw()
    game.discard("Tc")
    assert not game.can_take("Jc")  # one card is not enough
    game.take("Jc 2d")
    melds = game.team_melds(0)
    assert [c.code for c in melds[0].cards] == ["Tc", "Jc", "2d"]


def test_rule_pile_cannot_be_taken_unless_the_top_card_fits() -> None:
    game = game_with(2, ["4s 6s 8s Ts Qs 4h 6h 8h Th Qh Ad"], stock="Kc Kd")
    game.draw()
    game.discard("Kc")
    assert not game.can_take()
    with pytest.raises(IllegalMoveError, match=r"discard pile \(4.4\): the top card K♣ fits none"):
        game.take()
    assert [a.kind for a in game.legal_actions()] == [ActionKind.DRAW]


def test_rule_black_three_blocks_the_discard_pile() -> None:
    game = game_with(2, ["3c 3s 8s Ts Qs 4h 6h 8h Th Qh Ad", "3c Kh Kd"], stock="Kc Kd")
    game.draw()
    game.discard("3c")
    with pytest.raises(IllegalMoveError, match=r"tranca .* blocks the pile"):
        game.take("Kh Kd")
    assert not any(a.kind is ActionKind.TAKE for a in game.legal_actions())


# -- mortos and going out ---------------------------------------------------------------------


def test_rule_morto_taken_at_once_when_the_hand_empties_without_a_discard() -> None:
    hand = "4s 5s 6s 7s 8s 9s Ts Js Qs Kh Kd"
    game = game_with(2, [hand], mortos=("", "4h 5h 6h"), stock="Kc")
    game.draw()
    game.meld("4s 5s 6s 7s 8s 9s Ts Js Qs")
    move = game.meld("Kh Kd Kc")
    assert move.took_morto
    assert game.took_morto[0]
    assert game.phase is Phase.PLAY
    assert game.to_act == 0
    assert len(game.hand(0)) == HAND_SIZE
    assert Counter(game.hand(0)) >= Counter(parse_cards("4h 5h 6h"))


def test_rule_morto_after_a_discard_is_played_on_the_next_turn() -> None:
    game = game_with(2, ["4s 5s 6s 7s 8s 9s Ts Js Qs Ks As"], stock="Ah")
    game.draw()
    game.meld("4s 5s 6s 7s 8s 9s Ts Js Qs Ks As")
    move = game.discard("Ah")
    assert move.took_morto
    assert game.took_morto[0]
    assert game.to_act == 1
    assert game.phase is Phase.DRAW
    assert len(game.hand(0)) == HAND_SIZE


def test_rule_going_out_needs_a_canastra() -> None:
    hand = "4s 5s 6s 8h 9h Th Jd Qd Kd Ac Ad"
    for morto_taken in (False, True):
        game = game_with(2, [hand], stock="Ah")
        game.took_morto[0] = morto_taken  # as if the team's morto were already used
        game.draw()
        game.meld("4s 5s 6s")
        game.meld("8h 9h Th")
        game.meld("Jd Qd Kd")
        assert game.can_meld("Ac Ad Ah") is not morto_taken
    with pytest.raises(IllegalMoveError, match=r"going out \(4.1\).*only with a canastra"):
        game.meld("Ac Ad Ah")


def test_rule_round_ends_when_a_team_with_a_canastra_goes_out() -> None:
    game = game_with(2, ["4s 5s 6s 7s 8s 9s Ts Js Qs Ks As"], stock="Ah")
    game.took_morto[0] = True
    game.draw()
    game.meld("4s 5s 6s 7s 8s 9s Ts")
    game.meld("Js Qs Ks")
    assert game.can_add(0, "As") is False  # 4…10 and J Q K are two melds; A♠ goes to the second
    game.add(1, "As")
    move = game.discard("Ah")
    assert move.went_out
    assert move.round_over
    assert game.is_over
    score = game.score()
    assert score.teams[0].breakdown.points()["final_move"] == 100
    assert score.teams[0].breakdown.points()["clean_canastras"] == 200


def test_rule_morto_replaces_an_exhausted_stock_and_the_round_ends_with_the_last() -> None:
    game = TrancaState(2, seed=11)
    replaced = 0
    while not game.is_over:
        before = (game.stock_size, game.mortos_left)
        move = game.draw()
        if game.mortos_left < before[1]:  # a morto became the stock, as the stock ran out
            replaced += 1
            assert before[0] <= 1 + sum(len(d) for d in game.dollars)
        game.discard(move.received[0])
    assert replaced == 2
    assert game.stock_size == 0
    assert game.mortos_left == 0
    assert game.went_out_seat is None
    round_ = parse_round(game.round_dict())
    assert not any(t.went_out or t.took_morto for t in round_.teams)


# -- house rules ------------------------------------------------------------------------------


def test_house_rule_clean_canastra_takes_no_two_unless_allowed() -> None:
    hand = "4s 5s 6s 7s 8s 9s Ts 2h Kh Kd Ad"
    for allowed in (False, True):
        game = game_with(2, [hand], stock="Ah", rules=PlayRules(clean_canastra_takes_two=allowed))
        game.draw()
        game.meld("4s 5s 6s 7s 8s 9s Ts")
        assert game.can_add(0, "2h") is allowed


def test_house_rule_edges_only_limits_sets() -> None:
    hand = "9s 9h 9d Ks Kh Kd 4h 6h 8h Th Qh"
    game = game_with(2, [hand], stock="Ah", rules=PlayRules(edges_only=True))
    game.draw()
    assert not game.can_meld("9s 9h 9d")
    assert game.can_meld("Ks Kh Kd")
    assert game.round_dict().get("rules") == {"edges_only": True}


# -- properties -------------------------------------------------------------------------------

SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@settings(max_examples=10, deadline=None)
@given(players=st.sampled_from([2, 3, 4, 6]), seed=st.integers(0, 10**6))
def test_property_every_card_is_in_exactly_one_place(players: int, seed: int) -> None:
    game = TrancaState(players, seed=seed)
    rng = random.Random(seed)
    full = Counter(dict.fromkeys(FULL, game.decks))
    while not game.is_over:
        game.play(rng.choice(game.legal_actions()))
        assert all_cards(game) == full


@SETTINGS
@given(players=st.sampled_from([2, 3, 4, 6]), seed=st.integers(0, 10**6))
def test_property_every_final_table_passes_the_scorers_checks(players: int, seed: int) -> None:
    game = TrancaState(players, seed=seed)
    play_randomly(game, random.Random(seed))
    round_ = parse_round(game.round_dict())  # raises on any broken rule
    score = score_round(round_)
    assert [t.name for t in score.teams] == [game.team_name(t) for t in range(game.teams)]


@SETTINGS
@given(players=st.sampled_from([2, 4, 6]), seed=st.integers(0, 10**6), cut=st.floats(0, 1))
def test_property_replay_from_the_record_gives_the_same_state(
    players: int, seed: int, cut: float
) -> None:
    game = TrancaState(players, seed=seed)
    rng = random.Random(seed)
    stop = None
    while not game.is_over:
        game.play(rng.choice(game.legal_actions()))
        if stop is None and rng.random() < cut / 50:
            stop = len(game.history)
            break
    again = TrancaState.from_dict(game.as_dict())
    assert again.state_dict() == game.state_dict()
    assert again.as_dict() == game.as_dict()


@settings(max_examples=8, deadline=None)
@given(players=st.sampled_from([2, 4]), seed=st.integers(0, 10**6))
def test_property_undo_restores_the_state_exactly(players: int, seed: int) -> None:
    game = TrancaState(players, seed=seed)
    rng = random.Random(seed)
    states = [game.state_dict()]
    while not game.is_over:
        game.play(rng.choice(game.legal_actions()))
        states.append(game.state_dict())
    while game.history:
        states.pop()
        game.undo()
        assert game.state_dict() == states[-1]
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        game.undo()


@SETTINGS
@given(players=st.sampled_from([2, 4]), seed=st.integers(0, 10**6))
def test_property_legal_actions_pass_verify_and_notation_round_trips(
    players: int, seed: int
) -> None:
    game = TrancaState(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(80):
        if game.is_over:
            break
        actions = game.legal_actions()
        for action in actions:
            game.verify(action)
            assert parse_action(action.notation) == action
        game.play(rng.choice(actions))


def test_observation_hides_other_hands() -> None:
    game = TrancaState(4, seed=5)
    game.draw()
    seen = game.observation(1)
    assert seen.hand == game.hand(1)
    assert seen.hand_sizes == (12, 11, 11, 11)
    other = game.determinized(1, random.Random(1))
    assert other.hands != game.hands  # the hidden cards were dealt again…
    assert other.observation(1) == seen  # …and seat 1 cannot tell
    assert all_cards(other) == all_cards(game)


def test_saved_game_with_a_bad_action_is_refused() -> None:
    game = TrancaState(2, seed=5)
    data = game.as_dict()
    data["actions"] = [{"seat": 0, "move": "discard Ah"}]
    with pytest.raises(CardscoreError, match=r"action 1 \('discard Ah'\)"):
        TrancaState.from_dict(data)


def _near_melds() -> st.SearchStrategy[list[int]]:
    """Card ids that are often melds: runs in one suit, sets, with 2s and strays mixed in."""
    run = st.builds(
        lambda suit, low, n, twos, stray: (
            [(r * 4 + suit) for r in range(low, min(low + n, 13))] + twos + stray
        ),
        st.integers(0, 3),
        st.integers(1, 12),
        st.integers(1, 9),
        st.lists(st.integers(0, 3), max_size=2),
        st.lists(st.integers(0, 51), max_size=1),
    )
    same = st.builds(
        lambda rank, suits, twos: [rank * 4 + s for s in suits] + twos,
        st.integers(1, 12),
        st.lists(st.integers(0, 3), min_size=1, max_size=8),
        st.lists(st.integers(0, 3), max_size=2),
    )
    return st.one_of(run, same, st.lists(st.integers(0, 51), min_size=1, max_size=9))


@settings(max_examples=400, deadline=None)
@given(ids=_near_melds(), edges_only=st.booleans())
def test_the_engines_memoised_meld_check_agrees_with_the_scorers(
    ids: list[int], edges_only: bool
) -> None:
    from cardscore.tranca import TrancaRules, meld_problems
    from cardscore.tranca.game import _is_meld, canonical_meld

    rules = TrancaRules(edges_only=edges_only)
    legal = not meld_problems([Card.from_id(i) for i in ids], rules)
    twin = [Card.from_id(i) for i in canonical_meld(ids)]
    assert (not meld_problems(twin, rules)) is legal
    assert _is_meld(tuple(sorted(ids)), rules) is legal


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"game": "chess"}, "not a saved Tranca game"),
        ({"game": "tranca", "version": 1}, "'players' is missing"),
        ({"game": "tranca", "version": 9, "players": 2}, "version 9"),
    ],
)
def test_a_broken_save_is_refused_with_the_reason(data: dict[str, object], message: str) -> None:
    with pytest.raises(CardscoreError, match=message):
        TrancaState.from_dict(data)


def test_a_save_with_a_move_out_of_turn_is_refused() -> None:
    data = TrancaState(2, seed=5).as_dict()
    data["actions"] = [{"seat": 1, "move": "draw"}]
    with pytest.raises(CardscoreError, match="by seat 1, but seat 0 is to act"):
        TrancaState.from_dict(data)
    data["actions"] = ["draw"]
    with pytest.raises(CardscoreError, match="action 1: expected"):
        TrancaState.from_dict(data)


def test_cards_taken_with_the_pile_are_known_to_all_until_played() -> None:
    game = game_with(
        2,
        ["7c 8c 9c Ks Kh 4d 6d 8d Td Qd Ad", "Tc Ah As 4h 6h 8h Js Jh Qs Qh 5d"],
        stock="Kc Kd 5s",
    )
    game.draw()
    game.meld("7c 8c 9c")
    game.discard("Kc")
    game.draw()
    game.discard("Tc")
    game.take(meld=0)  # T♣ onto the meld, K♣ into the hand in full view
    assert game.observation(1).known[0] == (Card("Kc"),)
    for sample in range(5):
        assert Card("Kc") in game.determinized(1, random.Random(sample)).hand(0)
    game.meld("Ks Kh Kc")
    assert game.observation(1).known[0] == ()


def test_rule_red_threes_in_a_morto_are_laid_and_replaced_at_once() -> None:
    hand = "4s 5s 6s 7s 8s 9s Ts Js Qs Kh Kd"
    game = game_with(2, [hand], mortos=("", "3h 3d 4h"), stock="Kc Ac Ad")
    game.draw()
    game.meld("4s 5s 6s 7s 8s 9s Ts Js Qs")
    move = game.meld("Kh Kd Kc")
    assert move.took_morto
    assert move.dollars == parse_cards("3h 3d")
    assert Counter(move.received) >= Counter(parse_cards("4h Ac Ad"))  # replaced from the stock
    assert len(game.hand(0)) == HAND_SIZE


def test_rule_the_pile_is_taken_only_at_the_start_of_a_turn() -> None:
    game = game_with(
        2,
        ["7c 8c 9c Ks Kh 4d 6d 8d Td Qd Ad", "Tc Ah As 4h 6h 8h Js Jh Qs Qh 5d"],
        stock="Kc Kd 5s",
    )
    game.draw()
    game.meld("7c 8c 9c")
    game.discard("Kc")
    game.draw()
    game.discard("Tc")
    game.draw()  # drew instead: the 10♣ can no longer be taken with the meld this turn
    with pytest.raises(IllegalMoveError, match="already drawn"):
        game.take(meld=0)


@pytest.mark.parametrize("allowed", [True, False])
def test_house_rule_a_two_on_top_of_the_pile(allowed: bool) -> None:
    game = game_with(
        2,
        ["2c 8c 9c Ks Kh 4d 6d 8d Td Qd Ad", "Tc Ah As 4h 6h 8h Js Jh Qs Qh 5d"],
        stock="Kc Kd 5s",
        rules=PlayRules(take_two_on_top=allowed),
    )
    game.draw()
    game.discard("2c")
    assert game.can_take("Ah As") is allowed  # A A and the 2 as a wild card


def test_the_table_renders_for_a_notebook() -> None:
    game = TrancaState(2, names=["Ana", "<b>Bia</b>"], seed=2)
    game.draw()
    html = game._repr_html_()
    assert "&lt;b&gt;Bia&lt;/b&gt;" in html  # names are escaped
    assert html.count("<tr>") == 1 + 2 + 2  # header, two teams, two hands
    assert f"stock {game.stock_size}" in html
