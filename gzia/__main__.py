"""``python -m gzia`` and the zipapp entry point."""

import sys

from gzia.cli import main

if __name__ == "__main__":
    sys.exit(main())
