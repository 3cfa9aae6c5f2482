"""`benchaudit check` stays light: a markdown file imports no numpy, pandas, scipy or
statsmodels, and a small 0/1 per-item result file none of numpy, scipy, pandas or statsmodels."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HEAVY = ("numpy", "pandas", "scipy", "statsmodels", "pyarrow")
#: What a small per-item file may not import (pyarrow reads only larger files; numpy only
#: graded ones or more cells than ``_tabular_small.NUMPY_FREE_CELLS``).
HEAVY_FOR_DATA = ("numpy", "scipy", "pandas", "statsmodels", "pyarrow")

RUNNER = """
import runpy, sys
sys.argv = ["benchaudit", "check", *sys.argv[1:]]
code = 0
try:
    runpy.run_module("benchaudit", run_name="__main__")
except SystemExit as exc:
    code = exc.code or 0
loaded = [m for m in {heavy!r} if m in sys.modules]
sys.stderr.write("LOADED " + ",".join(loaded) + "\\n")
sys.stderr.write("EXIT %s\\n" % code)
"""


def _run(path: Path, heavy: tuple[str, ...] = HEAVY) -> tuple[list[str], int]:
    proc = subprocess.run(
        [sys.executable, "-c", RUNNER.format(heavy=heavy), str(path)],
        cwd=path.parent,  # away from any project configuration
        capture_output=True,
        text=True,
        timeout=120,
    )
    tail = {
        ln.split(" ", 1)[0]: ln.split(" ", 1)[1] if " " in ln else ""
        for ln in proc.stderr.splitlines()
        if ln.startswith(("LOADED", "EXIT"))
    }
    loaded = [m for m in tail.get("LOADED", "").split(",") if m]
    return loaded, int(tail["EXIT"])


def test_markdown_check_imports_no_heavy_library(tmp_path):
    card = tmp_path / "README.md"
    card.write_text(
        "# Card\n\nWith greedy decoding we reach 87.3% on HumanEval.\n\n"
        "We obtain 94.2% ± 0.1 on 1,000 items.\n\n"
        "| Model | GSM8K |\n|---|---|\n| ours | 92.5 |\n",
        encoding="utf-8",
    )
    loaded, code = _run(card)
    assert loaded == [], f"the markdown path imported {loaded}"
    assert code == 1


def test_clean_document_exits_0(tmp_path):
    card = tmp_path / "README.md"
    card.write_text("We reach 87.2% on HumanEval (95% CI 81.2–91.5%).\n", encoding="utf-8")
    loaded, code = _run(card)
    assert loaded == [] and code == 0


def test_a_2x10_result_file_imports_no_numpy(tmp_path):
    # 2 models x 10 items: the McNemar test, Wilson intervals and Holm need neither
    # scipy.stats nor numpy (importing either costs more than the rest of the check).
    rows = ["model,item,correct"]
    for m, pattern in (("a", "1101101011"), ("b", "1001100010")):
        rows.extend(f"{m},q{i},{c}" for i, c in enumerate(pattern))
    data = tmp_path / "results.csv"
    data.write_text("\n".join(rows) + "\n", encoding="utf-8")
    loaded, code = _run(data, HEAVY_FOR_DATA)
    assert loaded == [], f"a 2 x 10 result file imported {loaded}"
    assert code in (0, 1)


def test_a_small_file_with_gaps_and_four_models_imports_no_numpy(tmp_path):
    # Missing cells (row-count-mismatch) and several pairs (multiple-comparisons) too.
    rows = ["model,item,correct"]
    for m, pattern in (("a", "1111111111" * 4), ("b", "1101101011" * 4), ("c", "10011000"), ("d", "0" * 40)):
        rows.extend(f"{m},q{i},{c}" for i, c in enumerate(pattern))
    data = tmp_path / "results.csv"
    data.write_text("\n".join(rows) + "\n", encoding="utf-8")
    loaded, code = _run(data, HEAVY_FOR_DATA)
    assert loaded == [], f"a small result file imported {loaded}"
    assert code in (0, 1)


def test_rule_index_is_current(tmp_path):
    """benchaudit/_rule_index.py matches the rule modules (else run python -m benchaudit.registry)."""
    from benchaudit import registry

    committed = (Path(registry.__file__).parent / "_rule_index.py").read_text(encoding="utf-8")
    fresh = registry.write_index(str(tmp_path / "index.py"))
    assert fresh == committed, "rules changed: run `python -m benchaudit.registry`"
    assert registry._indexed() is not None


def test_a_stale_rule_index_falls_back_to_importing_every_rule(monkeypatch):
    from benchaudit import _rule_index, registry

    monkeypatch.setattr(registry, "_REGISTRY", None)
    monkeypatch.setattr(registry, "_CATALOGUE", None)
    monkeypatch.setitem(_rule_index.FILES, "evidence.py", 0)
    assert registry._indexed() is None
    entries = registry.catalogue()
    assert all(isinstance(e, type) for e in entries)
    assert [e.code for e in entries] == [e[0] for e in _rule_index.RULES]


def test_a_markdown_check_loads_only_the_rules_for_documents(tmp_path):
    card = tmp_path / "README.md"
    card.write_text("We reach 87.2% on HumanEval (95% CI 81.2–91.5%).\n", encoding="utf-8")
    probe = RUNNER.replace(
        "loaded = [m for m in {heavy!r} if m in sys.modules]",
        "loaded = [m for m in {heavy!r} if 'benchaudit.rules.' + m in sys.modules]",
    )
    only_other_kinds = (
        "leaderboards.position_confound",
        "leaderboards.conflicting_repeats",
        "integrity.run_drift",
        "procedure.position_bias",
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe.format(heavy=only_other_kinds), str(card)],
        cwd=card.parent,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "LOADED \n" in proc.stderr, proc.stderr[-500:]


def test_modules_left_out_of_detection_define_no_reader():
    # Detection imports every reader module; the ones it skips must really hold none.
    import importlib

    from benchaudit import inputs

    for name in sorted(inputs.NOT_READERS):
        module = importlib.import_module(f"benchaudit.inputs.{name}")
        assert not hasattr(module, "READER"), f"benchaudit.inputs.{name} defines a READER"


def test_a_small_result_file_loads_no_claim_reader(tmp_path):
    rows = ["model,item,correct", *(f"{m},q{i},{(i + len(m)) % 2}" for m in "ab" for i in range(10))]
    data = tmp_path / "results.csv"
    data.write_text("\n".join(rows) + "\n", encoding="utf-8")
    claim_side = (
        "benchaudit.inputs.comparisons",
        "benchaudit.inputs.claims",
        "benchaudit.inputs.sentences",
        "markdown_it",
    )
    loaded, code = _run(data, claim_side)
    assert loaded == [], f"a 2 x 10 result file imported {loaded}"
    assert code in (0, 1)


def test_a_plain_text_check_imports_no_markdown_parser(tmp_path):
    # markdown-it is for Markdown; a .txt or .rst document is read without it.
    card = tmp_path / "card.txt"
    card.write_text("We reach 87.2% on HumanEval (95% CI 81.2–91.5%).\n", encoding="utf-8")
    loaded, code = _run(card, ("markdown_it",))
    assert loaded == [] and code == 0


COUNTING = """
import runpy, sys
from benchaudit import regex_cache
compiled = []
original = regex_cache._compiler.compile
def counting(p, flags=0):
    # bytes patterns (tokenize's, platform's) are left to re, and a single character
    # class is compiled each time (as fast as loading it; regex_cache.one_class)
    if isinstance(p, str) and not regex_cache.one_class(p):
        compiled.append(p)
    return original(p, flags)
