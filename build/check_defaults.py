"""Check an organisation's defaults or policy file before it is embedded in a zipapp.

Usage: PYTHONPATH=<sources> python check_defaults.py [--policy] [--name NAME] <file.toml>.
build/shiv.sh runs it on ``GZ_BUILD_DEFAULTS`` and ``GZ_BUILD_POLICY``; ``release.py build``
runs it on its ``--defaults`` and ``--policy`` files before anything is built (``--name``:
what the messages call the file). The file is read by gz-ia's own configuration (or policy)
reader (known keys, right types and ranges, valid version rules); a secret (a password, a
token) is refused: the zipapp is handed to every user, and each sets their own.
"""

import argparse
import sys
from pathlib import Path

from gzia.config_files import read_config_file, read_policy_file
from gzia.contract import GzError
from gzia.settings import SETTINGS_BY_KEY


def check_policy(file: Path, name: str) -> int:
    try:
        policy = read_policy_file(file)
    except GzError as exc:
        print(f"{name}: {exc.message}", file=sys.stderr)
        return 1
    rules = [*policy.settings, *(f"update.{k}" for k in policy.update),
             *(f"agents.{k}" for k in policy.agents)]
    print(f"embedding the policy for {', '.join(rules) or 'nothing'}", file=sys.stderr)
    return 0


def check_defaults(file: Path, name: str) -> int:
    try:
        values = read_config_file(file)
    except GzError as exc:
        print(f"{name}: {exc.message}", file=sys.stderr)
        return 1
    secrets = sorted(key for key in values if SETTINGS_BY_KEY[key].secret)
    if secrets:
        print(f"{name} holds secrets ({', '.join(secrets)}): "
              "a built zipapp is no place for them; let each user set them", file=sys.stderr)
        return 1
    print(f"embedding defaults for {', '.join(sorted(values)) or 'nothing'}", file=sys.stderr)
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="check_defaults.py")
    parser.add_argument("--policy", action="store_true", help="a policy file, not defaults")
    parser.add_argument("--name", help="what messages call the file")
    parser.add_argument("file", type=Path)
    args = parser.parse_args(argv)
    if args.policy:
        return check_policy(args.file, args.name or "build/shiv.sh: GZ_BUILD_POLICY")
    return check_defaults(args.file, args.name or "build/shiv.sh: GZ_BUILD_DEFAULTS")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
