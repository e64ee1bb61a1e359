"""Turn sequence, phases and card states: CoC-R29..R42, R52, R61..R66, A7, A27."""

from __future__ import annotations

import pytest

from rules.core import RuleError
from tests.rules.coc_lcg.helpers import ENGINE, Table

VANILLA = "agency-blackwood-file-clerk"  # Agency, cost 2, skill 3, I


def test_r29_r30_phase_order_and_turn_handover() -> None:
    """CoC-R29/R30/R52: refresh, draw, resource, operations, story, end; then the opponent."""
    t = Table(active=0).turn()
    seen = []
    while t.s.active == 0:
        top = t.s.stack[-1]
        step = top.params.get("step", top.kind)
        if not seen or seen[-1] != step:
            seen.append(step)
        t.until(top.kind) if False else None
        if top.kind == "commit":
            t.act({"type": "commit_done"})
        else:
            t.pass_()
    assert seen == ["refresh", "draw", "resource", "operations", "story_a", "commit"]
    assert t.s.turn == 4 and t.s.stack[-1].params["step"] == "refresh" and t.owing()[0] == 1


def test_r32_r33_refresh_restores_one_insane_and_readies_the_rest() -> None:
    """CoC-R32/R33/A27: one insane character is restored (exhausted); others ready; domains refresh."""
    t = Table(active=0)
    mad = t.put(0, VANILLA, insane=True, exhausted=True)
    tired = t.put(0, VANILLA, exhausted=True)
    t.s.players[0].domains[1].drained = True
    t.turn()
    assert not t.s.play[mad].insane and t.s.play[mad].exhausted
    assert not t.s.play[tired].exhausted
    assert not t.s.players[0].domains[1].drained


def test_r32_a27_several_insane_the_player_chooses() -> None:
    """CoC-A27: with two insane characters the active player picks which one recovers."""
    t = Table(active=0)
    a = t.put(0, VANILLA, insane=True, exhausted=True)
    b = t.put(0, VANILLA, insane=True, exhausted=True)
    t.turn()
    assert t.owing() == (0, "choose") and set(t.options()) == {a, b}
    t.choose(b)
    assert t.s.play[a].insane and not t.s.play[b].insane and t.s.play[b].exhausted


def test_r34_cards_refresh_only_on_their_controllers_turn() -> None:
    """CoC-R34: the opponent's exhausted cards and drained domains stay so during my refresh."""
    t = Table(active=0)
    theirs = t.put(1, VANILLA, exhausted=True)
    t.s.players[1].domains[0].drained = True
    t.turn()
    assert t.s.play[theirs].exhausted and t.s.players[1].domains[0].drained


def test_r35_draw_two() -> None:
    """CoC-R35: the active player draws 2 (after the first player's first turn)."""
    t = Table(active=1)
    t.turn()
    t.until("window", "draw")
    assert len(t.s.players[1].hand) == 2 and len(t.s.players[1].deck) == 18


def test_r36_a1_deck_out_loses_at_once() -> None:
    """CoC-R36/R138/A1: the player whose deck empties loses immediately; the other wins."""
    t = Table(active=0, deck=2)
    t.turn()
    t.pass_window()  # refresh window; then the Draw phase empties the deck
    assert t.s.phase == "over" and t.s.winner == 1
    res = ENGINE.result(t.s)
    assert res.winners == ["b"] and res.reason == "deck_out"


def test_a1_draw_from_empty_variant() -> None:
    """CoC-A1 option: with ``draw_from_empty`` an empty deck loses only when a draw is due."""
    t = Table(active=0, deck=2)
    t.s.options = t.s.options.model_copy(update={"deckout": "draw_from_empty"})
    t.turn()
    t.pass_window()
    assert t.s.phase != "over" and not t.s.players[0].deck
    t.s.active = 0
    t.turn()
    t.pass_window()
    assert t.s.phase == "over" and t.s.winner == 1


def test_r37_a7_resource_phase_attach_one_or_none() -> None:
    """CoC-R37/R38/A7: attach at most one card from hand to any domain, or skip."""
    t = Table(active=0)
    c = t.hand(0, VANILLA)
    t.hand(0, VANILLA)
    t.turn()
    t.until("resource")
    t.act({"type": "attach_resource", "card": c, "domain": 2})
    assert t.s.players[0].domains[2].resources == [c] and c not in t.s.players[0].hand
    assert t.s.stack[-1].params["step"] == "resource"  # a window follows, no second attachment
    t2 = Table(active=0)
    t2.hand(0, VANILLA)
    t2.turn()
    t2.until("resource")
    t2.pass_()
    assert all(not d.resources for d in t2.s.players[0].domains)


