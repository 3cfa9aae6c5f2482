"""The progress bar: drawn on a terminal only, erased when done."""

from __future__ import annotations

import io

from benchaudit.progress import Progress, enabled_for, track


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_silent_when_not_a_terminal():
    out = io.StringIO()
    with Progress(10, "scan", stream=out, min_interval=0) as bar:
        for _ in range(10):
            bar.update()
    assert out.getvalue() == ""
    assert list(track(range(5), stream=out)) == [0, 1, 2, 3, 4]
    assert out.getvalue() == ""


def test_draws_on_a_terminal_and_erases(monkeypatch):
    monkeypatch.delenv("BENCHAUDIT_NO_PROGRESS", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    out = Tty()
    with Progress(4, "scan", stream=out, min_interval=0) as bar:
        bar.update(2)
        assert "\rscan [############------------]  50%  2/4" in out.getvalue()
        bar.update(2)
    text = out.getvalue()
    assert "100%  4/4" in text
    assert text.endswith("\r") and "\n" not in text


def test_environment_turns_it_off(monkeypatch):
    monkeypatch.setenv("BENCHAUDIT_NO_PROGRESS", "1")
    assert not enabled_for(Tty())
    monkeypatch.delenv("BENCHAUDIT_NO_PROGRESS")
    monkeypatch.setenv("TERM", "dumb")
    assert not enabled_for(Tty())


def test_unknown_total_and_throttling(monkeypatch):
    monkeypatch.delenv("BENCHAUDIT_NO_PROGRESS", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    out = Tty()
    bar = Progress(None, stream=out, min_interval=3600)
    for _ in range(1000):
        bar.update()
    assert out.getvalue().count("\r") == 1  # only the first update drew
    assert bar.line().startswith("1000  ")
    bar.close()


def test_track_uses_len():
    out = Tty()
    assert list(track([1, 2, 3], label="x", stream=out)) == [1, 2, 3]
