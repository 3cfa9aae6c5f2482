"""The generic per-item reader: layouts, column detection, and bad input (exit 2, one line)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from benchaudit.cli import main
from benchaudit.config import Config
from benchaudit.engine import Context
from benchaudit.errors import InputError
from benchaudit.inputs import detect, probe
from benchaudit.inputs import tabular as tab

LONG = "model,question_id,correct\na,q1,1\na,q2,0\nb,q1,true\nb,q2,no\n"


def _read(path: Path, **cfg):
    ctx = Context(config=Config(**cfg))
    data = tab.read(path, path.name, ctx).data
    # A small 0/1 file is held in lists (no numpy); these tests read its arrays.
    return data.to_resultset() if getattr(data, "numpy_free", False) else data


def _kind(path: Path) -> str:
    return detect(probe(path, path.name), path.name).kind


def test_long_csv(tmp_path):
    p = tmp_path / "scores.csv"
    p.write_text(LONG)
    rs = _read(p)
    assert rs.models == ["a", "b"] and rs.items == ["q1", "q2"]
    assert rs.score.tolist() == [1, 0, 1, 0]
    assert rs.line.tolist() == [2, 3, 4, 5]
    assert _kind(p) == "results"


@pytest.mark.parametrize(
    "header",
    [
        "Model,Question_ID,Is_Correct",
        "system,doc_id,acc",
        "model_name,task_id,passed",
        "name,example_id,exact_match",
        "MODEL,item,accuracy",
    ],
)
def test_column_spellings(tmp_path, header):
    p = tmp_path / "scores.csv"
    p.write_text(header + "\nm1,1,1\nm1,2,0\nm2,1,1\nm2,2,1\n")
    rs = _read(p)
    assert rs.models == ["m1", "m2"] and rs.items == ["1", "2"]
    assert rs.score.sum() == 3


@pytest.mark.parametrize("rows", [20, 3000])  # the small reader and the Arrow one
def test_semicolon_files_with_decimal_commas(tmp_path, rows):
    rng = np.random.default_rng(1)
    values = np.round(rng.random(rows), 2)
    p = tmp_path / "scores.csv"
    lines = ["model;item;score"] + [
        f"{'ab'[i % 2]};q{i // 2};{str(v).replace('.', ',')}" for i, v in enumerate(values)
    ]
    p.write_text("\n".join(lines) + "\n")
    rs = _read(p)
    assert rs.models == ["a", "b"]
    assert rs.score.tolist() == pytest.approx(values.tolist())


@pytest.mark.parametrize("cell", ["1,000", "12,345"])
def test_a_comma_that_may_be_thousands_is_not_read_as_a_decimal(tmp_path, cell):
    p = tmp_path / "scores.csv"
    p.write_text(f"model;item;score\na;q1;0,5\na;q2;{cell}\n")
    with pytest.raises(InputError, match="not a number"):
        _read(p)


def test_sample_id_is_the_item_when_no_other_column_is(tmp_path):
    # inspect_ai and OpenAI evals call the dataset item "sample_id".
    p = tmp_path / "scores.jsonl"
    rows = [("m1", 1, 1), ("m1", 2, 0), ("m2", 1, 1), ("m2", 2, 1)]
    p.write_text(
        "".join(
            json.dumps({"model": m, "sample_id": i, "scores": {"match": {"value": v}}}) + "\n"
            for m, i, v in rows
        )
    )
    assert _kind(p) == "results"
    rs = _read(p)
    assert rs.models == ["m1", "m2"] and rs.items == ["1", "2"] and rs.score.sum() == 3
    assert rs.columns["item"] == "sample_id" and rs.sample is None


def test_sample_id_beside_an_item_column_is_a_generation(tmp_path):
    p = tmp_path / "scores.csv"
    p.write_text("model,item,sample_id,correct\nm1,q1,0,1\nm1,q1,1,0\nm2,q1,0,1\nm2,q1,1,1\n")
    rs = _read(p)
    assert rs.items == ["q1"] and rs.columns["sample"] == "sample_id"


def test_tsv_jsonl_parquet_agree(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = [("a", "q1", 1), ("a", "q2", 0), ("b", "q1", 1), ("b", "q2", 1)]
    (tmp_path / "s.tsv").write_text(
        "model\titem\tscore\n" + "".join(f"{m}\t{i}\t{s}\n" for m, i, s in rows)
    )
    (tmp_path / "s.jsonl").write_text(
        "".join(
            json.dumps({"model": m, "doc_id": int(i[1:]), "acc": bool(s)}) + "\n"
            for m, i, s in rows
        )
    )
    pq.write_table(
        pa.table(
            {
                "model": [r[0] for r in rows],
                "item": [r[1] for r in rows],
                "correct": [r[2] for r in rows],
            }
        ),
        tmp_path / "s.parquet",
    )
    got = []
    for name in ("s.tsv", "s.jsonl", "s.parquet"):
        path = tmp_path / name
        assert _kind(path) == "results", name
        rs = _read(path)
        got.append((rs.models, len(rs.items), rs.score.tolist()))
    assert got[0] == got[1] == got[2]


def test_wide_form(tmp_path):
    p = tmp_path / "wide.csv"
    p.write_text("id,gpt,llama\n1,1,0\n2,0,0\n3,1,\n")
    rs = _read(p)
    assert rs.layout == "wide" and rs.models == ["gpt", "llama"]
    assert rs.n_rows == 5  # the empty cell is a missing result, not a zero
    assert _kind(p) == "results"


def test_points_and_optional_roles(tmp_path):
    p = tmp_path / "s.csv"
    p.write_text(
        "model,item,passage,seed,points,max_points,chosen,gold\n"
        "a,1,p1,0,2,4,A,A\na,2,p1,0,1,1,B,A\n"
    )
    rs = _read(p)
    assert rs.max_points.tolist() == [4, 1] and rs.score.tolist() == [2, 1]
    assert rs.cluster.labels == ["p1"] and rs.seed is not None
    assert rs.chosen.labels == ["A", "B"] and rs.gold.labels == ["A"]


def test_column_override(tmp_path):
    p = tmp_path / "s.csv"
    p.write_text("who,what,verdict\na,1,1\nb,1,0\n")
    rs = _read(p, columns={"model": "who", "item": "what", "score": "verdict"})
    assert rs.models == ["a", "b"]


def test_single_model_file_is_named_after_the_file(tmp_path):
    p = tmp_path / "run7.csv"
    p.write_text("item,correct\n1,1\n2,0\n")
    assert _read(p).models == ["run7"]


def test_not_mine(tmp_path):
    battles = tmp_path / "b.csv"
    battles.write_text("model_a,model_b,winner\nx,y,model_a\n")
    board = tmp_path / "board.csv"
    board.write_text("model,score\nx,71.2\ny,69.0\n")
    for path in (battles, board):
        assert tab.sniff(probe(path, path.name)) == 0.0


def test_max_rows(tmp_path):
    p = tmp_path / "s.csv"
    p.write_text(LONG)
    with pytest.raises(InputError, match="max-rows"):
        _read(p, max_rows=2)


def test_the_file_is_never_written(tmp_path):
    p = tmp_path / "s.csv"
    p.write_text(LONG)
    before = (p.read_bytes(), p.stat().st_mtime_ns)
    CliRunner().invoke(main, ["check", str(p)])
    assert (p.read_bytes(), p.stat().st_mtime_ns) == before


BAD = {
    "binary.csv": (b"\x00\x01\x02garbage\xff" * 50, "binary"),
    "empty.csv": (b"", "empty"),
    "header_only.csv": (b"model,item,correct\n", "no data rows"),
    "nocols.csv": (b"model,item,correct\n", None),
    "missing.csv": (b"model,question_id,foo\na,1,x\n", "missing column"),
    "ragged.csv": (b"model,item,correct\na,1,1\na,2\nb,1,0\n", "ragged row"),
    "latin1.csv": ("model,item,correct\ncaf\u00e9,1,1\n".encode("latin-1"), "UTF-8"),
    "words.csv": (b"model,item,correct\na,1,1\na,2,maybe\n", "not a number"),
    "inf.csv": (b"model,item,score\na,1,0.5\na,2,inf\n", "infinite"),
    "negative.csv": (b"model,item,points,max_points\na,1,-1,2\n", "negative points"),
    "bad.jsonl": (b'{"model": "a", "item": 1, "correct": 1}\n{"model": oops}\n', "invalid JSON"),
    "bad.parquet": (b"PAR1 not really parquet PAR1", None),
}
LINES = {
    "ragged.csv": 3,
    "latin1.csv": 2,
    "words.csv": 3,
    "inf.csv": 3,
    "negative.csv": 2,
    "bad.jsonl": 2,
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_input_exits_2_with_one_line(tmp_path, name):
    content, needle = BAD[name]
    if name == "nocols.csv":
        content = b"model,item,correct\n"
    p = tmp_path / name
    p.write_bytes(content)
    result = CliRunner().invoke(
        main,
        ["check", str(p), "--kind", "results"] if name.endswith(".parquet") else ["check", str(p)],
    )
    assert result.exit_code == 2, result.output
    err = result.stderr if hasattr(result, "stderr") else result.output
    lines = [ln for ln in err.strip().splitlines() if ln.strip()]
    assert len(lines) == 1, err
    assert name in lines[0] and "Traceback" not in err
    assert "internal error" not in lines[0], lines[0]
    if needle:
        assert needle.lower() in lines[0].lower(), lines[0]
    if name in LINES:
        assert f"{name}:{LINES[name]}:" in lines[0], lines[0]


def test_missing_file_exits_2():
    result = CliRunner().invoke(main, ["check", "no/such/scores.csv"])
    assert result.exit_code == 2 and "no/such/scores.csv" in result.output


def test_reader_module_imports_no_heavy_library():
    import subprocess
    import sys

    code = (
        "import sys, benchaudit.inputs.tabular; "
        "print(any(m in sys.modules for m in ('numpy', 'pyarrow', 'pandas', 'scipy')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_line_numbers_survive_blank_lines(tmp_path):
    p = tmp_path / "s.csv"
    p.write_text("model,item,correct\na,1,1\n\na,2,0\n")
    assert _read(p).line.tolist() == [2, 4]


def test_codes_follow_first_appearance(tmp_path):
    p = tmp_path / "s.csv"
    p.write_text("model,item,correct\nzeta,9,1\nalpha,3,0\nzeta,3,1\nalpha,9,1\n")
    rs = _read(p)
    assert rs.models == ["zeta", "alpha"] and rs.items == ["9", "3"]
    assert np.array_equal(rs.model.codes, [0, 1, 0, 1])


def _big_csv(path: Path, models: int = 3, items: int = 40_000, bad_row: str | None = None):
    rng = np.random.default_rng(4)
    with open(path, "w") as fh:
        fh.write("model,question_id,correct\n")
        for m in range(models):
            vals = rng.integers(0, 2, items)
            fh.write("".join(f"m{m},q{i},{v}\n" for i, v in enumerate(vals)))
        if bad_row:
            fh.write(bad_row)
    return path


def test_large_csv_streams_to_the_same_result(tmp_path, monkeypatch):
    from benchaudit.inputs import _tabular_arrow as arrow

    path = _big_csv(tmp_path / "big.csv")
    whole = _read(path)
    monkeypatch.setattr(arrow, "STREAM_BYTES", 1024)
    calls = []
    real = arrow._CsvStream.batches
    monkeypatch.setattr(
        arrow._CsvStream, "batches", lambda self, *a, **k: calls.append(1) or real(self, *a, **k)
    )
    streamed = _read(path)
    assert calls, "the streaming reader was not used"
    assert streamed.models == whole.models and streamed.items == whole.items
    assert np.array_equal(streamed.score, whole.score)
    assert np.array_equal(streamed.model.codes, whole.model.codes)
    assert np.array_equal(streamed.item.codes, whole.item.codes)
    assert streamed.line[5] == whole.line[5] == 7


def test_large_csv_with_a_late_bad_value_names_its_line(tmp_path, monkeypatch):
    from benchaudit.inputs import _tabular_arrow as arrow

    monkeypatch.setattr(arrow, "STREAM_BYTES", 1024)
    path = _big_csv(tmp_path / "big.csv", bad_row="m0,q0,maybe\n")
    with pytest.raises(InputError, match="not a number") as exc:
        _read(path)
    assert exc.value.line == 3 * 40_000 + 2


def test_large_csv_with_blank_lines_keeps_line_numbers(tmp_path, monkeypatch):
    from benchaudit.inputs import _tabular_arrow as arrow

    monkeypatch.setattr(arrow, "STREAM_BYTES", 16)
    p = tmp_path / "s.csv"
    p.write_text("model,item,correct\na,1,1\n\na,2,0\n")
    assert _read(p).line.tolist() == [2, 4]


# --- the grid path: a complete 0/1 long-form file read straight into its matrix ----------


def _grid_csv(path: Path, models: int = 4, items: int = 3_000, quoted: bool = False, rows=None):
    rng = np.random.default_rng(7)
    q = '"' if quoted else ""
    lines = [f"{q}model{q},{q}question_id{q},{q}correct{q}"]
    for m in range(models):
        vals = rng.integers(0, 2, items)
        lines += [f"{q}m{m}{q},{q}q, {i}{q}" if quoted else f"m{m},q{i}" for i in range(items)]
        lines[-items:] = [f"{head},{v}" for head, v in zip(lines[-items:], vals)]
    if rows is not None:
        lines = rows(lines)
    path.write_text("\n".join(lines) + "\n")
    return path


def _per_row(path: Path, monkeypatch) -> object:
    from benchaudit.inputs import _tabular_arrow as arrow

    with monkeypatch.context() as mp:
        mp.setattr(arrow, "_grid", lambda *a: None)
        return _read(path)


def _small_pieces(monkeypatch, chunk: int = 4096) -> None:
    from benchaudit.inputs import _tabular_arrow as arrow
    from benchaudit.inputs import _tabular_small as small

    monkeypatch.setattr(small, "SMALL_BYTES", 0)  # these files exercise the Arrow reader
    monkeypatch.setattr(arrow, "STREAM_BYTES", 1024)
    monkeypatch.setattr(arrow, "CHUNK_BYTES", chunk)
    monkeypatch.setattr(arrow, "BATCH", 1000)


def _same_report(a, b) -> None:
    from benchaudit.analysis.results import report_results

    ra, rb = report_results(a), report_results(b)
    assert json.dumps(ra, sort_keys=True, default=str) == json.dumps(
        rb, sort_keys=True, default=str
    )


@pytest.mark.parametrize("quoted", [False, True])
def test_grid_csv_gives_the_per_row_results(tmp_path, monkeypatch, quoted):
    from benchaudit.inputs.resultset import GridResults

    _small_pieces(monkeypatch)
    path = _grid_csv(tmp_path / "g.csv", quoted=quoted)
    rows = _per_row(path, monkeypatch)
    grid = _read(path)
    assert isinstance(grid, GridResults) and not isinstance(rows, GridResults)
    assert grid.models == rows.models and grid.items == rows.items
    assert grid.n_rows == rows.n_rows == 12_000 and grid.binary
    assert np.array_equal(grid.first_rows(), rows.first_rows())
    assert grid.line[5] == rows.line[5] == 7
    _same_report(grid, rows)
    # Per-row columns are read back on demand, identical to the per-row reader's.
    assert np.array_equal(grid.model.codes, rows.model.codes)
    assert np.array_equal(grid.item.codes, rows.item.codes)
    assert np.array_equal(grid.score, rows.score)


def test_grid_parquet_gives_the_per_row_results(tmp_path, monkeypatch):
    import pyarrow as pa
    import pyarrow.parquet as pq

    from benchaudit.inputs.resultset import GridResults

    _small_pieces(monkeypatch)
    rng = np.random.default_rng(3)
    # Item-major order, models interleaved, several row groups.
    models = np.tile(np.array(["x", "y", "z"]), 2_000)
    items = np.repeat(np.array([f"i{i}" for i in range(2_000)]), 3)
    table = pa.table(
        {"system": models, "doc_id": items, "acc": rng.integers(0, 2, 6_000).astype(bool)}
    )
    path = tmp_path / "g.parquet"
    pq.write_table(table, path, row_group_size=700)
    rows = _per_row(path, monkeypatch)
    grid = _read(path)
    assert isinstance(grid, GridResults)
    assert grid.models == rows.models == ["x", "y", "z"] and grid.items == rows.items
    _same_report(grid, rows)
    assert np.array_equal(grid.score, rows.score)


@pytest.mark.parametrize(
    "change",
    [
        lambda lines: lines + [lines[10]],  # a duplicated row
        lambda lines: lines[:10] + lines[11:],  # a missing cell
        lambda lines: lines[:10] + [lines[10][:-1] + "0.5"] + lines[11:],  # partial credit
        lambda lines: lines[:10] + [",q9999,1"] + lines[11:],  # a row without a model
    ],
)
def test_grid_leaves_problem_files_to_the_per_row_reader(tmp_path, monkeypatch, change):
    from benchaudit.inputs.resultset import GridResults

    _small_pieces(monkeypatch)
    path = _grid_csv(tmp_path / "g.csv", rows=change)
    try:
        expected = _per_row(path, monkeypatch)
    except InputError as exc:
        with pytest.raises(InputError) as got:
            _read(path)
        assert (got.value.detail, got.value.line) == (exc.detail, exc.line)
        return
    rs = _read(path)
    assert not isinstance(rs, GridResults)
    assert np.array_equal(rs.model.codes, expected.model.codes)
    assert np.array_equal(rs.score, expected.score)
    assert rs.line.tolist() == expected.line.tolist()


def test_grid_duplicate_is_named_with_its_lines(tmp_path, monkeypatch):
    from benchaudit.engine import audit

    _small_pieces(monkeypatch)
    path = _grid_csv(tmp_path / "g.csv", rows=lambda lines: lines + [lines[10]])
    report = audit([str(path)], Config())
    (dup,) = [f for f in report.findings if f.name == "row-count-mismatch"]
    assert dup.evidence["lines"] == {"q9": [11, 12002]}


def test_grid_csv_with_a_quoted_line_break_keeps_line_numbers(tmp_path, monkeypatch):
    _small_pieces(monkeypatch, chunk=256)
    path = _grid_csv(tmp_path / "g.csv", models=2, items=400)
    text = path.read_text().splitlines()
    text[1] = 'm0,"q\n0",1'  # one row over two lines
    path.write_text("\n".join(text) + "\n")
    rs = _read(path)
    assert rs.items[0] == "q\n0"
    assert rs.line_of(1) == 4  # the row after the two-line one


# --- small plain files: read without pyarrow, into what the Arrow reader gives ------------

_SMALL = {
    "binary": "model,item,correct\n" + "".join(f"m{i % 3},q{i // 3},{i % 2}\n" for i in range(30)),
    "crlf": "model,item,correct\r\n" + "".join(f"b{i % 2},{i},{i % 3 % 2}\r\n" for i in range(20)),
    "no final break": "model\titem\tscore\n" + "\n".join(f"m{i % 2}\tq{i}\t1" for i in range(9)),
    "booleans": "model,item,passed\n"
    + "".join(f"m{i % 2},q{i},{'True' if i % 3 else 'false'}\n" for i in range(12)),
    "ints and decimals": "model,item,score\n"
    + "".join(f"m{i % 2},q{i},{('1', '0.25', '0')[i % 3]}\n" for i in range(12)),
    "rating scale": "model,item,score\n"
    + "".join(f"m{i % 2},q{i},{1 + i % 10}\n" for i in range(40)),
    "repeats and a text column": "model,item,correct,note\n"
    + "".join(f"m{i % 2},q{i % 5},{i % 2},ok\n" for i in range(20)),
    "extra numeric column": "model,item,correct,latency\n"
    + "".join(f"m{i % 2},q{i},{i % 2},{i / 7:.3f}\n" for i in range(20)),
}


def _fields(rs) -> dict:
    out = {}
    for k, v in vars(rs).items():
        if hasattr(v, "codes"):
            out[k] = (v.codes.dtype.str, v.codes.tolist(), v.labels)
        elif isinstance(v, np.ndarray) or type(v).__name__ == "RowLines":
            a = np.asarray(v)
            out[k] = (type(v).__name__, a.dtype.str, a.tolist())
        else:
            out[k] = v
    return out


@pytest.mark.parametrize("name", sorted(_SMALL))
def test_small_file_reads_as_the_arrow_reader_reads_it(tmp_path, name):
    from benchaudit.inputs import _tabular_arrow as arrow
    from benchaudit.inputs._tabular_small import read_small

    path = tmp_path / ("s.tsv" if "\t" in _SMALL[name] else "s.csv")
    path.write_bytes(_SMALL[name].encode())
    small = read_small(path, "s.csv", {}, None)
    assert small is not None, "the plain file was handed to the Arrow reader"
    if getattr(small, "numpy_free", False):  # 0/1 scores held in lists: the same arrays
        small = small.to_resultset()
    whole = arrow.read_resultset(path, "s.csv", {}, None, None)
    assert type(small) is type(whole) and _fields(small) == _fields(whole)


@pytest.mark.parametrize(
    "text",
    [
        'model,item,correct\n"a",q1,1\nb,q1,0\n',  # quotes
        "model,item,correct\na,q1,1\n\nb,q1,0\n",  # a blank line
        "model,item,correct\na,q1,\nb,q1,0\n",  # a missing cell
        "model,item,correct\na,q1,NA\nb,q1,0\n",  # Arrow's null
        "model,item,correct\na ,q1,1\nb,q1,0\n",  # a padded label
        "model,item,score\na,q1,1e-3\nb,q1,0\n",  # an exponent
        "model,item,score\na,q1,01\nb,q1,0\n",  # a leading zero
        "model,item,correct\na,q1,yes\nb,q1,no\n",  # words
        "model,item,seed,correct\na,q1,1,1\nb,q1,1,0\n",  # another role
        "model,item,correct,when\na,q1,1,2024-01-02\nb,q1,0,2024-01-03\n",  # a date
        "item,gpt,claude\nq1,1,0\nq2,0,1\n",  # wide
        "model,item,correct\na,q1,1\nb,q1\n",  # ragged
    ],
)
def test_small_files_the_plain_reader_is_unsure_of_go_to_arrow(tmp_path, text):
    from benchaudit.inputs._tabular_small import read_small

    path = tmp_path / "s.csv"
    path.write_text(text)
    assert read_small(path, "s.csv", {}, None) is None
