"""AI players at the table: each seat the AI plays gets its moves from ``rules.ai.choose_action``; a
player's 💡 hint is the same search, asked from their seat (``rules.ai.hint``) in the same worker.

The search runs in a worker (a process pool by default, so the event loop and other tables never wait
on it; a thread in tests) and its move goes through the session service like a click, logged and
marked automatic. A move is computed for one version of the game and applied only against that version:
if anything moved meanwhile, or the process died while it was being computed, it is computed again,
never applied twice. Moves are paced (``ai_move_delay``) so that people can follow them on the table.
"""

from __future__ import annotations

import asyncio
import json
import logging
import zlib
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import TYPE_CHECKING

from pydantic import BaseModel

from bot.ratelimit import RateLimit
from bot.sessions import SessionError
from bot.storage import SessionRecord
from bot.workers import WorkerPool
from rules import registry
from rules.ai import HintMove

if TYPE_CHECKING:
    from cogs.games.host import GameBot

log = logging.getLogger(__name__)
MAX_MOVES_IN_A_ROW = 2000
"""A bound on one burst of AI moves (a game of AI seats only would otherwise run in one go)."""


def compute_move(game_id: str, state_json: str, seat: str, seed: int, level: str) -> str:
    """In the worker: the AI's move as JSON, from the state as stored (so a process pool needs nothing
    from the bot's memory)."""
    from rules.ai import choose_action

    spec = registry.get(game_id)
    state = spec.state_model.model_validate_json(state_json)
    return spec.dump_action(choose_action(spec, state, seat, seed=seed, level=level))


HINT_LEVEL = "normal"
"""The search budget of a hint: an AI seat's normal one."""


def compute_hint(game_id: str, state_json: str, seat: str, seed: int) -> str:
    """In the worker: the seat's best moves as JSON, ``[[action JSON, win share, simulations], …]``, from
    the state as stored (like ``compute_move``)."""
    from rules.ai import hint

    spec = registry.get(game_id)
    state = spec.state_model.model_validate_json(state_json)
    moves = hint(spec, state, seat, seed=seed, level=HINT_LEVEL)
    return json.dumps([[spec.dump_action(m.action), m.win_share, m.simulations] for m in moves])


class AISeats:
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self._running: dict[int, asyncio.Task[None]] = {}
        self._pool: Executor | None = None
        self.hint_limit = RateLimit(bot.settings.hints_per_minute / 60, bot.settings.hint_burst)
        """Per user: a hint costs a whole search in the worker the AI seats wait on."""

    def pool(self) -> Executor:
        if self._pool is None:
            workers = self.bot.settings.ai_processes
            self._pool = (WorkerPool("ai", workers) if workers
                          else ThreadPoolExecutor(max_workers=1, thread_name_prefix="ai"))
        return self._pool

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def poke(self, session_id: int) -> None:
        """Something moved in this game: if an AI seat owes a decision, play it (one task per game)."""
        if self.bot.sessions.surely_without_ai(session_id):
            return  # no task for the great majority of moves
        task = self._running.get(session_id)
        if task is not None and not task.done():
            return
        self._running[session_id] = asyncio.get_running_loop().create_task(self._play(session_id),
                                                                         name=f"ai-{session_id}")

    async def _play(self, session_id: int) -> None:
        try:
            for _ in range(MAX_MOVES_IN_A_ROW):
                if not await self._one_move(session_id):
                    return
        except Exception:
            log.exception("AI play in session %s failed", session_id)
        finally:
            self._running.pop(session_id, None)

    async def _one_move(self, session_id: int) -> bool:
        rec, spec, state = await self.bot.sessions.load(session_id)
        if rec.status != "running" or state is None:
            return False
        ai = await self.bot.sessions.ai_seats(session_id)
        glance = self.bot.sessions.glance(rec, state)
        seat = next((s for s in glance.waiting() if s in ai), None)
        if seat is None or not glance.legal(seat):
            return False
        seed = zlib.crc32(f"{rec.seed}:{rec.version}:{seat}".encode())
        loop = asyncio.get_running_loop()
        move = await loop.run_in_executor(self.pool(), compute_move, rec.game_id, state.model_dump_json(), seat,
                                          seed, ai[seat])
        delay = self.bot.settings.ai_move_delay
        if delay:
            await asyncio.sleep(delay)
        try:
            outcome = await self.bot.sessions.act(session_id, int(seat), rec.version, spec.parse_action(move),
                                                  auto=True)
        except SessionError as exc:
            if exc.code == "stale":
                return True  # the game moved while the AI thought: think again on the new state
            raise
        await self.bot.tables.after_action(outcome, None)
        return True

    async def hint(self, rec: SessionRecord, state: BaseModel, seat: str) -> list[HintMove]:
        """The moves the search ranks best for ``seat``, worked out in the AI seats' worker (never on the
        event loop). Seeded by the session, the version and the seat: asking twice about one decision gives
        the same hint, and nothing of the game's own seed is used."""
        seed = zlib.crc32(f"hint:{rec.id}:{rec.version}:{seat}".encode())
        spec = registry.get(rec.game_id)
        loop = asyncio.get_running_loop()
        found = await loop.run_in_executor(self.pool(), compute_hint, rec.game_id, state.model_dump_json(), seat,
                                           seed)
        return [HintMove(spec.parse_action(action), share, simulations)
                for action, share, simulations in json.loads(found)]

    async def catch_up(self) -> None:
        """After a start: games whose AI was thinking when the process stopped think again."""
        for rec in await self.bot.sessions.running():
            if self.bot.owns_guild(rec.guild_id) and await self.bot.sessions.ai_seats(rec.id):
                self.poke(rec.id)

