"""A kept match (a save scores only its new round) says exactly what replaying it whole says."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardscore.tranca import Match, Team
from cardscore.tranca.rules import team_size
from cardscore.web.games.tranca import TrancaPlayed
from tests.test_tranca_properties import rounds

NAMES = ["Ana", "Bia", "Caio", "Duda", "Edu", "Fê"]
HELD = {"Ana": "AD", "Bia": "KD", "Caio": "QD", "Duda": "JD", "Edu": "3S", "Fê": "TD"}


@st.composite
def matches(draw: st.DrawFn) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Rounds of one match; players named in the rounds (in any order, in either team) or not."""
    first = draw(rounds())
    players = first["players"]
    played = [
        first,
        *draw(st.lists(rounds().filter(lambda r: r["players"] == players), max_size=5)),
    ]
    size = team_size(players)
    for round_ in played:
        seats = draw(st.permutations(NAMES))  # a player sits in one team per round
        for index, side in enumerate(round_["teams"]):
            if draw(st.booleans()):
                who = seats[index * size : (index + 1) * size]
                side["players"] = who
                split = side["hand"] and not side["went_out"]
                if split and draw(st.booleans()):  # the hand told player by player
                    cut = draw(st.integers(0, len(side["hand"])))
                    side["hand"] = {who[0]: side["hand"][:cut], who[-1]: side["hand"][cut:]}
                if side["went_out"] and draw(st.booleans()):
                    side["went_out_player"] = draw(st.sampled_from(who))
    teams = [{"name": side["name"], "players": []} for side in first["teams"]]
    return {"players": players, "teams": teams, "target": 100_000}, played


def replayed(config: dict[str, Any], documents: list[dict[str, Any]]) -> Match:
    """The library's match over the same rounds (as stored: canonical, keys sorted)."""
    match = Match([Team(t["name"]) for t in config["teams"]], players=config["players"])
    for document in TrancaPlayed(config, documents).documents:
        match.add_round(document)
    return match


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matches())
def test_round_by_round_is_the_whole_match(
    data: tuple[dict[str, Any], list[dict[str, Any]]],
) -> None:
    config, documents = data
    played = TrancaPlayed(config, [])
    for document in documents:
        played.add(document)
    summary = played.summary()
    reference = replayed(config, documents)
    assert summary["stats"] == reference.stats().as_dict()
    assert summary["totals"] == list(reference.totals.values())
    assert [r["points"] for r in summary["rounds"]] == [
        list(r.scores.values()) for r in reference.rounds
    ]
    assert summary == TrancaPlayed(config, documents).summary()


def test_players_the_rounds_name_keep_the_whole_match_order_and_team() -> None:
    # "Edu" plays for the second team in round 1 and for the first in round 2: the whole-match
    # statistics meet him in the first team first (team by team, then round by round).
    config = {"players": 4, "teams": [{"name": "A"}, {"name": "B"}], "target": 100_000}

    def side(name: str, who: list[str]) -> dict[str, Any]:
        hands = {player: [HELD[player]] for player in who}
        return {"name": name, "hand": hands, "took_morto": True, "went_out": False}

    documents = [
        {"teams": [side("A", ["Ana", "Bia"]), side("B", ["Edu", "Caio"])]},
        {"teams": [side("A", ["Edu", "Duda"]), side("B", ["Caio", "Fê"])]},
    ]
    stats = TrancaPlayed(config, documents).summary()["stats"]
    assert stats == replayed(config, documents).stats().as_dict()
    assert [(p["name"], p["team"], p["trancas"]) for p in stats["players"]] == [
        ("Ana", "A", 0),
        ("Bia", "A", 0),
        ("Duda", "A", 0),  # round 2 lists team A's hands as Duda's, then Edu's
        ("Edu", "A", 2),
        ("Caio", "B", 0),
        ("Fê", "B", 0),
    ]


ROUND = {
    "teams": [
        {
            "name": "A",
            "melds": [["AH", "KH", "QH", "JH", "TH", "9H", "8H"]],
            "went_out": True,
            "took_morto": True,
        },
        {"name": "B", "melds": [["KS", "KD", "KC"]], "took_morto": True, "went_out": False},
    ]
}
# Another round: the same one sent at the version it was saved against is a save sent again
# (its answer lost), acknowledged rather than refused.
QUEENS = {"teams": [ROUND["teams"][0], {**ROUND["teams"][1], "melds": [["QS", "QD", "QC"]]}]}


