"""The Syndicate's scripted cards."""

from __future__ import annotations

from rules.coc_lcg import table as T
from tests.rules.coc_lcg.helpers import Table

SY = "syndicate-bag-man"  # Syndicate resource
CLERK = "agency-blackwood-file-clerk"


def _flush(t: Table) -> None:
    t.s.stack = []
    t.s.tasks = [{"t": "end"}]
    t.settle()


def test_jack_brass_brady_escapes_to_hand_before_an_opposing_ability() -> None:
    t = Table(active=1)
    jb = t.put(0, "syndicate-jack-brass-brady")
    gug = t.put(1, "shub-niggurath-slavering-gug")
    t.res(1, 0, CLERK, CLERK, CLERK, CLERK)
    t.operations()
    t.use(gug, 0, 0)
    t.choose(jb) if t.s.stack[-1].kind == "choose" else None
    assert t.owing() == (0, "react")
    t.use(jb)
    assert jb in t.s.players[0].hand


def test_richard_upton_pickman_borrows_keywords_and_abilities() -> None:
    t = Table()
    p = t.put(0, "syndicate-richard-upton-pickman")
    club_user = t.put(1, "hastur-demon-lover")  # exhaust: -2 skill
    t.put(1, "syndicate-bag-man")
    t.res(0, 0, SY, SY)
    t.operations()
    t.use(p, 0, 0)
    t.choose(club_user)
    assert T.blanked(t.s, club_user)
    t.pass_()  # b
    uses = [a for a in t.legal(0) if a.type == "use" and a.card == p and a.ability >= 100]
    assert uses
    t.use(p, uses[0].ability)
    t.choose(club_user)
    assert t.stats(club_user).skill == 0 and t.s.play[p].exhausted


def test_clover_club_bouncer_minus_one_skill() -> None:
    t = Table()
    b = t.put(0, "syndicate-clover-club-bouncer")
    c = t.put(1, CLERK)
    t.operations()
    t.use(b)
    t.choose(c)
    assert t.stats(c).skill == 2


def test_clover_club_torch_singer_minus_two_skill() -> None:
    t = Table()
    ts = t.put(0, "syndicate-clover-club-torch-singer")
    c = t.put(1, CLERK)
    t.res(0, 0, SY)
    t.operations()
    t.use(ts, 0, 0)
    t.choose(c)
    assert t.stats(c).skill == 1


def test_syndicate_liaison_exhausts_a_ready_character() -> None:
    t = Table()
    sl = t.hand(0, "syndicate-syndicate-liaison")
    t.res(0, 0, SY, SY, SY)
    c = t.put(1, CLERK)
    t.operations()
    t.play(sl, 0)
    t.choose(c)
    assert t.s.play[c].exhausted


def test_hard_case_exhausts_a_character_costing_up_to_your_domains() -> None:
    t = Table()
    hc = t.hand(0, "syndicate-hard-case")
    t.res(0, 0, SY, SY)
    cheap = t.put(1, CLERK)
    t.put(1, "agency-g-men")  # cost 6 > 3 domains
    t.operations()
    t.play(hc, 0)
    t.use(hc)
    t.choose(cheap) if t.s.stack[-1].kind == "choose" else None
    assert t.s.play[cheap].exhausted


def test_patsy_removes_two_tokens_from_a_small_pile() -> None:
    t = Table()
    p = t.put(0, "syndicate-patsy")
    st = t.stories[0]
    t.s.tokens[st] = [0, 3]
    t.s.tokens[t.stories[1]] = [3, 2]
    t.operations()
    t.use(p)
    assert t.s.tokens[st] == [0, 1]


def test_extortionist_exhausts_when_overpaid() -> None:
    t = Table()
    e = t.hand(0, "syndicate-extortionist")
    t.res(0, 0, SY, SY, SY)
    c = t.put(1, CLERK)
    t.put(1, "cthulhu-cthulhu")
    t.operations()
    t.play(e, 0)
    t.use(e)
    assert c in t.options() and not any("cthulhu-cthulhu" in o for o in t.options())
    t.choose(c)
    assert t.s.play[c].exhausted


