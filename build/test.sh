#!/usr/bin/env bash
# The whole test suite: lint, type check, build dist/gz-ia.pyz once, then every test
# (including the ones that run the built zipapp). Extra arguments go to pytest.
#
# The tests run in parallel, GZ_TEST_WORKERS of them (default: one per CPU, at most 4;
# `-n 0` as an extra argument runs them one by one). Tests that share the release builds
# are kept in one worker (xdist_group).
#
# Then the tests that drive the built zipapp run a second time with the system's own
# Python (GZ_TEST_SYSTEM_PYTHON, default /usr/bin/python3: Debian's, as users have it), in
# a virtual environment of its own (GZ_TEST_SYSTEM_VENV, default .venv-system). Set
# GZ_TEST_SYSTEM_PYTHON= (empty) to skip that pass; a missing or older interpreter is
# skipped with a notice.
#
# Needs GNU gettext's msgfmt (Debian package gettext; .ci/run installs it).
#
# Environment: PYTHON (3.11+, default python3), GZ_TEST_VENV (default .venv),
# GZ_TEST_WORKERS, GZ_TEST_SYSTEM_PYTHON, GZ_TEST_SYSTEM_VENV.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
python=${PYTHON:-python3}
venv=${GZ_TEST_VENV:-$root/.venv}
cd "$root"

"$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "gz-ia needs Python 3.11+")'
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check -e ".[test]"

echo "== ruff"
"$venv/bin/ruff" check gzia tests bench build release
echo "== mypy"
"$venv/bin/mypy"
echo "== msgfmt --check (message catalogues)"
for po in gzia/locale/*/LC_MESSAGES/*.po; do msgfmt --check -o /dev/null "$po"; done
echo "== build dist/gz-ia.pyz"
PYTHON="$venv/bin/python" bash build/shiv.sh
echo "== pytest"
cpus=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
workers=${GZ_TEST_WORKERS:-$(( cpus < 4 ? cpus : 4 ))}
GZ_TEST_PYZ="$root/dist/gz-ia.pyz" "$venv/bin/python" -m pytest -n "$workers" \
  --dist loadgroup "$@"

system_python=${GZ_TEST_SYSTEM_PYTHON-/usr/bin/python3}
system_venv=${GZ_TEST_SYSTEM_VENV:-$root/.venv-system}
if [ -z "$system_python" ]; then
  exit 0
fi
if ! "$system_python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  echo "== pyz tests with $system_python: skipped (not found, or older than Python 3.11)"
  exit 0
fi
echo "== pyz tests with $system_python ($("$system_python" --version 2>&1))"
[ -x "$system_venv/bin/python" ] || "$system_python" -m venv "$system_venv"
"$system_venv/bin/python" -m pip install -q --disable-pip-version-check -e ".[test]"
GZ_TEST_PYZ="$root/dist/gz-ia.pyz" "$system_venv/bin/python" -m pytest -n "$workers" \
  --dist loadgroup "$@" -m "pyz and not release_build"
