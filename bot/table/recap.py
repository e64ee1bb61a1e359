"""What happened at the table, folded for reading: the recent moves the table lists and the recap that
opens a DM bringing a decision ("since your last move"). Automatic steps (a domain readied, a forced
pass) are bookkeeping: a run of them folds into one line, so a player's actual move does not scroll away
behind them. Pure: the lines are already worded; this only picks and folds.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Line:
    """One public event's text; ``seat``: whose action caused it; ``auto``: a step the bot took."""

    text: str
    seat: str | None = None
    auto: bool = False


@dataclass(frozen=True)
class Folded:
    """A player's line (``count`` 1), or a run of ``count`` automatic steps shown by its last one."""

    line: Line
    count: int = 1


def fold_automatic(lines: Iterable[Line]) -> list[Folded]:
    out: list[Folded] = []
    for line in lines:
        if line.auto and out and out[-1].line.auto:
            out[-1] = Folded(line, out[-1].count + 1)
        else:
            out.append(Folded(line))
    return out


def fold_tail(lines: Sequence[Line], count: int) -> list[Folded]:
    """``fold_automatic(lines)[-count:]``, walked back from the end: the table shows its last few moves on
    every edit, out of the many it keeps."""
    out: list[Folded] = []
    i = len(lines) - 1
    while i >= 0 and len(out) < count:
        line = lines[i]
        start = i
        if line.auto:
            while start > 0 and lines[start - 1].auto:
                start -= 1
        out.append(Folded(line, i - start + 1))
        i = start - 1
    out.reverse()
    return out


def since_last_move(lines: Sequence[Line], seat: str) -> list[Folded]:
    """The other seats' moves since ``seat``'s own last move (all that is known, if it made none here),
    folded; empty when nothing happened that the player did not do themselves."""
    start = 0
    for i, line in enumerate(lines):
        if line.seat == seat and not line.auto:
            start = i + 1
    return fold_automatic(line for line in lines[start:] if not (line.seat == seat and not line.auto))
