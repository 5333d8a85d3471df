"""Deck profiles: what the classifier learnt about one table's deck, in a small file.

A profile is a correction to each shipped classifier's last layer: for a crop with embedding
``e`` (the classifier's penultimate layer, its ONNX output ``embedding``) member ``m``'s
logits become ``logits + W_m @ e + b_m``. :mod:`cardscore.vision.learn` fits ``W_m`` and
``b_m`` in seconds from a deck's own index crops; while a profile is in use
(:func:`reading_with`), :func:`cardscore.vision.classifier.classify` applies it. A profile
is tied to the exact model files it was learnt on (their SHA-256): another model reads other
embeddings, so a profile that does not fit is refused, never silently misapplied.

The file is a NumPy ``.npz`` archive (no pickles) holding a JSON header (format, version,
the models' names and hashes, the number of crops learnt per card) and the arrays.

>>> import numpy as np
>>> p = DeckProfile(("a.onnx",), ("0" * 64,), (np.zeros((53, 4), np.float32),),
...                 (np.zeros(53, np.float32),), (0,) * 53, "test")
>>> p.adjust(0, np.ones((2, 53), np.float32), np.ones((2, 4), np.float32)).shape
(2, 53)
"""

from __future__ import annotations

import hashlib
import html
import io
import json
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from cardscore.cards import RANKS, SUITS, Card, Rank, Suit
from cardscore.errors import CardscoreError, Problem
from cardscore.vision.labels import CLASSES

__all__ = [
    "FORMAT",
    "MAX_BYTES",
    "VERSION",
    "DeckProfile",
    "DeckProfileError",
    "active_deck",
    "expected_bias",
    "expecting",
    "model_hash",
    "reading_with",
]

FORMAT = "cardscore-deck"
VERSION = 1
MAX_BYTES = 1 << 20  # a profile is small: one correction per class per member


_ORDER = (Rank.ACE, *RANKS[:-1])  # A, 2 … K: a deck spread's order


class DeckProfileError(CardscoreError):
    """A deck profile that cannot be used: not a profile, another version, another model."""


@lru_cache(maxsize=16)
def _hash(path: str, size: int, mtime: float) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def model_hash(path: Path) -> str:
    """The SHA-256 of a model file (cached while the file is unchanged)."""
    stat = path.stat()
    return _hash(str(path), stat.st_size, stat.st_mtime)


