"""Score a checked round: every team's terms, each with its reason, adding up to its total.

Terms, in the order people read them (their names are the JSON keys):

``table_cards``
    the value of every card in the melds and piles (A 15, 8–K 10, 4–7 5, 2 10);
``clean_canastras`` / ``dirty_canastras`` / ``twos_canastras``
    +200 / +100 / +1,000 for each canastra (one line per canastra);
``dollar_cards``
    +5 for each red 3, as a card;
``dollar_bonus``
    +100 for each red 3 with a canastra, −100 without one;
``morto``
    −100 if the team never took its morto;
``final_move``
    +100 for the team that went out;
``hand_cards``
    minus the value of the cards left in hand;
``trancas``
    −100 for each black 3 left in hand (instead of its card value).

>>> from cardscore.tranca.round import parse_round
>>> score = score_round(parse_round({"players": 2, "teams": [
...     {"name": "Ana", "melds": [["Kh", "Kd", "Ks", "Kc", "Kh", "Kd", "Ks"]],
...      "dollars": ["3d"], "took_morto": True, "went_out": True},
...     {"name": "Bia", "melds": [["5c", "6c", "7c"]], "hand": ["3s", "Ah"],
...      "took_morto": False, "went_out": False}]}))
>>> print(score.teams[0].breakdown.to_text())
table_cards       70  7 cards: 1 meld
clean_canastras  200  K♠ K♠ K♥ K♥ K♦ K♦ K♣
dollar_cards       5  3♦
dollar_bonus     100  1 dollar × +100 with a canastra
morto              0  taken
final_move       100  went out
hand_cards         0
trancas            0
total            475
>>> [(team.name, team.total) for team in score.teams]
[('Ana', 475), ('Bia', -200)]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from cardscore.breakdown import Breakdown, Term
from cardscore.cards import Card
from cardscore.tranca.melds import CanastraKind, Meld, card_order
from cardscore.tranca.piles import Pile
from cardscore.tranca.round import Round
from cardscore.tranca.rules import DOLLAR, FINAL_MOVE, MORTO, TRANCA, card_points
from cardscore.tranca.tally import TallyRound, TallyTeam
from cardscore.tranca.teams import TeamRound

__all__ = ["TERMS", "RoundScore", "TeamScore", "score_round", "score_team"]

TERMS = (
    "table_cards",
    "clean_canastras",
    "dirty_canastras",
    "twos_canastras",
    "dollar_cards",
    "dollar_bonus",
    "morto",
    "final_move",
    "hand_cards",
    "trancas",
)
"""Every term's name, in order: the keys of each team in ``--json``."""

_CANASTRA_TERM = {
    CanastraKind.CLEAN: "clean_canastras",
    CanastraKind.DIRTY: "dirty_canastras",
    CanastraKind.TWOS: "twos_canastras",
}


@dataclass(frozen=True, slots=True)
class TeamScore:
    """One team's score for a round: its terms (a :class:`Breakdown`) and their total."""

    name: str
    breakdown: Breakdown

    @property
    def total(self) -> int:
        return self.breakdown.total

    def as_dict(self) -> dict[str, Any]:
        """``{"name", "total", "terms"}``, the terms in :data:`TERMS` order."""
        return {"name": self.name, **self.breakdown.as_dict()}

    def _repr_html_(self) -> str:
        return f"<h4>{self.name}</h4>" + self.breakdown._repr_html_()


@dataclass(frozen=True, slots=True)
class RoundScore:
    """Every team's score for a round, in the round's team order."""

    teams: tuple[TeamScore, ...]

    @property
    def totals(self) -> dict[str, int]:
        return {team.name: team.total for team in self.teams}

    def __getitem__(self, name: str) -> TeamScore:
        for team in self.teams:
            if team.name == name:
                return team
        raise KeyError(name)

    def as_dict(self) -> dict[str, Any]:
        """What ``cardscore tranca score --json`` prints."""
        return {"teams": [team.as_dict() for team in self.teams]}

    def _repr_html_(self) -> str:
        return "".join(team._repr_html_() for team in self.teams)


def _sum_points(cards: Iterable[Card]) -> int:
    return sum(card_points(card) for card in cards)


