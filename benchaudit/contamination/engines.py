"""Engines that map :func:`scan_shard` over shards: local processes, or Ray.

Both return shard results in shard order, so the merged report is the same
whichever engine produced it. The local engine can resume: each finished
shard leaves a marker (its result as JSON, :mod:`benchaudit.contamination.markers`)
in ``state_dir``, keyed by the shard's path, size and modification time, the
index and the scan options. A marker is data, never code: one that is not
valid JSON of that schema (a pickle, say) is refused and the shard scanned again.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Callable, Sequence

from benchaudit.contamination.index import NgramIndex
from benchaudit.contamination.scan import ScanOptions, ShardResult, scan_shard
from benchaudit.contamination.shards import Shard
from benchaudit.errors import BenchauditError, InputError
from benchaudit.progress import Progress

_WORKER_INDEX: NgramIndex | None = None

#: An input error as plain data: ("input-error", path, detail, line).
_Failed = tuple[str, str, str, int | None]
#: Below this many bytes of shards the local engine scans in-process unless told otherwise.
SMALL_CORPUS = 32 << 20


def _marker(state_dir: str, index: NgramIndex, shard: Shard, opts: ScanOptions) -> str:
    st = os.stat(shard.path)
    key = "\x1f".join(
        (
            os.path.abspath(shard.path),
            str(st.st_size),
            str(st.st_mtime_ns),
            index.fingerprint,
            opts.key(),
        )
    )
    name = hashlib.sha256(key.encode()).hexdigest()[:24]
    return os.path.join(state_dir, f"shard-{name}.done")


def _load_marker(path: str, shard: Shard, notes: list[str] | None) -> ShardResult | None:
    from benchaudit.contamination.markers import MarkerError, load

    try:
        res = load(path)
    except FileNotFoundError:
        return None
    except (OSError, MarkerError) as exc:
        if notes is not None:
            notes.append(f"contamination: refused resume marker {path}: {exc}; shard scanned again")
        return None
    res.ordinal = shard.ordinal
    res.shard = shard.path
    return res


def _save_marker(path: str, res: ShardResult) -> None:
    from benchaudit.contamination.markers import dump

    folder = os.path.dirname(path)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(dump(res))
    os.replace(tmp, path)  # atomic: a marker is either complete or absent


def _writable(state_dir: str) -> None:
    """Fail in one line before the scan, not after it, when markers cannot be written."""
    try:
        os.makedirs(state_dir, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=state_dir, prefix=".tmp-")
        os.close(fd)
        os.remove(tmp)
    except OSError as exc:
        raise BenchauditError(
            f"{state_dir}: cannot write resume markers to the state directory: "
            f"{exc.strerror or exc}"
        ) from None


def _bar(shards: Sequence[Shard], enabled: bool | None) -> Progress:
    """A bar over the bytes of the shards (shards differ in size, bytes do not)."""
    return Progress(sum(s.size for s in shards), "scanning shards (bytes)", enabled=enabled)


def _init_worker(index: NgramIndex) -> None:
    global _WORKER_INDEX
    _WORKER_INDEX = index


def _guarded(index: NgramIndex, shard: Shard, opts: ScanOptions) -> ShardResult | _Failed:
    """Scan, returning an input error as plain data (it crosses process boundaries)."""
    try:
        return scan_shard(index, shard, opts)
    except InputError as exc:
        return ("input-error", exc.path, exc.detail, exc.line)


def _unwrap(res: ShardResult | _Failed) -> ShardResult:
    if isinstance(res, tuple):
        _, path, detail, line = res
        raise InputError(path, detail, line)
    return res


def _scan_in_worker(shard: Shard, opts: ScanOptions) -> ShardResult | _Failed:
    assert _WORKER_INDEX is not None
    return _guarded(_WORKER_INDEX, shard, opts)


def _pending(
    index: NgramIndex,
    shards: Sequence[Shard],
    opts: ScanOptions,
    state_dir: str | None,
    notes: list[str] | None = None,
) -> tuple[dict[int, ShardResult], list[Shard]]:
    done: dict[int, ShardResult] = {}
    todo: list[Shard] = []
    if state_dir:
        _writable(state_dir)
    for shard in shards:
        res = None
        if state_dir:
            res = _load_marker(_marker(state_dir, index, shard, opts), shard, notes)
        if res is not None:
            done[shard.ordinal] = res
        else:
            todo.append(shard)
    return done, todo


def run_local(
    index: NgramIndex,
    shards: Sequence[Shard],
    opts: ScanOptions,
    workers: int | None = None,
    state_dir: str | None = None,
    progress: bool | None = None,
    notes: list[str] | None = None,
) -> list[ShardResult]:
    """Scan shards with a process pool (in this process when one worker suffices)."""
    done, todo = _pending(index, shards, opts, state_dir, notes)
    bar = _bar(shards, progress)
    for shard in shards:
        if shard.ordinal in done:
            bar.update(shard.size)
    n_workers = max(1, min(workers or os.cpu_count() or 1, len(todo)))
    if workers is None and sum(s.size for s in todo) < SMALL_CORPUS:
        n_workers = 1  # starting worker processes would cost more than the scan

    def finish(shard: Shard, res: ShardResult) -> None:
        if state_dir:
            _save_marker(_marker(state_dir, index, shard, opts), res)
        done[shard.ordinal] = res
        bar.update(shard.size)

    if n_workers == 1:
        for shard in todo:
            finish(shard, scan_shard(index, shard, opts))
    else:
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor, as_completed

        ctx = mp.get_context("spawn")
        with ProcessPoolExecutor(
            n_workers, mp_context=ctx, initializer=_init_worker, initargs=(index,)
        ) as pool:
            futures = {pool.submit(_scan_in_worker, s, opts): s for s in todo}
            for fut in as_completed(futures):
                finish(futures[fut], _unwrap(fut.result()))
    bar.close()
    return [done[s.ordinal] for s in shards]


class _RayScanner:
    """A Ray actor holding one copy of the index for all the shards it scans."""

    def __init__(self, index: NgramIndex) -> None:
        self.index = index

    def scan(self, shard: Shard, opts: ScanOptions) -> ShardResult | _Failed:
        return _guarded(self.index, shard, opts)


def run_ray(
    index: NgramIndex,
    shards: Sequence[Shard],
    opts: ScanOptions,
    address: str | None = None,
    workers: int | None = None,
    state_dir: str | None = None,
    progress: bool | None = None,
    notes: list[str] | None = None,
) -> list[ShardResult]:
    """Scan shards on a Ray cluster: the index is put in the object store once and
    each actor (one per worker) deserialises it once."""
    try:
        import ray
        from ray.util import ActorPool
    except ImportError:
        raise BenchauditError("the ray engine needs Ray: pip install 'benchaudit-lint[ray]'") from None
    done, todo = _pending(index, shards, opts, state_dir, notes)
    bar = _bar(shards, progress)
    started = False
    if not ray.is_initialized():
        try:
            ray.init(
                address=address,
                include_dashboard=False,
                log_to_driver=False,
                configure_logging=False,
            )
        except ConnectionError as exc:
            raise BenchauditError(f"cannot connect to Ray at {address}: {exc}") from None
        started = True
    try:
        if todo:
            # ray leaves available_resources unannotated (it returns a dict of floats)
            resources = ray.available_resources()  # type: ignore[no-untyped-call]
            cpus = int(resources.get("CPU", 1)) or 1
            n = max(1, min(workers or cpus, len(todo)))
            ref = ray.put(index)
            actor_cls = ray.remote(num_cpus=1)(_RayScanner)
            pool = ActorPool([actor_cls.remote(ref) for _ in range(n)])
            for shard, got in zip(todo, pool.map(lambda a, s: a.scan.remote(s, opts), todo)):
                res = _unwrap(got)
                res.shard, res.ordinal = shard.path, shard.ordinal
                if state_dir:
                    _save_marker(_marker(state_dir, index, shard, opts), res)
                done[shard.ordinal] = res
                bar.update(shard.size)
    finally:
        bar.close()
        if started:
            ray.shutdown()
    return [done[s.ordinal] for s in shards]


ENGINES: dict[str, Callable[..., list[ShardResult]]] = {"local": run_local, "ray": run_ray}
