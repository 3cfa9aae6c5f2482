"""Start-up budget, measured as a user meets it: the installed ``benchaudit`` command.

Two figures, each against bare ``python -c pass`` run by the interpreter the console
script starts (so both pay the same interpreter and site start-up):

* ``benchaudit check`` on a 30-line model card: budget 6x bare Python;
* ``benchaudit check`` on a per-item CSV of 2 models x 10 items: budget 0.35 s, beside
  ``python -c "import numpy"``, which a small 0/1 file no longer pays (larger or graded
  files are analysed with numpy).

Bytecode is written on the warm-up runs, as a pip install writes it, even where
``PYTHONDONTWRITEBYTECODE`` is set. The command keeps compiled regular expressions
(``benchaudit.regex_cache``) and the compiled methods of its record classes
(``benchaudit.method_cache``) in its cache folder; the runs use a cache folder of their own,
filled by the warm-up runs as a user's first check fills theirs, and a card check with
an empty cache folder each time (what the very first check after an install costs) is
timed beside them.

Which command: by default (``--fresh-venv``) a virtual environment is built in a temporary
folder and this checkout pip-installed into it (not editable, as a user installs it; if pip
cannot resolve the dependencies, the checkout alone and a ``.pth`` line naming this
interpreter's site-packages); ``--venv DIR`` uses that environment's command;
``--on-path`` the ``benchaudit`` on ``PATH``.

The commands run alternately (machine load hits them alike). Each ratio is taken round by
round (a check against the bare run beside it) and printed as the median with its
quartiles, so a noisy machine shows as a wide spread rather than a wrong median. Wall time
and CPU time (user + system of the child) are both printed: on a shared machine the CPU
figure is the steadier one. Last, the number of modules a card check leaves loaded is
printed beside bare Python's.

    python benchmarks/bench_startup.py [--runs 21] [--card FILE] [--fresh-venv | --venv DIR | --on-path]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

CARD = """\
# Example-7B

Example-7B is a 7B-parameter model trained on 2T tokens (released 2024-05-01).

## Results

| Benchmark | Example-7B | Baseline-7B |
|---|---|---|
| HumanEval (pass@1) | 87.2 | 84.1 |
| GSM8K | 92.5 | 90.1 |
| MATH-500 | 76.4 | 73.0 |
| MMLU | 70.3 | 68.9 |

Example-7B reaches 87.2% on HumanEval and 92.5% on GSM8K, averaged over 3 seeds.
On AIME 2024 it scores 79.8% averaged over 64 samples per problem.
Compared with Baseline-7B (70.0%), our model (73.0%) improves MATH-500 by 3.0 points.

## Training

We trained for 3 epochs on 512 GPUs with a learning rate of 3e-4.
About 2.5% of the compute budget went to the final annealing phase.

## Limitations

The model may produce incorrect answers. Scores are from a single evaluation run
with greedy decoding. See the paper (Section 4.2) for details.

## Licence

