"""``gz-ia notify test``: a sample notification through each configured channel
(docs/sessions.md, "Notifications")."""

from __future__ import annotations

from gzia.cli import output
from gzia.cli.command import group
from gzia.cli.run_options import project_dir
from gzia.i18n import N_


@group("notify", help="Session notifications (command hook, webhook, desktop).")
def app() -> None:
    """A group: ``notify`` alone shows its subcommands."""


@app.command("test", help="Send a sample notification through each configured channel.")
@project_dir
def test_command(directory: str | None) -> None:
    from gzia.contract import IOFailure, NetworkError
    from gzia.sessions.notify import send_test
    from gzia.sessions.project import find_project
    from gzia.views.attention import delivery_lines

    _, deliveries = send_test(find_project(directory))
    data = {"channels": [d.to_json() for d in deliveries]}
    failed = [d.channel for d in deliveries if not d.ok]
    if not failed:
        output.emit(data, lambda: output.lines(delivery_lines(deliveries)))
        return
    output.lines(delivery_lines(deliveries))
    error = NetworkError if "webhook" in failed else IOFailure  # a webhook may answer later
    raise error(N_("the test notification did not go through: {channels}"),
                channels=", ".join(failed), data=data, details={"channels": failed})
