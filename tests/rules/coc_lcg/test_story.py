"""The Story phase: CoC-R43..R51, R55, R60, R75..R91, A2, A8, A19, A22, A23, A28..A30."""

from __future__ import annotations

import pytest

from rules.core import RuleError
from rules.coc_lcg import table as T
from tests.rules.coc_lcg.helpers import ENGINE, Table

CLERK = "agency-blackwood-file-clerk"  # skill 3, I
MUSCLE = "agency-hired-muscle"  # skill 3, CCC, Toughness +1
KEEPER = "cthulhu-keeper-of-the-golden-path"  # skill 3, TT
SCHOLAR = "miskatonic-laboratory-assistant"  # skill 1, I
YOUNG = "cthulhu-young-deep-one"  # skill 0, CCA
INITIATE = "yog-sothoth-arcane-initiate"  # skill 1, A, Willpower


def commit(t: Table, plan: dict[str, str]) -> None:
    for c, st in plan.items():
        t.act({"type": "commit", "card": c, "story": st})
    t.act({"type": "commit_done"})


def to_commit(t: Table) -> Table:
    t.story()
    t.until("commit")
    return t


def test_r44_r46_commit_all_at_once_exhausting() -> None:
    """CoC-R44/R46/D3: ready characters only; the plan is private until confirmed, then all commit at
    once, exhausted, each to one story."""
    t = Table(active=0)
    a, b = t.put(0, CLERK), t.put(0, CLERK)
    tired = t.put(0, CLERK, exhausted=True)
    to_commit(t)
    s1 = t.stories[0]
    assert {x.card for x in t.legal(0) if x.type == "commit"} == {a, b}
    t.act({"type": "commit", "card": a, "story": s1})
    assert ENGINE.view(t.s, "b").players[0].plan is None and ENGINE.view(t.s, "a").players[0].plan == {a: s1}
    assert t.s.play[a].story is None
    t.act({"type": "commit", "card": b, "story": t.stories[1]})
    t.act({"type": "commit_done"})
    assert t.s.play[a].story == s1 and t.s.play[a].exhausted and t.s.play[b].story == t.stories[1]
    with pytest.raises(RuleError):
        ENGINE.apply(t.s, "a", {"type": "commit", "card": tired, "story": s1})


def test_r46_committing_nobody_ends_the_story_phase() -> None:
    """CoC-R46/R48: no commit, no story phase (the opponent is not asked to commit)."""
    t = Table(active=0)
    t.put(0, CLERK)
    t.put(1, CLERK)
    to_commit(t)
    t.act({"type": "commit_done"})
    assert t.s.phase == "end" or t.s.active == 1


def test_r47_defenders_only_where_the_active_player_committed() -> None:
    """CoC-R47: the opponent commits only to stories the active player committed to."""
    t = Table(active=0)
    a = t.put(0, CLERK)
    d = t.put(1, CLERK)
    to_commit(t)
    commit(t, {a: t.stories[0]})
    t.until("commit")
    assert t.owing() == (1, "commit")
    assert {x.story for x in t.legal(1) if x.type == "commit"} == {t.stories[0]}
    with pytest.raises(RuleError) as e:
        ENGINE.apply(t.s, "b", {"type": "commit", "card": d, "story": t.stories[1]})
    assert e.value.code == "coc.bad_story"


def _resolve(t: Table, mine: list[str], theirs: list[str], story: int = 0) -> str:
    st = t.stories[story]
    to_commit(t)
    commit(t, {c: st for c in mine})
    t.pass_window()  # the window after the active player's commits (story step c)
    if t.s.stack[-1].kind == "commit":  # the defender is asked only when one of theirs could go
        commit(t, {c: st for c in theirs})
    else:
        assert not theirs
    t.pass_window()  # the window before resolution (story step e)
    return st


