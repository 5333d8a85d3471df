"""Golden files: the totals chart and a Tranca match as the API answers it.

``CARDSCORE_UPDATE_GOLDEN=1`` rewrites them after a deliberate change (then read the diff).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from cardscore.web.charts import totals_chart
from tests.conftest import ROOT
from tests.web.conftest import bearer

GOLDEN = ROOT / "tests" / "golden"


def check(path: Path, text: str) -> None:
    if os.environ.get("CARDSCORE_UPDATE_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def test_totals_chart_svg() -> None:
    svg = totals_chart(["Ana & Bia", "Caio & Duda"], [[410, -175], [785, -175], [760, 200]], 1000)
    check(GOLDEN / "web_totals_chart.svg", svg + "\n")


def test_a_tranca_match_as_the_api_answers_it(client: TestClient) -> None:
    pytest.importorskip("cardscore.tranca", reason="Tranca scoring is not installed")
    from tests.web.test_tranca_web import MATCH, QUIET, SEED_TEAM, winning_round

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
    check(GOLDEN / "web_tranca_match.json", json.dumps(state, indent=2, ensure_ascii=False) + "\n")
