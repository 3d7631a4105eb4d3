"""Settings: the only code that reads the environment (or `.env`).

One `Settings` object is built at start and passed down. Tests build their own with
``Settings(_env_file=None, ...)`` after clearing the environment.
"""

from __future__ import annotations

import hashlib
import ipaddress
import re
import socket
from datetime import time
from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from config.credentials import CredentialUrl

BUNDLED_VAULT = Path(__file__).resolve().parent.parent / "examples" / "vault"
GIT_VAULT = Path(".sakuin/vault")
"""Where the vault is cloned when WIKI_GIT_URL is set and WIKI_DIR is not."""
INDEX_ROOT = Path(".sakuin/index")
"""Where each vault's own index is kept when INDEX_DIR is not set (`index_dir_for`)."""
POSTGRES_SCHEMES = ("postgresql", "postgres")

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

CommaList = Annotated[tuple[str, ...], NoDecode]
DAY_S = 24 * 60 * 60
_HOST_NAME = re.compile(r"(?=.{1,253}$)(?!-)[A-Za-z0-9-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*\.?")


def _split_commas(value: object) -> object:
    if isinstance(value, str):
        return tuple(part.strip() for part in value.split(",") if part.strip())
    return value


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore", frozen=True)

    slack_bot_token: SecretStr | None = None
    slack_signing_secret: SecretStr | None = None
    slack_app_token: SecretStr | None = None
    slack_api_url: str = "https://slack.com/api/"
    slack_team_id: str | None = Field(default=None, description="refuse requests from other workspaces")

    wiki_dir: Path = BUNDLED_VAULT
    index_dir: Path = INDEX_ROOT
    state_db: Path | CredentialUrl = Field(
        default=Path(".sakuin/state.sqlite3"),
        description="a SQLite file path, or a postgresql://user:password@host:port/db URL",
    )
    wiki_base_url: str | None = None

    digest_channel: CommaList = ()
    digest_time: time = time(9, 0)
    digest_tz: str = "Asia/Tokyo"
    digest_post_empty: bool = False
    digest_include_unpublished: bool = False
    digest_max_items: int = Field(default=25, ge=1, description="more new items than this: a summary")

    port: int = Field(default=3000, ge=1, le=65535)
    host: str = Field(default="0.0.0.0", description="the address `serve` listens on")
    entity_command: str = "/entity"
    wiki_command: str = "/wiki"
    reply_in_thread: bool = True
    allowed_channels: CommaList = ()
    watch_interval: float = Field(
        default=30.0, ge=0.1, le=DAY_S, description="seconds between safety-net scans"
    )
    log_level: str = "INFO"

    ui_language: Literal["ja", "en", "auto"] = "auto"
    follow_up_hours: float = Field(
        default=24.0, ge=0.01, le=24 * 365, description="how long a thread is followed"
    )
    assistant_enabled: bool = False
    agent_experience: Literal["off", "agent", "assistant"] = Field(
        default="off", description="off, agent (the Messages tab) or assistant (the legacy split view)"
    )
    answer_channels: CommaList = ()
    ask_reaction: str = Field(default="mag", description="the reaction that asks sakuin; empty: none")

    llm_base_url: str | None = None
    llm_model: str | None = Field(default=None, validate_default=True)
    llm_api_key: SecretStr | None = None
    llm_timeout: float = Field(default=20.0, ge=0.1, le=600)
    llm_stream: Literal["auto", "off"] = Field(
        default="auto", description="auto: stream the model's answer where Slack streams (threads)"
    )
    llm_stream_wait: float = Field(
        default=3.0, gt=0, description="seconds to wait for the first checked sentence before streaming"
    )

    wiki_git_url: CredentialUrl | None = None
    wiki_git_branch: str | None = None
    wiki_git_interval: float = Field(default=300.0, ge=1, le=DAY_S)
    wiki_git_webhook_secret: SecretStr | None = None

    wiki_inbox_dir: str = Field(
        default="inbox/sakuin/", description="the vault folder questions for the wiki are filed in"
    )
    wiki_inbox_branch: str = Field(default="sakuin/inbox", description="the branch requests are pushed to")
    inbox_answer_days: float = Field(default=30.0, gt=0, description="how long a request is re-asked")
    watch_coalesce_minutes: float = Field(default=10.0, ge=0, description="one message per page per window")

    mcp_token: SecretStr | None = Field(
        default=None, description="the bearer token of `/mcp` on `sakuin serve`; unset: no `/mcp`"
    )

    @model_validator(mode="before")
    @classmethod
    def _git_vault_dir(cls, data: object) -> object:
        """A vault cloned from git goes to its own folder, never over the bundled example vault;
        and each vault has its own index unless INDEX_DIR says where."""
        if isinstance(data, dict) and str(data.get("wiki_git_url") or "").strip() and "wiki_dir" not in data:
            data = {**data, "wiki_dir": GIT_VAULT}
        if isinstance(data, dict) and "index_dir" not in data:
            data = {**data, "index_dir": index_dir_for(Path(str(data.get("wiki_dir") or BUNDLED_VAULT)))}
        return data

    @field_validator("state_db", mode="before")
    @classmethod
    def _state_location(cls, value: object) -> object:
        """A ``postgresql://`` URL stays a URL; anything else without a scheme is a file path."""
        if isinstance(value, str):
            text = value.strip()
            if not text:
                raise ValueError("empty (unset it for the default, .sakuin/state.sqlite3)")
            scheme, separator, rest = text.partition("://")
            if not separator:
                return Path(text)
            if scheme.lower() not in POSTGRES_SCHEMES or not rest:
                raise ValueError(
                    f"expected a file path or a postgresql://user:password@host:port/db URL, got a"
                    f" {scheme}:// URL"
                )
            return CredentialUrl(text)
        return value

    @field_validator("wiki_dir", "index_dir", mode="before")
    @classmethod
    def _folder_named(cls, value: object) -> object:
        """An empty path would silently be the current folder."""
        if isinstance(value, str) and not value.strip():
            raise ValueError("empty (unset it for the default)")
        return value

    @field_validator("host")
    @classmethod
    def _host_address(cls, value: str) -> str:
        text = value.strip()
        try:
            ipaddress.ip_address(text)
        except ValueError:
            if not _HOST_NAME.fullmatch(text):
                raise ValueError(
                    f"{value!r} is neither an IP address nor a host name (such as 0.0.0.0 or 127.0.0.1)"
                ) from None
        return text

    @field_validator("slack_api_url")
    @classmethod
    def _api_base(cls, value: str) -> str:
        """An http(s) base URL; the Web API methods are appended to it, so it ends with ``/``."""
        text = value.strip()
        try:
            parts = urlsplit(text)
            parts.port  # noqa: B018 (a port that is not a number raises here)
        except ValueError:
            parts = None
        if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("expected an http(s) URL such as https://slack.com/api/")
        return text if text.endswith("/") else text + "/"

    @field_validator("digest_channel", "allowed_channels", "answer_channels", mode="before")
    @classmethod
    def _comma_list(cls, value: object) -> object:
        return _split_commas(value)

    @field_validator("digest_tz")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError) as error:
            raise ValueError(
                f"unknown time zone {value!r} (expected an IANA name such as Asia/Tokyo)"
            ) from error
        return value

    @field_validator("entity_command", "wiki_command")
    @classmethod
    def _slash_command(cls, value: str) -> str:
        if not re.fullmatch(r"/[a-z0-9_\-]{1,31}", value):
            raise ValueError("expected a slash command such as /entity (lowercase, 2-32 characters)")
        return value

    @field_validator("agent_experience", mode="before")
    @classmethod
    def _experience_name(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("ask_reaction", mode="before")
    @classmethod
    def _reaction_name(cls, value: object) -> object:
        """``mag``, ``:mag:`` or blank (no reaction asks); Slack's emoji names are lowercase."""
        if not isinstance(value, str):
            return value
        name = value.strip().strip(":").strip()
        if name and not re.fullmatch(r"[a-z0-9_+\-']{1,100}", name):
            raise ValueError("expected an emoji name such as mag (lowercase, as in :mag:), or nothing")
        return name

    @field_validator("wiki_inbox_dir")
    @classmethod
    def _vault_folder(cls, value: str) -> str:
        """A folder inside the vault, as a POSIX path relative to its root, ending in ``/``."""
        parts = [part for part in value.strip().replace("\\", "/").split("/") if part not in ("", ".")]
        if value.strip().startswith(("/", "~")) or ".." in parts or not parts:
            raise ValueError("expected a folder relative to the vault's root, such as inbox/sakuin/")
        if any(part.startswith(".") for part in parts):
            raise ValueError("a folder whose name starts with a dot is not part of the vault")
        return "/".join(parts) + "/"

    @field_validator("wiki_inbox_branch")
    @classmethod
    def _branch_name(cls, value: str) -> str:
        text = value.strip()
        if not re.fullmatch(r"[A-Za-z0-9._/-]{1,200}", text) or text.startswith(("-", "/")) or ".." in text:
            raise ValueError("expected a git branch name such as sakuin/inbox")
        return text

    @field_validator("log_level", mode="before")
    @classmethod
    def _known_level(cls, value: object) -> object:
        if isinstance(value, str) and value.strip().upper() in LOG_LEVELS:
            return value.strip().upper()
        raise ValueError(f"unknown level {value!r} (expected one of {', '.join(LOG_LEVELS)})")

    @field_validator(
        "wiki_base_url",
        "slack_team_id",
        "llm_base_url",
        "llm_model",
        "wiki_git_url",
        "wiki_git_branch",
        mode="before",
    )
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator(
        "slack_bot_token",
        "slack_signing_secret",
        "slack_app_token",
        "llm_api_key",
        "wiki_git_webhook_secret",
        "mcp_token",
        mode="before",
    )
    @classmethod
    def _blank_secret_is_unset(cls, value: object) -> object:
        """A blank secret (``WIKI_GIT_WEBHOOK_SECRET=`` in a `.env`) is no secret: left set, it
        would turn a feature on with an empty key that anyone can match or sign with."""
        text = value.get_secret_value() if isinstance(value, SecretStr) else value
        return None if isinstance(text, str) and not text.strip() else value

    @field_validator("llm_base_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        parts = urlsplit(value) if value is not None else None
        if parts is not None and (parts.scheme not in ("http", "https") or not parts.netloc):
            raise ValueError("expected an http(s) URL such as https://api.openai.com/v1")
        return value

    @field_validator("llm_model")
    @classmethod
    def _model_named(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None and info.data.get("llm_base_url") is not None:
            raise ValueError("required when LLM_BASE_URL is set (the model name sent as `model`)")
        return value

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.digest_tz)

    @property
    def experience(self) -> Literal["off", "agent", "assistant"]:
        """``AGENT_EXPERIENCE``; when it is ``off``, ``ASSISTANT_ENABLED=true`` (the older setting,
        of installs that have the split view) still means ``assistant``."""
        if self.agent_experience == "off" and self.assistant_enabled:
            return "assistant"
        return self.agent_experience


def index_dir_for(vault: Path) -> Path:
    """The default index of ``vault``: one folder per vault under `INDEX_ROOT`, named by a short
    hash of its absolute path, so indexing another vault never rebuilds over this one's."""
    digest = hashlib.sha256(str(vault.expanduser().resolve()).encode("utf-8")).hexdigest()
    return INDEX_ROOT / digest[:12]


class SettingsError(Exception):
    """A setting is missing or invalid; the message names the variable in one line."""


def load_settings(**overrides: object) -> Settings:
    """Build Settings from the environment, turning validation errors into one clear line."""
    try:
        return Settings(**overrides)
    except ValidationError as error:
        raise SettingsError(describe_validation_error(error)) from None
    except UnicodeDecodeError as error:
        raise SettingsError(
            describe_undecodable_env_file(overrides.get("_env_file", ".env"), error)
        ) from None


def describe_undecodable_env_file(env_file: object, error: UnicodeDecodeError) -> str:
    """The variable on the first line of the `.env` file that is not UTF-8."""
    try:
        lines = Path(str(env_file)).read_bytes().splitlines()
    except OSError:
        lines = []
    for number, line in enumerate(lines, start=1):
        try:
            line.decode("utf-8")
        except UnicodeDecodeError:
            name = line.partition(b"=")[0].strip().removeprefix(b"export ").strip()
            variable = name.decode("ascii", "replace").upper() or "setting"
            return f"invalid setting {variable}: line {number} of {env_file} is not UTF-8 text"
    return f"invalid settings file {env_file}: not UTF-8 text ({error.reason})"


def describe_validation_error(error: ValidationError) -> str:
    """Every invalid setting, in one line."""
    problems = []
    for each in error.errors():
        name = str(each["loc"][0]).upper() if each.get("loc") else "setting"
        message = str(each.get("msg", "invalid value")).removeprefix("Value error, ")
        problems.append(f"invalid setting {name}: {message}")
    return "; ".join(problems)


def require(settings: Settings, *names: str, by: str = "this command") -> None:
    """Stop with one line naming every setting a command needs that is missing."""
    missing = [name.upper() for name in names if getattr(settings, name) is None]
    if missing:
        plural = "s" if len(missing) > 1 else ""
        raise SettingsError(f"missing setting{plural} {', '.join(missing)}: required by {by}")


def require_listen_address(settings: Settings) -> None:
    """Stop with one line when ``serve`` could not listen on HOST: a name that does not resolve,
    or an address that is not this machine's (checked before the index is built, not after)."""
    try:
        found = socket.getaddrinfo(
            settings.host, settings.port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
        family, kind, protocol, _, address = found[0]
        with socket.socket(family, kind, protocol) as probe:
            probe.bind((address[0], 0, *address[2:]))
    except (OSError, UnicodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise SettingsError(f"invalid setting HOST: cannot listen on {settings.host!r}: {reason}") from None


def require_wiki_dir(settings: Settings) -> None:
    """Stop with one line when WIKI_DIR is not a folder; with WIKI_GIT_URL set it may also not
    exist yet (the repository is cloned there at start)."""
    path = settings.wiki_dir
    if path.is_dir() or (settings.wiki_git_url is not None and not path.exists()):
        return
    raise SettingsError(f"invalid setting WIKI_DIR: {path} is not a folder")