def test_r76_r77_terror_loser_picks_a_character_to_go_insane() -> None:
    """CoC-R76/R77/R108: most Terror wins; the loser drives one of theirs insane (Terror icon or
    Willpower protect)."""
    t = Table(active=0)
    k = t.put(0, KEEPER)
    c1, w = t.put(1, SCHOLAR), t.put(1, INITIATE)
    _resolve(t, [k], [c1, w])
    t.until("choose") if t.s.stack[-1].kind != "choose" else None
    assert t.s.play[c1].insane  # the only one that could go insane: picked without asking
    assert not t.s.play[w].insane and t.s.play[c1].story is None  # CoC-A2: uncommitted


def test_r78_combat_loser_wounds_one_toughness_absorbs() -> None:
    """CoC-R78/R106: the Combat loser wounds one of theirs; Toughness +1 survives the first wound."""
    t = Table(active=1)
    m = t.put(1, MUSCLE)
    y = t.put(0, YOUNG)
    c = t.put(0, CLERK)
    _resolve(t, [m], [y, c])
    assert t.owing() == (0, "choose") and set(t.options()) == {y, c}
    t.choose(c)
    assert c not in t.s.play and c in t.s.players[0].discard


def test_r79_a28_arcane_winner_may_ready_one_which_stays_committed() -> None:
    """CoC-R79/A28: the Arcane winner may ready one committed character; it stays committed."""
    t = Table(active=0)
    i = t.put(0, INITIATE)
    st = _resolve(t, [i], [])
    assert t.owing() == (0, "choose") and set(t.options()) == {i, "none"}
    t.choose(i)
    assert not t.s.play[i].exhausted and t.s.play[i].story == st


def test_r80_r81_r82_investigation_and_unchallenged_tokens() -> None:
    """CoC-R80/R81/R82/R83: an Investigation win gives 1 token (either player); success with the
    opponent at 0 skill is unchallenged: 2 tokens."""
    t = Table(active=0)
    c = t.put(0, CLERK)
    st = _resolve(t, [c], [])
    t.choose(st)  # investigation: take the token
    assert t.s.tokens[st] == [1, 0]
    t.choose(st)  # success, unchallenged
    assert t.s.tokens[st] == [3, 0]


def test_r80_the_defender_can_win_investigation() -> None:
    """CoC-R80: the non-active player may win the Investigation struggle and take a token; CoC-R81 only
    the active player can gain one for skill."""
    t = Table(active=0)
    i = t.put(0, INITIATE)
    c = t.put(1, CLERK)
    st = _resolve(t, [i], [c])
    t.choose("none")  # arcane won by the active player: no ready
    assert t.owing() == (1, "choose") and st in t.options()
    t.choose(st)
    assert t.s.tokens[st] == [0, 1]


def test_r81_a30_skill_must_be_higher_and_positive() -> None:
    """CoC-R81/A29/A30: equal skill or a total of 0 or less never succeeds."""
    t = Table(active=0)
    a, b = t.put(0, SCHOLAR), t.put(1, SCHOLAR)
    st = _resolve(t, [a], [b])
    assert t.s.tokens[st] == [0, 0]
    assert not any(e.type == "skill_check" and e.success for e in t.events)


def test_r84_r85_r87_five_tokens_win_the_story_and_it_is_replaced() -> None:
    """CoC-R84/R85/R86/R87: 5 tokens win at once; the winner may use the story effect; all tokens on it
    are lost; committed characters are released; a new story replaces it."""
    t = Table(active=0)
    c = t.put(0, CLERK)
    st = t.stories[0]
    t.s.tokens[st] = [3, 2]
    deck_before = len(t.s.story_deck)
    _resolve(t, [c], [])
    t.choose(st)  # investigation -> 4
    t.choose(st)  # success unchallenged -> 6: won
    assert st in t.s.players[0].won and st not in t.s.stories and st not in t.s.tokens
    assert t.s.play[c].story is None
    assert t.owing() == (0, "choose") and set(t.options()) == {"use", "none"}  # optional story effect
    t.choose("none")
    assert len(t.s.stories) == 3 and len(t.s.story_deck) == deck_before - 1


