"""Call of Cthulhu: The Card Game played through the real discord.py stack: a whole game from /game new to
the final post, responses and disrupts answered by the player not on turn (by DM, and through "My hand"
when DMs are closed), no hand or deck order in the channel, both languages, an outdated button, deck
choice in the lobby (a pairing and a pasted list, good and bad). Every payload passes the fake Discord's
schema check (the harness raises otherwise). The first tests check the texts without Discord: every
event type the engine emits has words in both languages, and every legal action is reachable."""

from __future__ import annotations

import inspect
import itertools
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import catalog, t
from cogs.games.ui import MAX_OPTION_LABEL, MAX_ROWS, MAX_SELECT_OPTIONS, Names, layout_actions
from cogs.coc_lcg import UI, card_name, card_of, card_texts, copy_tag
from rules.core import Event
from rules.coc_lcg import SPEC
from rules.coc_lcg import events as ev
from rules.coc_lcg.cards import FACTION_IDS, catalog as cards
from rules.coc_lcg.options import CocOptions

from . import payloads as P
from .harness import Harness
from .tables import Table, custom_ids

GAME = "coc_lcg"
ENGINE = SPEC.engine
NAMES = Names({"s1": "Alice", "s2": "Bob"})
LEFTOVER = re.compile(r"\{[a-z_]+\}|coc_lcg\.|rule\.coc")
PAIRS = list(itertools.combinations(FACTION_IDS, 2))


# ---------------------------------------------------------------------- texts, without Discord
def engine_event_types() -> set[str]:
    return {cls.model_fields["type"].default for _n, cls in inspect.getmembers(ev, inspect.isclass)
            if issubclass(cls, Event) and cls is not Event}


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_every_event_type_the_engine_emits_has_a_text(locale: str) -> None:
    types = engine_event_types()
    assert {"played", "struggle", "story_won", "game_over", "committed"} <= types and len(types) >= 30
    missing = sorted(e for e in types if not catalog().has(locale, f"{GAME}.ev.{e}"))
    assert not missing


def random_states(games: int, seed: int) -> Any:
    for g in range(games):
        rnd = random.Random(seed + g)
        a = rnd.choice(PAIRS)
        b = rnd.choice([p for p in PAIRS if not set(p) & set(a)])
        opts = CocOptions.model_validate({"deck1": "+".join(a), "deck2": "+".join(b)})
        state = ENGINE.new_game(["s1", "s2"], opts, seed + g)
        events: list[Any] = []
        while True:
            yield state, events
            prompts = ENGINE.pending(state)
            if not prompts:
                break
            legal = ENGINE.legal_actions(state, prompts[0].seat)
            busy = [a for a in legal if a.type != "pass"]
            action = rnd.choice(busy) if busy and rnd.random() < 0.7 else rnd.choice(legal)
            state, events = ENGINE.apply(state, prompts[0].seat, action)


def test_texts_of_random_games_are_complete_and_every_action_is_offered() -> None:
    """Event lines, prompts and labels resolve in both languages; the layout offers every legal action
    within Discord's limits; embeds stay within Discord's sizes."""
    kinds: set[str] = set()
    for n, (state, events) in enumerate(random_states(4, 40)):
        locale = "ru" if n % 2 else "en"
        for e in events:
            text = UI.event_text(e, locale, NAMES)
            silent = e.type == "passed" or e.type == "struggle" and not any(e.totals)  # 0–0: nobody had the icon
            assert text is None and silent or text and not LEFTOVER.search(text), (e, text)
        for line in UI.announcements(events, locale, NAMES):
            assert not LEFTOVER.search(line)
        table = UI.table_embed(ENGINE.view(state, None), locale, NAMES)
        assert len(table) < 5000 and all(len(f.value) <= 1024 for f in table.fields)
        prompts = ENGINE.pending(state)
        if not prompts:
            continue
        seat = prompts[0].seat
        view = ENGINE.view(state, seat)
        kinds.add(prompts[0].kind)
        assert not LEFTOVER.search(UI.prompt_text(prompts[0], locale, NAMES)), prompts[0]
        private = UI.private_embed(view, locale, NAMES)
        assert len(private) <= 5800 and all(len(f.value) <= 1024 for f in private.fields)
        legal = ENGINE.legal_actions(state, seat)
        for a in legal:
            label = UI.action_label(a, view, locale, NAMES)
            assert label and not LEFTOVER.search(label), (a, label)
        lay = layout_actions(UI, view, legal, locale, NAMES)
        offered = {i for _r, i, _l in lay.buttons} | {i for *_x, opts in lay.selects for i, _l in opts}
        assert offered == set(range(len(legal))), f"{prompts[0].kind}: {len(legal)} actions, {len(offered)} offered"
        rows = {r for r, _i, _l in lay.buttons} | {r for r, *_x in lay.selects}
        assert max(rows) < MAX_ROWS
        for _row, _part, _ph, opts in lay.selects:
            assert len(opts) <= MAX_SELECT_OPTIONS and all(len(label) <= MAX_OPTION_LABEL for _i, label in opts)
    assert {"setup", "resource", "window", "react", "commit", "choose"} <= kinds


