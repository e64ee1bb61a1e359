"""Rules an audit found implemented but never cited by id: CoC-R43, R66, R67, R75, R91, R92, R95, R98,
R109, R115, R116, R128, R129, A2 and A19. One test per rule, each driving the engine through a position
and checking what it does, so a later change that breaks the rule fails a test named after it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.core import RuleError
from rules.coc_lcg import cards as C
from rules.coc_lcg import table as T
from rules.coc_lcg.cards import catalog
from rules.coc_lcg.engine import deck_cards
from rules.coc_lcg.options import DeckChoice
from rules.coc_lcg.script import SCRIPTS
from tests.rules.coc_lcg.helpers import ENGINE, SEATS, Table, new

CLERK = "agency-blackwood-file-clerk"  # Agency, cost 2, skill 3, I
MUSCLE = "agency-hired-muscle"  # Agency, skill 3, CCC, Toughness +1
KEEPER = "cthulhu-keeper-of-the-golden-path"  # Villainous, skill 3, TT
YOUNG = "cthulhu-young-deep-one"  # skill 0, CCA
SCHOLAR = "miskatonic-laboratory-assistant"  # Miskatonic, cost 1, skill 1, I
INITIATE = "yog-sothoth-arcane-initiate"  # skill 1, A, Willpower
CONSPIRACY = "neutral-the-bootleg-whiskey-cover-up"  # neutral conspiracy, cost 1
DABBLER = "neutral-dabbler-in-the-unknown"  # neutral character, cost 1
INSIDE_INFO = "neutral-inside-information"  # neutral event, cost 2: a story loses a struggle icon
MESSENGER = "hastur-messenger-from-beyond"  # Action: exhaust to take a Terror icon away
ARTIST = "hastur-performance-artist"  # Disrupt: sacrifice to cancel an ability of a character/support
HASTUR = "hastur-mad-artist"  # a Hastur card, used here as a Hastur resource


# ------------------------------------------------------------------------------------------- helpers
def _commit(t: Table, plan: dict[str, str]) -> None:
    for c, st in plan.items():
        t.act({"type": "commit", "card": c, "story": st})
    t.act({"type": "commit_done"})


def _answer_everything(t: Table) -> None:
    """Answer the decision on top as plainly as possible: pass windows, commit nobody, take the first
    option of a question (questions here are only optional readies and token placements)."""
    top = t.s.stack[-1]
    if top.kind == "commit":
        t.act({"type": "commit_done"})
    elif top.kind == "choose":
        t.choose(t.options()[0])
    else:
        t.pass_()


def _until_active(t: Table, p: int) -> None:
    """Play the current turn out plainly until seat ``p`` is the active player."""
    for _ in range(200):
        if t.s.active == p:
            return
        _answer_everything(t)
    raise AssertionError("the turn never ended")


def _decline_story_effect(t: Table) -> None:
    if t.s.stack and t.s.stack[-1].kind == "choose" and set(t.options()) == {"use", "none"}:
        t.choose("none")


# ------------------------------------------------------------------------------------------- the tests
def test_r43_story_phase_is_active_commit_then_opponent_commit_then_resolution() -> None:
    """CoC-R43: the Story phase runs in three steps: the active player's commit is made and revealed
    first, only then is the opponent asked to commit, and struggles start only once both have committed
    (with an action window around each step)."""
    t = Table(active=0)
    a = t.put(0, CLERK)
    d = t.put(1, CLERK)
    t.story()
    trail: list[str] = []
    while t.s.phase == "story" and t.s.step != "story_g":
        top = t.s.stack[-1]
        p, kind = t.owing()
        trail.append(f"{kind}:{top.params.get('step', '')}:{SEATS[p]}")
        if kind == "commit" and p == 0:
            _commit(t, {a: t.stories[0]})
        elif kind == "commit":
            assert set(top.params["stories"]) == {t.stories[0]}  # only where the attacker went
            _commit(t, {d: t.stories[0]})
        else:
            _answer_everything(t)
    steps = list(dict.fromkeys(trail))
    assert steps[:7] == ["window:story_a:a", "window:story_a:b", "commit::a", "window:story_c:a",
                         "window:story_c:b", "commit::b", "window:story_e:a"]
    kinds = [e.type for e in t.events]
    commits = [i for i, k in enumerate(kinds) if k == "committed"]
    assert [t.events[i].seat for i in commits] == ["a", "b"]
    assert min(i for i, k in enumerate(kinds) if k == "struggle") > commits[1]


def test_r66_insane_characters_recover_only_in_own_refresh_or_by_an_effect() -> None:
    """CoC-R66: insanity does not wear off by itself: the opponent's whole turn restores nothing, the
    owner's Refresh restores exactly one of two, the other stays insane through the later phases, and
    a card effect (Arkham Asylum) is the other way back."""
    t = Table(active=1)
    mad1 = t.put(0, CLERK, insane=True, exhausted=True)
    mad2 = t.put(0, CLERK, insane=True, exhausted=True)
    asylum = t.put(0, "neutral-arkham-asylum")
    t.res(0, 0, CLERK)
    t.turn()
    _until_active(t, 0)  # the opponent's full turn, then my Refresh asks whom to restore
    assert t.s.play[mad1].insane and t.s.play[mad2].insane
    assert t.owing() == (0, "choose") and set(t.options()) == {mad1, mad2}
    t.choose(mad1)
    assert not t.s.play[mad1].insane and t.s.play[mad1].exhausted
    t.until("window", "operations")  # Draw and Resource phases went by
    assert t.s.play[mad2].insane
    t.use(asylum, 0, domain=0)  # the only insane character is the target
    assert not t.s.play[mad2].insane and not t.s.play[mad2].exhausted


def test_r67_domains_start_at_three_hold_resources_and_are_fresh_or_drained() -> None:
    """CoC-R67: a dealt game gives each player 3 face-down domains (spare cards, no identity) with the
    setup resources on them; paying drains exactly one domain, which stays drained until its owner's
    next Refresh makes it fresh again."""
    s = new(seed=3)
    for p, seat in enumerate(SEATS):
        for card in s.players[p].hand[:3]:
            s, _ = ENGINE.apply(s, seat, {"type": "setup_resource", "card": card})
    for pl in s.players:
        assert len(pl.domains) == 3
        assert all(d.card is None and len(d.resources) == 1 and not d.drained for d in pl.domains)

    t = Table(active=0)
    c = t.hand(0, CLERK)
    t.res(0, 0, CLERK, CLERK)
    t.res(0, 1, CLERK, CLERK)
    t.operations()
    t.play(c, 1)
    assert [d.drained for d in t.s.players[0].domains] == [False, True, False]
    _until_active(t, 1)
    assert t.s.players[0].domains[1].drained  # not the opponent's Refresh
    _until_active(t, 0)
    assert not any(d.drained for d in t.s.players[0].domains)


def test_r75_a_story_resolves_terror_combat_arcane_investigation_then_success() -> None:
    """CoC-R75: a story's resolution is its four icon struggles in the fixed order and then the skill
    check; an effect taking a struggle icon away (Inside Information on the second story) skips that
    struggle there and leaves the rest of the order intact."""
    t = Table(active=0)
    s0, s1 = t.stories[0], t.stories[1]
    first = [t.put(0, KEEPER), t.put(0, YOUNG), t.put(0, CLERK)]
    second = [t.put(0, KEEPER), t.put(0, YOUNG), t.put(0, CLERK)]
    info = t.hand(0, INSIDE_INFO)
    t.res(0, 0, CLERK, CLERK)
    t.story()
    t.until("commit")
    _commit(t, {**{c: s0 for c in first}, **{c: s1 for c in second}})
    t.until("window", "story_e")
    t.play(info, 0)
    t.choose(s1)
    t.choose("combat")
    t.pass_window()
    assert set(t.options()) == {s0, s1}
    t.choose(s0)
    while t.s.step != "story_g":
        _answer_everything(t)

    def steps(story: str) -> list[str]:
        return [e.icon if e.type == "struggle" else "success" for e in t.events
                if e.type in ("struggle", "skill_check") and e.story == story]

    assert steps(s0) == ["terror", "combat", "arcane", "investigation", "success"]
    assert steps(s1) == ["terror", "arcane", "investigation", "success"]


def test_r91_five_won_stories_at_most_so_the_story_deck_never_runs_dry() -> None:
    """CoC-R91: won stories are replaced from the 7-card story deck, but the game stops at the 5th win
    (2 + 2 + 1), so only 4 replacements are ever drawn: 3 stories stay face up until the end and none of
    the 10 story cards goes missing, the final one included."""
    t = Table(active=0)
    assert len(t.s.story_deck) == 7
    for k, p in enumerate((0, 1, 0, 1, 0)):
        T.place_tokens(t.s, t.stories[0], p, T.WIN_TOKENS, t.events)
        t.settle()
        if k < 4:
            _decline_story_effect(t)
            assert len(t.s.stories) == 3
    assert t.s.phase == "over" and t.s.winner == 0
    assert len(t.s.players[0].won) == 3 and len(t.s.players[1].won) == 2
    assert len(t.s.story_deck) == 3  # 4 replacements drawn, not 5
    every = t.s.stories + t.s.story_deck + t.s.players[0].won + t.s.players[1].won
    assert len(every) == len(set(every)) == 10


def test_r92_conspiracies_are_deck_cards_of_their_owner() -> None:
    """CoC-R92: a conspiracy is built into a player's own deck (it counts toward the 50 and is held to
    3 copies of its title) and is dealt from that deck, never mixed into the shared story deck."""
    pool = [c for c in sorted(SCRIPTS) if catalog()[c].type not in ("story", "conspiracy")]
    deck = pool[:47] + [CONSPIRACY] * 3
    assert len(deck_cards(DeckChoice(cards=tuple(deck)))) == 50
    with pytest.raises(RuleError) as e:
        deck_cards(DeckChoice(cards=tuple(pool[:46] + [CONSPIRACY] * 3)))  # 49: conspiracies count, no more
    assert e.value.code == "coc.deck_too_small"
    with pytest.raises(RuleError) as e:
        deck_cards(DeckChoice(cards=tuple(pool[:46] + [CONSPIRACY] * 4)))
    assert e.value.code == "coc.too_many_copies"
    s = new(seed=5, deck1={"cards": deck})
    mine = [c for c in s.players[0].deck + s.players[0].hand if T.card_id(c) == CONSPIRACY]
    assert len(mine) == 3 and all(T.owner(c) == 0 for c in mine)
    assert not any(CONSPIRACY in x for x in s.story_deck + s.stories)


def test_r95_a_conspiracy_can_be_attached_as_a_resource() -> None:
    """CoC-R95: in the Resource phase a conspiracy from hand may go onto a domain; there it is just a
    resource of its (neutral) faction: it pays for a neutral card, gives no faction match, and is not a
    story in play, so another conspiracy can still be played."""
    t = Table(active=0)
    as_resource = t.hand(0, CONSPIRACY)
    other = t.hand(0, CONSPIRACY)
    scholar = t.hand(0, SCHOLAR)
    t.turn()
    t.until("resource")
    t.act({"type": "attach_resource", "card": as_resource, "domain": 0})
    assert t.s.players[0].domains[0].resources == [as_resource]
    assert as_resource not in t.s.stories and as_resource not in t.s.play
    assert T.domain_value(t.s, 0, 0) == 1
    assert T.payment_error(t.s, 0, scholar, 0)[0] == "coc.no_resource_match"
    t.until("window", "operations")
    assert any(a.type == "play" and a.card == other and a.domain == 0 for a in t.legal(0))
    t.play(other, 0)
    assert other in t.s.stories and t.s.players[0].domains[0].drained


def test_r98_after_its_conspiracy_is_won_a_player_may_play_another() -> None:
    """CoC-R98: while a player has a conspiracy in play a second is refused; once the opponent wins it,
    that player's next Operations phase lets them play another copy of the very same conspiracy."""
    t = Table(active=1)
    con = t.put(0, CONSPIRACY)
    again = t.hand(0, CONSPIRACY)
    t.res(0, 0, CLERK)
    assert T.may_enter(t.s, again, 0)[0] == "coc.one_conspiracy"
    t.s.tokens[con] = [0, 4]
    T.place_tokens(t.s, con, 1, 1, t.events)
    t.settle()
    assert con in t.s.players[1].won and con not in t.s.stories
    t.s.active = 0
    t.turn()
    t.until("window", "operations")
    assert any(a.type == "play" and a.card == again for a in t.legal(0))
    t.play(again, 0)
    assert again in t.s.stories and t.s.play[again].ctl == 0


