"""Human renderings of sessions (the original gz-ia's formats): each returns its lines,
which the ``session`` commands print and the terminal UI shows."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING

from gzia.i18n import N_, NC_, NN_, gettext
from gzia.sessions.agent_state import state_of
from gzia.sessions.events import Event
from gzia.sessions.naming import label_of
from gzia.sessions.record import SessionRecord, Status, elapsed_ms, parse_rfc3339
from gzia.views.review import pull_request_text
from gzia.views.words import agent_state_text, end_reason_text, permission_text, status_text

_MSG_COL: dict[object, str] = {
    "duration": N_("DURATION"),
    "id": N_("ID"),
    "mode": N_("MODE"),
    "name": N_("NAME"),
    "permission": N_("PERMISSION"),
    "pid": N_("PID"),
    "started": N_("STARTED"),
    "state": N_("STATE"),
    "status": N_("STATUS"),
}


_MSG_LABEL: dict[object, str] = {
    "base": N_("Base:"),
    "branch": N_("Branch:"),
    "dir": N_("Directory:"),
    "end_reason": N_("End reason:"),
    "exit_code": N_("Exit Code:"),
    "finished": N_("Finished:"),
    "labels": N_("Labels:"),
    "merged": N_("Merged:"),
    "mode": N_("Mode:"),
    "name": N_("Name:"),
    "sandbox": N_("Sandbox:"),
    "permission": N_("Permission:"),
    "pid": N_("PID:"),
    "prompt": N_("Prompt:"),
    "pull_request": N_("Pull request:"),
    "provider": N_("Provider:"),
    "started": N_("Started:"),
    "state": N_("State:"),
    "status": N_("Status:"),
}


_MSG_PRUNE_BRANCH: dict[object, str] = {
    "": N_("  ✓ Orphaned branch deleted: {name} (was {commit}); recover it with: git branch {name} "
           "{commit}"),
    "_dry": N_("  - Would delete orphaned branch: {name} (at {commit}); it could be recovered "
               "with: git branch {name} {commit}"),
}


_MSG_PRUNE_DISCARDED_COMMITS: dict[object, str] = {
    "": N_("    ! Unmerged commits discarded: {count}"),
    "_dry": N_("    ! Unmerged commits it would discard: {count}"),
}


_MSG_PRUNE_KEPT: dict[object, str] = {
    "locked": N_("  ! Orphaned worktree kept, it is locked: {name}; unlock it with: git worktree "
                 "unlock .harness/worktrees/{name}"),
    "symlink": N_("  ! Orphaned worktree kept, it is a symbolic link gz-ia did not create: {name}; "
                  "remove the link yourself (its target stays as it is)"),
    "uncommitted": N_("  ! Orphaned worktree kept, it has uncommitted work: {name}; remove it "
                      "anyway with: gz-ia session prune --force"),
    "unmerged_head": N_("  ! Orphaned worktree kept, its HEAD holds commits no branch has: {name}; "
                        "remove it anyway with: gz-ia session prune --force"),
    "unreadable": N_("  ! Orphaned worktree kept, git cannot read its status: {name}; remove it "
                     "anyway with: gz-ia session prune --force"),
    "young": N_("  ! Orphaned worktree kept, created less than a minute ago (its session may be "
                "starting): {name}; run gz-ia session prune again later"),
}


_MSG_PRUNE_KEPT_BRANCH: dict[object, str] = {
    "checked_out": N_("  ! Orphaned branch kept, it is checked out in {path}: {name}; switch that "
                      "worktree to another branch first"),
}


_MSG_PRUNE_SESSION: dict[object, str] = {
    "": N_("  ✓ Finished session removed: {name} ({status})"),
    "_dry": N_("  - Would remove finished session: {name} ({status})"),
}


_MSG_PRUNE_SESSION_BRANCH: dict[object, str] = {
    "": N_("    {branch} was {commit}; recover it with: git branch {branch} {commit}"),
    "_dry": N_("    {branch} is at {commit}; it could be recovered with: git branch {branch} "
               "{commit}"),
}


_MSG_PRUNE_SESSION_KEPT: dict[object, str] = {
    "running": N_("  ! Session kept, it is still running: {name}"),
    "unmerged": N_("  ! Session kept, it has unmerged work ({what}): {name}; merge it with gz-ia "
                   "session merge {name}, or remove it anyway with: gz-ia session prune --finished "
                   "--force"),
}


_MSG_PRUNE_WORKTREE: dict[object, str] = {
    "": N_("  ✓ Orphaned worktree pruned: {name}"),
    "_dry": N_("  - Would remove orphaned worktree: {name}"),
}


_MSG_SESSIONS: dict[object, str] = {
    "prune_dir": N_("  ✓ Orphaned worktree directory removed: {name}"),
    "prune_dir_dry": N_("  - Would remove orphaned worktree directory: {name}"),
    "prune_discarded": NN_("    ! Uncommitted work discarded ({count} file):",
                           "    ! Uncommitted work discarded ({count} files):"),
    "prune_discarded_dry": NN_("    ! Uncommitted work it would discard ({count} file):",
                               "    ! Uncommitted work it would discard ({count} files):"),
    "prune_events": N_("  ✓ Orphaned event log removed: {name}"),
    "prune_events_dry": N_("  - Would remove orphaned event log: {name}"),
    "prune_kept_files": N_("    Uncommitted files ({count}):"),
    "prune_lock": N_("  ✓ Orphaned lock file removed: {name}"),
    "prune_lock_dry": N_("  - Would remove orphaned lock file: {name}"),
    "prune_missing": N_("  ! Session {name} lost its worktree (record kept)"),
}

if TYPE_CHECKING:
    from gzia.sessions.delete import DeleteResult
    from gzia.sessions.prune import FinishedReport, PruneReport

MERGED = NC_("status", "merged")
"""What people read as the status of a session whose work was merged
(:attr:`~gzia.sessions.record.SessionRecord.is_merged`); its record says ``completed``."""

NAME_WIDTH = 20
ROW = "{:<10}  {:<20}  {:<9}  {:<12}  {:<8}  {:<12}  {:<10}  {:<20}  {:<10}"  # NAME_WIDTH 2nd
LABEL_WIDTH = 12


def render_list(records: list[SessionRecord],
                depths: Mapping[str, int] | None = None) -> list[str]:
    """``depths``: how far each id is indented (``session list --tree``)."""
    indent = depths or {}
    if not records:
        return [gettext("✧ No sessions recorded in this project.")]
    header = ROW.format(*(gettext(_MSG_COL[c]) for c in
                          ("id", "name", "state", "status", "pid", "permission", "mode",
                           "started", "duration")))
    rows = [
        ROW.format("  " * indent.get(r.id, 0) + r.id, cut(_pr_mark(r) + label_of(r), NAME_WIDTH),
                   state_text(r), status_word(r),
                   str(r.pid) if r.pid else "-", permission_text(r.permission_level),
                   mode_word(r), local_time(r.started_at), duration_of(r)).rstrip()
        for r in records
    ]
    return [header.rstrip(), "-" * len(header.rstrip()), *rows]


def _pr_mark(r: SessionRecord) -> str:
    """``#12 `` before the name of a session with a pull request."""
    return f"#{r.pull_request['number']} " if r.pull_request else ""
