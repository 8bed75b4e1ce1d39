"""Self-update: discover → select → download → verify → apply.

Each step is a module with no hidden side effects: :mod:`.sources` (Nexus, then Forgejo)
lists releases, :mod:`.select` picks one, :mod:`.download` streams bytes through the one
HTTP client of :mod:`.client`, :mod:`.verify` checks the minisign signature and the
SHA256SUMS entry, :mod:`.apply` swaps the running zipapp atomically under a lock.
"""
