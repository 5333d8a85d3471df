"""How long a correction takes to teach a match's deck after a spread (the web app's wait).

A spread of the serif design (tests/render_tables.py) fills a :class:`DeckMemory`; then the
cards confirmed on one rendered table (seed 30 of the plain design) are taught on top of it,
as a corrected round's photo is in the web app: crops found, memory added to, profile fitted,
both turned into bytes (what is stored). Prints each step's seconds (median of ``--runs``).

    nice -n 10 python benchmarks/deck_teach.py --runs 3
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from tests.render_tables import DESIGNS, render_table, spread

from cardscore.vision import recognize
from cardscore.vision.learn import Confirmed, DeckMemory, confirmed_examples, spread_examples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    memory = DeckMemory().add(spread_examples(spread(DESIGNS[1])), spread=True)
    stored = memory.to_bytes()
    table = render_table(30, DESIGNS[0])
    result = recognize(table.image)
    confirmed = [Confirmed(c.card, c.corners) for c in result.cards]
    times: dict[str, list[float]] = {"crops": [], "load": [], "add": [], "profile": [], "store": []}
    for _ in range(runs):
        start = time.perf_counter()
        examples = confirmed_examples(table.image, confirmed).examples
        t0 = time.perf_counter()
        kept = DeckMemory.from_bytes(stored)
        t1 = time.perf_counter()
        more = kept.add(examples)
        t2 = time.perf_counter()
        profile = more.profile("bench")
        t3 = time.perf_counter()
        more.to_bytes(), profile
        t4 = time.perf_counter()
        steps = (t0 - start, t1 - t0, t2 - t1, t3 - t2, t4 - t3)
        for key, took in zip(times, steps, strict=True):
            times[key].append(took)
    total = sum(statistics.median(v) for v in times.values())
    print(f"spread crops {len(memory.examples.labels)}, correction crops {len(examples.labels)}")
    print(f"memory bytes {len(stored)}")
    print(" ".join(f"{k} {statistics.median(v):.3f}s" for k, v in times.items()))
    print(f"correction after a spread: {total:.3f}s (load average {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
