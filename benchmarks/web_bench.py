"""Load the web app from a second process on loopback: stateless scoring, durable saves, and
a 1,000-round match (its page's first load, and a save reaching 50 pages that follow it live).

Starts ``cardscore serve`` on a free 127.0.0.1 port with a fresh SQLite file, then drives it
from this process over keep-alive HTTP/1.1 connections (a minimal asyncio client, so the load
generator costs little of the machine's two cores). Every scenario is bounded by a request count
and a time limit. Saves are sent as the pages send them (``Prefer: return=minimal``: the answer
holds the new round, totals and version), then again answered with the whole match. Prints one table; targets beside the figures. ``server CPU
ms/req`` (the server processes' CPU time per request, from ``/proc``) does not depend on what
else the machine is doing: 2 cores / that figure bounds the throughput of an idle machine.

Big match: 1,000 Tranca rounds are saved through the API; the share page is then loaded as a
phone opens it (size, and time on loopback: server time plus a local transfer), on the server
that saved the rounds and on a second server on the same database that never saw the match (it
reads what checking the rounds found, stored with them at each save). Then 50 followers each hold an event stream and, on each save's
event, fetch the page as ``match.js`` does; the latency is from sending the save to each
follower's page being in hand. Where ``wrk`` is installed (Debian package ``wrk``) the scoring
scenario runs a second time driven by it: a load generator in C leaves the server the cores the
Python client takes.

    python benchmarks/web_bench.py [--seconds 5] [--connections 16] [--workers 1]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROUND = {
    "players": 4,
    "teams": [
        {
            "name": "Ana & Bia",
            "melds": [["4H", "5H", "6H", "7H", "8H", "9H", "2C"], ["KS", "KD", "KH"]],
            "piles": [{"pile": "A", "clean": False, "cards": 7}],
            "dollars": ["3H"],
            "hand": ["AS", "3C"],
            "took_morto": True,
            "went_out": True,
        },
        {
            "name": "Caio & Duda",
            "melds": [["QS", "QD", "QC"]],
            "hand": ["5D", "9C"],
            "took_morto": False,
            "went_out": False,
        },
    ],
}
MATCH = {
    "game": "tranca",
    "players": 4,
    "teams": [{"name": "Ana & Bia"}, {"name": "Caio & Duda"}],
    "target": 100_000,
}
ROUNDS_PER_MATCH = 20  # a long evening's match; then the connection starts a new one


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) of a process and its children so far (Linux ``/proc``)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        for task in Path(f"/proc/{pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                total += cpu_seconds(int(child)) or 0.0
    except (OSError, IndexError, ValueError):
        return None
    return total


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Connection:
    """One keep-alive HTTP/1.1 connection; ``request`` returns (status, body)."""

    def __init__(self, port: int) -> None:
        self.port = port

    async def open(self) -> Connection:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        return self

    async def request(
        self, method: str, path: str, body: object, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        data = json.dumps(body).encode()
        extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
        self.writer.write(
            f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\n{extra}\r\n".encode()
            + data
        )
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        length = 0
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return status, await self.reader.readexactly(length)

    async def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
        self.writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}\r\n".encode())
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        length = 0
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return status, await self.reader.readexactly(length)

    def close(self) -> None:
        self.writer.close()


@dataclass
class Result:
    name: str
    requests: int
    seconds: float
    latencies: list[float]
    errors: int
    server_cpu: float | None = None

    def row(self) -> dict[str, str]:
        ordered = sorted(self.latencies)

        def pct(p: float) -> str:
            return f"{ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000:.1f}"

        return {
            "scenario": self.name,
            "requests": str(self.requests),
            "req/s": f"{self.requests / self.seconds:,.0f}",
            "p50 ms": pct(0.50),
            "p99 ms": pct(0.99),
            "errors": str(self.errors),
            "server CPU ms/req": (
                f"{self.server_cpu / self.requests * 1000:.2f}" if self.server_cpu else "n/a"
            ),
        }


Step = Callable[[Connection, int], "asyncio.Future[int] | object"]


async def run(
    name: str,
    port: int,
    connections: int,
    seconds: float,
    limit: int,
    make_worker: Callable[..., object],
) -> Result:
    latencies: list[float] = []
    errors = 0
    done = 0
    deadline = time.perf_counter() + seconds

    async def one(index: int) -> None:
        nonlocal errors, done
        connection = await Connection(port).open()
        step = await make_worker(connection, index)  # type: ignore[misc]
        while time.perf_counter() < deadline and done < limit:
            done += 1
            started = time.perf_counter()
            ok = await step()
            latencies.append(time.perf_counter() - started)
            errors += 0 if ok else 1
        connection.close()

    started = time.perf_counter()
    await asyncio.gather(*(one(i) for i in range(connections)))
    return Result(name, len(latencies), time.perf_counter() - started, latencies, errors)


async def scoring_worker(connection: Connection, _index: int) -> Callable[[], object]:
    async def step() -> bool:
        status, _ = await connection.request("POST", "/api/tranca/score", ROUND)
        return status == 200

    return step


def wrk_scoring(port: int, connections: int, seconds: float, pid: int) -> dict[str, str] | None:
    """The scoring scenario driven by ``wrk`` (C, one thread) instead of this Python client.

    The Python client costs about as much CPU per request as the server does, and shares its two
    cores: ``wrk`` measures what the server serves when the load generator is cheap. ``None``
    where ``wrk`` is not installed (Debian package ``wrk``).
    """
    wrk = shutil.which("wrk")
    if wrk is None:
        return None
    body = json.dumps(ROUND)
    script = (
        'wrk.method = "POST"\n'
        'wrk.headers["Content-Type"] = "application/json"\n'
        f"wrk.body = {json.dumps(body)}\n"
    )
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as file:
        file.write(script)
    url = f"http://127.0.0.1:{port}/api/tranca/score"
    command = [wrk, "-t1", f"-c{connections}", f"-d{seconds:g}s", "--latency", "-s", file.name]
    before = cpu_seconds(pid)
    output = subprocess.run([*command, url], capture_output=True, text=True, check=True).stdout
    after = cpu_seconds(pid)
    os.unlink(file.name)
    return _wrk_row(output, None if before is None or after is None else after - before)


def _wrk_row(output: str, server_cpu: float | None) -> dict[str, str]:
    """A table row from ``wrk --latency``'s report."""
    found = dict(re.findall(r"^\s*(50|99)%\s+([\d.]+(?:us|ms|s))", output, re.M))
    requests = int(re.search(r"(\d+) requests in", output).group(1))  # type: ignore[union-attr]
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))  # type: ignore[union-attr]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)

    def ms(text: str) -> str:
        scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}
        unit = re.sub(r"[\d.]", "", text)
        return f"{float(text[: -len(unit)]) * scale[unit]:.1f}"

    return {
        "scenario": "  same, driven by wrk (C load generator)",
        "requests": str(requests),
        "req/s": f"{rate:,.0f}",
        "p50 ms": ms(found["50"]),
        "p99 ms": ms(found["99"]),
        "errors": errors.group(1) if errors else "0",
        "server CPU ms/req": f"{server_cpu / requests * 1000:.2f}" if server_cpu else "n/a",
    }


