"""Reading ahead in a thread gives the same items, errors and clean-up as a plain loop."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from benchaudit.contamination.prefetch import read_ahead


def _numbers(n: int, fail_at: int | None = None, closed: list[bool] | None = None) -> Iterator[int]:
    try:
        for i in range(n):
            if i == fail_at:
                raise ValueError(f"bad item {i}")
            yield i
    finally:
        if closed is not None:
            closed.append(True)


@pytest.mark.parametrize("depth", [0, 1, 2, 5])
def test_same_items_in_order(depth: int) -> None:
    assert list(read_ahead(_numbers(100), depth)) == list(range(100))


@pytest.mark.parametrize("depth", [0, 1, 3])
def test_error_is_raised_where_the_loop_meets_it(depth: int) -> None:
    seen: list[int] = []
    with pytest.raises(ValueError, match="bad item 7"):
        for x in read_ahead(_numbers(20, fail_at=7), depth):
            seen.append(x)
    assert seen == list(range(7))


def test_stopping_early_stops_the_reader_and_closes_the_source() -> None:
    closed: list[bool] = []
    before = threading.active_count()
    gen = read_ahead(_numbers(10_000, closed=closed), 2)
    assert [next(gen) for _ in range(3)] == [0, 1, 2]
    gen.close()
    assert closed == [True]
    assert threading.active_count() == before


def test_an_error_in_the_consumer_stops_the_reader() -> None:
    closed: list[bool] = []
    with pytest.raises(RuntimeError):
        for x in read_ahead(_numbers(10_000, closed=closed), 2):
            if x == 5:
                raise RuntimeError("consumer failed")
    assert closed == [True]


def test_core_to_spare_follows_the_load(monkeypatch: pytest.MonkeyPatch) -> None:
    from benchaudit.contamination import prefetch

    monkeypatch.setattr(prefetch.os, "sched_getaffinity", lambda _pid: {0, 1, 2, 3})
    monkeypatch.setattr(prefetch.os, "getloadavg", lambda: (2.5, 1.0, 1.0))
    assert prefetch.core_to_spare()
    monkeypatch.setattr(prefetch.os, "getloadavg", lambda: (3.5, 1.0, 1.0))
    assert not prefetch.core_to_spare()
    monkeypatch.setattr(prefetch.os, "sched_getaffinity", lambda _pid: {0})
    monkeypatch.setattr(prefetch.os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    assert not prefetch.core_to_spare()