def test_r88_a_story_won_mid_resolution_resolves_no_further() -> None:
    """CoC-R88: won by the Investigation token, the story skips its skill check."""
    t = Table(active=0)
    c = t.put(0, CLERK)
    st = t.stories[0]
    t.s.tokens[st] = [4, 0]
    _resolve(t, [c], [])
    t.choose(st)
    assert st in t.s.players[0].won
    if t.s.stack and t.s.stack[-1].kind == "choose":
        t.choose("none")
    assert not any(e.type == "skill_check" for e in t.events)


def test_r5_r137_third_story_wins_the_game() -> None:
    """CoC-R5/R137: the 3rd won story ends the game at once."""
    t = Table(active=0)
    t.s.players[0].won = ["s:story-rotting-away", "s:story-dreamwalkers"]
    t.s.story_deck = [x for x in t.s.story_deck if x not in t.s.players[0].won]
    c = t.put(0, CLERK)
    st = t.stories[0]
    t.s.tokens[st] = [4, 0]
    _resolve(t, [c], [])
    t.choose(st)
    assert t.s.phase == "over" and ENGINE.result(t.s).winners == ["a"]
    assert ENGINE.result(t.s).reason == "three_stories" and ENGINE.pending(t.s) == []


def test_r49_a8_active_player_orders_the_stories() -> None:
    """CoC-R49/A8: each story with committed characters resolves, in the active player's order."""
    t = Table(active=0)
    a, b = t.put(0, SCHOLAR), t.put(0, SCHOLAR)
    to_commit(t)
    commit(t, {a: t.stories[0], b: t.stories[2]})
    t.pass_window()  # story step c; the defender, with no character, is not asked to commit
    t.pass_window()
    assert set(t.options()) == {t.stories[0], t.stories[2]}
    t.choose(t.stories[2])
    first = next(e for e in t.events if e.type == "struggle")
    assert first.story == t.stories[2]


def test_r50_no_actions_during_resolution_then_a_final_window_and_release() -> None:
    """CoC-R50/R51/R123: no action window while stories resolve; one window after; then release."""
    t = Table(active=0)
    c = t.put(0, SCHOLAR)
    _resolve(t, [c], [])
    kinds = []
    while t.s.active == 0:
        top = t.s.stack[-1]
        kinds.append(top.params.get("step") if top.kind == "window" else top.kind)
        if top.kind == "choose":
            t.choose(t.options()[0])
        else:
            t.pass_()
    assert kinds[0] == "story_e" or "choose" in kinds
    assert "story_g" in kinds and kinds.index("story_g") > max(i for i, k in enumerate(kinds) if k == "choose")
    assert t.s.play[c].story is None and t.s.play[c].exhausted  # released, still exhausted


def test_r60_a23_boosters_add_struggles_after_the_normal_one() -> None:
    """CoC-R60/A23 (Sleep of Reason): a story with 3 Terror boosters has 4 Terror struggles before Combat."""
    t = Table(active=0)
    st = t.stories[0]
    t.put(1, "cthulhu-sleep-of-reason", host=st)
    k = t.put(0, KEEPER)
    ds = [t.put(1, SCHOLAR) for _ in range(4)]
    _resolve(t, [k], ds)
    while t.s.stack[-1].kind == "choose":
        t.choose(t.options()[0])
    icons = [e.icon for e in t.events if e.type == "struggle"]
    assert icons[:5] == ["terror"] * 4 + ["combat"]
    assert sum(1 for d in ds if t.s.play[d].insane) == 4


def test_a22_attachments_on_a_won_story_are_destroyed() -> None:
    """CoC-A22: attachments on a won story go to their owners' discard piles."""
    t = Table(active=0)
    st = t.stories[0]
    oi = t.put(1, "miskatonic-open-for-inspection", host=st)
    t.s.tokens[st] = [4, 0]
    c = t.put(0, CLERK)
    _resolve(t, [c], [])
    t.choose(st)
    assert oi not in t.s.play and oi in t.s.players[1].discard


