"""Every setting gz-ia has, declared once: its key, type, default, environment variable and
help, grouped by what it is about. :mod:`gzia.config` reads the values and says where each
came from; this module only declares them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gzia.contract import Permission
from gzia.credentials import CREDENTIAL_VARIABLES
from gzia.preflight import LANGUAGE_VARIABLES


@dataclass(frozen=True)
class Setting:
    key: str
    type: type
    default: Any
    env: str
    help: str
    secret: bool = False
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    positive: bool = False  # strictly greater than 0
    project: bool = False
    """May be set for one project too, in its ``.harness/config.toml`` (see
    :func:`read_project_file`): the notifications' settings."""
    env_only: bool = False
    """Read from its environment variable alone, never from a file: gz-ia needs it before
    any file is read (the language, tracebacks, which plugins load), or it is the
    original's variable (``GZ_NEXUS_BASE_URL``)."""

    @property
    def credential(self) -> bool:
        """Part of a credential, withheld from agents and from every gz-ia process they
        can see (:data:`gzia.credentials.CREDENTIAL_VARIABLES`); every secret is one."""
        return self.env in CREDENTIAL_VARIABLES


LANGUAGE = Setting("language", str, None, LANGUAGE_VARIABLES[0],
                   "message language (es... for Spanish); else LC_ALL, LC_MESSAGES, LANG",
                   env_only=True)  # read by gzia.i18n, which imports nothing
DEBUG = Setting("debug", bool, False, "GZ_DEBUG",
                "show the traceback of an internal error, like --debug", env_only=True)
DISABLE_PLUGINS = Setting("disable_plugins", str, None, "GZ_DISABLE_PLUGINS",
                          "all, or the names of plugins not to load (comma-separated)",
                          env_only=True)
NEXUS_BASE_URL = Setting("nexus_base_url", str, None, "GZ_NEXUS_BASE_URL",
                         "the original's Nexus download base, mapped to nexus_search_url",
                         env_only=True)

