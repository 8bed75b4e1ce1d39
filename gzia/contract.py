"""The error contract: error codes, exit codes, the one classifier and the JSON envelope.

Domain code raises a :class:`GzError` subclass; only ``gzia.cli`` turns it into an exit code
and a rendering, through :func:`classify`. Messages are catalogue keys, rendered in the
user's language when shown; error codes never change with the locale.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from typing import Any, ClassVar

from gzia.i18n import N_, gettext


class ExitCode(IntEnum):
    OK = 0
    FAILURE = 1
    USAGE = 2
    INTERRUPTED = 130
    TERMINATED = 143


class ErrorCode(StrEnum):
    UNKNOWN_FLAG = "UNKNOWN_FLAG"
    UNKNOWN_COMMAND = "UNKNOWN_COMMAND"
    MISSING_REQUIRED = "MISSING_REQUIRED"
    INVALID_INPUT = "INVALID_INPUT"
    NOT_FOUND = "NOT_FOUND"
    DRIVER_NOT_FOUND = "DRIVER_NOT_FOUND"
    CONFLICT = "CONFLICT"
    IDEMPOTENCY_CONFLICT = "IDEMPOTENCY_CONFLICT"
    SAFETY_BLOCK = "SAFETY_BLOCK"
    LOCKED = "LOCKED"
    TIMEOUT = "TIMEOUT"
    NETWORK = "NETWORK"
    INTEGRITY = "INTEGRITY"
    IO = "IO"
    AGENT_FAILED = "AGENT_FAILED"
    INTERNAL = "INTERNAL"
    INTERRUPTED = "INTERRUPTED"
    TERMINATED = "TERMINATED"
    AUTH = "AUTH"


EXIT_CODES: dict[ErrorCode, ExitCode] = {
    ErrorCode.UNKNOWN_FLAG: ExitCode.USAGE,
    ErrorCode.UNKNOWN_COMMAND: ExitCode.USAGE,
    ErrorCode.MISSING_REQUIRED: ExitCode.USAGE,
    ErrorCode.INVALID_INPUT: ExitCode.USAGE,
    ErrorCode.NOT_FOUND: ExitCode.FAILURE,
    ErrorCode.DRIVER_NOT_FOUND: ExitCode.FAILURE,
    ErrorCode.CONFLICT: ExitCode.FAILURE,
    ErrorCode.IDEMPOTENCY_CONFLICT: ExitCode.FAILURE,
    ErrorCode.SAFETY_BLOCK: ExitCode.FAILURE,
    ErrorCode.LOCKED: ExitCode.FAILURE,
    ErrorCode.TIMEOUT: ExitCode.FAILURE,
    ErrorCode.NETWORK: ExitCode.FAILURE,
    ErrorCode.INTEGRITY: ExitCode.FAILURE,
    ErrorCode.IO: ExitCode.FAILURE,
    ErrorCode.AGENT_FAILED: ExitCode.FAILURE,
    ErrorCode.INTERNAL: ExitCode.FAILURE,
    ErrorCode.INTERRUPTED: ExitCode.INTERRUPTED,
    ErrorCode.TERMINATED: ExitCode.TERMINATED,
    ErrorCode.AUTH: ExitCode.FAILURE,
}

RETRYABLE: frozenset[ErrorCode] = frozenset(
    {ErrorCode.LOCKED, ErrorCode.TIMEOUT, ErrorCode.NETWORK}
)
"""With :data:`EXIT_CODES`, the table ``classify`` reads and ``gz-ia errors`` prints (each
code's summary is ``errors.error_<CODE>`` in the catalogue)."""


class WarningCode(StrEnum):
    """The codes a warning may carry (``errors.warning_<CODE>`` summarises each one)."""

    PLUGIN_FAILED = "PLUGIN_FAILED"
    IO = "IO"
    NETWORK = "NETWORK"
    UNCOMMITTED_CHANGES = "UNCOMMITTED_CHANGES"
    GUARDRAILS_OFF = "GUARDRAILS_OFF"
    INVALID_INPUT = "INVALID_INPUT"
    SAFETY_BLOCK = "SAFETY_BLOCK"
    IDEMPOTENCY_METADATA_DIFFERS = "IDEMPOTENCY_METADATA_DIFFERS"
    TAG_FILTER_SCAN_CAPPED = "TAG_FILTER_SCAN_CAPPED"
    KILL_ASYNC = "KILL_ASYNC"
    NO_OUTPUT_YET = "NO_OUTPUT_YET"
    PROFILE_INVALID = "PROFILE_INVALID"
    PROFILE_SHADOWED = "PROFILE_SHADOWED"
    SKILL_INVALID = "SKILL_INVALID"
    DRIVER_NOT_ANSWERING = "DRIVER_NOT_ANSWERING"
    NO_GIT_IDENTITY = "NO_GIT_IDENTITY"
    MANIFEST_REFUSED = "MANIFEST_REFUSED"
    BELOW_MINIMUM_VERSION = "BELOW_MINIMUM_VERSION"
    YANKED_VERSION = "YANKED_VERSION"
    MANIFEST_MISSING = "MANIFEST_MISSING"


class Permission(StrEnum):
    """A session's permission level (``-m``, the record's ``permission_level``): a contract
    value, the same in every language; each driver maps it onto its agent's flags."""

    READONLY = "readonly"
    SUPERVISED = "supervised"
    AUTONOMOUS = "autonomous"


class GzError(Exception):
    """Root of every error gz-ia reports on purpose.

    ``key`` names a message in the catalogue (``gzia.i18n``); ``params`` fill it in.
    ``hint_key`` optionally names a follow-up line. ``details`` is machine-readable
    context for JSON consumers; ``data`` is a payload that still belongs in the
    envelope (for example the record of a session whose agent failed).
    """

    code: ClassVar[ErrorCode] = ErrorCode.INTERNAL
    relayed: tuple[str, str | None] | None = None
    """Message and hint as another gz-ia process rendered them (:func:`error_from`)."""
    exit_status: int | None = None
    """An exit status asked for instead of the code's (``--exit-code``: the agent's own)."""

    def __init__(
        self,
        key: str,
        /,
        *,
        hint_key: str | None = None,
        details: dict[str, Any] | None = None,
        data: Any = None,
        **params: Any,
    ) -> None:
        super().__init__(key)
        self.key = key
        self.hint_key = hint_key
        self.params = params
        self.details = details if details is not None else {}
        self.data = data

    @property
    def message(self) -> str:
        if self.relayed is not None:
            return self.relayed[0]

        return gettext(self.key, **self.params)

    @property
    def hint(self) -> str | None:
        if self.relayed is not None:
            return self.relayed[1]
        if self.hint_key is None:
            return None

        return gettext(self.hint_key, **self.params)

    def __str__(self) -> str:
        return self.message


class UnknownFlagError(GzError):
    code = ErrorCode.UNKNOWN_FLAG


class UnknownCommandError(GzError):
    code = ErrorCode.UNKNOWN_COMMAND


class MissingRequiredError(GzError):
    code = ErrorCode.MISSING_REQUIRED


class InvalidInputError(GzError):
    code = ErrorCode.INVALID_INPUT


class NotFoundError(GzError):
    code = ErrorCode.NOT_FOUND


class DriverNotFoundError(GzError):
    code = ErrorCode.DRIVER_NOT_FOUND


class ConflictError(GzError):
    code = ErrorCode.CONFLICT


class IdempotencyConflictError(GzError):
    code = ErrorCode.IDEMPOTENCY_CONFLICT


class SafetyBlockError(GzError):
    code = ErrorCode.SAFETY_BLOCK


class LockedError(GzError):
    code = ErrorCode.LOCKED


class TimeoutFailure(GzError):
    code = ErrorCode.TIMEOUT


class NetworkError(GzError):
    code = ErrorCode.NETWORK


class IntegrityError(GzError):
    code = ErrorCode.INTEGRITY


class IOFailure(GzError):
    code = ErrorCode.IO


class AgentFailedError(GzError):
    code = ErrorCode.AGENT_FAILED


class InternalError(GzError):
    code = ErrorCode.INTERNAL


class InterruptError(GzError):
    code = ErrorCode.INTERRUPTED


class TerminatedError(GzError):
    code = ErrorCode.TERMINATED


class AuthError(GzError):
    """A server refused the credentials (HTTP 401), or they do not allow the action (403)."""

    code = ErrorCode.AUTH


class TerminationRequested(KeyboardInterrupt):
    """SIGTERM reached gz-ia: raised by its handler wherever the program happens to be.

    Like ``KeyboardInterrupt`` (and unlike :class:`TerminatedError`) it is no
    ``Exception``, so no ``except Exception`` (a plugin import, a doctor check) can
    swallow it; whoever treats Ctrl+C as a cancel treats SIGTERM the same way.
    """


def stop_request(signum: int) -> KeyboardInterrupt:
    """A stop signal gz-ia held (to finish writing) as what it would have raised:
    ``KeyboardInterrupt`` for SIGINT, :class:`TerminationRequested` for any other."""
    import signal

    return KeyboardInterrupt() if signum == signal.SIGINT else TerminationRequested()


def stopped_by_signal(exc: KeyboardInterrupt, data: Any) -> GzError:
    """Ctrl+C (exit 130) or SIGTERM (143) as an error that still carries ``data``."""
    if isinstance(exc, TerminationRequested):
        return TerminatedError(N_("terminated"), data=data)
    return InterruptError(N_("interrupted"), data=data)


def classify(exc: BaseException) -> tuple[int, ErrorCode]:
    """The one mapping from any exception to (exit code, error code)."""
    if isinstance(exc, GzError):
        status = exc.exit_status
        return (EXIT_CODES[exc.code] if status is None else status), exc.code
    if isinstance(exc, TerminationRequested):
        return ExitCode.TERMINATED, ErrorCode.TERMINATED
    if isinstance(exc, KeyboardInterrupt):
        return ExitCode.INTERRUPTED, ErrorCode.INTERRUPTED
    if isinstance(exc, OSError):
        return ExitCode.FAILURE, ErrorCode.IO
    return ExitCode.FAILURE, ErrorCode.INTERNAL


def error_message(exc: BaseException) -> str:
    """The one-line message for any exception, in the user's language."""
    if isinstance(exc, GzError):
        return exc.message

    if isinstance(exc, TerminationRequested):
        return gettext("terminated")
    if isinstance(exc, KeyboardInterrupt):
        return gettext("interrupted")
    if isinstance(exc, OSError):
        return gettext("I/O error: {detail}", detail=_describe_os_error(exc))
    return gettext("internal error: {detail}", detail=f"{type(exc).__name__}: {exc}")


def _describe_os_error(exc: OSError) -> str:
    parts = [exc.strerror or str(exc)]
    if exc.filename is not None:
        parts.append(str(exc.filename))
    return ": ".join(parts)


@dataclass(frozen=True)
class Problem:
    """One entry of ``errors`` or ``warnings`` in the JSON envelope."""

    code: str
    message: str
    retryable: bool = False
    hint: str | None = None
    details: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: object) -> Problem:
        """The problem :meth:`to_json` wrote (another process's); ``ValueError`` else."""
        if not isinstance(data, dict):
            raise ValueError("a problem must be an object")
        code, message, hint = data.get("code"), data.get("message"), data.get("hint")
        retryable, details = data.get("retryable", False), data.get("details", {})
        if not (isinstance(code, str) and isinstance(message, str)
                and isinstance(hint, str | None) and isinstance(retryable, bool)
                and isinstance(details, dict)):
            raise ValueError("a problem needs a code and a message, each a string")
        return cls(code, message, retryable, hint, details)

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message,
            "retryable": self.retryable,
            "hint": self.hint,
            "details": self.details,
        }


