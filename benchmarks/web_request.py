"""The web app's CPU cost per request, in this process (no network, no load generator): what a
busy machine cannot hide, to compare two trees when ``web_bench.py``'s throughput is noise.

* ``score``: ``POST /api/tranca/score`` (web_bench's round) sent straight to the ASGI app, the
  middleware, routing, body parsing, scoring and answer included; CPU µs per request.
* ``cold``: a 1,000-round Tranca match (web_bench's rounds) read by a store that never read it
  (a fresh engine and :class:`~cardscore.web.store.MatchStore`, as a second server), and
  the same match checked whole by its adapter (what such a read cost before its results were
  stored); CPU ms each.

Figures are medians of ``--runs``; the process's CPU time counts every thread. To compare with
another tree, run it with that tree's sources first::

    PYTHONPATH=src python benchmarks/web_request.py
    PYTHONPATH=/other/tree/src python benchmarks/web_request.py --skip cold
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from web_bench import MATCH, ROUND, _round_that_never_ends


async def _score(requests: int, runs: int) -> list[float]:
    from cardscore.web.app import create_app
    from cardscore.web.settings import Settings

    body = json.dumps(ROUND).encode()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(Settings(database_url=f"sqlite:///{folder}/score.sqlite3"))
        scope: dict[str, Any] = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": "/api/tranca/score",
            "raw_path": b"/api/tranca/score",
            "query_string": b"",
            "root_path": "",
            "headers": [
                (b"host", b"127.0.0.1"),
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
            "client": ("127.0.0.1", 1),
            "server": ("127.0.0.1", 80),
        }
        sent: list[dict[str, Any]] = []

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        async def one() -> None:
            sent.clear()
            await app(dict(scope, state={}), receive, send)
            assert sent[0]["status"] == 200, sent

        for _ in range(200):  # warm: imports, caches
            await one()
        per_request = []
        for _ in range(runs):
            started = time.process_time()
            for _ in range(requests):
                await one()
            per_request.append((time.process_time() - started) / requests * 1e6)
        return per_request


def _cold(rounds: int, runs: int) -> tuple[list[float], list[float]]:
    from cardscore.web.db import make_engine
    from cardscore.web.games import get_adapter
    from cardscore.web.migrate import upgrade
    from cardscore.web.store import MatchStore

    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/cold.sqlite3"
        engine = make_engine(url)
        upgrade(engine)
        store = MatchStore(engine)
        match = store.create("tranca", MATCH)
        version = 1
        for number in range(1, rounds + 1):
            round_ = _round_that_never_ends(number)
            version = store.add_round(match.id, match.edit_key, version, round_).version
        snapshot = store.read(match.id, match.edit_key)
        adapter = get_adapter("tranca")
        assert adapter is not None
        reads, rechecks = [], []
        for _ in range(runs):
            fresh = make_engine(url)
            started = time.process_time()
            shown = MatchStore(fresh).read(match.id, match.share_key)
            reads.append((time.process_time() - started) * 1000)
            fresh.dispose()
            assert len(shown.documents) == rounds
            started = time.process_time()
            adapter.open(snapshot.config, snapshot.documents)
            rechecks.append((time.process_time() - started) * 1000)
        engine.dispose()
        return reads, rechecks


def _line(name: str, values: list[float], unit: str) -> str:
    return (
        f"| {name} | {statistics.median(values):,.0f} | {min(values):,.0f} | "
        f"{max(values):,.0f} | {unit} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=500, help="score: requests per run")
    parser.add_argument("--rounds", type=int, default=1000, help="cold: rounds in the match")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--skip", nargs="*", default=[], choices=["score", "cold"])
    args = parser.parse_args()
    lines = ["| figure | median | min | max | unit |", "|---|---:|---:|---:|---|"]
    if "score" not in args.skip:
        score = asyncio.run(_score(args.requests, args.runs))
        lines.append(_line("POST /api/tranca/score, in process", score, "CPU µs/request"))
    if "cold" not in args.skip:
        reads, rechecks = _cold(args.rounds, args.runs)
        lines.append(_line(f"{args.rounds}-round match, first read", reads, "CPU ms"))
        lines.append(_line("  the same, checked whole", rechecks, "CPU ms"))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