SETTINGS: tuple[Setting, ...] = (
    Setting("default_provider", str, None, "GZ_DEFAULT_PROVIDER",
            "agent used when -p is not given (else the first available)"),
    Setting("default_permission", str, "supervised", "GZ_DEFAULT_PERMISSION",
            "permission level used when -m is not given",
            choices=tuple(Permission)),
    Setting("allow_push", bool, False, "GZ_ALLOW_PUSH",
            "let session agents run git push (like --allow-push)"),
    Setting("direct", bool, False, "GZ_DIRECT",
            "outside a git work tree, run sessions in the directory itself, not isolated "
            "(like --direct)"),
    Setting("kill_grace_ms", int, 100, "GZ_KILL_GRACE_MS",
            "milliseconds between SIGTERM and SIGKILL when stopping an agent", minimum=0),
    Setting("session_log_max_bytes", int, 16 * 1024 * 1024, "GZ_SESSION_LOG_MAX_BYTES",
            "bytes a session's output log reaches before it is rotated (one older part "
            "is kept)", minimum=4096),
    Setting("nexus_search_url", str, None, "GZ_NEXUS_SEARCH_URL",
            "Nexus search API URL used to discover releases"),
    Setting("nexus_user", str, None, "GZ_NEXUS_USER", "Nexus user name"),
    Setting("nexus_password", str, None, "GZ_NEXUS_PASSWORD", "Nexus password", secret=True),
    Setting("forgejo_api_url", str, None, "GZ_FORGEJO_API_URL",
            "Forgejo tags API URL, the fallback release source"),
    Setting("forgejo_token", str, None, "GZ_FORGEJO_TOKEN", "Forgejo access token", secret=True),
    Setting("update_timeout", float, 30.0, "GZ_UPDATE_TIMEOUT",
            "seconds without progress before an update request fails", positive=True),
    Setting("update_public_keys", str, None, "GZ_UPDATE_PUBLIC_KEYS",
            "extra trusted minisign public keys: key lines or .pub paths, comma-separated"),
    Setting("stop_timeout", float, 10.0, "GZ_STOP_TIMEOUT",
            "seconds session stop waits for an agent to end on its own before killing it",
            positive=True),
    Setting("notify_command", list, None, "GZ_NOTIFY_COMMAND",
            "program run for each notification (argv; the event as JSON on its stdin)",
            project=True),
    Setting("notify_webhook", str, None, "GZ_NOTIFY_WEBHOOK",
            "URL each notification is POSTed to (JSON with a Slack-compatible text field)",
            secret=True, project=True),
    Setting("notify_desktop", bool, True, "GZ_NOTIFY_DESKTOP",
            "show notifications on the desktop (notify-send) where it is installed",
            project=True),
    Setting("notify_debounce_ms", int, 3000, "GZ_NOTIFY_DEBOUNCE_MS",
            "milliseconds a state must hold before it is notified", minimum=0, project=True),
    Setting("notify_timeout", float, 10.0, "GZ_NOTIFY_TIMEOUT",
            "seconds each notification channel may take, retries included", positive=True,
            project=True),
    # sandboxed sessions (docs/sandbox.md)
    Setting("sandbox", bool, False, "GZ_SANDBOX",
            "run every session's agent in a bubblewrap sandbox (like --sandbox)"),
    Setting("sandbox_network", str, "allowlist", "GZ_SANDBOX_NETWORK",
            "a sandbox's network: host, none, or allowlist (only the allowed hosts, "
            "through gz-ia's proxy)", choices=("host", "none", "allowlist")),
    Setting("sandbox_allow_hosts", list, None, "GZ_SANDBOX_ALLOW_HOSTS",
            "hosts a sandbox in allowlist mode may reach besides its agent's model API "
            "(name, *.domain, name:port)"),
    Setting("sandbox_ro", list, None, "GZ_SANDBOX_RO",
            "paths a sandbox shows read-only besides the project and the home"),
    Setting("sandbox_rw", list, None, "GZ_SANDBOX_RW",
            "paths a sandbox lets its agent write besides its worktree"),
    Setting("sandbox_hide", list, None, "GZ_SANDBOX_HIDE",
            "paths a sandbox hides besides the usual secrets (other repositories, ...)"),
    # update channels (docs/update.md, "Channels")
    Setting("update_channel", str, "stable", "GZ_UPDATE_CHANNEL",
            "the release channel whose signed manifest update follows (stable, beta, ...)"),
    # New worktrees (docs/sessions.md, "New worktrees")
    Setting("worktree_setup", list, None, "GZ_WORKTREE_SETUP",
            "program run once in each new session worktree (argv, no shell; else the "
            "repository's executable .gz-ia/setup)", project=True),
    Setting("worktree_setup_timeout", float, 600.0, "GZ_WORKTREE_SETUP_TIMEOUT",
            "seconds the worktree setup may run before it is stopped with its process group",
            positive=True, project=True),
    # sub-sessions: sessions an agent starts through Orchy (docs/orchy.md, "Sub-sessions")
    Setting("subsession_max_depth", int, 2, "GZ_SUBSESSION_MAX_DEPTH",
            "how deep sessions started through Orchy may nest (0: none)", minimum=0),
    Setting("subsession_max_children", int, 4, "GZ_SUBSESSION_MAX_CHILDREN",
            "sessions one session may have started through Orchy and still running",
            minimum=0),
    Setting("subsession_max_running", int, 16, "GZ_SUBSESSION_MAX_RUNNING",
            "running sessions a project may have when Orchy starts one more", minimum=1),
    Setting("subsession_idle_timeout", int, 900, "GZ_SUBSESSION_IDLE_TIMEOUT",
            "seconds a sub-session's agent may stay idle before it is stopped (0: never)",
            minimum=0),
    # session push and session pr (gzia.sessions.review)
    Setting("forge", str, "auto", "GZ_FORGE",
            "where session pr opens pull requests: auto (GitHub for a github.com remote, "
            "else Forgejo), forgejo or github", choices=("auto", "forgejo", "github")),
    Setting("forgejo_url", str, None, "GZ_FORGEJO_URL",
            "Forgejo's root URL for session pr, when the remote's URL does not name it"),
    Setting("github_api_url", str, None, "GZ_GITHUB_API_URL",
            "GitHub REST API URL for session pr (default https://api.github.com)"),
    Setting("github_token", str, None, "GZ_GITHUB_TOKEN", "GitHub access token", secret=True),
    # update notice (docs/update.md, "Update notice")
    Setting("update_check", str, "notify", "GZ_UPDATE_CHECK",
            "auto: install new releases in the background; notify: say once a day that "
            "one is available; off: never look", choices=("auto", "notify", "off")),
    Setting("agent_autoupdate", bool, False, "GZ_AGENT_AUTOUPDATE",
            "let agent CLIs update themselves during sessions (off: their updaters are "
            "switched off, so they stay at the installed version)"),
    NEXUS_BASE_URL,
    LANGUAGE,
    DEBUG,
    DISABLE_PLUGINS,
)

SETTINGS_BY_KEY: dict[str, Setting] = {s.key: s for s in SETTINGS}
PROJECT_KEYS = tuple(s.key for s in SETTINGS if s.project)
