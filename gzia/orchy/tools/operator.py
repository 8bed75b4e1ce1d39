"""``orchy_health`` (the kernel and every tool's breaker) and ``orchy_reset``.

Both are the breaker's own controls: no breaker guards them (``guarded=False``), so a
caller's mistakes can never leave the breaker with nothing to reset it.
"""

from __future__ import annotations

from typing import Any

from gzia.contract import InvalidInputError
from gzia.i18n import N_
from gzia.orchy.tool import Tool, ToolContext, ToolPlugin, object_schema


def health(context: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    if context.kernel is not None:
        return context.kernel.to_json()
    return {"tools": [proxy.to_json() for proxy in context.proxies.values()]}


def reset(context: ToolContext, args: dict[str, Any]) -> dict[str, Any]:
    proxy = context.proxies.get(args["tool"])
    if proxy is None:
        known = ", ".join(context.proxies)
        raise InvalidInputError(N_("no tool named '{name}' (tools: {known})"), name=args["tool"],
                                known=known,
                                details={"tool": args["tool"], "known": list(context.proxies)})
    proxy.reset()
    return proxy.to_json()


HEALTH = Tool(
    "orchy_health",
    "Each tool's circuit-breaker state (HEALTHY, DEGRADED, DEAD) and failure counts.",
    object_schema({}), health, guarded=False, read_only=True,
)

RESET = Tool(
    "orchy_reset",
    "Reset a tool's circuit breaker to HEALTHY (ResetCircuitBreaker).",
    object_schema({"tool": {"type": "string", "minLength": 1, "description": "Tool name."}},
                  required=("tool",)),
    reset, guarded=False,
)

plugin = ToolPlugin(lambda context: [HEALTH, RESET])
