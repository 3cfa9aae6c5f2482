"""GitHub workflow-command annotations."""

from __future__ import annotations

from report_samples import sample_report

from benchaudit.finding import Confidence, Finding, Location, Severity
from benchaudit.render import github


def test_one_annotation_per_finding_with_file_and_line():
    lines = github.render(sample_report()).splitlines()
    assert len(lines) == 4
    assert lines[0].startswith(
        "::error file=docs/card.md,line=12,col=5,title=BA101 unreachable-score::"
    )
    assert lines[1].startswith("::notice file=docs/card.md,line=20,title=BA103 missing-interval::")
    assert lines[2].startswith(
        "::warning file=results/scores.csv,line=3,title=BA201 within-noise::"
    )
    assert lines[3].startswith("benchaudit: grade F: 1 error(s)")


def test_message_escaping():
    line = github.render(sample_report()).splitlines()[2]
    message = line.split("::", 2)[2]
    assert "\n" not in message and "\r" not in message
    assert message.startswith("the gain 100%25 -> 50%25, within noise%0Asecond line")
    assert "%0Aclaim: <script>alert(1)</script> beats base" in message


def test_property_escaping():
    f = Finding(
        "BA101",
        "unreachable-score",
        Severity.ERROR,
        Confidence.HIGH,
        Location("dir,with:odd%name\r\n.md", 4),
        "50% off\r\nnext",
    )
    line = github.annotation(f)
    assert line == (
        "::error file=dir%2Cwith%3Aodd%25name%0D%0A.md,line=4,"
        "title=BA101 unreachable-score::50%25 off%0D%0Anext"
    )


def test_escape_functions():
    assert github.escape_data("a%b\r\nc:d,e") == "a%25b%0D%0Ac:d,e"
    assert github.escape_property("a%b\r\nc:d,e") == "a%25b%0D%0Ac%3Ad%2Ce"


def test_no_line_means_file_level_annotation():
    f = Finding(
        "BA301",
        "row-count-mismatch",
        Severity.WARNING,
        Confidence.HIGH,
        Location("scores.csv"),
        "rows != models x items",
    )
    assert github.annotation(f) == (
        "::warning file=scores.csv,title=BA301 row-count-mismatch::rows != models x items"
    )
