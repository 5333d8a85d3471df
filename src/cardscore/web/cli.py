"""``cardscore serve``: start the web app on this computer, or on the local network.

This module needs only click; the web extra is imported when the command runs, so that a
missing extra gives one clear line instead of a traceback.
"""

from __future__ import annotations

import errno
import importlib.util
import os
import signal
import socket
import sys
import threading
import time
import urllib.request
from typing import Any

import click

from cardscore.errors import CardscoreError

__all__ = ["bind", "lan_address", "serve", "worker_app"]

_MASTER = "CARDSCORE_MASTER_PID"

_NEEDED = ("fastapi", "uvicorn", "sqlalchemy", "alembic", "jinja2", "multipart", "qrcode")


def _missing_extra() -> list[str]:
    return [name for name in _NEEDED if importlib.util.find_spec(name) is None]


def lan_address() -> str:
    """This computer's address on the local network (the one its default route uses)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            # No packet is sent: connecting a UDP socket only picks the outgoing interface.
            probe.connect(("192.0.2.1", 9))
            address: str = probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"
    return address


def _print_qr(url: str) -> None:
    import qrcode

    code = qrcode.QRCode(border=1)
    code.add_data(url)
    code.make(fit=True)
    code.print_ascii(invert=True)


@click.command("serve")
@click.option(
    "--lan",
    is_flag=True,
    help="Listen on the local network so phones at the table can join (prints a QR code).",
)
@click.option(
    "--host",
    default=None,
    help="Address to listen on (default 127.0.0.1; with --lan, all interfaces).",
)
@click.option(
    "--port",
    default=8000,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="Port to listen on.",
)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="App worker processes.",
)
@click.option(
    "--database-url",
    envvar="DATABASE_URL",
    default=None,
    help="Database (default: an SQLite file in your data folder) [env: DATABASE_URL].",
)
def serve(lan: bool, host: str | None, port: int, workers: int, database_url: str | None) -> None:
    """Start the web app and print its address."""
    missing = _missing_extra()
    if missing:
        raise CardscoreError(
            "the web app needs the 'web' extra (missing: "
            f"{', '.join(missing)}): run  pip install 'cardscore[web]'"
        )
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    from cardscore.web import migrate
    from cardscore.web.db import make_engine
    from cardscore.web.settings import default_database_url, new_secret, normalize_database_url

    url = normalize_database_url(database_url) if database_url else default_database_url()
    os.environ["DATABASE_URL"] = url  # the workers read it
    # Every worker must sign and check forms with the same secret.
    os.environ.setdefault("CARDSCORE_SECRET", new_secret())
    engine = make_engine(url)
    migrate.upgrade(engine)  # once here, so several workers do not race on it
    engine.dispose()
    os.environ["CARDSCORE_SKIP_MIGRATE"] = "1"

    address = host or ("0.0.0.0" if lan else "127.0.0.1")
    listening = bind(address, port)  # a taken port stops here, before any claim to be running
    port = listening.getsockname()[1]
    shown = lan_address() if lan and address == "0.0.0.0" else address
    public = f"http://{'[' + shown + ']' if ':' in shown else shown}:{port}/"

    def announce() -> None:
        click.echo(f"cardscore is running at {public}  (Ctrl+C stops it)")
        click.echo(f"database: {url.split('@')[-1] if '@' in url else url}")
        if lan:
            click.echo("Phones on the same network can scan this:")
            _print_qr(public)

    _announce_when_answering(address, port, announce)
    os.environ[_MASTER] = str(os.getpid())
    config = uvicorn.Config(
        "cardscore.web.cli:worker_app",
        factory=True,
        workers=workers,
        log_level="warning",
        access_log=False,  # a line per request costs more than a round's score
        # Pages follow matches over streams that never end by themselves: stop waiting soon.
        timeout_graceful_shutdown=3,
    )
    if workers > 1:
        Multiprocess(config, sockets=[listening]).run()
        return
    server = uvicorn.Server(config)
    server.run(sockets=[listening])
    if not server.started:
        sys.exit(3)


def bind(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port``, or the reason it cannot (a taken port, named).

    Bound here, in the process that reports the address, so nothing is reported that is not
    true; the workers then accept on this very socket.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listening = socket.socket(family, socket.SOCK_STREAM)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listening.bind((host, port))
        listening.listen(2048)
    except OSError as error:
        listening.close()
        if error.errno == errno.EADDRINUSE:
            raise CardscoreError(
                f"port {port} on {host} is already in use{_holders(port)}: stop that program "
                "or choose another port with --port"
            ) from None
        raise CardscoreError(f"cannot listen on {host}:{port}: {error.strerror}") from None
    listening.set_inheritable(True)
    return listening


def _holders(port: int) -> str:
    """`` (by process 123: cardscore serve …)`` where Linux's /proc says who listens on ``port``."""
    inodes: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as lines:
                next(lines)
                for line in lines:
                    fields = line.split()
                    if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                        inodes.add(fields[9])
        except (OSError, StopIteration, IndexError, ValueError):
            continue
    found: list[str] = []
    for pid in filter(str.isdigit, _listdir("/proc")):
        for fd in _listdir(f"/proc/{pid}/fd"):
            try:
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if target.startswith("socket:[") and target[8:-1] in inodes:
                found.append(f"process {pid}: {_command(pid)}")
                break
    return f" (by {'; '.join(found)})" if found else ""


def _listdir(path: str) -> list[str]:
    try:
        return os.listdir(path)
    except OSError:
        return []


def _command(pid: str) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as raw:
            words = raw.read().split(b"\0")
    except OSError:
        return "?"
    return " ".join(w.decode(errors="replace") for w in words if w)[:200]


def _announce_when_answering(host: str, port: int, announce: Any) -> None:
    """Call ``announce`` once the app answers on the socket (from a thread; gives up after 60 s)."""
    local = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
    url = f"http://{'[' + local + ']' if ':' in local else local}:{port}/api/health"

    def wait() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(url, timeout=2) as answer:
                    if answer.status == 200:
                        announce()
                        return
            except OSError:
                time.sleep(0.05)

    threading.Thread(target=wait, name="cardscore-announce", daemon=True).start()


def worker_app() -> Any:
    """The app, in a worker of ``cardscore serve``: it ends when the process that started it does.

    Workers are separate processes holding the listening socket: were the main process killed
    (``kill -9``), they would keep the port and answer with nobody to stop them.
    """
    from cardscore.web.app import create_app

    master = int(os.environ.get(_MASTER, "0"))
    if master and master != os.getpid():
        _end_with(master)
    return create_app()


def _end_with(master: int) -> None:
    try:  # Linux: the kernel sends SIGTERM the moment the parent dies
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass

    def watch() -> None:  # everywhere else (and if the parent died before prctl): look
        while os.getppid() == master:
            time.sleep(1.0)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(10)  # uvicorn's graceful stop; then no more waiting
        os._exit(1)

    threading.Thread(target=watch, name="cardscore-orphan-watch", daemon=True).start()
