"""Check an organisation's defaults or policy file before build/shiv.sh embeds it.

Usage: PYTHONPATH=<sources> python check_defaults.py [--policy] <file.toml>. The file is read
by gz-ia's own configuration (or policy) reader (known keys, right types and ranges, valid
version rules); a secret (a password, a token) is refused: the zipapp is handed to every
user, and each sets their own.
"""

import sys
from pathlib import Path

from gzia.config_files import read_config_file, read_policy_file
from gzia.contract import GzError
from gzia.settings import SETTINGS_BY_KEY


def check_policy(file: Path) -> int:
    try:
        policy = read_policy_file(file)
    except GzError as exc:
        print(f"build/shiv.sh: GZ_BUILD_POLICY: {exc.message}", file=sys.stderr)
        return 1
    rules = [*policy.settings, *(f"update.{k}" for k in policy.update),
             *(f"agents.{k}" for k in policy.agents)]
    print(f"embedding the policy for {', '.join(rules) or 'nothing'}", file=sys.stderr)
    return 0


def main(file: Path) -> int:
    try:
        values = read_config_file(file)
    except GzError as exc:
        print(f"build/shiv.sh: GZ_BUILD_DEFAULTS: {exc.message}", file=sys.stderr)
        return 1
    secrets = sorted(key for key in values if SETTINGS_BY_KEY[key].secret)
    if secrets:
        print(f"build/shiv.sh: GZ_BUILD_DEFAULTS holds secrets ({', '.join(secrets)}): "
              "a built zipapp is no place for them; let each user set them", file=sys.stderr)
        return 1
    print(f"embedding defaults for {', '.join(sorted(values)) or 'nothing'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "--policy":
        sys.exit(check_policy(Path(sys.argv[2])))
    sys.exit(main(Path(sys.argv[1])))
