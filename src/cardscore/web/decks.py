"""A match's deck: what its photos taught recognition about the table's cards, in the database.

The rule is the library's (:mod:`cardscore.vision.learn`): a deck spread photo teaches every
card by its place; a round's photo teaches the cards a player confirmed on it (corrections
included). Each teaching adds its crops to the match's :class:`~cardscore.vision.learn.DeckMemory`
and fits the profile again from all of them; later photos of the match are read with that
profile. Here the memory and the profile are kept, one row per match (table ``match_decks``).

A teaching reads the deck, learns outside any transaction (seconds), then writes only if the
deck is still at the revision it read (``UPDATE … WHERE revision = read``, or an ``INSERT``
that a second first teaching makes fail): two photos teaching at once never lose one another's
crops; the later one learns again on top of the earlier. A teaching that fails writes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import Table, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from cardscore.errors import Problem
from cardscore.web.models import DeckRow, utcnow
from cardscore.web.problems import ProblemError
from cardscore.web.store import MatchStore

if TYPE_CHECKING:
    from cardscore.vision.deck import DeckProfile
    from cardscore.vision.learn import DeckMemory, Examples

__all__ = ["DeckStatus", "DeckStore", "Stored", "teach"]

_DECKS = cast(Table, DeckRow.__table__)
TRIES = 3
"""Teachings at once on one match: each retry learns again on top of the one that won."""


@dataclass(frozen=True, slots=True)
class DeckStatus:
    """What the page shows of a match's deck."""

    learnt: bool
    cards: int = 0
    photos: int = 0
    spread: bool = False
    revision: int = 0
    version: int | None = None  # the profile's file format


@dataclass(frozen=True, slots=True)
class Stored:
    """A deck as stored: its revision, profile (``.deck`` bytes) and memory (crops)."""

    revision: int
    profile: bytes
    memory: bytes


class DeckStore:
    """The ``match_decks`` rows, on the match store's database (and its write lock)."""

    def __init__(self, store: MatchStore) -> None:
        self.store = store

    def require_edit(self, match_id: str, key: str | None) -> None:
        """Raises the problem (401, 403, 404) unless ``key`` is the match's edit key."""
        access, _version = self.store.peek(match_id, key)
        if access != "edit":
            raise ProblemError(
                403,
                "the share link only reads this match; use the edit link to change it",
                "read-only",
            )

    def status(self, match_id: str) -> DeckStatus:
        c = _DECKS.c
        query = select(c.revision, c.format, c.cards, c.photos, c.spread)
        with self.store.engine.connect() as connection:
            row = connection.execute(query.where(c.match_id == match_id)).one_or_none()
        if row is None:
            return DeckStatus(False)
        return DeckStatus(True, row.cards, row.photos, row.spread, row.revision, row.format)

    def stored(self, match_id: str, *, memory: bool = True) -> Stored | None:
        """The deck's profile and (when ``memory``) its crops, or ``None`` if it has none."""
        columns = [_DECKS.c.revision, _DECKS.c.profile]
        if memory:
            columns.append(_DECKS.c.memory)
        with self.store.engine.connect() as connection:
            row = connection.execute(
                select(*columns).where(_DECKS.c.match_id == match_id)
            ).one_or_none()
        if row is None:
            return None
        return Stored(row.revision, bytes(row.profile), bytes(row.memory) if memory else b"")

    def save(
        self, match_id: str, read: int | None, memory: DeckMemory, profile: bytes, version: int
    ) -> int | None:
        """Store the deck if it is still at revision ``read`` (``None``: it had none); the new
        revision, or ``None`` when another teaching or a forget came first."""
        values: dict[str, Any] = {
            "format": version,
            "cards": memory.cards,
            "photos": memory.photos,
            "spread": memory.spread,
            "profile": profile,
            "memory": memory.to_bytes(),
            "updated_at": utcnow(),
        }
        revision = 1 if read is None else read + 1
        if read is None:
            try:
                with self.store.write_lock, self.store.write_engine.begin() as connection:
                    connection.execute(
                        insert(_DECKS), {"match_id": match_id, "revision": revision, **values}
                    )
            except IntegrityError:  # another first teaching came first (rolled back)
                return None
            return revision
        with self.store.write_lock, self.store.write_engine.begin() as connection:
            changed = connection.execute(
                update(_DECKS)
                .where(_DECKS.c.match_id == match_id, _DECKS.c.revision == read)
                .values(revision=revision, **values)
            )
            return revision if changed.rowcount == 1 else None

    def forget(self, match_id: str) -> None:
        with self.store.write_lock, self.store.write_engine.begin() as connection:
            connection.execute(delete(_DECKS).where(_DECKS.c.match_id == match_id))


def _name(match_id: str) -> str:
    return f"match {match_id}"


def _memory(stored: Stored | None) -> DeckMemory:
    from cardscore.vision.learn import DeckMemory

    return DeckMemory() if stored is None else DeckMemory.from_bytes(stored.memory)


def teach(
    decks: DeckStore,
    match_id: str,
    learn: Callable[[DeckProfile | None], Examples],
    *,
    spread: bool = False,
) -> DeckStatus:
    """Add what ``learn`` finds (given the profile the match reads with now) to the match's
    deck, fit its profile again and store both; nothing is stored if any step fails."""
    from cardscore.vision.deck import VERSION

    examples = learn(reading_profile(decks, match_id))
    for _ in range(TRIES):
        stored = decks.stored(match_id)
        # The memory keeps the models' outputs for its crops: only the new ones are run.
        memory = _memory(stored).add(examples, spread=spread)
        profile = memory.profile(_name(match_id)).to_bytes()
        read = None if stored is None else stored.revision
        if decks.save(match_id, read, memory, profile, VERSION) is not None:
            return decks.status(match_id)
    raise ProblemError(409, [Problem.of("deck_changed", tries=TRIES)], "deck-changed")


def reading_profile(decks: DeckStore, match_id: str) -> DeckProfile | None:
    """The profile to read the match's photos with, or ``None`` while it has no deck.

    A profile learnt with other models (the server's were upgraded) or in an older format is
    fitted again from the crops kept, and stored; its readers never see the difference.
    """
    stored = decks.stored(match_id, memory=False)
    if stored is None:
        return None
    from cardscore.vision.classifier import MODEL_PATHS
    from cardscore.vision.deck import VERSION, DeckProfile, DeckProfileError

    try:
        profile = DeckProfile.from_bytes(stored.profile, _name(match_id))
        profile.check(MODEL_PATHS)
        return profile
    except DeckProfileError:
        stored = decks.stored(match_id)
        if stored is None:
            return None
        # The models' outputs kept were the old models': run the new ones on every crop.
        memory = _memory(stored).rerun(MODEL_PATHS)
        profile = memory.profile(_name(match_id))
        # Another request may have refitted it first: theirs is as good as this one.
        decks.save(match_id, stored.revision, memory, profile.to_bytes(), VERSION)
        return profile
