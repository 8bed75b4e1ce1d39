"""The command line. :func:`main` is the only place that turns outcomes into exit codes.

Every command goes through one parser (:mod:`gzia.cli.runner`, click). Only
``gz-ia --version`` (or ``-V``) alone is answered before it: the one line scripts ask
for most; and the forms gz-ia starts itself with (:func:`run_internal`), which no
person types.
"""

from __future__ import annotations

import os
import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    guard_standard_streams()
    if args in (["--version"], ["-V"]):
        return print_version()
    if args[:1] and args[0] in INTERNAL_FORMS:
        return run_internal(args, sheds_credentials=argv is None)
    try:
        from gzia.cli.runner import run

        # this process is gz-ia's own: a caller passing argv keeps its environment
        return flush_output(run(args, sheds_credentials=argv is None))
    except BrokenPipeError:
        return reader_went_away()
    except OSError as exc:  # writing the output itself failed (disk full, I/O error)
        return output_failed(exc)
    except KeyboardInterrupt as exc:  # SIGINT/SIGTERM while the outcome was being written
        from gzia.contract import classify

        return int(classify(exc)[0])


INTERNAL_FORMS = frozenset({"__holder__", "__hook__", "__orchy__", "__relay__",
                            "__update-check__"})


def version_line() -> str:
    from gzia._version import COMMIT, DATE, __version__

    return f"gz-ia v{__version__} (commit: {COMMIT}, date: {DATE})"


def print_version() -> int:
    try:
        sys.stdout.write(version_line() + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        return reader_went_away()
    except OSError as exc:
        return output_failed(exc)
    return 0


def run_internal(args: list[str], *, sheds_credentials: bool) -> int:
    """The forms gz-ia starts itself with: ``__holder__`` (gzia.selfexec.HOLDER_ARG: a
    background run), ``__hook__`` (gzia.selfexec.HOOK_ARG: an agent's hook reporting
    its state, gzia.sessions.agent_hooks, which imports little), ``__update-check__``
    (gzia.selfexec.UPDATE_CHECK_ARG: the background update check, gzia.update.background)
    and ``__orchy__`` (gzia.selfexec.ORCHY_ARG: a run's warm MCP server,
    gzia.orchy.listen). The MCP relay (``__relay__``: gzia.selfexec.RELAY_ARG, what an
    agent starts as gz-ia's MCP server) imports only the standard library."""
    if args[0] == "__relay__":
        from gzia.supervisor.mcp_relay import relay_main

        return relay_main(args[1:])
    if args[0] == "__update-check__":
        wait_for_parent_exit()
        from gzia.update.background import check_main

        return check_main()
    if args[0] == "__hook__":
        from gzia.sessions.agent_hooks import hook_main

        return hook_main(args[1:])
    if sheds_credentials:
        from gzia.cli.credential_shedding import shed_credentials

        shed_credentials(args[0])
    if args[0] == "__orchy__":
        from gzia.orchy.listen import listen_main

        return listen_main(args[1:])
    from gzia.sessions.run import holder_main

    return holder_main()


def wait_for_parent_exit(deadline_s: float = 10.0) -> None:
    """The background update check starts working once the command that started it has
    ended (or after ``deadline_s``): until then it sleeps, so that command never shares
    its processor time with the check's imports and requests."""
    import time

    parent, deadline = os.getppid(), time.monotonic() + deadline_s
    while os.getppid() == parent and time.monotonic() < deadline:
        time.sleep(0.02)


def guard_standard_streams() -> None:
    """Put /dev/null on a closed stdin, stdout or stderr (``gz-ia ... >&-``).

    Otherwise the next file gz-ia opens gets that descriptor, and an agent started later
    would inherit it as its own stdout. Output to a closed stdout is dropped, as for a
    reader that went away.
    """
    for fd, name, mode in ((0, "stdin", "r"), (1, "stdout", "w"), (2, "stderr", "w")):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)  # inheritable, like the descriptor it stands in for
                os.close(null)
            else:
                os.set_inheritable(fd, True)
        if getattr(sys, name) is None:
            setattr(sys, name, open(fd, mode, closefd=False))  # noqa: SIM115
    escape_unencodable_output()


def escape_unencodable_output() -> None:
    """Write what the terminal's encoding cannot hold as backslash escapes, never fail.

    A lone surrogate (from undecodable bytes in argv or a file name, or an escaped one
    read from a record) would otherwise end a command with a traceback instead of its
    output. Inside a JSON string, the escape it becomes (``\\udcff``) is that same
    character, so JSON output stays valid.
    """
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def flush_output(exit_code: int) -> int:
    """Write what stdout still buffers now, so that its failure is reported here, not
    by the interpreter on its way out. A command that failed already keeps its own
    outcome (often that very failure of stdout)."""
    try:
        sys.stdout.flush()
    except OSError:
        if exit_code == 0:
            raise
        discard("stdout")
    return exit_code


def reader_went_away() -> int:
    """The reader closed our stdout or stderr (``gz-ia ... | head -1``): stop quietly, exit 0."""
    settle_streams()
    return 0


def settle_streams() -> None:
    """Write what stdout and stderr still buffer; a stream whose reader went away is
    discarded, so that the interpreter's last flush on its way out does not fail again."""
    for name in ("stdout", "stderr"):
        try:
            getattr(sys, name).flush()
        except (OSError, ValueError):
            discard(name)


def output_failed(exc: OSError) -> int:
    """stdout could not be written: one ``Error:`` line on stderr, exit 1, no traceback."""
    from gzia.contract import error_message

    discard("stdout")
    try:
        from gzia.i18n import gettext  # not on --version's path: it imports typing

        sys.stderr.write(f"{gettext('Error')}: {error_message(exc)}\n")
        sys.stderr.flush()
    except OSError:  # stderr cannot be written either: the exit code says it all
        discard("stderr")
    return 1


def discard(name: str) -> None:
    """Once the failure of ``sys.<name>`` is dealt with, what it still buffers goes to /dev/null.

    A failed flush keeps its bytes in the buffer, and the interpreter flushes the standard
    streams once more on its way out: without this, that second failure would print
    ``Exception ignored`` and turn the exit code into 120.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, getattr(sys, name).fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