# ---------------------------------------------------------------------- what players read (UX review)
RU_CARD_TEXT = " ".join(json.loads((Path(__file__).resolve().parents[2] / "rules" / GAME / "data" / "cards.json")
                                   .read_text(encoding="utf-8"))["cards"][i].get("text", {}).get("ru", "")
                        for i in range(len(cards())))


def coc_texts(lang: str) -> dict[str, str]:
    """Every coc_lcg text of a language, plural forms flattened."""
    out: dict[str, str] = {}
    for k, v in catalog().messages[lang].items():
        if k.startswith(f"{GAME}."):
            for form, text in (v.items() if isinstance(v, dict) else [("", v)]):
                out[f"{k}.{form}" if form else k] = str(text)
    return out


def test_copy_tag_tells_apart_two_copies_of_one_owner_in_the_same_place() -> None:
    view = ENGINE.view(ENGINE.new_game(["s1", "s2"], CocOptions().model_dump(), seed=4), "s1")
    me, other = view.players
    me.hand = ["0:agency-t-men:1", "0:agency-t-men:2", "0:x:1"]
    me.discard = ["0:x:2"]
    other.discard = ["1:agency-t-men:3"]
    me.domains[0].resources = ["0:y:1", "0:y"]  # a plain card id counts as the same card too
    assert copy_tag("0:agency-t-men:2", view) == " #2" and copy_tag("0:agency-t-men:1", view) == " #1"
    assert copy_tag("0:x:1", view) == "" and copy_tag("0:x:2", view) == ""  # the twin is in another pile
    assert copy_tag("1:agency-t-men:3", view) == ""  # the other owner's copy is not a twin
    assert copy_tag("0:y:1", view) == " #1"
    assert copy_tag("0:z:1", view) == "" and copy_tag("agency-t-men", view) == "" and copy_tag("0:x:1", None) == ""


def test_select_menus_have_words_not_catalog_keys() -> None:
    """Every group of actions can become a select menu (more than five choices): its placeholder is words."""
    from cogs.coc_lcg import GROUPS

    for group, lang in itertools.product(set(GROUPS.values()), ("en", "ru")):
        text = UI.group_placeholder(group, lang)
        assert text and not LEFTOVER.search(text), (group, lang, text)


def test_russian_words_match_the_card_texts() -> None:
    """The Russian card texts say история (story), борьба (struggle), иссушить (drain a domain), истощить
    (exhaust a card), Мистика and Исследование (icons), Прерывание (Disrupt); the interface says the same,
    and a drained domain is never called exhausted."""
    ru = coc_texts("ru")
    joined = "\n".join(ru.values())
    assert "сюжет" not in joined.lower() and "схватк" not in joined.lower()
    assert "иссуш" in ru[f"{GAME}.ui.domains"] and "истощ" not in ru[f"{GAME}.ui.domains"]
    assert "иссуш" in ru[f"{GAME}.act.drain"] and "иссуш" in ru[f"{GAME}.ev.domain_drained"]
    for icon in ("terror", "combat", "arcane", "investigation"):
        word = ru[f"{GAME}.word.{icon}"]
        assert word[:-1] in RU_CARD_TEXT, word  # the stem: the cards decline it (значок Мистики)
    assert ru[f"{GAME}.ability.disrupt"] == "Прерывание" and "Прерывание" in RU_CARD_TEXT
    assert "Прерывание" in UI.prompt_text(react_prompt("disrupt"), "ru", NAMES)


def react_prompt(kind: str, **ev_params: Any) -> Any:
    from rules.core import Prompt

    ev = {"on": "initiated", "card": "0:agency-t-men:1", "kind": "action", "event": False, "targets": []}
    ev.update(ev_params)
    return Prompt(seat="s2", kind="react", params={"kind": kind, "ev": ev})


def test_russian_lines_about_a_card_do_not_guess_its_gender() -> None:
    """Card names are of any gender and number (Жёлтая муза, Вышибала, Пистолеты): lines about a card use the
    present tense (входит, приходит в себя) instead of a masculine past (вошёл, восстановлен)."""
    ru = coc_texts("ru")
    gendered = re.compile(r"\b(вошёл|покинул|восстановлен|подготовлен|сошёл|получил|вовлечён|отменена|истощён\.|"
                          r"безумным|уничтожен|сброшен|возвращён|принесён)\b")
    about_cards = {k: v for k, v in ru.items() if "{card}" in v and (".ev." in k or ".trigger." in k or ".how." in k)}
    about_cards |= {k: v for k, v in ru.items() if ".how." in k}
    assert len(about_cards) > 25
    bad = {k: v for k, v in about_cards.items() if gendered.search(v) and not k.endswith("resource_discarded")}
    assert not bad


