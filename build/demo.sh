#!/usr/bin/env bash
# A real gz-ia session on a throwaway repository: an agent (here a shell command, run by
# the `shell` driver) writes a file in its own worktree; we list the session and merge it.
#
# Usage: bash build/demo.sh [path/to/gz-ia.pyz]   (default dist/gz-ia.pyz)
#
# The throwaway repository is removed when the demo ends, however it ends; set
# GZ_DEMO_KEEP=1 to keep it and look around.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
pyz=$(cd "$(dirname "${1:-$root/dist/gz-ia.pyz}")" && pwd)/$(basename "${1:-$root/dist/gz-ia.pyz}")
python=${PYTHON:-python3}
repo=$(mktemp -d "${TMPDIR:-/tmp}/gz-ia-demo.XXXXXX")
if [ "${GZ_DEMO_KEEP:-}" = 1 ]; then
  trap 'echo "(kept $repo)"' EXIT
else
  trap 'cd / && rm -rf "$repo"' EXIT
fi
gz() { "$python" "$pyz" "$@"; }

git -C "$repo" init -q
git -C "$repo" -c user.name=demo -c user.email=demo@example.invalid commit -q --allow-empty -m "start"
cd "$repo"

echo "\$ gz-ia exec -- sh -c 'echo hello from an agent > hello.txt'"
gz exec -- sh -c 'echo hello from an agent > hello.txt'
echo "\$ gz-ia session list"
gz session list
id=$(gz session list --json | "$python" -c 'import json,sys; print(json.load(sys.stdin)["data"]["sessions"][0]["id"])')
echo "\$ gz-ia session diff --stat $id"
gz session diff --stat "$id"
echo "\$ gz-ia session merge $id"
gz session merge "$id"
echo "\$ git log --oneline; cat hello.txt   (in $repo)"
git log --oneline
cat hello.txt