def test_freelance_photographer_readies_itself() -> None:
    t = Table()
    f = t.put(0, "syndicate-freelance-photographer", exhausted=True)
    t.res(0, 0, SY)
    t.operations()
    t.use(f, 0, 0)
    assert not t.s.play[f].exhausted


def test_dutch_courage_toughness_for_your_characters() -> None:
    t = Table()
    t.put(0, "syndicate-dutch-courage")
    mine, theirs = t.put(0, CLERK), t.put(1, CLERK)
    assert t.stats(mine).toughness == 1 and t.stats(theirs).toughness == 0


def test_cathouse_readies_after_an_overpaid_ability() -> None:
    t = Table()
    t.put(0, "syndicate-cathouse")
    ph = t.put(0, "syndicate-freelance-photographer", exhausted=True)
    tired = t.put(0, CLERK, exhausted=True)
    t.res(0, 0, SY, SY)
    t.operations()
    t.use(ph, 0, 0)  # pay 1 with a domain of 2: overpaid
    assert t.owing() == (0, "react")
    t.use([c for c in t.s.play if "cathouse" in c][0])
    t.choose(tired) if t.s.stack[-1].kind == "choose" else None
    assert not t.s.play[tired].exhausted


def test_alhazreds_lamp_one_icon_of_each() -> None:
    t = Table()
    c = t.put(0, CLERK)
    t.put(0, "syndicate-alhazred-lamp", host=c)
    assert t.stats(c).icons == [1, 1, 1, 2]


def test_like_a_moth_printed_skill_zero() -> None:
    t = Table()
    m = t.hand(0, "syndicate-like-a-moth")
    t.res(0, 0, SY, SY)
    g = t.put(1, "agency-g-men")
    t.put(1, "shub-niggurath-altar-of-the-blessed")
    t.operations()
    t.play(m, 0)
    assert t.stats(g).skill == 1


def test_panic_exhausts_everyone_below_x() -> None:
    t = Table()
    p = t.hand(0, "syndicate-panic")
    t.res(0, 0, SY, SY, SY)
    low, high = t.put(1, "miskatonic-laboratory-assistant"), t.put(1, CLERK)
    t.operations()
    t.play(p, 0)
    assert t.s.play[low].exhausted and not t.s.play[high].exhausted


def test_get_on_yer_feet_readies_and_overpaid_plus_three() -> None:
    t = Table()
    g = t.hand(0, "syndicate-get-on-yer-feet")
    t.res(0, 0, SY, SY)
    c = t.put(0, CLERK, exhausted=True)
    t.operations()
    t.play(g, 0)
    assert not t.s.play[c].exhausted and t.stats(c).skill == 6


def test_low_blow_exhausts_or_maddens() -> None:
    t = Table()
    lb = t.hand(0, "syndicate-low-blow")
    t.res(0, 0, SY, SY)
    c = t.put(1, CLERK, exhausted=True)
    t.operations()
    t.play(lb, 0)
    assert t.s.play[c].insane


def test_legacy_of_ramses_can_return_to_hand_by_draining() -> None:
    t = Table()
    lr = t.hand(0, "syndicate-legacy-of-ramses")
    t.res(0, 0, SY, SY)
    t.res(0, 1, CLERK)
    c = t.put(0, CLERK, exhausted=True)
    t.operations()
    t.play(lr, 0)
    assert t.options() == ["1", "2", "none"] or set(t.options()) == {"1", "2", "none"}
    t.choose("1")
    assert not t.s.play[c].exhausted and lr in t.s.players[0].hand and t.s.players[0].domains[1].drained


def test_jack_brass_brady_escapes_before_his_own_players_ability_too() -> None:
    """Jack "Brass" Brady: before any triggered ability resolves, his own side's included, but not before
    an event (not an ability, CoC-R116)."""
    t = Table(active=0)
    jb = t.put(0, "syndicate-jack-brass-brady")
    bouncer = t.put(0, "syndicate-clover-club-bouncer")
    t.operations()
    t.use(bouncer)
    t.choose(jb) if t.s.stack[-1].kind == "choose" else None
    assert t.owing() == (0, "react")
    t.use(jb)
    assert jb in t.s.players[0].hand
