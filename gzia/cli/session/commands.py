"""``gz-ia session ...``: the group; each subcommand lives in its own module and is
imported only when named (``gz-ia session list`` imports ``listing`` alone).

Every subcommand takes ``-d/--dir`` (also accepted before the subcommand:
``gz-ia session -d DIR list``) and finds the project from any directory inside it,
including a session worktree. Ids are validated before anything else happens.
"""

from __future__ import annotations

from gzia.cli.command import group
from gzia.cli.session.common import dir_option

SUBCOMMANDS = {
    "list": "listing:list_command", "show": "show:show_command", "path": "show:path_command",
    "rename": "show:rename_command", "delete": "delete:delete_command",
    "diff": "diff:diff_command", "merge": "merge:merge_command",
    "update": "update:update_command", "push": "review:push_command", "pr": "review:pr_command",
    "pause": "pause:pause_command", "revive": "pause:revive_command",
    "prune": "prune:prune_command", "log": "events:log_command", "logs": "events:logs_command",
    "wait": "wait:wait_command", "stop": "stop:stop_command", "kill": "control:kill_command",
    "resume": "control:resume_command",
    "poll": "process:poll_command", "output": "process:output_command",
    "send-keys": "process:send_keys_command", "paste": "process:paste_command",
    "submit": "process:submit_command", "attach": "process:attach_command",
    "metrics": "gzia.cli.metrics:session_metrics_command",
}
"""Each subcommand, in the order the help lists it (the group's summary too)."""
ALIASES = {"rm": "delete:rm_command", "read": "diff:read_command",
           "get": "merge:get_command", "continue": "control:continue_command"}
"""Hidden second names (their commands say which they are an alias of)."""


def _qualified(targets: dict[str, str]) -> dict[str, str]:
    return {name: target if target.startswith("gzia.") else f"gzia.cli.session.{target}"
            for name, target in targets.items()}


@group("session", no_args_is_help=True, lazy=_qualified(SUBCOMMANDS),
       hidden_lazy=_qualified(ALIASES), help="Manage local agent sessions ({commands}).")
@dir_option
def app(directory: str | None) -> None:
    """The group's own ``-d`` is kept for its subcommands (:mod:`.common`)."""
