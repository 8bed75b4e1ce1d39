"""Sessions: the record model, the on-disk store, workspaces (worktree or direct) and
the operations on them (reconcile, diff, merge, delete, prune, events).

Domain code only: nothing here prints or knows about the command line.
"""