def test_counts_read_as_words_in_both_languages() -> None:
    assert t("ru", f"{GAME}.ev.drew", seat="Анна", count=2) == "Анна берёт 2 карты."
    assert t("ru", f"{GAME}.ev.drew", seat="Анна", count=5) == "Анна берёт 5 карт."
    assert t("en", f"{GAME}.ev.drew", seat="Ann", count=1) == "Ann draws 1 card."
    one = t("en", f"{GAME}.ev.tokens_placed", seat="Ann", count=1, story="Opening Night", total=3)
    assert "(s)" not in one and "1 success token at" in one
    assert "2 жетона успеха" in t("ru", f"{GAME}.ev.tokens_placed", seat="Анна", count=2, story="Премьера", total=2)


def test_event_lines_say_what_happened() -> None:
    """A card played by draining a richer domain did not cost more: the line says what the domain was worth.
    A struggle nobody had an icon for is left out of the short log; a tied one with icons stays."""
    played = UI.event_text(ev.Played(seat="s1", card="0:agency-t-men:1", domain=0, paid=7), "en", NAMES)
    assert played == "Alice plays T-Men, paying with domain 1 (worth 7)."
    assert UI.event_text(ev.StruggleResolved(story="s:story-opening-night", icon="arcane", totals=[0, 0],
                                             winner=None), "ru", NAMES) is None
    tied = UI.event_text(ev.StruggleResolved(story="s:story-opening-night", icon="arcane", totals=[1, 1],
                                             winner=None), "ru", NAMES)
    assert tied == "«Премьера»: борьба «Мистика» 1–1, никто не выигрывает."
    used = UI.event_text(ev.AbilityUsed(seat="s2", card="1:agency-t-men:1", ability=0), "ru", NAMES)
    assert used == "Bob применяет способность карты «Т-мены»: Принудительный ответ."  # the name stays nominative
    cancelled = UI.event_text(ev.Cancelled(card="1:agency-shotgun-blast:1", by="0:hastur-power-drain:2"), "ru", NAMES)
    assert cancelled == "Карта «Иссушение силы» отменяет эффект карты «Выстрел из дробовика»."
    attached = UI.event_text(ev.EnteredPlay(seat="s1", card="0:neutral-45-pistols:1", host="0:agency-t-men:2",
                                            insane=False), "ru", NAMES)
    assert attached.endswith("и присоединяется к карте «Т-мены».")
    hound = ev.AbilityUsed(seat="s2", card="1:yog-sothoth-hound-of-tindalos:1", ability=1)
    assert UI.event_text(hound, "en", NAMES) == "Bob uses Hound of Tindalos: Action 2.", "two Actions: numbered"


def test_a_disrupt_window_says_what_is_about_to_happen_and_to_whom() -> None:
    prompt = react_prompt("disrupt", card="0:neutral-inside-information:1", targets=["s:story-opening-night"])
    assert UI.prompt_text(prompt, "en", NAMES) == ("You may disrupt: Inside Information (Action) is about to take "
                                                   "effect, aimed at Opening Night.")
    assert UI.prompt_text(prompt, "ru", NAMES) == ("Можно сыграть Прерывание: Сведения изнутри (Действие) вот-вот "
                                                   "сработает, цель: Премьера.")


def a_view(seat: str = "s1", seed: int = 3) -> Any:
    opts = CocOptions.model_validate({"deck1": "agency+cthulhu/A", "deck2": "hastur+miskatonic/B"})
    return ENGINE.view(ENGINE.new_game(["s1", "s2"], opts, seed), seat)


def test_cached_hand_lines_follow_the_hand_its_copies_and_the_language() -> None:
    """Hand lines keep each card's fixed text in a cache: the message must still change with the hand,
    tell a newly drawn twin apart and speak the reader's language."""
    sheriff = "0:agency-local-sheriff:1"

    def hand(cards: list[str], locale: str = "en") -> str:
        view = a_view()  # a view is never changed once drawn (the UI keeps things worked out per view)
        view.players[0].hand = cards
        return next(f.value for f in UI.private_embed(view, locale, NAMES).fields if f.name.startswith(
            t(locale, "coc_lcg.ui.your_hand", count=len(cards))))

    assert hand([sheriff]) == ("• 🟫 **Local Sheriff** (4, character, skill 4 ⚔🔍) — "
                               + card_texts()["agency-local-sheriff"]["en"])
    twins = [sheriff, "0:agency-local-sheriff:2"]  # a second copy drawn: both now carry their number
    assert "**Local Sheriff #1** (4" in hand(twins) and "**Local Sheriff #2** (4" in hand(twins)
    assert "**Местный шериф #1** (4, персонаж" in hand(twins, "ru")
    assert hand(["0:agency-local-sheriff:2"]).startswith("• 🟫 **Local Sheriff** (4")
    assert card_name(sheriff, "ru") == "Местный шериф"


