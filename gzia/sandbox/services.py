"""What the owner of a sandboxed run serves while it runs (the proxy of ``allowlist``,
gz-ia's commands outside), in one value the holder of a background run receives."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gzia.sandbox.network import NetworkPlan
from gzia.sandbox.outside import OutsidePlan


@dataclass(frozen=True)
class SandboxServices:
    proxy: NetworkPlan | None = None
    outside: OutsidePlan | None = None

    def to_json(self) -> dict[str, Any]:
        return {"proxy": None if self.proxy is None else self.proxy.to_json(),
                "outside": None if self.outside is None else self.outside.to_json()}

    @classmethod
    def from_json(cls, data: object) -> SandboxServices:
        """``ValueError`` for anything :meth:`to_json` did not write."""
        if not isinstance(data, dict):
            raise ValueError("holder spec: sandbox must be an object")
        proxy, outside = data.get("proxy"), data.get("outside")
        return cls(None if proxy is None else NetworkPlan.from_json(proxy),
                   None if outside is None else OutsidePlan.from_json(outside))