def test_two_processes_keeping_the_same_match_never_lose_an_update(any_database_url: str) -> None:
    """Each process keeps the matches it worked on; the version in the database still decides."""
    from cardscore.errors import CardscoreError
    from cardscore.web.db import make_engine
    from cardscore.web.migrate import upgrade
    from cardscore.web.problems import ProblemError
    from cardscore.web.store import MatchStore

    engine = make_engine(any_database_url)
    upgrade(engine)
    first, second = MatchStore(engine), MatchStore(engine)  # as two server processes would
    match = first.create("tranca", {"players": 4, "teams": [{"name": "A"}, {"name": "B"}]})
    key = match.edit_key
    assert first.add_round(match.id, key, 1, ROUND).version == 2  # kept by `first` at 2
    assert second.add_round(match.id, key, 2, ROUND).version == 3  # `second` read it: 2 → 3
    with pytest.raises(ProblemError) as stale:  # `first` still keeps version 2: not the truth
        first.add_round(match.id, key, 2, QUEENS)
    assert stale.value.status == 409
    assert "it is now 3" in str(stale.value)
    with pytest.raises(ProblemError) as share:  # a kept match still checks the key
        second.add_round(match.id, match.share_key, 3, ROUND)
    assert share.value.status == 403
    with pytest.raises(CardscoreError, match="round 3: "):  # refused whole, nothing kept
        first.add_round(match.id, key, 3, {"teams": ROUND["teams"][::-1]})
    saved = first.add_round(match.id, key, 3, ROUND)
    assert saved.version == 4
    assert saved.summary is not None
    assert saved.summary["totals"][0] == 3 * 375
    assert second.undo(match.id, key, 4).version == 5
    read = first.read(match.id, match.share_key)
    assert (read.version, len(read.documents), read.access) == (5, 2, "read")
    assert read.summary == second.read(match.id, key).summary
    engine.dispose()


def test_a_process_behind_checks_only_the_rounds_it_lacks(
    any_database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another worker added rounds: the kept match takes them on (each checked as a save is)
    instead of re-checking the whole match, and ends up what a fresh read says."""
    from cardscore.web.db import make_engine
    from cardscore.web.games.tranca import TrancaAdapter
    from cardscore.web.migrate import upgrade
    from cardscore.web.store import MatchStore

    engine = make_engine(any_database_url)
    upgrade(engine)
    saver, follower = MatchStore(engine), MatchStore(engine)
    match = saver.create("tranca", {"players": 4, "teams": [{"name": "A"}, {"name": "B"}]})
    key = match.edit_key
    for version in range(1, 4):
        saver.add_round(match.id, key, version, ROUND)
    opened: list[int] = []
    real_open = TrancaAdapter.open

    def counting_open(self: TrancaAdapter, config: Any, documents: Any) -> Any:
        opened.append(len(documents))
        return real_open(self, config, documents)

    monkeypatch.setattr(TrancaAdapter, "open", counting_open)
    assert follower.read(match.id, key).version == 4
    assert opened == []  # never seen: shown as stored, nothing checked
    assert follower.add_round(match.id, key, 4, ROUND).version == 5
    assert opened == [3]  # a save needs the match's state: checked whole, once
    saver.add_round(match.id, key, 5, ROUND)  # `saver` kept version 4: takes on round 4
    saver.add_round(match.id, key, 6, ROUND)
    caught_up = follower.read(match.id, key)
    assert opened == [3]  # two rounds checked on top of the four kept
    fresh = MatchStore(engine).read(match.id, key)
    assert (caught_up.version, caught_up.documents) == (fresh.version, fresh.documents)
    assert caught_up.summary == fresh.summary
    # And a save through the process that was behind builds on it.
    assert follower.add_round(match.id, key, 7, ROUND).version == 8
    assert opened == [3]
    # An edit elsewhere changes an old round: what is kept is not a beginning any more.
    other = {"teams": [ROUND["teams"][0], {**ROUND["teams"][1], "melds": [["QS", "QD", "QC"]]}]}
    saver.edit_round(match.id, key, 8, 1, other)
    assert opened[-1] == 7  # the edit itself rescores the match
    edited = follower.read(match.id, key)
    assert opened == [3, 7]  # and the follower reads what the edit stored
    fresh = MatchStore(engine).read(match.id, key)
    assert edited.summary == fresh.summary
    assert edited.summary == TrancaAdapter().summary(fresh.config, fresh.documents)
    engine.dispose()
