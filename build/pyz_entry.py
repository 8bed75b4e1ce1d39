"""Entry point of gz-ia.pyz (installed as the zipapp's __main__.py by build/set_pyz_entry.py).

The zipapp's bootstrap extracts the bundled dependencies into a cache directory on the
first run, and imports a good deal of the standard library to do it. Once they are
extracted, this entry adds that directory to the path the same way and starts gz-ia
directly, so every later start pays only for what gz-ia itself imports. Anything
unusual (first run, a SHIV_* override) goes through the full bootstrap.

Before all that, a Python older than gz-ia needs is refused in one line (gzia/preflight.py,
which build/set_pyz_entry.py puts beside this file as ``gzia_preflight``). This file too is
run by whatever ``python3`` the user has: Python 3.8 syntax, the standard library only.
"""

import os
import site
import sys

import gzia_preflight

BUILD_ID = "@BUILD_ID@"
BOOTSTRAP_OVERRIDES = (
    "SHIV_FORCE_EXTRACT", "SHIV_INTERPRETER", "SHIV_ENTRY_POINT", "SHIV_MODULE",
    "SHIV_CONSOLE_SCRIPT", "SHIV_PREPEND_PYTHONPATH", "SHIV_EXTEND_PYTHONPATH",
)


def extracted_site_packages():
    if any(os.environ.get(name) for name in BOOTSTRAP_OVERRIDES):
        return None
    root = os.path.expanduser(os.environ.get("SHIV_ROOT") or "~/.shiv")
    name = os.path.basename(os.path.realpath(sys.argv[0]))
    path = os.path.join(root, f"{name}_{BUILD_ID}", "site-packages")
    return path if os.path.isdir(path) else None


def start_fast(site_packages):
    before = len(sys.path)
    first_site = next(
        (i for i, p in enumerate(sys.path) if p.rstrip(os.sep).endswith("site-packages")), before
    )
    site.addsitedir(site_packages)
    sys.path[:] = sys.path[:first_site] + sys.path[before:] + sys.path[first_site:before]
    from gzia.cli import main

    sys.exit(main())


refusal = gzia_preflight.python_too_old()
if refusal is not None:
    sys.stderr.write(refusal + "\n")
    sys.exit(1)
site_packages = extracted_site_packages()
if site_packages is not None:
    start_fast(site_packages)
else:
    import _bootstrap

    _bootstrap.bootstrap()
