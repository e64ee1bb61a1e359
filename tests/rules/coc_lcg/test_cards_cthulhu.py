"""Cthulhu's scripted cards."""

from __future__ import annotations

from rules.coc_lcg import table as T
from tests.rules.coc_lcg.helpers import Table

CT = "cthulhu-young-deep-one"  # Cthulhu resource, a Deep One, skill 0
CLERK = "agency-blackwood-file-clerk"


def _flush(t: Table) -> None:
    t.s.stack = []
    t.s.tasks = [{"t": "end"}]
    t.settle()


def test_cthulhu_forces_a_sacrifice_after_each_draw_phase() -> None:
    t = Table(active=1)
    t.put(0, "cthulhu-cthulhu")
    a, b = t.put(1, CLERK), t.put(1, CLERK)
    t.turn()
    t.until("choose")  # right after the draw, before the Draw phase window
    assert t.owing() == (1, "choose") and set(t.options()) == {a, b}
    t.choose(a)
    assert a in t.s.players[1].discard


def test_dagon_cancels_an_opposing_event_aimed_at_him() -> None:
    t = Table(active=1)
    d = t.put(0, "cthulhu-dagon")
    deep = t.put(0, CT)
    t.res(0, 0, CT)
    doa = t.hand(1, "cthulhu-deep-one-assault")
    t.res(1, 0, CT, CT, CT, CT, CT)
    t.operations()
    t.play(doa, 0)
    t.choose(d)
    assert t.owing() == (0, "react")
    t.use(d, 0, 0)
    assert d in t.s.play and deep in t.s.players[0].discard and doa in t.s.players[1].discard


def test_shadow_spawned_hunting_horror_strips_investigation_while_committed() -> None:
    t = Table()
    st = t.stories[0]
    t.put(0, "cthulhu-shadow-spawned-hunting-horror", story=st)
    c = t.put(1, CLERK, story=st)
    idle = t.put(1, CLERK)
    assert t.stats(c).icons[3] == 0 and t.stats(idle).icons[3] == 1


def test_ravager_from_the_deep_wounds_everyone_else_at_its_story() -> None:
    t = Table()
    r = t.put(0, "cthulhu-ravager-from-the-deep")
    other = t.put(1, CLERK)
    t.story()
    t.until("commit")
    t.act({"type": "commit", "card": r, "story": t.stories[0]})
    t.act({"type": "commit_done"})
    t.until("commit")
    t.act({"type": "commit", "card": other, "story": t.stories[0]})
    t.act({"type": "commit_done"})
    assert other in t.s.play  # only its own commit triggers it
    t2 = Table()
    r = t2.put(0, "cthulhu-ravager-from-the-deep")
    mine = t2.put(0, CLERK)
    t2.story()
    t2.until("commit")
    t2.act({"type": "commit", "card": mine, "story": t2.stories[0]})
    t2.act({"type": "commit", "card": r, "story": t2.stories[0]})
    t2.act({"type": "commit_done"})
    assert mine not in t2.s.play and r in t2.s.play


def test_adult_deep_one_cancels_an_effect_targeting_it() -> None:
    t = Table(active=1)
    a = t.put(0, "cthulhu-adult-deep-one")
    t.res(0, 0, CT, CT)
    blast = t.hand(1, "agency-shotgun-blast")
    t.res(1, 0, CLERK)
    t.operations()
    t.play(blast, 0)
    assert t.owing() == (0, "react")
    t.use(a, 0, 0)
    assert a in t.s.play and t.s.play[a].wounds == 0


def test_ocean_crawlers_skill_per_attachment() -> None:
    t = Table()
    oc = t.put(0, "cthulhu-ocean-crawlers")
    t.put(1, "neutral-45-pistols", host=t.put(1, CLERK))
    t.put(0, "cthulhu-sleep-of-reason", host=t.stories[0])
    assert t.stats(oc).skill == 3


def test_lord_of_the_silver_twilight_discounts_cthulhu() -> None:
    t = Table()
    t.put(0, "cthulhu-lord-of-the-silver-twilight")
    c = t.hand(0, "cthulhu-cthulhu")
    other = t.hand(1, "cthulhu-cthulhu")
    assert T.play_cost(t.s, 0, c, None) == 5 and T.play_cost(t.s, 1, other, None) == 6


def test_mature_deep_one_destroys_an_attachment() -> None:
    t = Table()
    m = t.put(0, "cthulhu-mature-deep-one")
    p = t.put(1, "neutral-45-pistols", host=t.put(1, CLERK))
    t.res(0, 0, CT, CT, CT)
    t.operations()
    t.use(m, 0, 0)
    assert p in t.s.players[1].discard


def test_sleep_of_reason_attaches_to_a_story() -> None:
    t = Table()
    sr = t.hand(0, "cthulhu-sleep-of-reason")
    t.res(0, 0, CT, CT)
    t.operations()
    t.play(sr, 0)
    t.choose(t.stories[1])
    assert t.s.play[sr].host == t.stories[1] and T.boosters(t.s, t.stories[1], 0) == 3


