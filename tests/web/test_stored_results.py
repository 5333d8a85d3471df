"""What checking found is stored with the rounds: a server that never read a match shows it as
stored, and that is always what checking every round again says (after saves, edits, undos, on
a database from before it was stored, and when the rules that stored it are not this process's).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import Engine, select, text

from cardscore.errors import CardscoreError
from cardscore.web.db import make_engine
from cardscore.web.games import get_adapter
from cardscore.web.games.gongzhu import GongzhuAdapter
from cardscore.web.games.tranca import TrancaAdapter
from cardscore.web.migrate import upgrade
from cardscore.web.models import MatchRow, RoundRow
from cardscore.web.problems import ProblemError
from cardscore.web.store import MatchStore, Snapshot

TRANCA = {"players": 4, "teams": [{"name": "A"}, {"name": "B"}], "target": 100_000}
GONGZHU = {"players": ["Ann", "Bo", "Cy", "Di"], "limit": -1000}
HELD = ["5D", "9C", "4S", "6D", "7C", "8S", "TD", "JS"]


def tranca_round(number: int) -> dict[str, Any]:
    """Round ``number``: team A goes out with a clean canastra; B holds a different hand each
    round (and every third round B goes out instead)."""
    canastra = ["AH", "KH", "QH", "JH", "TH", "9H", "8H"]
    out = {"melds": [canastra], "went_out": True, "took_morto": True}
    other = {
        "melds": [["KS", "KD", "KC"]],
        "hand": [c for k, c in enumerate(HELD) if number >> k & 1],
        "took_morto": number % 2 == 0,
        "went_out": False,
    }
    sides = (out, other) if number % 3 else (other, out)
    return {"teams": [{"name": name, **side} for name, side in zip("AB", sides, strict=True)]}


def gongzhu_round(number: int) -> dict[str, Any]:
    piles = ["23456789TJQKA", "P", "G", "D"]
    shift = number % 4
    return {"piles": piles[shift:] + piles[:shift]}


ROUNDS = {"tranca": tranca_round, "gongzhu": gongzhu_round}
CONFIGS = {"tranca": TRANCA, "gongzhu": GONGZHU}


@pytest.fixture
def engine(any_database_url: str) -> Iterator[Engine]:
    engine = make_engine(any_database_url)
    upgrade(engine)
    yield engine
    engine.dispose()


@pytest.fixture
def no_rechecks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every whole-match check of either game is counted here (by game)."""
    opened: list[str] = []
    for adapter in (TrancaAdapter, GongzhuAdapter):
        real = adapter.open

        def counting(self: Any, config: Any, documents: Any, real: Any = real) -> Any:
            opened.append(self.name)
            return real(self, config, documents)

        monkeypatch.setattr(adapter, "open", counting)
    return opened


def rechecked(snapshot: Snapshot) -> Any:
    """What checking every round of the match again says (as JSON would carry it)."""
    adapter = get_adapter(snapshot.game)
    assert adapter is not None
    summary = adapter.check_rounds(snapshot.config, snapshot.documents).summary
    return json.loads(json.dumps(summary))


def cold(database: Engine, match_id: str, key: str) -> Snapshot:
    """The match as a server that never read it shows it (its own engine and store)."""
    engine = make_engine(database.url.render_as_string(hide_password=False))
    try:
        return MatchStore(engine).read(match_id, key)
    finally:
        engine.dispose()


def stored_state(engine: Engine, match_id: str) -> Any:
    """The match's version and stored summary, and its rounds' rows (JSON read as JSON)."""
    matches, rounds = MatchRow.__table__.c, RoundRow.__table__.c
    with engine.connect() as connection:
        match = connection.execute(
            select(matches.version, matches.summary).where(matches.id == match_id)
        ).one()
        stored = connection.execute(
            select(rounds.number, rounds.document, rounds.checked)
            .where(rounds.match_id == match_id)
            .order_by(rounds.number)
        ).all()
    return tuple(match), [tuple(r) for r in stored]


