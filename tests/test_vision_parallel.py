"""The recogniser's worker threads (cardscore.vision.parallel)."""

from __future__ import annotations

import multiprocessing
import sys
import threading
from typing import Any

import pytest

from cardscore.vision.parallel import each, workers


def test_each_keeps_the_parts_order_on_any_threads() -> None:
    parts = [list(range(n)) for n in range(40)]
    assert each(sum, parts, 3) == each(sum, parts, 1) == [sum(p) for p in parts]
    assert each(sum, [], 2) == []


def _child(out: Any) -> None:
    out.put(each(len, ["a", "bb", "ccc"]))


@pytest.mark.skipif(sys.platform == "win32", reason="no fork")
def test_a_forked_child_makes_its_own_pool() -> None:
    # Both of the parent's threads started (each job waits for the other), then idle: a
    # child with the parent's pool would queue its jobs for threads it does not have.
    meet = threading.Barrier(2)

    def together(n: int) -> int:
        meet.wait(10)
        return n

    assert each(together, [1, 2]) == [1, 2]
    assert len(workers(2)._threads) == 2
    context = multiprocessing.get_context("fork")
    out = context.SimpleQueue()
    child = context.Process(target=_child, args=(out,))
    child.start()
    child.join(30)
    if child.is_alive():  # waiting on the parent's threads
        child.kill()
    assert child.exitcode == 0
    assert out.get() == [1, 2, 3]
