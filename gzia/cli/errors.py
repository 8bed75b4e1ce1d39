"""``gz-ia errors``: the error-code reference, read from the classifier's own table.

Every error code with its exit code and whether a retry may help, every warning code,
each with its summary in the user's language. docs/reference/error-codes.md is this
reference in English (:func:`reference_markdown`; ``gz-ia errors --markdown`` prints it),
and a test keeps the file equal to it, so the documentation cannot drift from behaviour.
"""

from __future__ import annotations

from typing import Any

import click

from gzia.cli import output
from gzia.cli.command import command
from gzia.contract import EXIT_CODES, RETRYABLE, ErrorCode, WarningCode
from gzia.i18n import N_, gettext

_MSG_ERROR: dict[object, str] = {
    "AGENT_FAILED": N_("the agent exited non-zero (`data` is the session record)"),
    "CONFLICT": N_("a merge would conflict (nothing was changed), or the session is not in the "
                   "state the action needs: `session kill` of one that is not running "
                   "(`details.status`; `data` is its record), `resume` of one that is, a new "
                   "session whose id is taken"),
    "DRIVER_NOT_FOUND": N_("the agent's executable is not on PATH (`details.install_hint`)"),
    "IDEMPOTENCY_CONFLICT": N_("an idempotency key still in use was given with a different "
                               "execution payload (provider, command, prompt, directory or "
                               "permission); nothing was "
                               "started (`details.session_id`, `differs`)"),
    "INTEGRITY": N_("a download failed its signature, checksum or size check"),
    "INTERNAL": N_("a bug, a plugin that failed to load, or a command that exited by itself "
                   "without saying why (`details.exit_code`; `--debug` shows the traceback)"),
    "INTERRUPTED": N_("SIGINT (Ctrl+C)"),
    "INVALID_INPUT": N_("a value of the wrong type, range or form (including session ids, labels "
                        "and settings), or a setting the command needs is missing (`update` with "
                        "no release source)"),
    "IO": N_("reading or writing a file failed"),
    "LOCKED": N_("another gz-ia holds the lock (for example a concurrent update)"),
    "MISSING_REQUIRED": N_("a required argument, flag or subcommand is missing"),
    "NETWORK": N_("a registry or proxy could not be reached or answered badly"),
    "NOT_FOUND": N_("the session, file, program or release asked for does not exist (`update "
                    "--version X` that no source publishes)"),
    "SAFETY_BLOCK": N_("an action was refused to keep work safe: a destructive one (a `--force` "
                       "form exists), or a merge into a dirty or detached base, or one a project "
                       "hook refused (nothing was changed)"),
    "TERMINATED": N_("SIGTERM"),
    "TIMEOUT": N_("an operation outlived its deadline (`session wait --timeout`: the sessions "
                  "still run)"),
    "UNKNOWN_COMMAND": N_("a command gz-ia does not have (`hint` suggests close names)"),
    "UNKNOWN_FLAG": N_("a flag the command does not accept"),
    "AUTH": N_("a server refused the credentials gz-ia sent, or they do not allow the action "
               "(`session pr`: HTTP 401 or 403 from the forge; `details.status`, `host`)"),
}


_MSG_WARNING: dict[object, str] = {
    "DRIVER_NOT_ANSWERING": N_("`drivers`: an agent did not answer `--version` in time (a program "
                               "past its deadline is killed with its process group); its version "
                               "is unknown (`details.id`, `seconds`)"),
    "NO_GIT_IDENTITY": N_("`session merge`, `update`, `push`, `pr`: git has no "
                          "user.name/user.email in the repository, so the commits gz-ia made "
                          "for the session are by gz-ia <gz-ia@localhost> (`details.id`, `name`, "
                          "`email`)"),
    "GUARDRAILS_OFF": N_("the installed git is older than 2.31 and cannot carry a session's git "
                         "guardrails through the environment: the agent runs without them "
                         "(`details.git_version`, `minimum`; docs/sessions.md, \"Guardrails\")"),
    "IDEMPOTENCY_METADATA_DIFFERS": N_("an idempotency key matched a session with the same "
                                       "execution payload but other labels: that session is "
                                       "returned as it is (`details.session_id`, `differs`)"),
    "INVALID_INPUT": N_("an option that does not apply was ignored: `chat -i` with the shell "
                        "driver, which takes no prompt (`details.provider`, `option`)"),
    "IO": N_("a session record or event line could not be read and was skipped (`session list`, "
             "`session logs`); or an agent's transcript is missing, incomplete or unreadable, and "
             "`session metrics` / `metrics` report the figures they could read (`details.reason`, "
             "see docs/metrics.md)"),
    "KILL_ASYNC": N_("`session kill` signalled the session, but its owner has not yet written how "
                     "it ended: the record is still `running` and changes shortly (`details.id`)"),
    "NETWORK": N_("`update` could not use the first release source and tried the next one"),
    "NO_OUTPUT_YET": N_("`session output` or `session poll` of a session that has written no "
                        "output yet: the answer is the empty output (`details.id`)"),
    "PLUGIN_FAILED": N_("a plugin could not be loaded; the command still ran"),
    "PROFILE_INVALID": N_("a profile directory's `profile.json`/`perfil.json` could not be read; "
                          "the profile is left out of the list, and naming it is an "
                          "`INVALID_INPUT` error (`details.path`, `detail`; docs/profiles.md)"),
    "PROFILE_SHADOWED": N_("a profile of the same name earlier in the search order hides this one "
                           "(`details.name`, `winner`, `shadowed`)"),
    "SAFETY_BLOCK": N_("`session kill` (or `session delete --force` of a running session) "
                       "signalled only the agent's process, not its group: the record names a "
                       "group the agent does not lead, or one gz-ia must not signal "
                       "(`details.reason`; see docs/supervisor.md)"),
    "SKILL_INVALID": N_("a `SKILL.md` has no readable YAML front matter with a `description`; the "
                        "skill is left out of the catalogue (`details.path`, `detail`)"),
    "TAG_FILTER_SCAN_CAPPED": N_("`session list` with a filter and `--limit` stopped at the limit: "
                                 "later matches may exist (`details.limit`)"),
    "UNCOMMITTED_CHANGES": N_("`chat` or `exec` started an isolated session while the base work "
                              "tree had uncommitted changes (modified, staged or untracked files): "
                              "the session starts from the base's last commit and has none of them "
                              "(`details.base`, `base_commit`, `count`, `files`, the first 20)"),
    "MANIFEST_REFUSED": N_("`update`: a channel manifest was found but refused (bad signature, "
                           "expired, malformed, too large, older than one seen, another "
                           "channel's); the next source is tried, else gz-ia follows the one "
                           "verified before while it has not expired (`MANIFEST_MISSING`), else "
                           "chooses as without a manifest (`details.source`, `reason`)"),
    "BELOW_MINIMUM_VERSION": N_("any command: the running gz-ia is below the minimum version of "
                                "its channel's manifest as `update` last read it (`details."
                                "current`, `minimum_version`, `channel`)"),
    "YANKED_VERSION": N_("the running gz-ia was yanked from its channel (`details.version`, "
                         "`reason`)"),
    "MANIFEST_MISSING": N_("`update`: no source gave a usable manifest of the channel, so gz-ia "
                           "follows the one it verified before until that one expires, never "
                           "the newest release (`details.channel`, `serial`, `expires`)"),
}


