"""Timing and the rest of the table rules: CoC-R114..R124, A3..A6 (windows, responses, forced
responses, disrupts), CoC-R126..R136 (destruction, sacrifice, domains, attachments, control)."""

from __future__ import annotations

import pytest

from rules.coc_lcg import table as T
from tests.rules.coc_lcg.helpers import Table

CLERK = "agency-blackwood-file-clerk"
BYAKHEE = "hastur-byakhee-servant"


def test_r122_worked_example_power_drain_cancels_shotgun_blast() -> None:
    """CoC-R122/R120/R121/A6: Darin plays Byakhee Servant; Tommy answers with Shotgun Blast (X = 3) at
    it; Darin's Power Drain cancels the blast, which is discarded while Tommy's domain stays drained."""
    t = Table(active=0)  # a = Darin (Hastur), b = Tommy (Agency)
    byakhee = t.hand(0, BYAKHEE)
    drain = t.hand(0, "hastur-power-drain")
    t.res(0, 0, "hastur-mad-artist", "hastur-mad-artist", CLERK, CLERK)
    t.res(0, 1, "hastur-mad-artist", CLERK)
    t.knows(0, "hastur-power-drain")
    blast = t.hand(1, "agency-shotgun-blast")
    t.res(1, 0, CLERK, "cthulhu-young-deep-one", "cthulhu-young-deep-one")
    t.operations()
    t.play(byakhee, 0)
    assert t.owing() == (1, "window")
    t.play(blast, 0)  # the only target with skill <= 3 is picked
    assert t.owing() == (0, "react")  # Darin's disrupt window before the blast resolves
    t.play(drain, 1)
    assert byakhee in t.s.play and t.s.play[byakhee].wounds == 0
    assert blast in t.s.players[1].discard and t.s.players[1].domains[0].drained
    assert drain in t.s.players[0].discard
    assert any(e.type == "cancelled" for e in t.events)


def test_a6_disrupt_window_is_only_for_who_could_use_one() -> None:
    """CoC-A6/D4: whether the disrupt window opens depends on public facts (deck lists, cards in play),
    never on the hand."""
    t = Table(active=0)
    target = t.put(0, "cthulhu-young-deep-one")
    blast = t.hand(1, "agency-shotgun-blast")
    t.res(1, 0, CLERK)
    t.operations()
    t.pass_()
    t.play(blast, 0)
    assert target not in t.s.play  # nobody could disrupt: no window
    t2 = Table(active=0)
    t2.knows(0, "hastur-power-drain")  # in the deck list, not in hand
    target = t2.put(0, "cthulhu-young-deep-one")
    blast = t2.hand(1, "agency-shotgun-blast")
    t2.res(1, 0, CLERK)
    t2.operations()
    t2.pass_()
    t2.play(blast, 0)
    assert t2.owing() == (0, "react")
    assert [a.type for a in t2.legal(0)] == ["pass"]  # asked, but holds nothing
    t2.pass_()
    assert target not in t2.s.play


def test_r119_a5_forced_response_resolves_after_its_trigger() -> None:
    """CoC-R119/A5: a Forced Response (T-Men entering play) happens at once, after the play resolves."""
    t = Table(active=0)
    tm = t.hand(0, "agency-t-men")
    t.res(0, 0, CLERK, CLERK, CLERK, CLERK, CLERK)
    t.res(0, 1, CLERK)
    victim = t.put(1, "cthulhu-young-deep-one")
    t.operations()
    t.play(tm, 0)
    assert t.owing() == (0, "choose") and set(t.options()) == {tm, victim}
    t.choose(victim)
    assert victim not in t.s.play
    assert t.owing() == (1, "window")


def test_r118_response_is_optional_and_used_once_per_trigger() -> None:
    """CoC-R118/R124/A5: a response window asks the seat that could respond; each copy once."""
    t = Table(active=0)
    kafour = t.put(0, "miskatonic-dr-ali-kafour")
    t.story()
    t.until("commit")
    t.act({"type": "commit", "card": kafour, "story": t.stories[0]})
    t.act({"type": "commit_done"})
    assert t.owing() == (0, "react")
    uses = [a for a in t.legal(0) if a.type == "use"]
    assert len(uses) == 1
    t.use(kafour, 0)
    assert len(t.s.players[0].hand) == 1
    assert t.owing() == (1, "window") or not any(a.type == "use" for a in t.legal(0))


def test_a3_disrupts_work_inside_story_resolution() -> None:
    """CoC-A3/R123: no Actions while stories resolve, but a Disrupt (Regeneration) still answers a
    Combat wound there."""
    t = Table(active=1)
    st = t.stories[0]
    t.put(1, "agency-hired-muscle", story=st, exhausted=True)
    mine = t.put(0, CLERK, story=st, exhausted=True)
    regen = t.hand(0, "shub-niggurath-regeneration")
    t.res(0, 0, "shub-niggurath-degenerate-ghoul")
    t.knows(0, "shub-niggurath-regeneration")
    from rules.coc_lcg import flow

    t.s.phase, t.s.step = "story", "resolve"
    t.s.tasks = [{"t": "struggle", "story": st, "i": 1, "k": 0}]
    t.settle()
    assert t.owing() == (0, "react")
    assert not any(a.type == "use" for a in t.legal(0))
    t.play(regen, 0)
    assert mine in t.s.play and t.s.play[mine].wounds == 0
    assert flow  # the runner drove it


