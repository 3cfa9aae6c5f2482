"""BA407 contamination: benchmark items found in the training corpus."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from benchaudit.contamination.evidence import KIND, ContaminationHits
from benchaudit.finding import Confidence, Finding, Location, Severity
from benchaudit.options import MAX_DOCS, MAX_WORKERS, Option
from benchaudit.rulebase import Output, Rule

if TYPE_CHECKING:
    from benchaudit.engine import Context
    from benchaudit.evidence import Source


class Contamination(Rule):
    """Benchmark items overlap the training corpus; report the clean-subset score.

    **What.** Runs when the configuration names a ``corpus`` (shard globs) and a
    ``benchmark`` (item file); ``benchaudit contamination`` runs the same scan
    directly. One finding per contaminated item: an item is contaminated when
    it shares an exact word n-gram with a training document (GPT-3's rule,
    ``ngram`` words, 13 by default, the item's length for shorter items), when
    70% or more of its 8-grams occur in the corpus (PaLM), when 80% or more
    of its words lie in long matches (Llama 2's "dirty" bucket), or, with
    MinHash on, when an item-sized unit of the corpus is a near-duplicate. The
    evidence gives the item id, the coverage bucket, the longest match, the
    number of documents hit and an example (shard, line, matching text).

    **Why.** A score on items the model saw in training measures recall, not
    the skill the benchmark names. Reporting the score on the clean subset
    next to the full score (and their difference) lets a reader judge it.

    Bad (not runnable)::

        [tool.benchaudit]
        benchmark = "gsm8k_test.jsonl"
        corpus = ["shards/*.jsonl.gz"]
        # and a shard line holds a test question word for word

    Better (not runnable)::

        # the same configuration, with no test item in the shards; or report
        # "71.2% overall; 70.8% on the 1,250 items with no 13-gram overlap"

    **Assumptions.** Text is compared after lower-casing, dropping
    punctuation and joining lines; numbers are kept, so an item with changed
    numbers matches only in its unchanged stretches (turn on MinHash for
    those). N-grams found in more than ``max-docs`` (10) documents are
    treated as boilerplate unless a match covers half the item.
    """

    code = "BA407"
    name = "contamination"
    option_types = {
        "minhash": Option("bool"),
        "max-docs": Option("int", 0, MAX_DOCS),
        "workers": Option("int", 1, MAX_WORKERS),
    }
    severity = Severity.WARNING
    reads = (KIND,)

    def item_findings(self, outcome: Any, display: str) -> list[Finding]:
        """The findings of a scan run by ``benchaudit contamination`` (found through the
        registry, so that command imports no rule)."""
        return item_findings(self, outcome, display)

    def on_run(self, sources: list[Source], ctx: Context) -> Iterable[Output]:
        """The hits of the scan the engine ran for the configured corpus
        (:mod:`benchaudit.contamination.evidence`; its rows and notes are already in the
        report, whatever rules run)."""
        for source in sources:
            if source.kind == KIND and isinstance(source.data, ContaminationHits):
                yield from item_findings(self, source.data.outcome, source.data.display)


def item_findings(rule: Rule, outcome: Any, display: str) -> list[Finding]:
    """One finding per contaminated item, worded for a reader."""
    summary = outcome.summary
    bad = summary.contaminated()
    n_all = len(summary.items)
    n_clean = n_all - len(bad)
    out = []
    for s in bad:
        ex = s.example or {}
        where = f"{ex.get('shard')}:{ex.get('line')}" if ex else "the corpus"
        if s.dirty_ngram or s.longest_match:
            how = (
                f"a {s.longest_match}-word exact match in {where} "
                f"({s.docs} document(s) hit); {100 * s.coverage:.0f}% of the "
                f"{s.part_tokens or s.tokens} words of its {s.part} covered, "
                f"{100 * s.containment:.0f}% of its 8-grams found"
            )
        else:
            how = f"a near-duplicate (Jaccard {s.near_duplicate:.2f}) in {where}"
        message = f"item {s.id} appears in the training corpus: {how} (bucket {s.bucket})"
        suggestion = (
            f"Report the score on the {n_clean} of {n_all} items with no overlap "
            f"beside the full score, e.g. 'X% on all {n_all} items; Y% on the "
            f"{n_clean} items with no {summary.ngram}-gram overlap with the training "
            f"data', or drop item {s.id} from the test set."
        )
        evidence = {
            "item_id": s.id,
            "bucket": s.bucket,
            "longest_match": s.longest_match,
            "docs": s.docs,
            "coverage": round(s.coverage, 4),
            "containment": round(s.containment, 4),
            "coverage_of": s.part,
            "dirty_ngram": s.dirty_ngram,
            "ngram": s.ngram,
            "near_duplicate": s.near_duplicate,
            "methods": list(s.methods),
            "example": ex,
        }
        item = outcome.items[s.index]
        out.append(
            rule.finding(
                Location(display, line=item.line),
                message,
                claim=shorten(item.text, 200),
                suggestion=suggestion,
                evidence=evidence,
                severity=Severity.ERROR if s.bucket == "dirty" else Severity.WARNING,
                confidence=Confidence.HIGH if s.longest_match else Confidence.MEDIUM,
            )
        )
    return out


def shorten(text: str, width: int) -> str:
    """``text`` on one line, cut at a word boundary with an ellipsis when longer than
    ``width`` characters (a single longer word is cut inside it)."""
    flat = " ".join(text.split())
    if len(flat) <= width:
        return flat
    cut = flat[: width - 1]
    if " " in cut and flat[width - 1] != " ":
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:") + "\u2026"
