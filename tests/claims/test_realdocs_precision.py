"""Precision and recall on real documents nobody on the team wrote.

Every error and warning benchaudit gives on the corpus in
``tests/data/realdocs`` is matched with a hand verdict (see the README
there); findings without a verdict count as wrong. The test prints the
table a reviewer would want (per claim: a table's finding counts once per cell it lists, as
when each cell was its own finding; and per finding, by its worst cell) and keeps strict precision at or above
:data:`PRECISION_FLOOR` on the batches the rules were developed on, and at or
above its floor in :data:`HELD_OUT` on each batch judged after them (their first-pass
figure, raised as their wrong findings are fixed; see CONTRIBUTING).
"""

from __future__ import annotations

import pytest

realdocs_eval = pytest.importorskip("realdocs_eval")

#: Strict precision of errors and warnings on the development batches (debatable and
#: unjudged findings count as not right).
PRECISION_FLOOR = 0.9
#: Batches judged fresh, after the development batches, and each one's floor: its first-pass
#: figure raised as its wrong findings are fixed, so a change that loses ground on it fails.
#: Batch 4 scored 0.50 at its first pass (13 of 26 right, 6 wrong) and 0.65 after its fixes
#: (13 of 20, none wrong, 7 debatable). Batch 5 scored 0.44 at its first pass (32 of 73 right,
#: 34 wrong, 7 debatable) and 0.76 after its fixes (39 of 51, 2 wrong, 10 debatable).
#: Batch 6 scored 0.40 at its first pass (12 of 30 right, 12 wrong, 6 debatable). Batch 7 scored
#: 0.47 (8 of 17 right, 3 wrong, 6 debatable; Markdown 4 of 4, PDF 4 of 13) and 1.00 after its
#: fixes (10 of 10). Batch 8, judged on the code with batch 7's fixes, scored 0.75 at its first
#: pass (21 of 28 right, 6 wrong, 1 debatable; Markdown 3 of 3, PDF 18 of 25) and 0.95 after its
#: fixes (21 of 22). Batch 9 scored 0.93 at its first pass (43 of 46 right, 2 wrong, 1 debatable;
#: Markdown 0 of 2, PDF 43 of 44, 40 of them one bold-lead pattern) and 1.00 after (60 of 60).
#: Batch 11 (eight Markdown cards and READMEs) gave no error or warning at its first pass (strict
#: and lenient 1.00 over nothing flagged, recall 0 of 10: its problems are prose claims, backed only by
#: images or by leads of a few tenths over a leaderboard's second place), so its floor guards
#: against new false alarms there.
#: Batch 12 (nine Markdown cards and READMEs, one report PDF) scored 0.78 at its first pass (7 of 9
#: right, 2 wrong: an averaging statement without k scoped to "competitive mathematics benchmarks
#: (e.g., AIME24)" not read as a protocol, and "Llama3-8B" not matched to a "LLaMA 3.1 8B" table row)
#: and 1.00 after their fixes (7 of 7: the first now info, stated repetition for the benchmarks it
#: names; the second info, naming the neighbouring version's row).
#: Batch 13 (twelve Markdown cards and READMEs) scored 0.75 at its first pass (9 of 12 right, 1 wrong:
#: a transposed table's "Improvement" column read as a rival model; 2 debatable: scores of 30- and
#: 198-item sets that an unstated average over samples reaches), recall 8 of 51, and 0.82 after its
#: fix (9 of 11: a column of differences beside the models' columns is no longer a rival).
#: Batch 14 (six Markdown READMEs: Orion-14B, Index-1.9B, four XVERSE models) scored 1.00 at its
#: first pass (13 of 13 right: five bold leads inside the noise, four wrong or tied bolds, three
#: vendor HumanEval figures not k/164), recall 8 of 32 as first written (12 of 33 once bold ties were
#: filed under misleading-emphasis and a missed bold added); its floor is that figure.
#: Batch 15 (seven Markdown READMEs: UI-TARS and UI-TARS 1.0, Aquila2, ToolBench, tau-bench, MMMU,
#: CosyVoice) scored 0.88 at its first pass (7 of 8 right, 1 wrong: a bold best model read against the
#: human-expert reference rows above it), recall 7 of 39; its floor is just below that figure.
#: Batch 17 (seven Markdown READMEs and a model card: StableLM, Arctic-Embed, Eagle 2.5, VILA, DINOv2,
#: olmOCR-Bench, MDPBench) scored 1.00 at its first pass (3 of 3 right: three bold leads of 0.2-0.3
#: points in one table), recall 3 of 24; its floor is just below that figure.
#: Floors are the figures after the fixes of later rounds, a little below.
HELD_OUT = {4: 0.70, 5: 0.82, 6: 0.85, 7: 0.9, 8: 0.9, 9: 0.9, 10: 0.9, 11: 0.9, 12: 0.9, 13: 0.81, 14: 0.92, 15: 0.85, 16: 0.9, 17: 0.95}


@pytest.fixture(scope="module")
def results():
    return realdocs_eval.evaluate_all(realdocs_eval.truth_files())


@pytest.mark.slow
def test_corpus_is_large_and_sourced(results):
    import yaml

    assert len(results) >= 40
    for path in realdocs_eval.truth_files():
        truth = yaml.safe_load(path.read_text("utf-8"))
        src = truth["source"]
        assert len(src["commit"]) == 40 and src["repository"] and src["licence"], path.name
        assert (realdocs_eval.ROOT / truth["document"]).is_file(), path.name
    # The cap on the corpus: "under 50 MB in all", read in decimal megabytes.
    size = sum(f.stat().st_size for f in realdocs_eval.ROOT.rglob("*") if f.is_file())
    assert size < 50_000_000, f"the corpus is {size:,} bytes"


@pytest.mark.slow
def test_precision_and_recall_on_real_documents(results, capsys):
    totals = realdocs_eval.summarise(results)
    with capsys.disabled():
        print()
        for name, t in sorted(totals.items()):
            print(t.line(name))
        for r in results:
            for f in r.unjudged:
                print(f"unjudged: {r.slug}: {f.name} {f.severity.label} line {f.location.line}: {f.claim}")
    for batch in sorted({r.batch for r in results}):
        name = f"batch {batch}"
        floor = HELD_OUT.get(batch, PRECISION_FLOOR)
        assert totals[name].strict >= floor, totals[name].line(name)
    # Counted once per finding as a reader sees them (a table's finding by its worst cell), the
    # corpus as a whole keeps the same floor: grouping a table's cells must not hide wrong ones.
    assert totals["all"].strict_per_finding >= PRECISION_FLOOR, totals["all"].line("all")