Apache-2.0.
"""


def small_csv(path: Path, models: int = 2, items: int = 10, seed: int = 0) -> None:
    """A per-item result file of ``models`` x ``items`` 0/1 scores."""
    rng = random.Random(seed)
    rows = ["model,item,correct"]
    for m in range(models):
        rows.extend(f"model-{m},q{i},{int(rng.random() < 0.6)}" for i in range(items))
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")


#: A pip install compiles the package's bytecode; an environment that forbids writing
#: it would have every run recompile every module, which no user pays.
_ENV = {
    k: v
    for k, v in os.environ.items()
    if k not in ("PYTHONDONTWRITEBYTECODE", "BENCHAUDIT_NO_CACHE", "BENCHAUDIT_CACHE_DIR")
}
ROOT = Path(__file__).resolve().parent.parent


def _time(cmd: list[str], cwd: str, env: dict[str, str] | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child) for one run of ``cmd``."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=cwd, env=env or _ENV
    )
    # wait4 gives the child's own rusage, to the microsecond (os.times ticks at 10 ms).
    _, _, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = 0  # reaped above; keep Popen from waiting again
    return wall, usage.ru_utime + usage.ru_stime


#: Run by the command's interpreter: the console script as it runs, then how many modules
#: ``sys.modules`` holds at exit (the interpreter's own start-up included).
_COUNT = (
    "import atexit, runpy, sys\n"
    "atexit.register(lambda: sys.stderr.write('MODULES %d\\n' % len(sys.modules)))\n"
    "sys.argv = sys.argv[1:]\n"
    "runpy.run_path(sys.argv[0], run_name='__main__')\n"
)


def _modules(interpreter: str, cmd: list[str], cwd: str, env: dict[str, str]) -> int | None:
    """Modules loaded by ``cmd`` (a console script and its arguments), or None."""
    if not Path(cmd[0]).is_file():
        return None
    done = subprocess.run(
        [interpreter, "-c", _COUNT, *cmd], cwd=cwd, env=env, capture_output=True, text=True
    )
    lines = [ln for ln in done.stderr.splitlines() if ln.startswith("MODULES ")]
    return int(lines[-1].split()[1]) if lines else None


def _interpreter(script: str | None) -> str:
    """The interpreter a console script runs under (its shebang), else this one."""
    if script:
        try:
            first = Path(script).read_text(encoding="utf-8", errors="replace").splitlines()[0]
        except (OSError, IndexError):
            first = ""
        if first.startswith("#!") and " " not in first[2:].strip():
            return first[2:].strip()
    return sys.executable


def fresh_venv(folder: Path) -> tuple[str, str]:
    """A new virtual environment with this checkout pip-installed; (command, how)."""
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
    pip = [
        str(folder / "bin" / "python"),
        "-m",
        "pip",
        "install",
        "-q",
        "--disable-pip-version-check",
    ]
    done = subprocess.run([*pip, str(ROOT)], capture_output=True, text=True, env=_ENV)
    how = "fresh venv, pip install (not editable)"
    if done.returncode != 0:
        subprocess.run([*pip, "--no-deps", str(ROOT)], check=True, env=_ENV)
        site = next((folder / "lib").glob("python*/site-packages"))
        (site / "_bench_deps.pth").write_text(
            sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8"
        )
        how = "fresh venv, pip install --no-deps (dependencies from this interpreter)"
    return str(folder / "bin" / "benchaudit"), how


def _quartiles(values: list[float]) -> tuple[float, float, float]:
    """Median, first and third quartile."""
    values = sorted(values)
    q1, _, q3 = statistics.quantiles(values, n=4) if len(values) > 1 else values * 3
    return statistics.median(values), q1, q3


def _stats(runs: list[tuple[float, float]], which: int) -> tuple[float, float, float]:
    """Median and quartiles (ms) of one column of the runs."""
    return _quartiles([r[which] * 1000 for r in runs])


def _ratio(
    runs: list[tuple[float, float]], base: list[tuple[float, float]], which: int
) -> tuple[float, float, float]:
    """Median and quartiles of the round-by-round ratio of ``runs`` to ``base``."""
    return _quartiles([r[which] / max(b[which], 1e-9) for r, b in zip(runs, base)])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument(
        "--card", default=None, help="a model card to check instead of the built-in one"
    )
    where = ap.add_mutually_exclusive_group()
    where.add_argument(
        "--fresh-venv", action="store_true", help="build a venv and install this checkout (default)"
    )
    where.add_argument("--venv", default=None, help="use the benchaudit command of this venv")
    where.add_argument("--on-path", action="store_true", help="use the benchaudit on PATH")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:  # away from any project configuration
        if args.venv:
            exe, via = str(Path(args.venv) / "bin" / "benchaudit"), f"console script of {args.venv}"
        elif args.on_path:
            found = shutil.which("benchaudit")
            exe, via = found or "", "console script on PATH"
        else:
            exe, via = fresh_venv(Path(tmp) / "venv")
        command = [exe] if exe else [sys.executable, "-m", "benchaudit"]
        if not exe:
            via = "python -m benchaudit (no console script on PATH)"
        bare = [_interpreter(exe or None), "-c", "pass"]
        card = Path(args.card).resolve() if args.card else Path(tmp) / "model_card.md"
        if not args.card:
            card.write_text(CARD, encoding="utf-8")
        csv = Path(tmp) / "results.csv"
        small_csv(csv)
        warm_env = {**_ENV, "BENCHAUDIT_CACHE_DIR": str(Path(tmp) / "cache")}
        check_card = [*command, "check", str(card), "--fail-on", "never"]
        jobs = {
            "python -c pass": bare,
            # What a small 0/1 file no longer pays (graded or larger files are analysed with it).
            "import numpy": [bare[0], "-c", "import numpy"],
            "check model card": check_card,
            "check 2x10 CSV": [*command, "check", str(csv), "--fail-on", "never"],
            "card, empty cache": check_card,
        }
        times: dict[str, list[tuple[float, float]]] = {k: [] for k in jobs}
        for _ in range(2):  # warm the file cache, the bytecode and the regex cache
            for cmd in jobs.values():
                _time(cmd, tmp, warm_env)
        for i in range(args.runs):
            for name, cmd in jobs.items():
                env = warm_env
                if name == "card, empty cache":
                    env = {**_ENV, "BENCHAUDIT_CACHE_DIR": str(Path(tmp) / f"cold-{i}")}
                times[name].append(_time(cmd, tmp, env))
        modules = _modules(bare[0], check_card, tmp, warm_env)
        done = subprocess.run(
            [bare[0], "-c", "import sys; print(len(sys.modules))"], capture_output=True, text=True
        )
        bare_modules = int(done.stdout) if done.stdout.strip().isdigit() else None
    lines = (
        len(card.read_text(encoding="utf-8").splitlines()) if args.card else len(CARD.splitlines())
    )
    print(
        f"runs: {args.runs} alternating; via {via}; model card: {lines} lines; load {os.getloadavg()[0]:.1f}"
    )
    print(f"{'':22} {'wall ms':>9} {'CPU ms':>9} {'CPU quartiles':>15}")
    for name in jobs:
        wall, cpu = _stats(times[name], 0)[0], _stats(times[name], 1)
        print(f"{name:22} {wall:9.1f} {cpu[0]:9.1f}   {cpu[1]:5.1f}-{cpu[2]:5.1f}")
    bare_runs = times["python -c pass"]
    warm_w = _ratio(times["check model card"], bare_runs, 0)
    warm_c = _ratio(times["check model card"], bare_runs, 1)
    cold_c = _ratio(times["card, empty cache"], bare_runs, 1)
    csv_w, csv_c = _stats(times["check 2x10 CSV"], 0)[0], _stats(times["check 2x10 CSV"], 1)[0]
    print(
        f"model card / bare python: {warm_c[0]:5.2f}x CPU (quartiles {warm_c[1]:.2f}-{warm_c[2]:.2f}), "
        f"{warm_w[0]:5.2f}x wall (quartiles {warm_w[1]:.2f}-{warm_w[2]:.2f}); budget 6x"
    )
    print(
        f"  with an empty cache:    {cold_c[0]:5.2f}x CPU (quartiles {cold_c[1]:.2f}-{cold_c[2]:.2f})"
        " (the first check after an install)"
    )
    if modules is not None:
        print(f"  modules loaded by the card check: {modules} (python -c pass: {bare_modules})")
    print(
        f"2x10 CSV end to end:      {csv_w / 1000:5.3f} s wall, {csv_c / 1000:5.3f} s CPU  (budget 0.35 s)"
    )
    np_w, np_c = _stats(times["import numpy"], 0)[0], _stats(times["import numpy"], 1)[0]
    print(
        f"import numpy alone:       {np_w / 1000:5.3f} s wall, {np_c / 1000:5.3f} s CPU "
        "(a small 0/1 file imports neither numpy nor pyarrow)"
    )


if __name__ == "__main__":
    main()
