"""One TAB: gz-ia answering a completion script's call, from dist/gz-ia.pyz, against
``python3 -c pass`` measured in the same run.

Usage: python bench/completion.py [path/to/gz-ia.pyz] [--runs N]

Each call is what bash's script makes (``_GZ_IA_COMPLETE=bash_complete``, ``COMP_WORDS``,
``COMP_CWORD`` in the environment), run as ``<this python> <pyz>`` in a git repository
holding 1,000 finished sessions (bench/session_list.py writes them). The samples
interleave round after round, as in bench/startup.py, whose timing they share.

Goal: every TAB under 100 ms wall (warm: the zipapp's dependencies already extracted);
the ratio to ``python3 -c pass`` is shown beside it.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _git import make_repo  # bench/, the script's own directory
from session_list import write_records
from startup import BASELINE, print_baseline, seconds, warm_pyz

GOAL_MS = 100.0
SESSIONS = 1000
WORDS = {
    "a command": "gz-ia ses",
    "a subcommand": "gz-ia session mer",
    "a flag": "gz-ia session merge --sq",
    "session ids (1,000)": "gz-ia session show 0000",
    "providers": "gz-ia chat -p ",
    "permission modes": "gz-ia chat -m ",
    "setting names": "gz-ia config get ",
}


def environment(words: str) -> dict[str, str]:
    cword = len(words.split()) - (0 if words.endswith(" ") else 1)
    return {**os.environ, "_GZ_IA_COMPLETE": "bash_complete", "COMP_WORDS": words,
            "COMP_CWORD": str(cword)}


def measure(python: str, pyz: str, repo: Path, runs: int) -> dict[str, tuple[float, float]]:
    calls = {BASELINE: ([python, "-c", "pass"], dict(os.environ)),
             **{label: ([python, pyz], environment(words)) for label, words in WORDS.items()}}
    samples: dict[str, list[tuple[float, float]]] = {label: [] for label in calls}
    for _ in range(runs):
        for label, (argv, env) in calls.items():
            samples[label].append(seconds(argv, env=env, cwd=repo))
    return {label: (statistics.median(w for w, _ in values),
                    statistics.median(c for _, c in values))
            for label, values in samples.items()}


def report(medians: dict[str, tuple[float, float]]) -> None:
    wall0, cpu0 = print_baseline(medians, 30)
    for label, (wall, cpu) in medians.items():
        verdict = "met" if wall * 1000 < GOAL_MS else "NOT met"
        print(f"TAB: {label:<25} {wall * 1000:6.1f} ms {wall / wall0:5.2f}x   "
              f"{cpu * 1000:6.1f} ms {cpu / cpu0:5.2f}x   (goal < {GOAL_MS:g} ms: {verdict})")


def main() -> int:
    python, pyz, args = warm_pyz(__doc__.splitlines()[0], 20)
    with tempfile.TemporaryDirectory() as scratch:
        repo = make_repo(Path(scratch))
        write_records(repo, SESSIONS)
        answer = subprocess.run([python, pyz], env=environment(WORDS["session ids (1,000)"]),
                                cwd=repo, capture_output=True, text=True, check=True).stdout
        assert answer.count("plain,") == SESSIONS, answer[:200]  # every id offered
        report(measure(python, pyz, repo, args.runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
