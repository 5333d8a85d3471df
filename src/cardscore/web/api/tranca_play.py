"""Play a Tranca round in the browser: the user at seat 1, the computer at every other seat.

The route only parses, calls :class:`~cardscore.tranca.game.TrancaState` and renders: the
legal moves, every refusal and its reason, the computer's moves and the score all come from the
library. The browser sees only seat 1's :meth:`~cardscore.tranca.game.TrancaState.observation`
(never another hand, the stock or the mortos).

Games are kept in this process's memory (:class:`PlayTables`), keyed by a random id: **one
worker holds a game**. Behind several workers or after a restart a game id is unknown (404),
which docs/web.md states. A game is small (the deck and its actions, the engine's JSON save).
"""

from __future__ import annotations

import random
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Path, Request
from pydantic import BaseModel, ConfigDict, Field

from cardscore.cards import Card, parse_cards
from cardscore.tranca.actions import Action, ActionKind, Move
from cardscore.tranca.game import NAMES, TrancaState, suit_sorted
from cardscore.tranca.players import Computer, computer, hint
from cardscore.tranca.rules import team_count
from cardscore.web.i18n import choose_language, translator
from cardscore.web.problems import PROBLEM_RESPONSES, ProblemError, _response

__all__ = ["PlayTables", "router"]

YOU = 0
MAX_GAMES = 500
"""Games kept at once; the one left alone longest is dropped first."""

_NOT_FOUND: dict[int | str, dict[str, Any]] = {
    404: _response(404, "There is no such game (finished long ago, or on another worker).")
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


@dataclass
class PlayGame:
    """One game being played: the engine's state, the computer players and what they did."""

    state: TrancaState
    bots: list[Computer]
    level: int
    log: list[Move] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class PlayTables:
    """The games of this process, by random id (one worker holds a game; see the module)."""

    def __init__(self, limit: int = MAX_GAMES) -> None:
        self.limit = limit
        self._games: OrderedDict[str, PlayGame] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, game: PlayGame) -> str:
        key = secrets.token_urlsafe(16)
        with self._lock:
            self._games[key] = game
            while len(self._games) > self.limit:
                self._games.popitem(last=False)
        return key

    def get(self, key: str, language: str = "en") -> PlayGame:
        with self._lock:
            game = self._games.get(key)
            if game is None:
                raise ProblemError(404, translator(language)("play.no_game", game=repr(key)))
            self._games.move_to_end(key)
            return game


TABLES = PlayTables()


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


def _computer_turns(game: PlayGame) -> None:
    state = game.state
    while not state.is_over and state.to_act != YOU:
        game.log.append(state.play(game.bots[state.to_act].choose(state)))


def _view(key: str, game: PlayGame, language: str, hinted: Action | None = None) -> dict[str, Any]:
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


@router.post("", status_code=201)
def new_game(request: Request, body: NewGameIn | None = None) -> dict[str, Any]:
    """Deal a new round: the user sits at seat 1, the computer plays the others (their moves
    up to the user's first turn are in ``log``). Only seat 1's view is answered."""
    body = body or NewGameIn(players=4, level=1, seed=None)
    language = _language(request)
    seed = body.seed if body.seed is not None else random.SystemRandom().randrange(2**31)
    names = list(NAMES[: body.players])
    names[YOU] = translator(language)("play.you")
    state = TrancaState(body.players, seed=seed, names=names)
    bots = [computer(body.level, seed=seed * 10 + s) for s in range(body.players)]
    game = PlayGame(state, bots, body.level)
    _computer_turns(game)
    key = TABLES.add(game)
    return _view(key, game, language)


GameId = Annotated[str, Path(max_length=64, description="The id a new game answered.")]


@router.get("/{game_id}", responses=_NOT_FOUND)
def game_state(request: Request, game_id: GameId) -> dict[str, Any]:
    """Seat 1's view of the game now."""
    language = _language(request)
    game = TABLES.get(game_id, language)
    with game.lock:  # not halfway through another request's moves
        return _view(game_id, game, language)


@router.post("/{game_id}/act", responses=_NOT_FOUND)
def act(request: Request, game_id: GameId, body: Annotated[ActIn, Body()]) -> dict[str, Any]:
    """Make seat 1's move (checked by the engine: a refused move changes nothing and its
    reasons come back as a 422 problem), then the computer's moves until seat 1's next turn.

    ``hint`` answers the engine's suggestion without moving; ``undo`` takes back seat 1's last
    move and the computer's moves after it. Once the round is over, every action is refused.
    """
    language = _language(request)
    t = translator(language)
    game = TABLES.get(game_id, language)
    with game.lock:
        state = game.state
        if state.is_over:
            raise ProblemError(422, t("play.round_over"))
        if body.action == "hint":
            if state.to_act != YOU:
                raise ProblemError(422, t("play.not_your_turn"))
            return _view(game_id, game, language, hint(state))
        if body.action == "undo":
            if not any(seat == YOU for seat, _ in state.history):
                raise ProblemError(422, t("play.no_undo"))
            while state.undo().seat != YOU:
                pass
            game.log = []
            return _view(game_id, game, language)
        # The engine's refusals are CardscoreErrors: a 422 problem naming every reason.
        move = state.play(Action(ActionKind(body.action), parse_cards(body.cards), body.meld))
        game.log = [move]
        _computer_turns(game)
        return _view(game_id, game, language)
