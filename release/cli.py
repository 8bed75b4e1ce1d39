"""``release.py build|sign|publish|all|verify|keygen`` and the channel verbs
``manifest|promote|rollout|yank|rotate-key``: argument parsing and the report.

Human mode prints one line per action on stdout and errors on stderr. ``--json`` prints one
document, gz-ia's envelope: ``{"ok", "data", "errors", "warnings"}``. Exit codes: 0 success,
1 failure, 2 usage error.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import NoReturn

from gzia.contract import GzError, Problem
from release import artifacts, build, channel_steps, publish, signing
from release.errors import ReleaseError, as_problem, exit_code

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULTS_FILE = REPO_ROOT / "release" / "defaults.toml"
POLICY_FILE = REPO_ROOT / "release" / "policy.toml"
Result = tuple[dict[str, object], list[Problem], list[Problem]]


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise ReleaseError("INVALID_INPUT", message, hint=f"{self.prog} --help")


def _common(parser: argparse.ArgumentParser, *, version: bool = True) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON document (one line)")
    parser.add_argument("--dry-run", action="store_true", help="say what would be done")
    if version:
        parser.add_argument("--version", required=True, help="release version X.Y.Z")
    parser.add_argument(
        "--keys-dir", type=Path, default=REPO_ROOT / "release" / "keys",
        help="trusted public keys embedded into gz-ia (default: release/keys)",
    )  # fmt: skip


def _dir_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--dir", type=Path, default=REPO_ROOT / "dist" / "release",
        help="release directory (default: dist/release)",
    )  # fmt: skip


def _build_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--platform", action="append", choices=sorted(artifacts.PLATFORMS),
        help="platform to build (repeatable; default: all)",
    )  # fmt: skip
    parser.add_argument(
        "--work-dir", type=Path, default=REPO_ROOT / "build" / "_work" / "release",
        help="unpacked wheels, reused while the lock is unchanged (default: build/_work/release)",
    )  # fmt: skip
    parser.add_argument(
        "--lock", type=Path, default=REPO_ROOT / "build" / "requirements.lock",
        help="pinned dependencies (default: build/requirements.lock)",
    )  # fmt: skip
    parser.add_argument(
        "--defaults", type=Path, default=DEFAULTS_FILE,
        help="an organisation's defaults file (TOML), built in as gz-ia's lowest settings "
        "layer (default: release/defaults.toml when it exists)",
    )  # fmt: skip
    parser.add_argument(
        "--policy", type=Path, default=POLICY_FILE,
        help="an organisation's admin policy (TOML), built in as a policy users cannot "
        "override (default: release/policy.toml when it exists)",
    )  # fmt: skip


def _sign_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--key-file", type=Path, help="minisign secret key (unencrypted)")


def _publish_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--to", default="nexus,forgejo", help="nexus, forgejo or both (default: nexus,forgejo)"
    )
    parser.add_argument("--nexus-url", help=f"default: ${publish.NEXUS_ENV['url']}")
    parser.add_argument("--nexus-repository", help=f"default: ${publish.NEXUS_ENV['repository']}")
    parser.add_argument("--forgejo-url", help=f"default: ${publish.FORGEJO_ENV['url']}")
    parser.add_argument(
        "--forgejo-repository", help=f"owner/name; default: ${publish.FORGEJO_ENV['repository']}"
    )
    parser.add_argument("--commit", help="commit the tag points at, if Forgejo must create it")


def make_parser() -> Parser:
    parser = Parser(prog="release.py", description="Build, sign and publish gz-ia.")
    steps = parser.add_subparsers(dest="step", required=True, parser_class=Parser)
    options = {
        "build": (_dir_option, _build_options),
        "sign": (_dir_option, _sign_options),
        "verify": (_dir_option,),
        "publish": (_dir_option, _publish_options),
        "all": (_dir_option, _build_options, _sign_options, _publish_options),
    }
    for name, adders in options.items():
        step = steps.add_parser(name)
        _common(step)
        for add in adders:
            add(step)
    for verb in channel_steps.VERBS:
        step = steps.add_parser(verb, help=f"channel manifest: {verb}")
        _common(step, version=False)
        channel_steps.add_channel_options(step, verb)
    keygen = steps.add_parser("keygen", help="write a new unencrypted minisign key pair")
    _common(keygen, version=False)
    keygen.add_argument("--secret-key", type=Path, required=True)
    keygen.add_argument("--public-key", type=Path, required=True)
    return parser


def run_build(args: argparse.Namespace, env: Mapping[str, str]) -> Result:
    plan = build.BuildPlan(
        repo_root=REPO_ROOT,
        version=artifacts.parse_version(args.version),
        platforms=args.platform or list(artifacts.DEFAULT_PLATFORMS),
        out_dir=args.dir.resolve(),
        work_dir=args.work_dir.resolve(),
        keys_dir=args.keys_dir.resolve(),
        lock=args.lock.resolve(),
        defaults=_optional(args.defaults, DEFAULTS_FILE),
        policy=_optional(args.policy, POLICY_FILE),
    )
    report = build.build(plan, args.dry_run)
    warnings = [] if report["keys"] else [_no_key_warning()]
    if report["defaults"] is None:
        warnings.append(Problem(
            "NO_DEFAULTS", "no defaults file: every user of this build must configure the "
            "registries (nexus_search_url, forgejo_api_url) themselves",
            hint="docs/release.md, \"Built-in defaults\"",
        ))  # fmt: skip
    return report, [], warnings


def _optional(path: Path, default: Path) -> Path | None:
    """A file to embed; its default (release/defaults.toml, release/policy.toml) only
    counts when it exists."""
    return None if path == default and not path.is_file() else path.resolve()


def _no_key_warning() -> Problem:
    return Problem(
        "NO_TRUSTED_KEY", "no public key in the keys directory: this build refuses every update"
    )


def run_sign(args: argparse.Namespace, env: Mapping[str, str]) -> Result:
    version = artifacts.parse_version(args.version)
    trusted = signing.load_trusted_keys(args.keys_dir)
    if args.dry_run and not (args.key_file or env.get(signing.KEY_ENV)):
        report = signing.sign_release(args.dir, version, None, trusted, dry_run=True, env=env)
        return report, [], []
    with signing.signing_key(args.key_file, env) as key:
        report = signing.sign_release(
            args.dir, version, key, trusted, dry_run=args.dry_run, env=env
        )
    warnings = []
    if not report["trusted"]:
        warnings.append(Problem(
            "UNTRUSTED_KEY",
            f"key {report['key_id']} is not in {args.keys_dir}: "
            "installed gz-ia will refuse this release",
        ))  # fmt: skip
    return report, [], warnings


def run_verify(args: argparse.Namespace, env: Mapping[str, str]) -> Result:
    version = artifacts.parse_version(args.version)
    trusted = signing.load_trusted_keys(args.keys_dir)
    verified = signing.verify_release(args.dir, version, trusted)
    files = [p.name for p in artifacts.release_files(args.dir, version)]
    report: dict[str, object] = {
        "version": version,
        "files": files,
        "signed_by": verified.id_hex,
    }
    return report, [], []


def run_publish(args: argparse.Namespace, env: Mapping[str, str]) -> Result:
    request = publish.PublishRequest(
        release_dir=args.dir,
        version=artifacts.parse_version(args.version),
        keys_dir=args.keys_dir,
        targets=publish.parse_targets(args.to),
        overrides={
            "nexus.url": args.nexus_url,
            "nexus.repository": args.nexus_repository,
            "forgejo.url": args.forgejo_url,
            "forgejo.repository": args.forgejo_repository,
        },
        commit=args.commit,
        dry_run=args.dry_run,
    )
    report, errors = publish.publish(request, env)
    return report, errors, []


def run_all(args: argparse.Namespace, env: Mapping[str, str]) -> Result:
    report: dict[str, object] = {}
    errors: list[Problem] = []
    warnings: list[Problem] = []
    for name, step in (("build", run_build), ("sign", run_sign), ("publish", run_publish)):
        part, part_errors, part_warnings = step(args, env)
        report[name] = part
        errors += part_errors
        warnings += part_warnings
        if args.dry_run and name == "build":
            break  # nothing to sign or publish until the artifacts exist
    return report, errors, warnings


def run_keygen(args: argparse.Namespace, env: Mapping[str, str]) -> Result:
    report: dict[str, object] = {
        "key_id": None,
        "secret_key": str(args.secret_key),
        "public_key": str(args.public_key),
    }
    if not args.dry_run:
        report["key_id"] = signing.generate_key(args.secret_key, args.public_key).id_hex
    return report, [], []


STEPS: dict[str, Callable[[argparse.Namespace, Mapping[str, str]], Result]] = {
    "build": run_build,
    "sign": run_sign,
    "verify": run_verify,
    "publish": run_publish,
    "all": run_all,
    "keygen": run_keygen,
    **dict.fromkeys(channel_steps.VERBS, channel_steps.run_channel),
}


def _wants_json(argv: list[str]) -> bool:
    probe = argparse.ArgumentParser(add_help=False)
    probe.add_argument("--json", action="store_true")
    return bool(probe.parse_known_args(argv)[0].json)


def main(argv: list[str] | None = None, env: Mapping[str, str] | None = None) -> int:
    """Run one step; the only place that turns results and errors into output and exit codes."""
    from release import report as render

    argv = sys.argv[1:] if argv is None else argv
    env = os.environ if env is None else env
    as_json, dry_run, step = _wants_json(argv), False, "build"
    data: dict[str, object] | None = None
    try:
        args = make_parser().parse_args(argv)
        step, dry_run = args.step, args.dry_run
        data, errors, warnings = STEPS[step](args, env)
    except (ReleaseError, GzError) as exc:
        errors, warnings = [as_problem(exc)], []
    if as_json:
        sys.stdout.write(render.envelope(data, errors, warnings) + "\n")
    else:
        render.human(step, data, errors, warnings, dry_run=dry_run, out=sys.stdout, err=sys.stderr)
    sys.stdout.flush()
    return exit_code(errors)
