#!/usr/bin/env bash
# Build dist/gz-ia.pyz: a single-file zipapp holding gz-ia and its pinned dependencies, and
# beside it gz-ia.1, the manual page made from its command tree (build/man_page.py).
#
# Repeatable: two builds of the same commit give the same sha256 (fixed timestamps from
# the commit, no build paths inside the archive).
#
# Environment:
#   PYTHON               interpreter to build with (default python3; 3.11+)
#   GZ_BUILD_OUTPUT      output file (default dist/gz-ia.pyz)
#   GZ_BUILD_VERSION     version to embed (default: gzia/_version.py)
#   GZ_BUILD_COMMIT      commit to embed (default: git rev-parse --short=12 HEAD)
#   GZ_BUILD_DATE        build date to embed (default: the commit's date, UTC)
#   GZ_BUILD_SITE_PACKAGES  prepared site-packages directory with the dependencies
#                        (release builds pass one per platform); default: the locked
#                        wheels of every CPython a release supports (3.11, 3.12, 3.13)
#                        for this machine's platform, made by the release tooling
#                        (build/site_packages.py), so the zipapp runs on each of them.
#                        On a platform no release ships for: build/requirements.lock
#                        installed for this interpreter only.
#   GZ_BUILD_WORK_DIR    where those wheels are kept between builds, reused while the
#                        lock is unchanged (default build/_work/pyz)
#   GZ_BUILD_KEYS_DIR    directory of trusted minisign public keys (*.pub) to embed
#                        (default release/keys; tests point it at a generated test key)
#   GZ_BUILD_DEFAULTS    an organisation's defaults file (TOML, the keys of `gz-ia config
#                        list`, no secrets) embedded as the built-in configuration layer
#                        (default: none)
#   GZ_BUILD_POLICY      an organisation's policy file (TOML: settings users cannot
#                        override, update and agent rules; docs/configuration.md, "Admin
#                        policy") embedded as the built-in policy (default: none)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
python=${PYTHON:-python3}
output=${GZ_BUILD_OUTPUT:-$root/dist/gz-ia.pyz}
work=$(mktemp -d "${TMPDIR:-/tmp}/gz-ia-build.XXXXXX")
trap 'rm -rf "$work"' EXIT

commit=${GZ_BUILD_COMMIT:-$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || echo none)}
epoch=${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || echo 315532800)}
export SOURCE_DATE_EPOCH=$epoch
date=${GZ_BUILD_DATE:-$("$python" -c "import datetime,sys; print(datetime.datetime.fromtimestamp(int(sys.argv[1]), datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ'))" "$epoch")}
version=${GZ_BUILD_VERSION:-$("$python" -c "import re,sys; print(re.search(r'__version__ = \"([^\"]+)\"', open(sys.argv[1]).read()).group(1))" "$root/gzia/_version.py")}

# 1. A copy of the sources with the release values embedded. hatch_build.py compiles the
#    message catalogues (.po) into the wheel installed below; a stale .mo of the checkout
#    is not copied, nor is bytecode (a Python 2 that ran `python -m gzia` in the checkout
#    to be refused leaves its .pyc files beside the sources).
mkdir -p "$work/src"
cp -R "$root/gzia" "$root/pyproject.toml" "$root/README.md" "$root/hatch_build.py" "$work/src/"
find "$work/src" -name __pycache__ -prune -exec rm -rf {} +
find "$work/src" -name "*.pyc" -delete
find "$work/src/gzia/locale" -name "*.mo" -delete
cat > "$work/src/gzia/_version.py" <<PY
"""Version of gz-ia, embedded by build/shiv.sh."""

