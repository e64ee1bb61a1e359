"""Builders for the JSON Discord sends to a bot, shaped like the gateway's INTERACTION_CREATE ``d``.

Why this module exists: the bot is tested through discord.py's own parsing
(``ConnectionState.parse_interaction_create``), so the payloads must look like what Discord
really sends, including the fields discord.py 2.7 reads unconditionally
(``attachment_size_limit``, ``version``, ``application_id``, ``token``) and those the bot may
branch on (``locale``, ``guild_locale``, ``context``, ``app_permissions``,
``authorizing_integration_owners``, ``entitlements``). Everything here is plain data with no
discord.py objects, so a payload can be printed, diffed or stored in a test.

Field shapes follow Discord's "Interaction Object" documentation (API v10).
"""

from __future__ import annotations

import datetime as _dt
import secrets
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Mapping, Sequence

import discord

DISCORD_EPOCH_MS = 1420070400000
#: The fixed clock snowflakes start from, so ids (and the timestamps derived from them) are
#: deterministic from run to run. 2025-01-01T00:00:00Z.
BASE_TIME_MS = 1735689600000

#: Default for ``attachment_size_limit``: 10 MiB, the limit of an unboosted guild / DM.
DEFAULT_ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

#: Interaction context types (Discord "Interaction Context Types").
CONTEXT_GUILD = 0
CONTEXT_BOT_DM = 1
CONTEXT_PRIVATE_CHANNEL = 2

#: Interaction types.
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5

#: Permissions a plain member has in an ordinary text channel. Kept as a Permissions object so
#: a test can ``|`` more in; serialised as the decimal string Discord uses.
DEFAULT_MEMBER_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    read_message_history=True,
    use_application_commands=True,
    use_external_emojis=True,
    connect=True,
    speak=True,
)
#: Permissions the bot has in the channel (``app_permissions``).
DEFAULT_APP_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    read_message_history=True,
    use_external_emojis=True,
    manage_messages=True,
)


