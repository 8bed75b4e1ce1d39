"""Whether sandboxes can be made here: ``bwrap`` on PATH, and able to create its namespaces.

One cheap probe (``bwrap ... -- true``, a few milliseconds) per process and PATH, cached: a
sandboxed start asks :func:`require_sandbox`, ``gz-ia doctor`` asks :func:`sandbox_support`.
Without a working bubblewrap a sandboxed start is refused, never run unsandboxed.
"""

from __future__ import annotations

import functools
import os
import shutil
from dataclasses import dataclass

from gzia import proc
from gzia.contract import GzError, IOFailure, NotFoundError
from gzia.i18n import N_

BWRAP = "bwrap"
INSTALL_HINT = N_("install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf "
                  "install bubblewrap)")
PROBE_TIMEOUT_S = 10.0
PROBE_ARGS = ("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-all",
              "--die-with-parent", "--", "true")


@dataclass(frozen=True)
class Support:
    bwrap: str | None
    """The executable found, else None."""
    problem: str | None
    """What bwrap answered when it could not make a sandbox (None: it can)."""

    @property
    def works(self) -> bool:
        return self.bwrap is not None and self.problem is None


def sandbox_support() -> Support:
    """Find ``bwrap`` on gz-ia's PATH and make one sandbox with it (cached per PATH: an
    answer for one PATH never stands for another)."""
    return _support_on(os.environ.get("PATH", os.defpath))


@functools.cache
def _support_on(path: str) -> Support:
    found = shutil.which(BWRAP, path=path)
    if found is None:
        return Support(None, None)
    try:
        completed = proc.run([found, *PROBE_ARGS], timeout=PROBE_TIMEOUT_S)
    except GzError as exc:
        return Support(found, exc.message)
    if completed.ok:
        return Support(found, None)
    lines = (completed.stderr or completed.stdout).strip().splitlines()
    return Support(found, lines[-1] if lines else f"exit status {completed.returncode}")


def require_sandbox() -> str:
    """The ``bwrap`` to run sandboxes with; raises when none can be made here."""
    support = sandbox_support()
    if support.bwrap is None:
        raise NotFoundError(
            N_("--sandbox needs bubblewrap (bwrap), which is not installed: the session was not "
               "started"), hint_key=INSTALL_HINT, details={"program": BWRAP})
    if support.problem is not None:
        raise IOFailure(
            N_("bubblewrap cannot create a sandbox here ({problem}): the session was not "
               "started"), problem=support.problem,
            hint_key=N_("let unprivileged users create user namespaces "
                        "(sysctl kernel.unprivileged_userns_clone=1), or run gz-ia where "
                        "they can; 'gz-ia doctor' checks it"),
            details={"program": support.bwrap, "problem": support.problem})
    return support.bwrap


def forget_sandbox_support() -> None:
    """Probe again on the next question (a test that installs or breaks ``bwrap``)."""
    _support_on.cache_clear()

