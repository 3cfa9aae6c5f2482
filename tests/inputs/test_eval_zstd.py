"""inspect_ai ``.eval`` archives whose members are zstd-compressed (zip method 93), and
the decompressed-size cap on every member."""

from __future__ import annotations

import json
import struct
import zipfile
import zlib
from pathlib import Path

import pytest
import zstandard
from click.testing import CliRunner

from benchaudit.cli import main
from benchaudit.config import Config
from benchaudit.engine import Context
from benchaudit.errors import InputError
from benchaudit.inputs import load

DATA = Path(__file__).parents[1] / "data" / "harness"
INSPECT_EVAL = DATA / "inspect" / "2024-09-02T11-04-12+00-00_gpqa-diamond_JqS2mM3.eval"


def write_zstd_zip(path: Path, members: dict[str, bytes]) -> None:
    """A zip archive written the way current inspect_ai writes ``.eval`` logs: zstd members."""
    local, central = b"", b""
    for name, data in members.items():
        packed = zstandard.ZstdCompressor().compress(data)
        crc, raw = zlib.crc32(data), name.encode()
        sizes = (crc, len(packed), len(data), len(raw), 0)
        central += struct.pack(
            "<4s6H3I5H2I", b"PK\x01\x02", 63, 63, 0, 93, 0, 0, *sizes, 0, 0, 0, 0, len(local)
        )
        central += raw
        local += struct.pack("<4s5H3I2H", b"PK\x03\x04", 63, 0, 93, 0, 0, *sizes) + raw + packed
    n = len(members)
    end = struct.pack("<4s4H2IH", b"PK\x05\x06", 0, 0, n, n, len(central), len(local), 0)
    path.write_bytes(local + central + end)


def _members_of(eval_path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(eval_path) as zf:
        return {n: zf.read(n) for n in zf.namelist()}


def test_zstd_eval_reads_like_the_deflate_one(tmp_path):
    zstd_path = tmp_path / "log.eval"
    write_zstd_zip(zstd_path, _members_of(INSPECT_EVAL))
    with zipfile.ZipFile(zstd_path) as zf:  # the stdlib cannot read these members
        assert zf.getinfo("header.json").compress_type == 93
    ctx = Context(config=Config())
    want = load(INSPECT_EVAL, "a.eval", ctx)[0].data
    got = load(zstd_path, "b.eval", ctx)[0].data
    assert got.models == want.models and got.items == want.items
    assert got.score.tolist() == want.score.tolist()


@pytest.mark.parametrize("method", ["zstd", "deflate"])
def test_a_member_past_the_cap_is_refused_in_one_line(tmp_path, method):
    members = _members_of(INSPECT_EVAL)
    header = json.loads(members["header.json"])
    header["padding"] = " " * (3 << 20)  # 3 MB of blanks: compresses to almost nothing
    members["header.json"] = json.dumps(header).encode()
    path = tmp_path / "bomb.eval"
    if method == "zstd":
        write_zstd_zip(path, members)
    else:
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
            for name, data in members.items():
                zf.writestr(name, data)
    assert path.stat().st_size < 200_000
    ctx = Context(config=Config(max_decompressed_mb=2))
    with pytest.raises(InputError) as exc:
        load(path, "bomb.eval", ctx)
    assert "header.json" in str(exc.value) and "max-decompressed-mb" in str(exc.value)
    (tmp_path / "pyproject.toml").write_text("[tool.benchaudit]\nmax-decompressed-mb = 2\n")
    result = CliRunner().invoke(
        main, ["check", str(path), "--config", str(tmp_path / "pyproject.toml")]
    )
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1
    assert load(path, "bomb.eval", Context(config=Config()))  # the default cap lets it through


def test_damaged_zstd_member(tmp_path):
    path = tmp_path / "bad.eval"
    write_zstd_zip(path, _members_of(INSPECT_EVAL))
    data = bytearray(path.read_bytes())
    start = data.index(b"header.json") + len("header.json")
    data[start + 8 : start + 24] = b"\xff" * 16
    path.write_bytes(bytes(data))
    with pytest.raises(InputError) as exc:
        load(path, "bad.eval", Context(config=Config()))
    assert "header.json" in str(exc.value)
