"""A deck is fitted with one BLAS thread (many small products: more threads only wait for one
another), and the process's thread count is what it was once the fit is done."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import need_module

need_module("cv2", "needs the vision extra (opencv)")

from threadpoolctl import threadpool_info, threadpool_limits  # noqa: E402

from cardscore.vision import learn  # noqa: E402


def blas_threads() -> list[int]:
    return [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]


def test_the_fit_runs_on_one_blas_thread_and_restores_the_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[list[int]] = []
    real_adam = learn._adam

    def spy(*args: object, **kwargs: object) -> None:
        seen.append(blas_threads())
        real_adam(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(learn, "_adam", spy)
    rng = np.random.default_rng(0)
    with threadpool_limits(limits=2, user_api="blas"):
        before = blas_threads()
        seen_by_models = learn.Embedded(
            ("0" * 64,),
            (rng.standard_normal((60, learn.CLASSES)).astype(np.float32),),
            (rng.standard_normal((60, 16)).astype(np.float32),),
        )
        labels = rng.integers(0, learn.CLASSES, 60)
        learn.fit_embedded(seen_by_models, labels, ["member"], steps=3)
        assert blas_threads() == before
    assert seen
    assert all(count == [1] * len(count) for count in seen)
