"""Entry point of gz-ia.pyz (installed as the zipapp's __main__.py by build/set_pyz_entry.py).

First, a Python older than gz-ia needs is refused in one line (gzia/preflight.py). Then the
bundled dependencies are found where this build extracted them (gzia/extraction.py: under
gz-ia's cache directory, or SHIV_ROOT), extracted there with shiv's own bootstrap code on
the first run of a build (which then removes stale extractions of other builds:
gzia/stale_builds.py), marked in use for as long as this process runs, and gz-ia starts
directly: every start pays only for what gz-ia itself imports. A SHIV_* override of the
bootstrap (debugging) goes through shiv's full bootstrap instead.

build/set_pyz_entry.py puts gzia/preflight.py and gzia/extraction.py beside this file as
``gzia_preflight`` and ``gzia_extraction``, and shiv's ``site-packages/`` entries into one
member, ``site-packages.zip``, which only the extraction reads: every start reads a
directory of a few entries. A SHIV_* override goes through shiv's bootstrap once this file
has extracted them (``SHIV_FORCE_EXTRACT`` is not one: remove the extraction instead).
This file is run by whatever ``python`` the user has: the standard library only, and no
syntax a Python from 2.7 on cannot read (gzia/preflight.py says which), so that the check
comes first and an old Python gets its one line. Everything else runs after the check:
``gzia_extraction`` is imported where it is used.
"""

import os
import site
import sys

import gzia_preflight

refusal = gzia_preflight.python_too_old()
if refusal is not None:
    sys.stderr.write(refusal + "\n")
    sys.exit(1)

BUILD_ID = "@BUILD_ID@"
DEPENDENCIES = "site-packages.zip"
BOOTSTRAP_OVERRIDES = (
    "SHIV_INTERPRETER", "SHIV_ENTRY_POINT", "SHIV_MODULE",
    "SHIV_CONSOLE_SCRIPT", "SHIV_PREPEND_PYTHONPATH", "SHIV_EXTEND_PYTHONPATH",
)


def extraction_dir(name=None):
    """One extraction per build, whatever the file is called (the demo's dist/gz-ia.pyz and
    the installed ~/.local/bin/gz-ia share it); shiv's own bootstrap (a SHIV_* override)
    looks for it under the file's name instead."""
    import gzia_extraction

    return os.path.join(gzia_extraction.extraction_root(),
                        (name or gzia_extraction.APP_NAME) + "_" + BUILD_ID)


def file_name():
    return os.path.basename(os.path.realpath(sys.argv[0]))


def extract(extraction):
    """shiv's own extraction (a lock, a temporary directory, one rename), bytecode
    compiled by the Python that runs it."""
    import zipfile
    from pathlib import Path

    import _bootstrap
    from _bootstrap.environment import Environment

    with _bootstrap.current_zipfile() as archive:
        env = Environment.from_json(archive.read("environment.json").decode())
        with archive.open(DEPENDENCIES) as member, zipfile.ZipFile(member) as dependencies:
            _bootstrap.extract_site_packages(dependencies, Path(extraction), env.compile_pyc,
                                             env.compile_workers)


def held_extraction(extraction):
    """This build's extraction, marked in use by this process, and whether this start
    extracted it."""
    import gzia_extraction

    extracted = False
    for _ in range(5):  # a clean-up elsewhere may remove it between the two steps
        if not os.path.isdir(os.path.join(extraction, "site-packages")):
            extract(extraction)
            extracted = True
        if gzia_extraction.hold(extraction) != gzia_extraction.GONE:
            break
    return extraction, extracted


def start_fast(extraction, extracted):
    before = len(sys.path)
    first_site = next(
        (i for i, p in enumerate(sys.path) if p.rstrip(os.sep).endswith("site-packages")), before
    )
    site.addsitedir(os.path.join(extraction, "site-packages"))
    sys.path[:] = sys.path[:first_site] + sys.path[before:] + sys.path[first_site:before]
    if extracted:  # the first start of this build: other builds' copies may be stale
        from gzia.stale_builds import remove_stale

        remove_stale(os.path.dirname(extraction), extraction)
    from gzia.cli import main

    sys.exit(main())


if any(os.environ.get(name) for name in BOOTSTRAP_OVERRIDES):
    import _bootstrap
    import gzia_extraction

    os.environ.setdefault("SHIV_ROOT", gzia_extraction.extraction_root())
    # shiv's bootstrap cannot extract the one member; it finds them here
    held_extraction(extraction_dir(file_name()))
    _bootstrap.bootstrap()
else:
    start_fast(*held_extraction(extraction_dir()))
