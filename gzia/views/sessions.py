"""Human renderings of sessions (the original gz-ia's formats): each returns its lines,
which the ``session`` commands print and the terminal UI shows."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from gzia.i18n import t
from gzia.sessions.events import Event
from gzia.sessions.record import SessionRecord, Status, elapsed_ms, parse_rfc3339

if TYPE_CHECKING:
    from gzia.sessions.merge import MergeResult
    from gzia.sessions.prune import FinishedReport, PruneReport

ROW = "{:<10}  {:<12}  {:<8}  {:<12}  {:<10}  {:<20}  {:<10}"
LABEL_WIDTH = 12


def render_list(records: list[SessionRecord]) -> list[str]:
    if not records:
        return [t("sessions.list_empty")]
    header = ROW.format(*(t(f"sessions.col_{c}") for c in
                          ("id", "status", "pid", "permission", "mode", "started", "duration")))
    worktree, direct = t("sessions.mode_worktree"), t("sessions.mode_direct")
    rows = [
        ROW.format(r.id, r.status, str(r.pid) if r.pid else "-", r.permission_level,
                   worktree if r.is_isolated else direct, local_time(r.started_at),
                   duration_of(r)).rstrip()
        for r in records
    ]
    return [header.rstrip(), "-" * len(header.rstrip()), *rows]


def exit_code_text(code: int | None) -> str:
    """An exit code for people: ``-`` while there is none (running, lost)."""
    return "-" if code is None else str(code)


def render_show(r: SessionRecord) -> list[str]:
    rows: list[tuple[str, object]] = [("status", r.status), ("pid", r.pid or "-")]
    if r.provider:
        rows.append(("provider", r.provider))
    rows += [("permission", r.permission_level), ("dir", r.working_dir)]
    if r.is_isolated:
        rows.append(("mode", t("sessions.show_mode_isolated", path=r.worktree_dir or "")))
        rows.append(("branch", r.branch_name or ""))
        if r.base_branch or r.base_commit:
            rows.append(("base", " ".join(x for x in (r.base_branch, _short(r.base_commit)) if x)))
    else:
        rows.append(("mode", t("sessions.show_mode_direct")))
    optional = [("prompt", r.initial_prompt), ("started", r.started_at),
                ("finished", r.finished_at), ("end_reason", r.end_reason),
                ("merged", r.merged_at)]
    rows += [(k, v) for k, v in optional if v]
    rows.append(("exit_code", exit_code_text(r.exit_code)))
    if r.labels:
        rows.append(("labels", ", ".join(f"{k}={v}" for k, v in r.labels.items())))
    return [t("sessions.show_title", id=r.id),
            *(f"{t('sessions.label_' + key):<{LABEL_WIDTH}}{value}" for key, value in rows)]


def event_line(e: Event) -> str:
    """``[HH:MM:SS] [role/agent] [STAGE] action (status: OK)`` as the original printed."""
    try:
        clock = parse_rfc3339(e.timestamp).strftime("%H:%M:%S")
    except ValueError:
        clock = "--:--:--"
    who = "/".join(x for x in (e.role, e.agent_id) if x) or "orchestrator"
    line = f"[{clock}] [{who}] [{e.stage}] {e.action} (status: {e.status or 'null'})"
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
    lines = [t("run.finished_ok", id=record.id)]
    if record.is_isolated:
        lines.append(t("run.next_steps", id=record.id))
    return lines


def render_merge(result: MergeResult, done_key: str) -> list[str]:
    if result.already_up_to_date:
        return [t("sessions.merge_up_to_date")]
    lines = [t(done_key, id=result.session_id), t("sessions.merge_files")]
    lines += (f"  • {name}" for name in result.files)
    if result.no_commit:
        key = "merge_note_squash_no_commit" if result.squash else "merge_note_no_commit"
        lines.append(t(f"sessions.{key}"))
    return lines


def render_prune(report: PruneReport, finished: FinishedReport | None = None) -> list[str]:
    if not report.removed_anything and not report.missing_worktrees \
            and not report.kept_worktrees and not report.kept_branches \
            and not (finished and (finished.removed or finished.kept)):
        return [t("sessions.prune_nothing")]
    out = [t("sessions.prune_title")]
    if report.dry_run:  # first: every line below is what prune would do
        out.append(t("sessions.prune_dry_run"))
    would = "_dry" if report.dry_run else ""  # "would remove" instead of "removed"
    if finished is not None:
        out += _render_finished(finished, would)
    discarded = {work.session_id: work.files for work in report.discarded_files}
    for name in report.removed_worktrees:
        out.append(t(f"sessions.prune_worktree{would}", name=name))
        out += _prune_files(f"prune_discarded{would}", discarded.get(name, []))
    for kept in report.kept_worktrees:
        out.append(t(f"sessions.prune_kept_{kept.reason}", name=kept.session_id))
        out += _prune_files("prune_kept_files", kept.files)
    for branch in report.kept_branches:
        out.append(t(f"sessions.prune_kept_branch_{branch.reason}", name=branch.branch,
                     path=branch.path))
    for tip in report.branch_tips:
        out.append(t(f"sessions.prune_branch{would}", name=tip.branch, commit=tip.short))
        if not tip.on_other_branch:
            out.append(t("sessions.prune_branch_unique", commit=tip.short))
    groups = [(f"prune_dir{would}", report.removed_dirs),
              (f"prune_events{would}", report.removed_events),
              (f"prune_lock{would}", report.removed_locks),
              ("prune_missing", report.missing_worktrees)]
    for key, names in groups:
        for name in names:
            out.append(t(f"sessions.{key}", name=name))
            if key.startswith("prune_dir"):
                out += _prune_files(f"prune_discarded{would}", discarded.get(name, []))
    return out


def _render_finished(report: FinishedReport, would: str) -> list[str]:
    out: list[str] = []
    for removed in report.removed:
        out.append(t(f"sessions.prune_session{would}", name=removed.session_id,
                      status=removed.status))
        if removed.branch and removed.commit:
            out.append(t(f"sessions.prune_session_branch{would}", branch=removed.branch,
                          commit=removed.commit[:12]))
        out += _prune_files(f"prune_discarded{would}", removed.discarded.files)
        if removed.discarded.commits:
            out.append(t(f"sessions.prune_discarded_commits{would}",
                          count=removed.discarded.commits))
    for kept in report.kept:
        out.append(t(f"sessions.prune_session_kept_{kept.reason}", name=kept.session_id,
                      what=kept.work.describe()))
    return out


def _prune_files(key: str, files: list[str]) -> list[str]:
    counted = [t(f"sessions.{key}", count=len(files))] if files else []
    return counted + [f"      • {name}" for name in files]
