"""The holder's parts on their own: key names, rendering, the rotating log, the runtime dir."""

from __future__ import annotations

import os
import select
import shutil
import socket
import stat
import subprocess
import tempfile
import tty
from collections.abc import Iterator
from pathlib import Path

import pytest

from gzia.contract import InvalidInputError, SafetyBlockError
from gzia.supervisor import logfile
from gzia.supervisor.keys import bracketed_paste, keys_bytes
from gzia.supervisor.logfile import (
    LogFollower,
    RotatingLog,
    log_size,
    read_log,
    read_log_tail,
    read_log_to_end,
    rotated_path,
)
from gzia.supervisor.render import render_text
from gzia.supervisor.runtime_dir import (
    bind_private_socket,
    clean_stale_sockets,
    new_socket_path,
    runtime_dir,
)


@pytest.mark.parametrize(("keys", "expected"), [
    (["ls -l", "Enter"], b"ls -l\r"),
    (["Escape", "Tab", "BSpace", "Space"], b"\x1b\t\x7f "),
    (["C-c", "C-d", "c-a", "C-[", "C-Space", "C-?"], b"\x03\x04\x01\x1b\x00\x7f"),
    (["M-x", "M-Enter", "M-C-a"], b"\x1bx\x1b\r\x1b\x01"),
    (["Up", "Down", "Right", "Left", "Home", "End"],
     b"\x1b[A\x1b[B\x1b[C\x1b[D\x1b[H\x1b[F"),
    (["PageUp", "NPage", "DC", "F1", "F12", "BTab"],
     b"\x1b[5~\x1b[6~\x1b[3~\x1bOP\x1b[24~\x1b[Z"),
    (["Enterprise", "C-", "ñ"], "EnterpriseC-ñ".encode()),
])
def test_key_names_become_terminal_bytes(keys: list[str], expected: bytes) -> None:
    assert keys_bytes(keys) == expected


def test_a_control_key_without_a_control_character_is_invalid() -> None:
    with pytest.raises(InvalidInputError) as caught:
        keys_bytes(["C-é"])
    assert caught.value.message == "unknown key: C-é"


def test_bracketed_paste_cannot_be_ended_from_inside() -> None:
    assert bracketed_paste(b"a\x1b[201~b") == b"\x1b[200~ab\x1b[201~"


def test_rendering_strips_sequences_and_applies_returns() -> None:
    raw = (b"\x1b[1;31mred\x1b[0m\r\n\x1b]0;title\x07plain\r\n10%\r50%\r100%\r\n"
           b"ab\x08c\r\n\x1b[?2004h\x1b(Bdone\x07\r\n")
    assert render_text(raw) == "red\nplain\n100%\nac\ndone\n"


def test_log_rotates_at_its_cap_and_reads_back_in_order(tmp_path: Path) -> None:
    path = tmp_path / "logs" / "s.log"
    log = RotatingLog(path, max_bytes=10)
    follower = LogFollower(path)
    seen = b""
    for index in range(7):
        log.write(f"line{index}\n".encode())  # 6 bytes each
        seen += follower.read_available()
    log.close()
    seen += follower.read_available()
    written = b"".join(f"line{i}\n".encode() for i in range(7))
    assert seen == written  # every byte once, across rotations
    assert path.stat().st_size <= 10 and rotated_path(path).stat().st_size == 10
    assert read_log(path) == written[-log_size(path):]
    assert log_size(path) == path.stat().st_size + 10
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


@pytest.mark.parametrize("block", [3, 7, 64 * 1024])
def test_the_tail_of_a_log_is_read_from_its_end_and_shows_the_same_lines(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, block: int) -> None:
    """``session output --tail N`` and the TUI's preview: the same lines as cutting the
    whole log, rotated part included, without reading more than they need."""
    monkeypatch.setattr("gzia.supervisor.logfile.TAIL_BLOCK", block)
    path = tmp_path / "s.log"
    log = RotatingLog(path, max_bytes=40)
    for index in range(13):
        log.write(f"line {index}\n".encode() if index % 4 else b"partial ")
    log.close()
    whole = read_log(path)
    for lines in range(0, 16):
        tail = read_log_tail(path, lines)
        assert whole.endswith(tail)
        assert tail.split(b"\n")[-lines - 1:] == whole.split(b"\n")[-lines - 1:]
    if block == 3:
        assert len(read_log_tail(path, 1)) < len(whole)


def test_a_follower_started_where_a_read_ended_repeats_and_loses_nothing(tmp_path: Path) -> None:
    """``session output -f``: what was read, then every later byte once (the follower of
    a run that writes between the read and the follow used to print those bytes twice)."""
    path = tmp_path / "s.log"
    log = RotatingLog(path, max_bytes=12)
    log.write(b"one\ntwo\nthree\n")  # 14 bytes: the first 12 rotated out, 2 in the current file
    read, end = read_log_to_end(path)
    log.write(b"four\n")  # written after the read, before the follow starts
    follower = LogFollower(path, end)
    assert (read, end.offset) == (b"one\ntwo\nthree\n", 2)
    assert read + follower.read_available() == b"one\ntwo\nthree\nfour\n"
    log.close()


def test_a_follower_started_after_a_rotation_resumes_in_the_rotated_file(tmp_path: Path) -> None:
    """The log rotates between ``session output -f``'s read and its follow: the rest of
    the file that was read comes from the rotated file, then the new one from its start
    (an offset into whichever file was current lost those bytes, or repeated others)."""
    path = tmp_path / "s.log"
    log = RotatingLog(path, max_bytes=12)
    log.write(b"one\ntwo\n")  # 8 bytes, all in the current file
    read, end = read_log_to_end(path)
    log.write(b"three\nfour\nfive\n")  # fills the file (rotated), then a new one
    follower = LogFollower(path, end)
    followed = follower.read_available()
    log.write(b"six\n")
    followed += follower.read_available()
    log.close()
    follower.close()
    assert read + followed == b"one\ntwo\nthree\nfour\nfive\nsix\n"


