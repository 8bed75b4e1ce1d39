"""``gz-ia errors``: the reference is the classifier's own table, in both languages."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gzia.contract import EXIT_CODES, RETRYABLE, ErrorCode, WarningCode, classify
from gzia.i18n import N_, gettext
from tests.conftest import Result

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
    "DRIVER_NOT_ANSWERING": N_("`drivers`: an agent did not answer `--version` in time (a program "
                               "past its deadline is killed with its process group); its version "
                               "is unknown (`details.id`, `seconds`)"),
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
    "NO_GIT_IDENTITY": N_("`session merge`, `update`, `push`, `pr`: git has no "
                          "user.name/user.email in the repository, so the commits gz-ia made "
                          "for the session are by gz-ia <gz-ia@localhost> (`details.id`, `name`, "
                          "`email`)"),
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
}

Cli = Callable[..., Result]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_errors_json_equals_the_classifier_table(cli: Cli, lang: str) -> None:
    from gzia.i18n import set_language

    set_language(lang)
    try:
        summaries = {f"error_{c.value}": gettext(_MSG_ERROR[c.value]) for c in ErrorCode} | {
            f"warning_{c.value}": gettext(_MSG_WARNING[c.value]) for c in WarningCode}
    finally:
        set_language(None)
    result = cli("errors", "--json", env={"GZ_LANG": lang})
    assert result.exit_code == 0
    assert result.json == {"ok": True, "errors": [], "warnings": [], "data": {
        "errors": [{"code": code.value, "exit_code": int(EXIT_CODES[code]),
                    "retryable": code in RETRYABLE,
                    "summary": summaries[f"error_{code.value}"]} for code in ErrorCode],
        "warnings": [{"code": code.value, "summary": summaries[f"warning_{code.value}"]}
                     for code in WarningCode],
    }}


def test_every_error_class_exits_as_the_reference_says() -> None:
    from gzia import contract

    classes = [c for c in vars(contract).values()
               if isinstance(c, type) and issubclass(c, contract.GzError)]
    codes = {c.code for c in classes}
    assert codes == set(ErrorCode)
    for error_class in classes:
        assert classify(error_class(N_("interrupted"))) == (EXIT_CODES[error_class.code],
                                                               error_class.code)


def test_new_codes_of_scriptable_sessions() -> None:
    assert (EXIT_CODES[ErrorCode.IDEMPOTENCY_CONFLICT], ErrorCode.IDEMPOTENCY_CONFLICT
            in RETRYABLE) == (1, False)
    assert (EXIT_CODES[ErrorCode.TIMEOUT], ErrorCode.TIMEOUT in RETRYABLE) == (1, True)
    assert {"IDEMPOTENCY_METADATA_DIFFERS", "TAG_FILTER_SCAN_CAPPED", "KILL_ASYNC",
            "NO_OUTPUT_YET"} <= {code.value for code in WarningCode}


def test_errors_human_table_in_spanish(cli: Cli) -> None:
    result = cli("errors", env={"GZ_LANG": "es"})
    lines = result.stdout.splitlines()
    assert result.exit_code == 0 and result.stderr == ""
    assert lines[0].split() == ["CÓDIGO", "SALIDA", "REINTENTABLE", "RESUMEN"]
    assert lines[lines.index("") + 1] == "Códigos de aviso (nunca cambian el código de salida):"
    assert f"{'TIMEOUT':<22}{'1':<8}{'sí':<14}una operación superó su plazo" in result.stdout
    assert len(lines) == 1 + len(ErrorCode) + 2 + len(WarningCode)


def test_errors_markdown_is_the_english_page(cli: Cli) -> None:
    from gzia.cli.errors import reference_markdown

    result = cli("errors", "--markdown", env={"GZ_LANG": "es"})
    assert result == Result(0, reference_markdown(), "")
