"""Ways to damage a SQLite file on purpose, the way a disk, a failed copy or a crash of the machine can:
bytes written over one page, a file cut short, a file emptied. The store must be closed first (its WAL
is then folded into the file, so the bytes changed here are the ones read next)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.storage import SqliteStore

from .helpers import CHANNEL, running

PADDING = 30_000
"""Leading spaces given to one session's state: JSON allows them, and they put that state, and nothing
else, on whole overflow pages, so damage there touches that session alone."""


def page_size(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        size: int = conn.execute("PRAGMA page_size").fetchone()[0]
    return size


def _write(path: Path, offset: int, data: bytes) -> None:
    with path.open("r+b") as f:
        f.seek(offset)
        f.write(data)


def _fold_wal(path: Path) -> None:
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()


def break_one_session(path: Path, session_id: int) -> None:
    """Damage the pages of one session's stored state and nothing else: its overflow chain is made to
    point past the end of the file."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("UPDATE sessions SET state_json = ? || state_json WHERE id = ?", (" " * PADDING, session_id))
        conn.commit()
    finally:
        conn.close()
    _fold_wal(path)
    size = page_size(path)
    data = path.read_bytes()
    spaces = b" " * (size - 4)
    pages = [i for i in range(len(data) // size) if data[i * size + 4:(i + 1) * size] == spaces]
    assert len(pages) >= 2, "the padded state spans whole overflow pages"
    _write(path, pages[0] * size, b"\xff\xff\xff\xf0")  # the next overflow page: far past the end


def break_table(path: Path, table: str) -> None:
    """Damage the root page of ``table`` (for a small table, the page holding all its rows): its page type
    byte is made one SQLite never writes."""
    _fold_wal(path)
    with sqlite3.connect(path) as conn:
        root: int = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0]
    _write(path, (root - 1) * page_size(path) + (100 if root == 1 else 0), b"\x07")


def cut_in_half(path: Path) -> None:
    _fold_wal(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


async def three_games(path: Path) -> list[int]:
    """A database at ``path`` holding three running games (ids in order)."""
    async with SqliteStore(path) as store:
        return [(await running(store, CHANNEL + i)).id for i in range(3)]
