"""Neutral cards F141..F155."""

from __future__ import annotations

from rules.coc_lcg import table as T
from tests.rules.coc_lcg.helpers import Table

CLERK = "agency-blackwood-file-clerk"
NE = "neutral-45-pistols"


def won_by_two(t: Table, winner: int = 0) -> None:
    """Open the response window after ``winner`` wins a struggle by 2 at the first story."""
    T.trigger(t.s, "struggle_won", story=t.stories[0], icon=1, ctl=winner, margin=2)
    t.s.stack = []
    t.s.tasks = [{"t": "end"}]
    t.settle()


def test_mystic_bounty_hunter_returns_every_discarded_attachment() -> None:
    t = Table()
    h = t.put(0, "neutral-mystic-bounty-hunter")
    a, b = t.discard(0, "neutral-45-pistols"), t.discard(1, "agency-shotgun")
    other = t.discard(1, CLERK)
    t.operations()
    t.use(h)
    assert a in t.s.players[0].hand and b in t.s.players[1].hand and other in t.s.players[1].discard
    assert h in t.s.players[0].discard


def test_freelance_agent_gains_combat_per_weaker_opponent_at_its_story() -> None:
    t = Table()
    st = t.stories[0]
    fa = t.put(0, "neutral-freelance-agent", story=st)
    t.put(1, "miskatonic-laboratory-assistant", story=st)
    t.put(1, "cthulhu-young-deep-one", story=st)
    t.put(1, "agency-g-men", story=st)
    assert t.stats(fa).icons[1] == 2 + 4
    t.s.play[fa].story = None
    assert t.stats(fa).icons[1] == 2


def test_45_pistols_gives_its_host_combat() -> None:
    t = Table()
    c = t.put(0, CLERK)
    p = t.hand(0, "neutral-45-pistols")
    t.operations()
    t.play(p)
    assert t.s.play[p].host == c and t.stats(c).icons[1] == 1


def test_political_demonstration_destroys_a_support_after_a_big_win() -> None:
    t = Table()
    pd = t.hand(0, "neutral-political-demonstration")
    t.knows(0, "neutral-political-demonstration")
    sup = t.put(1, "neutral-arkham-asylum")
    won_by_two(t)
    assert t.owing() == (0, "react")
    t.play(pd)
    assert sup in t.s.players[1].discard


def test_overzealous_initiate_adds_a_domain() -> None:
    t = Table()
    oi = t.put(0, "neutral-overzealous-initiate")
    t.operations()
    t.use(oi)
    assert len(t.s.players[0].domains) == 4 and len(t.s.players[0].deck) == 19


def test_arkham_asylum_restores_and_readies() -> None:
    t = Table()
    aa = t.put(0, "neutral-arkham-asylum")
    mad = t.put(1, CLERK, insane=True, exhausted=True)
    t.res(0, 0, "hastur-mad-artist")
    t.operations()
    t.use(aa, 0, 0)
    assert not t.s.play[mad].insane and not t.s.play[mad].exhausted


def test_moving_the_scenery_moves_a_token_across() -> None:
    t = Table()
    st = t.stories[0]
    t.s.tokens[st] = [0, 4]
    ms = t.hand(0, "neutral-moving-the-scenery")
    t.res(0, 0, CLERK, CLERK)
    t.knows(0, "neutral-moving-the-scenery")
    won_by_two(t)
    t.play(ms, 0)
    assert t.s.tokens[st] == [1, 3]


def test_military_advisor_wounds_a_lower_skill_character_after_being_wounded() -> None:
    t = Table()
    ma = t.put(0, "neutral-military-advisor")
    low = t.put(1, CLERK)
    t.res(0, 0, CLERK, CLERK)
    T.wound(t.s, ma, t.events)
    t.s.tasks = [{"t": "end"}]
    t.settle()
    assert t.owing() == (0, "react")
    t.use(ma, 0, 0)
    assert low not in t.s.play and t.s.play[ma].wounds == 1


def test_serpent_from_yoth_makes_the_opponent_sacrifice() -> None:
    t = Table()
    sy = t.put(0, "neutral-serpent-from-yoth")
    a, b = t.put(1, CLERK), t.put(1, CLERK)
    T.destroy(t.s, sy, t.events)
    t.s.tasks = [{"t": "end"}]
    t.settle()
    assert t.owing() == (1, "choose") and set(t.options()) == {a, b}
    t.choose(b)
    assert b in t.s.players[1].discard and a in t.s.play


def test_tcho_tcho_talisman_terror_and_return_to_hand() -> None:
    t = Table()
    c = t.put(0, CLERK)
    tt = t.put(0, "neutral-tcho-tcho-talisman", host=c)
    assert t.stats(c).icons[0] == 2
    t.res(0, 0, CLERK)
    T.destroy(t.s, c, t.events)
    t.s.tasks = [{"t": "end"}]
    t.settle()
    assert t.owing() == (0, "react")
    t.use(tt, 1, 0)
    assert tt in t.s.players[0].hand