def _table_detail(melds: tuple[Meld, ...], piles: tuple[Pile, ...]) -> str:
    count = sum(m.size for m in melds) + sum(p.size for p in piles)
    if not count:
        return ""
    parts = []
    if melds:
        parts.append(f"{len(melds)} meld" + ("s" if len(melds) > 1 else ""))
    if piles:
        parts.append(f"{len(piles)} pile" + ("s" if len(piles) > 1 else ""))
    return f"{count} card{'s' if count > 1 else ''}: {', '.join(parts)}"


def _canastra(kind: CanastraKind, detail: str = "", cards: tuple[Card, ...] = ()) -> Term:
    return Term(_CANASTRA_TERM[kind], kind.bonus, detail, cards)


def _dollar_bonus(n: int, has_canastra: bool) -> Term:
    if not n:
        return Term("dollar_bonus", 0)
    if has_canastra:
        return Term("dollar_bonus", DOLLAR * n, f"{_dollars(n)} × +100 with a canastra")
    return Term("dollar_bonus", -DOLLAR * n, f"{_dollars(n)} × −100 without a canastra")


def _morto(took_morto: bool) -> Term:
    return Term("morto", 0, "taken") if took_morto else Term("morto", MORTO, "never taken")


def _final_move(went_out: bool) -> Term:
    return Term("final_move", FINAL_MOVE, "went out") if went_out else Term("final_move", 0)


def score_team(team: TeamRound | TallyTeam) -> TeamScore:
    """One team's terms; the team's side is taken as valid (``Round`` checks it)."""
    if isinstance(team, TallyTeam):
        return _score_tally(team)
    terms = [
        Term(
            "table_cards",
            sum(m.card_points for m in team.melds) + sum(p.card_points for p in team.piles),
            _table_detail(team.melds, team.piles),
        )
    ]
    canastras = team.canastras
    for canastra in canastras:
        kind = canastra.canastra
        assert kind is not None  # canastras only holds melds with a kind, and piles
        if isinstance(canastra, Pile):
            terms.append(_canastra(kind, str(canastra)))
        else:
            terms.append(_canastra(kind, cards=canastra.cards))
    dollars = team.dollars
    terms.append(Term("dollar_cards", _sum_points(dollars), cards=_sorted(dollars)))
    terms.append(_dollar_bonus(len(dollars), bool(canastras)))
    terms.append(_morto(team.took_morto))
    terms.append(_final_move(team.went_out))
    held = team.hand_cards
    terms.append(Term("hand_cards", -_sum_points(held), cards=_sorted(held)))
    trancas = team.trancas
    terms.append(Term("trancas", TRANCA * len(trancas), cards=_sorted(trancas)))
    return TeamScore(team.name, Breakdown(tuple(terms)))


_RED_THREE = card_points(Card("3h"))


def _score_tally(team: TallyTeam) -> TeamScore:
    """The same terms from a team's numbers: one line per canastra, as for cards."""
    terms = [Term("table_cards", team.table_points)]
    terms.extend(_canastra(kind) for kind in team.canastra_kinds())
    terms.append(Term("dollar_cards", _RED_THREE * team.dollars))
    terms.append(_dollar_bonus(team.dollars, team.has_canastra))
    terms.append(_morto(team.took_morto))
    terms.append(_final_move(team.went_out))
    terms.append(Term("hand_cards", -team.hand_points))
    terms.append(Term("trancas", TRANCA * team.trancas))
    return TeamScore(team.name, Breakdown(tuple(terms)))


def _sorted(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=card_order))


def _dollars(n: int) -> str:
    return f"{n} dollar" + ("s" if n > 1 else "")


def score_round(round_: Round | TallyRound) -> RoundScore:
    """Score every team of a checked round, card by card or tally (quick entry).

    The seed's sample made legal (see the tests) scores 410:

    >>> from cardscore.tranca.round import parse_round
    >>> side = {"name": "Us", "melds": [["4h", "5h", "6h", "7h", "8h", "9h", "2c"],
    ...         ["4s", "5s", "6s", "7s", "8s", "9s"], ["5c", "6c", "7c", "8c", "9c", "2d"]],
    ...         "dollars": ["3h", "3d", "3h"], "hand": ["As", "2d", "9h", "3c", "7d"],
    ...         "took_morto": False, "went_out": True}
    >>> them = {"name": "Them", "took_morto": True, "went_out": False}
    >>> score_round(parse_round({"players": 4, "teams": [side, them]}))["Us"].total
    410
    """
    return RoundScore(tuple(score_team(team) for team in round_.teams))
