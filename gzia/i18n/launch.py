"""Messages about starting a session: driver and option checks, the base's state, and the
git guardrails a session's agent runs under.

The guardrail lines of the original gz-ia are kept verbatim in Spanish (``push_refused``,
``push_operator``, ``ref_refused``).
"""

EN = {
    "provider_runs_no_command": "the {provider} driver cannot run a command: "
                                "exec runs commands with a driver that runs them (shell)",
    "provider_runs_no_command_hint": "start {provider} with 'gz-ia chat -p {provider}', or "
                                     "leave out --provider to run the command with the shell",
    "prompt_ignored": "{name} takes no prompt: -i/--prompt is ignored",
    "uncommitted_base": "{count} uncommitted changes in {base} are not in the session: it "
                        "starts from the last commit ({commit}); commit them first to include "
                        "them",
    "uncommitted_base_one": "{count} uncommitted change in {base} is not in the session: it "
                            "starts from the last commit ({commit}); commit it first to "
                            "include it",
    "hooks_symlink": "{path} is a symbolic link: gz-ia writes no session hooks through it",
    "guardrails_off": "git {version} is older than {minimum}: the session runs without its "
                      "guardrails (pushes and ref updates outside its branch are not refused)",
    "push_refused": "[gz-ia GUARD] 'git push' is strictly forbidden from a gz-ia session "
                    "worktree.",
    "push_operator": "[gz-ia GUARD] Integration and publishing to the remote must be done by "
                     "the human operator in the main repository.",
    "ref_refused": "[gz-ia GUARD] Forbidden change: the reference '{ref}' cannot be modified "
                   "from this worktree.",
    "ref_operator": "[gz-ia GUARD] Commit the session's work on {branch}; the operator merges "
                    "it with 'gz-ia session merge {id}'.",
}
