"""What happened since you last looked (issue 24): the table's recent moves fold runs of automatic steps
into one line, and a DM that brings a decision opens with the other seats' moves since the player's own."""

from __future__ import annotations

import random
from itertools import pairwise

from .harness import Harness
from .tables import Table


async def test_recent_moves_fold_automatic_steps_and_a_decision_opens_with_a_recap(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob], game="coc_lcg")
    await table.open(alice)
    await table.seat_all()
    rnd = random.Random(3)
    for _ in range(12):
        if not await table.step(rnd):
            break
    await h.drain()
    shown = [f["value"] for version in h.fake.message_history(table.table_id) for e in version.get("embeds", [])
             for f in e.get("fields", []) if f["name"] == "Last moves"]
    assert shown
    for value in shown:
        lines = value.split("\n")
        assert not any(a.endswith("(automatic)") and b.endswith("(automatic)") for a, b in pairwise(lines)), \
            "a run of automatic steps shows as one line"
    recaps = [m["content"] for u in (alice, bob) for m in h.fake.dms_to(u.id)
              if (m.get("content") or "").startswith("Since your last move:")]
    assert recaps, "a DM bringing a decision says what the other player did"
    assert all("\n• " in text for text in recaps)
    assert not h.fake.take_problems()
