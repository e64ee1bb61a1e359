"""Drive a discord.py bot through discord.py's own interaction dispatch, with no network.

Why this shape (DESIGN.md "Tests"): a bot built from slash commands and components can only be
tested honestly if interactions enter where the gateway would deliver them,
``ConnectionState.parse_interaction_create``, so that the CommandTree, the view store (including
``DynamicItem`` matching after a restart) and ``InteractionResponse`` bookkeeping all run for
real. The network side is a ``FakeDiscord`` patched in at discord.py's two HTTP entry points.

Usage::

    async with Harness(make_bot) as h:
        alice = h.user("alice")
        r = await h.slash(alice, h.channel, "game new", game="call_to_glory")
        assert not r.ephemeral
        await h.click(alice, r.message_id, "join")
        await h.restart(make_bot)          # same FakeDiscord, same DB (through the factory)
        await h.click(alice, r.message_id, "game:42:roll")

Every ``slash``/``click``/``select``/``autocomplete``/``submit_modal`` returns after every task
the dispatch spawned has finished (bounded wait), then raises if the fake saw a request Discord
would reject or the bot logged an unhandled exception, so a test can assert right away.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import traceback
from dataclasses import dataclass, field
from typing import Any, Union
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence

import discord
from discord import app_commands

from . import payloads as P
from .fake_discord import FakeDiscord, InteractionRecord, Request, SchemaViolation

BotFactory = Callable[[], Union[discord.Client, Awaitable[discord.Client]]]

#: Coroutine names of tasks that legitimately outlive an interaction and must not be awaited:
#: view/modal timeout timers, ``delete_after`` sleepers.
_LONG_LIVED_CORO_NAMES = ("timeout_task_impl", "inner_call", "_run_timers")


GAME_WORK = ("ai-", "table-")
"""Names of the tasks the bot starts for one game (``AISeats.poke``, ``Tables._refresh_later``)."""


class HarnessError(AssertionError):
    """The test asked for something Discord would not let a user do, or the bot failed."""


@dataclass
class InteractionResult:
    """What one interaction produced, with the interaction's own record in the fake.

    ``message`` and friends read the fake's *current* state, so later edits show up.
    """

    harness: Harness
    record: InteractionRecord
    payload: dict[str, Any]
    requests: list[Request] = field(default_factory=list)

    @property
    def fake(self) -> FakeDiscord:
        return self.harness.fake

    @property
    def response_type(self) -> int | None:
        """Interaction callback type used (4 reply, 5 defer, 6 deferred update, 7 update, 8 autocomplete, 9 modal)."""
        return self.record.response_type

    @property
    def acknowledged(self) -> bool:
        return self.record.acknowledged

    @property
    def message_id(self) -> int | None:
        """The original response message (for 6/7: the message the component is on)."""
        return self.record.original_message_id

    @property
    def message(self) -> dict[str, Any] | None:
        return None if self.message_id is None or self.fake.is_deleted(self.message_id) else self.fake.message(self.message_id)

    @property
    def content(self) -> str | None:
        msg = self.message
        return None if msg is None else msg["content"]

    @property
    def ephemeral(self) -> bool:
        return self.message_id is not None and self.fake.is_ephemeral(self.message_id)

    @property
    def followups(self) -> list[dict[str, Any]]:
        return [self.fake.message(m) for m in self.record.followup_ids if not self.fake.is_deleted(m)]

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        """Autocomplete choices sent back (type 8), or None."""
        return self.record.choices

    @property
    def modal(self) -> dict[str, Any] | None:
        """The modal sent back (type 9), or None."""
        return self.record.modal

    def callback(self) -> Request | None:
        """The interaction callback request, if any."""
        for r in self.requests:
            if r.path.startswith("/interactions/") and r.params.get("interaction_id") == str(self.record.id):
                return r
        return None


class _ErrorLogCollector(logging.Handler):
    """Collects ERROR records: discord.py logs (and swallows) exceptions from commands, views,
    dynamic items and events, so without this a crashing callback would pass silently."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith("discord") or record.exc_info:
            self.records.append(record)


def _fmt_record(rec: logging.LogRecord) -> str:
    text = f"[{rec.name}] {rec.getMessage()}"
    if rec.exc_info and rec.exc_info[1] is not None:
        text += "\n" + "".join(traceback.format_exception(*rec.exc_info)).rstrip()
    return text