def test_hand_and_table_show_skill_and_icons_and_a_big_hand_keeps_every_card() -> None:
    view = a_view()
    me = view.players[0]
    sheriff = "0:agency-local-sheriff:1"  # skill 4, Combat + Investigation; Transient (a resource worth 2)
    me.hand = [sheriff] + [c for c in me.hand if c != sheriff]
    line = UI._hand_line(sheriff, "en", view)
    assert "**Local Sheriff** (4, character, skill 4 ⚔🔍)" in line, line
    assert "**Местный шериф** (4, персонаж, навык 4 ⚔🔍)" in UI._hand_line(sheriff, "ru", view)
    hand = next(f for f in UI.private_embed(view, "en", NAMES).fields if f.name.startswith("Your hand"))
    assert "Terror" in hand.name and "Investigation" in hand.name, "the icon marks are explained beside the hand"
    view.play[sheriff] = {"ctl": 0, "exhausted": True}
    assert UI._card_line(view, sheriff, "en") == "Local Sheriff [4 ⚔🔍] ⤵"
    # a domain holding a Transient resource pays 2 for it
    me.domains[0].resources = [sheriff]
    assert UI._domain(view, 0, "en") == "drain domain 1 (worth 2)"
    # fourteen cards: every card with its whole text, over as many fields as that takes
    me.hand = [f"0:{c.id}:1" for c in cards().values() if c.type != "story"][:14]
    fields = [f for f in UI.private_embed(view, "ru", NAMES).fields if f.name.startswith("Ваша рука")]
    assert len(fields) > 1 and all(len(f.value) <= 1024 for f in fields)
    shown = "\n".join(f.value for f in fields)
    assert all(card_name(c, "ru") in shown and card_texts()[card_of(c)]["ru"] in shown for c in me.hand)


def test_characters_in_play_show_keywords_and_wounds_and_domains_their_factions() -> None:
    """Keywords (Heroic, Toughness, Willpower…) and wounds out of what destroys a character are on the table;
    resources carry their faction's colour, which the legend names."""
    view = a_view()
    gmen = "0:agency-g-men:7"  # Heroic, Toughness +3, Willpower
    view.play[gmen] = {"ctl": 0, "wounds": 2}
    view.current[gmen] = {"skill": 6, "icons": [0, 5, 0, 0], "kws": ["heroic", "willpower"], "toughness": 3}
    assert UI._card_line(view, gmen, "en") == "G-Men [6 ⚔⚔⚔⚔⚔] ‹Heroic, Willpower, Toughness +3› ✚2/4"
    assert "‹Героический, Сила воли, Крутизна +3›" in UI._card_line(view, gmen, "ru")
    view.players[0].domains[0].resources = ["0:hastur-hastur:9"]
    table = UI.table_embed(view, "ru", NAMES)
    assert "🟪 Хастур" in table.description  # the legend
    assert any("🔓 1: 🟪Хастур" in f.value for f in table.fields)


def test_story_effects_are_shown_when_committing() -> None:
    state = ENGINE.new_game(["s1", "s2"], CocOptions(), 11)
    rnd = random.Random(2)
    for _ in range(400):
        prompts = ENGINE.pending(state)
        if prompts[0].kind == "commit":
            break
        legal = ENGINE.legal_actions(state, prompts[0].seat)
        state, _ = ENGINE.apply(state, prompts[0].seat, rnd.choice(legal))
    assert prompts[0].kind == "commit"
    view = ENGINE.view(state, prompts[0].seat)
    for lang, title in (("en", "Story effects"), ("ru", "Эффекты историй")):
        field = next(f for f in UI.private_embed(view, lang, NAMES).fields if f.name.startswith(title))
        assert all(card_name(s, lang) in field.value for s in view.stories)
        assert "decides whether" not in field.value and "сам решает" not in field.value, "the shared tail is cut"
        assert "Story effect:" not in field.value and "Эффект истории:" not in field.value


def custom_list(*factions: str) -> str:
    chosen = [c for c in cards().values() if c.faction in factions and c.type != "story"][:17]
    return "\n".join(f"3x {c.name_en}" for c in chosen)


