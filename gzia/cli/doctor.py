"""``gz-ia doctor``: is this machine ready to run sessions and updates?"""

from __future__ import annotations

import click

from gzia.cli import output
from gzia.cli.command import command
from gzia.i18n import gettext


@command("doctor", help="Report what gz-ia needs and what is missing.")
@click.option("--check", "fail_if_not_ready", is_flag=True,
              help="Exit 1 when gz-ia is not ready (for health checks).")
def app(fail_if_not_ready: bool) -> None:
    from gzia.doctor import is_ready, run_checks  # its checks' imports: not for --help

    checks = run_checks()
    ready = is_ready(checks)
    if fail_if_not_ready and not ready:
        output.exit_with(1)  # still ok: true, data.ready: false

    def human() -> None:
        for check in checks:
            mark = "✓" if check.ok else ("✕" if check.required else "!")
            output.line(f"{mark} {check.name:<8} {check.detail}")
            if not check.ok and check.fix:
                output.line(f"  → {check.fix}")
        output.line(gettext("✓ gz-ia is ready")
                     if ready else gettext("✕ gz-ia is not ready: fix the items marked ✕"))

    output.emit({"ready": ready, "checks": [c.to_json() for c in checks]}, human)