@pytest.mark.parametrize("game", ["tranca", "gongzhu"])
def test_a_server_that_never_read_the_match_shows_what_a_recheck_says(
    engine: Engine, no_rechecks: list[str], game: str
) -> None:
    store = MatchStore(engine)
    match = store.create(game, CONFIGS[game])
    key = match.edit_key
    version = 1
    for number in range(1, 9):
        version = store.add_round(match.id, key, version, ROUNDS[game](number)).version
    del no_rechecks[:]

    shown = cold(engine, match.id, match.share_key)
    assert no_rechecks == []  # shown as stored: not one round checked again
    assert (shown.version, len(shown.documents), shown.access) == (9, 8, "read")
    assert shown.summary == rechecked(shown)
    assert shown.summary is not None
    assert shown.summary["totals"] == shown.summary["rounds"][-1]["totals"]
    # The page and the API answer of a match read as stored are those of one kept here.
    assert shown.summary == json.loads(json.dumps(store.read(match.id, key).summary))


@pytest.mark.parametrize("game", ["tranca", "gongzhu"])
def test_saves_edits_and_undos_keep_what_is_stored_right(engine: Engine, game: str) -> None:
    store = MatchStore(engine)
    match = store.create(game, CONFIGS[game])
    key = match.edit_key
    version = 1
    changes = [
        *[("add", n) for n in range(1, 6)],
        ("edit", 2),  # every later round's running totals change
        ("undo", 0),
        ("add", 11),
        ("edit", 5),  # the last round
        ("undo", 0),
        ("undo", 0),
        ("edit", 1),
    ]
    for what, number in changes:
        if what == "add":
            version = store.add_round(match.id, key, version, ROUNDS[game](number)).version
        elif what == "edit":
            round_ = ROUNDS[game](number + 20)
            version = store.edit_round(match.id, key, version, number, round_).version
        else:
            version = store.undo(match.id, key, version).version
        shown = cold(engine, match.id, key)
        assert shown.version == version
        assert shown.summary == rechecked(shown), (what, number)
    # A store that keeps the match at an older version and one that read it as stored, both
    # saving on: each save stores what its own check found.
    other = MatchStore(engine)
    other.read(match.id, key)
    version = other.add_round(match.id, key, version, ROUNDS[game](30)).version
    version = store.add_round(match.id, key, version, ROUNDS[game](31)).version
    shown = cold(engine, match.id, key)
    assert shown.summary == rechecked(shown)
    assert len(shown.documents) == 5


def test_a_failed_change_stores_nothing(engine: Engine) -> None:
    store = MatchStore(engine)
    match = store.create("tranca", TRANCA)
    key = match.edit_key
    for version in range(1, 4):
        store.add_round(match.id, key, version, tranca_round(version))
    before = stored_state(engine, match.id)
    wrong = tranca_round(1)  # both teams went out
    wrong["teams"][1]["went_out"] = True
    with pytest.raises(CardscoreError):
        store.add_round(match.id, key, 4, wrong)
    with pytest.raises(CardscoreError):
        store.edit_round(match.id, key, 4, 2, wrong)
    with pytest.raises(ProblemError) as conflict:
        store.add_round(match.id, key, 3, tranca_round(4))
    assert conflict.value.status == 409
    with pytest.raises(ProblemError):
        store.undo(match.id, "not-the-key", 4)
    assert stored_state(engine, match.id) == before


EDIT_KEY = "e" * 32