def test_choices_read_unambiguously_with_copies_owners_and_ability_kinds() -> None:
    """Custom decks hold three copies of a card: no two buttons of one decision read the same. A target of the
    opponent names its controller, a resource its domain, a card in a discard pile whose pile; an ability is
    named by its kind as the card text names it; the success-token and ready choices say what they do."""
    seen = set()
    for g in range(3):
        rnd = random.Random(g)
        opts = CocOptions.model_validate({"deck1": custom_list("agency", "cthulhu"),
                                          "deck2": custom_list("hastur", "miskatonic")})
        state = ENGINE.new_game(["s1", "s2"], opts, g)
        for _ in range(1200):
            prompts = ENGINE.pending(state)
            if not prompts:
                break
            seat = prompts[0].seat
            legal = ENGINE.legal_actions(state, seat)
            view = ENGINE.view(state, seat)
            other = NAMES("s2" if seat == "s1" else "s1")
            for lang in ("en", "ru"):
                labels = [UI.action_label(a, view, lang, NAMES) for a in legal]
                assert len(set(labels)) == len(labels), [x for x in labels if labels.count(x) > 1]
            for a, text in zip(legal, labels):
                if a.type == "use":
                    assert "способность" not in text, text
                    seen.add("use")
                if a.type != "choose" or not isinstance(a.option, str) or a.option.count(":") < 2:
                    continue
                inst = view.play.get(a.option)
                if inst is not None and a.option not in view.stories and view.players[inst["ctl"]].seat != seat:
                    assert text.endswith(f" · {other}"), text
                    seen.add("theirs")
                if any(a.option in d.resources for p in view.players for d in p.domains):
                    assert "домен" in text, text
                    seen.add("resource")
            pick = prompts[0].params.get("pick") or {}
            if pick.get("verb") == "token":
                assert all(x.startswith(("Положить жетон", "Пропустить")) for x in labels), labels
                seen.add("token")
            busy = [a for a in legal if a.type != "pass"]
            action = rnd.choice(busy) if busy and rnd.random() < 0.7 else rnd.choice(legal)
            state, _ = ENGINE.apply(state, seat, action)
    assert {"use", "theirs", "token"} <= seen, seen


# ---------------------------------------------------------------------- through Discord
def eager(legal: list[Any], rnd: random.Random) -> int:
    """Commit and play whenever possible (games end sooner), answer every response or disrupt window
    with a card when one fits; otherwise like a player clicking around."""
    def pick(*types: str) -> list[int]:
        return [i for i, a in enumerate(legal) if a.type in types]

    react = pick("play", "use")
    if react and pick("pass") and rnd.random() < 0.8:
        return rnd.choice(react)
    commits = pick("commit")
    if commits and rnd.random() < 0.85:
        return rnd.choice(commits)
    busy = [i for i, a in enumerate(legal) if a.type != "pass"]
    return rnd.choice(busy) if busy and rnd.random() < 0.8 else rnd.randrange(len(legal))


def channel_texts(h: Harness) -> str:
    """Everything posted in the channel for everyone to read (contents and embeds, edits included)."""
    out = []
    for m in h.fake.messages_in(h.channel.id, include_ephemeral=False):
        out.append(json.dumps({"content": m.get("content"), "embeds": m.get("embeds")}, ensure_ascii=False))
    return "\n".join(out)


async def start(h: Harness, users: list[P.User], options: str | None = None) -> Table:
    table = Table(h, users, game=GAME)
    await table.open(users[0], options)
    lobby = h.fake.message(table.table_id)
    assert lobby["embeds"][0]["title"].startswith(("Call of Cthulhu", "Зов Ктулху"))
    await table.seat_all()
    return table


async def play(h: Harness, table: Table, rnd: random.Random, limit: int = 3000,
               until: str | None = None) -> dict[str, int]:
    """Play to the end (or until an off-turn answer took the ``until`` path); count response/disrupt
    answers given by the player not on turn, by the path they took."""
    off_turn = {"dm": 0, "ephemeral": 0}
    for _ in range(limit):
        if until is not None and off_turn[until]:
            return off_turn
        rec, spec, state = await table.load()
        prompts = spec.engine.pending(state)
        if not prompts:
            assert rec.status == "finished"
            return off_turn
        prompt = prompts[0]
        if prompt.kind == "react" and prompt.seat != state.players[state.active].seat:
            user = table.users[prompt.seat]
            message = table.private_message(user, rec.version)
            dms = [h.fake.message(m["id"]) for m in h.fake.dms_to(user.id)]
            off_turn["dm" if message is not None and message in dms else "ephemeral"] += 1
        await table.step(rnd, eager)
    raise AssertionError("the game did not end")


def hidden_names(state: Any) -> set[str]:
    """Names of the cards in hands and decks, in both languages (every card is in one deck only), but for
    the Great Old Ones named like their faction, which the deck notice names anyway."""
    out: set[str] = set()
    for pl in state.players:
        for iid in pl.hand + pl.deck:
            c = cards()[iid.split(":")[1]]
            out |= {c.name_en, c.name_ru}
    return out - {"Cthulhu", "Ктулху", "Hastur", "Хастур", "Yog-Sothoth", "Йог-Сотот", "Shub-Niggurath"}


