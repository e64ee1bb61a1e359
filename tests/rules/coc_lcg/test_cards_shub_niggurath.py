"""Shub-Niggurath's scripted cards."""

from __future__ import annotations

import pytest

from rules.core import RuleError
from rules.coc_lcg import table as T
from tests.rules.coc_lcg.helpers import ENGINE, Table

SH = "shub-niggurath-degenerate-ghoul"  # Shub-Niggurath resource, TC, skill 0
CLERK = "agency-blackwood-file-clerk"


def _flush(t: Table) -> None:
    t.s.stack = []
    t.s.tasks = [{"t": "end"}]
    t.settle()


def test_shub_niggurath_fetches_a_dark_young_from_the_deck() -> None:
    t = Table()
    s = t.put(0, "shub-niggurath-shub-niggurath")
    dy = t.top(0, "shub-niggurath-watcher-of-the-woods")
    t.res(0, 0, SH, SH, SH)
    t.operations()
    t.use(s, 0, 0)
    assert t.options() == [dy, "none"]
    t.choose(dy)
    assert dy in t.s.play and dy not in t.s.players[0].deck


def test_ygolonac_readies_a_character_that_must_follow_him() -> None:
    t = Table()
    y = t.put(0, "shub-niggurath-ygolonac")
    c = t.put(0, CLERK, exhausted=True)
    t.res(0, 0, SH)
    t.operations()
    t.use(y, 0, 0)
    assert not t.s.play[c].exhausted
    t.pass_window()
    t.until("commit")
    t.act({"type": "commit", "card": y, "story": t.stories[0]})
    assert not any(a.type == "commit_done" for a in t.legal(0))
    with pytest.raises(RuleError) as e:
        ENGINE.apply(t.s, "a", {"type": "commit_done"})
    assert e.value.code == "coc.must_follow"
    t.act({"type": "commit", "card": c, "story": t.stories[0]})
    t.act({"type": "commit_done"})
    assert t.s.play[c].story == t.stories[0]


def test_r44_r132_an_attached_hound_neither_commits_nor_must_follow_ygolonac() -> None:
    """CoC-R44/R132: a Hound of Tindalos on a character is an attachment for now: it is not offered to
    commit, a commit naming it is refused, and a Y'Golonac "follow" effect on it cannot hold up the
    commit (it did: no commit_done, and random play never left the commit)."""
    t = Table()
    y = t.put(0, "shub-niggurath-ygolonac")
    c = t.put(0, CLERK)
    h = t.put(0, "yog-sothoth-hound-of-tindalos", host=c)
    t.s.mods.append({"t": h, "k": "follow", "ctl": 0, "until": "turn", "src": y})
    t.story()
    t.until("commit")
    assert not any(a.type == "commit" and a.card == h for a in t.legal(0))
    t.act({"type": "commit", "card": y, "story": t.stories[0]})
    assert any(a.type == "commit_done" for a in t.legal(0))
    with pytest.raises(RuleError) as e:
        ENGINE.apply(t.s, "a", {"type": "commit", "card": h, "story": t.stories[0]})
    assert e.value.code == "coc.cannot_commit"
    t.act({"type": "commit_done"})
    assert t.s.play[y].story == t.stories[0] and t.s.play[h].story is None


def test_priestess_of_bubastis_discounts_the_next_shub_character() -> None:
    t = Table()
    p = t.put(0, "shub-niggurath-priestess-of-bubastis")
    g = t.hand(0, "shub-niggurath-slavering-gug")
    t.operations()
    t.use(p)
    assert T.play_cost(t.s, 0, g, None) == 4


def test_slavering_gug_wounds_for_four() -> None:
    t = Table()
    g = t.put(0, "shub-niggurath-slavering-gug")
    c = t.put(1, CLERK)
    t.res(0, 0, SH, SH, SH, SH)
    t.operations()
    t.use(g, 0, 0)
    t.choose(c)
    assert c not in t.s.play


def test_forest_sister_cancels_a_wound_to_herself() -> None:
    t = Table(active=1)
    fs = t.put(0, "shub-niggurath-forest-sister")
    t.res(0, 0, SH)
    blast = t.hand(1, "agency-shotgun-blast")
    t.res(1, 0, CLERK, CLERK)
    t.operations()
    t.play(blast, 0)
    assert t.owing() == (0, "react")
    t.use(fs, 0, 0)
    assert fs in t.s.play and t.s.play[fs].wounds == 0


def test_ancient_guardian_readies_your_card() -> None:
    t = Table()
    g = t.put(0, "shub-niggurath-ancient-guardian")
    sup = t.put(0, "neutral-gentlemans-club", exhausted=True)
    t.res(0, 0, SH)
    t.operations()
    t.use(g, 0, 0)
    assert not t.s.play[sup].exhausted


def test_small_ghouls_put_three_discards_under_the_deck() -> None:
    t = Table()
    sg = t.hand(0, "shub-niggurath-small-ghouls")
    t.res(0, 0, SH, SH, SH, SH, SH)
    ds = [t.discard(0, CLERK) for _ in range(4)]
    t.operations()
    t.play(sg, 0)
    for d in ds[:3]:
        t.choose(d)
    assert t.s.players[0].deck[:3] == [ds[2], ds[1], ds[0]] and t.s.players[0].discard == [ds[3]]


