"""Claude Code transcripts written here: what the short real runs do not show."""

from __future__ import annotations

from pathlib import Path

from gzia.metrics import claude
from tests.metrics.conftest import TEXT, THINKING, claude_reply, jsonl, tool_use

U1 = {"input": 100, "output": 10, "cache_read": 5, "cache_write": 3}
U2 = {"input": 200, "output": 20, "cache_read": 7, "cache_write": 0}


def figures(path: Path) -> tuple[dict[str, object], list[tuple[str, int]]]:
    metrics, notices = claude.read_transcripts([path])
    data = metrics.to_json()
    for key in ("files", "conversation_ids", "source", "estimated"):
        data.pop(key)
    return data, [(n.reason, n.count) for n in notices]


def usage(requests: int, tokens: tuple[int, int, int, int], tools: dict[str, int],
          models: tuple[str, ...] = ("claude-opus-4-8",)) -> dict[str, object]:
    names = ("input", "output", "cache_read", "cache_write")
    return {"models": list(models), "requests": requests,
            "tokens": {**dict(zip(names, tokens, strict=True)), "reasoning": None},
            "cost_usd": None, "tool_calls": tools, "subagents": []}


def test_one_reply_written_as_several_lines_is_one_request(tmp_path: Path) -> None:
    path = jsonl(tmp_path / "c.jsonl", [
        {"type": "user", "sessionId": "s", "message": {"role": "user", "content": "go"}},
        claude_reply("m1", THINKING, U1),
        claude_reply("m1", TEXT, U1),
        claude_reply("m1", tool_use("t1", "Bash"), U1),
        claude_reply("m1", tool_use("t1", "Bash"), U1),  # the same block written twice
        {"type": "user", "sessionId": "s", "message": {"role": "user", "content": []}},
        claude_reply("m2", tool_use("t2", "Read"), U2),
        claude_reply("m2", tool_use("t3", "Read"), {**U2, "output": 35}),  # count grew
    ])
    assert figures(path) == (usage(2, (300, 45, 12, 3), {"Bash": 1, "Read": 2}), [])


def test_repeats_far_apart_are_still_one_request_within_the_window(tmp_path: Path) -> None:
    lines = [claude_reply("m0", TEXT, U1)]
    lines += [claude_reply(f"x{i}", TEXT, U2) for i in range(10)]
    lines += [claude_reply("m0", TEXT, U1)]
    assert figures(jsonl(tmp_path / "c.jsonl", lines))[0]["requests"] == 11


def test_a_partial_last_line_is_left_out_with_a_notice(tmp_path: Path) -> None:
    path = jsonl(tmp_path / "c.jsonl", [claude_reply("m1", TEXT, U1)],
                 tail='{"type": "assistant", "message": {"id": "m2", "usage": {"input_tok')
    assert figures(path) == (usage(1, (100, 10, 5, 3), {}), [("partial", 1)])


def test_a_complete_last_line_without_newline_counts(tmp_path: Path) -> None:
    import json

    path = jsonl(tmp_path / "c.jsonl", [claude_reply("m1", TEXT, U1)],
                 tail=json.dumps(claude_reply("m2", TEXT, U2)))
    assert figures(path) == (usage(2, (300, 30, 12, 3), {}), [])


def test_damaged_lines_are_skipped_and_counted(tmp_path: Path) -> None:
    """Lines that could hold usage are counted when damaged; others are never decoded."""
    path = jsonl(tmp_path / "c.jsonl", [
        claude_reply("m1", TEXT, U1), '{"type": "assistant", not json', "", "\x00 user",
        '{"type":"assistant",}', claude_reply("m2", TEXT, U2)])
    assert figures(path) == (usage(2, (300, 30, 12, 3), {}), [("unreadable_lines", 2)])


def test_an_unknown_format_gives_no_figures_and_a_notice(tmp_path: Path) -> None:
    path = jsonl(tmp_path / "c.jsonl", [{"event": "start"}, {"event": "assistant"}, [1, 2]])
    assert figures(path) == (
        {"models": [], "requests": 0,
         "tokens": {"input": 0, "output": 0, "cache_read": 0, "cache_write": 0,
                    "reasoning": None},
         "cost_usd": None, "tool_calls": {}, "subagents": []},
        [("unknown_format", 3)])


def test_synthetic_entries_are_no_request(tmp_path: Path) -> None:
    path = jsonl(tmp_path / "c.jsonl", [
        claude_reply("m1", TEXT, U1),
        claude_reply("m9", TEXT, {"input": 0, "output": 0}, model="<synthetic>")])
    assert figures(path) == (usage(1, (100, 10, 5, 3), {}), [])


def test_sub_agents_in_their_own_files_and_as_sidechain_entries(tmp_path: Path) -> None:
    main = jsonl(tmp_path / "conv.jsonl", [
        claude_reply("m1", tool_use("t1", "Task"), U1),
        claude_reply("s1", tool_use("t2", "Grep"), U2, sidechain=True),
    ])
    jsonl(tmp_path / "conv" / "subagents" / "agent-a1.jsonl", [
        claude_reply("a1", tool_use("t3", "Read"), U2, model="claude-haiku-4-5"),
        claude_reply("a2", TEXT, U1, model="claude-haiku-4-5"),
    ])
    metrics, notices = claude.read_transcripts([main])
    assert notices == []
    subs = {s.id: s.metrics.usage.to_json() for s in metrics.subagents}
    assert subs == {
        "sidechain": {"models": ["claude-opus-4-8"], "requests": 1,
                      "tokens": {"input": 200, "output": 20, "cache_read": 7, "cache_write": 0,
                                 "reasoning": None},
                      "cost_usd": None, "tool_calls": {"Grep": 1}},
        "a1": {"models": ["claude-haiku-4-5"], "requests": 2,
               "tokens": {"input": 300, "output": 30, "cache_read": 12, "cache_write": 3,
                          "reasoning": None},
               "cost_usd": None, "tool_calls": {"Read": 1}},
    }
    assert metrics.usage.to_json()["requests"] == 1
    everything = metrics.with_subagents()
    assert (everything.total().requests, everything.total().input,
            dict(everything.tool_calls)) == (4, 600, {"Task": 1, "Grep": 1, "Read": 1})
    assert sorted(everything.by_model) == ["claude-haiku-4-5", "claude-opus-4-8"]
