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
    "event_too_large": "the event is {size} bytes; an event may hold at most {limit} bytes",
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
    "idempotency_bad_key": (
        "invalid idempotency key '{key}': expected 1-200 letters, digits or . _ : @ / + = -"
    ),
    "idempotency_conflict": (
        "idempotency key '{key}' belongs to session {id}, started with another {fields}; "
        "nothing was started"
    ),
    "idempotency_locked": "another gz-ia is starting a session with idempotency key '{key}'",
}

ES = {
    "not_found": "sesión '{id}' no encontrada",
    "list_hint": "gz-ia session list",
    "invalid_id": "id de sesión inválido '{id}': se esperan 8 caracteres hexadecimales",
    "invalid_ref": (
        "id de sesión inválido '{id}': se esperan 8 caracteres hexadecimales, o un prefijo "
        "único de 4 o más"
    ),
    "ambiguous_id": "el prefijo de id de sesión '{id}' es ambiguo: {matches}",
    "id_taken": "la sesión '{id}' ya existe",
    "locked": "la sesión '{id}' está bloqueada por otro proceso de gz-ia",
    "worktrees_locked": "otro proceso de gz-ia lleva un minuto creando un worktree en {root}: vuelve a intentarlo",
    "record_unreadable": "el registro de sesión {path} no se puede leer: {detail}",
    "record_unreadable_hint": (
        "corrige ese archivo, o elimínalo y ejecuta gz-ia session prune para eliminar el "
        "worktree y la rama de la sesión"
    ),
    "unreadable_warning": "se omitió el registro de sesión ilegible {path}: {detail}",
    "dir_not_found": "el directorio '{dir}' no existe",
    "not_a_dir": "'{dir}' no es un directorio",
    "git_failed": "'{command}' falló: {detail}",
    "bare_repository": (
        "'{dir}' está dentro del repositorio git bare {git_dir}, que no tiene árbol de "
        "trabajo donde ejecutar sesiones"
    ),
    "bare_repository_hint": (
        "ejecuta gz-ia en un clon o en un worktree suyo (git -C {git_dir} worktree add <ruta>)"
    ),
    "git_dir_without_work_tree": (
        "'{dir}' está dentro del propio directorio de git {git_dir} y gz-ia no puede saber "
        "a qué árbol de trabajo pertenece; las sesiones nunca se ejecutan dentro de un "
        "directorio de git"
    ),
    "git_dir_without_work_tree_hint": (
        "ejecuta gz-ia desde el árbol de trabajo del repositorio, o indícalo con "
        "-d <árbol de trabajo>"
    ),
    "no_commits": (
        "el repositorio en {root} aún no tiene commits; las sesiones parten de HEAD"
    ),
    "no_commits_hint": "haz un primer commit: git add -A && git commit -m 'commit inicial'",
    "invalid_inject_path": "ruta de archivo inyectado inválida '{path}'",
    "list_empty": "✧ No hay sesiones registradas en este proyecto.",
    "col_id": "ID",
    "col_status": "ESTADO",
    "col_pid": "PID",
    "col_permission": "PERMISO",
    "col_mode": "MODO",
    "col_started": "INICIO",
    "col_duration": "DURACIÓN",
    "mode_worktree": "Worktree",
    "mode_direct": "Directo",
    "show_title": "❯ Detalle de Sesión: {id}",
    "label_status": "Estado:",
    "label_pid": "PID:",
    "label_provider": "Proveedor:",
    "label_permission": "Permisos:",
    "label_dir": "Directorio:",
    "label_mode": "Modo:",
    "label_branch": "Rama:",
    "label_base": "Base:",
    "label_prompt": "Prompt:",
    "label_started": "Inicio:",
    "label_finished": "Fin:",
    "label_exit_code": "Exit Code:",
    "label_end_reason": "Motivo fin:",
    "label_merged": "Fusionada:",
    "show_mode_isolated": "Worktree aislado ({path})",
    "show_mode_direct": "Directo (sin Git)",
    "deleted": "✓ Sesión '{id}' eliminada del registro.",
    "delete_running": (
        "la sesión '{id}' está en ejecución (PID {pid}); detenla primero o usa --force"
    ),
    "delete_running_no_kill": (
        "la sesión '{id}' está en ejecución (PID {pid}) y este gz-ia no puede detenerla; "
        "detén primero el agente"
    ),
    "delete_unmerged": (
        "la sesión '{id}' tiene trabajo que nunca se fusionó ({what}); "
        "fusiónalo con 'gz-ia session merge {id}' o elimínala con --force"
    ),
    "delete_unreadable": (
        "la sesión '{id}' tiene un worktree que git no puede leer ({worktree}): no se puede "
        "comprobar si sus {count} archivos tienen trabajo sin fusionar; revísalos o "
        "elimínala con --force"
    ),
    "delete_unreadable_one": (
        "la sesión '{id}' tiene un worktree que git no puede leer ({worktree}): no se puede "
        "comprobar si su {count} archivo tiene trabajo sin fusionar; revísalo o "
        "elimínala con --force"
    ),
    "symlink_refused": (
        "se rechaza usar {path}: es un enlace simbólico (a {target}); gz-ia nunca escribe "
        "ni borra a través de un enlace que no creó"
    ),
    "symlink_refused_hint": (
        "elimina el enlace (rm {path}; su destino queda intacto) y vuelve a ejecutar el comando"
    ),
    "delete_what_commits": "{count} commits sin fusionar",
    "delete_what_commits_one": "{count} commit sin fusionar",
    "delete_what_files": "{count} archivos sin comitear",
    "delete_what_files_one": "{count} archivo sin comitear",
    "force_hint": "gz-ia session delete {id} --force",
    "diff_direct": "La sesión se ejecutó en modo directo y no cuenta con diff aislado.",
    "diff_empty": "✧ No hay cambios registrados en la sesión.",
    "diff_unavailable": "sesión '{id}': worktree o rama no disponible",
    "merge_direct": (
        "la sesión '{id}' se ejecutó en modo directo y no cuenta con una rama de worktree "
        "aislada para fusionar"
    ),
    "merge_base_dirty": (
        "el repositorio base ('{root}') tiene modificaciones o archivos sin comitear.\n"
        "Por favor realiza commit o stash antes de integrar los cambios de la sesión para "
        "evitar pérdida accidental de datos"
    ),
    "merge_in_progress": (
        "el repositorio base ('{root}') tiene un {operation} en curso; termínalo o abórtalo "
        "antes de integrar la sesión"
    ),
    "merge_worktree_in_progress": (
        "el worktree de la sesión '{id}' ({root}) tiene un {operation} en curso; termínalo "
        "o abórtalo allí antes de integrar la sesión"
    ),
    "merge_running": (
        "la sesión '{id}' sigue en ejecución (PID {pid}); espera a que termine o detenla "
        "con 'gz-ia session kill {id}'"
    ),
    "merge_conflict": (
        "conflicto al fusionar cambios de la sesión '{id}' en {count} archivos: {files}. "
        "No se modificó nada: la base y el worktree permanecen intactos (inspecciona con "
        "'gz-ia session path {id}')"
    ),
    "merge_conflict_one": (
        "conflicto al fusionar cambios de la sesión '{id}' en {count} archivo: {files}. "
        "No se modificó nada: la base y el worktree permanecen intactos (inspecciona con "
        "'gz-ia session path {id}')"
    ),
    "merge_conflict_hint": (
        "resuelve en el worktree (git merge {base} allí) y reintenta gz-ia session merge {id}"
    ),
    "merge_conflict_hint_uncommitted": (
        "git merge se negaría a sobrescribir archivos sin confirmar del worktree "
        "({uncommitted}): confírmalos allí primero (o elimínalos), después resuelve en el "
        "worktree (git merge {base} allí) y reintenta gz-ia session merge {id}"
    ),
    "merge_injected": (
        "la sesión '{id}' comiteó archivos que gz-ia inyectó o que son suyos ({files}); "
        "integrarlos los llevaría a su rama. No se modificó nada"
    ),
    "merge_injected_hint": (
        "quítalos de los commits de {branch} en el worktree (gz-ia session path {id}) y "
        "reintenta gz-ia session merge {id}"
    ),
    "merge_worktree_moved": (
        "el worktree de la sesión '{id}' no está en su rama {branch} (tiene "
        "{checked_out}); no se modificó nada"
    ),
    "merge_worktree_moved_hint": (
        "vuelve a la rama en el worktree (git -C {worktree} switch {branch}) y "
        "reintenta gz-ia session merge {id}"
    ),
    "merge_overwrites_ignored": (
        "integrar la sesión '{id}' sobrescribiría archivos ignorados por git en {root} "
        "({files}); no se modificó nada"
    ),
    "merge_overwrites_ignored_hint": (
        "muévelos a otro sitio, o quítalos de los commits de la sesión, y reintenta "
        "gz-ia session merge {id}"
    ),
    "merge_detached": (
        "el repositorio base ('{root}') no tiene ninguna rama activa (HEAD separado en "
        "{head}); ninguna rama conservaría el trabajo integrado. No se modificó nada"
    ),
    "merge_detached_hint": (
        "cambia a la rama en la que quieres integrar (git -C {root} switch {branch}) y "
        "reintenta gz-ia session merge {id}"
    ),
    "merge_detached_hint_any": (
        "cambia a la rama en la que quieres integrar (git -C {root} switch <rama>) y "
        "reintenta gz-ia session merge {id}"
    ),
    "merge_hook_refused_safety": (
        "un hook de git ({hooks}) rechazó el commit del trabajo sin comitear en el worktree "
        "de la sesión '{id}' ({worktree}); no se modificó nada. El hook dijo: {output}"
    ),
    "merge_hook_refused_safety_hint": (
        "corrige lo que indica el hook en el worktree y comitea allí tú mismo; luego "
        "reintenta gz-ia session merge {id}"
    ),
    "merge_hook_refused_merge": (
        "un hook de git ({hooks}) rechazó el commit de integración de la sesión '{id}' en "
        "{root}; la base y el worktree quedaron como estaban. El hook dijo: {output}"
    ),
    "merge_hook_refused_merge_hint": (
        "corrige lo que pide el hook, o ejecuta gz-ia session merge {id} --no-commit y haz "
        "tú el commit"
    ),
    "merge_stopped": (
        "se detuvo la integración de la sesión '{id}'; {root} y el worktree de la sesión "
        "quedaron como estaban"
    ),
    "merge_stopped_not_restored": (
        "se detuvo la integración de la sesión '{id}' y gz-ia no pudo dejarlo todo como "
        "estaba: {problems}"
    ),
    "merge_not_restored": (
        "la integración de la sesión '{id}' falló ({cause}) y gz-ia no pudo dejarlo todo "
        "como estaba: {problems}"
    ),
    "merge_not_restored_hint": (
        "revisa con git -C {root} status; git -C {root} reset --merge {head} devuelve la "
        "base a donde estaba antes de la integración"
    ),
    "merge_problem_switched": "{root} ya no tiene {branch} activa",
    "merge_problem_head_moved": (
        "{branch} apunta ahora a {head}, y no por esta integración (se deja como está)"
    ),
    "merge_problem_reset_failed": "no se pudo restablecer {root} ({detail})",
    "merge_problem_index_locked": "{path}.lock existe: git está usando el índice",
    "merge_problem_error": "{detail}",
    "merge_locked": (
        "otra integración de sesión de gz-ia en {root} está en curso; reintenta"
    ),
    "commit_locked": "otro commit de la sesión {id} lleva {seconds} s ocupando su worktree; inténtalo de nuevo",
    "merge_no_branch": "sesión '{id}': la rama '{branch}' no existe",
    "merge_up_to_date": (
        "✧ La rama ya está actualizada. No hay cambios pendientes para fusionar."
    ),
    "merge_done": "✓ Fusión completada con éxito para la sesión '{id}'.",
    "get_done": (
        "✓ Cambios del worktree traídos e integrados con éxito para la sesión '{id}'."
    ),
    "merge_files": "Archivos integrados:",
    "merge_note_squash_no_commit": (
        "Nota: Los cambios quedaron preparados en el stage sin comitear (--squash --no-commit)."
    ),
    "merge_note_no_commit": (
        "Nota: Los cambios quedaron preparados en el stage sin comitear (--no-commit)."
    ),
    "prune_nothing": (
        "✓ No se encontraron ramas de Git ni worktrees huérfanos. Todo está sincronizado."
    ),
    "prune_title": "✧ Reconciliación de Basura Huérfana:",
    "prune_branch": (
        "  ✓ Rama huérfana eliminada: {name} (era {commit}); "
        "recupérala con: git branch {name} {commit}"
    ),
    "prune_branch_unique": (
        "    ! {commit} no está en ninguna otra rama: guarda este SHA para recuperar sus commits"
    ),
    "prune_worktree": "  ✓ Worktree huérfano podado: {name}",
    "prune_discarded": "    ! Trabajo sin comitear descartado ({count} archivos):",
    "prune_discarded_one": "    ! Trabajo sin comitear descartado ({count} archivo):",
    "prune_kept_locked": (
        "  ! Worktree huérfano conservado, está bloqueado: {name}; "
        "desbloquéalo con: git worktree unlock .harness/worktrees/{name}"
    ),
    "prune_kept_uncommitted": (
        "  ! Worktree huérfano conservado, tiene trabajo sin comitear: {name}; "
        "elimínalo de todos modos con: gz-ia session prune --force"
    ),
    "prune_kept_unreadable": (
        "  ! Worktree huérfano conservado, git no puede leer su estado: {name}; "
        "elimínalo de todos modos con: gz-ia session prune --force"
    ),
    "prune_kept_unmerged_head": (
        "  ! Worktree huérfano conservado, su HEAD tiene commits que ninguna rama tiene: "
        "{name}; elimínalo de todos modos con: gz-ia session prune --force"
    ),
    "prune_kept_symlink": (
        "  ! Worktree huérfano conservado, es un enlace simbólico que gz-ia no creó: {name}; "
        "elimina el enlace tú mismo (su destino queda intacto)"
    ),
    "prune_kept_young": (
        "  ! Worktree huérfano conservado, creado hace menos de un minuto (su sesión puede "
        "estar iniciándose): {name}; vuelve a ejecutar gz-ia session prune más tarde"
    ),
    "prune_kept_branch_checked_out": (
        "  ! Rama huérfana conservada, está activa en {path}: {name}; "
        "cambia ese worktree a otra rama primero"
    ),
    "prune_kept_files": "    Archivos sin comitear ({count}):",
    "prune_dir": "  ✓ Directorio de worktree huérfano eliminado: {name}",
    "prune_events": "  ✓ Registro de eventos huérfano eliminado: {name}",
    "prune_lock": "  ✓ Archivo de bloqueo huérfano eliminado: {name}",
    "prune_missing": "  ! La sesión {name} perdió su worktree (registro conservado)",
    "prune_dry_run": "(simulación: lo que haría prune; no se elimina nada)",
    "prune_worktree_dry": "  - Se eliminaría el worktree huérfano: {name}",
    "prune_discarded_dry": "    ! Trabajo sin comitear que se descartaría ({count} archivos):",
    "prune_discarded_dry_one": "    ! Trabajo sin comitear que se descartaría ({count} archivo):",
    "prune_branch_dry": (
        "  - Se eliminaría la rama huérfana: {name} (en {commit}); "
        "podría recuperarse con: git branch {name} {commit}"
    ),
    "prune_dir_dry": "  - Se eliminaría el directorio de worktree huérfano: {name}",
    "prune_events_dry": "  - Se eliminaría el registro de eventos huérfano: {name}",
    "prune_lock_dry": "  - Se eliminaría el archivo de bloqueo huérfano: {name}",
    "prune_session": "  ✓ Sesión terminada eliminada: {name} ({status})",
    "prune_session_branch": "    {branch} era {commit}; recupérala con: git branch {branch} {commit}",
    "prune_discarded_commits": "    ! Commits sin fusionar descartados: {count}",
    "prune_session_dry": "  - Se eliminaría la sesión terminada: {name} ({status})",
    "prune_session_branch_dry": (
        "    {branch} está en {commit}; podría recuperarse con: git branch {branch} {commit}"
    ),
    "prune_discarded_commits_dry": "    ! Commits sin fusionar que se descartarían: {count}",
    "prune_session_kept_unmerged": (
        "  ! Sesión conservada, tiene trabajo sin fusionar ({what}): {name}; fusiónala con "
        "gz-ia session merge {name}, o elimínala de todos modos con: gz-ia session prune "
        "--finished --force"
    ),
    "prune_session_kept_running": "  ! Sesión conservada, sigue en ejecución: {name}",
    "invalid_stage": "etapa inválida: '{value}' (válidos: READ, PENDING, FINISH)",
    "invalid_status": "estado inválido: '{value}' (válidos: OK, FAILED)",
    "invalid_duration": "duración inválida: '{value}' (milisegundos, 0 o más)",
    "empty_action": "la acción no puede estar vacía",
    "event_too_large": "el evento ocupa {size} bytes; un evento puede ocupar como máximo {limit} bytes",
    "logged": "✓ Evento registrado exitosamente para la sesión '{id}'.",
    "no_events": "✧ No hay eventos registrados para la sesión '{id}'.",
    "event_unreadable": "se omitió la línea de evento ilegible {line} en {path}",
    "event_unreadable_more": (
        "se omitieron otras {count} líneas de evento ilegibles en {path} "
        "(líneas {first} a {last})"
    ),
    "events_not_regular": (
        "el registro de eventos {path} no es un archivo regular (un FIFO, un dispositivo o "
        "un directorio); gz-ia no lo lee ni lo escribe"
    ),
    "events_unreadable": "no se puede leer el registro de eventos {path}: {detail}",
    "events_unwritable": "no se puede añadir al registro de eventos {path}: {detail}",
    # etiquetas, filtros de la lista, espera, idempotencia
    "label_labels": "Etiquetas:",
    "label_bad_key": (
        "etiqueta '{label}' no válida: se esperaba clave=valor, la clave de 1 a 63 letras, "
        "dígitos o . _ - /"
    ),
    "label_bad_value": (
        "etiqueta '{label}' no válida: el valor debe tener como mucho {limit} caracteres, "
        "sin caracteres de control"
    ),
    "label_repeated": "la clave de etiqueta '{key}' aparece dos veces ('{label}')",
    "label_too_many": "demasiadas etiquetas: como mucho {limit}",
    "filter_bad_status": "estado '{value}' no válido: se esperaba uno de {allowed}",
    "filter_bad_limit": "--limit {value} no válido: se esperaba 1 o más",
    "filter_bad_since": (
        "--since '{value}' no válido: se esperaba una hora RFC 3339 o una duración como 30m, "
        "2h, 7d"
    ),
    "list_capped": "se alcanzó --limit {limit}: hay más sesiones que cumplen el filtro",
    "wait_line": "{id}  {status}  código de salida: {exit_code}  motivo fin: {end_reason}",
    "wait_deleted": "{id}  eliminada durante la espera",
    "wait_timeout": (
        "tiempo agotado tras {seconds} s esperando a las sesiones; {count} siguen en ejecución "
        "(no se tocan)"
    ),
    "idempotency_bad_key": (
        "clave de idempotencia '{key}' no válida: se esperaban de 1 a 200 letras, dígitos o "
        ". _ : @ / + = -"
    ),
    "idempotency_conflict": (
        "la clave de idempotencia '{key}' pertenece a la sesión {id}, iniciada con otro "
        "valor de {fields}; no se inició nada"
    ),
    "idempotency_locked": (
        "otro gz-ia está iniciando una sesión con la clave de idempotencia '{key}'"
    ),
}