def test_r126_r127_destroyed_and_sacrificed_go_to_the_owners_discard() -> None:
    """CoC-R126/R127/R135: both end in the owner's discard pile, even under another's control."""
    t = Table(active=0)
    borrowed = t.put(1, CLERK, ctl=0)
    T.destroy(t.s, borrowed, t.events)
    assert borrowed in t.s.players[1].discard
    mine = t.put(0, CLERK)
    T.leave_play(t.s, mine, "sacrificed", t.events)
    assert mine in t.s.players[0].discard
    assert [x["how"] for x in t.s.triggers if x["on"] == "left"] == ["destroyed", "sacrificed"]


def test_r131_adding_a_domain_takes_the_top_card_privately() -> None:
    """CoC-R131 (Overzealous Initiate): the top deck card becomes a face-down domain; only its owner
    sees it; the deck shrinks."""
    t = Table(active=0)
    oi = t.put(0, "neutral-overzealous-initiate")
    top = t.top(0, CLERK)
    t.operations()
    t.use(oi, 0)
    assert len(t.s.players[0].domains) == 4 and t.s.players[0].domains[3].card == top
    assert oi in t.s.players[0].discard
    looked = [e for e in t.events if e.type == "looked"]
    assert looked and looked[-1].audience == "a"


def test_r132_attachments_are_destroyed_with_their_host() -> None:
    """CoC-R132: the host leaving play destroys its attachments."""
    t = Table(active=0)
    c = t.put(0, CLERK)
    p = t.put(1, "neutral-45-pistols", host=c)
    T.leave_play(t.s, c, "returned", t.events, dest="hand")
    assert c in t.s.players[0].hand and p in t.s.players[1].discard


def test_r133_r136_control_changes_and_returns() -> None:
    """CoC-R133/R134/R136 (Blind Submission): control passes until the phase ends, then goes back."""
    t = Table(active=0)
    theirs = t.put(1, "cthulhu-innsmouth-troublemaker")  # skill 1
    bs = t.hand(0, "hastur-blind-submission")
    t.res(0, 0, "hastur-mad-artist", CLERK)
    t.operations()
    t.play(bs, 0)
    assert t.s.play[theirs].ctl == 0 and t.s.play[theirs].owner == 1
    t.pass_window()
    assert t.s.play[theirs].ctl == 1


def test_a3_r118_responses_to_a_struggle_follow_its_result() -> None:
    """CoC-A3/R118: a response to winning a struggle (Despair) is offered after the loser's wound."""
    t = Table(active=0)
    st = t.stories[0]
    t.put(0, "agency-hired-muscle", story=st, exhausted=True)  # CCC
    victim = t.put(1, CLERK, story=st, exhausted=True)
    t.hand(0, "hastur-despair")
    t.res(0, 0, "hastur-mad-artist")
    t.knows(0, "hastur-despair")
    t.s.phase, t.s.step = "story", "resolve"
    t.s.tasks = [{"t": "struggle", "story": st, "i": 1, "k": 0}]
    t.settle()
    assert t.owing() == (0, "react") and victim not in t.s.play


OWN_OPERATIONS_ONLY = ["agency-short-fuse", "agency-torch-the-joint", "miskatonic-unearthing-the-ancients",
                       "hastur-byakhee-attack", "yog-sothoth-opening-the-limbo-gate", "yog-sothoth-a-single-glimpse",
                       "yog-sothoth-gathering-at-the-stones"]


@pytest.mark.parametrize("card", OWN_OPERATIONS_ONLY)
def test_play_only_during_your_own_operations_phase(card: str) -> None:
    """Short Fuse, Torch the Joint!, Unearthing the Ancients, Byakhee Attack, Opening the Limbo Gate, A Single
    Glimpse, Gathering at the Stones: playable in your own Operations phase only, never in the opponent's."""
    from rules.coc_lcg.cards import catalog, faction_cards
    from rules.coc_lcg.playing import playable

    res = faction_cards(catalog()[card].faction)[0]
    for p in (0, 1):
        t = Table(active=0)
        t.put(0, CLERK), t.put(1, CLERK)
        t.res(p, 0, res, res, res, res)
        t.res(0 if p else 1, 0, "hastur-hastur")  # a non-Agency resource for Torch the Joint!
        t.discard(0, CLERK), t.discard(1, CLERK)
        c = t.hand(p, card)
        t.operations()
        if p == 1:
            t.pass_()  # the active player passes: the opponent acts in a window of the active player's phase
        assert t.owing() == (p, "window")
        assert t.s.step == "operations"
        can = any(x == c for x, _ in playable(t.s, p, "action", None, "operations"))
        assert can == (p == 0), (card, p)