class Snowflakes:
    """Deterministic snowflake source shared by the payload builders and the fake REST API.

    One counter for everything means ids never collide (a message id never equals a user id),
    and ids increase in creation order, as on Discord, so "latest message" is the largest id.
    """

    def __init__(self, start_ms: int = BASE_TIME_MS) -> None:
        self._ms = start_ms
        self._inc = 0

    def next(self) -> int:
        """Return a new id; each call advances the embedded clock by one millisecond."""
        self._ms += 1
        self._inc = (self._inc + 1) % 4096
        return ((self._ms - DISCORD_EPOCH_MS) << 22) | (1 << 17) | self._inc

    @staticmethod
    def time_of(snowflake: int) -> _dt.datetime:
        return _dt.datetime.fromtimestamp(((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000, tz=_dt.UTC)

    @staticmethod
    def iso_of(snowflake: int) -> str:
        """ISO-8601 timestamp as Discord writes it (``2025-01-01T00:00:00.001000+00:00``)."""
        return Snowflakes.time_of(snowflake).isoformat()


def new_token() -> str:
    """An interaction token: opaque, URL-safe, long, like Discord's."""
    return "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48)


# --------------------------------------------------------------------------------------------
# Entities
# --------------------------------------------------------------------------------------------


@dataclass
class User:
    """A Discord user as a test sees it. ``to_payload`` gives the API "User Object"."""

    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    avatar: str | None = None
    #: Not part of Discord's User object: how this user appears in interactions they make
    #: (client language, computed permissions and role ids as a guild member). Kept here so a
    #: test sets them once per person instead of on every call.
    locale: str = "en-US"
    permissions: discord.Permissions | None = None
    roles: tuple[int, ...] = ()

    def to_payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name if self.global_name is not None else self.username.title(),
            "avatar": self.avatar,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": None,
            "collectibles": None,
            "avatar_decoration_data": None,
        }
        if self.bot:
            data["bot"] = True
        return data

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class Guild:
    """A guild the interactions come from. Only what interactions carry: id, locale, features."""

    id: int
    name: str = "Test Guild"
    preferred_locale: str = "en-US"
    owner_id: int | None = None
    features: list[str] = field(default_factory=list)

    def partial_payload(self) -> dict[str, Any]:
        """The partial ``guild`` object Discord now puts in interactions."""
        return {"id": str(self.id), "locale": self.preferred_locale, "features": list(self.features)}


@dataclass
class Channel:
    """A channel: a guild text channel (``guild`` set, type 0) or a DM with the bot (type 1).

    ``recipient`` is the other user for a DM channel. ``permissions`` is the member's computed
    permission set in that channel, which Discord sends both in ``member.permissions`` and in
    ``channel.permissions``.
    """

    id: int
    type: int = 0
    guild: Guild | None = None
    name: str | None = "general"
    recipient: User | None = None
    parent_id: int | None = None

    @property
    def is_dm(self) -> bool:
        return self.type == 1

    def partial_payload(self, permissions: discord.Permissions | None = None) -> dict[str, Any]:
        """The ``channel`` object of an interaction."""
        if self.is_dm:
            data: dict[str, Any] = {
                "id": str(self.id),
                "type": 1,
                "last_message_id": None,
                "flags": 0,
                "recipients": [self.recipient.to_payload()] if self.recipient else [],
            }
            return data
        data = {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "guild_id": str(self.guild.id) if self.guild else None,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "position": 0,
            "flags": 0,
            "nsfw": False,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "permissions": str((permissions or DEFAULT_MEMBER_PERMISSIONS).value),
        }
        if self.type in (10, 11, 12):  # a thread carries its owner and archive state
            data.update(owner_id=str(self.guild.id if self.guild else 0), message_count=0, member_count=1,
                        thread_metadata={"archived": False, "auto_archive_duration": 10080, "locked": False,
                                         "archive_timestamp": "2026-01-01T00:00:00+00:00"})
        return data


def member_payload(
    user: User,
    guild: Guild,
    *,
    permissions: discord.Permissions | None = None,
    roles: Sequence[int] = (),
    nick: str | None = None,
    joined_at: str = "2024-06-01T12:00:00.000000+00:00",
) -> dict[str, Any]:
    """Guild "Member Object" as sent in an interaction (with ``user`` and ``permissions``)."""
    return {
        "user": user.to_payload(),
        "nick": nick,
        "avatar": None,
        "banner": None,
        "roles": [str(r) for r in roles],
        "joined_at": joined_at,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
        "permissions": str((permissions or DEFAULT_MEMBER_PERMISSIONS).value),
    }


# --------------------------------------------------------------------------------------------
# Interaction payloads
# --------------------------------------------------------------------------------------------


@dataclass
class Context:
    """Who does what where: the parts of an interaction that are not the ``data``.

    ``locale`` is the user's client language; ``guild_locale`` comes from the guild (absent in
    DMs). ``permissions``/``app_permissions`` default to ordinary sets.
    """

    user: User
    channel: Channel
    locale: str = "en-US"
    permissions: discord.Permissions | None = None
    app_permissions: discord.Permissions | None = None
    roles: Sequence[int] = ()
    nick: str | None = None
    entitlements: Sequence[Mapping[str, Any]] = ()
    attachment_size_limit: int = DEFAULT_ATTACHMENT_SIZE_LIMIT


def interaction_payload(
    *,
    snowflakes: Snowflakes,
    application_id: int,
    type: int,
    ctx: Context,
    data: Mapping[str, Any] | None,
    message: Mapping[str, Any] | None = None,
    interaction_id: int | None = None,
    token: str | None = None,
) -> dict[str, Any]:
    """Build one INTERACTION_CREATE ``d`` object.

    Guild context gets ``guild_id``, ``guild``, ``guild_locale`` and ``member`` (with the user
    inside and a permissions string); DM context gets a top-level ``user`` and no guild fields,
    exactly the split discord.py relies on to build ``Member`` versus ``User``.
    """
    channel = ctx.channel
    guild = channel.guild
    payload: dict[str, Any] = {
        "id": str(interaction_id or snowflakes.next()),
        "application_id": str(application_id),
        "type": type,
        "token": token or new_token(),
        "version": 1,
        "channel_id": str(channel.id),
        "channel": channel.partial_payload(ctx.permissions),
        "locale": ctx.locale,
        "app_permissions": str((ctx.app_permissions or DEFAULT_APP_PERMISSIONS).value),
        "entitlements": [dict(e) for e in ctx.entitlements],
        "entitlement_sku_ids": [],
        "attachment_size_limit": ctx.attachment_size_limit,
    }
    if data is not None:
        payload["data"] = dict(data)
    if guild is not None:
        payload["guild_id"] = str(guild.id)
        payload["guild"] = guild.partial_payload()
        payload["guild_locale"] = guild.preferred_locale
        payload["member"] = member_payload(ctx.user, guild, permissions=ctx.permissions, roles=ctx.roles, nick=ctx.nick)
        payload["authorizing_integration_owners"] = {"0": str(guild.id)}
        payload["context"] = CONTEXT_GUILD
    else:
        payload["user"] = ctx.user.to_payload()
        # Guild-installed app used in its bot's DM: the GUILD_INSTALL owner is "0".
        payload["authorizing_integration_owners"] = {"0": "0"}
        payload["context"] = CONTEXT_BOT_DM if channel.is_dm else CONTEXT_PRIVATE_CHANNEL
    if message is not None:
        payload["message"] = dict(message)
    return payload


def command_option(name: str, type: int, value: Any = None, *, options: Sequence[Mapping[str, Any]] | None = None,
                   focused: bool = False) -> dict[str, Any]:
    """One entry of ``data.options``: a value option, or a subcommand (group) with nested options."""
    opt: dict[str, Any] = {"name": name, "type": type}
    if options is not None:
        opt["options"] = [dict(o) for o in options]
    else:
        opt["value"] = value
    if focused:
        opt["focused"] = True
    return opt


def application_command_data(
    *,
    command_id: int,
    name: str,
    options: Sequence[Mapping[str, Any]] = (),
    guild_id: int | None = None,
    resolved: Mapping[str, Any] | None = None,
    command_type: int = 1,
) -> dict[str, Any]:
    """``data`` of a type 2 (application command) or type 4 (autocomplete) interaction.

    ``guild_id`` is present only for guild-registered commands; discord.py's CommandTree uses it
    to pick the guild command table.
    """
    data: dict[str, Any] = {"id": str(command_id), "name": name, "type": command_type}
    if options:
        data["options"] = [dict(o) for o in options]
    if guild_id is not None:
        data["guild_id"] = str(guild_id)
    if resolved:
        data["resolved"] = dict(resolved)
    return data


def button_click_data(custom_id: str) -> dict[str, Any]:
    """``data`` of a button click (type 3, component_type 2)."""
    return {"custom_id": custom_id, "component_type": 2}


def select_data(custom_id: str, values: Sequence[str], *, component_type: int = 3,
                resolved: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``data`` of a select menu choice. String selects are component_type 3; user/role/channel
    selects (5-8) also carry ``resolved``."""
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type, "values": list(values)}
    if resolved:
        data["resolved"] = dict(resolved)
    return data


def modal_submit_data(custom_id: str, components: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """``data`` of a modal submit (type 5): the modal's custom_id and its filled-in components."""
    return {"custom_id": custom_id, "components": [dict(c) for c in components]}


def modal_submit_components(modal_components: Sequence[Mapping[str, Any]], values: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Turn the components of a modal the bot sent into what Discord sends back on submit.

    Mirrors the layout (action rows of type 1, or labels of type 18 wrapping one component):
    text inputs (4) come back with ``value``, selects (3, 5-8) with ``values``. Items the test
    gives no value for come back empty, as an untouched optional field does.
    """
    def filled(comp: Mapping[str, Any]) -> dict[str, Any] | None:
        ctype = comp.get("type")
        cid = comp.get("custom_id")
        if ctype == 4:
            out = {"type": 4, "custom_id": cid, "value": str(values.get(cid, comp.get("value") or ""))}
        elif ctype in (3, 5, 6, 7, 8):
            v = values.get(cid, [])
            out = {"type": ctype, "custom_id": cid, "values": [str(x) for x in ([v] if isinstance(v, str) else v)]}
        elif ctype == 19:  # file upload
            v = values.get(cid, [])
            out = {"type": ctype, "custom_id": cid, "values": [str(x) for x in v]}
        elif ctype == 10:  # text display, echoed back without a value
            out = {"type": 10}
        else:
            return None
        if "id" in comp:
            out["id"] = comp["id"]
        return out

    result: list[dict[str, Any]] = []
    for top in modal_components:
        if top.get("type") == 1:
            inner = [f for f in (filled(c) for c in top.get("components", [])) if f]
            row: dict[str, Any] = {"type": 1, "components": inner}
            if "id" in top:
                row["id"] = top["id"]
            result.append(row)
        elif top.get("type") == 18:
            f = filled(top.get("component", {}))
            lab: dict[str, Any] = {"type": 18, "component": f}
            if "id" in top:
                lab["id"] = top["id"]
            result.append(lab)
        else:
            f = filled(top)
            if f:
                result.append(f)
    return result


def resolved_for_users(users: Sequence[User], guild: Guild | None) -> dict[str, Any]:
    """``resolved`` block for user options/selects: users, plus members (without ``user``) in a guild."""
    out: dict[str, Any] = {"users": {str(u.id): u.to_payload() for u in users}}
    if guild is not None:
        members = {}
        for u in users:
            m = member_payload(u, guild)
            m.pop("user")
            members[str(u.id)] = m
        out["members"] = members
    return out