__version__ = "$version"
COMMIT = "$commit"
DATE = "$date"
PY
keys=${GZ_BUILD_KEYS_DIR:-$root/release/keys}
if compgen -G "$keys/*.pub" > /dev/null; then
  mkdir -p "$work/src/gzia/update/keys"
  cp "$keys"/*.pub "$work/src/gzia/update/keys/"
fi
if [ -n "${GZ_BUILD_DEFAULTS:-}" ]; then
  PYTHONPATH="$work/src" "$python" "$root/build/check_defaults.py" "$GZ_BUILD_DEFAULTS"
  cp "$GZ_BUILD_DEFAULTS" "$work/src/gzia/defaults.toml"
fi
if [ -n "${GZ_BUILD_POLICY:-}" ]; then
  PYTHONPATH="$work/src" "$python" "$root/build/check_defaults.py" --policy "$GZ_BUILD_POLICY"
  cp "$GZ_BUILD_POLICY" "$work/src/gzia/policy.toml"
fi

# 2. The build tools: the interpreter's own when it has this very shiv and the lock's
#    packaging (a test venv does), else a fresh virtual environment. Either way the same
#    shiv makes the same archive.
shiv_version=1.0.8
packaging_pin=$(grep -E '^packaging==' "$root/build/requirements.lock")
if "$python" -c "import sys, shiv, packaging; sys.exit(shiv.__version__ != '$shiv_version')" 2>/dev/null; then
  tools=$python
else
  "$python" -m venv "$work/venv"
  tools=$work/venv/bin/python
  "$tools" -m pip --disable-pip-version-check -q install "shiv==$shiv_version" "$packaging_pin"
fi
pip=("$tools" -m pip --disable-pip-version-check -q)

# 3. The site-packages that goes into the zipapp.
site="$work/site"
if [ -n "${GZ_BUILD_SITE_PACKAGES:-}" ]; then
  cp -R "$GZ_BUILD_SITE_PACKAGES" "$site"
else
  status=0
  "$tools" "$root/build/site_packages.py" "$root/build/requirements.lock" \
    "${GZ_BUILD_WORK_DIR:-$root/build/_work/pyz}" "$site" || status=$?
  if [ "$status" -eq 3 ]; then
    echo "no release is made for this platform: the zipapp runs only on $("$python" -c 'import sys; print("Python %d.%d" % sys.version_info[:2])')" >&2
    "${pip[@]}" install --no-compile --no-deps --target "$site" -r "$root/build/requirements.lock"
  elif [ "$status" -ne 0 ]; then
    exit "$status"
  fi
fi
# Paths of this build must not end up in the archive: console scripts (their shebang
# names the build venv), direct_url.json (names the source copy), and their RECORD lines.
# bin/ goes before the next install too, which would otherwise warn that it exists.
rm -rf "$site/bin"
"${pip[@]}" install --no-compile --no-deps --target "$site" "$work/src"
rm -rf "$site/bin"
find "$site" -name direct_url.json -delete
find "$site" -path "*.dist-info/RECORD" -exec sed -i -e '/^\.\.\//d' -e '/direct_url\.json,/d' {} +
find "$site" -name __pycache__ -prune -exec rm -rf {} +

# 4. The zipapp.
mkdir -p "$(dirname "$output")"
# --compile-pyc: the bytecode is compiled once, when the first run extracts the archive, by
# the interpreter that runs it (a zipapp may be run by Python 3.11, 3.12 or 3.13).
"$tools" -m shiv --reproducible --compile-pyc --site-packages "$site" \
  --python "/usr/bin/env python3" --entry-point gzia.cli:main \
  --output-file "$work/gz-ia.pyz"
"$tools" "$root/build/set_pyz_entry.py" "$work/gz-ia.pyz"

# 5. The manual page, from the command tree of the code just packed (English).
man="$(dirname "$output")/gz-ia.1"
PYTHONPATH="$site" "$python" "$root/build/man_page.py" "$work/gz-ia.1"
mv -f "$work/gz-ia.pyz" "$output"
mv -f "$work/gz-ia.1" "$man"
echo "built $output and $man (gz-ia $version, commit $commit)" >&2
