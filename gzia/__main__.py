"""``python -m gzia``. The zipapp's own entry (build/pyz_entry.py) makes the same check.

A Python older than gz-ia needs reads this file, gzia/__init__.py and gzia/_version.py
before the check: they keep to the syntax gzia/preflight.py describes (2.7 on).
"""

import sys

from gzia.preflight import python_too_old

if __name__ == "__main__":
    refusal = python_too_old()
    if refusal is not None:
        sys.stderr.write(refusal + "\n")
        sys.exit(1)
    from gzia.cli import main

    sys.exit(main())
