"""Reading a shard ahead of its scan, in a second thread.

Inflating a gzip shard (zlib or ISA-L) and most of numpy's array passes run without
holding the GIL, so a thread that reads and decompresses the next batches while the
scanning thread hashes the current one puts a second core to work. The batches come
out in the same order and with the same contents as a plain loop gives; an error the
reader meets is raised in the consuming thread at the point the loop would have met
it. At most ``depth`` batches wait at a time, so memory stays bounded per shard. The
scan reads ahead only when a core is to spare (:func:`core_to_spare`).
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Iterator
from typing import TypeVar

T = TypeVar("T")

#: How often a blocked reader checks whether the consumer has gone (seconds).
_POLL = 0.05


def core_to_spare() -> bool:
    """Whether a second thread would find a core idle: this process may run on two or
    more, and the last minute's load average (which counts a scan that has run a while
    once) leaves about one free. On a machine whose cores are all busy the two threads
    only take turns, and handing batches over costs time."""
    try:
        cpus = len(os.sched_getaffinity(0))
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        return False
    return cpus >= 2 and load < cpus - 0.5


class _End:
    """The reader's last message: the iterator ended, or raised ``error``."""

    def __init__(self, error: BaseException | None = None) -> None:
        self.error = error


def read_ahead(source: Iterator[T], depth: int = 2) -> Iterator[T]:
    """The items of ``source``, produced by a reader thread up to ``depth`` ahead.

    With ``depth`` below 1 the items are read in the calling thread. Closing this
    generator early (a ``break``, an error in the consumer) stops the reader, which
    then closes ``source`` so that its files are released."""
    if depth < 1:
        yield from source
        return
    box: queue.Queue[T | _End] = queue.Queue(maxsize=depth)
    stop = threading.Event()

    def put(item: T | _End) -> bool:
        while not stop.is_set():
            try:
                box.put(item, timeout=_POLL)
                return True
            except queue.Full:
                continue
        return False

    def reader() -> None:
        try:
            for item in source:
                if not put(item):
                    return
        except BaseException as exc:  # noqa: BLE001 - handed to the consumer, raised there
            put(_End(exc))
            return
        finally:
            close = getattr(source, "close", None)
            if close is not None:
                close()
        put(_End())

    thread = threading.Thread(target=reader, name="shard-reader", daemon=True)
    thread.start()
    try:
        while True:
            got = box.get()
            if isinstance(got, _End):
                if got.error is not None:
                    raise got.error
                return
            yield got
    finally:
        stop.set()
        thread.join()
