"""One BLAS thread for NumPy's matrix products while a block runs (:func:`one_blas_thread`).

Fitting a deck profile is a few hundred matrix products of about 1,400 × 384 × 53. OpenBLAS
splits each among its threads, which spin waiting for one another: on a machine whose cores
are busy (a server reading other photos, other programs) a fit measured 4 to 16 s with
OpenBLAS's two threads and 0.5 to 0.7 s with one (``benchmarks/deck_teach.py``, 2 cores,
load average 7 to 8). On a quiet machine one thread costs little: the products are small.

OpenBLAS's own ``set_num_threads`` is called through :mod:`ctypes` on the library NumPy
loaded (as ``threadpoolctl`` does); where it cannot be found (another BLAS, another system)
the block runs as it is.
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache

import numpy as np

__all__ = ["one_blas_thread"]

# (set, get) as OpenBLAS builds name them: NumPy's wheels (64-bit integers), then others.
_NAMES = (
    ("scipy_openblas_set_num_threads64_", "scipy_openblas_get_num_threads64_"),
    ("openblas_set_num_threads64_", "openblas_get_num_threads64_"),
    ("openblas_set_num_threads", "openblas_get_num_threads"),
)
_LOCK = threading.Lock()
_inside = 0  # blocks running now, in any thread: the last one out restores the count
_before = 0

Threads = tuple[Callable[[int], None], Callable[[], int]]


@lru_cache(maxsize=1)
def _openblas() -> Threads | None:
    """OpenBLAS's (set, get) thread count functions, from the libraries this process loaded."""
    np.dot(np.ones((2, 2)), np.ones((2, 2)))  # NumPy's BLAS is loaded by now
    try:
        with open("/proc/self/maps") as maps:
            paths = sorted({line.split()[-1] for line in maps if "openblas" in line.lower()})
    except OSError:
        return None
    for path in paths:
        try:
            library = ctypes.CDLL(path)
        except OSError:
            continue
        for set_name, get_name in _NAMES:
            if hasattr(library, set_name) and hasattr(library, get_name):
                return getattr(library, set_name), getattr(library, get_name)
    return None


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """Within this block (in every thread: OpenBLAS's count is the process's) NumPy's matrix
    products use one thread; the count before is restored when the last block ends.

    >>> with one_blas_thread():
    ...     float(np.ones((3, 3)) @ np.ones(3) @ np.ones(3))
    9.0
    """
    global _inside, _before
    found = _openblas()
    if found is None:
        yield
        return
    set_threads, get_threads = found
    with _LOCK:
        if _inside == 0:
            _before = int(get_threads())
            set_threads(1)
        _inside += 1
    try:
        yield
    finally:
        with _LOCK:
            _inside -= 1
            if _inside == 0:
                set_threads(_before)
