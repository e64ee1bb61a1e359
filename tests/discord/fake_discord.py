"""A fake Discord REST API that sits where discord.py does its HTTP, for tests with no network.

Why here and not a mock of the bot's calls: discord.py funnels every REST call of the bot
through ``discord.http.HTTPClient.request`` and every interaction response / followup through
``discord.webhook.async_.AsyncWebhookAdapter.request`` (DESIGN.md "Tests"). Replacing exactly
those two coroutines keeps everything above them real (message building, views, the view
store, ``InteractionResponse`` bookkeeping) while the fake:

* records every request in order (method, Discord's route template, path params, query, JSON
  body, uploaded files);
* validates every body against Discord's published OpenAPI schema
  (``tests/discord/spec/openapi.json``, vendored with its MIT licence) so a payload Discord would refuse
  fails the test;
* keeps the state Discord would keep (messages with their edits, DM channels, interaction
  acknowledgement, synced commands) and answers with realistic JSON;
* can be told to fail requests the way Discord does (e.g. 403 / 50007 for a closed DM), raising
  the very ``discord.HTTPException`` subclasses discord.py would raise.

Problems the bot cannot see as HTTP errors alone (schema violations, routes with no handler)
are also collected in ``problems``; the harness turns them into test failures after each
interaction, because the bot's own error handlers would otherwise swallow them.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import functools
import json
import pathlib
import pickle
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar
from urllib.parse import quote, unquote

import discord
import discord.http
import discord.webhook.async_
import jsonschema_rs
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from .payloads import Snowflakes, User

#: Discord's published spec, kept in the repository (MIT, licence beside it) so a fresh clone runs its tests.
OPENAPI_PATH = pathlib.Path(__file__).resolve().parent / "spec" / "openapi.json"
_SPEC_URI = "urn:discord-openapi"

EPHEMERAL = 1 << 6
LOADING = 1 << 7
IS_COMPONENTS_V2 = 1 << 15


# =============================================================================================
# OpenAPI: route index and body validation
# =============================================================================================


class SchemaViolation(AssertionError):
    """A request body Discord's schema rejects. An AssertionError so pytest shows it as a failure."""


class UnhandledRoute(AssertionError):
    """The bot called an endpoint the fake has no handler for (add one with ``FakeDiscord.add_handler``)."""


def _copy(value: Any) -> Any:
    """A deep copy for JSON-shaped data (dicts, lists, scalars): what the fake stores and hands out.

    ``copy.deepcopy`` keeps a memo and handles any object, which made it the fake's main cost in long
    games and benchmarks; JSON bodies need neither.
    """
    kind = type(value)
    if kind is dict:
        return {k: _copy(v) for k, v in value.items()}
    if kind is list:
        return [_copy(v) for v in value]
    if kind in (str, int, float, bool) or value is None:
        return value
    return copy.deepcopy(value)


def _freeze(value: Any) -> bytes:
    """A snapshot of JSON-shaped data as one opaque bytes object, for what the fake records.

    Thousands of recorded requests and message versions kept as Python dicts and lists made the garbage
    collector's passes over them the main cost of long tests and benchmarks; bytes are not scanned.
    Pickle rather than JSON text because it is several times faster both ways and keeps every type.
    """
    return pickle.dumps(value, pickle.HIGHEST_PROTOCOL)


def _thaw(frozen: bytes) -> Any:
    """A fresh deep copy of what ``_freeze`` stored."""
    return pickle.loads(frozen)


def _pointer(*parts: str) -> str:
    escaped = "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)
    return quote(escaped, safe="/~@")


def _json_path(path: Sequence[Any]) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "<body>"


