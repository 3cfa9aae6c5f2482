"""Mutated real inputs: never a traceback, exit 0/1/2, bounded time, inputs unchanged.

Seeds are every fixture under tests/data and examples/ of each supported extension. Each
is mutated deterministically (byte flips, truncation, BOM, CRLF, NaN/inf, negative counts,
huge fields, mixed encodings, duplicated and deleted lines) and audited in-process.
Set BENCHAUDIT_FUZZ_N to run more mutations per kind (default 20 per kind here).
"""

from __future__ import annotations

import hashlib
import os
import random
import signal
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchaudit.cli import main

ROOT = Path(__file__).resolve().parents[2]
KINDS = (".csv", ".tsv", ".jsonl", ".json", ".md", ".html", ".pdf", ".parquet", ".txt", ".eval")
PER_KIND = int(os.environ.get("BENCHAUDIT_FUZZ_N", "20"))
LIMIT_SECONDS = 60
MAX_SEED_BYTES = 400_000


def _seeds() -> dict[str, list[Path]]:
    out: dict[str, list[Path]] = {}
    for base in (ROOT / "tests" / "data", ROOT / "examples"):
        for p in sorted(base.rglob("*")):
            if p.is_file() and p.suffix.lower() in KINDS and p.stat().st_size <= MAX_SEED_BYTES:
                out.setdefault(p.suffix.lower(), []).append(p)
    return out


def _mutate(data: bytes, rng: random.Random) -> bytes:
    ops = [
        lambda d: d[: rng.randrange(max(1, len(d)))],  # truncated
        lambda d: b"\xef\xbb\xbf" + d,  # BOM
        lambda d: d.replace(b"\n", b"\r\n"),  # CRLF
        lambda d: _flip(d, rng),
        lambda d: d.replace(b"1", b"NaN", 3),
        lambda d: d.replace(b"0", b"inf", 2),
        lambda d: d.replace(b"1", b"-7", 2),
        lambda d: _insert(d, rng, b"x" * 200_000),  # huge field
        lambda d: _insert(d, rng, "caf\xe9 na\xefve".encode("latin-1")),  # mixed encoding
        lambda d: _lines(d, rng, "dup"),
        lambda d: _lines(d, rng, "del"),
        lambda d: _insert(d, rng, b',,,\t\t"""{[('),
        lambda d: _insert(d, rng, b"\x00\x00"),
    ]
    for _ in range(rng.randint(1, 3)):
        data = rng.choice(ops)(data)
    return data


def _flip(d: bytes, rng: random.Random) -> bytes:
    if not d:
        return d
    b = bytearray(d)
    for _ in range(rng.randint(1, 8)):
        b[rng.randrange(len(b))] = rng.randrange(256)
    return bytes(b)


def _insert(d: bytes, rng: random.Random, chunk: bytes) -> bytes:
    i = rng.randrange(len(d) + 1)
    return d[:i] + chunk + d[i:]


def _lines(d: bytes, rng: random.Random, how: str) -> bytes:
    lines = d.split(b"\n")
    if len(lines) < 2:
        return d
    i = rng.randrange(len(lines))
    if how == "dup":
        lines.insert(i, lines[i])
    else:
        del lines[i]
    return b"\n".join(lines)


def _cases():
    seeds = _seeds()
    for suffix in KINDS:
        files = seeds.get(suffix, [])
        if not files:
            continue
        for i in range(PER_KIND):
            yield pytest.param(files[i % len(files)], i, id=f"{suffix[1:]}-{i}")


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout()


@pytest.mark.slow
@pytest.mark.parametrize("seed_file,i", list(_cases()))
def test_mutated_input_is_handled(seed_file: Path, i: int, tmp_path):
    rng = random.Random(f"{seed_file.name}-{i}")
    data = _mutate(seed_file.read_bytes(), rng)
    target = tmp_path / seed_file.name
    target.write_bytes(data)
    before = hashlib.sha256(target.read_bytes()).hexdigest()
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(LIMIT_SECONDS)
    try:
        result = CliRunner().invoke(
            main, ["check", str(target), "--format", "json", "--resamples", "200"]
        )
    except _Timeout:
        pytest.fail(f"{seed_file.name} mutation {i}: no answer within {LIMIT_SECONDS}s")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert hashlib.sha256(target.read_bytes()).hexdigest() == before, "input was modified"
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.output, result.exception)
    if isinstance(result.exception, SystemExit) or result.exception is None:
        pass
    else:
        pytest.fail(f"exception escaped: {type(result.exception).__name__}: {result.exception}")
    combined = result.output + (result.stderr if result.stderr_bytes is not None else "")
    assert "Traceback" not in combined
    if result.exit_code == 2:
        err = result.stderr.strip()
        assert len(err.splitlines()) == 1, err
        assert target.name in err, err


# --- hypothesis-driven mutations: shrinks a failure to a small edit of a real file ---------

_EDIT = st.tuples(
    st.sampled_from(["insert", "delete", "replace", "truncate"]),
    st.floats(0, 1),
    st.binary(max_size=48),
)


def _apply(data: bytes, edits: list[tuple[str, float, bytes]]) -> bytes:
    for op, where, chunk in edits:
        i = int(where * len(data))
        if op == "insert":
            data = data[:i] + chunk + data[i:]
        elif op == "delete":
            data = data[:i] + data[i + max(1, len(chunk)) :]
        elif op == "replace":
            data = data[:i] + chunk + data[i + len(chunk) :]
        else:
            data = data[:i]
    return data


def _kind_seeds() -> list[tuple[str, Path]]:
    return [(suffix, files[0]) for suffix, files in sorted(_seeds().items())]


@pytest.mark.slow
@pytest.mark.parametrize("suffix,seed_file", _kind_seeds(), ids=[s for s, _ in _kind_seeds()])
@settings(
    max_examples=15,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(edits=st.lists(_EDIT, min_size=1, max_size=4))
def test_hypothesis_edits_of_real_inputs(suffix, seed_file, edits, tmp_path_factory):
    target = tmp_path_factory.mktemp("fuzz") / seed_file.name
    target.write_bytes(_apply(seed_file.read_bytes(), edits))
    before = hashlib.sha256(target.read_bytes()).hexdigest()
    result = CliRunner().invoke(
        main, ["check", str(target), "--format", "json", "--resamples", "200"]
    )
    assert hashlib.sha256(target.read_bytes()).hexdigest() == before
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    if result.exit_code == 2:
        err = result.stderr.strip()
        assert len(err.splitlines()) == 1 and target.name in err, err