def test_r109_the_engine_knows_exactly_the_nine_rulebook_keywords() -> None:
    """CoC-R109: reading the card data, every keyword printed in the Core Set lands on one of the nine
    rulebook keywords (Fast, Heroic, Villainous, Invulnerability, Loyal, Steadfast, Toughness, Transient,
    Willpower) and all nine occur; a keyword from a later expansion is refused rather than dropped, so a
    card cannot silently lose a rule."""
    raw = json.loads((Path(C.__file__).parent / "data" / "cards.json").read_text(encoding="utf-8"))
    seen: set[str] = set()
    for card in raw["cards"]:
        d = C._def(card)
        seen |= d.keywords
        seen |= {k for k, on in (("toughness", d.toughness), ("steadfast", d.steadfast),
                                 ("transient", d.transient)) if on}
    assert seen == {"fast", "heroic", "villainous", "invulnerable", "loyal", "steadfast", "toughness",
                    "transient", "willpower"}
    sample = next(c for c in raw["cards"] if c["id"] == MUSCLE)
    for later in ("Fated", "Resilient"):
        with pytest.raises(KeyError):
            C._def({**sample, "keywords": [later]})


def test_r115_an_action_resolves_completely_before_anyone_acts_again() -> None:
    """CoC-R115: while the Shotgun Blast waits for its target nobody else may act; the wound and the
    discard of the event are done before the next player gets priority. The one exception is a Disrupt:
    its window opens before the blast lands, and there only Disrupts may be played."""
    t = Table(active=0)
    clerk, scholar = t.put(0, CLERK), t.put(0, SCHOLAR)
    blast = t.hand(1, "agency-shotgun-blast")
    t.res(1, 0, CLERK, CLERK, CLERK)
    t.operations()
    t.pass_()
    t.play(blast, 0)
    assert [x.seat for x in ENGINE.pending(t.s)] == ["b"] and ENGINE.legal_actions(t.s, "a") == []
    with pytest.raises(RuleError) as e:
        ENGINE.apply(t.s, "a", {"type": "pass"})
    assert e.value.code == "not_your_turn"
    t.choose(scholar)
    assert scholar not in t.s.play and blast in t.s.players[1].discard and not t.s.resolving
    assert t.owing() == (0, "window") and clerk in t.s.play

    t2 = Table(active=0)
    scholar = t2.put(0, SCHOLAR)
    drain = t2.hand(0, "hastur-power-drain")
    info = t2.hand(0, INSIDE_INFO)
    t2.res(0, 0, HASTUR, CLERK)
    t2.knows(0, "hastur-power-drain")
    blast = t2.hand(1, "agency-shotgun-blast")
    t2.res(1, 0, CLERK, CLERK, CLERK)
    t2.operations()
    t2.pass_()
    t2.play(blast, 0)
    assert t2.owing() == (0, "react") and scholar in t2.s.play and blast in t2.s.resolving
    offered = {(a.type, getattr(a, "card", None)) for a in t2.legal(0)}
    assert ("play", drain) in offered and ("play", info) not in offered


