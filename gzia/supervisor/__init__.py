"""Running agents: one owner for every run (process groups, PTYs, signals, tree kill).

Entry points: :func:`gzia.supervisor.run.run_supervised` with a
:class:`gzia.supervisor.command.Command`, :func:`gzia.supervisor.treekill.kill_process_group`
for stopping a group it owns, and :mod:`gzia.supervisor.killtarget` for stopping an agent
this process did not start (its group only when the live process proves it is the
agent's). The package imports nothing itself, so reading process information
(``procinfo``) for ``session list`` stays cheap.
"""