def test_watcher_of_the_woods_enters_exhausted_without_support() -> None:
    t = Table()
    w = t.hand(0, "shub-niggurath-watcher-of-the-woods")
    t.res(0, 0, SH, SH, SH)
    t.operations()
    t.play(w, 0)
    assert t.s.play[w].exhausted
    t2 = Table()
    t2.put(0, "neutral-gentlemans-club")
    w = t2.hand(0, "shub-niggurath-watcher-of-the-woods")
    t2.res(0, 0, SH, SH, SH)
    t2.operations()
    t2.play(w, 0)
    assert not t2.s.play[w].exhausted


def test_mi_go_scout_investigation_to_mi_go() -> None:
    t = Table()
    s = t.put(0, "shub-niggurath-mi-go-scout")
    w = t.put(1, "shub-niggurath-mi-go-warrior")
    assert t.stats(s).icons[3] == 1 and t.stats(w).icons[3] == 1


def test_mi_go_warrior_cancels_a_wound_to_anyone() -> None:
    t = Table(active=1)
    mw = t.put(0, "shub-niggurath-mi-go-warrior")
    mine = t.put(0, CLERK)
    blast = t.hand(1, "agency-shotgun-blast")
    t.res(1, 0, CLERK, CLERK, CLERK)
    t.operations()
    t.play(blast, 0)
    t.choose(mine)
    t.use(mw)
    assert mine in t.s.play and t.s.play[mw].exhausted


def test_hungry_dark_young_brings_a_cheap_character() -> None:
    t = Table()
    h = t.hand(0, "shub-niggurath-hungry-dark-young")
    t.res(0, 0, SH, SH, SH)
    cheap = t.discard(0, "shub-niggurath-degenerate-ghoul")
    t.operations()
    t.play(h, 0)
    t.use(h)
    t.choose(cheap)
    assert cheap in t.s.play


def test_shadowed_woods_returns_a_character_after_a_shub_play() -> None:
    t = Table()
    sw = t.put(0, "shub-niggurath-shadowed-woods")
    g = t.hand(0, "shub-niggurath-degenerate-ghoul")
    t.res(0, 0, SH)
    t.res(0, 1, SH, SH)
    back = t.discard(0, CLERK)
    t.operations()
    t.play(g, 0)
    t.use(sw, 0, 1)
    t.choose(back)
    assert back in t.s.players[0].hand


def test_ghoul_taint_no_commit_on_its_controllers_turn() -> None:
    t = Table()
    c = t.put(0, CLERK)
    t.put(1, "shub-niggurath-ghoul-taint", host=c)
    assert not T.can_commit(t.s, c)
    t.s.active = 1
    assert T.can_commit(t.s, c)


def test_altar_of_the_blessed_plus_one_skill() -> None:
    t = Table()
    t.put(0, "shub-niggurath-altar-of-the-blessed")
    assert t.stats(t.put(0, CLERK)).skill == 4 and t.stats(t.put(1, CLERK)).skill == 3


def test_regeneration_cancels_a_wound_to_your_character() -> None:
    t = Table(active=1)
    r = t.hand(0, "shub-niggurath-regeneration")
    t.res(0, 0, SH)
    t.knows(0, "shub-niggurath-regeneration")
    mine = t.put(0, CLERK)
    blast = t.hand(1, "agency-shotgun-blast")
    t.res(1, 0, CLERK, CLERK, CLERK)
    t.operations()
    t.play(blast, 0)
    t.play(r, 0)
    assert mine in t.s.play


def test_burrowing_beneath_destroys_a_support() -> None:
    t = Table()
    b = t.hand(0, "shub-niggurath-burrowing-beneath")
    t.res(0, 0, SH, SH)
    s = t.put(1, "neutral-gentlemans-club")
    t.operations()
    t.play(b, 0)
    assert s in t.s.players[1].discard


def test_horrid_mutation_terror_to_your_committed() -> None:
    t = Table()
    h = t.hand(0, "shub-niggurath-horrid-mutation")
    t.res(0, 0, SH)
    c = t.put(0, CLERK, story=t.stories[0])
    idle = t.put(0, CLERK)
    t.operations()
    t.play(h, 0)
    assert t.stats(c).icons[0] == 1 and t.stats(idle).icons[0] == 0


def test_bred_to_survive_invulnerability_this_phase() -> None:
    t = Table()
    b = t.hand(0, "shub-niggurath-bred-to-survive")
    t.res(0, 0, SH, SH)
    c = t.put(0, CLERK)
    t.operations()
    t.play(b, 0)
    assert "invulnerable" in t.stats(c).kws
    t.pass_window()
    assert "invulnerable" not in t.stats(c).kws


def test_shocking_transformation_swaps_a_character_for_one_from_the_deck() -> None:
    t = Table()
    st = t.hand(0, "shub-niggurath-shocking-transformation")
    t.res(0, 0, SH, SH, SH)
    old = t.put(0, CLERK)
    new = t.top(0, "shub-niggurath-slavering-gug")
    t.operations()
    t.play(st, 0)
    t.choose(new)
    assert old in t.s.players[0].discard and new in t.s.play
