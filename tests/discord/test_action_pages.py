"""Actions that need more than a message's five rows are paged, so no legal action is out of reach."""

from __future__ import annotations

import random
from typing import Any

import pytest
from pydantic import BaseModel

from cogs.games.ui import MAX_ROWS, GameUI, Names, layout_actions, ui_for
from cogs import call_to_glory

from .harness import Harness
from .tables import Table, components

class _Pick(BaseModel):
    type: str = "pick"
    n: int


def test_layout_pages_cover_every_action_and_leave_a_row_for_the_page_buttons() -> None:
    actions = [_Pick(n=i) for i in range(30)]
    names = Names({})

    class OwnRow(type(call_to_glory.UI)):  # type: ignore[misc]
        def action_group(self, action: BaseModel) -> str:
            return str(getattr(action, "n", 0))

        def action_label(self, action: BaseModel, view: Any, locale: str, names: Names) -> str:
            return f"pick {getattr(action, 'n', 0)}"

    paged: GameUI = OwnRow()
    first = layout_actions(paged, None, actions, "en", names)
    assert first.pages == 8 and first.page == 0
    offered: list[int] = []
    for page in range(first.pages):
        lay = layout_actions(paged, None, actions, "en", names, page)
        rows = {r for r, _i, _l in lay.buttons} | {r for r, *_x in lay.selects}
        assert rows and max(rows) < MAX_ROWS - 1
        offered += [i for _r, i, _l in lay.buttons]
    assert sorted(offered) == list(range(30))
    # Out-of-range pages are clamped rather than showing nothing.
    assert layout_actions(paged, None, actions, "en", names, 99).page == 7
    # Five groups or fewer still fit on one page with no page buttons.
    assert layout_actions(paged, None, actions[:5], "en", names).pages == 1


@pytest.mark.parametrize(("groups", "per_group", "row", "pages"), [
    (3, 2, 3, 1),     # rows to spare: the extra button gets a row of its own
    (5, 2, 4, 1),     # five rows taken, the last with room: it joins that row
    (5, 6, 4, 2),     # five menus, no room anywhere: the actions are paged and it joins the page buttons
    (9, 1, 4, 3),     # paged anyway: it joins the page buttons
])
def test_room_is_left_for_a_spare_button_without_hiding_an_action(groups: int, per_group: int, row: int,
                                                                   pages: int) -> None:
    """The 💡 hint button (issue 27) needs one slot in a view whose actions may fill all five rows."""
    actions = [_Pick(n=g * 10 + k) for g in range(groups) for k in range(per_group)]

    class Grouped(type(call_to_glory.UI)):  # type: ignore[misc]
        def action_group(self, action: BaseModel) -> str:
            return str(getattr(action, "n", 0) // 10)

        def action_label(self, action: BaseModel, view: Any, locale: str, names: Names) -> str:
            return f"pick {getattr(action, 'n', 0)}"

    offered: list[int] = []
    for page in range(pages):
        lay = layout_actions(Grouped(), None, actions, "en", Names({}), page, spare=1)
        assert (lay.pages, lay.spare_row) == (pages, row)
        in_row = [r for r, _i, _l in lay.buttons].count(row) + (2 if pages > 1 else 0) + 1
        assert in_row <= 5 and row not in {r for r, *_x in lay.selects}
        offered += [i for _r, i, _l in lay.buttons] + [i for *_x, options in lay.selects for i, _l in options]
    assert sorted(offered) == list(range(len(actions)))
    assert layout_actions(Grouped(), None, actions, "en", Names({})).spare_row is None


async def test_a_game_whose_actions_overflow_is_played_through_page_buttons(
        h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    ui = ui_for("call_to_glory")
    # Every action on a row of its own: a hand of cards overflows five rows at once.
    monkeypatch.setattr(type(ui), "action_group", lambda self, action: action.model_dump_json())
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob])
    await table.open(alice)
    await table.seat_all()
    rnd = random.Random(5)
    turned = 0
    for _ in range(40):
        rec, _spec, _state = await table.load()
        if not await table.step(rnd):
            break
        for user in (alice, bob):
            msg = table.private_message(user, rec.version + 1)
            if msg and any(c.get("custom_id", "").startswith("gp:") for c in components(msg)):
                turned += 1
    assert turned, "some view needed page buttons"

    # A page button of an older version answers "outdated" and applies nothing.
    pages: list[str] = []
    for _ in range(20):
        rec, spec, state = await table.load()
        user = table.users[spec.engine.pending(state)[0].seat]
        # "My hand" gives an ephemeral copy of the view; it keeps its buttons after the move below.
        hand = await h.click(user, table.table_id, f"gh:{table.sid}")
        msg = hand.message
        assert msg is not None
        pages = [c["custom_id"] for c in components(msg) if c.get("custom_id", "").startswith("gp:")]
        # The move is made elsewhere (as from the player's DM), so this copy keeps its old buttons.
        seat = str(user.id)
        await h.bot.sessions.act(table.sid, user.id, rec.version, spec.engine.legal_actions(state, seat)[0])
        if pages:
            break
    assert pages
    r = await h.click(user, msg["id"], pages[-1])
    assert r.ephemeral and "outdated" in (r.content or "").lower()
    after, _s, _st = await table.load()
    assert after.version == rec.version + 1
    assert not h.fake.take_problems()