def test_r39_r40_r42_characters_only_in_own_operations_enter_ready() -> None:
    """CoC-R39/R40/R42/R61: only the active player plays characters, in Operations; they enter ready;
    playing is an action after which the opponent gets the window."""
    t = Table(active=0)
    c = t.hand(0, VANILLA)
    t.res(0, 0, VANILLA, VANILLA)
    other = t.hand(1, VANILLA)
    t.res(1, 0, VANILLA, VANILLA)
    t.turn()
    assert not any(a.type == "play" for a in t.legal(0))  # refresh window: no characters
    t.until("window", "operations")
    with pytest.raises(RuleError) as e:
        ENGINE.apply(t.s, "b", {"type": "play", "card": other, "domain": 0})
    assert e.value.code == "not_your_turn"
    t.play(c, 0)
    assert c in t.s.play and not t.s.play[c].exhausted
    assert t.owing() == (1, "window")
    assert not any(a.type == "play" for a in t.legal(1))  # the opponent may not play characters


def test_r41_events_by_either_player_in_operations() -> None:
    """CoC-R41/R117: the non-active player may play an event in the active player's window."""
    t = Table(active=0)
    target = t.put(0, VANILLA)
    blast = t.hand(1, "agency-shotgun-blast")
    t.res(1, 0, "agency-hired-muscle", VANILLA, VANILLA)
    t.operations()
    t.pass_()
    assert t.owing() == (1, "window")
    t.play(blast, 0)
    t.choose(target) if t.s.stack[-1].kind == "choose" else None
    assert target not in t.s.play and target in t.s.players[0].discard


def test_a4_window_closes_after_two_passes_in_a_row() -> None:
    """CoC-A4/R114: the active player acts first; the window closes when both pass in a row; an action
    gives the other player priority again."""
    t = Table(active=0)
    c = t.hand(0, VANILLA)
    t.res(0, 0, VANILLA, VANILLA)
    t.operations()
    assert t.owing() == (0, "window")
    t.pass_()
    assert t.owing() == (1, "window")
    t2 = Table(active=0)
    c = t2.hand(0, VANILLA)
    t2.res(0, 0, VANILLA, VANILLA)
    t2.operations()
    t2.play(c, 0)
    t2.pass_()  # b
    assert t2.owing() == (0, "window")  # not closed: a passed before b's pass, but a then acted
    t2.pass_()
    assert t2.s.phase == "story"


def test_d4_every_window_is_asked_even_with_nothing_to_play() -> None:
    """CoC-D4: a player with an empty hand and no abilities is still asked at each window."""
    t = Table(active=0)
    t.turn()
    asked = set()
    while t.s.active == 0:
        top = t.s.stack[-1]
        if top.kind == "window":
            asked.add((t.owing()[0], top.params["step"]))
        t.act({"type": "commit_done"} if top.kind == "commit" else {"type": "pass"})
    for step in ("refresh", "draw", "resource", "operations", "story_a"):
        assert (0, step) in asked and (1, step) in asked


def test_r62_r63_insane_characters_are_blank_and_cannot_commit() -> None:
    """CoC-R62/R63: insane = cost 0, skill 0, no icons, keywords or subtypes; never committed."""
    t = Table(active=0)
    g = t.put(0, "agency-g-men", insane=True, exhausted=True)
    st = t.stats(g)
    assert (st.cost, st.skill, st.icons, st.kws, st.subtypes, st.toughness) == (0, 0, [0, 0, 0, 0], set(), set(), 0)
    from rules.coc_lcg import table as T

    t.s.play[g].exhausted = False
    assert not T.can_commit(t.s, g)


def test_r64_r65_insanity_destroys_attachments_and_wounded_characters() -> None:
    """CoC-R64/R65/R130: attachments on a character going insane are destroyed; a wounded character
    going insane is destroyed; an insane character that is wounded is destroyed."""
    from rules.coc_lcg import table as T

    t = Table(active=0)
    c = t.put(0, VANILLA)
    pistol = t.put(0, "neutral-45-pistols", host=c)
    T.go_insane(t.s, c, t.events)
    assert t.s.play[c].insane and pistol not in t.s.play and pistol in t.s.players[0].discard
    T.wound(t.s, c, t.events)
    assert c not in t.s.play
    d = t.put(0, "agency-hired-muscle", wounds=1)  # Toughness +1 survives one wound
    T.go_insane(t.s, d, t.events)
    assert d not in t.s.play and d in t.s.players[0].discard