def saving_worker(minimal: bool) -> Callable[..., object]:
    """Saves with ``Prefer: return=minimal`` (what the pages send) or answered by the whole match."""
    prefer = {"Prefer": "return=minimal"} if minimal else {}

    async def worker(connection: Connection, index: int) -> Callable[[], object]:
        return await _saving(connection, prefer)

    return worker


async def _saving(connection: Connection, prefer: dict[str, str]) -> Callable[[], object]:
    state = {"id": "", "key": "", "version": 0}

    async def new_match() -> None:
        status, body = await connection.request("POST", "/api/matches", MATCH)
        assert status == 201, body
        created = json.loads(body)
        state.update(id=created["id"], key=created["edit_key"], version=1)

    await new_match()

    async def step() -> bool:
        if state["version"] > ROUNDS_PER_MATCH:
            await new_match()
        status, _ = await connection.request(
            "POST",
            f"/api/matches/{state['id']}/rounds",
            {"version": state["version"], "round": ROUND},
            {"Authorization": f"Bearer {state['key']}", **prefer},
        )
        state["version"] = int(state["version"]) + 1
        return status == 201

    return step


def photo_rounds(port: int, photo: Path, count: int, pid: int) -> dict[str, str]:
    """Upload a table photo ``count`` times, one after another (read, drawn, filled in)."""
    boundary = "cardscorebench"
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; filename="t.jpg"\r\n'
            "Content-Type: image/jpeg\r\n\r\n"
        ).encode()
        + photo.read_bytes()
        + f"\r\n--{boundary}--\r\n".encode()
    )
    latencies = []
    errors = 0
    before = cpu_seconds(pid)
    for _ in range(count):
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/photos",
            data=body,
            headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
        )
        started = time.perf_counter()
        with urllib.request.urlopen(request, timeout=60) as response:
            answer = json.loads(response.read())
        latencies.append(time.perf_counter() - started)
        errors += 0 if answer.get("recognized") else 1
    after = cpu_seconds(pid)
    result = Result("photo round (upload + recognition)", count, sum(latencies), latencies, errors)
    if before is not None and after is not None:
        result.server_cpu = after - before
    return result.row() | {"target": "≤ 1.5 s median"}


