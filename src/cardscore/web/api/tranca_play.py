"""Play a Tranca round in the browser: the user at seat 1, the computer at every other seat.

The route only parses, calls :class:`~cardscore.tranca.game.TrancaState` and renders: the
legal moves, every refusal and its reason, the computer's moves and the score all come from the
library. The browser sees only seat 1's :meth:`~cardscore.tranca.game.TrancaState.observation`
(never another hand, the stock or the mortos).

Games are kept in the database (:class:`~cardscore.web.play_store.PlayStore`), as the
engine's record of the whole game (the deck and every action: a few kB) which
:meth:`~cardscore.tranca.game.TrancaState.from_dict` replays exactly, so any server process
goes on with any game and a restart loses none. A move reads the game at its version, replays
it, makes the move and the computer's answers, and stores the result only if the game is still
at that version: of two moves at once, one is played and the other gets a 409 (``version``,
sent by the page, also refuses a move made on a view that is no longer current).

The computer's choices depend only on the game: a computer player is made afresh for each move,
seeded by the deal's seed and the move's number (what it draws at random is the same whichever
process plays it, and after an undo).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Path, Request
from pydantic import BaseModel, ConfigDict, Field

from cardscore.cards import Card, parse_cards
from cardscore.tranca.actions import Action, ActionKind, Move
from cardscore.tranca.game import NAMES, TrancaState, suit_sorted
from cardscore.tranca.players import Computer, computer, hint
from cardscore.tranca.rules import team_count
from cardscore.web.i18n import choose_language, translator
from cardscore.web.play_store import PlayConflictError, PlayStore, StoredGame, UnknownGameError
from cardscore.web.problems import PROBLEM_RESPONSES, ProblemError, _response

__all__ = ["FORMAT", "PlayGame", "router"]

YOU = 0
FORMAT = 1
"""Version of the stored document's layout (the engine's save has its own)."""
GAME = "tranca"

_NOT_FOUND: dict[int | str, dict[str, Any]] = {
    404: _response(404, "There is no such game (never dealt, or deleted after long unplayed).")
}
_CONFLICT: dict[int | str, dict[str, Any]] = {
    409: _response(409, "The game changed since the view the move was made on; nothing was done.")
}
router = APIRouter(prefix="/tranca/play", responses=PROBLEM_RESPONSES, tags=["play"])


class NewGameIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    players: Literal[2, 4] = 4
    level: int = Field(1, ge=0, le=2, description="0 random, 1 greedy, 2 planner.")
    seed: int | None = Field(None, ge=0, le=2**31, description="Deal seed, for a repeatable game.")


class ActIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: Literal["draw", "take", "meld", "add", "discard", "hint", "undo"]
    cards: list[Annotated[str, Field(max_length=8)]] = Field(default_factory=list, max_length=24)
    meld: int | None = Field(
        None, ge=0, le=60, description="The team's meld (0-based) for add, or take onto it."
    )
    version: int | None = Field(
        None, ge=1, description="The view's version: refused (409) if the game has moved on."
    )


@dataclass
class PlayGame:
    """One game being played: the engine's state, the computer's level, and where the moves
    to show begin (``log_from``: the index in the history of the user's last move).

    Its document replays to the same game:

    >>> game = PlayGame(TrancaState(2, seed=1), level=0)
    >>> game.log_from = len(game.state.history)
    >>> game.state.draw().seat
    0
    >>> again = PlayGame.from_document(game.document())
    >>> again.state.state_dict() == game.state.state_dict(), [m.action.notation for m in again.log]
    (True, ['draw'])
    """

    state: TrancaState
    level: int
    log_from: int = 0

    @property
    def log(self) -> list[Move]:
        return self.state.moves[self.log_from :]

    def document(self) -> dict[str, Any]:
        """What the database keeps: the engine's record of the whole game and the above.
        It holds every hidden card: it never goes into an answer."""
        return {
            "format": FORMAT,
            "level": self.level,
            "log_from": self.log_from,
            "game": self.state.as_dict(),
        }

    @classmethod
    def from_document(cls, document: dict[str, Any]) -> PlayGame:
        """The game replayed from its record (every action checked again)."""
        return cls(TrancaState.from_dict(document["game"]), document["level"], document["log_from"])


def _store(request: Request) -> PlayStore:
    store: PlayStore = request.app.state.play_store
    return store


def _codes(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    return [card.code for card in cards]


def _describe(state: TrancaState, move: Move, t: Any) -> str:
    """One line per move as seat 1 may see it (the others' drawn cards stay hidden)."""
    who = state.names[move.seat]
    action = move.action
    cards = " ".join(str(c) for c in action.cards)
    meld = "" if action.meld is None else str(action.meld + 1)
    key = f"play.{action.kind.value}"
    if action.kind is ActionKind.DRAW and move.seat == YOU and move.received:
        key, cards = "play.draw_card", " ".join(str(c) for c in move.received)
    text: str = t(key).format(who=who, cards=cards, meld=meld)
    if move.dollars:
        text += "; " + t("play.dollars").format(cards=" ".join(str(c) for c in move.dollars))
    if move.took_morto:
        text += "; " + t("play.morto")
    if move.went_out:
        text += "; " + t("play.out")
    return text


def _bot(game: PlayGame) -> Computer:
    """The computer player for the move now: seeded by the deal and the move's number."""
    seed = ((game.state.seed or 0) << 16) + len(game.state.history)
    return computer(game.level, seed=seed)


def _computer_turns(game: PlayGame) -> None:
    state = game.state
    while not state.is_over and state.to_act != YOU:
        state.play(_bot(game).choose(state))


def _view(
    key: str, version: int, game: PlayGame, language: str, hinted: Action | None = None
) -> dict[str, Any]:
    """What seat 1 may see, the moves it may make now, and the score once the round is over."""
    from cardscore.web.games.tranca import score_document
    from cardscore.web.i18n.text import with_details

    state = game.state
    t = translator(language)
    seen = state.observation(YOU)
    yours = state.to_act == YOU and not state.is_over
    kinds = {action.kind.value for action in state.legal_actions()} if yours else set()
    view: dict[str, Any] = {
        "id": key,
        "version": version,
        "players": state.players,
        "level": game.level,
        "names": list(state.names),
        "phase": seen.phase.value,
        "to_act": seen.to_act,
        "over": state.is_over,
        "hand": _codes(suit_sorted(seen.hand)),
        "hand_sizes": list(seen.hand_sizes),
        "teams": [
            {
                "name": state.team_name(team),
                "melds": [_codes(meld.cards) for meld in seen.melds[team]],
                "dollars": _codes(seen.dollars[team]),
                "took_morto": seen.took_morto[team],
            }
            for team in range(state.teams)
        ],
        "top": seen.top.code if seen.top is not None else None,
        "pile": len(seen.pile),
        "stock": seen.stock,
        "mortos": seen.mortos,
        "actions": sorted(kinds),
        "can_undo": not state.is_over and any(seat == YOU for seat, _ in state.history),
        "log": [_describe(state, move, t) for move in game.log],
        "hint": None if hinted is None else hinted.notation,
        "result": None,
    }
    if state.is_over:
        round_ = state.round_dict()
        scored = with_details(score_document(round_), language)
        teams = team_count(state.players)
        view["result"] = {
            **scored,
            "round": round_,
            "match": {
                "game": "tranca",
                "players": state.players,
                "teams": [
                    {"name": state.team_name(team), "players": list(state.names[team::teams])}
                    for team in range(teams)
                ],
            },
        }
    return view


def _language(request: Request) -> str:
    return choose_language(request.headers.get("accept-language"))


def _load(request: Request, token: str, language: str) -> tuple[StoredGame, PlayGame]:
    try:
        stored = _store(request).load(token)
    except UnknownGameError:
        raise ProblemError(
            404, translator(language)("play.no_game", game=repr(token)), "not-found"
        ) from None
    return stored, PlayGame.from_document(stored.document)


def _conflict(language: str, current: int | None) -> ProblemError:
    return ProblemError(
        409, translator(language)("play.conflict"), "play-conflict", current_version=current
    )


@router.post("", status_code=201)
def new_game(request: Request, body: NewGameIn | None = None) -> dict[str, Any]:
    """Deal a new round: the user sits at seat 1, the computer plays the others (their moves
    up to the user's first turn are in ``log``). Only seat 1's view is answered; ``id`` is the
    game's address (keep it: it alone opens the game)."""
    body = body or NewGameIn(players=4, level=1, seed=None)
    language = _language(request)
    seed = body.seed if body.seed is not None else random.SystemRandom().randrange(2**31)
    names = list(NAMES[: body.players])
    names[YOU] = translator(language)("play.you")
    game = PlayGame(TrancaState(body.players, seed=seed, names=names), body.level)
    _computer_turns(game)
    key = _store(request).create(GAME, game.document(), over=game.state.is_over)
    return _view(key, 1, game, language)


GameId = Annotated[str, Path(max_length=64, description="The id a new game answered.")]


@router.get("/{game_id}", responses=_NOT_FOUND)
def game_state(request: Request, game_id: GameId) -> dict[str, Any]:
    """Seat 1's view of the game now."""
    language = _language(request)
    stored, game = _load(request, game_id, language)
    return _view(game_id, stored.version, game, language)


@router.post("/{game_id}/act", responses={**_NOT_FOUND, **_CONFLICT})
def act(request: Request, game_id: GameId, body: Annotated[ActIn, Body()]) -> dict[str, Any]:
    """Make seat 1's move (checked by the engine: a refused move changes nothing and its
    reasons come back as a 422 problem), then the computer's moves until seat 1's next turn.

    ``hint`` answers the engine's suggestion without moving; ``undo`` takes back seat 1's last
    move and the computer's moves after it. Once the round is over, every action is refused.
    With ``version`` (the view's), a move on a game that has moved on since is refused (409);
    of two moves at once on one game, one is played and the other refused the same way.
    """
    language = _language(request)
    t = translator(language)
    stored, game = _load(request, game_id, language)
    if body.version is not None and body.version != stored.version:
        raise _conflict(language, stored.version)
    state = game.state
    if state.is_over:
        raise ProblemError(422, t("play.round_over"))
    if body.action == "hint":
        if state.to_act != YOU:
            raise ProblemError(422, t("play.not_your_turn"))
        return _view(game_id, stored.version, game, language, hint(state))
    if body.action == "undo":
        if not any(seat == YOU for seat, _ in state.history):
            raise ProblemError(422, t("play.no_undo"))
        while state.undo().seat != YOU:
            pass
        game.log_from = len(state.history)
    else:
        # The engine's refusals are CardscoreErrors: a 422 problem naming every reason.
        game.log_from = len(state.history)
        state.play(Action(ActionKind(body.action), parse_cards(body.cards), body.meld))
        _computer_turns(game)
    try:
        saved = _store(request).save(stored, game.document(), over=state.is_over)
    except PlayConflictError as conflict:
        raise _conflict(language, conflict.current) from None
    return _view(game_id, saved.version, game, language)
