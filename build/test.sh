#!/usr/bin/env bash
# The whole test suite: lint, type check, build dist/gz-ia.pyz once, then every test
# (including the ones that run the built zipapp). Extra arguments go to pytest.
#
# The tests run in parallel, GZ_TEST_WORKERS of them (default: one per CPU, at most 4;
# `-n 0` as an extra argument runs them one by one). Tests that share the release builds
# are kept in one worker (xdist_group).
#
# Needs GNU gettext's msgfmt (Debian package gettext; .ci/run installs it).
#
# Environment: PYTHON (3.11+, default python3), GZ_TEST_VENV (default .venv),
# GZ_TEST_WORKERS.
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
