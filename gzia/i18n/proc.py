"""Messages about running helper programs."""

EN = {
    "program_not_found": "program '{program}' not found",
    "relative_program_hint": (
        "a path is read from the session's worktree root, not from the directory you are in"
    ),
    "program_not_executable": "program '{program}' is not executable",
    "not_executable_hint": "make it executable: chmod +x {program}",
    "timed_out": "'{program}' did not finish within {seconds} s and was stopped",
}
