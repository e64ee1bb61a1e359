"""What an operator watches: ``/healthz`` and Prometheus ``/metrics`` on a local port (an ephemeral one
here), filled by a real game played through the harness."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from bot.client import GameBot
from bot.settings import Settings

from .harness import Harness
from .tables import Table


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


async def test_health_and_metrics_endpoints(harness: Callable[..., Awaitable[Harness]], tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'bot.sqlite3'}", discord_token=None, dev_guild_id=None,
                        table_edit_interval=0, rate_limit_per_second=0, ai_processes=0, ai_move_delay=0,
                        picture_processes=0, metrics_port=0)
    h = await harness(lambda: GameBot(settings))
    assert h.bot.status_server is not None
    host, port = h.bot.status_server.addresses[0][:2]
    assert host == "127.0.0.1", "local only unless METRICS_HOST says otherwise"
    base = f"http://127.0.0.1:{port}"

    alice, bob, mallory = h.user("alice"), h.user("bob"), h.user("mallory")
    table = Table(h, [alice, bob])
    await table.open(alice)
    await table.seat_all()
    await h.click(mallory, table.table_id, f"gh:{table.sid}")  # refused: not seated
    rec, spec, state = await table.load()
    seat = spec.engine.pending(state)[0].seat
    message = table.private_message(table.users[seat], rec.version)
    assert message is not None
    await table.press(table.users[seat], message, 0, rec.version)

    async with aiohttp.ClientSession() as http:
        async with http.get(f"{base}/healthz") as r:
            assert r.status == 200 and json.loads(await r.text()) == {"gateway": True, "database": True}
        async with http.get(f"{base}/metrics") as r:
            assert r.status == 200 and r.headers["Content-Type"].startswith("text/plain")
            got = samples(await r.text())
        game = ("game", "call_to_glory")
        assert got[("gamebot_actions_total", (game,))] >= 1
        assert got[("gamebot_refusals_total", (game, ("reason", "not_seated")))] == 1
        assert got[("gamebot_open_games", (game, ("status", "running")))] == 1
        assert got[("gamebot_timers_due", ())] == 0
        assert got[("gamebot_interaction_seconds_count", ())] >= 4  # the lobby's clicks, the refusal, the move
        assert ("gamebot_gateway_latency_seconds", (("shard", "0"),)) in got
        assert got.get(("gamebot_errors_total", (game,)), 0) == 0

        await h.bot.store.close()  # the database goes away: both endpoints say so
        async with http.get(f"{base}/healthz") as r:
            assert r.status == 503 and json.loads(await r.text()) == {"gateway": True, "database": False}
        async with http.get(f"{base}/metrics") as r:
            assert r.status == 503
    h.raise_logged_errors = False


async def test_the_endpoints_are_off_by_default(h: Harness) -> None:
    assert Settings.model_fields["metrics_port"].default is None
    assert h.bot.status_server is None