def test_r116_triggered_abilities_work_from_play_and_differ_from_events() -> None:
    """CoC-R116: an ``Action:`` printed on a character is a triggered ability only while the card is in
    play (the copy in hand offers no use); using it is an ability of a character, which Performance
    Artist may disrupt, while an event played from hand is a triggered effect but not such an ability,
    so the Artist gets no window for it."""
    t = Table(active=0)
    messenger = t.put(0, MESSENGER)
    in_hand = t.hand(0, MESSENGER)
    info = t.hand(0, INSIDE_INFO)
    t.res(0, 0, HASTUR, HASTUR)
    artist = t.put(1, ARTIST)
    victim = t.put(1, KEEPER)
    t.operations()
    uses = {a.card for a in t.legal(0) if a.type == "use"}
    assert uses == {messenger} and in_hand not in uses
    t.play(info, 0)
    t.choose(t.stories[0])
    t.choose("terror")
    assert t.owing() == (1, "window")  # resolved with no disrupt window for the Artist
    t.pass_()
    t.use(messenger, 0)
    t.choose(victim)
    assert t.owing() == (1, "react")
    assert any(a.type == "use" and a.card == artist for a in t.legal(1))
    t.use(artist, 0)
    assert artist in t.s.players[1].discard and t.stats(victim).icons[0] == 2  # cancelled


