"""Running agents: one owner for every run (process groups, PTYs, signals, tree kill).

Entry points: :func:`gzia.supervisor.run.run_supervised` with a
:class:`gzia.supervisor.command.Command`, and :func:`gzia.supervisor.treekill.kill_process_group`
for stopping a group this process did not start. The package imports nothing itself, so
reading process information (``procinfo``) for ``session list`` stays cheap.
"""
