"""Replace the __main__.py of a shiv zipapp with build/pyz_entry.py, keeping it repeatable.

Usage: python set_pyz_entry.py <zipapp>. Entries keep their order, timestamps and
compression, and the shebang line is kept, so the result is as repeatable as the input.
gzia/preflight.py and gzia/extraction.py go in beside it as ``gzia_preflight.py`` and
``gzia_extraction.py``: the entry uses them before gz-ia's own package is importable.

shiv's ``site-packages/`` entries go into one member, ``site-packages.zip`` (stored, its
entries as shiv wrote them). Python reads a zipapp's whole directory on every start, about
37,000 instructions an entry: 2,300 entries that only a build's first run reads (to
extract them) cost every start of gz-ia more than the interpreter's own start
(docs/performance.md).
"""

import io
import json
import sys
import zipfile
from pathlib import Path

GZIA = Path(__file__).resolve().parent.parent / "gzia"
DEPENDENCIES = "site-packages.zip"
BESIDE_THE_ENTRY = {"gzia_preflight.py": GZIA / "preflight.py",
                    "gzia_extraction.py": GZIA / "extraction.py"}


def copy_info(info: zipfile.ZipInfo, name: str) -> zipfile.ZipInfo:
    """An entry named ``name`` with the timestamp and permissions of ``info``."""
    copy = zipfile.ZipInfo(name, date_time=info.date_time)
    copy.external_attr, copy.create_system = info.external_attr, info.create_system
    return copy


def dependencies(source: zipfile.ZipFile) -> bytes:
    """An archive of ``source``'s ``site-packages/`` entries, each as it was."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as inner:
        for info in source.infolist():
            if info.filename.startswith("site-packages"):
                inner.writestr(info, source.read(info.filename), compress_type=info.compress_type)
    return buffer.getvalue()


def main(archive_path: str) -> None:
    archive = Path(archive_path)
    raw = archive.read_bytes()
    shebang = raw[: raw.index(b"PK\x03\x04")]
    entry = (Path(__file__).parent / "pyz_entry.py").read_text(encoding="utf-8")
    with zipfile.ZipFile(archive) as source:
        build_id = json.loads(source.read("environment.json"))["build_id"]
        entry = entry.replace("@BUILD_ID@", build_id)
        tmp = archive.with_suffix(".tmp")
        with tmp.open("wb") as out:
            out.write(shebang)
            with zipfile.ZipFile(out, "w") as target:
                for info in source.infolist():
                    if info.filename.startswith("site-packages"):
                        continue
                    data = source.read(info.filename)
                    if info.filename == "__main__.py":
                        data = entry.encode("utf-8")
                        for name, source_file in BESIDE_THE_ENTRY.items():
                            target.writestr(copy_info(info, name), source_file.read_bytes(),
                                            compress_type=info.compress_type)
                        target.writestr(copy_info(info, DEPENDENCIES), dependencies(source),
                                        compress_type=zipfile.ZIP_STORED)
                    target.writestr(info, data, compress_type=info.compress_type)
    tmp.chmod(archive.stat().st_mode)
    tmp.replace(archive)


if __name__ == "__main__":
    main(sys.argv[1])