def _short(value: Any, limit: int = 80) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class OpenAPISpec:
    """Discord's OpenAPI document, indexed for route matching and body validation.

    Built once per process (see ``load_spec``), with validators cached per (route, method, content type).
    Every body is checked by jsonschema-rs, a compiled validator: the pure-Python ``jsonschema`` walk over
    Discord's deeply nested component ``oneOf``s cost about 5 ms a body (1.5 s of CPU for the 288 bodies of
    the two-player Eldritch Horror game, against 0.003 s now), a large share of the whole-game Discord tests. ``jsonschema`` still runs, but only on a body the fast validator
    rejects, because its error tree is what ``_explain`` turns into the message that names the bad field.
    """

    def __init__(self, path: pathlib.Path = OPENAPI_PATH) -> None:
        if not path.exists():
            raise FileNotFoundError(
                f"Discord OpenAPI spec not found at {path}; it ships with the tests (tests/discord/spec/)"
            )
        self.doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        self._relax_snowflakes()
        self.registry = Registry().with_resource(_SPEC_URI, Resource(contents=self.doc, specification=DRAFT202012))
        self.fast_registry = jsonschema_rs.Registry([(_SPEC_URI, self.doc)], draft=jsonschema_rs.Draft202012)
        # (method, n_segments) -> [(template, segments)], static-heavy templates first so that
        # /messages/@original wins over /messages/{message_id}.
        self._index: dict[tuple[str, int], list[tuple[str, list[str]]]] = {}
        for template, item in self.doc["paths"].items():
            segs = template.strip("/").split("/")
            for method in item:
                if method in ("parameters", "summary", "description", "servers"):
                    continue
                self._index.setdefault((method.upper(), len(segs)), []).append((template, segs))
        for entries in self._index.values():
            entries.sort(key=lambda e: sum(s.startswith("{") for s in e[1]))
        self._validators: dict[tuple[str, str, str], _BodyValidator | None] = {}

    def _relax_snowflakes(self) -> None:
        """Accept snowflakes as JSON integers as well as strings.

        The spec types ``SnowflakeType`` as a numeric string, but Discord's API accepts integers
        and discord.py sends some ids as ints (``recipient_id`` when opening a DM). Without
        this, valid requests would be reported. Changed in memory only; the file is untouched.
        """
        schemas = self.doc["components"]["schemas"]
        original = schemas["SnowflakeType"]
        schemas["SnowflakeType"] = {"anyOf": [original, {"type": "integer", "minimum": 0}]}

    def match(self, method: str, path: str) -> tuple[str, dict[str, str]] | None:
        """Map a concrete path (``/channels/1/messages``) to (spec template, path params)."""
        segs = [unquote(s) for s in path.strip("/").split("/")]
        for template, tsegs in self._index.get((method.upper(), len(segs)), []):
            params: dict[str, str] = {}
            for t, s in zip(tsegs, segs):
                if t.startswith("{") and t.endswith("}"):
                    params[t[1:-1]] = s
                elif t != s:
                    break
            else:
                return template, params
        return None

    def validator(self, method: str, template: str, content_type: str) -> _BodyValidator | None:
        """The validator of one operation's request body, built on first use; None if it takes no body."""
        key = (method.lower(), template, content_type)
        if key not in self._validators:
            op = self.doc["paths"].get(template, {}).get(method.lower(), {})
            content = op.get("requestBody", {}).get("content", {})
            chosen = content_type if content_type in content else ("application/json" if "application/json" in content else None)
            if chosen is None:
                self._validators[key] = None
            else:
                ref = _SPEC_URI + "#/" + _pointer("paths", template, method.lower(), "requestBody", "content", chosen, "schema")
                self._validators[key] = _BodyValidator(ref, self)
        return self._validators[key]

    def check(self, method: str, template: str, body: Any, *, multipart: bool = False) -> list[ValidationError]:
        """Return the leaf errors that explain why ``body`` is invalid (empty list if valid)."""
        v = self.validator(method, template, "multipart/form-data" if multipart else "application/json")
        if v is None or v.fast.is_valid(body):
            return []
        leaves: list[ValidationError] = []
        for err in v.explaining.iter_errors(body):
            leaves.extend(_explain(err))
        if not leaves:
            # The two validators disagree: the body still fails, with the fast validator's own words.
            first = next(iter(v.fast.iter_errors(body)))
            leaves.append(ValidationError(f"{first.message} (jsonschema-rs at /{'/'.join(map(str, first.instance_path))}; "
                                          "Python jsonschema accepts it)"))
        # Deepest first: the deepest error is the one in the branch that was meant.
        leaves.sort(key=lambda e: -len(e.absolute_path))
        return leaves


class _BodyValidator:
    """One request body schema, as a compiled validator that decides and a Python one that explains.

    The Python validator is built only when a body fails: most test runs never need it.
    """

    def __init__(self, ref: str, spec: OpenAPISpec) -> None:
        self.ref = ref
        self.spec = spec
        # Formats stay annotations, as in the Python validator without a format checker.
        self.fast = jsonschema_rs.Draft202012Validator({"$ref": ref}, registry=spec.fast_registry,
                                                       validate_formats=False)

    @functools.cached_property
    def explaining(self) -> Draft202012Validator:
        return Draft202012Validator({"$ref": self.ref}, registry=self.spec.registry)


def _is_discriminator_miss(err: ValidationError) -> bool:
    """An enum/const miss on a ``type`` key, or a bare type mismatch at the branch root.

    These say "this anyOf/oneOf branch is not the one the body meant" (a select is not a
    button), so the branch is dropped from the explanation instead of being reported.
    """
    rel = list(err.relative_path)
    if err.validator in ("enum", "const") and rel == ["type"]:
        return True
    return err.validator == "type" and rel == []


def _explain(err: ValidationError) -> list[ValidationError]:
    """Descend anyOf/oneOf errors into the branches that could have been meant."""
    if not err.context:
        return [err]
    branches: dict[Any, list[ValidationError]] = {}
    for sub in err.context:
        branches.setdefault(sub.relative_schema_path[0] if sub.relative_schema_path else None, []).append(sub)
    live = [errs for errs in branches.values() if not any(_is_discriminator_miss(e) for e in errs)]
    if not live:
        return [err]
    out: list[ValidationError] = []
    for errs in live:
        for e in errs:
            out.extend(_explain(e))
    return out


def _describe(err: ValidationError) -> str:
    where = _json_path(list(err.absolute_path))
    vv, inst = err.validator_value, err.instance
    if err.validator == "maxItems":
        what = f"{len(inst)} items, at most {vv} allowed"
    elif err.validator == "minItems":
        what = f"{len(inst)} items, at least {vv} required"
    elif err.validator == "maxLength":
        what = f"{len(inst)} characters, at most {vv} allowed: {_short(inst, 60)}"
    elif err.validator == "minLength":
        what = f"{len(inst)} characters, at least {vv} required"
    elif err.validator in ("maximum", "minimum"):
        what = f"{inst} violates {err.validator} {vv}"
    else:
        what = err.message if len(err.message) <= 200 else err.message[:197] + "..."
    return f"at {where}: {what}"


def _discord_error_body(errors: Sequence[ValidationError]) -> dict[str, Any]:
    """Build the 400 body Discord sends for a bad form (code 50035, nested ``_errors``)."""
    tree: dict[str, Any] = {}
    for err in errors:
        node = tree
        for part in err.absolute_path:
            node = node.setdefault(str(part), {})
        code = {
            "maxItems": "BASE_TYPE_BAD_LENGTH",
            "minItems": "BASE_TYPE_BAD_LENGTH",
            "maxLength": "BASE_TYPE_MAX_LENGTH",
            "minLength": "BASE_TYPE_MIN_LENGTH",
            "required": "BASE_TYPE_REQUIRED",
        }.get(str(err.validator), "BASE_TYPE_INVALID")
        node.setdefault("_errors", []).append({"code": code, "message": _describe(err)})
    return {"code": 50035, "message": "Invalid Form Body", "errors": tree}


@functools.cache
def load_spec(path: str = str(OPENAPI_PATH)) -> OpenAPISpec:
    """The session-wide spec (cached: loaded and indexed once per process)."""
    return OpenAPISpec(pathlib.Path(path))


