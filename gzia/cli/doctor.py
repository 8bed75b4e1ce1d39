"""``gz-ia doctor``: is this machine ready to run sessions and updates?"""

from __future__ import annotations

from gzia.cli import output
from gzia.cli.command import command
from gzia.doctor import is_ready, run_checks
from gzia.i18n import gettext


@command("doctor", help="Report what gz-ia needs and what is missing.")
def app() -> None:
    checks = run_checks()
    ready = is_ready(checks)

    def human() -> None:
        for check in checks:
            mark = "✓" if check.ok else ("✕" if check.required else "!")
            output.line(f"{mark} {check.name:<8} {check.detail}")
            if not check.ok and check.fix:
                output.line(f"  → {check.fix}")
        output.line(gettext("✓ gz-ia is ready")
                     if ready else gettext("✕ gz-ia is not ready: fix the items marked ✕"))

    output.emit({"ready": ready, "checks": [c.to_json() for c in checks]}, human)