def mode_word(r: SessionRecord) -> str:
    """The MODE column: a sandboxed session says so (its workspace is in ``show``)."""
    if r.sandbox is not None:
        return gettext("Sandboxed")
    return gettext("Worktree") if r.is_isolated else gettext("Direct")


def sandbox_text(sandbox: dict[str, object]) -> str:
    """A sandboxed session's line in ``show``: its network, and the hosts it may reach."""
    hosts = sandbox.get("hosts")
    listed = f" ({', '.join(str(h) for h in hosts)})" if isinstance(hosts, list) and hosts else ""
    return gettext("network {network}", network=str(sandbox.get("network"))) + listed


def cut(text: str, width: int) -> str:
    """``text`` in at most ``width`` characters (an ellipsis marks a cut); ``-`` if empty."""
    if not text:
        return "-"
    return text if len(text) <= width else text[:width - 1] + "…"


def state_text(record: SessionRecord) -> str:
    """The agent's state for people: ``-`` for a record from before states."""
    state = state_of(record)
    return agent_state_text(state.value if state is not None else None)


def status_word(r: SessionRecord) -> str:
    """The status people read: ``merged`` for a merged session, else the record's."""
    return gettext(MERGED) if r.is_merged else status_text(r.status)


def exit_code_text(code: int | None) -> str:
    """An exit code for people: ``-`` while there is none (running, lost)."""
    return "-" if code is None else str(code)


