"""``cardscore serve``: start the web app on this computer, or on the local network.

This module needs only click; the web extra is imported when the command runs, so that a
missing extra gives one clear line instead of a traceback.
"""

from __future__ import annotations

import importlib.util
import socket

import click

from cardscore.errors import CardscoreError

__all__ = ["lan_address", "serve"]

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
    import os

    import uvicorn

    from cardscore.web import migrate
    from cardscore.web.db import make_engine
    from cardscore.web.settings import default_database_url, normalize_database_url

    url = normalize_database_url(database_url) if database_url else default_database_url()
    os.environ["DATABASE_URL"] = url  # the workers read it
    engine = make_engine(url)
    migrate.upgrade(engine)  # once here, so several workers do not race on it
    engine.dispose()
    os.environ["CARDSCORE_SKIP_MIGRATE"] = "1"

    bind = host or ("0.0.0.0" if lan else "127.0.0.1")
    shown = lan_address() if lan and bind == "0.0.0.0" else bind
    address = f"http://{shown}:{port}/"
    click.echo(f"cardscore is running at {address}  (Ctrl+C stops it)")
    click.echo(f"database: {url.split('@')[-1] if '@' in url else url}")
    if lan:
        click.echo("Phones on the same network can scan this:")
        _print_qr(address)
    uvicorn.run(
        "cardscore.web.app:create_app",
        factory=True,
        host=bind,
        port=port,
        workers=workers,
        log_level="warning",
        access_log=False,  # a line per request costs more than a round's score
    )