@dataclass(frozen=True, eq=False)
class DeckProfile:
    """Per-member last-layer corrections learnt from one deck's crops."""

    models: tuple[str, ...]  # the members' file names, in classify's order
    hashes: tuple[str, ...]  # their SHA-256
    weights: tuple[np.ndarray, ...]  # (53, embedding size) per member
    biases: tuple[np.ndarray, ...]  # (53,) per member
    examples: tuple[int, ...]  # index crops learnt per class (53; the last: background)
    name: str = ""

    def __repr__(self) -> str:
        cards = len(self.learnt)
        return f"<DeckProfile {self.name!r}: {cards} cards learnt, models {', '.join(self.models)}>"

    @property
    def learnt(self) -> tuple[Card, ...]:
        """The cards it learnt from crops of their own (the others only through their rank's
        and suit's share of the correction)."""
        return tuple(Card.from_id(i) for i, n in enumerate(self.examples[: CLASSES - 1]) if n)

    def grid(self) -> str:
        """Which cards it learnt, a row per suit (A to K; ``·``: not learnt).

        >>> import numpy as np
        >>> seen = [0] * 53
        >>> for card in ("As", "Ts", "Kh"):
        ...     seen[Card(card).id] = 4
        >>> p = DeckProfile(("a.onnx",), ("0" * 64,), (np.zeros((53, 4), np.float32),),
        ...                 (np.zeros(53, np.float32),), tuple(seen), "ours")
        >>> print(p.grid())
        ♠  A  ·  ·  ·  ·  ·  ·  ·  ·  10 ·  ·  ·
        ♥  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  K
        ♦  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
        ♣  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·
        """
        return "\n".join(
            f"{suit.symbol}  " + " ".join(f"{label or '·':<2}" for label in labels).rstrip()
            for suit, labels in self._rows()
        )

    def _repr_html_(self) -> str:
        rows = []
        for suit, labels in self._rows():
            colour = "#c81e1e" if suit.is_red else "#111827"
            cells = "".join(
                f'<td style="padding:2px 6px;color:{colour};background:#dcfce7">{label}</td>'
                if label
                else '<td style="padding:2px 6px;color:#9ca3af">·</td>'
                for label in labels
            )
            rows.append(f'<tr><th style="color:{colour}">{suit.symbol}</th>{cells}</tr>')
        title = html.escape(f"{self.name or 'deck'}: {len(self.learnt)} of 52 cards learnt")
        return f"<div><b>{title}</b><table>{''.join(rows)}</table></div>"

    def _rows(self) -> list[tuple[Suit, list[str | None]]]:
        """Per suit, A to K: each rank's label where its card was learnt, else None."""
        learnt = set(self.learnt)
        return [
            (suit, [rank.label if Card(rank, suit) in learnt else None for rank in _ORDER])
            for suit in SUITS
        ]

    def adjust(self, member: int, logits: np.ndarray, embedding: np.ndarray) -> np.ndarray:
        """Member ``member``'s logits (N, 53) corrected for this deck, from its embeddings."""
        out: np.ndarray = logits + embedding @ self.weights[member].T + self.biases[member]
        return out.astype(np.float32)

    def temper(self, probs: np.ndarray, shipped: np.ndarray) -> np.ndarray:
        """The corrected probabilities ``probs`` (N, 53), except where the correction moves a
        crop the shipped models (``shipped``: their probabilities) read as a card this deck
        never showed onto another class: there the two readings are averaged.

        What the deck showed says nothing of the cards it did not: a deck learnt from
        photos of queens but no jacks knows its queens, not where its jacks end. Averaged,
        neither reading is sure, so such a card is flagged instead of silently changed.

        >>> import numpy as np
        >>> seen = [0] * 53
        >>> seen[Card("Qs").id] = 4
        >>> p = DeckProfile(("a.onnx",), ("0" * 64,), (np.zeros((53, 4), np.float32),),
        ...                 (np.zeros(53, np.float32),), tuple(seen), "queens")
        >>> jack, queen = np.zeros((1, 53), np.float32), np.zeros((1, 53), np.float32)
        >>> jack[0, Card("Js").id], queen[0, Card("Qs").id] = 1.0, 1.0
        >>> [float(x) for x in p.temper(queen, jack)[0, [Card("Js").id, Card("Qs").id]]]
        [0.5, 0.5]
        >>> float(p.temper(jack, queen)[0, Card("Js").id])  # a queen moved: the deck knows
        1.0
        """
        unshown = np.append(np.array(self.examples[: CLASSES - 1]) == 0, False)
        was, now = shipped.argmax(axis=1), probs.argmax(axis=1)
        rows = unshown[was] & (now != was)
        if not rows.any():
            return probs
        out = probs.copy()
        out[rows] = (probs[rows] + shipped[rows]) / 2
        return out

    def check(self, paths: Sequence[Path]) -> None:
        """Raises :class:`DeckProfileError` unless ``paths`` are the models it was learnt on."""
        hashes = tuple(model_hash(p) for p in paths)
        if hashes != self.hashes:
            learnt = zip(self.models, self.hashes, strict=True)
            given = zip((p.name for p in paths), hashes, strict=True)
            raise DeckProfileError(
                Problem.of(
                    "deck_profile_models",
                    name=self.name,
                    learnt=", ".join(f"{n} ({h[:12]})" for n, h in learnt),
                    given=", ".join(f"{n} ({h[:12]})" for n, h in given),
                )
            )

    def to_bytes(self) -> bytes:
        """The profile's ``.deck`` file as bytes (a NumPy archive with a JSON header), to keep
        in a database; :meth:`save` writes exactly these bytes.

        >>> import numpy as np
        >>> p = DeckProfile(("a.onnx",), ("0" * 64,), (np.ones((53, 4), np.float32),),
        ...                 (np.zeros(53, np.float32),), (1,) * 53, "ours")
        >>> DeckProfile.from_bytes(p.to_bytes()).name, p.to_bytes() == p.to_bytes()
        ('ours', True)
        """
        header = {
            "format": FORMAT,
            "version": VERSION,
            "name": self.name,
            "models": list(self.models),
            "hashes": list(self.hashes),
            "examples": list(self.examples),
        }
        arrays = {"header": np.array(json.dumps(header))}
        for m, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"weight{m}"] = w.astype(np.float16)
            arrays[f"bias{m}"] = b.astype(np.float32)
        buffer = io.BytesIO()
        np.savez_compressed(buffer, **arrays)  # type: ignore[arg-type]
        return buffer.getvalue()

    def save(self, path: Path) -> None:
        """Writes the profile (``.deck``: :meth:`to_bytes`)."""
        path.write_bytes(self.to_bytes())

    @classmethod
    def load(cls, path: Path) -> DeckProfile:
        """Reads a profile written by :meth:`save`; a :class:`DeckProfileError` names what is
        wrong with any other file."""
        where = str(path)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise DeckProfileError(Problem.of("deck_profile_missing", path=where)) from None
        except OSError as error:
            raise DeckProfileError(
                Problem.of("deck_profile_unreadable", path=where, error=str(error))
            ) from None
        return cls.from_bytes(data, where)

    @classmethod
    def from_bytes(cls, data: bytes, where: str = "deck profile") -> DeckProfile:
        """Reads :meth:`to_bytes`' bytes; a :class:`DeckProfileError` (its problems placed at
        ``where``: the file's path, say) names what is wrong with any others."""
        if len(data) > MAX_BYTES:
            raise DeckProfileError(Problem.of("deck_profile_too_big", path=where))
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as archive:
                arrays = {k: archive[k] for k in archive.files}
            header = json.loads(str(arrays["header"]))
        except (zipfile.BadZipFile, ValueError, KeyError, OSError, EOFError):
            raise DeckProfileError(Problem.of("not_a_deck_profile", path=where)) from None
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise DeckProfileError(Problem.of("deck_profile_header", path=where, header=FORMAT))
        if header.get("version") != VERSION:
            version = repr(header.get("version"))
            raise DeckProfileError(
                Problem.of("deck_profile_version", path=where, version=version, known=VERSION)
            )
        problems = _shape_problems(where, header, arrays)
        if problems:
            raise DeckProfileError(problems)
        n = len(header["models"])
        return cls(
            tuple(header["models"]),
            tuple(header["hashes"]),
            tuple(arrays[f"weight{m}"].astype(np.float32) for m in range(n)),
            tuple(arrays[f"bias{m}"].astype(np.float32) for m in range(n)),
            tuple(int(k) for k in header["examples"]),
            str(header.get("name", "")),
        )