# =============================================================================================
# Records
# =============================================================================================


@dataclass
class RecordedFile:
    """One uploaded file of a multipart request."""

    field: str  # e.g. "files[0]"
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None


@dataclass
class Request:
    """One request the bot made, as Discord would have received it."""

    seq: int
    method: str
    path: str  # Discord's route template (OpenAPI spelling), e.g. /channels/{channel_id}/messages
    params: dict[str, str]  # path params by the template's names
    json_frozen: bytes | None  # the JSON body as sent (payload_json for multipart), None without body
    files: list[RecordedFile] = field(default_factory=list)
    query: dict[str, Any] = field(default_factory=dict)
    multipart: bool = False
    via: str = "http"  # "http" (bot REST, HTTPClient) or "webhook" (interaction adapter)
    dpy_path: str = ""  # discord.py's own route template
    status: int = 0
    response_frozen: bytes | None = None  # the JSON answer, None for 204 or an error
    error: dict[str, Any] | None = None

    # Bodies and answers are kept frozen (see ``_freeze``) and thawed on every read.
    @property
    def json(self) -> Any:
        """The JSON body (payload_json for multipart), None without body; a fresh copy on every read."""
        return None if self.json_frozen is None else _thaw(self.json_frozen)

    @property
    def response(self) -> Any:
        """The JSON the fake answered with (None for 204 or an error); a fresh copy on every read."""
        return None if self.response_frozen is None else _thaw(self.response_frozen)

    @property
    def route(self) -> str:
        return f"{self.method} {self.path}"

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    def __repr__(self) -> str:  # compact, for assertion messages
        return f"<Request #{self.seq} {self.method} {self.path} {self.params} -> {self.status}>"


@dataclass
class InteractionRecord:
    """What Discord remembers about an interaction token: who, where, and how it was answered."""

    id: int
    token: str
    type: int
    channel_id: int
    guild_id: int | None
    user: dict[str, Any]
    payload_frozen: bytes  # the INTERACTION_CREATE payload (see ``_freeze``)
    message_id: int | None = None  # the message a component/modal-from-component came from
    response_type: int | None = None
    original_message_id: int | None = None
    loading: bool = False  # deferred with type 5 and no content yet
    followup_ids: list[int] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None  # autocomplete result
    modal: dict[str, Any] | None = None  # modal sent in response

    @property
    def payload(self) -> dict[str, Any]:
        """The INTERACTION_CREATE payload as dispatched; a fresh copy on every read."""
        return _thaw(self.payload_frozen)

    @property
    def acknowledged(self) -> bool:
        return self.response_type is not None