def test_r89_r90_win_check_is_immediate_per_token() -> None:
    """CoC-R84/R89: a token taking a side to 5 wins that story before anything else happens."""
    t = Table(active=0)
    st = t.stories[1]
    t.s.tokens[st] = [0, 4]
    T.place_tokens(t.s, st, 1, 1, t.events)
    t.settle()
    assert st in t.s.players[1].won


def _in_play(t: Table, st: str) -> None:
    """Put story ``st`` among the three in play (in the first place) if the shuffle left it in the deck."""
    if st not in t.stories:
        t.s.story_deck.remove(st)
        t.s.stories[0] = st
        t.s.tokens[st] = [0, 0]


def test_r85_the_winner_may_use_the_story_effect() -> None:
    """CoC-R85: claimed, the winner chooses to resolve its effect (Nowhere to Hide clears all tokens)."""
    t = Table(active=0)
    st = "s:story-nowhere-to-hide"
    _in_play(t, st)
    other = next(x for x in t.stories if x != st)
    t.s.tokens[other] = [2, 3]
    T.place_tokens(t.s, st, 0, 5, t.events)
    t.settle()
    assert set(t.options()) == {"use", "none"}
    t.choose("use")
    assert t.s.tokens[other] == [0, 0] and st in t.s.players[0].won


def test_r87_the_replacement_is_drawn_after_the_story_effect() -> None:
    """CoC-R85/R87: Dreamwalkers is won with the story deck empty while the winner holds another won story.
    Its effect shuffles that story back in, and only then is the replacement drawn, so the story that
    went back fills the empty place (drawn first, there would have been nothing to draw)."""
    t = Table(active=0)
    st = "s:story-dreamwalkers"
    _in_play(t, st)
    earlier = t.s.story_deck.pop()
    t.s.players[0].won = [earlier]
    t.s.story_deck = []
    T.place_tokens(t.s, st, 0, 5, t.events)
    t.settle()
    assert len(t.s.stories) == 2, "no replacement while the effect is pending"
    t.choose("use")
    if t.s.stack and earlier in t.options():
        t.choose(earlier)
    t.settle()
    assert earlier in t.s.stories and not t.s.story_deck and len(t.s.stories) == 3
    replaced = [e for e in t.events if e.type == "story_replaced"]
    assert [(e.won, e.story) for e in replaced] == [(st, earlier)]


def test_d3_a_planned_commit_can_be_withdrawn_before_confirming() -> None:
    """CoC-D3/R46: the plan stays private until confirmed, so a character can be taken back out of it; the
    reveal commits only what is still planned."""
    t = Table()
    a, b = t.put(0, CLERK), t.put(0, CLERK)
    t.story()
    t.until("commit")
    st = t.stories[0]
    t.act({"type": "commit", "card": a, "story": st})
    t.act({"type": "commit", "card": b, "story": st})
    assert {x.card for x in t.legal() if x.type == "withdraw"} == {a, b}
    t.act({"type": "withdraw", "card": a})
    assert t.s.players[0].plan == {b: st}
    with pytest.raises(RuleError):
        t.act({"type": "withdraw", "card": a})
    t.act({"type": "commit_done"})
    assert t.s.play[b].story == st and t.s.play[a].story is None and not t.s.play[a].exhausted


def test_a_defender_with_no_character_able_to_commit_is_not_asked() -> None:
    """CoC-R47: the defender commits only characters that can go (ready, sane); with none, the question is
    skipped, which reveals nothing (the table is public)."""
    t = Table(active=0)
    a = t.put(0, SCHOLAR)
    tired = t.put(1, SCHOLAR, exhausted=True)
    to_commit(t)
    commit(t, {a: t.stories[0]})
    t.pass_window()
    assert t.s.stack[-1].kind == "window" and t.s.stack[-1].params["step"] == "story_e"
    assert t.s.play[tired].story is None
