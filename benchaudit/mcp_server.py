"""``benchaudit mcp``: the checks as tools of an MCP server (stdio), for agents.

An agent about to repeat a number ("87.3% on HumanEval", "B beats A") calls a
tool first and gets the findings with their suggested wording. The tools are
plain functions here, usable and tested without the SDK; :func:`serve`
registers them with the official ``mcp`` Python SDK (the ``mcp`` extra:
``pip install 'benchaudit-lint[mcp]'``), imported only when the server starts.

Every tool returns a JSON object: ``grade``, ``summary``, ``findings`` (each
with ``rule``, ``name``, ``severity``, ``message`` and ``suggestion``) and,
where it applies, per-item ``results``. Nothing is written anywhere.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any

from benchaudit.errors import BenchauditError

if TYPE_CHECKING:
    from benchaudit.finding import Report

#: Findings one answer lists; the rest are counted (an agent's context is finite).
MAX_FINDINGS = 50

INSTRUCTIONS = (
    "benchaudit checks numbers published about ML evaluations. Before writing a benchmark "
    "score, an interval, a comparison or a 'significant' into a text, call check_claim on the "
    "sentence (or the whole document), and use the suggested wording of any error or warning."
)


def _answer(report: Report, *, results: bool = False) -> dict[str, Any]:
    data = report.to_dict()
    findings = data["findings"]
    out: dict[str, Any] = {
        "grade": data["grade"],
        "summary": data["summary"],
        "findings": [_finding(f) for f in findings[:MAX_FINDINGS]],
    }
    if len(findings) > MAX_FINDINGS:
        out["findings_not_listed"] = len(findings) - MAX_FINDINGS
    if report.notes:
        out["notes"] = list(report.notes)
    if report.errors:
        out["input_errors"] = report.input_errors
    if results and "results" in data:
        out["results"] = data["results"]
    return out


def _finding(f: dict[str, Any]) -> dict[str, Any]:
    keep = ("rule", "name", "severity", "confidence", "file", "page", "line", "claim")
    out = {k: f[k] for k in keep if f.get(k) is not None}
    out["message"] = f["message"]
    out["suggestion"] = f.get("suggestion")
    return out


def check_claim(text: str, format: str = "markdown") -> dict[str, Any]:
    """Check a claim sentence, a paragraph or a whole document for numbers that cannot
    be right: unreachable scores, intervals that do not fit n, wins inside the noise,
    p-values their own statistics contradict. ``format`` is markdown, html or text."""
    from benchaudit.api import audit_text

    suffix = {"markdown": ".md", "md": ".md", "html": ".html", "text": ".txt", "txt": ".txt"}
    if format.lower() not in suffix:
        raise BenchauditError(f"format must be markdown, html or text, not {format!r}")
    return _answer(audit_text(text, name="claim" + suffix[format.lower()]))


def check_file(path: str, kind: str | None = None) -> dict[str, Any]:
    """Check a file or a folder on this machine: a model card, a paper (PDF), per-item
    results (CSV / JSONL / Parquet), harness output, a leaderboard or battles.
    ``kind`` forces the input kind (results, document, leaderboard, battles, ...)."""
    from benchaudit.api import audit

    return _answer(audit([path], kind=kind, on_error="report"), results=True)


_SCORE = re.compile(r"^\s*([+-]?\d+(?:\.\d+)?)\s*(%?)\s*$")


def check_reachability(score: str, n: int, samples: int = 1) -> dict[str, Any]:
    """Whether a score as written ("87.3%", "0.873") can come out of n items with
    ``samples`` samples averaged per item: k / (n * samples) for a whole k, at the
    precision written. Gives the nearest reachable values and the fewest samples per
    item that would make it reachable."""
    from benchaudit.stats import granularity as g

    m = _SCORE.match(str(score))
    if not m:
        raise BenchauditError(
            f"score must be a number as written, like 87.3% or 0.873, not {score!r}"
        )
    if n < 1 or samples < 1:
        raise BenchauditError("n and samples must be at least 1")
    value, percent = m.group(1), bool(m.group(2)) or float(m.group(1)) > 1
    scale = 100 if percent else 1
    unit = "%" if percent else ""
    shown = f"{value}{unit}"
    if not 0 <= float(value) <= scale:
        raise BenchauditError(f"{shown} is not a score between 0 and {scale}{unit}")
    total = n * samples
    per = "scored once" if samples == 1 else f"averaged over {samples} samples per item"
    reachable = g.is_reachable(value, n, samples, scale)
    below, above = g.nearest(value, n, samples, scale)
    out: dict[str, Any] = {
        "score": shown,
        "n": n,
        "samples": samples,
        "reachable": reachable,
        "check_has_power": g.can_detect(value, n, samples, scale),
        "findings": [],
    }
    if reachable:
        ks = g.counts(value, n, samples, scale)
        out["k"] = [ks.start, ks.stop - 1]
        if len(ks) == 1:
            out["wording"] = f"{shown} ({ks.start:,}/{total:,})"
        if not out["check_has_power"]:
            out["note"] = (
                f"every value at this precision is reachable with {total:,} scores "
                f"(n x samples >= 10^decimals), so this check cannot catch an error here"
            )
        return out
    out["nearest"] = [
        {"value": f"{nb.text}{unit}", "k": nb.k, "total": nb.total}
        for nb in (below, above)
        if nb is not None
    ]
    fewest = g.min_samples(value, n, scale)
    near = [f"{nb.text}{unit} ({nb.k:,}/{nb.total:,})" for nb in (below, above) if nb]
    options = " or ".join(near)
    message = f"{shown} on {n:,} items {per} is not k/{total:,} for any whole k"
    if near:
        message += f": the nearest reachable values are {' and '.join(near)}"
    suggestion = (
        f"Report {options} on {n:,} items" if options else f"Check the score on {n:,} items"
    )
    if fewest and fewest != samples:
        suggestion += (
            f", or state the number of samples averaged per item ({shown} needs at least {fewest})"
        )
    out["min_samples"] = fewest
    out["findings"] = [
        {
            "rule": "BA101",
            "name": "unreachable-score",
            "severity": "error",
            "message": message,
            "suggestion": suggestion,
        }
    ]
    return out


def compare_scores(
    scores_a: list[float],
    scores_b: list[float],
    name_a: str = "A",
    name_b: str = "B",
    item_ids: list[str] | None = None,
) -> dict[str, Any]:
    """Compare two models' per-item scores on the same items (item i of one list is
    item i of the other; 0/1 or graded): each model's 95% interval, the paired
    difference with McNemar's exact test or a sign-flip permutation test, and what
    may be claimed about the gap."""
    import pandas as pd

    from benchaudit.api import audit_results

    if len(scores_a) != len(scores_b):
        raise BenchauditError(
            f"the two lists must score the same items: {len(scores_a)} vs {len(scores_b)} scores"
        )
    if not scores_a:
        raise BenchauditError("no scores to compare")
    if name_a == name_b:
        raise BenchauditError("the two models need different names")
    items = list(item_ids) if item_ids is not None else [str(i + 1) for i in range(len(scores_a))]
    if len(items) != len(scores_a):
        raise BenchauditError("item_ids must have one id per score")
    frame = pd.DataFrame(
        {
            "model": [name_a] * len(items) + [name_b] * len(items),
            "item": items + items,
            "score": [float(x) for x in scores_a] + [float(x) for x in scores_b],
        }
    )
    report = audit_results(frame, name="scores.csv", baseline_model=name_a)
    out = _answer(report, results=True)
    wording = _comparison_wording(out.get("results", {}), name_a, name_b)
    if wording:
        out["wording"] = wording
    return out


def _comparison_wording(results: dict[str, Any], name_a: str, name_b: str) -> str | None:
    """One sentence with both intervals and the paired test: what may be written."""
    models = {m["model"]: m for m in results.get("models", [])}
    pair = next(iter(results.get("comparisons", [])), None)
    if pair is None or name_a not in models or name_b not in models:
        return None

    def pct(x: float) -> str:
        return f"{100 * x:.1f}"

    def score(m: dict[str, Any]) -> str:
        return f"{m['model']} scores {pct(m['score'])}% (95% CI {pct(m['ci_low'])}–{pct(m['ci_high'])}%)"

    diff = pair["diff"] if pair["a"] == name_b else -pair["diff"]  # name_b minus name_a
    lo, hi = sorted((x if pair["a"] == name_b else -x) for x in (pair["ci_low"], pair["ci_high"]))
    verdict = (
        "significant at 0.05"
        if pair["p_value"] < 0.05
        else "not significant at 0.05; report it as inconclusive"
    )
    return (
        f"On the same {pair['n_items']:,} items, {score(models[name_b])} and {score(models[name_a])}; "
        f"the paired difference is {100 * diff:+.1f} points (95% CI {100 * lo:+.1f} to "
        f"{100 * hi:+.1f}), {pair['test']} p = {pair['p_value']:.2g} ({verdict})."
    )


TOOLS = (check_claim, check_file, check_reachability, compare_scores)


def build_server() -> Any:
    """The MCP server with every tool registered (needs the ``mcp`` package)."""
    from benchaudit import DISTRIBUTION, __version__

    try:
        from mcp.server.mcpserver import MCPServer
    except ImportError:
        raise BenchauditError(
            f"the MCP server needs the mcp package (2.3 or later): pip install '{DISTRIBUTION}[mcp]'"
        ) from None
    from mcp.server.mcpserver.exceptions import ToolError

    server = MCPServer(name="benchaudit", version=__version__, instructions=INSTRUCTIONS)
    for tool in TOOLS:
        server.tool()(_reporting(tool, ToolError))
    return server


def _reporting(tool: Any, tool_error: type[Exception]) -> Any:
    """``tool`` with a bad argument or input told to the caller in one line (the SDK
    hides the text of any other exception as a crash)."""

    @functools.wraps(tool)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return tool(*args, **kwargs)
        except BenchauditError as exc:
            raise tool_error(str(exc)) from None

    return call


def serve() -> None:
    """Serve the tools over standard input and output until the client closes them."""
    build_server().run("stdio")
