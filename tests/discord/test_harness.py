"""Self-tests of the Discord test harness, with a tiny bot defined here.

They prove each path the real bot's tests will lean on: a slash reply through the CommandTree,
the ephemeral flag, component clicks through the view store (a DynamicItem surviving a restart
included), DMs and their 50007 refusal, autocomplete, schema rejection of a bad payload, and
multipart uploads recorded with their bytes.
"""

from __future__ import annotations

import io
import re
import sqlite3
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from . import payloads as P
from .fake_discord import FakeDiscord, OpenAPISpec, SchemaViolation, load_spec
from .harness import Harness, HarnessError

# --------------------------------------------------------------------------------------------
# The tiny bot
# --------------------------------------------------------------------------------------------


class Counter(discord.ui.DynamicItem[discord.ui.Button], template=r"counter:(?P<n>\d+)"):
    """A persistent button whose whole state is in its custom_id; its callback edits the message.
    It works after a restart only if the new bot registers it (``add_dynamic_items``)."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {n}", style=discord.ButtonStyle.primary, custom_id=f"counter:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str]) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: TinyBot = interaction.client  # type: ignore[assignment]
        bot.db_log("counter", self.n)
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(self.n + 1))
        await interaction.response.edit_message(content=f"count={self.n + 1}", view=view)


class Panel(discord.ui.View):
    """A plain (non-persistent) view: a button and a string select, dispatched by message id."""

    def __init__(self, n_options: int = 3) -> None:
        super().__init__(timeout=180)
        self.pick.options = [discord.SelectOption(label=f"Option {i}", value=f"o{i}") for i in range(n_options)]

    @discord.ui.button(label="Hello", custom_id="panel:hello")
    async def hello(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message(f"hello {interaction.user.name}", ephemeral=True)

    @discord.ui.select(custom_id="panel:pick", placeholder="Pick one")
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.edit_message(content=f"picked {select.values[0]}")


class NameModal(discord.ui.Modal, title="Name"):
    name = discord.ui.TextInput(label="Name", custom_id="name", max_length=20)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hi {self.name.value}", ephemeral=True)


class TinyBot(commands.Bot):
    """State lives in an sqlite file given by the factory, so a restart sees the same data."""

    def __init__(self, db_path: Path) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.none())
        self.db_path = db_path
        with sqlite3.connect(db_path) as db:
            db.execute("CREATE TABLE IF NOT EXISTS log (what TEXT, n INTEGER)")

    def db_log(self, what: str, n: int) -> None:
        with sqlite3.connect(self.db_path) as db:
            db.execute("INSERT INTO log VALUES (?, ?)", (what, n))

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Counter)
        self.tree.add_command(game)
        self.tree.add_command(panel)
        self.tree.add_command(dm_me)
        self.tree.add_command(bad_select)
        self.tree.add_command(upload)
        self.tree.add_command(ask_name)
        self.tree.add_command(think)
        await self.tree.sync()


game = app_commands.Group(name="game", description="Games")
GAMES = ["call_to_glory", "chess", "checkers", "cards"]


@game.command(name="new", description="Start a game")
@app_commands.describe(game="Which game", seats="Number of seats")
async def game_new(interaction: discord.Interaction, game: str, seats: app_commands.Range[int, 2, 6] = 2) -> None:
    view = discord.ui.View(timeout=None)
    view.add_item(Counter(0))
    await interaction.response.send_message(f"new {game} for {seats} ({interaction.locale.value})", view=view)


@game_new.autocomplete("game")
async def game_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=g.replace("_", " ").title(), value=g) for g in GAMES if g.startswith(current)]


@app_commands.command(name="panel", description="A panel with a button and a select")
async def panel(interaction: discord.Interaction, private: bool = False) -> None:
    await interaction.response.send_message("panel", view=Panel(), ephemeral=private)


@app_commands.command(name="dm_me", description="Send me a DM")
async def dm_me(interaction: discord.Interaction) -> None:
    try:
        await interaction.user.send("psst, your hand: A, K")
    except discord.Forbidden as e:
        await interaction.response.send_message(f"cannot DM you (code {e.code})", ephemeral=True)
    else:
        await interaction.response.send_message("check your DMs", ephemeral=True)


@app_commands.command(name="bad_select", description="Sends a select Discord refuses")
async def bad_select(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("too many", view=Panel(n_options=26))


@app_commands.command(name="upload", description="Sends a file")
async def upload(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("board", file=discord.File(io.BytesIO(b"\x89PNG fake"), filename="board.png"))
    await interaction.followup.send("log", file=discord.File(io.BytesIO(b"line1\nline2\n"), filename="log.txt"), ephemeral=True)


@app_commands.command(name="ask_name", description="Opens a modal")
async def ask_name(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(NameModal())


@app_commands.command(name="think", description="Defers then follows up, then edits")
async def think(interaction: discord.Interaction) -> None:
    await interaction.response.defer(thinking=True)
    await interaction.followup.send("thought")
    await interaction.edit_original_response(content="thought harder")


# --------------------------------------------------------------------------------------------
# Fixtures
# --------------------------------------------------------------------------------------------


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "tiny.sqlite3"


@pytest.fixture
async def h(harness: Any, db_path: Path) -> Harness:
    return await harness(lambda: TinyBot(db_path))


# --------------------------------------------------------------------------------------------
# Tests
# --------------------------------------------------------------------------------------------


async def test_setup_synced_commands_through_the_fake(h: Harness) -> None:
    sync = h.fake.requests_to("PUT", "/applications/{application_id}/commands")
    assert len(sync) == 1
    assert sync[0].params == {"application_id": str(h.fake.application_id)}
    assert {c["name"] for c in sync[0].json} == {"game", "panel", "dm_me", "bad_select", "upload", "ask_name", "think"}
    assert h.bot.user is not None and h.bot.user.id == h.fake.bot_user.id


async def test_slash_subcommand_reply(h: Harness) -> None:
    alice = h.user("alice", locale="fr")
    r = await h.slash(alice, h.channel, "game new", game="call_to_glory", seats=4)
    assert r.response_type == 4
    assert not r.ephemeral
    assert r.content == "new call_to_glory for 4 (fr)"
    assert h.fake.last_message_to(h.channel.id)["id"] == str(r.message_id)
    cb = r.callback()
    assert cb is not None and cb.via == "webhook"
    assert cb.path == "/interactions/{interaction_id}/{interaction_token}/callback"
    # The payload really had the subcommand group shape.
    assert r.payload["data"]["options"][0] == {"name": "new", "type": 1, "options": [
        {"name": "game", "type": 3, "value": "call_to_glory"}, {"name": "seats", "type": 4, "value": 4}]}


async def test_slash_refuses_what_discord_would(h: Harness) -> None:
    alice = h.user("alice")
    with pytest.raises(HarnessError, match="required"):
        await h.slash(alice, h.channel, "game new")
    with pytest.raises(HarnessError, match="above max_value"):
        await h.slash(alice, h.channel, "game new", game="chess", seats=9)
    with pytest.raises(HarnessError, match="no option"):
        await h.slash(alice, h.channel, "game new", game="chess", colour="red")


async def test_ephemeral_flag_and_view_click(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    r = await h.slash(alice, h.channel, "panel", private=True)
    assert r.ephemeral
    assert r.message["flags"] & 64
    assert [m["id"] for m in h.fake.ephemeral_responses(alice.id)] == [str(r.message_id)]
    # Only alice sees an ephemeral message.
    with pytest.raises(HarnessError, match="ephemeral"):
        await h.click(bob, r.message_id, "panel:hello")
    click = await h.click(alice, r.message_id, "panel:hello")
    assert click.ephemeral and click.content == "hello alice"


async def test_select_through_view_store(h: Harness) -> None:
    alice = h.user("alice")
    r = await h.slash(alice, h.channel, "panel")
    sel = await h.select(alice, r.message_id, "panel:pick", ["o2"])
    assert sel.response_type == 7
    assert sel.message_id == r.message_id
    assert h.fake.message(r.message_id)["content"] == "picked o2"
    assert len(h.fake.message_history(r.message_id)) == 2
    with pytest.raises(HarnessError, match="no option"):
        await h.select(alice, r.message_id, "panel:pick", ["nope"])
    with pytest.raises(HarnessError, match="no component"):
        await h.click(alice, r.message_id, "panel:missing")


async def test_dynamic_item_survives_restart(h: Harness, db_path: Path) -> None:
    alice = h.user("alice")
    r = await h.slash(alice, h.channel, "game new", game="chess")
    first = await h.click(alice, r.message_id, "counter:0")
    assert first.response_type == 7
    assert h.fake.message(r.message_id)["content"] == "count=1"

    old_bot = h.bot
    await h.restart(lambda: TinyBot(db_path))
    assert h.bot is not old_bot and old_bot.is_closed()

    # The message (and its button counter:1) lives in the fake; the new bot matches it by regex.
    await h.click(alice, r.message_id, "counter:1")
    msg = h.fake.message(r.message_id)
    assert msg["content"] == "count=2"
    assert msg["components"][0]["components"][0]["custom_id"] == "counter:2"
    with sqlite3.connect(db_path) as db:
        assert db.execute("SELECT n FROM log ORDER BY rowid").fetchall() == [(0,), (1,)]


async def test_plain_view_is_gone_after_restart(h: Harness, db_path: Path) -> None:
    """Non-persistent views die with the process: the click reaches no callback (and Discord
    would show "This interaction failed")."""
    alice = h.user("alice")
    r = await h.slash(alice, h.channel, "panel")
    await h.restart()
    click = await h.click(alice, r.message_id, "panel:hello")
    assert not click.acknowledged


async def test_dm_send_and_50007_refusal(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    ok = await h.slash(alice, h.channel, "dm_me")
    assert ok.content == "check your DMs"
    assert [m["content"] for m in h.fake.dms_to(alice.id)] == ["psst, your hand: A, K"]
    assert h.fake.requests_to("POST", "/users/@me/channels")[0].json == {"recipient_id": alice.id}

    h.fake.block_dms(bob.id)
    refused = await h.slash(bob, h.channel, "dm_me")
    assert refused.ephemeral
    assert refused.content == "cannot DM you (code 50007)"
    assert h.fake.dms_to(bob.id) == []
    failed = [r for r in h.fake.requests if r.status == 403]
    assert failed and failed[0].error == {"code": 50007, "message": "Cannot send messages to this user"}


async def test_slash_in_dm_context(h: Harness) -> None:
    alice = h.user("alice")
    r = await h.slash(alice, h.dm(alice), "panel")
    assert "guild_id" not in r.payload and r.payload["context"] == P.CONTEXT_BOT_DM
    assert r.payload["user"]["id"] == str(alice.id)
    assert h.fake.last_message_to(h.dm(alice).id)["content"] == "panel"


async def test_autocomplete(h: Harness) -> None:
    alice = h.user("alice")
    choices = await h.autocomplete(alice, h.channel, "game new", "game", "ch")
    assert choices == [{"name": "Chess", "value": "chess"}, {"name": "Checkers", "value": "checkers"}]


async def test_schema_rejects_26_option_select(h: Harness) -> None:
    alice = h.user("alice")
    with pytest.raises(SchemaViolation, match=r"options: 26 items, at most 25"):
        await h.slash(alice, h.channel, "bad_select")
    # Nothing reached the channel: Discord refused it with 400 / 50035.
    assert h.fake.last_message_to(h.channel.id) is None
    assert h.fake.requests[-1].error["code"] == 50035


def test_schema_validator_catches_label_and_custom_id(discord_spec: Any) -> None:
    def body(label: str, custom_id: str) -> dict[str, Any]:
        return {"type": 4, "data": {"content": "x", "components": [{"type": 1, "components": [
            {"type": 2, "style": 1, "label": label, "custom_id": custom_id}]}]}}

    path = "/interactions/{interaction_id}/{interaction_token}/callback"
    assert discord_spec.check("POST", path, body("ok", "ok")) == []
    errs = discord_spec.check("POST", path, body("x" * 81, "ok"))
    assert errs and list(errs[0].absolute_path)[-1] == "label"
    errs = discord_spec.check("POST", path, body("ok", "c" * 101))
    assert errs and list(errs[0].absolute_path)[-1] == "custom_id"


async def test_multipart_attachments_recorded(h: Harness) -> None:
    alice = h.user("alice")
    r = await h.slash(alice, h.channel, "upload")
    cb = r.callback()
    assert cb is not None and cb.multipart
    assert cb.json["data"]["attachments"] == [{"id": 0, "filename": "board.png"}]
    assert [(f.field, f.filename, f.data) for f in cb.files] == [("files[0]", "board.png", b"\x89PNG fake")]
    assert r.message["attachments"][0]["filename"] == "board.png"
    assert r.message["attachments"][0]["size"] == len(b"\x89PNG fake")
    (follow,) = r.followups
    assert follow["flags"] & 64 and follow["attachments"][0]["filename"] == "log.txt"
    fu_req = h.fake.requests_to("POST", "/webhooks/{webhook_id}/{webhook_token}")[0]
    assert fu_req.files[0].data == b"line1\nline2\n"


async def test_modal_roundtrip(h: Harness) -> None:
    alice = h.user("alice")
    r = await h.slash(alice, h.channel, "ask_name")
    assert r.response_type == 9 and r.modal["custom_id"]
    with pytest.raises(HarnessError, match="at most 20"):
        await h.submit_modal(alice, {"name": "x" * 21}, opened_by=r)
    sub = await h.submit_modal(alice, {"name": "Zoe"}, opened_by=r)
    assert sub.content == "hi Zoe" and sub.ephemeral


async def test_defer_followup_and_edit_original(h: Harness) -> None:
    alice = h.user("alice")
    r = await h.slash(alice, h.channel, "think")
    assert r.response_type == 5
    # The first followup after a thinking defer fills the loading message; then it is edited.
    assert r.record.followup_ids == [r.message_id]
    assert [v["content"] for v in h.fake.message_history(r.message_id)] == ["", "thought", "thought harder"]
    assert not r.message["flags"] & 128


async def test_bot_exception_fails_the_test(harness: Any, db_path: Path) -> None:
    h = await harness(lambda: TinyBot(db_path))

    @h.bot.tree.command(name="boom", description="raises")
    async def boom(interaction: discord.Interaction) -> None:
        raise RuntimeError("kaboom")

    with pytest.raises(HarnessError, match="kaboom"):
        await h.slash(h.user("alice"), h.channel, "boom")


async def test_fake_answers_double_ack_like_discord(h: Harness) -> None:
    alice = h.user("alice")

    @h.bot.tree.command(name="twice", description="responds twice")
    async def twice(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("one")
        try:
            await interaction.followup.send("two")
            await discord.webhook.async_.async_context.get().create_interaction_response(
                interaction.id, interaction.token, session=interaction._session,
                params=discord.webhook.async_.interaction_response_params(4, {"content": "three"}))
        except discord.HTTPException as e:
            await interaction.followup.send(f"refused {e.status}/{e.code}")

    r = await h.slash(alice, h.channel, "twice")
    assert [m["content"] for m in r.followups] == ["two", "refused 400/40060"]


def test_spec_and_its_validators_are_built_once() -> None:
    assert load_spec() is load_spec()
    spec = OpenAPISpec()  # not the session's: no test has used its validators yet
    path = "/interactions/{interaction_id}/{interaction_token}/callback"
    body = {"type": 4, "data": {"content": "x", "flags": 64, "components": [{"type": 1, "components": [
        {"type": 3, "custom_id": "s", "options": [{"label": str(i), "value": str(i)} for i in range(25)]}]}]}}
    assert spec.check("POST", path, body) == []
    validator = spec.validator("POST", path, "application/json")
    assert validator is spec.validator("POST", path, "application/json")
    # A valid body never needs the slow explaining validator, so it is not even built.
    assert "explaining" not in vars(validator)


async def test_unserved_route_is_reported(h: Harness) -> None:
    @h.bot.tree.command(name="guildinfo", description="fetches the guild")
    async def guildinfo(interaction: discord.Interaction) -> None:
        await interaction.client.fetch_guild(interaction.guild_id)  # GET /guilds/{id}: not served

    with pytest.raises(AssertionError, match="does not serve: GET /guilds/{guild_id}"):
        await h.slash(h.user("alice"), h.channel, "guildinfo")


def test_fake_without_harness_is_plain_data() -> None:
    fake = FakeDiscord()
    assert fake.requests == [] and fake.last_message_to(1) is None and fake.dms_to(2) == []


async def test_followup_edit_and_channel_message_edit(h: Harness) -> None:
    @h.bot.tree.command(name="announce", description="posts, edits, follows up")
    async def announce(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        posted = await interaction.channel.send("round 1")  # bot REST, not the webhook
        await posted.edit(content="round 2")
        note = await interaction.followup.send("noted", ephemeral=True, wait=True)
        await note.edit(content="noted twice")

    alice = h.user("alice")
    r = await h.slash(alice, h.channel, "announce")
    public = h.fake.messages_in(h.channel.id, include_ephemeral=False)
    assert [m["content"] for m in public] == ["round 2"]
    assert h.fake.requests_to("PATCH", "/channels/{channel_id}/messages/{message_id}")[0].via == "http"
    # The defer was ephemeral, so the first followup filled the ephemeral loading message.
    assert r.ephemeral and r.content == "noted twice"
    edits = h.fake.requests_to("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
    assert len(edits) == 1 and edits[0].params["message_id"] == str(r.message_id)


async def test_injected_failure_reaches_the_bot(h: Harness) -> None:
    h.fake.fail("POST", "/channels/{channel_id}/messages", status=500, code=0, message="500: Internal Server Error")

    @h.bot.tree.command(name="post", description="posts in the channel")
    async def post(interaction: discord.Interaction) -> None:
        try:
            await interaction.channel.send("x")
        except discord.DiscordServerError:
            await interaction.response.send_message("discord is down", ephemeral=True)

    r = await h.slash(h.user("alice"), h.channel, "post")
    assert r.content == "discord is down"


async def test_plain_client_with_command_tree(harness: Any) -> None:
    def make() -> discord.Client:
        client = discord.Client(intents=discord.Intents.none())
        tree = app_commands.CommandTree(client)

        @tree.command(name="ping", description="pong")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong")

        return client

    h = await harness(make)
    r = await h.slash(h.user("alice"), h.channel, "ping")
    assert r.content == "pong"
