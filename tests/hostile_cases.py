"""Hostile inputs, built at test time (never committed as files), and a capped runner.

Each builder writes its input under a folder and returns the command line that feeds it to
benchaudit. ``run_capped`` runs one command in a fresh interpreter under an address-space
cap (``RLIMIT_AS``) and a wall-clock cap, and reports the exit code, the output, the time and
the peak resident memory of that process alone (``os.wait4``).

``python tests/hostile_cases.py [NAME ...]`` prints time and peak memory per case.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

MiB = 1 << 20

#: Address-space cap for one run. The interpreter with numpy, scipy and pyarrow imported
#: maps about 700 MB of address space (shared libraries, allocator reservations) while
#: touching under 150 MB: below 768 MB scipy's libraries fail to load even with one
#: BLAS thread. So the hard cap is on address space at 1 GiB (the bound hostile inputs
#: must stay within), and the issue's bound on memory actually used is checked on the
#: peak resident size below.
ADDRESS_SPACE_CAP = 1024 * MiB
#: Peak resident memory allowed for an input under 1 MB (the issue's bound).
PEAK_RSS_BOUND = 256 * MiB


@dataclass
class Case:
    name: str
    argv: list[str]
    inputs: list[Path] = field(default_factory=list)
    #: "error": must be refused with exit 2 naming ``names``; "answer": exit 0 or 1.
    expect: str = "error"
    names: str = ""
    #: The part of the code base whose bound this case checks, when not this change's.
    owner: str = ""
    #: Peak resident bound for this case (inputs over 1 MB on disk may use more).
    rss_bound: int = PEAK_RSS_BOUND


def _bench(folder: Path) -> Path:
    p = folder / "bench.jsonl"
    p.write_text(
        '{"id": "q1", "question": "Natalia sold clips to 48 of her friends in April, and then '
        'she sold half as many clips in May. How many clips did Natalia sell altogether?"}\n',
        encoding="utf-8",
    )
    return p


def _contamination(folder: Path, shard: Path, name: str, **kw) -> Case:
    bench = _bench(folder)
    argv = ["contamination", "--benchmark", str(bench), "--corpus", str(shard), "--workers", "1"]
    return Case(name, argv, [bench, shard], names=shard.name, **kw)


def _deflate_repeated(piece: bytes, total: int, wbits: int) -> bytes:
    """``piece`` repeated to ``total`` bytes, as a zlib (``wbits=15``) or gzip (31) stream.

    Built without compressing ``total`` bytes: one MiB is deflated once with a full flush
    (which resets the dictionary, so the compressed MiB can be repeated as it is), and the
    header and checksums are written around the repeats."""
    import struct

    block = piece * (MiB // len(piece))
    count = total // len(block)
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)
    unit = comp.compress(block) + comp.flush(zlib.Z_FULL_FLUSH)
    body = unit * count + b"\x03\x00"  # an empty final block ends the stream
    size = count * len(block)
    if wbits == 31:
        crc = 0
        for _ in range(count):
            crc = zlib.crc32(block, crc)
        head = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"
        return head + body + struct.pack("<II", crc, size & 0xFFFFFFFF)
    adler = 1
    for _ in range(count):
        adler = zlib.adler32(block, adler)
    return b"\x78\xda" + body + struct.pack(">I", adler)


def gzip_newlines(folder: Path) -> Case:
    """About 1 MB of gzip that expands to 1 GiB of newlines."""
    shard = folder / "shard.jsonl.gz"
    shard.write_bytes(_deflate_repeated(b"\n", 1 << 30, 31))
    return _contamination(folder, shard, "gzip-newlines", rss_bound=PEAK_RSS_BOUND)


def zst_newlines(folder: Path) -> Case:
    """32 KB of zstd that expand to 1 GiB of newlines."""
    import zstandard

    shard = folder / "shard.jsonl.zst"
    comp = zstandard.ZstdCompressor(level=3).compressobj()
    block = b"\n" * (4 * MiB)
    out = [comp.compress(block) for _ in range(256)]
    out.append(comp.flush())
    shard.write_bytes(b"".join(out))
    return _contamination(folder, shard, "zst-newlines")


def _sparse(path: Path, size: int) -> Path:
    """A file of ``size`` NUL bytes that takes no disk space: one line with no newline."""
    with open(path, "wb") as fh:
        fh.truncate(size)
    return path


def shard_one_line_512mb(folder: Path) -> Case:
    shard = _sparse(folder / "shard.jsonl", 512 * MiB)
    return _contamination(folder, shard, "shard-one-line-512MB", rss_bound=PEAK_RSS_BOUND)


def shard_one_line_2gb(folder: Path) -> Case:
    shard = _sparse(folder / "shard.txt", 2048 * MiB)
    return _contamination(folder, shard, "shard-one-line-2GB", rss_bound=PEAK_RSS_BOUND)


def benchmark_one_line_2gb(folder: Path) -> Case:
    bench = _sparse(folder / "bench.jsonl", 2048 * MiB)
    shard = folder / "shard.jsonl"
    shard.write_text('{"text": "nothing to see"}\n', encoding="utf-8")
    argv = ["contamination", "--benchmark", str(bench), "--corpus", str(shard), "--workers", "1"]
    return Case("benchmark-one-line-2GB", argv, [bench, shard], names="bench.jsonl")


def _pdf(objects: list[bytes]) -> bytes:
    """A PDF file from its numbered objects (1-based), with a correct xref table."""
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def _stream(data: bytes, flate: bool = False) -> bytes:
    head = b"<< /Length %d%s >>\nstream\n" % (len(data), b" /Filter /FlateDecode" if flate else b"")
    return head + data + b"\nendstream"


_FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


def pdf_stream_bomb(folder: Path) -> Case:
    """One page whose content stream is ~650 KB of deflate expanding to 256 MB of operators."""
    content = _deflate_repeated(b"BT /F1 12 Tf ET\n", 256 * MiB, 15)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
        _stream(content, flate=True),
        _FONT,
    ]
    p = folder / "bomb.pdf"
    p.write_bytes(_pdf(objects))
    return Case("pdf-stream-bomb", ["check", str(p)], [p], names="bomb.pdf")


def pdf_many_pages(folder: Path, pages: int = 20_000) -> Case:
    """20,000 pages of one short line each (about 6 MB)."""
    kids = b" ".join(b"%d 0 R" % (4 + 2 * i) for i in range(pages))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [" + kids + b"] /Count %d >>" % pages,
        _FONT,
    ]
    for i in range(pages):
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % (5 + 2 * i)
        )
        objects.append(_stream(b"BT /F1 12 Tf 72 720 Td (We reach 87.3%% on HumanEval.) Tj ET"))
    p = folder / "pages.pdf"
    p.write_bytes(_pdf(objects))
    return Case("pdf-20000-pages", ["check", str(p)], [p], names="pages.pdf", rss_bound=384 * MiB)


def baseline_dev_zero(folder: Path) -> Case:
    doc = folder / "README.md"
    doc.write_text("We reach 87.2% on HumanEval.\n", encoding="utf-8")
    argv = ["check", str(doc), "--baseline", "/dev/zero"]
    return Case("baseline-dev-zero", argv, [doc], names="/dev/zero")


def _doc_case(folder: Path, name: str, filename: str, text: str, **kw) -> Case:
    p = folder / filename
    p.write_text(text, encoding="utf-8", newline="")
    return Case(name, ["check", str(p)], [p], names=filename, **kw)


def huge_count_sentence(folder: Path) -> Case:
    text = f"On {'9' * 155} questions our model scores 50.0%.\n"
    return _doc_case(folder, "count-9x155", "README.md", text, expect="answer")


def huge_fraction(folder: Path) -> Case:
    nines = "9" * 35
    text = f"Our model solves {nines} of {nines} problems (87.3%) on HumanEval.\n"
    return _doc_case(folder, "fraction-9x35", "README.md", text, expect="answer")


def digits_4301(folder: Path) -> Case:
    """A 4,301-digit number in a table cell: past the digits Python's int() converts."""
    text = f"| Model | HumanEval |\n|---|---|\n| ours | {'7' * 4301} |\n| base | 87.3 |\n"
    return _doc_case(folder, "number-4301-digits", "README.md", text, expect="answer")


