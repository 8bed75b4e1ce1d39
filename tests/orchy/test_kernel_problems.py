"""A tool plugin's failure (boot, shutdown, import) is a problem in the contract's one
shape, and comes back as the error class its code names, as every problem crossing a
process boundary does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gzia.contract import GzError, InternalError, NotFoundError, Problem
from gzia.i18n import N_
from gzia.orchy.kernel import Kernel, PluginProblem
from gzia.orchy.tool import ToolContext
from gzia.sessions.project import find_project
from gzia.sessions.store import SessionStore
from tests.shared_fixtures import git


class Failing:
    def __init__(self, error: Exception, *, at: str = "boot") -> None:
        self.error, self.at = error, at

    def boot(self, context: ToolContext) -> list[Any]:
        if self.at == "boot":
            raise self.error
        return []

    def shutdown(self) -> None:
        if self.at == "shutdown":
            raise self.error


@pytest.fixture
def context(tmp_path: Path) -> ToolContext:
    git(tmp_path, "init", "-q")
    return ToolContext(SessionStore(find_project(tmp_path)), "abcdef01")


def _missing() -> NotFoundError:
    return NotFoundError(N_("session '{id}' not found"), id="zz", hint_key=N_("gz-ia session list"),
                         details={"id": "zz"})


@pytest.mark.parametrize(("error", "shape", "cls"), [
    (_missing(), {"code": "NOT_FOUND", "message": "session 'zz' not found", "retryable": False,
                  "hint": "gz-ia session list", "details": {"id": "zz"}}, NotFoundError),
    (RuntimeError("refuses to boot"), {"code": "INTERNAL", "retryable": False, "hint": None,
                                       "message": "RuntimeError: refuses to boot",
                                       "details": {}}, InternalError),
])
def test_a_boot_failure_is_a_problem_and_comes_back_as_its_class(
        context: ToolContext, error: Exception, shape: dict[str, Any], cls: type[GzError]) -> None:
    kernel = Kernel(context, [("fragile", Failing(error))])
    assert kernel.boot() is False
    sent = kernel.to_json()["boot_failure"]
    assert sent == {"plugin": "fragile", **shape}
    received = PluginProblem.from_json(sent)
    assert received == kernel.boot_failure
    back = received.as_error()
    assert type(back) is cls
    assert Problem(back.code, back.message, hint=back.hint, details=back.details).to_json() \
        == {k: shape[k] for k in ("code", "message", "hint", "details")} | {"retryable": False}


def test_a_shutdown_failure_is_one_too(context: ToolContext) -> None:
    kernel = Kernel(context, [("leaky", Failing(OSError("busy"), at="shutdown"))])
    assert kernel.boot() is True
    kernel.shutdown()
    assert [p.to_json() for p in kernel.shutdown_errors] == [
        {"plugin": "leaky", "code": "INTERNAL", "message": "OSError: busy", "retryable": False,
         "hint": None, "details": {}}]


@pytest.mark.parametrize("sent", [None, {"code": "IO", "message": "x"}, {"plugin": "p"},
                                  {"plugin": 3, "code": "IO", "message": "x"}])
def test_a_malformed_one_is_refused(sent: object) -> None:
    with pytest.raises(ValueError, match=r"plugin|problem"):
        PluginProblem.from_json(sent)