def rotating_between_the_opens(monkeypatch: pytest.MonkeyPatch, log: RotatingLog) -> None:
    """The log rotates right after the first file a read opens (once)."""
    real_open = logfile._open_part
    pending = [True]

    def open_then_rotate(path: Path) -> object:
        handle = real_open(path)
        if pending:
            pending.clear()
            log.write(b"x" * (log.max_bytes - log.size))  # fills the file
            log.write(b"after\n")  # and rotates it
        return handle

    monkeypatch.setattr(logfile, "_open_part", open_then_rotate)


@pytest.mark.parametrize("read", ["tail", "whole"])
def test_a_rotation_during_a_read_repeats_no_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, read: str) -> None:
    """The current file opened, then renamed by a rotation before the rotated one is
    opened: read as both, its lines came twice. The read starts again instead."""
    path = tmp_path / "s.log"
    log = RotatingLog(path, max_bytes=40)
    log.write(b"first\nsecond\n")
    rotating_between_the_opens(monkeypatch, log)
    data = read_log_tail(path, 100) if read == "tail" else read_log_to_end(path)[0]
    log.close()
    assert data.count(b"first\n") == 1
    assert data.endswith(b"after\n")


@pytest.fixture
def short_runtime() -> Iterator[Path]:
    base = Path(tempfile.mkdtemp(prefix="rt", dir="/tmp"))
    yield base
    shutil.rmtree(base)


def test_runtime_dir_is_private_and_sockets_short(short_runtime: Path) -> None:
    env = {"XDG_RUNTIME_DIR": str(short_runtime)}
    directory = runtime_dir(env)
    assert directory == short_runtime / "gz-ia"
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    path = new_socket_path("ab12cd34", env)
    assert path.parent == directory and len(os.fsencode(str(path))) < 100
    server = bind_private_socket(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert clean_stale_sockets(directory) == []  # someone listens: kept
    server.close()
    assert clean_stale_sockets(directory) == [path]  # nobody does: removed
    assert not path.exists()


def test_a_deep_runtime_dir_falls_back_to_tmp(tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 90)
    deep.mkdir()
    directory = runtime_dir({"XDG_RUNTIME_DIR": str(deep)})
    assert directory == Path(f"/tmp/gz-ia-{os.getuid()}")


def test_the_runtime_dir_is_one_of_config_paths(short_runtime: Path, tmp_path: Path) -> None:
    """config.Paths is the one authority on paths: the supervisor creates what it names."""
    from gzia.config import paths

    env = {"XDG_RUNTIME_DIR": str(short_runtime)}
    assert paths(env).runtime_dir == short_runtime / "gz-ia"
    assert not (short_runtime / "gz-ia").exists()  # naming a path creates nothing
    assert runtime_dir(env) == paths(env).runtime_dir
    someone_elses = {"XDG_RUNTIME_DIR": "relative/dir"}
    assert paths(someone_elses).runtime_dir == Path(f"/tmp/gz-ia-{os.getuid()}")
    assert paths({"XDG_RUNTIME_DIR": str(tmp_path / ("d" * 90))}).runtime_dir == \
        Path(f"/tmp/gz-ia-{os.getuid()}")


def test_a_runtime_dir_others_may_enter_is_refused(short_runtime: Path) -> None:
    (short_runtime / "gz-ia").mkdir(mode=0o755)
    (short_runtime / "gz-ia").chmod(0o755)
    with pytest.raises(SafetyBlockError) as caught:
        runtime_dir({"XDG_RUNTIME_DIR": str(short_runtime)})
    assert caught.value.message == (
        f"the runtime directory {short_runtime}/gz-ia is not private to this user "
        "(it must be your own directory with mode 0700)")


def test_stale_socket_file_is_not_a_listener(short_runtime: Path) -> None:
    path = short_runtime / "x.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(str(path))
    sock.close()
    assert clean_stale_sockets(short_runtime) == [path]


def test_a_new_attacher_gets_the_last_output_however_big_the_batches(tmp_path: Path) -> None:
    """The holder keeps only the newest RECENT_BYTES (to redraw a new attacher's screen),
    whether the agent's output came in small reads or in batches bigger than that."""
    from gzia.supervisor.control import ControlServer, decode_bytes
    from gzia.supervisor.holder_relay import RECENT_BYTES, HolderRelay

    output = tmp_path / "output"
    output.write_bytes(bytes(range(256)) * (5 * RECENT_BYTES // 256 + 7))
    master, slave = os.openpty()
    tty.setraw(slave)  # the bytes as written: no newline translation
    listener = socket.socket(socket.AF_UNIX)
    server = ControlServer(listener, tmp_path / "unused.sock", {})
    relay = HolderRelay(master, RotatingLog(tmp_path / "log", 1 << 30), server)
    writer = subprocess.Popen(["cat", str(output)], stdout=slave)
    os.close(slave)
    while relay.master_open:
        select.select([master], [], [], 5)
        relay.handle([master], [])
    writer.wait()
    relay.close()
    listener.close()
    assert (tmp_path / "log").read_bytes() == output.read_bytes()
    recent = decode_bytes(server.handlers["attach"]({})["recent"])
    assert recent == output.read_bytes()[-RECENT_BYTES:]