def render_show(r: SessionRecord) -> list[str]:
    rows: list[tuple[str, object]] = [("name", r.name)] if r.name else []
    rows += [("status", status_word(r))]
    state = state_of(r) if r.state is not None else None  # records from before states: none
    if state is not None:
        reason = f" ({r.state_reason})" if r.state_reason and r.is_running else ""
        rows.append(("state", f"{agent_state_text(state.value)}{reason}"))
    rows.append(("pid", r.pid or "-"))
    if r.provider:
        rows.append(("provider", r.provider))
    rows += [("permission", permission_text(r.permission_level)), ("dir", r.working_dir)]
    if r.is_isolated:
        rows.append(("mode", gettext("Isolated worktree ({path})", path=r.worktree_dir or "-")))
        rows.append(("branch", r.branch_name))
        if r.base_branch or r.base_commit:
            rows.append(("base", " ".join(x for x in (r.base_branch, _short(r.base_commit)) if x)))
    else:
        rows.append(("mode", gettext("Direct (no Git)")))
    optional = [("prompt", r.initial_prompt), ("started", r.started_at),
                ("finished", r.finished_at),
                ("end_reason", r.end_reason and end_reason_text(r.end_reason)),
                ("merged", r.merged_at)]
    rows += [(k, v) for k, v in optional if v]
    rows.append(("exit_code", exit_code_text(r.exit_code)))
    if r.sandbox is not None:
        rows.append(("sandbox", sandbox_text(r.sandbox)))
    if r.labels:
        rows.append(("labels", ", ".join(f"{k}={v}" for k, v in r.labels.items())))
    if r.pull_request:
        rows.append(("pull_request", pull_request_text(r.pull_request)))
    return [gettext("❯ Session details: {id}", id=r.id),
            *(f"{gettext(_MSG_LABEL[key]):<{LABEL_WIDTH - 1}} {value}"  # a field lacking: -
              for key, value in ((k, "-" if v in (None, "") else v) for k, v in rows))]


def renamed_line(record: SessionRecord) -> str:
    """What ``session rename`` (and the TUI's ``R``) says it did."""
    if record.name is None:
        return gettext("✓ Session '{id}' no longer has a name.", id=record.id)
    return gettext("✓ Session '{id}' is now named '{name}'.", id=record.id, name=record.name)


def deleted_line(result: DeleteResult) -> str:
    """What ``session delete`` removed: the record (with its events and log), and the
    worktree and branch when there were some."""
    from gzia.sessions.workspace import branch_for  # lazy: off the path of session list

    removed = [gettext("its record, events and log")]
    if result.removed_worktree:
        removed.append(gettext("its worktree"))
    if result.removed_branch:
        removed.append(gettext("its branch {branch}", branch=branch_for(result.session_id)))
    return gettext("✓ Session '{id}' deleted: {removed}.", id=result.session_id,
                   removed=", ".join(removed))


def event_line(e: Event) -> str:
    """``[HH:MM:SS] [role/agent] [STAGE] action (status: OK)`` as the original printed;
    an event without a status has no ``(status: ...)`` (the original printed ``null``)."""
    try:
        clock = parse_rfc3339(e.timestamp).strftime("%H:%M:%S")
    except ValueError:
        clock = "--:--:--"
    who = "/".join(x for x in (e.role, e.agent_id) if x) or "orchestrator"
    line = f"[{clock}] [{who}] [{e.stage}] {e.action}"
    if e.status:
        line += f" (status: {e.status})"
    if e.duration_ms is not None:
        line += f" [{e.duration_ms}ms]"
    if e.error:
        line += f" error: {e.error}"
    return line


def local_time(stamp: str) -> str:
    try:
        if len(stamp) >= 20 and stamp[-1] == "Z":  # what gz-ia writes: skip the full parser
            moment = datetime.fromisoformat(stamp[:19] + "+00:00")
        else:
            moment = parse_rfc3339(stamp)
        return moment.astimezone().strftime("%Y-%m-%d %H:%M:%S")
    except ValueError:
        return stamp or "-"