def _shape_problems(
    where: str, header: dict[str, object], arrays: dict[str, np.ndarray]
) -> list[Problem]:
    models, hashes, examples = header.get("models"), header.get("hashes"), header.get("examples")
    if not (isinstance(models, list) and isinstance(hashes, list) and len(models) == len(hashes)):
        return [Problem.of("deck_profile_hashes", path=where)]
    if not isinstance(examples, list) or len(examples) != CLASSES:
        return [Problem.of("deck_profile_counts", path=where, classes=CLASSES)]
    problems = []
    for m in range(len(models)):
        w, b = arrays.get(f"weight{m}"), arrays.get(f"bias{m}")
        if w is None or b is None or w.ndim != 2 or w.shape[0] != CLASSES or b.shape != (CLASSES,):
            problems.append(Problem.of("deck_profile_damaged", path=where, member=m))
        elif not (np.isfinite(w).all() and np.isfinite(b).all()):
            problems.append(Problem.of("deck_profile_not_finite", path=where, member=m))
    return problems


_ACTIVE: ContextVar[DeckProfile | None] = ContextVar("cardscore_deck", default=None)


def active_deck() -> DeckProfile | None:
    """The profile :func:`reading_with` put in use here, if any."""
    return _ACTIVE.get()


@contextmanager
def reading_with(deck: DeckProfile | None) -> Iterator[None]:
    """Every classification in this block (this thread or task) uses ``deck``.

    A context rather than an argument: the crops of one photo are classified in several
    stages, which all read with the same deck.
    """
    token = _ACTIVE.set(deck)
    try:
        yield
    finally:
        _ACTIVE.reset(token)


# A card the labels rule out loses this much of its logit: e^-30 leaves it no chance.
RULED_OUT = 30.0
_EXPECTED: ContextVar[np.ndarray | None] = ContextVar("cardscore_expected", default=None)


def expected_bias() -> np.ndarray | None:
    """The (53,) logit bias :func:`expecting` put in use here, if any."""
    return _EXPECTED.get()


@contextmanager
def expecting(cards: Iterable[Card]) -> Iterator[None]:
    """Every classification in this block reads only ``cards`` (or "no index").

    For learning from a labelled photo: knowing which cards lie on the table, the reader
    need only tell them apart, so an index the models read between two cards of the same
    rank is settled by the labels, and its crop can be learnt as the card it is.

    >>> from cardscore.cards import parse_cards
    >>> with expecting(parse_cards("7c 8c")):
    ...     bias = expected_bias()
    >>> [i for i, b in enumerate(bias) if b == 0] == sorted(c.id for c in parse_cards("7c 8c")) + [52]
    True
    """
    bias = np.full(CLASSES, -RULED_OUT, np.float32)
    bias[[c.id for c in cards]] = 0.0
    bias[CLASSES - 1] = 0.0
    token = _EXPECTED.set(bias)
    try:
        yield
    finally:
        _EXPECTED.reset(token)
