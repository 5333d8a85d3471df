"""One BLAS thread while a deck is fitted: set inside the block, the count before restored
after it (after the last of several blocks at once), products unchanged."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from tests.conftest import need_module

need_module("cv2", "needs the vision extra (opencv)")

from cardscore.vision import blas  # noqa: E402
from cardscore.vision.blas import one_blas_thread  # noqa: E402


def test_one_thread_inside_and_the_count_restored_after() -> None:
    found = blas._openblas()
    if found is None:
        pytest.skip("NumPy's BLAS here is not OpenBLAS")
    set_threads, get_threads = found
    set_threads(2)
    a = np.random.default_rng(0).standard_normal((300, 200)).astype(np.float32)
    before = a @ a.T
    try:
        with one_blas_thread():
            assert get_threads() == 1
            with one_blas_thread():
                assert get_threads() == 1
            assert get_threads() == 1  # the outer block still runs
            np.testing.assert_allclose(a @ a.T, before, rtol=1e-5, atol=1e-4)
        assert get_threads() == 2
    finally:
        set_threads(2)


def test_blocks_in_several_threads_restore_the_count_once_all_end() -> None:
    found = blas._openblas()
    if found is None:
        pytest.skip("NumPy's BLAS here is not OpenBLAS")
    set_threads, get_threads = found
    set_threads(2)
    inside, leave = threading.Barrier(3), threading.Event()
    seen: list[int] = []

    def fit() -> None:
        with one_blas_thread():
            inside.wait()
            leave.wait()
            seen.append(get_threads())

    workers = [threading.Thread(target=fit) for _ in range(2)]
    for worker in workers:
        worker.start()
    inside.wait()
    assert get_threads() == 1
    leave.set()
    for worker in workers:
        worker.join()
    assert get_threads() == 2
    assert seen == [1, 1]  # each ran its block with one thread
