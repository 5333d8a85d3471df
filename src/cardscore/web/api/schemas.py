"""Request and response bodies of the JSON API."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from cardscore.limits import MAX_PILE_TEXT

__all__ = [
    "TRANCA_ROUND_EXAMPLE",
    "CrossKingsMatchIn",
    "CrossKingsMoveIn",
    "GongzhuHandIn",
    "GongzhuMatchIn",
    "GongzhuRoundIn",
    "GongzhuRulesIn",
    "MatchCreated",
    "MatchOut",
    "PhotoOut",
    "RoundOut",
    "RoundWrite",
    "SavedOut",
    "StandingsIn",
    "StandingsOut",
    "TeamIn",
    "TrancaMatchIn",
    "TrancaRoundIn",
    "VersionIn",
]

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40)]

TRANCA_ROUND_EXAMPLE: dict[str, Any] = {
    "players": 4,
    "teams": [
        {
            "name": "Ana & Bia",
            "melds": [["4H", "5H", "6H", "7H", "8H", "9H", "2C"], ["KS", "KD", "KH"]],
            "piles": [{"pile": "A", "clean": False, "cards": 7}],
            "dollars": ["3H"],
            "hand": ["AS", "3C"],
            "took_morto": True,
            "went_out": False,
        }
    ],
}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class TeamIn(_Strict):
    name: Name
    players: list[Name] = Field(default_factory=list, max_length=3)


class TrancaMatchIn(_Strict):
    """A Tranca match: 2 or 3 play alone, 4 in two pairs, 6 in two trios."""

    game: Literal["tranca"]
    players: Literal[2, 3, 4, 6]
    teams: list[TeamIn] = Field(min_length=2, max_length=3)
    target: int | None = Field(
        None,
        ge=100,
        le=100_000,
        description="Points that end the match (3,500 / 5,000 by default).",
    )


class GongzhuRulesIn(_Strict):
    pig_plus_with_all_hearts: bool = False
    low_hearts_count_for_doubler: bool = False


class GongzhuMatchIn(_Strict):
    """A Gong Zhu match: four players, until someone reaches the losing limit."""

    game: Literal["gongzhu"]
    players: list[Name] = Field(min_length=4, max_length=4)
    limit: int = Field(-1000, ge=-100_000, le=-1)
    rules: GongzhuRulesIn = Field(default_factory=GongzhuRulesIn)


class CrossKingsMatchIn(_Strict):
    """A game of Cross Kings against the computer (you are player 1)."""

    game: Literal["crosskings"]
    level: int = Field(2, ge=0, le=4, description="0 random … 4 four seconds of search a move.")
    seed: int | None = Field(None, ge=0, le=2**31 - 1, description="Repeat a deal.")


class TrancaRoundIn(BaseModel):
    """A Tranca round: the ``cardscore tranca score`` JSON (each team's melds, closed piles,
    dollars, hand, morto and going out), or a quick entry with ``"tally": true`` (each team's
    numbers: table_points, clean/dirty/twos_canastras, dollars, trancas, hand_points, took_morto,
    went_out). The match checks every field and names what is wrong."""

    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [TRANCA_ROUND_EXAMPLE]})
    teams: list[dict[str, Any]]


class GongzhuRoundIn(_Strict):
    """A Gong Zhu hand: the four players' piles, in the match's order."""

    piles: list[Annotated[str, StringConstraints(max_length=MAX_PILE_TEXT)]] = Field(
        min_length=4, max_length=4
    )
    notation: Literal["pile", "cards"] = "pile"


class CrossKingsMoveIn(_Strict):
    """A Cross Kings move: the cell the player takes (the computer answers at once)."""

    move: str = Field(examples=["d3"])


class MatchCreated(BaseModel):
    id: str
    game: str
    version: int
    edit_key: str = Field(description="Secret: whoever has it can change the match.")
    share_key: str = Field(description="Read-only key to share with the table.")
    edit_url: str
    share_url: str


class RoundWrite(_Strict):
    version: int = Field(ge=1, le=2**31, description="The match version the client last saw.")
    round: dict[str, Any] = Field(
        description="The round document, in the match's game's own shape (below); the game "
        "checks it and names every problem."
    )


class VersionIn(_Strict):
    version: int = Field(ge=1, le=2**31)


Token = Annotated[str, StringConstraints(min_length=1, max_length=128)]


class MatchKey(_Strict):
    id: Token
    key: Token = Field(description="The match's edit key or share key.")


class StandingsIn(_Strict):
    matches: list[MatchKey] = Field(
        max_length=100, description="The matches to count, each with a key that opens it."
    )


class StandingsOut(BaseModel):
    games: list[dict[str, Any]] = Field(
        description="Per game: `matches`, `finished`, and `sides` (teams or players: `played`, "
        "`won`, `rounds`, `rounds_won`) and, for teams, `players` (the same, a player winning "
        "what their team wins), ranked by matches won."
    )
    skipped: list[str] = Field(
        description="Matches not counted: no such match, or the key does not open it."
    )


class RoundOut(BaseModel):
    number: int
    document: dict[str, Any]
    points: list[int]
    totals: list[int]
    detail: dict[str, Any]


class MatchOut(BaseModel):
    id: str
    game: str
    version: int
    access: Literal["edit", "read"]
    config: dict[str, Any]
    sides: list[str] = Field(description="Teams or players, in the match's order.")
    rounds: list[RoundOut]
    totals: list[int]
    leader: str | None
    winner: str | None
    over: bool
    target: int
    stats: dict[str, Any]


class SavedOut(BaseModel):
    """What a change did, without the rest of the match (``Prefer: return=minimal``)."""

    id: str
    game: str
    version: int
    sides: list[str]
    rounds: list[RoundOut] = Field(
        description="The rounds the change added or replaced and every round after them (their "
        "totals moved); empty after an undo."
    )
    totals: list[int]
    leader: str | None
    winner: str | None
    over: bool


class GongzhuHandIn(GongzhuRoundIn):
    rules: GongzhuRulesIn = Field(default_factory=GongzhuRulesIn)


class PhotoOut(BaseModel):
    format: str
    width: int
    height: int
    recognized: dict[str, Any] | None = Field(
        None, description="What recognition read (absent when recognition is not installed)."
    )
