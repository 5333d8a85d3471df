"""Fixtures for the web app: an app on a fresh SQLite file, and a real server process."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import need_module

need_module("fastapi", "the web extra is not installed (pip install '.[web]')")

import httpx  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from cardscore.web.app import create_app  # noqa: E402
from cardscore.web.settings import Settings  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
GONGZHU = {"game": "gongzhu", "players": ["Ann", "Bo", "Cy", "Di"]}


def sqlite_url(folder: Path) -> str:
    return f"sqlite:///{folder / 'cardscore.sqlite3'}"


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    return sqlite_url(tmp_path)


POSTGRES_ENV = "CARDSCORE_TEST_POSTGRES_URL"


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh schema in the PostgreSQL database ``.ci/run`` provides (dropped afterwards).

    Each test gets its own schema (via ``search_path``), so tests can run in parallel.
    """
    import secrets
    from urllib.parse import quote

    from sqlalchemy import create_engine

    from cardscore.web.settings import normalize_database_url
    from tests.conftest import need

    base = os.environ.get(POSTGRES_ENV, "")
    need(bool(base), f"PostgreSQL tests need {POSTGRES_ENV}=postgresql://user:pass@host/db")
    base = normalize_database_url(base)
    schema = f"test_{secrets.token_hex(6)}"
    admin = create_engine(base)
    try:
        with admin.begin() as connection:
            connection.exec_driver_sql(f"CREATE SCHEMA {schema}")
    except Exception as error:  # configured but down: a failure in CI, a skip elsewhere
        admin.dispose()
        need(False, f"PostgreSQL at {POSTGRES_ENV} is not reachable: {error}")
    separator = "&" if "?" in base else "?"
    yield f"{base}{separator}options={quote(f'-csearch_path={schema}')}"
    with admin.begin() as connection:
        connection.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
    admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def any_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The test runs on SQLite and again on PostgreSQL."""
    if request.param == "sqlite":
        return sqlite_url(tmp_path)
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def client(database_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(database_url=database_url))) as test_client:
        yield test_client


def messages(response: Any) -> list[str]:
    """The messages of a problem body's problems (each is ``{code, params, message}``)."""
    return [problem["message"] for problem in response.json()["problems"]]


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def new_match(client: Any, body: dict[str, Any] = GONGZHU) -> dict[str, Any]:
    response = client.post("/api/matches", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@dataclass
class Server:
    """``cardscore serve`` running in a child process on a loopback port."""

    database_url: str
    port: int = 0
    process: subprocess.Popen[bytes] | None = None
    workers: int = 1

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        self.port = free_port()
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        env.pop("DATABASE_URL", None)
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "cardscore",
                "serve",
                "--port",
                str(self.port),
                "--database-url",
                self.database_url,
                "--workers",
                str(self.workers),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=ROOT,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                output = self.process.stdout.read().decode() if self.process.stdout else ""
                raise RuntimeError(f"cardscore serve exited: {output}")
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("cardscore serve did not start within 60 s")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as when the machine loses power mid-request."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture
def server(database_url: str) -> Iterator[Server]:
    live = Server(database_url).start()
    yield live
    live.stop()
