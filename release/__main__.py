"""``python3 -m release <step> ...`` from the repository root."""

import sys

from release.cli import main

sys.exit(main())
