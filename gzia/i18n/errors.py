"""The error-code reference: one summary per error and warning code (``gz-ia errors``).

``error_<CODE>`` summarises an error code of ``gzia.contract.ErrorCode``, ``warning_<CODE>``
a warning code of ``gzia.contract.WarningCode``; docs/reference/error-codes.md is generated
from the English ones.
"""

EN = {
    "error_UNKNOWN_FLAG": "a flag the command does not accept",
    "error_UNKNOWN_COMMAND": "a command gz-ia does not have (`hint` suggests close names)",
    "error_MISSING_REQUIRED": "a required argument, flag or subcommand is missing",
    "error_INVALID_INPUT": (
        "a value of the wrong type, range or form (including session ids, labels and "
        "settings), or a setting the command needs is missing (`update` with no release "
        "source)"
    ),
    "error_NOT_FOUND": (
        "the session, file, program or release asked for does not exist (`update --version X` "
        "that no source publishes)"
    ),
    "error_DRIVER_NOT_FOUND": (
        "the agent's executable is not on PATH (`details.install_hint`)"
    ),
    "error_CONFLICT": (
        "a merge would conflict (nothing was changed), or the session is not in the state "
        "the action needs: `session kill` of one that is not running (`details.status`; "
        "`data` is its record), `resume` of one that is, a new session whose id is taken"
    ),
    "error_IDEMPOTENCY_CONFLICT": (
        "an idempotency key still in use was given with a different execution payload "
        "(provider, command, prompt, directory or permission); nothing was started "
        "(`details.session_id`, `differs`)"
    ),
    "error_SAFETY_BLOCK": (
        "an action was refused to keep work safe: a destructive one (a `--force` form "
        "exists), or a merge into a dirty or detached base, or one a project hook refused "
        "(nothing was changed)"
    ),
    "error_LOCKED": "another gz-ia holds the lock (for example a concurrent update)",
    "error_TIMEOUT": (
        "an operation outlived its deadline (`session wait --timeout`: the sessions still run)"
    ),
    "error_NETWORK": "a registry or proxy could not be reached or answered badly",
    "error_INTEGRITY": "a download failed its signature, checksum or size check",
    "error_IO": "reading or writing a file failed",
    "error_AGENT_FAILED": "the agent exited non-zero (`data` is the session record)",
    "error_INTERNAL": (
        "a bug, a plugin that failed to load, or a command that exited by itself without "
        "saying why (`details.exit_code`; `--debug` shows the traceback)"
    ),
    "error_INTERRUPTED": "SIGINT (Ctrl+C)",
    "error_TERMINATED": "SIGTERM",
    "warning_PLUGIN_FAILED": "a plugin could not be loaded; the command still ran",
    "warning_IO": (
        "a session record or event line could not be read and was skipped "
        "(`session list`, `session logs`); or an agent's transcript is missing, incomplete "
        "or unreadable, and `session metrics` / `metrics` report the figures they could read "
        "(`details.reason`, see docs/metrics.md)"
    ),
    "warning_NETWORK": "`update` could not use the first release source and tried the next one",
    "warning_UNCOMMITTED_CHANGES": (
        "`chat` or `exec` started an isolated session while the base work tree had "
        "uncommitted changes (modified, staged or untracked files): the session starts from "
        "the base's last commit and has none of them (`details.base`, `base_commit`, `count`, `files`, the first 20)"
    ),
    "warning_GUARDRAILS_OFF": (
        "the installed git is older than 2.31 and cannot carry a session's git guardrails "
        "through the environment: the agent runs without them (`details.git_version`, "
        "`minimum`; docs/sessions.md, \"Guardrails\")"
    ),
    "warning_INVALID_INPUT": (
        "an option that does not apply was ignored: `chat -i` with the shell driver, which "
        "takes no prompt (`details.provider`, `option`)"
    ),
    "warning_SAFETY_BLOCK": (
        "`session kill` (or `session delete --force` of a running session) signalled only "
        "the agent's process, not its group: the record names a group the agent does not "
        "lead, or one gz-ia must not signal (`details.reason`; see docs/supervisor.md)"
    ),
    "warning_IDEMPOTENCY_METADATA_DIFFERS": (
        "an idempotency key matched a session with the same execution payload but other "
        "labels: that session is returned as it is (`details.session_id`, `differs`)"
    ),
    "warning_TAG_FILTER_SCAN_CAPPED": (
        "`session list` with a filter and `--limit` stopped at the limit: later matches "
        "may exist (`details.limit`)"
    ),
    "warning_DRIVER_NOT_ANSWERING": (
        "`drivers`: an agent did not answer `--version` in time (a program past its "
        "deadline is killed with its process group); its version is unknown (`details.id`, "
        "`seconds`)"
    ),
    "warning_KILL_ASYNC": (
        "`session kill` signalled the session, but its owner has not yet written how it "
        "ended: the record is still `running` and changes shortly (`details.id`)"
    ),
    "warning_NO_OUTPUT_YET": (
        "`session output` or `session poll` of a session that has written no output yet: "
        "the answer is the empty output (`details.id`)"
    ),
    "warning_PROFILE_INVALID": (
        "a profile directory's `profile.json`/`perfil.json` could not be read; the profile "
        "is left out of the list, and naming it is an `INVALID_INPUT` error (`details.path`, "
        "`detail`; docs/profiles.md)"
    ),
    "warning_PROFILE_SHADOWED": (
        "a profile of the same name earlier in the search order hides this one "
        "(`details.name`, `winner`, `shadowed`)"
    ),
    "warning_SKILL_INVALID": (
        "a `SKILL.md` has no readable YAML front matter with a `description`; the skill is "
        "left out of the catalogue (`details.path`, `detail`)"
    ),
    # gz-ia errors
    "column_code": "CODE",
    "column_exit": "EXIT",
    "column_retryable": "RETRYABLE",
    "column_summary": "SUMMARY",
    "warnings_title": "Warning codes (they never change the exit code):",
    "yes": "yes",
    "no": "no",
}