def _walk_components(comps: Iterable[Mapping[str, Any]]) -> Iterable[Mapping[str, Any]]:
    for c in comps:
        yield c
        yield from _walk_components(c.get("components", []) or [])
        if isinstance(c.get("accessory"), dict):
            yield from _walk_components([c["accessory"]])
        if isinstance(c.get("component"), dict):
            yield from _walk_components([c["component"]])


class Harness:
    """A bot plus a FakeDiscord plus the world (guild, channels, users) interactions come from.

    Parameters
    ----------
    factory:
        Builds the bot (``commands.Bot`` or a ``Client`` with a ``CommandTree``); may be async.
        It is called again by ``restart`` unless another factory is given. Anything external
        (database path...) is the factory's business, so a restart reopens the same state.
    fake:
        An existing FakeDiscord (e.g. from the ``discord_fake`` fixture); a new one by default.
    drain_timeout:
        Seconds to wait for the tasks an interaction spawned; longer means a hung callback. It is a guard,
        never a wait that passing tests pay: a drain returns as soon as the tasks are done. It is generous
        because an AI seat searches on the CPU, and on a loaded two-core machine a few easy-level moves
        in a row have taken more than 5 s of wall clock.
    raise_logged_errors:
        Turn exceptions discord.py logs and swallows into test failures (default on).
    ready:
        Set the client's ready event and dispatch ``on_ready`` after ``setup_hook``.
    """

    def __init__(
        self,
        factory: BotFactory,
        *,
        fake: FakeDiscord | None = None,
        drain_timeout: float = 30.0,
        setup_drain_timeout: float = 0.5,
        raise_logged_errors: bool = True,
        ready: bool = True,
    ) -> None:
        self.factory = factory
        self.fake = fake or FakeDiscord()
        self.drain_timeout = drain_timeout
        self.setup_drain_timeout = setup_drain_timeout
        self.raise_logged_errors = raise_logged_errors
        self.ready = ready
        self.bot: discord.Client = None  # type: ignore[assignment]
        self.snowflakes = self.fake.snowflakes

        self.guild = P.Guild(id=self.snowflakes.next(), name="Test Guild")
        self.channel = self.text_channel("general")
        self._extra_ignored: list[Callable[[asyncio.Task[Any]], bool]] = []
        self._stack: contextlib.ExitStack | None = None
        self._log = _ErrorLogCollector()
        self._background: set[asyncio.Task[Any]] = set()
        self._start_tasks: set[asyncio.Task[Any]] = set()

    # ------------------------------------------------------------------ lifecycle

    async def __aenter__(self) -> Harness:
        await self.start()
        return self

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        await self.close(check=exc_type is None)

    async def start(self) -> None:
        """Patch discord.py's HTTP, build the bot and run its setup."""
        self._start_tasks = set(asyncio.all_tasks())
        self._stack = contextlib.ExitStack()
        self._stack.enter_context(self.fake.patched())
        logging.getLogger().addHandler(self._log)
        self._stack.callback(logging.getLogger().removeHandler, self._log)
        self.bot = await self._build(self.factory)
        self._raise_problems("bot setup")

    async def _build(self, factory: BotFactory) -> discord.Client:
        """Create the bot and bring it to the state a login would: user, application id, loop, setup_hook."""
        bot = factory()
        if inspect.isawaitable(bot):
            bot = await bot
        state = bot._connection
        state.user = discord.ClientUser(state=state, data=self.fake.bot_user.to_payload())  # type: ignore[arg-type]
        state.application_id = self.fake.application_id
        before = set(asyncio.all_tasks())
        await bot._async_setup_hook()
        await bot.setup_hook()
        if self.ready:
            bot._ready.set()
            bot.dispatch("ready")
        # Wait briefly for what setup spawned (a create_task'ed sync...); what is still running
        # after that (tasks.loop, pollers) is background and never awaited by drain().
        leftover = await self._drain(before, timeout=self.setup_drain_timeout, strict=False)
        # A game's own work (an AI seat thinking, a table edit) is never background, however long a loaded
        # machine takes over it: drain() must wait for it, or a test reads the game before the AI moved.
        self._background |= {t for t in leftover if not t.get_name().startswith(GAME_WORK)}
        return bot

    async def restart(self, factory: BotFactory | None = None) -> discord.Client:
        """Close the bot and build a new one over the same FakeDiscord (messages, DM channels and
        interaction tokens survive), as a process restart would. Returns the new bot."""
        await self.drain()
        await self._close_bot()
        if factory is not None:
            self.factory = factory
        self.bot = await self._build(self.factory)
        self._raise_problems("bot restart")
        return self.bot

    async def _close_bot(self) -> None:
        if self.bot is None:
            return
        old = self.bot
        self.bot = None  # type: ignore[assignment]
        await old.close()
        # Timers of the old bot's views would fire on a dead client; cancel them.
        for t in list(self._background) + self._ignorable_pending():
            t.cancel()
        await asyncio.sleep(0)
        self._background.clear()

    async def close(self, *, check: bool = True) -> None:
        """Close the bot, cancel leftovers, unpatch. With ``check``, raise unreported problems."""
        try:
            if self.bot is not None:
                await self._drain(set(self._start_tasks) | self._background, timeout=self.drain_timeout, strict=False)
                await self._close_bot()
            for t in asyncio.all_tasks():
                if t not in self._start_tasks and t is not asyncio.current_task() and not t.done():
                    t.cancel()
            await asyncio.sleep(0)
        finally:
            if self._stack is not None:
                self._stack.close()
                self._stack = None
        if check:
            self._raise_problems("teardown")

    # ------------------------------------------------------------------ world

    def user(self, username: str, *, locale: str = "en-US", permissions: discord.Permissions | None = None,
             roles: Sequence[int] = (), global_name: str | None = None) -> P.User:
        """A new user (member of the test guild), known to the fake so DMs to them work."""
        u = P.User(id=self.snowflakes.next(), username=username, global_name=global_name, locale=locale,
                   permissions=permissions, roles=tuple(roles))
        self.fake.add_user(u)
        return u

    def text_channel(self, name: str, *, guild: P.Guild | None = None) -> P.Channel:
        """A new guild text channel."""
        ch = P.Channel(id=self.snowflakes.next(), type=0, guild=guild or self.guild, name=name)
        self.fake.add_channel(ch.partial_payload())
        return ch

    def dm(self, user: P.User) -> P.Channel:
        """The user's DM channel with the bot (same id the bot gets when it opens the DM)."""
        return P.Channel(id=self.fake.dm_channel_id(user.id), type=1, guild=None, name=None, recipient=user)

    def channel_by_id(self, channel_id: int) -> P.Channel:
        ch = self.fake.channels.get(int(channel_id))
        if ch is None:
            raise HarnessError(f"unknown channel {channel_id}")
        if ch.get("type") == 1:
            rid = int(ch["recipients"][0]["id"])
            data = self.fake.users[rid]
            return P.Channel(id=int(channel_id), type=1, guild=None, name=None,
                             recipient=P.User(id=rid, username=data["username"]))
        gid = int(ch["guild_id"]) if ch.get("guild_id") else None
        guild = self.guild if gid in (None, self.guild.id) else P.Guild(id=gid)
        return P.Channel(id=int(channel_id), type=int(ch.get("type", 0)), guild=guild, name=ch.get("name"),
                         parent_id=int(ch["parent_id"]) if ch.get("parent_id") else None)

    def ignore_tasks(self, predicate: Callable[[asyncio.Task[Any]], bool]) -> None:
        """Tell ``drain`` not to wait for tasks matching ``predicate`` (long-lived bot tasks)."""
        self._extra_ignored.append(predicate)

    # ------------------------------------------------------------------ draining

    def _ignorable(self, task: asyncio.Task[Any]) -> bool:
        coro = task.get_coro()
        name = getattr(coro, "__qualname__", "") or getattr(getattr(coro, "cr_code", None), "co_name", "")
        if any(n in name for n in _LONG_LIVED_CORO_NAMES):
            return True
        return any(p(task) for p in self._extra_ignored)

    def _ignorable_pending(self) -> list[asyncio.Task[Any]]:
        return [t for t in asyncio.all_tasks() if not t.done() and t not in self._start_tasks and self._ignorable(t)]

    async def _drain(self, baseline: set[asyncio.Task[Any]], *, timeout: float, strict: bool) -> set[asyncio.Task[Any]]:
        """Wait until every task not in ``baseline`` (and not long-lived) is done, including tasks
        those tasks spawn. Returns what is still running at the deadline (raises if ``strict``)."""
        loop = asyncio.get_running_loop()
        me = asyncio.current_task()
        deadline = loop.time() + timeout
        quiet_rounds = 0
        while True:
            pending = {t for t in asyncio.all_tasks() if t is not me and t not in baseline and not t.done()
                       and not self._ignorable(t)}
            if not pending:
                # Callbacks scheduled with call_soon may still create tasks: give them two turns.
                quiet_rounds += 1
                if quiet_rounds > 2:
                    return set()
                await asyncio.sleep(0)
                continue
            quiet_rounds = 0
            remaining = deadline - loop.time()
            if remaining <= 0:
                if strict:
                    names = ", ".join(sorted(t.get_name() + f"({getattr(t.get_coro(), '__qualname__', '?')})"
                                             for t in pending))
                    raise HarnessError(f"tasks still running {timeout}s after the interaction: {names}")
                return pending
            await asyncio.wait(pending, timeout=remaining, return_when=asyncio.FIRST_COMPLETED)

    async def drain(self, timeout: float | None = None) -> None:
        """Wait for every non-background task to finish (e.g. after a test triggers work itself)."""
        await self._drain(set(self._start_tasks) | self._background, timeout=timeout or self.drain_timeout, strict=True)

    def _raise_problems(self, what: str) -> None:
        problems = self.fake.take_problems()
        # With raise_logged_errors off the records stay collected for take_logged_errors(): the test
        # that turned raising off is the one that wants to look at them.
        logged: list[logging.LogRecord] = []
        if self.raise_logged_errors:
            logged, self._log.records = self._log.records, []
        if not problems and not logged:
            return
        parts = [str(p) for p in problems] + ["bot logged an error: " + _fmt_record(r) for r in logged]
        text = f"during {what}:\n" + "\n\n".join(parts)
        cls = type(problems[0]) if problems else HarnessError
        raise cls(text)

    def take_logged_errors(self) -> list[logging.LogRecord]:
        """Return and clear the ERROR records collected so far (for tests that expect one)."""
        out, self._log.records = self._log.records, []
        return out

    # ------------------------------------------------------------------ dispatch

    def _context(self, user: P.User, channel: P.Channel, **overrides: Any) -> P.Context:
        return P.Context(
            user=user, channel=channel,
            locale=overrides.get("locale") or user.locale,
            permissions=overrides.get("permissions") or user.permissions,
            app_permissions=overrides.get("app_permissions"),
            roles=user.roles,
            attachment_size_limit=overrides.get("attachment_size_limit") or P.DEFAULT_ATTACHMENT_SIZE_LIMIT,
        )

    async def dispatch(self, payload: dict[str, Any], what: str = "interaction") -> InteractionResult:
        """Feed one INTERACTION_CREATE payload to the bot and wait for everything it caused.

        Lower level than ``slash``/``click``: the payload is used as given (build it with
        ``tests.discord.payloads``), so tests can send what the helpers refuse to build.
        """
        if self.bot is None:
            raise HarnessError("the harness is not started")
        record = self.fake.register_interaction(payload)
        start = len(self.fake.requests)
        baseline = set(asyncio.all_tasks()) | self._background
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        try:
            await self._drain(baseline, timeout=self.drain_timeout, strict=True)
        finally:
            self._raise_problems(what)
        return InteractionResult(self, record, payload, self.fake.requests[start:])

    # -- application commands

    def _tree(self) -> app_commands.CommandTree:
        tree = getattr(self.bot, "tree", None) or self.bot._connection._command_tree
        if tree is None:
            raise HarnessError("the bot has no CommandTree")
        return tree

    def _resolve_command(self, path: str, channel: P.Channel) -> tuple[dict[str, Any], list[str], int | None]:
        """Find ``"game new"`` in the tree as Discord knows it (``to_dict``): returns the root
        command dict, the path names and the guild id if it is a guild command."""
        names = path.split()
        tree = self._tree()
        cmd = None
        guild_id = None
        if channel.guild is not None:
            cmd = tree.get_command(names[0], guild=discord.Object(channel.guild.id))
            if cmd is not None:
                guild_id = channel.guild.id
        if cmd is None:
            cmd = tree.get_command(names[0])
        if cmd is None:
            known = sorted(c.name for c in tree.get_commands())
            raise HarnessError(f"no slash command /{names[0]} registered (known: {known})")
        if channel.guild is None and getattr(cmd, "guild_only", False):
            raise HarnessError(f"/{names[0]} is guild-only; Discord does not offer it in DMs")
        return cmd.to_dict(tree), names, guild_id

    def _option_value(self, spec: Mapping[str, Any], value: Any, resolved: dict[str, Any], guild: P.Guild | None,
                      *, check: bool) -> Any:
        t = spec["type"]
        name = spec["name"]
        if isinstance(value, app_commands.Choice):
            value = value.value
        if t == 6 or (t == 9 and isinstance(value, P.User)):  # user / mentionable user
            if not isinstance(value, P.User):
                raise HarnessError(f"option {name!r} takes a payloads.User, got {value!r}")
            self.fake.add_user(value)
            r = P.resolved_for_users([value], guild)
            for k, v in r.items():
                resolved.setdefault(k, {}).update(v)
            return str(value.id)
        if t == 7:
            if not isinstance(value, P.Channel):
                raise HarnessError(f"option {name!r} takes a payloads.Channel, got {value!r}")
            ch = value.partial_payload()
            ch.setdefault("permissions", str(P.DEFAULT_MEMBER_PERMISSIONS.value))
            resolved.setdefault("channels", {})[str(value.id)] = ch
            return str(value.id)
        if t == 3:
            value = str(value)
            if check and spec.get("max_length") is not None and len(value) > spec["max_length"]:
                raise HarnessError(f"option {name!r}: Discord caps it at {spec['max_length']} characters")
            if check and spec.get("min_length") is not None and len(value) < spec["min_length"]:
                raise HarnessError(f"option {name!r}: Discord needs at least {spec['min_length']} characters")
        elif t == 4:
            if check:
                value = int(value)
        elif t == 10:
            if check:
                value = float(value)
        elif t == 5:
            value = bool(value)
        elif t in (8, 9, 11):
            raise HarnessError(f"option {name!r}: type {t} is not supported by the harness helpers; "
                               f"build the payload with tests.discord.payloads and use Harness.dispatch")
        if check and spec.get("choices"):
            allowed = [c["value"] for c in spec["choices"]]
            if value not in allowed:
                raise HarnessError(f"option {name!r}: {value!r} is not one of the choices {allowed}")
        if check and t in (4, 10):
            if spec.get("min_value") is not None and value < spec["min_value"]:
                raise HarnessError(f"option {name!r}: {value} is below min_value {spec['min_value']}")
            if spec.get("max_value") is not None and value > spec["max_value"]:
                raise HarnessError(f"option {name!r}: {value} is above max_value {spec['max_value']}")
        return value

    def _command_payload(self, user: P.User, channel: P.Channel, command: str, options: Mapping[str, Any], *,
                         focused: str | None = None, interaction_type: int = P.APPLICATION_COMMAND,
                         **ctx: Any) -> dict[str, Any]:
        root, names, guild_id = self._resolve_command(command, channel)
        spec = root
        for sub in names[1:]:
            nxt = next((o for o in spec.get("options", []) if o["name"] == sub and o["type"] in (1, 2)), None)
            if nxt is None:
                subs = [o["name"] for o in spec.get("options", []) if o["type"] in (1, 2)]
                raise HarnessError(f"/{command}: no subcommand {sub!r} under {spec['name']!r} (has {subs})")
            spec = nxt
        if any(o["type"] in (1, 2) for o in spec.get("options", [])):
            raise HarnessError(f"/{command} is a group; Discord needs a subcommand")
        params = {o["name"]: o for o in spec.get("options", [])}
        check = interaction_type == P.APPLICATION_COMMAND
        unknown = set(options) - set(params)
        if unknown:
            raise HarnessError(f"/{command} has no option(s) {sorted(unknown)} (has {sorted(params)})")
        if check:
            missing = [n for n, o in params.items() if o.get("required") and n not in options]
            if missing:
                raise HarnessError(f"Discord would not send /{command} without required option(s) {missing}")
        resolved: dict[str, Any] = {}
        leaf: list[dict[str, Any]] = []
        for n, o in params.items():  # Discord sends options in declaration order
            if n not in options:
                continue
            is_focused = n == focused
            if is_focused:
                val = str(options[n])
            else:
                val = self._option_value(o, options[n], resolved, channel.guild, check=check)
            leaf.append(P.command_option(n, o["type"], val, focused=is_focused))
        opts: list[dict[str, Any]] = leaf
        # Wrap in subcommand / group from the inside out.
        for depth in range(len(names) - 1, 0, -1):
            parent = root
            for sub in names[1:depth]:
                parent = next(o for o in parent["options"] if o["name"] == sub)
            node = next(o for o in parent["options"] if o["name"] == names[depth])
            opts = [P.command_option(names[depth], node["type"], options=opts)]
        data = P.application_command_data(
            command_id=self.fake.command_id(names[0], guild_id, 1), name=names[0], options=opts,
            guild_id=guild_id, resolved=resolved or None,
        )
        return P.interaction_payload(snowflakes=self.snowflakes, application_id=self.fake.application_id,
                                     type=interaction_type, ctx=self._context(user, channel, **ctx), data=data)

    async def slash(self, user: P.User, channel: P.Channel, command: str, *, options: Mapping[str, Any] | None = None,
                    locale: str | None = None, permissions: discord.Permissions | None = None,
                    app_permissions: discord.Permissions | None = None, **kw_options: Any) -> InteractionResult:
        """Run ``/command`` (space-separated: ``"game new"``) as ``user`` in ``channel``.

        Options are keyword arguments by their Discord name (or ``options={...}`` when a name
        collides with a parameter here). Values are checked as Discord's client would (required,
        choices, min/max, lengths) and raise HarnessError when a user could not send them.
        """
        opts = {**(options or {}), **kw_options}
        payload = self._command_payload(user, channel, command, opts, locale=locale, permissions=permissions,
                                        app_permissions=app_permissions)
        return await self.dispatch(payload, f"/{command}")

    async def autocomplete(self, user: P.User, channel: P.Channel, command: str, focused: str, value: str = "", *,
                           options: Mapping[str, Any] | None = None, locale: str | None = None,
                           **kw_options: Any) -> list[dict[str, Any]]:
        """Type ``value`` into option ``focused`` of ``/command``; return the choices the bot sent
        (each ``{"name", "value"}``). Raises if the bot did not answer."""
        opts = {**(options or {}), **kw_options, focused: value}
        payload = self._command_payload(user, channel, command, opts, focused=focused,
                                        interaction_type=P.AUTOCOMPLETE, locale=locale)
        result = await self.dispatch(payload, f"autocomplete /{command} {focused}")
        if result.choices is None:
            raise HarnessError(f"the bot sent no autocomplete answer for /{command} {focused}={value!r}")
        if len(result.choices) > 25:
            raise HarnessError(f"autocomplete returned {len(result.choices)} choices; Discord allows 25")
        return result.choices

    # -- components

    def _component_context(self, user: P.User, message_id: int | str, custom_id: str) -> tuple[dict[str, Any], Mapping[str, Any], P.Channel]:
        try:
            msg = self.fake.message(message_id)
        except KeyError:
            raise HarnessError(f"no live message {message_id} in the fake") from None
        if int(msg.get("flags", 0)) & 64:
            owner = msg.get("interaction_metadata", {}).get("user", {}).get("id")
            if owner != str(user.id):
                raise HarnessError(f"message {message_id} is ephemeral to user {owner}; {user.username} cannot see it")
        comp = next((c for c in _walk_components(msg.get("components", [])) if c.get("custom_id") == custom_id), None)
        if comp is None:
            ids = [c.get("custom_id") for c in _walk_components(msg.get("components", [])) if c.get("custom_id")]
            raise HarnessError(f"message {message_id} has no component {custom_id!r} (has {ids})")
        if comp.get("disabled"):
            raise HarnessError(f"component {custom_id!r} on message {message_id} is disabled")
        channel = self.channel_by_id(int(msg["channel_id"]))
        if channel.is_dm and channel.recipient and channel.recipient.id != user.id:
            raise HarnessError(f"{user.username} cannot see the DM channel of user {channel.recipient.id}")
        return msg, comp, channel

    async def click(self, user: P.User, message_id: int | str, custom_id: str, *, locale: str | None = None) -> InteractionResult:
        """Click button ``custom_id`` on message ``message_id`` (as stored by the fake)."""
        msg, comp, channel = self._component_context(user, message_id, custom_id)
        if comp.get("type") != 2:
            raise HarnessError(f"component {custom_id!r} is type {comp.get('type')}, not a button; use select()")
        payload = P.interaction_payload(snowflakes=self.snowflakes, application_id=self.fake.application_id,
                                        type=P.MESSAGE_COMPONENT, ctx=self._context(user, channel, locale=locale),
                                        data=P.button_click_data(custom_id), message=msg)
        return await self.dispatch(payload, f"click {custom_id!r}")

    async def select(self, user: P.User, message_id: int | str, custom_id: str, values: Sequence[Any], *,
                     locale: str | None = None) -> InteractionResult:
        """Choose ``values`` in select ``custom_id``. String selects check values against the
        options; user selects take ``payloads.User`` values. Counts must fit min/max_values."""
        msg, comp, channel = self._component_context(user, message_id, custom_id)
        ctype = comp.get("type")
        lo = comp.get("min_values", 1) if comp.get("min_values") is not None else 1
        hi = comp.get("max_values", 1) if comp.get("max_values") is not None else 1
        if not lo <= len(values) <= hi:
            raise HarnessError(f"select {custom_id!r} takes {lo}..{hi} values, got {len(values)}")
        resolved = None
        if ctype == 3:
            allowed = [o["value"] for o in comp.get("options", [])]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise HarnessError(f"select {custom_id!r} has no option(s) {bad} (has {allowed})")
            str_values = [str(v) for v in values]
        elif ctype == 5:
            users = [v for v in values if isinstance(v, P.User)]
            if len(users) != len(values):
                raise HarnessError("a user select takes payloads.User values")
            resolved = P.resolved_for_users(users, channel.guild)
            str_values = [str(u.id) for u in users]
        elif ctype in (6, 7, 8):
            raise HarnessError(f"select type {ctype}: build the payload with payloads.select_data and dispatch()")
        else:
            raise HarnessError(f"component {custom_id!r} is type {ctype}, not a select; use click()")
        payload = P.interaction_payload(snowflakes=self.snowflakes, application_id=self.fake.application_id,
                                        type=P.MESSAGE_COMPONENT, ctx=self._context(user, channel, locale=locale),
                                        data=P.select_data(custom_id, str_values, component_type=ctype, resolved=resolved),
                                        message=msg)
        return await self.dispatch(payload, f"select {custom_id!r}")

    async def submit_modal(self, user: P.User, values: Mapping[str, Any], *, custom_id: str | None = None,
                           opened_by: InteractionResult | None = None, locale: str | None = None) -> InteractionResult:
        """Fill in and submit the modal the bot showed (``opened_by`` or, by default, the latest
        modal with ``custom_id`` / the latest modal at all). ``values`` maps input custom_ids to text."""
        rec = opened_by.record if opened_by is not None else None
        if rec is None:
            for r in reversed(list(self.fake.interactions.values())):
                if r.modal is not None and (custom_id is None or r.modal.get("custom_id") == custom_id):
                    rec = r
                    break
        if rec is None or rec.modal is None:
            raise HarnessError(f"the bot showed no modal{'' if custom_id is None else f' {custom_id!r}'}")
        modal = rec.modal
        for comp in _walk_components(modal.get("components", [])):
            if comp.get("type") != 4:
                continue
            cid = comp.get("custom_id")
            text = str(values.get(cid, comp.get("value") or ""))
            if comp.get("required", True) and not text:
                raise HarnessError(f"modal field {cid!r} is required")
            if text and comp.get("min_length") and len(text) < comp["min_length"]:
                raise HarnessError(f"modal field {cid!r} needs at least {comp['min_length']} characters")
            if comp.get("max_length") and len(text) > comp["max_length"]:
                raise HarnessError(f"modal field {cid!r} allows at most {comp['max_length']} characters")
        channel = self.channel_by_id(rec.channel_id)
        message = None
        if rec.message_id is not None and not self.fake.is_deleted(rec.message_id):
            message = self.fake.message(rec.message_id)
        data = P.modal_submit_data(modal["custom_id"], P.modal_submit_components(modal.get("components", []), values))
        payload = P.interaction_payload(snowflakes=self.snowflakes, application_id=self.fake.application_id,
                                        type=P.MODAL_SUBMIT, ctx=self._context(user, channel, locale=locale),
                                        data=data, message=message)
        return await self.dispatch(payload, f"modal {modal['custom_id']!r}")


__all__ = ["Harness", "HarnessError", "InteractionResult", "BotFactory", "SchemaViolation"]
