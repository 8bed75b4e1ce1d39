"""A real agent in a sandboxed session, against a scripted model endpoint on the allowlist.

Usage: python tests/sandbox/real_agent.py PATH_TO_CLAUDE

(docs/sandbox.md, "A real agent": install Claude Code under /tmp, never in the project.)
A scripted Anthropic Messages endpoint listens on 127.0.0.2 (the host's loopback, but not
the sandbox's ``NO_PROXY``): to a request offering the Bash tool it answers a tool call
that writes ``hello.txt``; once it sees the tool's result, or to any other request, it
answers ``done``. The agent runs as ``gz-ia exec --sandbox -- claude -p ...`` in a fresh
repository, with ``sandbox_allow_hosts = 127.0.0.2`` and its state directories
writable; the script checks that the file is in the session's worktree, that every model
request came through the proxy, and prints the versions used.
"""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

COMMAND = "echo hello from a sandboxed agent > hello.txt"
seen: list[str] = []


def events(blocks: list[dict[str, Any]], stop: str) -> bytes:
    out = [("message_start", {"type": "message_start", "message": {
        "id": "msg_1", "type": "message", "role": "assistant", "model": "scripted",
        "content": [], "stop_reason": None, "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 1}}})]
    for index, block in enumerate(blocks):
        if block["type"] == "tool_use":
            start = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        else:
            start = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        out += [("content_block_start", {"type": "content_block_start", "index": index,
                                         "content_block": start}),
                ("content_block_delta", {"type": "content_block_delta", "index": index,
                                         "delta": delta}),
                ("content_block_stop", {"type": "content_block_stop", "index": index})]
    out += [("message_delta", {"type": "message_delta", "delta": {
        "stop_reason": stop, "stop_sequence": None}, "usage": {"output_tokens": 5}}),
        ("message_stop", {"type": "message_stop"})]
    return b"".join(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()
                    for name, data in out)


def answer(request: dict[str, Any]) -> tuple[list[dict[str, Any]], str]:
    tools = [tool.get("name") for tool in request.get("tools") or []]
    last = request["messages"][-1]["content"]
    answered = isinstance(last, list) and any(
        part.get("type") == "tool_result" for part in last)
    if "Bash" in tools and not answered:
        return [{"type": "tool_use", "id": "toolu_1", "name": "Bash",
                 "input": {"command": COMMAND, "description": "write hello.txt"}}], "tool_use"
    return [{"type": "text", "text": "done"}], "end_turn"


class Model(http.server.BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        seen.append(self.path)
        if "count_tokens" in self.path:
            self._send("application/json", json.dumps({"input_tokens": 10}).encode())
            return
        blocks, stop = answer(body)
        if body.get("stream"):
            self._send("text/event-stream", events(blocks, stop))
            return
        self._send("application/json", json.dumps({
            "id": "msg_1", "type": "message", "role": "assistant", "model": "scripted",
            "content": blocks, "stop_reason": stop, "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 5}}).encode())

    def _send(self, kind: str, data: bytes) -> None:
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: Any) -> None:
        pass


def main(claude: str) -> int:
    server = http.server.ThreadingHTTPServer(("127.0.0.2", 0), Model)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    with tempfile.TemporaryDirectory() as scratch:
        repo, home = Path(scratch) / "repo", Path(scratch) / "home"
        home.mkdir()
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
        subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t",
                        "commit", "-q", "--allow-empty", "-m", "init"], check=True)
        env = {**os.environ, "HOME": str(home), "GZ_CONFIG_DIR": str(home / "gz"),
               "ANTHROPIC_BASE_URL": f"http://127.0.0.2:{server.server_port}",
               "ANTHROPIC_API_KEY": "scripted", "IS_SANDBOX": "1",
               "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
               "GZ_SANDBOX_ALLOW_HOSTS": "127.0.0.2",
               "GZ_SANDBOX_RO": str(Path(claude).resolve().parents[1]),
               "GZ_SANDBOX_RW": "~/.claude ~/.claude.json ~/.config",
               "PATH": f"{Path(claude).parent}{os.pathsep}{os.environ['PATH']}"}
        (home / ".claude").mkdir()
        (home / ".claude.json").write_text("{}")
        done = subprocess.run(
            [sys.executable, "-m", "gzia", "--json", "exec", "--sandbox", "--timeout", "300",
             "--", claude, "-p", "write hello.txt", "--dangerously-skip-permissions"],
            cwd=repo, env=env, capture_output=True, text=True, timeout=600, check=False)
        record = json.loads(done.stdout)["data"]
        written = Path(record["worktree_dir"]) / "hello.txt"
        version = subprocess.run([claude, "--version"], capture_output=True, text=True,
                                 check=False)
        print(f"agent: {version.stdout.strip()}; gz-ia exit {done.returncode}; "
              f"status {record['status']}; network {record['sandbox']['network']}")
        print(f"model requests: {seen}")
        print(f"hello.txt: {written.read_text().strip() if written.exists() else 'MISSING'}")
        if not (written.exists() and seen):
            log = Path(record.get("log_path") or "/dev/null")
            print(done.stderr[-3000:], log.read_text()[-3000:] if log.exists() else "")
            return 1
        return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
