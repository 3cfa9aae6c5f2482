"""The HTML report in a real browser (headless Chromium): it loads, logs nothing to
the console, renders to a screenshot, and a script planted in a model name does
not run. A control page with a real script shows the checks can see one run."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from report_samples import sample_report

from benchaudit.render import html

PLANTED = "<script>document.title='pwned';console.error('planted')</script>"

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--enable-logging=stderr",
    "--v=0",
]


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("no Chromium on PATH (Debian: apt-get install -y chromium)")


def _browse(page: Path, tmp: Path, *extra: str) -> subprocess.CompletedProcess:
    profile = tmp / f"profile-{len(list(tmp.glob('profile-*')))}"
    return subprocess.run(
        [_chromium(), *FLAGS, f"--user-data-dir={profile}", *extra, page.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
    )


def _console(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if ":CONSOLE" in line]


pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def report_page(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("html") / "report.html"
    path.write_text(html.render(sample_report(model_name=PLANTED)), encoding="utf-8")
    return path


def test_control_page_shows_a_script_would_be_seen(tmp_path):
    control = tmp_path / "control.html"
    control.write_text(
        f"<!DOCTYPE html><html><head><title>before</title></head><body>{PLANTED}</body></html>"
    )
    run = _browse(control, tmp_path, "--dump-dom")
    assert "<title>pwned</title>" in run.stdout
    assert any("planted" in line for line in _console(run.stderr))


def test_report_loads_without_console_messages_and_script_does_not_run(report_page, tmp_path):
    run = _browse(report_page, tmp_path, "--dump-dom")
    assert run.returncode == 0, run.stderr[-2000:]
    dom = run.stdout
    assert "<title>benchaudit report: grade F</title>" in dom
    assert "pwned" not in dom.split("</title>")[0]
    assert "benchaudit report" in dom and "Per-model scores" in dom
    assert dom.count("<svg") == 7  # scaling: one figure per metric
    # The planted name is shown as text, never parsed as a tag.
    assert "&lt;script&gt;document.title='pwned'" in dom
    assert "<script" not in dom.lower()
    assert _console(run.stderr) == []


def test_screenshot_is_written(report_page, tmp_path):
    shot = tmp_path / "report.png"
    run = _browse(
        report_page,
        tmp_path,
        f"--screenshot={shot}",
        "--window-size=1200,2400",
        "--hide-scrollbars",
    )
    assert run.returncode == 0, run.stderr[-2000:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) > 20_000  # a blank page compresses to a few hundred bytes
