"""gzia.proc: a helper program stopped because gz-ia was interrupted may clean up first."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

import pytest

from gzia import proc


class Stop(KeyboardInterrupt):
    pass


@pytest.fixture
def interrupt_soon() -> Iterator[None]:
    """SIGALRM in 0.3 s raises in the main thread, as Ctrl+C or SIGTERM would."""
    def raise_stop(_signum: int, _frame: FrameType | None) -> None:
        raise Stop

    previous = signal.signal(signal.SIGALRM, raise_stop)
    signal.setitimer(signal.ITIMER_REAL, 0.3)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_an_interrupted_run_gets_sigterm_before_sigkill(tmp_path: Path,
                                                        interrupt_soon: None) -> None:
    """git removes its index.lock on SIGTERM; SIGKILL would leave the repository locked."""
    cleaned, started = tmp_path / "cleaned", tmp_path / "started"
    script = (f"trap 'echo yes > \"{cleaned}\"; exit 0' TERM\n"
              f": > \"{started}\"\nwhile :; do sleep 0.05; done\n")
    with pytest.raises(Stop):
        proc.run(["sh", "-c", script])
    assert started.exists()
    assert cleaned.read_text() == "yes\n"


def test_an_interrupted_run_that_ignores_sigterm_is_killed(tmp_path: Path,
                                                           interrupt_soon: None,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(proc, "STOP_GRACE", 0.2)
    pid_file = tmp_path / "pid"
    script = f"trap '' TERM\necho $$ > \"{pid_file}\"\nwhile :; do sleep 0.05; done\n"
    with pytest.raises(Stop):
        proc.run(["sh", "-c", script])
    pid = int(pid_file.read_text())
    assert not Path(f"/proc/{pid}").exists()
