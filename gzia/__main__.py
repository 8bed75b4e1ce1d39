"""``python -m gzia``. The zipapp's own entry (build/pyz_entry.py) makes the same check."""

import sys

from gzia.preflight import python_too_old

if __name__ == "__main__":
    refusal = python_too_old()
    if refusal is not None:
        sys.stderr.write(refusal + "\n")
        sys.exit(1)
    from gzia.cli import main

    sys.exit(main())