@pytest.fixture
def old_database(any_database_url: str) -> Iterator[Engine]:
    """A database as revision 0001 made it, holding one Tranca match of 6 rounds as the code
    of that revision stored it (canonical documents, nothing of what checking found)."""
    from alembic import command
    from sqlalchemy import JSON, DateTime, Integer, String, column, table

    from cardscore.web.migrate import _config
    from cardscore.web.models import utcnow
    from cardscore.web.security import key_hash, share_key_for

    engine = make_engine(any_database_url)
    config = _config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
    now = utcnow()
    matches = table(
        "matches",
        *(column(name, String()) for name in ("id", "game", "edit_key_hash", "share_key_hash")),
        column("config", JSON()),
        column("version", Integer()),
        column("created_at", DateTime(timezone=True)),
        column("updated_at", DateTime(timezone=True)),
    )
    rounds = table(
        "rounds",
        column("match_id", String()),
        column("number", Integer()),
        column("document", JSON()),
        column("created_at", DateTime(timezone=True)),
    )
    played = TrancaAdapter().open(TRANCA, [tranca_round(n) for n in range(1, 7)])
    with engine.begin() as connection:
        connection.execute(
            matches.insert(),
            {
                "id": "old",
                "game": "tranca",
                "config": TRANCA,
                "edit_key_hash": key_hash(EDIT_KEY),
                "share_key_hash": key_hash(share_key_for(EDIT_KEY)),
                "version": 7,
                "created_at": now,
                "updated_at": now,
            },
        )
        connection.execute(
            rounds.insert(),
            [
                {"match_id": "old", "number": n, "document": d, "created_at": now}
                for n, d in enumerate(played.documents, start=1)
            ],
        )
    yield engine
    engine.dispose()


def test_a_database_from_revision_0001_upgrades_and_fills_in_on_first_read(
    old_database: Engine, no_rechecks: list[str]
) -> None:
    from cardscore.web.migrate import current_revision, head_revision

    upgrade(old_database)
    assert current_revision(old_database) == head_revision()
    (version, summary), rounds = stored_state(old_database, "old")
    assert (version, summary) == (7, None)
    assert [checked for _n, _d, checked in rounds] == [None] * 6

    first = cold(old_database, "old", EDIT_KEY)
    assert no_rechecks == ["tranca"]  # nothing stored: checked whole, once
    assert first.summary == rechecked(first)
    second = cold(old_database, "old", EDIT_KEY)
    assert no_rechecks == ["tranca"]  # the first read stored what it found
    assert second.summary == first.summary
    (version, summary), rounds = stored_state(old_database, "old")
    assert summary["version"] == 7
    assert [checked["number"] for _n, _d, checked in rounds] == list(range(1, 7))

    # A save on a match whose rounds were stored before: a fresh process stores them all.
    store = MatchStore(old_database)
    assert store.add_round("old", EDIT_KEY, 7, tranca_round(7)).version == 8
    shown = cold(old_database, "old", EDIT_KEY)
    assert shown.summary == rechecked(shown)


def test_a_save_before_any_read_stores_every_round(
    old_database: Engine, no_rechecks: list[str]
) -> None:
    upgrade(old_database)
    store = MatchStore(old_database)
    assert store.edit_round("old", EDIT_KEY, 7, 6, tranca_round(20)).version == 8
    del no_rechecks[:]
    shown = cold(old_database, "old", EDIT_KEY)
    assert no_rechecks == []
    assert shown.summary == rechecked(shown)


def test_what_other_rules_stored_is_worked_out_again(
    engine: Engine, no_rechecks: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    store = MatchStore(engine)
    match = store.create("tranca", TRANCA)
    key = match.edit_key
    for version in range(1, 5):
        store.add_round(match.id, key, version, tranca_round(version))
    del no_rechecks[:]
    monkeypatch.setattr(TrancaAdapter, "rules", "a later edition")
    shown = cold(engine, match.id, key)
    assert no_rechecks == ["tranca"]
    assert shown.summary == rechecked(shown)
    cold(engine, match.id, key)
    assert no_rechecks == ["tranca"]  # stored again, by these rules

    # Results that are not the match's own now (another version's, or a round's missing) are
    # not shown either.
    with engine.begin() as connection:
        connection.execute(text("UPDATE rounds SET checked = NULL WHERE number = 2"))
    assert cold(engine, match.id, key).summary == shown.summary
    assert no_rechecks == ["tranca"] * 2
    with engine.begin() as connection:
        connection.execute(text("UPDATE matches SET version = version + 1"))
    assert cold(engine, match.id, key).summary == shown.summary
    assert no_rechecks == ["tranca"] * 3
