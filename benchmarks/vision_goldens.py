"""Every output of ``recognize`` on a fixed set of photos, to hold a refactor to: same in, same out.

Reads the shared real photos (``$CARDSCORE_SHARED/data/real-photos``) and tables drawn by the
independent renderer (``tests/render_tables.py``: both designs, the calibration design, a few
card widths, a card width given, rows of hands, a deck spread, tables read with a deck
profile learnt from a spread), and writes every card (code,
confidence, score, box, angle, corners read, flag, alternative), every group (kind, members,
pile orientation) and the Tranca draft as JSON, with each photo's reading time::

    python benchmarks/vision_goldens.py --write /tmp/goldens-before.json
    python benchmarks/vision_goldens.py --check /tmp/goldens-before.json

``--check`` prints the photos whose output differs (exit 1) and the reading times side by side.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.render_tables import CALIBRATION, DESIGNS, render_rows, render_table, spread  # noqa: E402

from cardscore.cards import parse_cards  # noqa: E402
from cardscore.vision import recognize  # noqa: E402

TABLES = 30


def _photos() -> Iterator[tuple[str, Any, dict[str, Any]]]:
    """(name, source, recognize's keyword arguments) for every photo read."""
    shared = Path(os.environ.get("CARDSCORE_SHARED", "/work/shared"))
    for path in sorted((shared / "data" / "real-photos").glob("*.jpg")):
        yield f"real/{path.name}", path, {}
    designs = (*DESIGNS, CALIBRATION)
    widths = (150, 150, 110, 200, 90)
    for k in range(TABLES):
        design = designs[k % len(designs)]
        width = widths[k % len(widths)]
        table = render_table(7000 + k, design, card_width=width)
        given = {"card_width": float(width)} if k % 7 == 3 else {}
        yield f"table/{k:02d}-{design.name}-{width}{'-given' if given else ''}", table.image, given
    rows = [list(parse_cards(r)) for r in ("As Kd 7c 7h 2s", "Th Jh Qh Kh Ah", "3c 3d 9s 9c 4h")]
    yield "rows/showdown", render_rows(rows, DESIGNS[1], seed=3), {}
    yield "spread/stroke-plain", spread(DESIGNS[0], seed=2), {}
    from cardscore.vision.learn import learn_from_spread

    deck = learn_from_spread(spread(DESIGNS[1], seed=4)).profile
    for k in range(3):
        table = render_table(7100 + k, DESIGNS[1])
        yield f"deck/{k:02d}-{DESIGNS[1].name}", table.image, {"deck": deck}


def read_all(only: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, source, kwargs in _photos():
        if only and only not in name:
            continue
        start = time.perf_counter()
        result = recognize(source, **kwargs)
        seconds = time.perf_counter() - start
        out[name] = {"seconds": round(seconds, 3), "result": result.as_dict()}
        print(f"{name}: {len(result.cards)} cards, {seconds:.2f} s", file=sys.stderr)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--write", type=Path, help="write the outputs here")
    what.add_argument("--check", type=Path, help="compare with outputs written before")
    parser.add_argument("--only", help="only photos whose name contains this")
    args = parser.parse_args()
    recognize(np.full((200, 300, 3), 90, np.uint8))  # models loaded before timing
    now = read_all(args.only)
    if args.write:
        args.write.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n")
        return 0
    before = json.loads(args.check.read_text())
    differ = [n for n in now if before.get(n, {}).get("result") != now[n]["result"]]
    missing = [n for n in before if n not in now and not args.only]
    for name in now:
        was = before.get(name, {}).get("seconds", float("nan"))
        print(f"{name:<45} {was:6.2f} s -> {now[name]['seconds']:6.2f} s")
    total_was = sum(before[n]["seconds"] for n in now if n in before)
    total_now = sum(v["seconds"] for v in now.values())
    print(f"total {total_was:.2f} s -> {total_now:.2f} s")
    print(f"{len(now) - len(differ)} of {len(now)} photos identical; differ: {differ or 'none'}")
    if missing:
        print(f"not read now: {missing}")
    return 1 if differ or missing else 0


if __name__ == "__main__":
    sys.exit(main())