def test_inside_information_removes_a_struggle_this_phase() -> None:
    t = Table()
    ii = t.hand(0, "neutral-inside-information")
    t.res(0, 0, CLERK, CLERK)
    st = t.stories[1]
    t.operations()
    t.play(ii, 0)
    t.choose(st)
    t.choose("combat")
    assert T.struggles_of(t.s, st) == [1, 0, 1, 1]
    t.pass_window()
    assert T.struggles_of(t.s, st) == [1, 1, 1, 1]


def test_dabbler_in_the_unknown_token_on_an_empty_story() -> None:
    t = Table()
    d = t.put(0, "neutral-dabbler-in-the-unknown")
    t.s.tokens[t.stories[0]] = [1, 0]
    t.s.tokens[t.stories[1]] = [0, 1]
    t.operations()
    t.use(d)
    assert t.s.tokens[t.stories[2]] == [1, 0]


def test_gentlemans_club_draws_for_exhaust_and_two() -> None:
    t = Table()
    g = t.put(0, "neutral-gentlemans-club")
    t.res(0, 0, CLERK, CLERK)
    t.operations()
    t.use(g, 0, 0)
    assert len(t.s.players[0].hand) == 1 and t.s.play[g].exhausted


def test_eldritch_nexus_new_domain_with_a_resource() -> None:
    t = Table()
    en = t.hand(0, "neutral-eldritch-nexus")
    t.res(0, 0, CLERK)
    t.operations()
    t.play(en, 0)
    d = t.s.players[0].domains[3]
    assert d.card is not None and len(d.resources) == 1 and len(t.s.players[0].deck) == 18


def test_bootleg_whiskey_cover_up_is_a_conspiracy_with_four_struggles() -> None:
    t = Table()
    con = t.put(0, "neutral-the-bootleg-whiskey-cover-up")
    assert con in t.s.stories and T.struggles_of(t.s, con) == [1, 1, 1, 1]
    assert NE


def test_freelance_agent_compares_with_its_full_skill() -> None:
    """Its own skill includes other constants (Altar of the Blessed) before comparing."""
    t = Table()
    st = t.stories[0]
    t.put(0, "shub-niggurath-altar-of-the-blessed")
    fa = t.put(0, "neutral-freelance-agent", story=st)  # skill 3 + 1
    t.put(1, CLERK, story=st)  # skill 3: lower than 4
    assert t.stats(fa).icons[1] == 4


def test_serpent_from_yoth_fires_when_discarded_from_hand() -> None:
    """Serpent from Yoth: its forced effect fires whenever it enters your discard pile, here from the hand
    (Byakhee Attack makes its owner discard it)."""
    t = Table()
    sy = t.hand(1, "neutral-serpent-from-yoth")
    other = t.hand(1, CLERK)
    mine = t.put(0, CLERK)
    ba = t.hand(0, "hastur-byakhee-attack")
    t.res(0, 0, "hastur-hastur", "hastur-hastur")
    t.operations()
    t.play(ba, 0)
    t.choose(sy)  # the opponent picks what to discard
    t.choose(other)
    assert sy in t.s.players[1].discard
    assert mine in t.s.players[0].discard  # the only character of the Byakhee's player is sacrificed


def test_serpent_from_yoth_fires_when_milled_from_the_deck() -> None:
    """Serpent from Yoth: discarded from the top of the deck it fires too."""
    t = Table()
    sy = t.top(1, "neutral-serpent-from-yoth")
    a, b = t.put(0, CLERK), t.put(0, CLERK)
    T.mill(t.s, 1, 1, t.events)
    t.s.tasks = [{"t": "end"}]
    t.settle()
    assert sy in t.s.players[1].discard
    assert t.owing() == (0, "choose") and set(t.options()) == {a, b}
    t.choose(a)
    assert a in t.s.players[0].discard and b in t.s.play


def test_freelance_agent_counts_weaker_opposing_characters_at_every_story() -> None:
    """Freelance Agent, as printed: every weaker character the opponent has committed counts, at any
    story; uncommitted ones and its own side's do not."""
    t = Table()
    here, there = t.stories[0], t.stories[1]
    fa = t.put(0, "neutral-freelance-agent", story=here)
    t.put(1, "cthulhu-young-deep-one", story=there)  # skill 0, another story: counts
    t.put(1, "miskatonic-laboratory-assistant", story=here)  # weaker, same story: counts
    t.put(1, "cthulhu-young-deep-one")  # not committed
    t.put(0, "cthulhu-young-deep-one", story=there)  # its own side
    assert t.stats(fa).icons[1] == 2 + 4


def test_serpent_from_yoth_with_no_opposing_character_says_it_has_no_target() -> None:
    """A forced response with no legal target resolves and says so (Serpent from Yoth, the opponent has
    no character to sacrifice)."""
    t = Table()
    sy = t.put(0, "neutral-serpent-from-yoth")
    T.destroy(t.s, sy, t.events)
    t.s.tasks = [{"t": "end"}]
    t.settle()
    assert [e.card for e in t.events if e.type == "no_target"] == [sy]
