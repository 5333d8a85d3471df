"""Migrations run at start-up and are idempotent; ``cardscore serve`` and its messages."""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from sqlalchemy import inspect

from cardscore.cli import main
from cardscore.web import migrate
from cardscore.web.db import make_engine
from cardscore.web.settings import normalize_database_url
from tests.conftest import need
from tests.web.conftest import Server, sqlite_url


def test_upgrade_creates_the_schema_once(tmp_path: Path) -> None:
    engine = make_engine(sqlite_url(tmp_path))
    assert migrate.current_revision(engine) is None
    migrate.upgrade(engine)
    migrate.upgrade(engine)  # a second start changes nothing
    assert migrate.current_revision(engine) == migrate.head_revision() == "0004"
    tables = set(inspect(engine).get_table_names())
    assert {"matches", "rounds", "match_decks", "play_games", "alembic_version"} <= tables
    with engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
    engine.dispose()


def test_postgres_urls_use_psycopg3() -> None:
    assert normalize_database_url("postgresql://a@h/db") == "postgresql+psycopg://a@h/db"


def test_serve_prints_the_url_and_answers(tmp_path: Path) -> None:
    server = Server(sqlite_url(tmp_path)).start()
    try:
        assert httpx.get(server.url + "/").status_code == 200
    finally:
        server.stop()
    assert server.process is not None
    assert server.process.stdout is not None
    output = server.process.stdout.read().decode()
    assert f"cardscore is running at http://127.0.0.1:{server.port}/" in output


def test_serve_without_the_web_extra_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "uvicorn" else real(name, *a)
    )
    assert main(["serve"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.strip() == (
        "cardscore: error: the web app needs the 'web' extra (missing: uvicorn): "
        "run  pip install 'cardscore[web]'"
    )


def test_serve_is_listed_and_documented(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    assert "serve" in capsys.readouterr().out
    assert main(["serve", "--help"]) == 0
    assert "--lan" in capsys.readouterr().out


def test_lan_qr_code_prints_in_the_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    import qrcode

    from cardscore.web.cli import _print_qr, lan_address

    url = "http://192.168.1.20:8000/"
    _print_qr(url)
    lines = capsys.readouterr().out.splitlines()
    # Each character is two modules (top, bottom), printed light-on-dark; read them back.
    rows = []
    for line in lines:
        rows.append([c not in "▀█" for c in line])
        rows.append([c not in "▄█" for c in line])
    code = qrcode.QRCode(border=1)
    code.add_data(url)
    matrix = code.get_matrix()
    size = len(matrix)
    assert [row[1 : size - 1] for row in rows[1 : size - 1]] == [
        row[1 : size - 1] for row in matrix[1 : size - 1]
    ]
    assert lan_address().count(".") == 3


def test_workers_starting_at_once_migrate_once(any_database_url: str) -> None:
    from concurrent.futures import ThreadPoolExecutor

    engines = [make_engine(any_database_url) for _ in range(4)]
    with ThreadPoolExecutor(4) as pool:
        list(pool.map(migrate.upgrade, engines))  # raises if two tried to create the tables
    assert migrate.current_revision(engines[0]) == migrate.head_revision()
    for engine in engines:
        engine.dispose()


def test_many_workers_turning_on_wal_at_once_all_connect(tmp_path: Path) -> None:
    """Turning a new SQLite file to WAL needs it to itself, and two connections asking at once
    get "database is locked" at once, without the busy timeout: each must retry. (Before they
    did, about one fresh database in twenty failed here.)"""
    from concurrent.futures import ThreadPoolExecutor

    for round_ in range(20):
        folder = tmp_path / f"fresh{round_}"
        folder.mkdir()
        url = sqlite_url(folder)
        engines = [make_engine(url) for _ in range(6)]
        with ThreadPoolExecutor(6) as pool:
            list(pool.map(migrate.upgrade, engines))  # raises "database is locked" if one gave up
        for engine in engines:
            with engine.connect() as connection:
                mode = connection.exec_driver_sql("PRAGMA journal_mode").scalar()
            assert mode == "wal", (round_, mode)
            assert migrate.current_revision(engine) == migrate.head_revision()
            engine.dispose()


def _serve(url: str, port: int, *more: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("DATABASE_URL", None)
    command = [sys.executable, "-m", "cardscore", "serve", "--port", str(port), "--database-url"]
    return subprocess.Popen(
        [*command, url, *more], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )


def test_serve_on_a_taken_port_says_so_and_never_claims_to_run(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        process = _serve(sqlite_url(tmp_path), port)
        out, err = process.communicate(timeout=60)
    assert process.returncode == 2
    assert out.decode() == ""
    message = err.decode()
    assert f"port {port} on 127.0.0.1 is already in use" in message
    if Path("/proc/net/tcp").exists():  # who holds it, where the system says
        assert f"process {os.getpid()}" in message
    assert "running" not in message


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            listed = (task / "children").read_text()
        except OSError:
            continue  # the thread ended between the listing and the read
        found.update(int(c) for c in listed.split())
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_killed_server_takes_its_workers_with_it(tmp_path: Path) -> None:
    me = os.getpid()
    need(Path(f"/proc/{me}/task/{me}/children").exists(), "listing children needs Linux's /proc")
    server = Server(sqlite_url(tmp_path), workers=2).start()
    assert server.process is not None
    workers: set[int] = set()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and len(workers) < 2:
        workers = {p for p in _children(server.process.pid) if _alive(p)}
        time.sleep(0.1)
    assert len(workers) >= 2
    server.kill()  # SIGKILL: the main process cannot tell its workers anything
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(_alive(p) for p in workers):
        time.sleep(0.1)
    assert not any(_alive(p) for p in workers)
    # The port is free again: a new server starts on it.
    replacement = _serve(sqlite_url(tmp_path), server.port)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{server.url}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        assert httpx.get(f"{server.url}/api/health").status_code == 200
    finally:
        replacement.terminate()
        replacement.wait(timeout=30)


def test_serve_reports_its_address_only_once_it_answers(tmp_path: Path) -> None:
    from tests.web.conftest import free_port

    port = free_port()
    process = _serve(sqlite_url(tmp_path), port)
    try:
        assert process.stdout is not None
        line = process.stdout.readline().decode()
        assert line.startswith(f"cardscore is running at http://127.0.0.1:{port}/")
        # By the time the line is out, the server answers.
        assert httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=5).status_code == 200
    finally:
        process.terminate()
        process.wait(timeout=30)
