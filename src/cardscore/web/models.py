"""Tables: a match (its game, settings, secret-key hashes and version), its rounds and its deck;
a game of *Play Tranca* being played.

A round is stored whole, as the JSON document the game's parser reads, in one row; the match's
``version`` goes up by one on every change, so a client that saw an older version gets a 409.
A played game is one row too: the engine's record of the whole game (deck and actions), which
any server process replays, with its own version.

Each change also stores what checking it found: each round's scores and running totals
(``rounds.checked``) and breakdowns (``rounds.detail``, apart: a page decodes only those of the
rounds it shows) and the match's totals, winner and statistics (``matches.summary``, which
names the rules that worked it out and the version it belongs to), so that a server that never
read the match shows it without checking every round again (see :mod:`cardscore.web.store`).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Integer, LargeBinary, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = ["Base", "DeckRow", "MatchRow", "PlayGameRow", "RoundRow", "utcnow"]


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class MatchRow(Base):
    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    edit_key_hash: Mapped[str] = mapped_column(String(64))
    share_key_hash: Mapped[str] = mapped_column(String(64))
    version: Mapped[int] = mapped_column(Integer)
    summary: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RoundRow(Base):
    __tablename__ = "rounds"

    match_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    document: Mapped[dict[str, Any]] = mapped_column(JSON)
    checked: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    detail: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PlayGameRow(Base):
    """A game played against the computer (:mod:`cardscore.web.play_store`).

    ``document`` holds the hidden cards (the deck): it never leaves the server; ``key_hash``
    is the hash of the secret half of the game's address, which alone lets a browser see or
    play the game.
    """

    __tablename__ = "play_games"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    key_hash: Mapped[str] = mapped_column(String(64))
    document: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer)
    over: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class DeckRow(Base):
    """What a match's photos taught recognition about its deck (:mod:`cardscore.web.decks`)."""

    __tablename__ = "match_decks"

    match_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    revision: Mapped[int] = mapped_column(Integer)
    format: Mapped[int] = mapped_column(Integer)  # the profile's file format version
    cards: Mapped[int] = mapped_column(Integer)  # cards with crops learnt (of 52)
    photos: Mapped[int] = mapped_column(Integer)  # photos that taught it, a spread counted
    spread: Mapped[bool] = mapped_column(Boolean)
    profile: Mapped[bytes] = mapped_column(LargeBinary)  # a .deck file
    memory: Mapped[bytes] = mapped_column(LargeBinary)  # the crops (learn.DeckMemory)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
