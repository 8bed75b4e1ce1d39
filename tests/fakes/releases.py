"""Release sets as release tooling publishes them (DESIGN §8) and stand-in zipapps.

``make_standin_pyz(path, version)`` writes a tiny zipapp whose ``--version`` prints
``gz-ia <version>`` at once and which otherwise runs the real ``gzia.cli.main`` of this
checkout pretending to be ``version`` (so a test can run ``python standin.pyz update`` as a
real child process). It carries a shiv-style ``environment.json`` with ``build_id``.

``make_release(workdir, version, pyz_bytes, key)`` returns ``{filename: bytes}``:
``gz-ia-<version>-<os>-<arch>.pyz``, ``SHA256SUMS`` and ``SHA256SUMS.minisig`` signed by
the real minisign tool.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from pathlib import Path

from tests.fakes.signing import MinisignKey

REPO_ROOT = Path(__file__).resolve().parents[2]

_MAIN = '''\
import sys
VERSION = {version!r}
if sys.argv[1:] == ["--version"]:
    import time
    time.sleep({version_delay})
    print("gz-ia " + VERSION)
    sys.exit({exit_code})
sys.path.insert(0, {root!r})
import gzia._version
gzia._version.__version__ = VERSION
from gzia.cli import main
sys.exit(main())
'''


def standin_pyz_bytes(version: str, *, padding: int = 0, exit_code: int = 0,
                      build_id: str | None = None, version_delay: float = 0) -> bytes:
    buffer = io.BytesIO()
    buffer.write(b"#!/usr/bin/env python3\n")
    with zipfile.ZipFile(buffer, "a", zipfile.ZIP_STORED) as archive:
        archive.writestr("__main__.py", _MAIN.format(version=version, exit_code=exit_code,
                                                     root=str(REPO_ROOT),
                                                     version_delay=version_delay))
        bid = build_id or hashlib.sha256(version.encode()).hexdigest()
        archive.writestr("environment.json", json.dumps({"build_id": bid}))
        archive.writestr("site-packages/gzia/_version.py", f'__version__ = "{version}"\n')
        if padding:
            archive.writestr("padding.bin", bytes(range(256)) * (padding // 256 + 1))
    return buffer.getvalue()


def make_standin_pyz(path: Path, version: str, **options: object) -> Path:
    path.write_bytes(standin_pyz_bytes(version, **options))  # type: ignore[arg-type]
    path.chmod(0o755)
    return path


def pyz_name(version: str, platform: str | None = None) -> str:
    from gzia.update.platform import platform_tag

    return f"gz-ia-{version}-{platform or platform_tag()}.pyz"


def make_release(workdir: Path, version: str, pyz_bytes: bytes, key: MinisignKey, *,
                 platform: str | None = None, legacy: bool = False) -> dict[str, bytes]:
    name = pyz_name(version, platform)
    sums = f"{hashlib.sha256(pyz_bytes).hexdigest()}  {name}\n".encode()
    folder = workdir / f"release-{version}-{platform or 'here'}"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "SHA256SUMS").write_bytes(sums)
    signature = key.sign(folder / "SHA256SUMS", legacy=legacy,
                         trusted_comment=f"gz-ia {version}")
    return {name: pyz_bytes, "SHA256SUMS": sums, "SHA256SUMS.minisig": signature.encode()}