BIG_ROUNDS = 1000
FOLLOWERS = 50
FOLLOWED_SAVES = 20


def _round_that_never_ends(number: int) -> dict[str, object]:
    """Round ``number`` of a match whose totals stay about where they were (it never ends), no
    two rounds alike (a server reading the match back parses each one)."""
    if number % 4 in (1, 2):
        played = json.loads(json.dumps(ROUND))
        # What the team that did not go out still held: a different hand every time.
        pool = ["5D", "9C", "4S", "6D", "7C", "8S", "TD", "JS"]
        played["teams"][1]["hand"] = [c for k, c in enumerate(pool) if number // 4 % 256 >> k & 1]
        if number % 4 == 2:  # the other team went out
            first, second = played["teams"]
            played["teams"] = [dict(second, name=first["name"]), dict(first, name=second["name"])]
        return played
    held = [
        ["AS", "AH", "KD", "KC", "QS", "QH", "JD", "JC"],
        ["AD", "AC", "KS", "KH", "QD", "QC", "JS", "JH"],
    ]
    # Which of its eight cards each team still held: a different pair of hands every round.
    bits = [number // 4 % 256, (number // 4 * 37 + number % 4) % 256]
    return {
        "players": 4,
        "teams": [
            {
                "name": name,
                "melds": [],
                "hand": [c for k, c in enumerate(cards) if bits[side] >> k & 1],
                "took_morto": False,
                "went_out": False,
            }
            for side, (name, cards) in enumerate(
                zip(("Ana & Bia", "Caio & Duda"), held, strict=True)
            )
        ],
    }


async def build_big_match(port: int) -> dict[str, str]:
    connection = await Connection(port).open()
    status, body = await connection.request("POST", "/api/matches", MATCH)
    created = json.loads(body)
    auth = {"Authorization": f"Bearer {created['edit_key']}", "Prefer": "return=minimal"}
    for version in range(1, BIG_ROUNDS + 1):
        status, body = await connection.request(
            "POST",
            f"/api/matches/{created['id']}/rounds",
            {"version": version, "round": _round_that_never_ends(version)},
            auth,
        )
        assert status == 201, body
    connection.close()
    return {"id": created["id"], "edit": created["edit_key"], "share": created["share_key"]}


async def page_loads(port: int, path: str, count: int) -> tuple[int, list[float]]:
    connection = await Connection(port).open()
    size, times = 0, []
    for _ in range(count):
        started = time.perf_counter()
        status, body = await connection.get(path, {"Accept": "text/html"})
        times.append(time.perf_counter() - started)
        assert status == 200, status
        size = len(body)
    connection.close()
    return size, times


async def followers(port: int, match: dict[str, str]) -> Result:
    """50 pages follow the match; each save's event makes each fetch the page again."""
    page = f"/m/{match['id']}/{match['share']}"
    events = f"/api/matches/{match['id']}/events?key={match['share']}"
    sent: dict[int, float] = {}
    latencies: list[float] = []
    errors = 0
    ready = 0
    all_ready = asyncio.Event()

    async def follow() -> None:
        nonlocal errors, ready
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(
            f"GET {events} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        await reader.readuntil(b"\r\n\r\n")
        fetcher = await Connection(port).open()
        seen = 0
        while seen < BIG_ROUNDS + 1 + FOLLOWED_SAVES:
            line = await reader.readline()
            if not line.startswith(b"data:"):
                continue
            version = json.loads(line[5:])["version"]
            if seen == 0:
                ready += 1
                if ready == FOLLOWERS:
                    all_ready.set()
            elif version > seen:
                status, _ = await fetcher.get(page, {"X-Cardscore-Refresh": "1"})
                errors += status != 200
                latencies.append(time.perf_counter() - sent[version])
            seen = version
        fetcher.close()
        writer.close()

    tasks = [asyncio.create_task(follow()) for _ in range(FOLLOWERS)]
    await asyncio.wait_for(all_ready.wait(), 60)
    saver = await Connection(port).open()
    auth = {"Authorization": f"Bearer {match['edit']}", "Prefer": "return=minimal"}
    started = time.perf_counter()
    for version in range(BIG_ROUNDS + 1, BIG_ROUNDS + 1 + FOLLOWED_SAVES):
        sent[version + 1] = time.perf_counter()
        status, _ = await saver.request(
            "POST",
            f"/api/matches/{match['id']}/rounds",
            {"version": version, "round": _round_that_never_ends(version)},
            auth,
        )
        errors += status != 201
        await asyncio.sleep(0.25)
    await asyncio.wait_for(asyncio.gather(*tasks), 60)
    saver.close()
    name = f"a save reaching {FOLLOWERS} live pages (1,000 rounds)"
    return Result(name, len(latencies), time.perf_counter() - started, latencies, errors)


def big_match_rows(port: int, database: Path, workers: int, pid: int) -> list[dict[str, str]]:
    match = asyncio.run(build_big_match(port))
    path = f"/m/{match['id']}/{match['share']}"
    rows = []
    size, times = asyncio.run(page_loads(port, path, 20))
    rows.append(
        Result(f"match page at 1,000 rounds ({size / 1000:.0f} kB)", 20, sum(times), times, 0).row()
        | {"target": "≤ 150 kB, ≤ 300 ms"}
    )
    other, other_port = start_server(database, workers)
    try:
        size, times = asyncio.run(page_loads(other_port, path, 1))
    finally:
        other.terminate()
        other.wait()
    rows.append(
        Result(
            f"  same, on a server that never saw it ({size / 1000:.0f} kB)", 1, times[0], times, 0
        ).row()
        | {"target": "–"}
    )
    before = cpu_seconds(pid)
    result = asyncio.run(followers(port, match))
    after = cpu_seconds(pid)
    if before is not None and after is not None:
        result.server_cpu = after - before
    rows.append(result.row() | {"target": "≤ 1 s p99"})
    return rows


def start_server(database: Path, workers: int) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "cardscore",
            "serve",
            "--port",
            str(port),
            "--workers",
            str(workers),
            "--database-url",
            f"sqlite:///{database}",
        ],
        stdout=subprocess.DEVNULL,
        env=env,
    )
    for _ in range(600):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1):
                return server, port
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the server did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time limit per scenario")
    parser.add_argument("--requests", type=int, default=20_000, help="request limit per scenario")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--workers", type=int, default=1, help="server worker processes")
    parser.add_argument(
        "--photo",
        type=Path,
        default=Path(
            os.environ.get(
                "CARDSCORE_SHARED", Path(__file__).resolve().parents[1].parent / "shared"
            )
        )
        / "data/real-photos/train_01.jpg",
        help="a table photo for the photo-round scenario (skipped if absent)",
    )
    parser.add_argument("--photos", type=int, default=5, help="uploads in the photo scenario")
    parser.add_argument("--no-big", action="store_true", help="skip the 1,000-round match")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server, port = start_server(Path(folder) / "bench.sqlite3", args.workers)
        try:
            rows = []
            for name, worker, target in [
                ("stateless Tranca scoring", scoring_worker, "≥ 2,000 req/s, p99 ≤ 30 ms"),
                ("durable round saves (SQLite)", saving_worker(True), "≥ 500 saves/s"),
                ("  same, whole match in each answer", saving_worker(False), "–"),
            ]:
                before = cpu_seconds(server.pid)
                result = asyncio.run(
                    run(name, port, args.connections, args.seconds, args.requests, worker)
                )
                after = cpu_seconds(server.pid)
                if before is not None and after is not None:
                    result.server_cpu = after - before
                rows.append(result.row() | {"target": target})
                if worker is scoring_worker:
                    driven = wrk_scoring(port, args.connections, args.seconds, server.pid)
                    if driven is not None:
                        rows.append(driven | {"target": target})
            if not args.no_big:
                rows.extend(
                    big_match_rows(port, Path(folder) / "bench.sqlite3", args.workers, server.pid)
                )
            if args.photo.is_file() and args.photos:
                rows.append(photo_rounds(port, args.photo, args.photos, server.pid))
        finally:
            server.terminate()
            server.wait()
    print(
        f"cardscore serve --workers {args.workers}, {args.connections} keep-alive connections "
        f"from a second process, {os.cpu_count()} CPUs"
    )
    columns = list(rows[0])
    widths = {c: max(len(c), *(len(r[c]) for r in rows)) for c in columns}
    print("| " + " | ".join(c.ljust(widths[c]) for c in columns) + " |")
    print("|" + "|".join("-" * (widths[c] + 2) for c in columns) + "|")
    for row in rows:
        print("| " + " | ".join(row[c].ljust(widths[c]) for c in columns) + " |")


if __name__ == "__main__":
    main()