def score_30_decimals(folder: Path) -> Case:
    """More decimals than decimal's default 28-digit context can quantize to."""
    text = "We reach 87.30000000000000000000000000001% on HumanEval.\n"
    return _doc_case(folder, "score-30-decimals", "README.md", text, expect="answer")


def json_brackets(folder: Path) -> Case:
    return _doc_case(folder, "json-2000-brackets", "items.json", "[" * 2000)


def csv_lone_cr(folder: Path) -> Case:
    p = folder / "scores.csv"
    p.write_bytes(b"a\rb\n")
    return Case("csv-lone-cr", ["check", str(p)], [p], names="scores.csv")


def leaderboard_nan(folder: Path) -> Case:
    text = (
        "model,score,95% CI,n\n"
        "alpha,NaN,+1.2/-1.1,500\n"
        "beta,inf,+1.0/-1.3,500\n"
        "gamma,71.0,+nan/-inf,NaN\n"
        "delta,70.5,+1.0/-1.0,inf\n"
        "eps,70.0,+1.0/-1.0,500\n"
    )
    return _doc_case(folder, "leaderboard-nan-inf", "leaderboard.csv", text, expect="answer")


def calibration_logit(folder: Path) -> Case:
    rows = ["logit_0,logit_1,label"]
    rows += [f"{1e308 if i % 2 else -1e308},{i * 0.1},{i % 2}" for i in range(40)]
    text = "\n".join(rows) + "\n"
    return _doc_case(folder, "calibration-logit-1e308", "calibration.csv", text, expect="answer")