async def test_whole_game_with_an_off_turn_response_by_dm(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = await start(h, [alice, bob])
    rec, _spec, state = await table.load()
    assert rec.status == "running"
    msg = h.fake.message(table.table_id)
    embed = msg["embeds"][0]
    assert embed["title"].startswith("Call of Cthulhu: The Card Game — turn")
    assert any("seat 1: The Agency + Cthulhu, neutral packet A" in f["value"] for f in embed["fields"]
               if f["name"] == "Last moves")
    # Both must choose their starting resources: each is named on the table and has a DM.
    for u in (alice, bob):
        assert f"<@{u.id}>" in msg["content"]
        dm = h.fake.message(h.fake.dms_to(u.id)[-1]["id"])
        hand = "\n".join(f["value"] for f in dm["embeds"][0]["fields"] if f["name"].startswith("Your hand"))
        mine = state.players[[p.seat for p in state.players].index(str(u.id))]
        assert all(cards()[c.split(":")[1]].name_en in hand for c in mine.hand)
    # Not one card of a hand or a deck has been named in the channel.
    texts = channel_texts(h)
    assert not [n for n in hidden_names(state) if n in texts]

    rnd = random.Random(5)
    counts = await play(h, table, rnd)
    games = 1
    while counts["dm"] == 0 and games < 4:  # reactions depend on the draw: play on at the same table
        table = await start(h, [alice, bob])
        counts = await play(h, table, rnd)
        games += 1
    assert counts["dm"] > 0, "a response or disrupt owed by the player not on turn was given through their DM"

    rec, spec, state = await table.load()
    result = spec.engine.result(state)
    assert rec.status == "finished" and result is not None
    posts = [m["content"] for m in h.fake.messages_in(h.channel.id, include_ephemeral=False)]
    assert any(p and ("wins Call of Cthulhu" in p or "without a winner" in p) for p in posts)
    final = h.fake.message(table.table_id)
    assert final["content"] == "The game is over."
    assert any(f["name"] == "Result" for f in final["embeds"][0]["fields"])
    assert "Your hand" not in channel_texts(h)
    assert not h.fake.take_problems()


async def test_closed_dms_answer_reactions_through_my_hand(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    h.fake.block_dms(bob.id)
    table = await start(h, [alice, bob], "first_player=seat_order")
    rec, _spec, state = await table.load()
    assert state.first == 0 and [pl.deck_list[0].split("-")[0] for pl in state.players] == ["agency", "miskatonic"]
    rnd = random.Random(9)
    counts = {"dm": 0, "ephemeral": 0}
    for _ in range(4):
        got = await play(h, table, rnd, until="ephemeral")
        counts = {k: counts[k] + got[k] for k in counts}
        if counts["ephemeral"]:
            break
        table = await start(h, [alice, bob], "first_player=seat_order")
    assert counts["ephemeral"] > 0, "with DMs closed, an off-turn response went through 'My hand'"
    assert h.fake.dms_to(bob.id) == []
    assert not h.fake.take_problems()


async def test_russian_and_english_output(h: Harness) -> None:
    h.guild.preferred_locale = "ru"
    anna, bob = h.user("anna", locale="ru"), h.user("bob", locale="en-US")
    table = await start(h, [anna, bob])
    first = h.fake.message(table.table_id)["embeds"][0]
    notice = next(f for f in first["fields"] if f["name"] == "Последние ходы")
    assert "Колоды — место 1: Агентство + Ктулху, нейтральный пакет A" in notice["value"]
    # The setup pick is a select menu of eight cards: its placeholder is words, the hand shows skill and icons.
    dm = h.fake.message(h.fake.dms_to(anna.id)[-1]["id"])
    menus = [c for row in dm["components"] for c in row["components"] if c.get("type") == 3]
    assert menus and all(m["placeholder"] == "Выбрать стартовый ресурс…" for m in menus)
    hand = next(f for f in dm["embeds"][0]["fields"] if f["name"].startswith("Ваша рука"))
    assert "навык " in hand["value"] and "✴ Мистика" in hand["name"]
    rnd = random.Random(8)
    for _ in range(40):
        await table.step(rnd, eager)
    msg = h.fake.message(table.table_id)
    embed = msg["embeds"][0]
    assert embed["title"].startswith("Зов Ктулху: карточная игра — ход")
    assert "активный игрок:" in embed["description"] and "Фаза" not in embed["description"]  # «Стадия …», as printed
    last = next(f for f in embed["fields"] if f["name"] == "Последние ходы")
    assert last["value"] and not LEFTOVER.search(last["value"])
    r = await h.click(anna, table.table_id, f"gh:{table.sid}")
    assert r.ephemeral and r.message["embeds"][0]["title"].startswith("Ваша рука")
    r = await h.click(bob, table.table_id, f"gh:{table.sid}")
    assert r.message["embeds"][0]["title"].startswith("Your hand")
    assert not h.fake.take_problems()


async def test_outdated_button_is_refused_and_changes_nothing(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = await start(h, [alice, bob])
    rec, spec, state = await table.load()
    seat = spec.engine.pending(state)[0].seat
    user = table.users[seat]
    first = table.private_message(user, rec.version)
    assert first is not None
    snapshot = dict(first)
    await table.press(user, first, 0, rec.version)
    after, _spec, after_state = await table.load()
    assert after.version == rec.version + 1
    stale = next(c for c in custom_ids(snapshot) if c.startswith((f"gb:{table.sid}:{rec.version}:",
                                                                   f"gs:{table.sid}:{rec.version}:")))
    data = P.button_click_data(stale) if stale.startswith("gb:") else P.select_data(stale, ["0"])
    r = await h.dispatch(
        P.interaction_payload(
            snowflakes=h.snowflakes, application_id=h.fake.application_id, type=P.MESSAGE_COMPONENT,
            ctx=h._context(user, h.dm(user)), data=data, message=snapshot,
        )
    )
    assert r.ephemeral and "outdated" in r.content
    assert r.message["embeds"], "the outdated answer carries the current view"
    assert all(c.split(":")[2] == str(after.version) for c in custom_ids(r.message)), "and only current buttons"
    now, _spec, now_state = await table.load()
    assert now.version == after.version and now_state == after_state


def a_deck_list() -> str:
    """A legal 51-card list in mixed languages and spellings, as a player would paste it."""
    agency = [c for c in cards().values() if c.faction == "agency"][:16]
    names = [c.name_ru if i % 2 else c.name_en for i, c in enumerate(agency)]
    lines = ["# my Agency deck", *(f"3x {n}" for n in names[:8]), *(f"{n} x3" for n in names[8:16])]
    neutral = [c for c in cards().values() if c.faction == "neutral" and c.type != "conspiracy"]
    lines += [f"2 {neutral[0].name_en.upper()}", "", f"- {neutral[1].name_ru}"]
    return "\n".join(lines)


async def test_deck_choice_in_the_lobby(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = Table(h, [alice, bob], game=GAME)
    # A bad pairing typed after /game new is refused with words, and no lobby opens.
    r = await h.slash(alice, h.channel, "game new", options={"game": GAME, "options": "deck1=agency+necronomicon/A"})
    assert r.ephemeral and "“necronomicon” is not a faction" in r.content
    await table.open(alice, "deck1=cthulhu+agency")
    lobby = h.fake.message(table.table_id)
    options = lobby["embeds"][0]["fields"][1]["value"]
    assert "The Agency + Cthulhu, neutral packet A" in options and "Miskatonic University + Hastur, neutral packet B" in options
    await h.click(bob, table.table_id, f"gl:{table.sid}:join")

    assert "/coc deck" in options and "/coc decklist" in options  # the lobby says how decks are chosen

    # /coc deck: each player sets their own seat's deck (no seat given); another seat's is the host's.
    carol = h.user("carol")
    r = await h.slash(carol, h.channel, "coc deck", options={"pairing": "hastur+yog_sothoth", "packet": "B"})
    assert r.ephemeral and "not seated" in r.content
    r = await h.slash(bob, h.channel, "coc deck", options={"seat": 1, "pairing": "hastur+yog_sothoth", "packet": "B"})
    assert r.ephemeral and "Only the host" in r.content
    r = await h.slash(bob, h.channel, "coc deck", options={"pairing": "hastur+yog_sothoth", "packet": "B"})
    assert r.ephemeral and "Seat 2 now plays: Hastur + Yog-Sothoth, neutral packet B" in r.content
    assert "Hastur + Yog-Sothoth, neutral packet B" in h.fake.message(table.table_id)["embeds"][0]["fields"][1]["value"]

    # /coc decklist: a form to paste a list; an unknown name and a short deck are explained, not stored.
    r = await h.slash(alice, h.channel, "coc decklist", options={"seat": 1})
    assert r.modal is not None
    r = await h.submit_modal(alice, {"cards": "3x Local Sheriff\n2x Great Old Gumbo"})
    assert r.ephemeral and "Line 2" in r.content and "Great Old Gumbo" in r.content
    r = await h.slash(alice, h.channel, "coc decklist", options={"seat": 1})
    r = await h.submit_modal(alice, {"cards": "3x Local Sheriff\n3x Местный шериф"})
    assert r.ephemeral and "At most 3 copies of Local Sheriff" in r.content
    r = await h.slash(alice, h.channel, "coc decklist", options={"seat": 1})
    r = await h.submit_modal(alice, {"cards": "3x Local Sheriff"})
    assert r.ephemeral and "at least 50 cards (3 given)" in r.content
    rec = await h.bot.store.get(table.sid)
    assert rec.options["deck1"] == "agency+cthulhu/A", "a refused list changes nothing"

    r = await h.slash(alice, h.channel, "coc decklist", options={"seat": 1})
    r = await h.submit_modal(alice, {"cards": a_deck_list()})
    assert r.ephemeral and "Seat 1 now plays: custom deck of 51 cards" in r.content
    assert r.message["embeds"] and "3× Thomas F. Malone" in r.message["embeds"][0]["description"]
    rec = await h.bot.store.get(table.sid)
    assert rec.options["deck1"].startswith("cards:")
    await h.click(alice, table.table_id, f"gl:{table.sid}:start")
    rec, _spec, state = await table.load()
    assert rec.status == "running"
    assert len(state.players[0].deck_list) == 51 and state.players[0].deck_list[0] == "agency-thomas-f-malone"
    assert state.players[1].deck_list[0].startswith("hastur-")
    assert not h.fake.take_problems()


async def test_russian_deck_errors_and_card_lookup(h: Harness) -> None:
    h.guild.preferred_locale = "ru"
    anna = h.user("anna", locale="ru")
    r = await h.slash(anna, h.channel, "game new", options={"game": GAME, "options": "deck2=Хастур+Хастур"})
    assert r.ephemeral and "двух разных фракций (указано: hastur + hastur)" in r.content
    r = await h.slash(anna, h.channel, "game new", options={"game": GAME, "options": "deck2=Хастур+Агентство/Б"})
    lobby = h.fake.message(r.message_id)
    assert "Агентство + Хастур, нейтральный пакет B" in lobby["embeds"][0]["fields"][1]["value"]
    r = await h.slash(anna, h.channel, "coc decklist", options={"seat": 1})
    r = await h.submit_modal(anna, {"cards": "3x Местный шериф\nКтулху Фхтагн"})
    assert "Строка 2" in r.content and "Ктулху Фхтагн" in r.content
    # /card knows every core card by either name.
    for name, title in (("Местный шериф", "Местный шериф"), ("Cthulhu", "Cthulhu"), ("Dreamwalkers", "Dreamwalkers")):
        r = await h.slash(anna, h.channel, "card", game=GAME, name=name)
        assert r.message["embeds"] and title in r.message["embeds"][0]["title"], r.message
    assert not h.fake.take_problems()


def test_every_stored_deck_choice_reads_as_words_in_the_lobby() -> None:
    """The lobby shows each of the 42 pairing + packet values, and a pasted list, in words (the game's
    ``option_text``), in both languages and for both seats."""
    from rules.coc_lcg.decklist import quick_choices

    for field, pairing, packet, lang in itertools.product(("deck1", "deck2"), quick_choices(), "AB", ("en", "ru")):
        stored = CocOptions.model_validate({field: f"{pairing}/{packet}"}).model_dump(mode="json")[field]
        words = UI.option_text(field, stored, lang)
        assert words and "+" in words and packet in words and "/" not in words, (field, stored, lang, words)
    assert UI.option_text("first_player", "random", "en") is None


async def test_discard_piles_are_public_in_full(h: Harness) -> None:
    """Discard piles are public (the reference's bot ruling): /coc discard lists both, newest first, to
    anyone in the channel, seated or not; before the game starts it says so and changes nothing."""
    alice, bob, carol = h.user("alice"), h.user("bob"), h.user("carol")
    r = await h.slash(carol, h.channel, "coc discard")
    assert r.ephemeral and "no game" in r.content.lower()
    table = Table(h, [alice, bob], game=GAME)
    await table.open(alice)
    r = await h.slash(carol, h.channel, "coc discard")
    assert r.ephemeral and "not running" in r.content and not r.message["embeds"]
    await table.seat_all()
    rnd = random.Random(3)
    for _ in range(400):
        rec, spec, state = await table.load()
        if all(len(p.discard) >= 2 for p in state.players) or rec.status != "running":
            break
        await table.step(rnd, eager)
    assert all(p.discard for p in state.players)
    version = rec.version
    r = await h.slash(carol, h.channel, "coc discard")
    embed = r.message["embeds"][0]
    assert r.ephemeral and embed["title"] == "Discard piles (newest first)"
    for field, p in zip(embed["fields"], state.players, strict=True):
        assert field["name"].endswith(f": {len(p.discard)}")
        lines = field["value"].splitlines()
        assert lines[0] == f"1. {card_name(p.discard[-1], 'en')}" and len(lines) == len(p.discard)
    assert (await table.load())[0].version == version, "looking changes nothing"
    ru = h.user("anna", locale="ru")
    r = await h.slash(ru, h.channel, "coc discard")
    assert r.message["embeds"][0]["title"].startswith("Стопки сброса")


def test_characters_in_play_show_their_current_skill_beside_the_printed_one() -> None:
    """A lasting effect that raises a character's skill shows on the table as the value to count now, with
    the printed one beside it; an unchanged character shows just its printed values."""
    from rules.coc_lcg.effects import add_mod
    from tests.rules.coc_lcg.helpers import Table as CardTable

    t = CardTable()
    clerk = t.put(0, "agency-blackwood-file-clerk")  # printed skill 3
    plain = UI._card_line(SPEC.engine.view(t.s, None), clerk, "en")
    assert "[3" in plain and "printed" not in plain
    add_mod(t.s, clerk, "skill", 0, n=1)
    view = SPEC.engine.view(t.s, None)
    assert view.current[clerk]["skill"] == 4
    assert "[4" in UI._card_line(view, clerk, "en") and ", printed 3" in UI._card_line(view, clerk, "en")
    assert ", на карте 3" in UI._card_line(view, clerk, "ru")
