"""Drives a game through Discord the way players would, reading the engine only to pick moves."""

from __future__ import annotations

import random
from typing import Any
from collections.abc import Callable

from pydantic import BaseModel

from . import payloads as P
from .harness import Harness

Chooser = Callable[[list[BaseModel], random.Random], int]


def components(message: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for row in message.get("components", []):
        out.extend(row.get("components", []))
    return out


def custom_ids(message: dict[str, Any]) -> list[str]:
    return [c["custom_id"] for c in components(message) if "custom_id" in c]


class Table:
    """Drives a game through Discord the way players would, reading the engine only to pick moves."""

    def __init__(self, h: Harness, users: list[P.User], game: str = "call_to_glory") -> None:
        self.h = h
        self.game = game
        self.users = {str(u.id): u for u in users}
        self.sid = 0
        self.table_id = 0

    async def open(self, host: P.User, options: str | None = None) -> None:
        opts = {"game": self.game, **({"options": options} if options else {})}
        r = await self.h.slash(host, self.h.channel, "game new", options=opts)
        self.table_id = int(r.message_id)
        rec = await self.h.bot.store.active_in_channel(self.h.channel.id)
        assert rec is not None
        self.sid = rec.id

    async def seat_all(self) -> None:
        for u in list(self.users.values())[1:]:
            await self.h.click(u, self.table_id, f"gl:{self.sid}:join")
        await self.h.click(next(iter(self.users.values())), self.table_id, f"gl:{self.sid}:start")

    async def load(self) -> tuple[Any, Any, Any]:
        return await self.h.bot.sessions.load(self.sid)

    def private_message(self, user: P.User, version: int) -> dict[str, Any] | None:
        """The newest DM or ephemeral message of ``user`` whose buttons are for ``version``."""
        fake = self.h.fake
        candidates = fake.dms_to(user.id) + fake.ephemeral_responses(user.id)  # fresh copies already
        prefix = (f"gb:{self.sid}:{version}:", f"gs:{self.sid}:{version}:")
        live = [m for m in candidates if any(c.startswith(prefix) for c in custom_ids(m))]
        return max(live, key=lambda m: int(m["id"])) if live else None

    async def press(self, user: P.User, message: dict[str, Any], index: int, version: int) -> Any:
        """Click the component of action ``index``, turning the pages of the actions to find it."""
        turned: set[str] = set()
        while True:
            button = f"gb:{self.sid}:{version}:{index}"
            if button in custom_ids(message):
                return await self.h.click(user, message["id"], button)
            for comp in components(message):
                if comp.get("type") == 3 and any(o["value"] == str(index) for o in comp["options"]):
                    return await self.h.select(user, message["id"], comp["custom_id"], [str(index)])
            pages = [c["custom_id"] for c in components(message)
                     if c.get("custom_id", "").startswith(f"gp:{self.sid}:{version}:") and not c.get("disabled")
                     and c["custom_id"] not in turned]
            if not pages:
                raise AssertionError(f"no component for action {index} in {custom_ids(message)}")
            turned.add(pages[-1])
            await self.h.click(user, message["id"], pages[-1])
            message = self.h.fake.message(message["id"])

    async def step(self, rnd: random.Random, choose: Chooser | None = None) -> bool:
        """One move by whoever owes one; ``choose`` picks among the legal actions (default: at random)."""
        rec, spec, state = await self.load()
        prompts = spec.engine.pending(state)
        if not prompts:
            return False
        seat = prompts[0].seat
        legal = spec.engine.legal_actions(state, seat)
        index = choose(legal, rnd) if choose is not None else rnd.randrange(len(legal))
        user = self.users[seat]
        message = self.private_message(user, rec.version)
        if message is None:
            # No live DM (e.g. DMs closed): the table's "My hand" button gives the same view privately.
            await self.h.click(user, self.table_id, f"gh:{self.sid}")
            message = self.private_message(user, rec.version)
        assert message is not None, f"{user.username} has nothing to click at version {rec.version}"
        await self.press(user, message, index, rec.version)
        after, _spec, _state = await self.load()
        assert after.version >= rec.version + 1
        if after.version > rec.version + 1:  # steps the bot took for seats with one move, marked automatic
            log = await self.h.bot.store.actions(self.sid)
            assert [e.auto for e in log if e.seq > rec.version] == [False] + [True] * (after.version - rec.version - 1)
        return True
