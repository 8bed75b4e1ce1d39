"""Minisign keys and signatures made by the real ``minisign`` tool (Debian package ``minisign``).

``MinisignKey.generate(dir)`` runs ``minisign -G -W`` (no password); :meth:`MinisignKey.sign`
runs ``minisign -S`` (prehashed by default, ``legacy=True`` for ``-l``) and returns the
``.minisig`` text; :attr:`public_line` is the base64 key line, :attr:`pub` the ``.pub`` path.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path


def minisign_binary() -> str:
    found = shutil.which("minisign")
    if found is None:
        raise RuntimeError("the 'minisign' program is required (apt-get install -y minisign)")
    return found


@dataclass(frozen=True)
class MinisignKey:
    pub: Path
    sec: Path

    @classmethod
    def generate(cls, directory: Path) -> MinisignKey:
        directory.mkdir(parents=True, exist_ok=True)
        pub, sec = directory / "minisign.pub", directory / "minisign.key"
        subprocess.run([minisign_binary(), "-G", "-W", "-f", "-p", str(pub), "-s", str(sec)],
                       check=True, capture_output=True, timeout=30)
        return cls(pub, sec)

    @property
    def public_line(self) -> str:
        return self.pub.read_text().splitlines()[1].strip()

    def sign(self, file: Path, *, legacy: bool = False, trusted_comment: str | None = None) -> str:
        argv = [minisign_binary(), "-S", "-s", str(self.sec), "-m", str(file),
                "-x", str(file) + ".minisig"]
        if legacy:
            argv.append("-l")
        if trusted_comment is not None:
            argv += ["-t", trusted_comment]
        subprocess.run(argv, check=True, capture_output=True, timeout=30)
        return Path(str(file) + ".minisig").read_text()


def verify_with_minisign(file: Path, sig: Path, pub: Path) -> subprocess.CompletedProcess[str]:
    argv = [minisign_binary(), "-V", "-p", str(pub), "-m", str(file), "-x", str(sig)]
    return subprocess.run(argv, capture_output=True, text=True, timeout=30, check=False)
