"""Many models: comparisons kept as columns, compact JSON from columns, the printed pair view."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from benchaudit.analysis.pairs import PairTable
from benchaudit.cli import main
from benchaudit.config import Config
from benchaudit.engine import audit
from benchaudit.render import json as json_writer
from benchaudit.render.tables import result_tables


@pytest.fixture(autouse=True)
def _numpy_analysis(monkeypatch):
    """Small files too get the numpy analysis here: its pair columns are what is tested."""
    from benchaudit.inputs import _tabular_small

    monkeypatch.setattr(_tabular_small, "NUMPY_FREE", False)


def write_models(path: Path, models: int, items: int, graded: bool = False, clusters: int = 0):
    rng = np.random.default_rng(7)
    skill = np.linspace(-0.3, 0.3, models)
    lines = ["model,item,score" + (",passage" if clusters else "")]
    for m in range(models):
        p = np.clip(0.5 + skill[m] + rng.normal(0, 0.2, items), 0, 1)
        values = p.round(2) if graded else (rng.random(items) < p).astype(int)
        for i, v in enumerate(values):
            extra = f",c{i % clusters}" if clusters else ""
            lines.append(f"m{m:02d},q{i},{v}{extra}")
    path.write_text("\n".join(lines) + "\n")
    return path


def test_pair_table_is_a_sequence_of_the_row_dicts(tmp_path):
    report = audit([str(write_models(tmp_path / "s.csv", 5, 60))], Config())
    table = report.results["comparisons"]
    assert isinstance(table, PairTable) and len(table) == 10
    rows = list(table)
    assert table[-1] == rows[-1] and table[2:4] == rows[2:4] and table == rows
    assert table.rows([3, 1]) == [rows[3], rows[1]]
    assert list(rows[0])[:4] == ["file", "a", "b", "n_items"]
    assert type(rows[0]["n_items"]) is int and type(rows[0]["diff"]) is float
    assert np.array_equal(table.column("p_value"), [r["p_value"] for r in rows])
    assert table.involves("m00").sum() == 4


@pytest.mark.parametrize(
    "kind", [{}, {"graded": True}, {"clusters": 6}, {"graded": True, "clusters": 6}]
)
def test_compact_json_from_columns_equals_the_indented_json(tmp_path, monkeypatch, kind):
    cfg = Config()
    cfg.resamples = 200
    report = audit([str(write_models(tmp_path / "s.csv", 6, 40, **kind))], cfg)
    indented = json_writer.render(report)
    monkeypatch.setattr(json_writer, "COMPACT_PAIRS", 0)
    compact = json_writer.render(report)
    assert "\n " not in compact and compact.endswith("}\n")
    a, b = json.loads(indented), json.loads(compact)
    assert a == b
    for ra, rb in zip(a["results"]["comparisons"], b["results"]["comparisons"]):
        assert list(ra) == list(rb)
        assert [type(v) for v in ra.values()] == [type(v) for v in rb.values()]


def test_compact_json_writes_special_floats_as_python_does(monkeypatch):
    import pyarrow as pa
    import pyarrow.compute as pc

    from benchaudit.analysis.pairs import _json_values

    values = np.array([1.0, -0.0, 0.0, 1e16, 1e-05, 0.1, float("nan"), float("inf"), 2.5e-300])
    got = _json_values(values, 0, values.size, lambda s: s, pa, pc).to_pylist()
    assert got[:3] == ["1.0", "-0.0", "0.0"] and got[6:8] == ["null", "null"]
    assert [json.loads(g) for g in got if g != "null"] == [
        v for v in values.tolist() if np.isfinite(v)
    ]


def test_text_prints_the_significant_pairs_and_all_on_request(tmp_path):
    path = write_models(tmp_path / "s.csv", 12, 80)
    report = audit([str(path)], Config())
    pairs = report.results["comparisons"]
    significant = int((pairs.column("p_adjusted") < 0.05).sum())
    assert 0 < significant < len(pairs) == 66
    tables = {title: rows for title, _, rows in result_tables(report)}
    title = next(t for t in tables if t.startswith("Significant pairs"))
    assert f"{significant:,} of 66 pairs" in title and len(tables[title]) == significant
    report.all_pairs = True
    assert len(dict((t, r) for t, _, r in result_tables(report))["Paired comparisons"]) == 66
    models = dict((t, (h, r)) for t, h, r in result_tables(report))["Per-model scores (95% intervals)"]
    assert {"rank", "best rank", "worst rank", "group"} <= set(models[0])

    runner = CliRunner()
    short = runner.invoke(main, ["check", str(path)])
    full = runner.invoke(main, ["check", str(path), "--all-pairs"])
    assert "Significant pairs" in short.output and "--all-pairs prints every pair" in short.output
    assert "Paired comparisons" in full.output and "Significant pairs" not in full.output
    assert len(full.output.splitlines()) > len(short.output.splitlines())
    md = runner.invoke(main, ["check", str(path), "--format", "markdown"])
    assert "Significant pairs" in md.output


def test_json_output_file_is_written_in_pieces(tmp_path, monkeypatch):
    path = write_models(tmp_path / "s.csv", 8, 50)
    monkeypatch.setattr(json_writer, "COMPACT_PAIRS", 0)
    out = tmp_path / "r.json"
    result = CliRunner().invoke(main, ["check", str(path), "--format", "json", "--output", str(out)])
    assert result.exit_code in (0, 1), result.output
    doc = json.loads(out.read_text())
    assert len(doc["results"]["comparisons"]) == 28
    assert out.read_text() == json_writer.render(audit([str(path)], Config()))


def test_results_of_two_analyses_join_without_touching_either(tmp_path):
    from benchaudit.context import Results

    one = audit([str(write_models(tmp_path / "one.csv", 4, 30))], Config())
    two = audit([str(write_models(tmp_path / "two.csv", 3, 30))], Config())
    first, second = one.results["comparisons"], two.results["comparisons"]
    results = Results()
    results.add("comparisons", first)
    results.add("comparisons", second)
    results.add("comparisons", [{"a": "x", "b": "y", "p_value": 0.5}])
    joined = results.sections["comparisons"]
    assert len(joined) == 6 + 3 + 1 and len(first) == 6 and len(second) == 3
    assert list(joined)[:9] == list(first) + list(second)
    assert joined.rows([9, 0, 7]) == [joined[9], list(first)[0], list(second)[1]]
    assert joined.column("p_value").shape == (10,)


def test_multiple_comparisons_evidence_lists_at_most_a_hundred_pairs(tmp_path, monkeypatch):
    from benchaudit.rules.comparisons import multiple_comparisons

    monkeypatch.setattr(multiple_comparisons, "EVIDENCE_PAIRS", 1)
    report = audit([str(write_models(tmp_path / "s.csv", 12, 80))], Config())
    found = [f for f in report.findings if f.name == "multiple-comparisons"]
    if not found:
        pytest.skip("no pair lost its significance to Holm in this sample")
    ev = found[0].evidence
    assert len(ev["pairs"]) == 1
    lost = int(found[0].message.split(" of ")[0])
    assert ev.get("pairs_not_listed", 0) == lost - 1


# --- the block reader: one label table, line ends as benchaudit.linebreaks counts them ---


@pytest.mark.parametrize(
    "data",
    [
        b"a\nb\n", b"a\r\nb\r\n", b"a\rb\r", b"a\rb", b"a\n\nb\n", b"a\r\n\r\nb", b"a\r\rb",
        b"a\r\nb", b"\na\n", b"", b"a", b"a\n\rb\n", b"x,y\r\n1,2\r3,4\n5,6", b"a\r\n\nb",
    ],
)
@pytest.mark.parametrize("read", [16 << 20, 1, 2, 3])
def test_line_count_matches_linebreaks(tmp_path, monkeypatch, data, read):
    from benchaudit.inputs import _tabular_arrow as ta
    from benchaudit.linebreaks import split_lines

    monkeypatch.setattr(ta, "_READ", read)
    path = tmp_path / "f.csv"
    path.write_bytes(data)
    lines = split_lines(data.decode())
    assert ta._count_lines(path) == (len(lines), "" in lines)


def test_label_table_codes_blocks_like_one_dictionary():
    import pyarrow as pa

    from benchaudit.inputs._label_table import LabelTable, label_hashes

    rng = np.random.default_rng(3)
    words = [f"item-{i:05d}" for i in range(3000)] + ["", "é", "a" * 100, "b" * 49]
    table, seen = LabelTable(), {}
    for _ in range(6):
        block = [words[i] for i in rng.integers(0, len(words), 2000)]
        codes = table.codes(pa.array(block))
        for w, c in zip(block, codes.tolist()):
            assert seen.setdefault(w, c) == c
    assert table.labels.to_pylist() == sorted(seen, key=seen.get)
    # Every way of hashing a label (one width, short, long) gives the same hash.
    alone = [label_hashes(pa.array([w]))[0] for w in words[:5] + words[-4:]]
    together = label_hashes(pa.array(words[:5] + words[-4:]))
    assert alone == together.tolist()


def test_a_hash_collision_falls_back_to_exact_codes(monkeypatch):
    import pyarrow as pa

    from benchaudit.inputs import _label_table, _tabular_arrow

    monkeypatch.setattr(_label_table, "label_hashes", lambda a: np.ones(len(a), np.uint64))
    coder = _tabular_arrow._Coder("f.csv", "item")
    got = [coder.add(pa.array(block)).tolist() for block in (["a", "b", "a"], ["c", "b"])]
    assert got == [[0, 1, 0], [2, 1]] and coder.known.to_pylist() == ["a", "b", "c"]


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"])
def test_block_reader_equals_whole_file_reader(tmp_path, monkeypatch, end):
    from benchaudit.inputs import _tabular_arrow as ta
    from benchaudit.inputs import _tabular_small

    monkeypatch.setattr(_tabular_small, "SMALL_BYTES", 0)  # both readings through Arrow

    path = write_models(tmp_path / "s.csv", 5, 300)
    text = path.read_text().replace("\n", end)
    lines = text.split(end)
    lines[7] = lines[7].replace(",1", ",x") if ",1" in lines[7] else lines[7].replace(",0", ",x")
    path.write_bytes(end.join(lines).encode())
    whole = audit([str(path)], Config(), on_error="report")
    monkeypatch.setattr(ta, "STREAM_BYTES", 0)
    monkeypatch.setattr(ta, "CHUNK_BYTES", 512)
    blocks = audit([str(path)], Config(), on_error="report")
    assert [str(e) for e in blocks.errors] == [str(e) for e in whole.errors]
    assert ":8:" in str(whole.errors[0]) or ":8" in str(whole.errors[0])
    path.write_bytes(text.encode())
    monkeypatch.setattr(ta, "STREAM_BYTES", 32 << 20)
    whole = audit([str(path)], Config())
    monkeypatch.setattr(ta, "STREAM_BYTES", 0)
    blocks = audit([str(path)], Config())
    assert blocks.results["models"] == whole.results["models"]
    assert list(blocks.results["comparisons"]) == list(whole.results["comparisons"])


def test_label_table_distinct_is_numpys_unique():
    from benchaudit.inputs._label_table import _distinct

    rng = np.random.default_rng(3)
    for n in (0, 1, 7, 5000):
        for top in (4, 1 << 20, 1 << 62):
            h = rng.integers(0, top, n, dtype=np.uint64)
            want = np.unique(h, return_index=True, return_inverse=True)
            got = _distinct(h)
            assert all(np.array_equal(w.reshape(-1), g) for w, g in zip(want, got))