def test_sword_of_yha_tallo_terror_and_combat() -> None:
    t = Table()
    c = t.put(0, CLERK)
    t.put(0, "cthulhu-sword-of-yha-tallo", host=c)
    assert t.stats(c).icons == [1, 1, 0, 1]


def test_shadowed_reef_copies_add_up() -> None:
    """CoC-R124: three Shadowed Reefs give a Deep One +3 Terror."""
    t = Table()
    y = t.put(0, CT)
    for _ in range(3):
        t.put(0, "cthulhu-shadowed-reef")
    assert t.stats(y).icons[0] == 3


def test_deep_one_assault_destroys_cost_x_or_less() -> None:
    t = Table()
    doa = t.hand(0, "cthulhu-deep-one-assault")
    t.res(0, 0, CT, CT)
    cheap, dear = t.put(1, CLERK), t.put(1, "agency-g-men")
    t.operations()
    t.play(doa, 0)
    assert cheap not in t.s.play and dear in t.s.play


def test_pulled_under_exhausts_a_terror_character_to_destroy_an_exhausted_one() -> None:
    t = Table()
    pu = t.hand(0, "cthulhu-pulled-under")
    t.res(0, 0, CT, CT)
    k = t.put(0, "cthulhu-keeper-of-the-golden-path")
    tired = t.put(1, CLERK, exhausted=True)
    t.put(1, "cthulhu-cthulhu", exhausted=True)  # an Ancient One: safe
    t.operations()
    t.play(pu, None)
    assert tired not in t.s.play and t.s.play[k].exhausted


def test_get_it_off_destroys_an_attachment() -> None:
    t = Table()
    g = t.hand(0, "cthulhu-get-it-off")
    t.res(0, 0, CT)
    p = t.put(1, "neutral-45-pistols", host=t.put(1, CLERK))
    t.operations()
    t.play(g, 0)
    assert p in t.s.players[1].discard


def test_sacrificial_offerings_wound_then_the_victim_wounds_back() -> None:
    t = Table()
    so = t.hand(0, "cthulhu-sacrificial-offerings")
    t.res(0, 0, CT)
    mine, theirs = t.put(0, CLERK), t.put(1, CLERK)
    t.operations()
    t.play(so, 0)
    assert theirs not in t.s.play and t.owing() == (1, "choose")
    t.choose(mine)
    assert mine not in t.s.play


def test_touched_by_the_sleeper_two_terror_to_a_cthulhu_character() -> None:
    t = Table()
    tb = t.hand(0, "cthulhu-touched-by-the-sleeper")
    y = t.put(0, CT)
    t.put(0, CLERK)
    t.operations()
    t.play(tb, None)
    assert t.stats(y).icons[0] == 2


def test_dagon_answers_only_an_event_that_would_destroy_him() -> None:
    """Dagon: an event that targets him without destroying him (Low Blow exhausting him) opens no window
    for his Disrupt."""
    t = Table(active=1)
    d = t.put(0, "cthulhu-dagon")
    t.put(0, CT)
    t.res(0, 0, CT)
    lb = t.hand(1, "syndicate-low-blow")
    t.res(1, 0, "syndicate-bag-man", "syndicate-bag-man")
    t.operations()
    t.play(lb, 0)
    if t.s.stack[-1].kind == "choose":
        t.choose(d)
    assert t.s.play[d].exhausted and t.owing() == (0, "window")


def test_dagon_cancels_his_own_players_event_that_would_destroy_him() -> None:
    """Dagon: whoever plays the destroying event, he may cancel it (not only the opponent's)."""
    t = Table(active=0)
    d = t.put(0, "cthulhu-dagon")
    deep = t.put(0, CT)
    t.res(0, 1, CT)
    doa = t.hand(0, "cthulhu-deep-one-assault")
    t.res(0, 0, CT, CT, CT, CT, CT)
    t.operations()
    t.play(doa, 0)
    t.choose(d)
    assert t.owing() == (0, "react")
    t.use(d, 0, 1)
    assert d in t.s.play and deep in t.s.players[0].discard and doa in t.s.players[0].discard


def test_adult_deep_one_cancels_its_own_players_effect_too() -> None:
    """Adult Deep One: any effect that targets it, its own controller's included."""
    t = Table(active=0)
    a = t.put(0, "cthulhu-adult-deep-one")
    t.res(0, 1, CT, CT)
    blast = t.hand(0, "agency-shotgun-blast")
    t.res(0, 0, CLERK, CLERK, CLERK)
    t.operations()
    t.play(blast, 0)
    t.choose(a) if t.s.stack[-1].kind == "choose" else None
    assert t.owing() == (0, "react")
    t.use(a, 0, 1)
    assert a in t.s.play and t.s.play[a].wounds == 0
