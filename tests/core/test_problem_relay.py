"""Errors crossing a process boundary travel as the contract's problem and come back as
the same error class, through one mapping (``contract.ERROR_CLASSES``)."""

from __future__ import annotations

import json

import pytest

from gzia.contract import (
    ERROR_CLASSES,
    ErrorCode,
    GzError,
    InternalError,
    Problem,
    classify,
    error_from,
    problem_from,
)
from gzia.i18n import N_


def test_every_error_code_maps_back_to_its_class() -> None:
    assert set(ERROR_CLASSES) == set(ErrorCode)
    assert all(kind.code == code for code, kind in ERROR_CLASSES.items())


@pytest.mark.parametrize("code", list(ErrorCode))
def test_an_error_comes_back_as_it_left(code: ErrorCode) -> None:
    sent = ERROR_CLASSES[code](N_("session '{id}' not found"), id="ab12cd34",
                               hint_key=N_("gz-ia session list"), details={"id": "ab12cd34"})
    wire = json.loads(json.dumps(problem_from(sent).to_json()))
    back = error_from(Problem.from_json(wire))
    assert type(back) is type(sent)
    assert (back.message, back.hint, back.details) == (sent.message, sent.hint, sent.details)
    assert classify(back) == classify(sent)
    assert problem_from(back) == problem_from(sent)


def test_an_unknown_code_is_an_internal_error() -> None:
    back = error_from(Problem("FROM_A_NEWER_VERSION", "something new"))
    assert isinstance(back, InternalError) and back.message == "something new"


@pytest.mark.parametrize("wire", [None, "busy", [], {"code": "IO"}, {"message": "m"},
                                  {"code": 1, "message": "m"}, {"code": "IO", "message": "m",
                                                                "retryable": "no"},
                                  {"code": "IO", "message": "m", "details": []}], ids=repr)
def test_what_is_not_a_problem_is_refused(wire: object) -> None:
    with pytest.raises(ValueError, match="problem"):
        Problem.from_json(wire)


def test_a_relayed_error_is_still_a_gz_error() -> None:
    assert isinstance(error_from(Problem("IO", "disk full")), GzError)
