"""The command line. :func:`main` is the only place that turns outcomes into exit codes.

``gz-ia --version``, ``gz-ia version`` and the plain forms of ``gz-ia session list`` are
answered without the command-line framework (:mod:`gzia.cli.quick`): they must start fast.
"""

from __future__ import annotations

import os
import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    guard_standard_streams()
    if argv is None:  # this process is gz-ia (a caller passing argv keeps its environment)
        from gzia.cli.credential_shedding import shed_credentials

        shed_credentials(args)
    if args[:1] == ["__holder__"]:  # gzia.selfexec.HOLDER_ARG: a background run
        from gzia.sessions.run import holder_main

        return holder_main()
    try:
        from gzia.cli.quick import answer

        code = answer(args)
        if code is not None:
            return code
        from gzia.cli.runner import run

        return run(args)
    except BrokenPipeError:
        return reader_went_away()
    except OSError as exc:  # writing the output itself failed (disk full, I/O error)
        return output_failed(exc)
    except KeyboardInterrupt as exc:  # SIGINT/SIGTERM while the outcome was being written
        from gzia.contract import classify

        return int(classify(exc)[0])


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


def reader_went_away() -> int:
    """The reader closed our stdout (``gz-ia ... | head -1``): stop quietly, exit 0."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return 0


def output_failed(exc: OSError) -> int:
    """stdout could not be written: one ``Error:`` line on stderr, exit 1, no traceback."""
    from gzia.contract import error_message
    from gzia.i18n import t

    try:
        sys.stderr.write(f"{t('core.error_prefix')}: {error_message(exc)}\n")
        sys.stderr.flush()
    except OSError:
        pass
    return 1
