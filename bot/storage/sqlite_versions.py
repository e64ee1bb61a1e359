"""Session versions a SQLite store already knows, so that checking a cached copy (``Store.version``) needs no
read of the session while no other connection has written to the file.

A process checks its cached copy of a session before it serves it (another process may have moved the
game), once or more for every click. The store's event-loop connection sees every version it commits or
reads; SQLite's ``PRAGMA data_version`` tells that connection whether any other connection (another
process, this store's aiosqlite thread, another store on the same file) committed since it last looked. As
long as none did, the versions it saw are still the stored ones.

One look serves a whole pass of the event loop: what another process commits during the pass can reach
this one only through I/O (a Discord event, a reply), which comes in a later pass, so a check against the
pass's look is as good as a read at that moment. Another store of this process can commit within the same
pass, though (tests stand two processes up this way, and two bots may share a process): every commit made
on an event loop by any store is counted, and a store looks again when some other store committed since
its look.
"""

from __future__ import annotations

import sqlite3
from typing import ClassVar, Final

KEPT: Final = 4096
"""Sessions whose version is kept at most; past that the map starts again (a check then reads the version)."""


class KnownVersions:
    """Versions seen on one store's event-loop connection, trusted while its ``PRAGMA data_version`` holds."""

    _loop_commits: ClassVar[int] = 0
    """Commits made on an event loop by any store of this process."""

    def __init__(self) -> None:
        self._versions: dict[int, int] = {}
        self._data_version: int | None = None
        self._looked_at: int | None = None  # ``_loop_commits`` when this store last looked, in this pass

    def version(self, db: sqlite3.Connection, session_id: int) -> int | None:
        """The session's stored version when it is known to be current, after a look at the file if this
        pass has none yet (or another store committed since); None when it must be read."""
        if self._looked_at != KnownVersions._loop_commits:
            try:
                data_version = db.execute("PRAGMA data_version").fetchone()[0]
            except sqlite3.Error:
                self._versions.clear()
                return None
            if data_version != self._data_version:
                self._versions.clear()
                self._data_version = data_version
            self._looked_at = KnownVersions._loop_commits
        return self._versions.get(session_id)

    def saw(self, session_id: int, version: int) -> None:
        """The event-loop connection read or committed this version just now (not across an await: a version
        learnt before another connection's commit that the next look would then miss must not be kept)."""
        if len(self._versions) >= KEPT:
            self._versions.clear()
        self._versions[session_id] = version

    def committed(self) -> None:
        """This store committed on its event-loop connection: its own look stays good, other stores' do not."""
        current = self._looked_at == KnownVersions._loop_commits
        KnownVersions._loop_commits += 1
        if current:
            self._looked_at = KnownVersions._loop_commits

    def pass_over(self) -> None:
        """A new pass of the event loop: the next check looks at the file again."""
        self._looked_at = None