@command("errors", help="List every error and warning code: exit code, retryable, summary.")
@click.option("--markdown", is_flag=True,
              help="Print the reference as docs/reference/error-codes.md holds it.")
def app(markdown: bool) -> None:
    if markdown:
        text = reference_markdown()
        output.emit({"markdown": text}, lambda: output.line(text.rstrip("\n")))
        return
    reference = error_reference()
    output.emit(reference, lambda: render(reference))


def error_reference() -> dict[str, list[dict[str, Any]]]:
    """``{"errors": [...], "warnings": [...]}`` in the contract's order."""
    return {
        "errors": [
            {"code": code.value, "exit_code": int(EXIT_CODES[code]),
             "retryable": code in RETRYABLE, "summary": gettext(_MSG_ERROR[code.value])}
            for code in ErrorCode
        ],
        "warnings": [
            {"code": code.value, "summary": gettext(_MSG_WARNING[code.value])}
            for code in WarningCode
        ],
    }


def render(reference: dict[str, list[dict[str, Any]]]) -> None:
    rows = reference["errors"]
    code_width = max(len(gettext("CODE")), *(len(r["code"]) for r in rows)) + 2
    exit_width = len(gettext("EXIT")) + 2
    retry_width = len(gettext("RETRYABLE")) + 2
    output.line(f"{gettext('CODE'):<{code_width}}{gettext('EXIT'):<{exit_width}}"
                f"{gettext('RETRYABLE'):<{retry_width}}{gettext('SUMMARY')}")
    for row in rows:
        retry = gettext(N_("yes") if row["retryable"] else N_("no"))
        output.line(f"{row['code']:<{code_width}}{row['exit_code']:<{exit_width}}"
                    f"{retry:<{retry_width}}{row['summary']}")
    output.line()
    output.line(gettext("Warning codes (they never change the exit code):"))
    for row in reference["warnings"]:
        output.line(f"  {row['code']}: {row['summary']}")


MARKDOWN_HEAD = """\
# Error codes

<!-- Generated by `gz-ia errors --markdown` from gzia/contract.py and gzia/locale/;
a test keeps this file equal to it. `gz-ia errors` prints it in the user's language. -->

With `--json`, stdout carries exactly one document on every outcome:

```json
{"ok": false, "data": null,
 "errors": [{"code": "NOT_FOUND", "message": "session 'ab12cd34' not found",
             "retryable": false, "hint": "gz-ia session list", "details": {"id": "ab12cd34"}}],
 "warnings": []}
```

Codes are stable, English and independent of the locale; `message` and `hint` follow the
user's language. `gz-ia errors --json` gives this reference as
`{"errors": [{"code", "exit_code", "retryable", "summary"}], "warnings": [{"code", "summary"}]}`.

| code | exit | retryable | meaning |
|---|---|---|---|
"""

MARKDOWN_WARNINGS = """
Warnings have the same shape, in `warnings`, and never change the exit code. Warning codes:

"""


def reference_markdown() -> str:
    """docs/reference/error-codes.md: the reference in English."""
    from gzia.i18n import language, set_language

    previous = language()
    set_language("en")
    try:
        reference = error_reference()
    finally:
        set_language(previous)
    rows = "".join(
        f"| {r['code']} | {r['exit_code']} | {'yes' if r['retryable'] else 'no'} "
        f"| {r['summary']} |\n" for r in reference["errors"])
    warnings = "".join(f"- `{r['code']}`: {r['summary']}.\n" for r in reference["warnings"])
    return MARKDOWN_HEAD + rows + MARKDOWN_WARNINGS + warnings