def test_r128_wounds_stay_until_the_character_leaves_play() -> None:
    """CoC-R128: a wound on a Toughness +1 character survives a full round of turns (no phase heals
    it), and a second wound, exceeding its Toughness, destroys it; a wounded character that leaves play
    and comes back has no wounds."""
    t = Table(active=0)
    muscle = t.put(0, MUSCLE)
    other = t.put(0, MUSCLE)
    T.wound(t.s, muscle, t.events)
    T.wound(t.s, other, t.events)
    t.turn()
    _until_active(t, 1)
    _until_active(t, 0)
    assert t.s.play[muscle].wounds == 1 and t.s.play[other].wounds == 1
    T.wound(t.s, muscle, t.events)
    assert muscle not in t.s.play and muscle in t.s.players[0].discard
    T.leave_play(t.s, other, "returned", t.events, dest="hand")
    t.s.players[0].hand.remove(other)
    T.enter_play(t.s, other, 0, t.events)
    assert t.s.play[other].wounds == 0


def test_r129_discarding_from_play_is_neither_destroying_nor_sacrificing() -> None:
    """CoC-R129: when a control change leaves a player with Heroic and Villainous characters, the side
    they give up is discarded: it goes to its owner's pile recorded as a discard, never as destroyed or
    sacrificed, so effects about destruction or sacrifice do not see it."""
    t = Table(active=0)
    keeper = t.put(0, KEEPER)  # Villainous
    heroic = t.put(1, "agency-undercover-security", ctl=0)  # Heroic, borrowed from the opponent
    t.operations()
    assert t.owing() == (0, "choose") and set(t.options()) == {"heroic", "villainous"}
    t.choose("villainous")
    assert keeper in t.s.play and heroic not in t.s.play and heroic in t.s.players[1].discard
    left = [e for e in t.events if e.type == "left_play" and e.card == heroic]
    assert [e.how for e in left] == ["discarded"]
    assert not any(e.type == "left_play" and e.how in ("destroyed", "sacrificed") for e in t.events)


