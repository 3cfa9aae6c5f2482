"""``benchaudit mcp`` over stdio, driven by the MCP SDK's own client.

The server runs as a subprocess (``python -m benchaudit mcp``) exactly as an
agent's client would start it; the test lists the tools and calls each one.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from benchaudit import mcp_server

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"

CLAIM = "Our model reaches 87.3% pass@1 on HumanEval with greedy decoding."


def _structured(result) -> dict:
    assert not result.is_error, result.content
    if result.structured_content:
        data = result.structured_content
        return data.get("result", data) if set(data) == {"result"} else data
    return json.loads(result.content[0].text)


def test_tools_without_the_sdk():
    claim = mcp_server.check_claim(CLAIM)
    assert claim["grade"] == "F"
    (first,) = [f for f in claim["findings"] if f["name"] == "unreachable-score"]
    assert first["severity"] == "error" and "87.2% (143/164)" in first["suggestion"]

    reach = mcp_server.check_reachability("87.3%", 164)
    assert reach["reachable"] is False and reach["min_samples"] == 4
    assert [x["k"] for x in reach["nearest"]] == [143, 144]
    assert "87.2% (143/164) or 87.8% (144/164)" in reach["findings"][0]["suggestion"]
    # DESIGN's worked example: 79.8% on AIME (30) is reachable over 64 samples.
    assert mcp_server.check_reachability("79.8%", 30)["reachable"] is False
    assert mcp_server.check_reachability("79.8%", 30, samples=64)["reachable"] is True
    assert mcp_server.check_reachability("0.872", 164)["wording"] == "0.872 (143/164)"

    # The golden paired table: A only 30, B only 15 of 500 -> McNemar exact 0.036.
    a = [1] * 335 + [1] * 30 + [0] * 15 + [0] * 120
    b = [1] * 335 + [0] * 30 + [1] * 15 + [0] * 120
    cmp = mcp_server.compare_scores(a, b, "A", "B")
    (pair,) = cmp["results"]["comparisons"]
    assert pair["p_value"] == pytest.approx(0.0357, abs=5e-4)
    assert "+3.0 points" in cmp["wording"] or "-3.0 points" in cmp["wording"]
    assert "significant at 0.05" in cmp["wording"]


def test_server_over_stdio_lists_and_calls_every_tool(tmp_path):
    pytest.importorskip("mcp", reason="the mcp SDK is in the 'mcp' and 'test' extras")
    import anyio
    from mcp import ClientSession, StdioServerParameters, stdio_client

    card = tmp_path / "card.md"
    card.write_text(CLAIM + "\n", encoding="utf-8")
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "benchaudit", "mcp"], cwd=str(tmp_path)
    )

    async def session_run() -> dict:
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                listed = await session.list_tools()
                out = {"tools": {t.name: t for t in listed.tools}}
                calls = {
                    "check_claim": {"text": CLAIM},
                    "check_file": {"path": str(card)},
                    "check_reachability": {"score": "87.3%", "n": 164},
                    "compare_scores": {
                        "scores_a": [1, 1, 0, 1, 0, 1, 1, 1],
                        "scores_b": [1, 0, 0, 1, 0, 1, 0, 1],
                        "name_a": "base",
                        "name_b": "tuned",
                    },
                }
                for name, args in calls.items():
                    out[name] = _structured(await session.call_tool(name, args))
                bad = await session.call_tool("check_reachability", {"score": "lots", "n": 5})
                out["bad"] = bad
                return out

    got = anyio.run(session_run)
    assert set(got["tools"]) == {t.__name__ for t in mcp_server.TOOLS}
    for tool in got["tools"].values():
        assert tool.description and tool.input_schema["properties"]
    assert got["check_claim"]["grade"] == "F"
    assert any("143/164" in (f["suggestion"] or "") for f in got["check_claim"]["findings"])
    assert got["check_file"]["findings"][0]["file"] == str(card)
    assert got["check_reachability"]["reachable"] is False
    assert got["check_reachability"]["findings"][0]["suggestion"].startswith("Report 87.2%")
    cmp = got["compare_scores"]
    assert {m["model"] for m in cmp["results"]["models"]} == {"base", "tuned"}
    assert any(f["name"] == "underpowered" and f["suggestion"] for f in cmp["findings"])
    assert "inconclusive" in cmp["wording"]
    # A bad argument is a tool error with the one-line reason, not a dead server.
    assert got["bad"].is_error
    assert "score must be a number" in got["bad"].content[0].text
