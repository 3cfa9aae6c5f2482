"""What a document says its marks mean, read clause by clause."""

from __future__ import annotations

import pytest

from benchaudit.claims.emphasis_key import emphasis_key


@pytest.mark.parametrize(
    "text,bold,underline",
    [
        ("• Bold denotes global SOTA, and underlined denotes open-source SOTA.", "best", "scoped"),
        ("The best performance in each benchmark is in bold and the second best one is underlined.", "best", "second"),
        (
            "Bold indicates the best performance overall, and underline marks the best among open-source models.",
            "best",
            "scoped",
        ),
        ("The best results of each group are in bold.", "scoped", None),
        ("Our results are in bold.", None, None),
        ("Scores in bold and underlined are ours.", None, None),
    ],
)
def test_each_clause_gives_its_mark_one_meaning(text, bold, underline):
    key = emphasis_key(text)
    assert (key.bold, key.underline) == (bold, underline)


def test_the_clause_is_kept_for_the_message():
    key = emphasis_key("Table 4: UF: UltraFeedback. The best performance in each benchmark is in bold.")
    assert key.bold_said == "The best performance in each benchmark is in bold"