def test_a2_an_insane_character_leaves_its_story() -> None:
    """CoC-A2: a defender driven insane in the Terror struggle is uncommitted at once (and stays
    exhausted), so the Combat loss that follows at the same story cannot be soaked up by it: the wound
    goes to the defender still committed, and the insane one survives."""
    t = Table(active=0)
    st = t.stories[0]
    keeper, young = t.put(0, KEEPER), t.put(0, YOUNG)  # Terror 2, Combat 2 together
    scholar, initiate = t.put(1, SCHOLAR), t.put(1, INITIATE)  # no Terror; the Initiate has Willpower
    t.story()
    t.until("commit")
    _commit(t, {keeper: st, young: st})
    t.until("commit")
    _commit(t, {scholar: st, initiate: st})
    t.pass_window()
    assert t.s.play[scholar].insane and t.s.play[scholar].story is None and t.s.play[scholar].exhausted
    assert scholar in t.s.play  # not chosen for the wound (an insane character would die of it)
    assert initiate not in t.s.play and initiate in t.s.players[1].discard


def test_a19_the_third_story_ends_the_game_before_other_pending_wins() -> None:
    """CoC-A19: wins are taken one at a time; when two stories reach 5 tokens together and the first
    one processed is the player's 3rd, the game is over there: the other story is not won, no
    replacement is drawn and no story effect is offered."""
    t = Table(active=0)
    pl = t.s.players[0]
    pl.won = [t.s.story_deck.pop(), t.s.story_deck.pop()]
    deck = list(t.s.story_deck)
    a, b = t.stories[0], t.stories[1]
    t.s.tokens[a] = [4, 0]
    t.s.tokens[b] = [4, 0]
    T.place_tokens(t.s, a, 0, 1, t.events)  # as if one effect put the last token on both stories
    T.place_tokens(t.s, b, 0, 1, t.events)
    t.settle()
    assert t.s.phase == "over" and ENGINE.result(t.s).winners == ["a"]
    assert len(pl.won) == 3 and [e.type for e in t.events].count("story_won") == 1
    left = b if a in pl.won else a
    assert left in t.s.stories and left not in t.s.players[1].won
    assert t.s.story_deck == deck and len(t.s.stories) == 2
    assert ENGINE.pending(t.s) == [] and t.s.tasks == []
