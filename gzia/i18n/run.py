"""Messages about running agents: chat, exec, resume, session kill/resume.

The Spanish lines of the original gz-ia are kept verbatim (``chat``'s launch line, the
task question, ``session kill`` and ``session resume``, the event log's action texts).
"""

from gzia.i18n import NC_

EN = {
    # gz-ia's own events in a session's event log (written in the writer's language)
    "event_started": "{mode} session started",
    "event_resumed": "{mode} session resumed",
    "event_finished_ok": NC_("run.event_finished_ok", "session finished"),
    "event_finished_failed": NC_("run.event_finished_failed", "session finished"),
    "event_killed": "session killed (kill PID {pid})",
    "empty_command": "no command to run",
    "missing_command": "missing command: gz-ia exec -- CMD [ARGS...]",
    "bad_argument": "invalid command argument: {argument}",
    "program_not_found": "executable '{program}' not found in PATH",
    "program_gone": "executable '{program}' no longer exists",
    "program_not_executable": "'{program}' cannot be executed (permission denied)",
    "program_cannot_start": "'{program}' cannot be started: {detail}",
    "cwd_not_found": "working directory '{path}' does not exist",
    "task_question": "[?] Describe the task for the agent: ",
    "chat_launch": "❯❯ Starting chat with {name} (Permission: {permission} | Workspace: {workspace})...",
    "exec_launch": "❯❯ Running {command} in session {id} (Workspace: {workspace})...",
    "resume_launch": "↻ Resuming session [{id}] in [{dir}]...",
    "workspace_isolated": "Isolated worktree (.harness/worktrees/{id})",
    "workspace_isolated_from": "Isolated worktree ({path}) from {base}",
    "workspace_direct": "Direct directory (no Git)",
    "finished_ok": "✓ Session '{id}' finished successfully.",
    "next_steps": "  Review: gz-ia session diff {id}   Merge: gz-ia session merge {id}",
    "agent_failed": "the agent of session '{id}' exited with code {code}",
    "agent_interrupted": "session '{id}' was interrupted (SIGINT)",
    "agent_terminated": "session '{id}' was terminated ({signal})",
    "show_hint": "details: gz-ia session show {id}",
    "already_running": "session '{id}' is already running (PID {pid})",
    "not_running": "session '{id}' is not running (current status: {status})",
    "still_starting": "session '{id}' is still starting; try again in a moment",
    "still_finishing": "the agent of session '{id}' has ended and the gz-ia running it is "
                       "still writing how; try again in a moment",
    "kill_done": "✓ Session '{id}' (PID {pid}) stopped.",
    "kill_lost": "✧ Session '{id}' was no longer running (PID {pid} had vanished): marked lost.",
    "kill_process_only": "only PID {pid} was signalled, not a process group: {why}; "
                         "processes it started may still be running",
    "kill_why_pgid_mismatch": "the record names process group {recorded_pgid}, but the "
                              "process is in group {pgid}",
    "kill_why_not_group_leader": "it shares process group {pgid} with other processes "
                                 "and does not lead it",
    "kill_why_unsafe_group": "it is in process group {pgid}, which gz-ia never signals",
    "kill_why_caller_group": "it is in the process group of gz-ia or of its caller ({pgid})",
    "kill_not_permitted": "cannot stop session '{id}': no permission to signal PID {pid}",
    "kill_refused_pid": "session '{id}' names PID {pid}, which gz-ia will not signal; "
                        "the record was left as it is",
    "background_started": "● Session '{id}' is running in the background (PID {pid}).",
    "background_next": "  Output: gz-ia session output {id} -f   Attach: gz-ia session attach {id}"
                       "   Stop: gz-ia session kill {id}",
    "background_no_answer": "the holder of session '{id}' did not report within {seconds} s",
    "background_failed": "session '{id}' could not start in the background: {detail}",
    "runtime_dir_unusable": "cannot use the runtime directory {path}: {detail}",
    "runtime_dir_unsafe": "the runtime directory {path} is not private to this user "
                          "(it must be your own directory with mode 0700)",
    "holder_gone": "the holder of session '{id}' is gone; its agent (PID {pid}) may still "
                   "run",
    "holder_gone_hint": "stop it with: gz-ia session kill {id}",
    "holder_unreachable": "cannot reach the holder of session '{id}': {detail}",
    "holder_refused": "the holder of session '{id}' refused: {detail}",
    "not_background": "session '{id}' was not started with -b: there is no holder to talk to",
    "no_output": "session '{id}' has no output log (only -b and terminal runs keep one)",
    "input_sent": "✓ {count} bytes sent to session '{id}'.",
    "input_sent_one": "✓ 1 byte sent to session '{id}'.",
    "bad_key": "unknown key: {key}",
    "poll_line": "{id}  {status}  exit {exit_code}  {bytes} bytes  idle {idle}  holder {holder}",
    "timeout": "session '{id}' was stopped: it ran longer than its --timeout",
    "no_output_timeout": "session '{id}' was stopped: no output for longer than its "
                         "--no-output-timeout",
    "attach_finished": "session '{id}' has finished ({status}): there is nothing to attach to",
    "attach_finished_hint": "its output: gz-ia session output {id}",
    "attach_start": "[attached to session {id}: {key} detaches]",
    "attach_detached": "[detached from session {id}: it keeps running]",
    "attach_ended": "[session {id} ended: {status}]",
    "bad_detach_key": "the detach key must be one key that sends one byte, not '{key}'",
    "kill_refused_ancestor": "session '{id}' names PID {pid}, a process gz-ia runs under "
                             "(its caller or one of its parents), which gz-ia never "
                             "signals; the record was left as it is",
    "kill_unproven": "session '{id}' has no start time to prove that PID {pid} is still its "
                     "agent, and that process ({command}) runs none of the agent's programs "
                     "({expected}): nothing was signalled",
    "kill_force_hint": "if PID {pid} is the agent: gz-ia session kill --force {id}",
    "idempotency_reused": (
        "session {id} already holds this idempotency key ({status}): nothing was started"
    ),
    "idempotency_metadata_differs": (
        "session {id} holds this idempotency key with other {fields}; it is returned as it is"
    ),
    "kill_async": (
        "session '{id}' was signalled; its owner has not yet recorded how it ended (the "
        "record still reads running): check with gz-ia session wait {id}"
    ),
    "no_output_yet": "session '{id}' has written no output yet",
}
