"""What each golden file under ``tests/golden`` holds, made fresh from the code.

Tests compare each maker's output with the committed file and never write it: after a
deliberate change, ``scripts/update-goldens`` rewrites the files and prints the diff to review
and commit with the change.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"


def poker_side_pots() -> str:
    """Four computer players, three pots: the hand's history as JSON."""
    from cardscore.poker.bots import Bot, play_hand
    from cardscore.poker.dealer import Dealer

    dealer = Dealer(["Ann", "Bo", "Cy", "Di"], stacks=[20, 50, 100, 200], seed=18)
    play_hand(dealer, [Bot(seed=180 + i, aggression=0.9) for i in range(4)])
    return dealer.history_json() + "\n"


def crosskings_board() -> str:
    """A Cross Kings board with 10 cards left, analysed."""
    from cardscore.crosskings import Board, analyse
    from tests.crosskings_reference import position_after

    game = position_after(7, 10)
    return Board(game, analyse(game)).svg()


def web_totals_chart() -> str:
    from cardscore.web.charts import totals_chart

    return (
        totals_chart(["Ana & Bia", "Caio & Duda"], [[410, -175], [785, -175], [760, 200]], 1000)
        + "\n"
    )


def web_tranca_match() -> str:
    """A Tranca match of three rounds as the API answers it (its random id left out)."""
    from fastapi.testclient import TestClient

    from cardscore.web.app import create_app
    from cardscore.web.settings import Settings
    from tests.web.conftest import bearer, sqlite_url
    from tests.web.test_tranca_web import MATCH, QUIET, SEED_TEAM, winning_round

    with (
        tempfile.TemporaryDirectory() as folder,
        TestClient(create_app(Settings(database_url=sqlite_url(Path(folder))))) as client,
    ):
        match = client.post("/api/matches", json=MATCH).json()
        rounds = [
            {"teams": [SEED_TEAM, QUIET]},
            winning_round("Ana & Bia"),
            winning_round("Caio & Duda"),
        ]
        for version, round_ in enumerate(rounds, start=1):
            response = client.post(
                f"/api/matches/{match['id']}/rounds",
                json={"version": version, "round": round_},
                headers=bearer(match["edit_key"]),
            )
            assert response.status_code == 201, response.text
        state = client.get(f"/api/matches/{match['id']}", headers=bearer(match["share_key"])).json()
    del state["id"]  # random
    return json.dumps(state, indent=2, ensure_ascii=False) + "\n"


MAKERS: dict[str, Callable[[], str]] = {
    "poker_side_pots.json": poker_side_pots,
    "crosskings_board.svg": crosskings_board,
    "web_totals_chart.svg": web_totals_chart,
    "web_tranca_match.json": web_tranca_match,
}


def check(name: str) -> None:
    """Assert the golden file ``name`` holds what its maker makes now (never rewrites it)."""
    made = MAKERS[name]()
    kept = (GOLDEN / name).read_text(encoding="utf-8")
    assert made == kept, (
        f"tests/golden/{name} differs from what the code makes now: if the change is "
        "deliberate, run scripts/update-goldens and review the diff"
    )
