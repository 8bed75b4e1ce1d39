"""Entry point for shells and CI: ``python3 release/release.py <step> ...`` (see --help)."""

import sys
from pathlib import Path

# Run as a script, Python puts release/ first on sys.path; the repository root must be
# there instead so that ``release`` names this package, not this file.
sys.path[0] = str(Path(__file__).resolve().parent.parent)

from release.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
