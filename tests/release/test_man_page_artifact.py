"""The manual page build/shiv.sh writes beside the zipapps is part of the release: listed in
SHA256SUMS (so signed), verified, and published with them."""

from __future__ import annotations

from pathlib import Path

from release import artifacts
from tests.release.conftest import (
    VERSION,
    KeyFiles,
    RunRelease,
    make_artifacts,
    sign_release,
)


def test_the_manual_page_is_signed_and_released_with_the_zipapps(
    tmp_path: Path, release_key: KeyFiles, run_release: RunRelease
) -> None:
    folder = tmp_path / "dist"
    make_artifacts(folder)
    (folder / "gz-ia.1").write_text('.TH GZ-IA 1 "" "gz-ia 1.2.3" "User Commands"\n')
    signed = sign_release(run_release, folder, "--key-file", release_key.secret,
                          "--keys-dir", release_key.keys_dir)
    assert signed.exit_code == 0, signed.stderr
    listed = sorted(line.split()[1] for line in (folder / "SHA256SUMS").read_text().splitlines())
    assert listed == ["gz-ia-1.2.3-linux-amd64.pyz", "gz-ia-1.2.3-linux-arm64.pyz", "gz-ia.1"]
    verified = run_release("verify", "--version", VERSION, "--dir", folder,
                           "--keys-dir", release_key.keys_dir)
    assert verified.exit_code == 0, verified.stderr
    assert [p.name for p in artifacts.release_files(folder, VERSION)] == [
        "gz-ia-1.2.3-linux-amd64.pyz", "gz-ia-1.2.3-linux-arm64.pyz", "gz-ia.1",
        "SHA256SUMS", "SHA256SUMS.minisig"]
