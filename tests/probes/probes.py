"""The mutation probes: one condition or constant replaced, and the tests that must notice.

See tests/MUTATION_PROBES.md for what each probe found and tests/probes/run_probes.py
to re-run them. ``find`` must occur exactly once in ``file``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Probe:
    id: str
    file: str
    what: str
    find: str
    replace: str
    tests: tuple[str, ...]


CASES = "tests/rules/test_rule_cases.py::test_rule_case"

PROBES: list[Probe] = [
    # The three of issue 17.
    Probe(
        "P01",
        "benchaudit/render/text.py",
        "text for --output FILE coloured like the terminal (file check removed)",
        "    return not _text_goes_to_a_file()",
        "    return True",
        (
            "tests/test_render_text_markdown.py::test_no_colour_in_an_output_file_even_from_a_terminal",
        ),
    ),
    Probe(
        "P02",
        "rules/rank_tie.py",
        "rank-tie's battles branch deleted",
        "            yield from _battles(self, source, ctx)\n",
        "            pass\n",
        (f"{CASES}[rank-tie:7:battles ratings with overlapping intervals are information only]",),
    ),
    Probe(
        "P03",
        "rules/run_drift.py",
        "run-drift's McNemar p fixed at 1.0",
        "            p = mcnemar_exact(up, down)",
        "            p = 1.0",
        (f"{CASES}[run-drift:0:beta changed on six items, alpha did not]",),
    ),
]