class DiscordError(Exception):
    """Raised by handlers: becomes the HTTP error discord.py raises (``Forbidden``, ``NotFound``...)."""

    def __init__(self, status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def body(self) -> dict[str, Any]:
        data: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.errors:
            data["errors"] = self.errors
        return data


class _FakeResponse:
    """Stands in for aiohttp's ClientResponse inside discord.HTTPException (status, reason, headers)."""

    _REASONS: ClassVar[dict[int, str]] = {
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 429: "Too Many Requests", 500: "Internal Server Error",
    }

    def __init__(self, status: int, url: str) -> None:
        self.status = status
        self.reason = self._REASONS.get(status, "Error")
        self.headers: dict[str, str] = {}
        self.url = url


def _to_exception(err: DiscordError, url: str) -> discord.HTTPException:
    """Mirror discord.py's status -> exception mapping (http.py / webhook/async_.py)."""
    resp = _FakeResponse(err.status, url)
    body = err.body()
    if err.status == 403:
        return discord.Forbidden(resp, body)  # type: ignore[arg-type]
    if err.status == 404:
        return discord.NotFound(resp, body)  # type: ignore[arg-type]
    if err.status >= 500:
        return discord.DiscordServerError(resp, body)  # type: ignore[arg-type]
    return discord.HTTPException(resp, body)  # type: ignore[arg-type]


@dataclass
class _Failure:
    method: str
    path: str
    status: int
    code: int
    message: str
    times: int | None
    when: Callable[[Request], bool] | None


Handler = Callable[[Request], Any]


# =============================================================================================
# The fake
# =============================================================================================


class FakeDiscord:
    """In-memory Discord REST + interaction webhook API.

    State outlives any one bot instance: ``Harness.restart`` swaps the bot while this object
    keeps messages, DM channels and interaction tokens, so a button sent before a restart can be
    clicked after it.
    """

    def __init__(
        self,
        *,
        application_id: int | None = None,
        bot_user: User | None = None,
        snowflakes: Snowflakes | None = None,
        spec: OpenAPISpec | None = None,
        validate: bool = True,
    ) -> None:
        self.snowflakes = snowflakes or Snowflakes()
        self.application_id: int = application_id or self.snowflakes.next()
        self.bot_user: User = bot_user or User(id=self.application_id, username="testbot", bot=True)
        self.spec = spec if spec is not None else load_spec()
        self.validate = validate

        self.requests: list[Request] = []
        #: Failures the bot may not notice (its error handlers can swallow the HTTP error):
        #: schema violations, unserved routes, impossible callbacks. The harness raises them.
        self.problems: list[AssertionError] = []
        self.users: dict[int, dict[str, Any]] = {self.bot_user.id: self.bot_user.to_payload()}
        self.channels: dict[int, dict[str, Any]] = {}
        self.interactions: dict[str, InteractionRecord] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.attachments: dict[int, RecordedFile] = {}

        self._messages: dict[int, dict[str, Any]] = {}
        self._history: dict[int, list[bytes]] = {}  # every version of a message, frozen (see ``_freeze``)
        self._channel_log: dict[int, list[int]] = {}
        self._deleted: set[int] = set()
        self._ephemeral: set[int] = set()
        self._dm_by_user: dict[int, int] = {}
        self._blocked_dms: dict[int, tuple[int, str]] = {}
        self._failures: list[_Failure] = []
        self._command_ids: dict[tuple[int | None, int, str], int] = {}
        self._handlers: dict[tuple[str, str], Handler] = {}
        self._install_default_handlers()

    # ------------------------------------------------------------------ patching

    @contextlib.contextmanager
    def patched(self) -> Iterator[FakeDiscord]:
        """Route discord.py's two HTTP entry points to this fake for the duration of the block.

        Patched on the classes, so every bot instance created inside the block (including the
        one built by a restart) talks to this fake, and so does the default webhook adapter in
        ``discord.webhook.async_.async_context``.
        """
        fake = self

        async def http_request(http_self: Any, route: discord.http.Route, *, files: Any = None, form: Any = None,
                               **kwargs: Any) -> Any:
            return await fake._dispatch(route, via="http", json_body=kwargs.get("json"), form=form, files=files,
                                        query=kwargs.get("params"))

        async def webhook_request(adapter_self: Any, route: discord.http.Route, session: Any = None, *,
                                  payload: Any = None, multipart: Any = None, files: Any = None,
                                  params: Any = None, **kwargs: Any) -> Any:
            return await fake._dispatch(route, via="webhook", json_body=payload, form=multipart, files=files,
                                        query=params)

        orig_http = discord.http.HTTPClient.request
        orig_hook = discord.webhook.async_.AsyncWebhookAdapter.request
        discord.http.HTTPClient.request = http_request  # type: ignore[method-assign]
        discord.webhook.async_.AsyncWebhookAdapter.request = webhook_request  # type: ignore[method-assign]
        try:
            yield self
        finally:
            discord.http.HTTPClient.request = orig_http  # type: ignore[method-assign]
            discord.webhook.async_.AsyncWebhookAdapter.request = orig_hook  # type: ignore[method-assign]

    # ------------------------------------------------------------------ world setup

    def add_user(self, user: User) -> None:
        """Make a user known (needed to open a DM with them, as Discord needs the user to exist)."""
        self.users[user.id] = user.to_payload()

    def add_channel(self, payload: Mapping[str, Any]) -> None:
        """Make a channel known (the harness registers every channel it sends interactions from)."""
        cid = int(payload["id"])
        self.channels.setdefault(cid, dict(payload))
        if payload.get("type") == 1 and payload.get("recipients"):
            self._dm_by_user.setdefault(int(payload["recipients"][0]["id"]), cid)

    def register_interaction(self, payload: Mapping[str, Any]) -> InteractionRecord:
        """Remember an interaction about to be dispatched, so its token works on callback/followups."""
        user = payload.get("member", {}).get("user") or payload.get("user") or {}
        if "user" in payload or "member" in payload:
            self.users.setdefault(int(user["id"]), dict(user))
        self.add_channel(payload["channel"])
        msg = payload.get("message")
        rec = InteractionRecord(
            id=int(payload["id"]),
            token=payload["token"],
            type=int(payload["type"]),
            channel_id=int(payload["channel_id"]),
            guild_id=int(payload["guild_id"]) if payload.get("guild_id") else None,
            user=dict(user),
            payload_frozen=_freeze(payload),
            message_id=int(msg["id"]) if msg else None,
        )
        self.interactions[rec.token] = rec
        return rec

    def dm_channel_id(self, user_id: int) -> int:
        """The id of the DM channel with ``user_id`` (stable: Discord reuses it)."""
        if user_id not in self._dm_by_user:
            cid = self.snowflakes.next()
            user = self.users.get(user_id) or User(id=user_id, username=f"user{user_id % 100000}").to_payload()
            self.users.setdefault(user_id, user)
            self.channels[cid] = {"id": str(cid), "type": 1, "last_message_id": None, "flags": 0,
                                  "recipients": [_copy(user)]}
            self._dm_by_user[user_id] = cid
        return self._dm_by_user[user_id]

    def command_id(self, name: str, guild_id: int | None = None, type: int = 1) -> int:
        """Stable id of a command (as returned by sync, or minted if the bot never synced)."""
        key = (guild_id, type, name)
        if key not in self._command_ids:
            self._command_ids[key] = self.snowflakes.next()
        return self._command_ids[key]

    # ------------------------------------------------------------------ failure injection

    def block_dms(self, user_id: int, *, code: int = 50007, message: str = "Cannot send messages to this user") -> None:
        """Make every message to the DM with ``user_id`` fail with 403 / 50007, as when the user has
        closed DMs from server members or blocked the bot. Opening the DM channel still succeeds,
        as on Discord; the send is what fails."""
        self._blocked_dms[user_id] = (code, message)

    def unblock_dms(self, user_id: int) -> None:
        self._blocked_dms.pop(user_id, None)

    def fail(self, method: str, path: str, *, status: int, code: int, message: str, times: int | None = 1,
             when: Callable[[Request], bool] | None = None) -> None:
        """Fail requests to ``method path`` (spec template) with a Discord error, ``times`` times
        (None: always), optionally only those ``when(request)`` accepts."""
        self._failures.append(_Failure(method.upper(), path, status, code, message, times, when))

    # ------------------------------------------------------------------ queries

    def requests_to(self, method: str | None = None, path: str | None = None) -> list[Request]:
        """Requests filtered by method and/or route template (spec spelling)."""
        return [r for r in self.requests if (method is None or r.method == method.upper())
                and (path is None or r.path == path)]

    def message(self, message_id: int | str) -> dict[str, Any]:
        """Current state of a message (after all edits). KeyError if unknown or deleted."""
        mid = int(message_id)
        if mid in self._deleted:
            raise KeyError(f"message {mid} was deleted")
        return self._current(mid)

    def _current(self, mid: int) -> dict[str, Any]:
        """A fresh copy of a message as it stands: its newest frozen version, which ``pickle.loads`` copies
        faster than ``_copy`` walks the live dict, and test helpers read every message after every click."""
        return _thaw(self._history[mid][-1])

    def message_history(self, message_id: int | str) -> list[dict[str, Any]]:
        """Every version of a message, oldest first (creation, then each edit)."""
        return [_thaw(version) for version in self._history[int(message_id)]]

    def is_deleted(self, message_id: int | str) -> bool:
        return int(message_id) in self._deleted

    def is_ephemeral(self, message_id: int | str) -> bool:
        return int(message_id) in self._ephemeral

    def messages_in(self, channel_id: int | str, *, include_ephemeral: bool = True) -> list[dict[str, Any]]:
        """Live messages of a channel, oldest first."""
        out = []
        for mid in self._channel_log.get(int(channel_id), []):
            if mid in self._deleted or (not include_ephemeral and mid in self._ephemeral):
                continue
            out.append(self._current(mid))
        return out

    def last_message_to(self, channel_id: int | str, *, include_ephemeral: bool = True) -> dict[str, Any] | None:
        """The newest live message in a channel (ephemeral interaction replies included unless told)."""
        for mid in reversed(self._channel_log.get(int(channel_id), [])):
            if mid not in self._deleted and (include_ephemeral or mid not in self._ephemeral):
                return self._current(mid)
        return None

    def dms_to(self, user_id: int | str) -> list[dict[str, Any]]:
        """Messages that reached the DM channel with a user (refused sends are not messages)."""
        cid = self._dm_by_user.get(int(user_id))
        return self.messages_in(cid) if cid is not None else []

    def ephemeral_responses(self, user_id: int | str | None = None) -> list[dict[str, Any]]:
        """Ephemeral messages (interaction replies/followups with flag 64), oldest first,
        optionally only those shown to ``user_id``."""
        out = []
        for mid in sorted(self._ephemeral):
            if mid in self._deleted:
                continue
            msg = self._messages[mid]
            if user_id is not None and msg.get("interaction_metadata", {}).get("user", {}).get("id") != str(user_id):
                continue
            out.append(self._current(mid))
        return out

    def interaction(self, token_or_id: str | int) -> InteractionRecord:
        """The record of an interaction by token or id."""
        if isinstance(token_or_id, str) and token_or_id in self.interactions:
            return self.interactions[token_or_id]
        for rec in self.interactions.values():
            if rec.id == int(token_or_id):
                return rec
        raise KeyError(token_or_id)

    def take_problems(self) -> list[AssertionError]:
        """Return and clear the collected problems (schema violations, unhandled routes)."""
        out, self.problems = self.problems, []
        return out

    def add_handler(self, method: str, path: str, handler: Handler) -> None:
        """Serve another endpoint. ``handler(request)`` returns the JSON answer or raises DiscordError."""
        self._handlers[(method.upper(), path)] = handler

    # ------------------------------------------------------------------ dispatch

    async def _dispatch(self, route: discord.http.Route, *, via: str, json_body: Any, form: Any, files: Any,
                        query: Any) -> Any:
        base = route.BASE
        url = route.url
        raw_path = url[len(base):] if url.startswith(base) else url.split("/api/v10", 1)[-1]
        raw_path = raw_path.split("?", 1)[0]
        matched = self.spec.match(route.method, raw_path)
        if matched is None:
            template, params = route.path, {}
        else:
            template, params = matched

        body = json_body
        recorded_files: list[RecordedFile] = []
        multipart = bool(form)
        if form:
            descriptions = {}
            for f in files or []:
                descriptions[f.filename] = getattr(f, "description", None)
            for part in form:
                value = part.get("value")
                if part.get("name") == "payload_json":
                    body = json.loads(value) if isinstance(value, (str, bytes)) else value
                elif "filename" in part:
                    data = value.read() if hasattr(value, "read") else value
                    if isinstance(data, str):
                        data = data.encode()
                    recorded_files.append(RecordedFile(
                        field=part["name"], filename=part["filename"], data=bytes(data),
                        content_type=part.get("content_type"), description=descriptions.get(part["filename"]),
                    ))

        req = Request(
            seq=len(self.requests), method=route.method.upper(), path=template, params=params,
            json_frozen=None if body is None else _freeze(body), files=recorded_files, query=dict(query or {}),
            multipart=multipart, via=via, dpy_path=route.path,
        )
        self.requests.append(req)
        # Yield once, as real I/O would, so concurrent tasks interleave like they do in production.
        await asyncio.sleep(0)

        try:
            if self.validate and body is not None and matched is not None:
                errors = self.spec.check(req.method, template, body, multipart=multipart)
                if errors:
                    text = "\n  ".join(_describe(e) for e in errors[:5])
                    self.problems.append(SchemaViolation(
                        f"Discord would reject {req.route} (request #{req.seq}):\n  {text}\n  body: {_short(body, 400)}"))
                    raise DiscordError(400, 50035, "Invalid Form Body", _discord_error_body(errors[:5])["errors"])
            self._check_failures(req)
            handler = self._handlers.get((req.method, template))
            if handler is None:
                self.problems.append(UnhandledRoute(
                    f"Bot requested an endpoint the fake does not serve: {req.route} ({url}). "
                    f"Add it with FakeDiscord.add_handler()."
                ))
                raise DiscordError(404, 0, "404: Not Found (no handler in FakeDiscord)")
            result = handler(req)
        except DiscordError as err:
            req.status = err.status
            req.error = err.body()
            raise _to_exception(err, url) from None
        req.status = 200 if result is not None else 204
        req.response_frozen = None if result is None else _freeze(result)
        return result

    def _check_failures(self, req: Request) -> None:
        for f in list(self._failures):
            if f.method == req.method and f.path == req.path and (f.when is None or f.when(req)):
                if f.times is not None:
                    f.times -= 1
                    if f.times <= 0:
                        self._failures.remove(f)
                raise DiscordError(f.status, f.code, f.message)

    # ------------------------------------------------------------------ message building

    def _components(self, comps: Any) -> list[dict[str, Any]]:
        """Request components -> stored components, with the numeric ``id``s Discord assigns.

        Like ``_embeds`` and ``_create_message``, this takes parts of a body decoded for this one request
        (``Request.json`` reads a fresh copy), so it may keep and complete them without copying."""
        out = comps or []
        counter = [0]

        def walk(c: dict[str, Any]) -> None:
            counter[0] += 1
            c.setdefault("id", counter[0])
            for child in c.get("components", []) or []:
                walk(child)
            if isinstance(c.get("accessory"), dict):
                walk(c["accessory"])
            if isinstance(c.get("component"), dict):
                walk(c["component"])

        for c in out:
            walk(c)
        return out

    @staticmethod
    def _embeds(embeds: Any) -> list[dict[str, Any]]:
        out = embeds or []
        for e in out:
            e.setdefault("type", "rich")
            e.setdefault("content_scan_version", 0)
        return out

    def _attachments(self, channel_id: int, body: Mapping[str, Any], files: Sequence[RecordedFile],
                     existing: Sequence[Mapping[str, Any]] = ()) -> list[dict[str, Any]]:
        """Build message attachments from ``attachments`` (kept ids + upload slots) and uploaded files."""
        by_field = {f.field: f for f in files}
        kept = {str(a["id"]): a for a in existing}
        out: list[dict[str, Any]] = []
        spec = body.get("attachments")
        if spec is None:
            spec = [{"id": i, "filename": f.filename} for i, f in enumerate(files)]
            out.extend(_copy(list(existing)))
        for a in spec:
            aid = str(a.get("id"))
            if aid in kept:
                out.append(_copy(kept[aid]))
                continue
            f = by_field.get(f"files[{aid}]")
            if f is None:
                continue
            new_id = self.snowflakes.next()
            self.attachments[new_id] = f
            filename = a.get("filename") or f.filename
            att: dict[str, Any] = {
                "id": str(new_id), "filename": filename, "size": len(f.data),
                "url": f"https://cdn.discordapp.com/attachments/{channel_id}/{new_id}/{filename}",
                "proxy_url": f"https://media.discordapp.net/attachments/{channel_id}/{new_id}/{filename}",
            }
            if a.get("description") or f.description:
                att["description"] = a.get("description") or f.description
            if filename.lower().endswith((".png", ".jpg", ".jpeg", ".gif", ".webp")):
                att["content_type"] = "image/" + filename.rsplit(".", 1)[-1].lower().replace("jpg", "jpeg")
            out.append(att)
        return out

    def _create_message(self, channel_id: int, body: Mapping[str, Any], files: Sequence[RecordedFile], *,
                        interaction: InteractionRecord | None = None, flags: int | None = None,
                        message_type: int = 0) -> dict[str, Any]:
        mid = self.snowflakes.next()
        msg_flags = int(body.get("flags") or 0) if flags is None else flags
        msg: dict[str, Any] = {
            "id": str(mid),
            "type": message_type,
            "channel_id": str(channel_id),
            "author": _copy(self.users[self.bot_user.id]),
            "content": body.get("content") or "",
            "timestamp": Snowflakes.iso_of(mid),
            "edited_timestamp": None,
            "tts": bool(body.get("tts")),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": self._attachments(channel_id, body, files),
            "embeds": self._embeds(body.get("embeds")),
            "components": self._components(body.get("components")),
            "pinned": False,
            "flags": msg_flags,
        }
        if body.get("nonce") is not None:
            msg["nonce"] = body["nonce"]
        if body.get("message_reference"):
            msg["message_reference"] = body["message_reference"]
        if interaction is not None:
            msg["webhook_id"] = str(self.application_id)
            msg["application_id"] = str(self.application_id)
            msg["interaction_metadata"] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": _copy(interaction.user),
                "authorizing_integration_owners": _copy(
                    interaction.payload.get("authorizing_integration_owners", {})),
            }
            if interaction.message_id is not None:
                msg["interaction_metadata"]["interacted_message_id"] = str(interaction.message_id)
        self._messages[mid] = msg
        self._history[mid] = [_freeze(msg)]
        self._channel_log.setdefault(channel_id, []).append(mid)
        if msg_flags & EPHEMERAL:
            self._ephemeral.add(mid)
        if channel_id in self.channels:
            self.channels[channel_id]["last_message_id"] = str(mid)
        return msg

    def _edit_message(self, mid: int, body: Mapping[str, Any], files: Sequence[RecordedFile]) -> dict[str, Any]:
        if mid not in self._messages or mid in self._deleted:
            raise DiscordError(404, 10008, "Unknown Message")
        msg = self._messages[mid]
        if "content" in body:
            msg["content"] = body["content"] or ""
        if "embeds" in body:
            msg["embeds"] = self._embeds(body["embeds"])
        if "components" in body:
            msg["components"] = self._components(body["components"])
        if "attachments" in body or files:
            msg["attachments"] = self._attachments(int(msg["channel_id"]), body, files, msg["attachments"])
        if body.get("flags") is not None:
            # Only SUPPRESS_EMBEDS and IS_COMPONENTS_V2 can change on edit; ephemeral stays as it was.
            keep = int(msg["flags"]) & (EPHEMERAL)
            msg["flags"] = keep | (int(body["flags"]) & ((1 << 2) | IS_COMPONENTS_V2))
        msg["flags"] = int(msg["flags"]) & ~LOADING
        msg["edited_timestamp"] = Snowflakes.iso_of(self.snowflakes.next())
        version = _freeze(msg)
        self._history[mid].append(version)
        return _thaw(version)

    def _delete_message(self, mid: int) -> None:
        if mid not in self._messages or mid in self._deleted:
            raise DiscordError(404, 10008, "Unknown Message")
        self._deleted.add(mid)

    # ------------------------------------------------------------------ handlers

    def _install_default_handlers(self) -> None:
        h = self._handlers
        h[("POST", "/channels/{channel_id}/messages")] = self._h_create_message
        h[("PATCH", "/channels/{channel_id}/messages/{message_id}")] = self._h_edit_message
        h[("DELETE", "/channels/{channel_id}/messages/{message_id}")] = self._h_delete_message
        h[("GET", "/channels/{channel_id}/messages/{message_id}")] = self._h_get_message
        h[("GET", "/channels/{channel_id}/messages")] = self._h_list_messages
        h[("GET", "/channels/{channel_id}")] = self._h_get_channel
        h[("POST", "/channels/{channel_id}/typing")] = lambda r: None
        h[("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji_name}/@me")] = lambda r: None
        h[("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji_name}/@me")] = lambda r: None
        h[("POST", "/channels/{channel_id}/threads")] = self._h_create_thread
        h[("POST", "/users/@me/channels")] = self._h_open_dm
        h[("GET", "/users/{user_id}")] = self._h_get_user
        h[("PUT", "/applications/{application_id}/commands")] = self._h_sync_commands
        h[("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")] = self._h_sync_commands
        h[("GET", "/applications/{application_id}/commands")] = self._h_get_commands
        h[("GET", "/applications/{application_id}/guilds/{guild_id}/commands")] = self._h_get_commands
        h[("POST", "/interactions/{interaction_id}/{interaction_token}/callback")] = self._h_callback
        h[("POST", "/webhooks/{webhook_id}/{webhook_token}")] = self._h_followup
        h[("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")] = self._h_get_original
        h[("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")] = self._h_edit_original
        h[("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/@original")] = self._h_delete_original
        h[("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")] = self._h_get_webhook_message
        h[("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")] = self._h_edit_webhook_message
        h[("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")] = self._h_delete_webhook_message

    def _channel_for(self, channel_id: int) -> dict[str, Any]:
        ch = self.channels.get(channel_id)
        if ch is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        return ch

    def _h_create_message(self, req: Request) -> dict[str, Any]:
        cid = int(req.params["channel_id"])
        ch = self._channel_for(cid)
        if ch.get("type") == 1 and ch.get("recipients"):
            uid = int(ch["recipients"][0]["id"])
            if uid in self._blocked_dms:
                code, message = self._blocked_dms[uid]
                raise DiscordError(403, code, message)
        body = req.json or {}
        if not (body.get("content") or body.get("embeds") or body.get("components") or req.files
                or body.get("sticker_ids") or body.get("poll")):
            raise DiscordError(400, 50006, "Cannot send an empty message")
        return _copy(self._create_message(cid, body, req.files))

    def _message_in_channel(self, req: Request) -> int:
        mid = int(req.params["message_id"])
        msg = self._messages.get(mid)
        if msg is None or mid in self._deleted or msg["channel_id"] != req.params["channel_id"]:
            raise DiscordError(404, 10008, "Unknown Message")
        return mid

    def _h_edit_message(self, req: Request) -> dict[str, Any]:
        mid = self._message_in_channel(req)
        if mid in self._ephemeral:
            raise DiscordError(404, 10008, "Unknown Message")  # ephemeral messages are only reachable by token
        return self._edit_message(mid, req.json or {}, req.files)

    def _h_delete_message(self, req: Request) -> None:
        self._delete_message(self._message_in_channel(req))

    def _h_get_message(self, req: Request) -> dict[str, Any]:
        return self.message(self._message_in_channel(req))

    def _h_list_messages(self, req: Request) -> list[dict[str, Any]]:
        limit = int(req.query.get("limit", 50))
        msgs = self.messages_in(int(req.params["channel_id"]), include_ephemeral=False)
        return list(reversed(msgs))[:limit]

    def _h_get_channel(self, req: Request) -> dict[str, Any]:
        return _copy(self._channel_for(int(req.params["channel_id"])))

    def _h_create_thread(self, req: Request) -> dict[str, Any]:
        """A thread without a starter message (public, type 11) under a text channel."""
        parent = self._channel_for(int(req.params["channel_id"]))
        if parent.get("type") != 0:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        body = req.json or {}
        tid = self.snowflakes.next()
        thread = {"id": str(tid), "type": int(body.get("type", 11)), "name": body.get("name", "thread"),
                  "guild_id": parent.get("guild_id"), "parent_id": parent["id"], "owner_id": str(self.bot_user.id),
                  "thread_metadata": {"archived": False, "auto_archive_duration": int(body.get("auto_archive_duration", 1440)),
                                      "archive_timestamp": "2026-01-01T00:00:00+00:00", "locked": False},
                  "message_count": 0, "member_count": 1, "rate_limit_per_user": 0, "flags": 0}
        self.channels[tid] = thread
        return _copy(thread)

    def _h_open_dm(self, req: Request) -> dict[str, Any]:
        uid = int((req.json or {}).get("recipient_id"))
        if uid not in self.users:
            raise DiscordError(400, 50033, "Invalid Recipient(s)")
        return _copy(self.channels[self.dm_channel_id(uid)])

    def _h_get_user(self, req: Request) -> dict[str, Any]:
        uid = int(req.params["user_id"])
        if uid not in self.users:
            raise DiscordError(404, 10013, "Unknown User")
        return _copy(self.users[uid])

    def _h_sync_commands(self, req: Request) -> list[dict[str, Any]]:
        gid = int(req.params["guild_id"]) if "guild_id" in req.params else None
        out = []
        for cmd in req.json or []:
            ctype = int(cmd.get("type", 1))
            data = {
                "id": str(self.command_id(cmd["name"], gid, ctype)),
                "application_id": str(self.application_id),
                "version": str(self.snowflakes.next()),
                "type": ctype,
                "name": cmd["name"],
                "description": cmd.get("description", ""),
                "options": _copy(cmd.get("options", [])),
                "default_member_permissions": cmd.get("default_member_permissions"),
                "dm_permission": cmd.get("dm_permission", True),
                "contexts": cmd.get("contexts"),
                "integration_types": cmd.get("integration_types", [0]),
                "nsfw": cmd.get("nsfw", False),
            }
            for loc in ("name_localizations", "description_localizations"):
                if cmd.get(loc):
                    data[loc] = _copy(cmd[loc])
            if gid is not None:
                data["guild_id"] = str(gid)
            out.append(data)
        self.commands[gid] = out
        return _copy(out)

    def _h_get_commands(self, req: Request) -> list[dict[str, Any]]:
        gid = int(req.params["guild_id"]) if "guild_id" in req.params else None
        return _copy(self.commands.get(gid, []))

    # -- interactions

    def _interaction_by_token(self, token: str, *, webhook_id: str | None = None,
                              interaction_id: str | None = None) -> InteractionRecord:
        rec = self.interactions.get(token)
        if rec is None or (interaction_id is not None and str(rec.id) != interaction_id):
            raise DiscordError(404, 10062, "Unknown interaction")
        if webhook_id is not None and webhook_id != str(self.application_id):
            raise DiscordError(404, 10015, "Unknown Webhook")
        return rec

    def _h_callback(self, req: Request) -> dict[str, Any]:
        rec = self._interaction_by_token(req.params["interaction_token"], interaction_id=req.params["interaction_id"])
        if rec.acknowledged:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        body = req.json or {}
        ctype = int(body["type"])
        data = body.get("data") or {}
        resource: dict[str, Any] = {"type": ctype}
        if ctype == 4:
            msg = self._create_message(rec.channel_id, data, req.files, interaction=rec,
                                       message_type=20 if rec.type == 2 else 0)
            rec.original_message_id = int(msg["id"])
            resource["message"] = _copy(msg)
        elif ctype == 5:
            flags = LOADING | (int(data.get("flags") or 0) & EPHEMERAL)
            msg = self._create_message(rec.channel_id, {}, [], interaction=rec, flags=flags,
                                       message_type=20 if rec.type == 2 else 0)
            rec.original_message_id = int(msg["id"])
            rec.loading = True
            resource["message"] = _copy(msg)
        elif ctype in (6, 7):
            if rec.message_id is None:
                self.problems.append(AssertionError(f"Callback type {ctype} (update message) answered interaction type {rec.type} "
                                     f"that has no message (request #{req.seq})"))
                raise DiscordError(400, 50035, "Invalid Form Body",
                                   {"type": {"_errors": [{"code": "INTERACTION_TYPE_INVALID",
                                                          "message": "Invalid interaction callback type"}]}})
            rec.original_message_id = rec.message_id
            if ctype == 7:
                resource["message"] = self._edit_message(rec.message_id, data, req.files)
        elif ctype == 8:
            if rec.type != 4:
                self.problems.append(AssertionError(f"Autocomplete result sent to a non-autocomplete interaction (request #{req.seq})"))
                raise DiscordError(400, 50035, "Invalid Form Body")
            rec.choices = _copy(data.get("choices", []))
        elif ctype == 9:
            if rec.type == 5:
                self.problems.append(AssertionError(f"A modal cannot answer a modal submit (request #{req.seq})"))
                raise DiscordError(400, 50035, "Invalid Form Body")
            rec.modal = _copy(data)
        rec.response_type = ctype
        envelope: dict[str, Any] = {
            "interaction": {
                "id": str(rec.id),
                "type": rec.type,
                "activity_instance_id": None,
                "response_message_id": str(rec.original_message_id) if ctype in (4, 5, 7) else None,
                "response_message_loading": ctype == 5,
                "response_message_ephemeral": bool(rec.original_message_id in self._ephemeral) if ctype in (4, 5) else False,
            },
            "resource": resource,
        }
        return envelope

    def _require_acked(self, rec: InteractionRecord) -> None:
        if not rec.acknowledged:
            raise DiscordError(404, 10015, "Unknown Webhook")

    def _h_followup(self, req: Request) -> dict[str, Any] | None:
        rec = self._interaction_by_token(req.params["webhook_token"], webhook_id=req.params["webhook_id"])
        self._require_acked(rec)
        body = req.json or {}
        if rec.loading and rec.original_message_id is not None:
            # The first followup after a "thinking" defer fills the loading message in place.
            msg = self._edit_message(rec.original_message_id, body, req.files)
            rec.loading = False
        else:
            msg = _copy(self._create_message(rec.channel_id, body, req.files, interaction=rec))
        rec.followup_ids.append(int(msg["id"]))
        wait = str(req.query.get("wait", "0")).lower() in ("1", "true")
        return msg if wait else None

    def _original(self, req: Request) -> tuple[InteractionRecord, int]:
        rec = self._interaction_by_token(req.params["webhook_token"], webhook_id=req.params["webhook_id"])
        if rec.original_message_id is None:
            raise DiscordError(404, 10008, "Unknown Message")
        return rec, rec.original_message_id

    def _h_get_original(self, req: Request) -> dict[str, Any]:
        _, mid = self._original(req)
        return self.message(mid)

    def _h_edit_original(self, req: Request) -> dict[str, Any]:
        rec, mid = self._original(req)
        rec.loading = False
        return self._edit_message(mid, req.json or {}, req.files)

    def _h_delete_original(self, req: Request) -> None:
        _, mid = self._original(req)
        self._delete_message(mid)

    def _webhook_message(self, req: Request) -> int:
        rec = self._interaction_by_token(req.params["webhook_token"], webhook_id=req.params["webhook_id"])
        mid = int(req.params["message_id"])
        if mid not in rec.followup_ids and mid != rec.original_message_id:
            raise DiscordError(404, 10008, "Unknown Message")
        return mid

    def _h_get_webhook_message(self, req: Request) -> dict[str, Any]:
        return self.message(self._webhook_message(req))

    def _h_edit_webhook_message(self, req: Request) -> dict[str, Any]:
        return self._edit_message(self._webhook_message(req), req.json or {}, req.files)

    def _h_delete_webhook_message(self, req: Request) -> None:
        self._delete_message(self._webhook_message(req))
