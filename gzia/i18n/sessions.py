"""Messages about sessions, workspaces and events (Spanish follows the original gz-ia)."""

EN = {
    # store and ids
    "not_found": "session '{id}' not found",
    "list_hint": "gz-ia session list",
    "invalid_id": "invalid session id '{id}': expected 8 hexadecimal characters",
    "invalid_ref": (
        "invalid session id '{id}': expected 8 hexadecimal characters, or a unique prefix "
        "of 4 or more"
    ),
    "ambiguous_id": "session id prefix '{id}' is ambiguous: {matches}",
    "id_taken": "session '{id}' already exists",
    "locked": "session '{id}' is locked by another gz-ia process",
    "worktrees_locked": "another gz-ia process has been creating a worktree in {root} for a minute: try again",
    "record_unreadable": "session record {path} is unreadable: {detail}",
    "record_unreadable_hint": (
        "fix that file, or remove it and run gz-ia session prune to remove the session's "
        "worktree and branch"
    ),
    "unreadable_warning": "skipped unreadable session record {path}: {detail}",
    "dir_not_found": "directory '{dir}' does not exist",
    "not_a_dir": "'{dir}' is not a directory",
    "git_failed": "'{command}' failed: {detail}",
    "bare_repository": (
        "'{dir}' is inside the bare git repository {git_dir}, which has no work tree for "
        "sessions to run in"
    ),
    "bare_repository_hint": (
        "run gz-ia in a clone or a worktree of it (git -C {git_dir} worktree add <path>)"
    ),
    "git_dir_without_work_tree": (
        "'{dir}' is inside git's own directory {git_dir}, and gz-ia cannot tell which work "
        "tree it belongs to; sessions never run inside a git directory"
    ),
    "git_dir_without_work_tree_hint": (
        "run gz-ia from the repository's work tree, or name it with -d <work tree>"
    ),
    # workspace
    "no_commits": "the repository at {root} has no commits yet; sessions branch from HEAD",
    "no_commits_hint": "make a first commit: git add -A && git commit -m 'initial commit'",
    "invalid_inject_path": "invalid injected file path '{path}'",
    # list
    "list_empty": "✧ No sessions recorded in this project.",
    "col_id": "ID",
    "col_status": "STATUS",
    "col_pid": "PID",
    "col_permission": "PERMISSION",
    "col_mode": "MODE",
    "col_started": "STARTED",
    "col_duration": "DURATION",
    "mode_worktree": "Worktree",
    "mode_direct": "Direct",
    # show
    "show_title": "❯ Session details: {id}",
    "label_status": "Status:",
    "label_pid": "PID:",
    "label_provider": "Provider:",
    "label_permission": "Permission:",
    "label_dir": "Directory:",
    "label_mode": "Mode:",
    "label_branch": "Branch:",
    "label_base": "Base:",
    "label_prompt": "Prompt:",
    "label_started": "Started:",
    "label_finished": "Finished:",
    "label_exit_code": "Exit Code:",
    "label_end_reason": "End reason:",
    "label_merged": "Merged:",
    "show_mode_isolated": "Isolated worktree ({path})",
    "show_mode_direct": "Direct (no Git)",
    # delete
    "deleted": "✓ Session '{id}' deleted from the registry.",
    "delete_running": "session '{id}' is running (PID {pid}); stop it first or use --force",
    "delete_running_no_kill": (
        "session '{id}' is running (PID {pid}) and this gz-ia cannot stop it; "
        "stop the agent first"
    ),
    "delete_unmerged": (
        "session '{id}' has work that was never merged ({what}); "
        "merge it with 'gz-ia session merge {id}' or delete with --force"
    ),
    "delete_unreadable": (
        "session '{id}' has a worktree git cannot read ({worktree}): its {count} files "
        "cannot be checked for unmerged work; look at them, or delete with --force"
    ),
    "delete_unreadable_one": (
        "session '{id}' has a worktree git cannot read ({worktree}): its {count} file "
        "cannot be checked for unmerged work; look at it, or delete with --force"
    ),
    "symlink_refused": (
        "refusing to use {path}: it is a symbolic link (to {target}); gz-ia never writes "
        "or deletes through a link it did not create"
    ),
    "symlink_refused_hint": (
        "remove the link (rm {path}; its target stays as it is), then run the command again"
    ),
    "delete_what_commits": "{count} unmerged commits",
    "delete_what_commits_one": "{count} unmerged commit",
    "delete_what_files": "{count} uncommitted files",
    "delete_what_files_one": "{count} uncommitted file",
    "force_hint": "gz-ia session delete {id} --force",
    # diff
    "diff_direct": "The session ran in direct mode and has no isolated diff.",
    "diff_empty": "✧ No changes recorded in the session.",
    "diff_unavailable": "session '{id}': neither its worktree nor its branch is available",
    # merge
    "merge_direct": (
        "session '{id}' ran in direct mode and has no isolated worktree branch to merge"
    ),
    "merge_base_dirty": (
        "the base repository ('{root}') has uncommitted changes or untracked files.\n"
        "Commit or stash them before merging the session's changes, to avoid losing data"
    ),
    "merge_in_progress": (
        "the base repository ('{root}') has a {operation} in progress; finish or abort it "
        "before merging the session"
    ),
    "merge_worktree_in_progress": (
        "the worktree of session '{id}' ({root}) has a {operation} in progress; finish or "
        "abort it there before merging the session"
    ),
    "merge_running": (
        "session '{id}' is still running (PID {pid}); wait for it to finish or stop it "
        "with 'gz-ia session kill {id}'"
    ),
    "merge_conflict": (
        "merging session '{id}' would conflict in {count} files: {files}. Nothing was "
        "changed: the base and the worktree are intact (inspect with 'gz-ia session path {id}')"
    ),
    "merge_conflict_one": (
        "merging session '{id}' would conflict in {count} file: {files}. Nothing was "
        "changed: the base and the worktree are intact (inspect with 'gz-ia session path {id}')"
    ),
    "merge_conflict_hint": (
        "resolve in the worktree (git merge {base} there), then run gz-ia session merge {id}"
    ),
    "merge_conflict_hint_uncommitted": (
        "git merge would refuse to overwrite uncommitted files in the worktree "
        "({uncommitted}): commit them there first (or remove them), then resolve in the "
        "worktree (git merge {base} there) and run gz-ia session merge {id}"
    ),
    "merge_injected": (
        "session '{id}' committed files that gz-ia injected or owns ({files}); merging "
        "would put them on your branch. Nothing was changed"
    ),
    "merge_injected_hint": (
        "remove them from the commits of {branch} in the worktree (gz-ia session path {id}), "
        "then run gz-ia session merge {id} again"
    ),
    "merge_worktree_moved": (
        "the worktree of session '{id}' is not on its branch {branch} ({checked_out} is "
        "checked out); nothing was changed"
    ),
    "merge_worktree_moved_hint": (
        "switch it back (git -C {worktree} switch {branch}), then run "
        "gz-ia session merge {id} again"
    ),
    "merge_overwrites_ignored": (
        "merging session '{id}' would overwrite files git ignores in {root} ({files}); "
        "nothing was changed"
    ),
    "merge_overwrites_ignored_hint": (
        "move them aside, or remove them from the session's commits, then run "
        "gz-ia session merge {id} again"
    ),
    "merge_detached": (
        "the base repository ('{root}') has no branch checked out (detached HEAD at {head}); "
        "no branch would keep the merged work. Nothing was changed"
    ),
    "merge_detached_hint": (
        "check out the branch to merge into (git -C {root} switch {branch}), then run "
        "gz-ia session merge {id} again"
    ),
    "merge_detached_hint_any": (
        "check out the branch to merge into (git -C {root} switch <branch>), then run "
        "gz-ia session merge {id} again"
    ),
    "merge_hook_refused_safety": (
        "a git hook ({hooks}) refused the commit of the uncommitted work in the worktree of "
        "session '{id}' ({worktree}); nothing was changed. The hook said: {output}"
    ),
    "merge_hook_refused_safety_hint": (
        "fix what the hook reports in the worktree and commit there yourself, then run "
        "gz-ia session merge {id} again"
    ),
    "merge_hook_refused_merge": (
        "a git hook ({hooks}) refused the merge commit of session '{id}' in {root}; the base "
        "and the worktree are back as they were. The hook said: {output}"
    ),
    "merge_hook_refused_merge_hint": (
        "fix what the hook asks for, or run gz-ia session merge {id} --no-commit and "
        "commit yourself"
    ),
    "merge_stopped": (
        "the merge of session '{id}' was stopped; {root} and the session's worktree are "
        "back as they were"
    ),
    "merge_stopped_not_restored": (
        "the merge of session '{id}' was stopped, and gz-ia could not put everything back "
        "as it was: {problems}"
    ),
    "merge_not_restored": (
        "merging session '{id}' failed ({cause}), and gz-ia could not put everything back "
        "as it was: {problems}"
    ),
    "merge_not_restored_hint": (
        "look with git -C {root} status; git -C {root} reset --merge {head} takes the base "
        "back to where it was before the merge"
    ),
    "merge_problem_switched": "{root} no longer has {branch} checked out",
    "merge_problem_head_moved": "{branch} moved to {head}, not by this merge (left as it is)",
    "merge_problem_reset_failed": "{root} could not be reset ({detail})",
    "merge_problem_index_locked": "{path}.lock exists: git is using the index",
    "merge_problem_error": "{detail}",
    "merge_locked": "another gz-ia session merge into {root} is in progress; try again",
    "commit_locked": "another commit of session {id} has held its worktree for {seconds} s; try again",
    "merge_no_branch": "session '{id}': branch '{branch}' does not exist",
    "merge_up_to_date": "✧ The branch is already up to date. Nothing to merge.",
    "merge_done": "✓ Merge completed successfully for session '{id}'.",
    "get_done": "✓ Worktree changes brought in and merged successfully for session '{id}'.",
    "merge_files": "Integrated files:",
    "merge_note_squash_no_commit": (
        "Note: the changes are staged but not committed (--squash --no-commit)."
    ),
    "merge_note_no_commit": "Note: the changes are staged but not committed (--no-commit).",
    # prune
    "prune_nothing": "✓ No orphaned Git branches or worktrees found. Everything is in sync.",
    "prune_title": "✧ Orphan cleanup:",
    "prune_branch": (
        "  ✓ Orphaned branch deleted: {name} (was {commit}); "
        "recover it with: git branch {name} {commit}"
    ),
    "prune_branch_unique": (
        "    ! {commit} is on no other branch: keep this SHA to get its commits back"
    ),
    "prune_worktree": "  ✓ Orphaned worktree pruned: {name}",
    "prune_discarded": "    ! Uncommitted work discarded ({count} files):",
    "prune_discarded_one": "    ! Uncommitted work discarded ({count} file):",
    "prune_kept_locked": (
        "  ! Orphaned worktree kept, it is locked: {name}; "
        "unlock it with: git worktree unlock .harness/worktrees/{name}"
    ),
    "prune_kept_uncommitted": (
        "  ! Orphaned worktree kept, it has uncommitted work: {name}; "
        "remove it anyway with: gz-ia session prune --force"
    ),
    "prune_kept_unreadable": (
        "  ! Orphaned worktree kept, git cannot read its status: {name}; "
        "remove it anyway with: gz-ia session prune --force"
    ),
    "prune_kept_unmerged_head": (
        "  ! Orphaned worktree kept, its HEAD holds commits no branch has: {name}; "
        "remove it anyway with: gz-ia session prune --force"
    ),
    "prune_kept_symlink": (
        "  ! Orphaned worktree kept, it is a symbolic link gz-ia did not create: {name}; "
        "remove the link yourself (its target stays as it is)"
    ),
    "prune_kept_young": (
        "  ! Orphaned worktree kept, created less than a minute ago (its session may be "
        "starting): {name}; run gz-ia session prune again later"
    ),
    "prune_kept_branch_checked_out": (
        "  ! Orphaned branch kept, it is checked out in {path}: {name}; "
        "switch that worktree to another branch first"
    ),
    "prune_kept_files": "    Uncommitted files ({count}):",
    "prune_dir": "  ✓ Orphaned worktree directory removed: {name}",
    "prune_events": "  ✓ Orphaned event log removed: {name}",
    "prune_lock": "  ✓ Orphaned lock file removed: {name}",
    "prune_missing": "  ! Session {name} lost its worktree (record kept)",
    "prune_dry_run": "(dry run: what prune would do; nothing is removed)",
    "prune_worktree_dry": "  - Would remove orphaned worktree: {name}",
    "prune_discarded_dry": "    ! Uncommitted work it would discard ({count} files):",
    "prune_discarded_dry_one": "    ! Uncommitted work it would discard ({count} file):",
    "prune_branch_dry": (
        "  - Would delete orphaned branch: {name} (at {commit}); "
        "it could be recovered with: git branch {name} {commit}"
    ),
    "prune_dir_dry": "  - Would remove orphaned worktree directory: {name}",
    "prune_events_dry": "  - Would remove orphaned event log: {name}",
    "prune_lock_dry": "  - Would remove orphaned lock file: {name}",
    "prune_session": "  ✓ Finished session removed: {name} ({status})",
    "prune_session_branch": "    {branch} was {commit}; recover it with: git branch {branch} {commit}",
    "prune_discarded_commits": "    ! Unmerged commits discarded: {count}",
    "prune_session_dry": "  - Would remove finished session: {name} ({status})",
    "prune_session_branch_dry": (
        "    {branch} is at {commit}; it could be recovered with: git branch {branch} {commit}"
    ),
    "prune_discarded_commits_dry": "    ! Unmerged commits it would discard: {count}",
    "prune_session_kept_unmerged": (
        "  ! Session kept, it has unmerged work ({what}): {name}; merge it with "
        "gz-ia session merge {name}, or remove it anyway with: gz-ia session prune --finished "
        "--force"
    ),
    "prune_session_kept_running": "  ! Session kept, it is still running: {name}",
    # events
    "invalid_stage": "invalid stage: '{value}' (valid: READ, PENDING, FINISH)",
    "invalid_status": "invalid status: '{value}' (valid: OK, FAILED)",
    "invalid_duration": "invalid duration: '{value}' (milliseconds, 0 or more)",
    "empty_action": "the action must not be empty",
    "logged": "✓ Event recorded for session '{id}'.",
    "no_events": "✧ No events recorded for session '{id}'.",
    "event_unreadable": "skipped unreadable event line {line} in {path}",
    "event_unreadable_more": (
        "skipped {count} more unreadable event lines in {path} (lines {first} to {last})"
    ),
    "events_not_regular": (
        "the event log {path} is not a regular file (a FIFO, a device or a directory); "
        "gz-ia neither reads nor writes it"
    ),
    "events_unreadable": "the event log {path} cannot be read: {detail}",
    "events_unwritable": "cannot append to the event log {path}: {detail}",
    # labels, list filters, wait, idempotency
    "label_labels": "Labels:",
    "label_bad_key": (
        "invalid label '{label}': expected key=value, the key 1-63 letters, digits or . _ - /"
    ),
    "label_bad_value": (
        "invalid label '{label}': the value must be at most {limit} characters, without "
        "control characters"
    ),
    "label_repeated": "label key '{key}' given twice ('{label}')",
    "label_too_many": "too many labels: at most {limit}",
    "filter_bad_status": "invalid status '{value}': expected one of {allowed}",
    "filter_bad_limit": "invalid --limit {value}: expected 1 or more",
    "filter_bad_since": (
        "invalid --since '{value}': expected an RFC 3339 time or a duration such as 30m, 2h, 7d"
    ),
    "list_capped": "--limit {limit} reached: more sessions match than are shown",
    "wait_line": "{id}  {status}  exit code: {exit_code}  end reason: {end_reason}",
    "wait_deleted": "{id}  deleted while waiting",
    "wait_timeout": (
        "timed out after {seconds} s waiting for sessions; {count} still running (left as they are)"
    ),
    "wait_bad_timeout": "invalid --timeout {value}: expected 0 or more seconds",
    "idempotency_bad_key": (
        "invalid idempotency key '{key}': expected 1-200 letters, digits or . _ : @ / + = -"
    ),
    "idempotency_conflict": (
        "idempotency key '{key}' belongs to session {id}, started with another {fields}; "
        "nothing was started"
    ),
    "idempotency_locked": "another gz-ia is starting a session with idempotency key '{key}'",
}