def problem_from(exc: BaseException) -> Problem:
    _, code = classify(exc)
    if isinstance(exc, GzError):
        return Problem(code, exc.message, code in RETRYABLE, exc.hint, exc.details)
    return Problem(code, error_message(exc), code in RETRYABLE)


def envelope(
    ok: bool, data: Any, errors: list[Problem], warnings: list[Problem]
) -> dict[str, Any]:
    return {
        "ok": ok,
        "data": data,
        "errors": [e.to_json() for e in errors],
        "warnings": [w.to_json() for w in warnings],
    }


ERROR_CLASSES: dict[ErrorCode, type[GzError]] = {
    cls.code: cls for cls in (
        UnknownFlagError, UnknownCommandError, MissingRequiredError, InvalidInputError,
        NotFoundError, DriverNotFoundError, ConflictError, IdempotencyConflictError,
        SafetyBlockError, LockedError, TimeoutFailure, NetworkError, IntegrityError,
        IOFailure, AgentFailedError, InternalError, InterruptError, TerminatedError,
        AuthError)
}
"""The one mapping from an error code back to its class: every error that crosses a
process boundary (holder, control socket, MCP tool, kernel) travels as a :class:`Problem`
and comes back through :func:`error_from`."""


def error_class(code: str) -> type[GzError]:
    """The class an error code names; an unknown code is an internal error."""
    try:
        return ERROR_CLASSES[ErrorCode(code)]
    except ValueError:
        return InternalError


def error_from(problem: Problem) -> GzError:
    """The error another gz-ia process reported, as the class its code names, with its
    message, hint and details as they were."""
    error = error_class(problem.code)("contract.relayed", details=dict(problem.details))
    error.relayed = (problem.message, problem.hint)
    return error