def filename_xff(folder: Path) -> Case:
    raw = os.fsencode(str(folder)) + b"/model\xffcard.md"
    with open(raw, "wb") as fh:
        fh.write(b"We reach 87.3% on HumanEval with greedy decoding.\n")
    p = Path(os.fsdecode(raw))
    return Case("filename-byte-xff", ["check", str(p)], [p], expect="answer")


def odd_line_breaks(folder: Path) -> Case:
    text = (
        "Intro\u2028still the first line.\fAnd\x85this too.\n"
        "We reach 87.3% on HumanEval with greedy decoding.\n"
    )
    return _doc_case(folder, "line-breaks-u2028", "README.md", text, expect="answer")


# Bounds built in the claim extractor (linear in a paragraph) and the tabular readers (the
# wide-file caps).


def many_numbers_sentence(folder: Path) -> Case:
    one = "Our model reaches 87.3% on HumanEval and 92.5% on GSM8K, a gain of 5.1 points, "
    text = one * (40_000 // len(one)) + "\n"
    return _doc_case(folder, "sentence-40KB-of-numbers", "README.md", text, expect="answer")


def wide_csv(folder: Path) -> Case:
    cols = 2000
    rows = ["item," + ",".join(f"m{j}" for j in range(cols))]
    rows += [f"q{i}," + ",".join(str((i + j) % 2) for j in range(cols)) for i in range(30)]
    return _doc_case(folder, "wide-csv-2000-columns", "scores.csv", "\n".join(rows) + "\n",
                     expect="error")


BUILDERS: dict[str, Callable[[Path], Case]] = {
    "gzip-newlines": gzip_newlines,
    "zst-newlines": zst_newlines,
    "shard-one-line-512MB": shard_one_line_512mb,
    "shard-one-line-2GB": shard_one_line_2gb,
    "benchmark-one-line-2GB": benchmark_one_line_2gb,
    "pdf-stream-bomb": pdf_stream_bomb,
    "pdf-20000-pages": pdf_many_pages,
    "baseline-dev-zero": baseline_dev_zero,
    "count-9x155": huge_count_sentence,
    "fraction-9x35": huge_fraction,
    "number-4301-digits": digits_4301,
    "score-30-decimals": score_30_decimals,
    "json-2000-brackets": json_brackets,
    "csv-lone-cr": csv_lone_cr,
    "leaderboard-nan-inf": leaderboard_nan,
    "calibration-logit-1e308": calibration_logit,
    "filename-byte-xff": filename_xff,
    "line-breaks-u2028": odd_line_breaks,
    "sentence-40KB-of-numbers": many_numbers_sentence,
    "wide-csv-2000-columns": wide_csv,
}


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str
    seconds: float
    peak_rss: int  # bytes
    timed_out: bool


def _limit(cap: int) -> Callable[[], None]:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        os.setsid()

    return apply


#: One thread per numeric library: the runs are measured one process at a time.
_THREADS = {v: "1" for v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")}


def peak_rss_self() -> int:
    """This process's peak resident size in bytes (``VmHWM``: per address space, so a child
    forked from a large test runner does not inherit the runner's figure, as ``ru_maxrss``
    does across ``exec``)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            kb = next((ln.split()[1] for ln in fh if ln.startswith("VmHWM:")), None)
    except OSError:
        kb = None
    if kb is None:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return int(kb) * 1024


#: Runs benchaudit (or a script) and writes its own peak resident size on the way out.
_LAUNCHER = """
import atexit, os, runpy, sys
sys.path.insert(0, os.environ["HOSTILE_TESTS"])
from hostile_cases import peak_rss_self
def _report():
    with open(os.environ["HOSTILE_PEAK_FILE"], "w") as out:
        out.write(str(peak_rss_self()))
atexit.register(_report)
target = sys.argv[1]
sys.argv = sys.argv[1:]
if target == "-m":
    sys.argv = sys.argv[1:]
    runpy.run_module("benchaudit", run_name="__main__", alter_sys=True)
else:
    runpy.run_path(target, run_name="__main__")
"""


def run_capped(
    argv: list[str],
    timeout: float = 30.0,
    cap: int = ADDRESS_SPACE_CAP,
    cwd: str | None = None,
    python: str = sys.executable,
    script: str | None = None,
) -> Run:
    """``python -m benchaudit ARGV`` (or ``python SCRIPT ARGV``) under an address-space cap
    and a wall-clock cap."""
    with tempfile.TemporaryDirectory() as tmp:
        peak_file = os.path.join(tmp, "peak")
        env = dict(os.environ, PYTHONHASHSEED="0", BENCHAUDIT_NO_PROGRESS="1", **_THREADS)
        env.update(HOSTILE_PEAK_FILE=peak_file, HOSTILE_TESTS=str(Path(__file__).parent))
        env.pop("BENCHAUDIT_DEBUG", None)
        out, err = os.path.join(tmp, "out"), os.path.join(tmp, "err")
        target = [script] if script else ["-m", "benchaudit"]
        with open(out, "wb") as fo, open(err, "wb") as fe:
            start = time.monotonic()
            proc = subprocess.Popen(
                [python, "-c", _LAUNCHER, *target, *argv],
                stdout=fo,
                stderr=fe,
                stdin=subprocess.DEVNULL,
                cwd=cwd,
                env=env,
                preexec_fn=_limit(cap) if cap else None,
            )
            try:
                proc.wait(timeout)
                timed_out = False
            except subprocess.TimeoutExpired:
                timed_out = True
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            seconds = time.monotonic() - start
        try:
            with open(peak_file, encoding="ascii") as fh:
                peak = int(fh.read() or 0)
        except (OSError, ValueError):
            peak = 0  # killed before it could say
        with open(out, "rb") as fo, open(err, "rb") as fe:
            return Run(
                proc.returncode,
                fo.read().decode("utf-8", "replace"),
                fe.read().decode("utf-8", "replace"),
                seconds,
                peak,
                timed_out,
            )


def _main(names: list[str]) -> None:
    timeout = float(os.environ.get("HOSTILE_TIMEOUT", "300"))
    cap = int(os.environ.get("HOSTILE_CAP_MB", "0")) * MiB
    for name in names or list(BUILDERS):
        with tempfile.TemporaryDirectory() as tmp:
            case = BUILDERS[name](Path(tmp))
            python = os.environ.get("HOSTILE_PYTHON", sys.executable)
            run = run_capped(case.argv, timeout=timeout, cap=cap, cwd=tmp, python=python)
            last = (run.stderr.strip().splitlines() or [""])[-1][:150]
            state = "timeout" if run.timed_out else f"exit {run.code}"
            print(f"{name:28s} {state:8s} {run.seconds:7.1f} s {run.peak_rss / MiB:8.0f} MB  {last}",
                  flush=True)


if __name__ == "__main__":
    _main(sys.argv[1:])