regex_cache._compiler.compile = counting
sys.argv = ["benchaudit", "check", *sys.argv[1:]]
try:
    runpy.run_module("benchaudit", run_name="__main__")
except SystemExit:
    pass
sys.stderr.write("COMPILED %d\\n" % len(compiled))
sys.stderr.write("TOML %s\\n" % ("tomllib" in sys.modules or "tomli" in sys.modules))
"""


def test_a_second_card_check_compiles_no_regular_expression(tmp_path):
    # The command keeps the compiled programs in the user's cache folder: the first
    # check compiles the claim reader's and the Markdown parser's patterns, the next
    # compiles none and parses no TOML (and gives the same report).
    card = tmp_path / "README.md"
    card.write_text(
        "# Card\n\nWith greedy decoding we reach 87.3% on HumanEval, up from 84.1%.\n\n"
        "| Model | GSM8K | MMLU |\n|---|---|---|\n| ours | 92.5 | 70.3 |\n| base | 90.1 | 68.9 |\n",
        encoding="utf-8",
    )
    # A fixed hash seed: the Markdown parser builds one pattern from a set.
    env = {**os.environ, "BENCHAUDIT_CACHE_DIR": str(tmp_path / "cache"), "PYTHONHASHSEED": "0"}
    env.pop("BENCHAUDIT_NO_CACHE", None)
    counts, outputs, toml = [], [], []
    for _ in range(2):
        proc = subprocess.run(
            [sys.executable, "-c", COUNTING, str(card), "--format", "json"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
            env=env,
        )
        line = [ln for ln in proc.stderr.splitlines() if ln.startswith("COMPILED ")]
        assert line, proc.stderr[-500:]
        counts.append(int(line[0].split()[1]))
        outputs.append(proc.stdout)
        toml.append("TOML True" in proc.stderr)
    assert counts[0] > 50, counts
    assert counts[1] == 0, counts
    # and the benchmark registry comes parsed from the cache folder too
    assert toml == [True, False]
    assert outputs[0] == outputs[1] and '"findings"' in outputs[0]
    assert list((tmp_path / "cache").iterdir())
    assert not [p for p in tmp_path.iterdir() if p.name not in ("README.md", "cache")]


def test_a_card_check_imports_neither_hashlib_nor_the_other_commands(tmp_path):
    # Fingerprints come from the builtin SHA-256 module (hashlib's import starts OpenSSL), the
    # registry's parse is keyed by its text, and the contamination command is imported only
    # when it is named: a pre-commit run over a README pays for none of them.
    card = tmp_path / "README.md"
    card.write_text("We reach 87.3% on HumanEval, up from 84.1%.\n", encoding="utf-8")
    unwanted = ("hashlib", "_hashlib", "benchaudit.contamination.cli", "benchaudit.mcp_server")
    loaded, code = _run(card, unwanted)
    assert loaded == [], f"a card check imported {loaded}"
    assert code in (0, 1)


def test_the_lazy_commands_are_still_listed_and_run():
    proc = subprocess.run(
        [sys.executable, "-m", "benchaudit", "--help"], capture_output=True, text=True, timeout=120
    )
    assert "contamination" in proc.stdout
    proc = subprocess.run(
        [sys.executable, "-m", "benchaudit", "contaminatio"], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 2 and "Did you mean 'contamination'" in proc.stderr
    proc = subprocess.run(
        [sys.executable, "-m", "benchaudit", "contamination", "--help"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0 and "--corpus" in proc.stdout


def test_a_plain_card_check_imports_neither_click_nor_the_scaling_reader(tmp_path):
    # The console script reads a plain `check` line itself (benchaudit.fastpath), and the
    # emergence rule builds scaling curves only when a scaling file or harness summary is given.
    card = tmp_path / "README.md"
    card.write_text("We reach 87.3% on HumanEval, up from 84.1%.\n", encoding="utf-8")
    loaded, code = _run(card, ("click", "benchaudit.cli", "benchaudit.inputs.scaling"))
    assert loaded == [], f"a card check imported {loaded}"
    assert code in (0, 1)
