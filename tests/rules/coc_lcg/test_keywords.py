"""Keywords: CoC-R101..R109 (Fast, Heroic/Villainous, Invulnerability, Loyal, Steadfast, Toughness,
Transient, Willpower), unique cards CoC-R110..R113, conspiracies CoC-R92..R100."""

from __future__ import annotations

import pytest

from rules.core import RuleError
from rules.coc_lcg import flow
from rules.coc_lcg import table as T
from tests.rules.coc_lcg.helpers import ENGINE, Table

CLERK = "agency-blackwood-file-clerk"


def test_r101_fast_breaks_nonzero_ties_only() -> None:
    """CoC-R101/A29: more Fast characters at the story wins ties, never a 0-0 tie."""
    t = Table(active=0)
    st = t.stories[0]
    f = t.put(0, "syndicate-bag-man", story=st)  # Fast, CCI
    d = t.put(1, "agency-hired-muscle", story=st)  # CCC
    t.put(1, CLERK, story=st)
    assert flow.contest(t.s, st, 2, 2) == 0
    assert flow.contest(t.s, st, 0, 0) is None
    t.put(1, "agency-freelance-occultist", story=st)  # Fast on the other side too
    assert flow.contest(t.s, st, 2, 2) is None
    assert d in t.s.play and f in t.s.play


def test_r102_a10_heroic_and_villainous_never_together() -> None:
    """CoC-R102/A9/A10: no Heroic while you control a Villainous (and back); insane ones do not count;
    a conflict by control change makes the player keep one side, discarding the other."""
    t = Table(active=0)
    v = t.put(0, "cthulhu-keeper-of-the-golden-path")
    h = t.hand(0, "agency-undercover-security")
    t.res(0, 0, "agency-g-men", "agency-g-men")
    assert T.may_enter(t.s, h, 0)[0] == "coc.heroic_villainous"
    t.s.play[v].insane = True
    assert T.may_enter(t.s, h, 0) is None
    t.s.play[v].insane = False
    t.put(0, "agency-g-men")  # a conflict (as after a control change)
    t.operations()
    assert t.owing() == (0, "choose") and set(t.options()) == {"heroic", "villainous"}
    t.choose("heroic")
    assert v not in t.s.play and v in t.s.players[0].discard


def test_r103_invulnerable_cannot_be_wounded_but_can_be_destroyed() -> None:
    """CoC-R103: no wound, not a wound target; destruction still works."""
    t = Table(active=0)
    c = t.put(0, "cthulhu-cthulhu")
    assert not T.wound(t.s, c, t.events) and t.s.play[c].wounds == 0
    T.destroy(t.s, c, t.events)
    assert c in t.s.players[0].discard


def test_r106_toughness_adds_up() -> None:
    """CoC-R106: Toughness +2 with an attachment giving +1 is +3: the 4th wound destroys."""
    t = Table(active=0)
    g = t.put(0, "cthulhu-guardian-shoggoth")
    t.put(0, "agency-patrol-wagon", host=g)
    assert t.stats(g).toughness == 3
    for _ in range(3):
        T.wound(t.s, g, t.events)
    assert g in t.s.play
    T.wound(t.s, g, t.events)
    assert g not in t.s.play


def test_r108_willpower_and_terror_icon_protect_from_insanity() -> None:
    """CoC-R77/R108/A24: Willpower or a Terror icon (even a gained one) protects."""
    t = Table(active=0)
    w = t.put(0, "agency-local-sheriff")
    y = t.put(0, "cthulhu-young-deep-one")
    assert not T.go_insane(t.s, w, t.events)
    t.put(0, "cthulhu-shadowed-reef")  # Deep Ones gain a Terror icon
    assert not T.go_insane(t.s, y, t.events)


def test_r110_r113_unique_per_player() -> None:
    """CoC-R111..R113: one copy of a unique card per player in play; both players may have one; once
    it leaves play another copy may come."""
    t = Table(active=0)
    m = t.put(0, "agency-thomas-f-malone")
    second = t.hand(0, "agency-thomas-f-malone")
    assert T.may_enter(t.s, second, 0)[0] == "coc.unique_in_play"
    assert T.may_enter(t.s, t.hand(1, "agency-thomas-f-malone"), 1) is None
    T.destroy(t.s, m, t.events)
    assert T.may_enter(t.s, second, 0) is None


def test_r93_r94_conspiracy_is_an_extra_story() -> None:
    """CoC-R93/R94/R45: played in Operations, it becomes a fourth story characters can be committed to."""
    t = Table(active=0)
    con = t.hand(0, "neutral-the-bootleg-whiskey-cover-up")
    t.res(0, 0, CLERK)
    c = t.put(0, CLERK)
    t.operations()
    t.play(con, 0)
    assert con in t.s.stories and len(t.s.stories) == 4 and t.s.tokens[con] == [0, 0]
    t.pass_window()
    t.until("commit")
    assert any(a.type == "commit" and a.story == con and a.card == c for a in t.legal(0))


def test_r96_one_conspiracy_each_but_the_same_title_is_allowed() -> None:
    """CoC-R96/A18: one conspiracy under each player's control; the opponent may have the same one."""
    t = Table(active=0)
    t.put(0, "neutral-the-bootleg-whiskey-cover-up")
    second = t.hand(0, "neutral-the-bootleg-whiskey-cover-up")
    assert T.may_enter(t.s, second, 0)[0] == "coc.one_conspiracy"
    assert T.may_enter(t.s, t.hand(1, "neutral-the-bootleg-whiskey-cover-up"), 1) is None


def test_r97_r100_a_won_conspiracy_counts_and_is_not_replaced() -> None:
    """CoC-R97/R100: winning a conspiracy counts toward 3; no story replaces it."""
    t = Table(active=0)
    con = t.put(1, "neutral-the-bootleg-whiskey-cover-up")
    t.s.tokens[con] = [4, 0]
    deck = len(t.s.story_deck)
    T.place_tokens(t.s, con, 0, 1, t.events)
    t.settle()
    assert con in t.s.players[0].won and con not in t.s.play and len(t.s.stories) == 3
    assert len(t.s.story_deck) == deck


def test_r99_a_conspiracy_leaving_play_loses_its_tokens() -> None:
    """CoC-R99: otherwise leaving play, it goes to its owner's discard and its tokens are lost."""
    t = Table(active=0)
    con = t.put(1, "neutral-the-bootleg-whiskey-cover-up")
    t.s.tokens[con] = [2, 1]
    T.leave_play(t.s, con, "destroyed", t.events)
    assert con in t.s.players[1].discard and con not in t.s.tokens and con not in t.s.stories


def test_bootleg_whiskey_blanks_characters_committed_to_it() -> None:
    """F155: characters committed to the Cover-Up have blank text (no keywords)."""
    t = Table(active=0)
    con = t.put(1, "neutral-the-bootleg-whiskey-cover-up")
    g = t.put(0, "agency-g-men", story=con)
    st = t.stats(g)
    assert st.kws == set() and st.toughness == 0 and st.skill == 6


def test_play_refused_changes_nothing() -> None:
    """A rejected action raises a RuleError and leaves the state as it was."""
    t = Table(active=0)
    c = t.hand(0, "agency-g-men")
    t.res(0, 0, CLERK)
    t.operations()
    before = t.s.model_dump_json()
    with pytest.raises(RuleError) as e:
        ENGINE.apply(t.s, "a", {"type": "play", "card": c, "domain": 0})
    assert e.value.code == "coc.domain_too_small" and t.s.model_dump_json() == before
