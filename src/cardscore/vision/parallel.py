"""The recogniser's worker threads: its heavy steps split across the cores.

ONNX Runtime, OpenCV and NumPy's array loops release the GIL while they work, so a photo's
crops, classifier batches and per-pixel arithmetic run side by side on threads, each part
exactly as it would alone: the outputs do not depend on the split.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import TypeVar

__all__ = ["THREADS", "each", "workers"]

THREADS = 2  # the cores a recognition uses

T = TypeVar("T")
R = TypeVar("R")


@lru_cache(maxsize=4)
def workers(threads: int = THREADS) -> ThreadPoolExecutor:
    """A pool of ``threads`` threads, made once per process.

    >>> workers(2) is workers(2)
    True
    """
    return ThreadPoolExecutor(threads, thread_name_prefix="cardscore-vision")


# A forked child has none of its parent's threads, only their pool's bookkeeping: it makes a
# pool of its own.
os.register_at_fork(after_in_child=workers.cache_clear)


def each(job: Callable[[T], R], parts: Sequence[T], threads: int = THREADS) -> list[R]:
    """``job`` of each part, in order: on the pool's threads, or on this one for a single part
    or thread. Never call it from a job: the pool's threads would wait on themselves.

    >>> each(len, ["ab", "c"])
    [2, 1]
    """
    if threads <= 1 or len(parts) <= 1:
        return [job(part) for part in parts]
    return list(workers(threads).map(job, parts))