def duration_of(r: SessionRecord) -> str:
    """The table's duration: ``-`` when unknown (a ``lost`` session's, even one an older
    gz-ia wrote with a duration up to when it noticed)."""
    if r.status == Status.LOST:
        return "-"
    ms = r.duration_ms
    if ms is None and r.is_running:
        ms = elapsed_ms(r.started_at)
    return format_duration(ms) if ms is not None else "-"


def format_duration(ms: int) -> str:
    """Go-like durations: ``450ms``, ``12.3s``, ``4m05s``, ``2h03m``."""
    if ms < 1000:
        return f"{ms}ms"
    seconds = ms / 1000
    if seconds < 60:
        return f"{seconds:.1f}s"
    minutes, secs = divmod(int(seconds), 60)
    if minutes < 60:
        return f"{minutes}m{secs:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"


def _short(commit: str | None) -> str | None:
    return f"({commit[:12]})" if commit else None


def finished_lines(record: SessionRecord) -> list[str]:
    """What a run that completed says at its end (on stderr, for people)."""
    lines = [gettext("✓ Session '{id}' finished successfully.", id=record.id)]
    if record.is_isolated:
        lines.append(gettext("  Review: gz-ia session diff {id}   Merge: gz-ia session merge {id}",
                             id=record.id))
    return lines


def render_prune(report: PruneReport, finished: FinishedReport | None = None) -> list[str]:
    if not report.removed_anything and not report.missing_worktrees \
            and not report.kept_worktrees and not report.kept_branches \
            and not (finished and (finished.removed or finished.kept)):
        return [gettext("✓ No orphaned Git branches or worktrees found. Everything is in sync.")]
    out = [gettext("✧ Orphan cleanup:")]
    if report.dry_run:  # first: every line below is what prune would do
        out.append(gettext("(dry run: what prune would do; nothing is removed)"))
    would = "_dry" if report.dry_run else ""  # "would remove" instead of "removed"
    if finished is not None:
        out += _render_finished(finished, would)
    discarded = {work.session_id: work.files for work in report.discarded_files}
    for name in report.removed_worktrees:
        out.append(gettext(_MSG_PRUNE_WORKTREE[would], name=name))
        out += _prune_files(f"prune_discarded{would}", discarded.get(name, []))
    for kept in report.kept_worktrees:
        out.append(gettext(_MSG_PRUNE_KEPT[kept.reason], name=kept.session_id))
        out += _prune_files("prune_kept_files", kept.files)
    for branch in report.kept_branches:
        out.append(gettext(_MSG_PRUNE_KEPT_BRANCH[branch.reason], name=branch.branch,
                           path=branch.path))
    for tip in report.branch_tips:
        out.append(gettext(_MSG_PRUNE_BRANCH[would], name=tip.branch, commit=tip.short))
        if not tip.on_other_branch:
            out.append(gettext("    ! {commit} is on no other branch: keep this SHA to get its "
                               "commits back",
                               commit=tip.short))
    groups = [(f"prune_dir{would}", report.removed_dirs),
              (f"prune_events{would}", report.removed_events),
              (f"prune_lock{would}", report.removed_locks),
              ("prune_missing", report.missing_worktrees)]
    for key, names in groups:
        for name in names:
            out.append(gettext(_MSG_SESSIONS[key], name=name))
            if key.startswith("prune_dir"):
                out += _prune_files(f"prune_discarded{would}", discarded.get(name, []))
    return out


def _render_finished(report: FinishedReport, would: str) -> list[str]:
    out: list[str] = []
    for removed in report.removed:
        out.append(gettext(_MSG_PRUNE_SESSION[would], name=removed.session_id,
                      status=status_text(removed.status)))
        if removed.branch and removed.commit:
            out.append(gettext(_MSG_PRUNE_SESSION_BRANCH[would], branch=removed.branch,
                          commit=removed.commit[:12]))
        out += _prune_files(f"prune_discarded{would}", removed.discarded.files)
        if removed.discarded.commits:
            out.append(gettext(_MSG_PRUNE_DISCARDED_COMMITS[would],
                          count=removed.discarded.commits))
    for kept in report.kept:
        out.append(gettext(_MSG_PRUNE_SESSION_KEPT[kept.reason], name=kept.session_id,
                      what=kept.work.describe()))
    return out


def _prune_files(key: str, files: list[str]) -> list[str]:
    counted = [gettext(_MSG_SESSIONS[key], count=len(files))] if files else []
    return counted + [f"      • {name}" for name in files]
