"""Precision and recall on real documents nobody on the team wrote.

Every error and warning benchaudit gives on the corpus in
``tests/data/realdocs`` is matched with a hand verdict (see the README
there); findings without a verdict count as wrong. The test prints the
table a reviewer would want and keeps strict precision at or above
:data:`PRECISION_FLOOR`.
"""

from __future__ import annotations

import pytest

realdocs_eval = pytest.importorskip("realdocs_eval")

#: Strict precision of errors and warnings on the whole corpus (debatable and
#: unjudged findings count as not right).
PRECISION_FLOOR = 0.9


@pytest.fixture(scope="module")
def results():
    return [realdocs_eval.evaluate(p) for p in realdocs_eval.truth_files()]


@pytest.mark.slow
def test_corpus_is_large_and_sourced(results):
    import yaml

    assert len(results) >= 40
    for path in realdocs_eval.truth_files():
        truth = yaml.safe_load(path.read_text("utf-8"))
        src = truth["source"]
        assert len(src["commit"]) == 40 and src["repository"] and src["licence"], path.name
        assert (realdocs_eval.ROOT / truth["document"]).is_file(), path.name


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
    assert totals["all"].strict >= PRECISION_FLOOR, totals["all"].line("all")
