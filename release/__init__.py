"""Release tooling for gz-ia: build the zipapps, sign SHA256SUMS, publish to Nexus and Forgejo.

Run it as ``python3 release/release.py <step> ...`` or ``python3 -m release <step> ...`` from
the repository root. docs/release.md is the guide.
"""
