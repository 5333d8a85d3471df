"""The public names of every package (its ``__all__``): one appearing or disappearing fails here,
so a change to the API is a decision written down in this list, not an accident (as httpx does)."""

from __future__ import annotations

import ast
import importlib

import pytest

from tests.conftest import ROOT

PUBLIC = {
    "cardscore": [
        "Breakdown",
        "Card",
        "CardscoreError",
        "Deck",
        "DeckExhaustedError",
        "IllegalMoveError",
        "ImpossibleTableError",
        "InvalidCardError",
        "InvalidNotationError",
        "Problem",
        "Rank",
        "Suit",
        "Term",
        "__version__",
        "check_decks",
        "games",
        "get_game",
        "parse_card",
        "parse_cards",
    ],
    "cardscore.breakdown": ["Breakdown", "Term"],
    "cardscore.cards": [
        "Card",
        "Deck",
        "Rank",
        "Suit",
        "check_decks",
        "count_over",
        "full_deck",
        "parse_card",
        "parse_cards",
    ],
    "cardscore.cli": ["cli", "main"],
    "cardscore.crosskings": [
        "Analysis",
        "Board",
        "Bot",
        "CENTRE",
        "FACE_DOWN",
        "Game",
        "Hand",
        "HandScore",
        "LEVELS",
        "Move",
        "MoveEvaluation",
        "SearchResult",
        "analyse",
        "cell_index",
        "cell_name",
        "explain",
        "parse_cards",
        "score",
        "search",
    ],
    "cardscore.errors": [
        "CardscoreError",
        "DeckExhaustedError",
        "IllegalMoveError",
        "ImpossibleTableError",
        "InvalidCardError",
        "InvalidNotationError",
        "Problem",
        "catalogue",
        "check_level",
        "translate",
    ],
    "cardscore.gongzhu": [
        "DOUBLER",
        "GOAT",
        "HandResult",
        "Match",
        "PIG",
        "PileScore",
        "Rules",
        "format_pile",
        "parse_pile",
        "parse_piles",
        "score_hand",
        "score_pile",
    ],
    "cardscore.matches": ["JsonMatch", "Match", "sole_leader"],
    "cardscore.poker": [
        "Action",
        "ActionKind",
        "Bot",
        "Category",
        "Dealer",
        "DrawOdds",
        "EquityResult",
        "HandRank",
        "HandResult",
        "HandTracker",
        "Limit",
        "Phase",
        "Pot",
        "Rules",
        "Showdown",
        "all_hands",
        "allow_discards",
        "best_discard",
        "best_five",
        "compare",
        "draw_equity",
        "draw_odds",
        "evaluate",
        "hand_tables",
        "holdem_equity",
        "parse_range",
        "play_hand",
        "rank",
        "rank_batch",
        "rank_ids",
        "showdown",
        "winners",
    ],
    "cardscore.registry": [
        "Game",
        "UnknownGameError",
        "Web",
        "folder",
        "games",
        "get_game",
        "load",
        "register",
        "unregister",
    ],
    "cardscore.tranca": [
        "CanastraKind",
        "InvalidMeldError",
        "InvalidRoundError",
        "Match",
        "MatchStats",
        "Meld",
        "MeldKind",
        "Pile",
        "PlayRules",
        "PlayerStats",
        "Round",
        "RoundRecord",
        "RoundScore",
        "TERMS",
        "TallyRound",
        "TallyTeam",
        "Team",
        "TeamRound",
        "TeamScore",
        "TeamStats",
        "TrancaRules",
        "TrancaState",
        "card_points",
        "computer",
        "meld_problems",
        "parse_round",
        "parse_tally",
        "read_round",
        "score_round",
    ],
    "cardscore.vision": [
        "ChannelOrderWarning",
        "Group",
        "ImageError",
        "Recognition",
        "SeenCard",
        "recognize",
    ],
    "cardscore.web": ["create_app"],
}


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_public_names_are_the_listed_ones(name: str) -> None:
    module = importlib.import_module(name)
    assert sorted(module.__all__) == PUBLIC[name]
    assert len(set(module.__all__)) == len(module.__all__)
    for public in module.__all__:
        assert hasattr(module, public), f"{name}.__all__ names {public}, which it lacks"


def _imported(tree: ast.AST) -> list[str]:
    """The absolute module names a module's source imports."""
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


def test_the_package_never_imports_the_training_code() -> None:
    """``train/`` (``python -m train`` in a checkout) is not in the wheel: nothing installed
    may need it. The training code imports the package, never the other way round."""
    sources = sorted((ROOT / "src" / "cardscore").rglob("*.py"))
    assert len(sources) > 50
    for path in sources:
        names = _imported(ast.parse(path.read_text(encoding="utf-8")))
        assert not [n for n in names if n.split(".")[0] == "train"], path
    # The check sees the training code's own imports of the package.
    assert "cardscore.tranca.players" in _imported(
        ast.parse((ROOT / "train/played.py").read_text(encoding="utf-8"))
    )
