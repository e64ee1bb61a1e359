"""Eldritch Horror played through the real discord.py stack: a whole co-operative game from /game new to
its end, the lead investigator's group choice going to the lead player, one player running two
investigators, lobby options, Russian and English output, an outdated button and a stranger refused.
Every payload passes the fake Discord's schema check (the harness raises otherwise); every event type the
engine can emit has a text in both languages."""

from __future__ import annotations

import ast
import json
import random
import re
from pathlib import Path
from typing import Any

from bot.i18n import catalog

from . import payloads as P
from .harness import Harness
from .tables import Table, components, custom_ids

GAME = "eldritch_horror"
ROOT = Path(__file__).resolve().parents[2]
# Raw option keys look like "travel:London>Rome" or "gain_asset 1 item": a label must never show one.
RAW_KEY = re.compile(r"^(travel|component|prepare|buy|discard|give|take|fight|cast|use|reroll|bump|add|pass|location|"
                     r"rumor|corpse|keep|move|free|trade):|^[a-z]+_[a-z_]+( |$)")


def hasty(legal: list[Any], rnd: random.Random) -> int:
    """A simple player: travel and take encounters like anyone, keep dice without fuss, stop shopping."""
    options = [a.option for a in legal]
    for quick in ("accept", "nothing", "done", "take", "keep"):
        if quick in options and rnd.random() < 0.7:
            return options.index(quick)
    return rnd.randrange(len(legal))


async def start(h: Harness, users: list[P.User], options: str | None = "", pick: bool = False) -> Table:
    """A table past the lobby; unless ``pick``, investigators are drawn at random (setup step 3 skipped)."""
    table = Table(h, users, game=GAME)
    await table.open(users[0], " ".join(filter(None, [options, "" if pick else "pick=random"])) or None)
    lobby = h.fake.message(table.table_id)
    assert lobby["embeds"][0]["title"].startswith(("Eldritch Horror", "Древний ужас"))
    await table.seat_all()
    return table


def labels(message: dict[str, Any]) -> list[str]:
    out = []
    for c in components(message):
        if c.get("type") == 2 and c.get("custom_id", "").startswith("gb:"):
            out.append(c["label"])
        elif c.get("type") == 3:
            out.extend(o["label"] for o in c["options"])
    return out


async def play(h: Harness, table: Table, rnd: random.Random, limit: int = 1500) -> None:
    for _ in range(limit):
        rec, spec, state = await table.load()
        if not spec.engine.pending(state):
            assert rec.status == "finished"
            return
        await table.step(rnd, hasty)
    raise AssertionError("the game did not end")


async def test_whole_game_for_two_players_from_lobby_to_the_end(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = await start(h, [alice, bob], pick=True)
    rec, spec, state = await table.load()
    assert rec.status == "running" and len(state.investigators) == 2
    # Setup step 3: the lead picks first, in the private view: every investigator by name, or chance.
    first = table.private_message(alice, rec.version)
    assert first is not None and "choose your investigator" in json.dumps(first["embeds"])
    assert "Lily Chen, The Martial Artist · ❤6 🧠6 · Shanghai" in labels(first) and "Leave it to chance" in labels(first)
    await table.step(random.Random(0), lambda legal, rnd: [a.option for a in legal].index("Lily Chen"))
    second = table.private_message(bob, rec.version + 1)
    assert second is not None and not any(label.startswith("Lily Chen") for label in labels(second))
    await table.step(random.Random(0), lambda legal, rnd: [a.option for a in legal].index("random"))
    rec, spec, state = await table.load()
    assert state.phase == "action" and state.investigators[0]["name"] == "Lily Chen"
    msg = h.fake.message(table.table_id)
    embed = msg["embeds"][0]
    assert embed["title"].startswith(f"Eldritch Horror — {state.ancient_one}")
    assert "Doom" in embed["description"] and "Omen" in embed["description"]
    assert "(stage I: " in embed["description"], "the table says which Mythos stage is being drawn"
    assert msg["attachments"] and msg["attachments"][0]["filename"] == "table.png"
    owners = [f for f in embed["fields"] if "Alice ·" in f["value"] or "Bob ·" in f["value"]]
    assert len(owners) == 2, "each investigator's field names its owner"
    assert any("(lead)" in f["name"] for f in embed["fields"])
    prompted = spec.engine.pending(state)[0].seat
    assert f"<@{prompted}>" in msg["content"], "the table says who must act"
    for u in (alice, bob):
        assert h.fake.dms_to(u.id), f"{u.username} got no DM"

    await play(h, table, random.Random(3))
    rec, spec, state = await table.load()
    result = spec.engine.result(state)
    assert rec.status == "finished" and result is not None
    final = h.fake.message(table.table_id)
    assert final["content"] == "The game is over."
    assert any(f["name"] == "Result" for f in final["embeds"][0]["fields"])
    posts = [m["content"] or "" for m in h.fake.messages_in(h.channel.id, include_ephemeral=False)]
    assert any(p.startswith("**The investigators") for p in posts), "the end is announced in the channel"
    # Every label a player was offered reads as words, never as an engine key, and no two buttons of one
    # message read the same (a trade once offered "Take the loss" twice for two different items).
    for u in (alice, bob):
        for m in h.fake.dms_to(u.id):
            for version in h.fake.message_history(m["id"]):
                shown = labels(version)
                assert len(shown) == len(set(shown)), shown
                for label in shown:
                    assert not RAW_KEY.search(label) and "eldritch_horror." not in label, label
    texts = json.dumps([h.fake.message_history(m["id"]) for m in h.fake.messages_in(h.channel.id)], ensure_ascii=False)
    assert "eldritch_horror." not in texts and "/None" not in texts
    assert not h.fake.take_problems()


async def test_last_moves_show_dice_and_the_reroll_is_offered(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = await start(h, [alice, bob])
    rnd = random.Random(5)
    for _ in range(400):
        rec, spec, state = await table.load()
        prompts = spec.engine.pending(state)
        if not prompts:
            break
        if prompts[0].kind == "reroll":
            user = table.users[prompts[0].seat]
            content = h.fake.message(table.table_id)["content"]
            assert "keep or re-roll?" in content and re.search(r"[⚀-⚅]\d", content)
            offered = labels(table.private_message(user, rec.version) or {})
            assert "Keep these dice" in offered and len(offered) >= 2
            last = next(f for f in h.fake.message(table.table_id)["embeds"][0]["fields"] if f["name"] == "Last moves")
            assert re.search(r"tests \w+: [⚀-⚅]\d", last["value"]), "the roll is in the last moves"
            break
        await table.step(rnd, hasty)
    else:
        raise AssertionError("no re-roll was offered")
    assert not h.fake.take_problems()


async def test_the_lead_investigators_group_choice_goes_to_the_lead_player(h: Harness) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    table = await start(h, [alice, bob])
    rnd = random.Random(7)
    for _ in range(600):
        rec, spec, state = await table.load()
        prompts = spec.engine.pending(state)
        assert prompts, "the game ended before a round did"
        if prompts[0].kind == "lead":
            break
        await table.step(rnd, hasty)
    lead = state.investigators[state.lead]
    assert prompts[0].seat == lead["seat"] and prompts[0].params["investigator"] == lead["name"]
    lead_user = table.users[lead["seat"]]
    other = next(u for s, u in table.users.items() if s != lead["seat"])
    dm = table.private_message(lead_user, rec.version)
    assert dm is not None and "Keep the lead" in labels(dm)
    passing = [x for x in labels(dm) if x.startswith("Hand the lead to")]
    assert passing, "the lead player may hand the lead on"
    r = await h.click(other, table.table_id, f"gh:{table.sid}")
    assert r.ephemeral and not [c for c in custom_ids(r.message) if c.startswith(("gb:", "gs:"))]
    assert "Waiting for" in r.message["embeds"][0]["description"]
    index = next(i for i, a in enumerate(spec.engine.legal_actions(state, lead["seat"])) if a.option.startswith("pass:"))
    await table.press(lead_user, dm, index, rec.version)
    _rec, _spec, after = await table.load()
    assert after.lead != state.lead
    last = next(f for f in h.fake.message(table.table_id)["embeds"][0]["fields"] if f["name"] == "Last moves")
    assert "is the lead investigator" in last["value"]
    assert not h.fake.take_problems()


async def test_a_solo_player_runs_two_investigators(h: Harness) -> None:
    solo = h.user("solo")
    table = await start(h, [solo], "investigators=2 ancient_one=Cthulhu difficulty=easy")
    rec, spec, state = await table.load()
    assert [i["seat"] for i in state.investigators] == [str(solo.id)] * 2
    assert state.ancient_one == "Cthulhu" and state.difficulty == "easy"
    names = [i["name"] for i in state.investigators]
    r = await h.click(solo, table.table_id, f"gh:{table.sid}")
    sheet = r.message["embeds"][0]
    assert r.ephemeral and sheet["title"].startswith("Your investigators")
    assert [f["name"].replace("▶ ", "").replace(" (lead)", "") for f in sheet["fields"]] == names
    acted = set()
    rnd = random.Random(2)
    for _ in range(60):
        rec, spec, state = await table.load()
        prompts = spec.engine.pending(state)
        if not prompts:
            break
        assert prompts[0].seat == str(solo.id)
        acted.add(prompts[0].params["investigator"])
        await table.step(rnd, hasty)
    assert set(names) <= acted, "both investigators' choices came to the one player"
    assert not h.fake.take_problems()


async def test_lobby_option_selects_come_from_the_options_model(h: Harness) -> None:
    alice = h.user("alice")
    table = Table(h, [alice], game=GAME)
    await table.open(alice)
    lobby = h.fake.message(table.table_id)
    ids = custom_ids(lobby)
    for field in ("ancient_one", "difficulty", "lead"):
        assert f"go:{table.sid}:{field}" in ids
    await h.select(alice, table.table_id, f"go:{table.sid}:ancient_one", ["random"])
    await h.select(alice, table.table_id, f"go:{table.sid}:difficulty", ["hard"])
    lobby = h.fake.message(table.table_id)
    options = next(f for f in lobby["embeds"][0]["fields"] if f["name"] == "Options")["value"]
    assert "Ancient One: **Decided at random**" in options and "Hard (no easy Mythos cards)" in options
    await h.click(alice, table.table_id, f"gl:{table.sid}:start")
    _rec, _spec, state = await table.load()
    assert state.difficulty == "hard" and state.ancient_one in ("Azathoth", "Cthulhu", "Shub-Niggurath", "Yog-Sothoth")
    assert not h.fake.take_problems()


async def test_russian_and_english_output(h: Harness) -> None:
    h.guild.preferred_locale = "ru"
    anna, bob = h.user("anna", locale="ru"), h.user("bob", locale="en-US")
    table = await start(h, [anna, bob], "ancient_one=Azathoth")
    embed = h.fake.message(table.table_id)["embeds"][0]
    assert embed["title"].startswith("Древний ужас — Азатот")
    assert "Безысходность" in embed["description"] and "(ведущий)" in json.dumps(embed, ensure_ascii=False)
    assert "Колода Мифов: 16 (этап I: 4)" in embed["description"]
    rnd = random.Random(8)
    for _ in range(15):
        await table.step(rnd, hasty)
    last = next(f for f in h.fake.message(table.table_id)["embeds"][0]["fields"] if f["name"] == "Последние ходы")
    assert last["value"] and not re.search(r"[A-Za-z]{4,} (moves|gains|tests) ", last["value"])
    world = next(f for f in h.fake.message(table.table_id)["embeds"][0]["fields"] if f["name"] == "Мир")["value"]
    assert "🔎 Тайна:" in world and "↳" in world and "None" not in world, "the mystery says what solves it"
    # The table speaks the channel's language; each player's own sheet follows their client.
    r = await h.click(anna, table.table_id, f"gh:{table.sid}")
    assert r.message["embeds"][0]["title"].startswith("Ваши сыщики")
    r = await h.click(bob, table.table_id, f"gh:{table.sid}")
    assert r.message["embeds"][0]["title"].startswith("Your investigators")
    rec, spec, state = await table.load()
    seat = spec.engine.pending(state)[0].seat
    user = table.users[seat]
    r = await h.click(user, table.table_id, f"gh:{table.sid}")
    shown = labels(r.message)
    assert shown and all(not RAW_KEY.search(x) for x in shown)
    assert not h.fake.take_problems()


async def test_outdated_button_and_stranger_are_refused(h: Harness) -> None:
    alice, bob, mallory = h.user("alice"), h.user("bob"), h.user("mallory")
    table = await start(h, [alice, bob])
    rec, spec, state = await table.load()
    seat = spec.engine.pending(state)[0].seat
    user = table.users[seat]
    first = table.private_message(user, rec.version)
    assert first is not None
    snapshot = dict(first)
    # A stranger presses "My hand" and forges a move: both refused, nothing changes.
    r = await h.click(mallory, table.table_id, f"gh:{table.sid}")
    assert r.ephemeral and "not seated" in r.content
    forged = P.interaction_payload(
        snowflakes=h.snowflakes, application_id=h.fake.application_id, type=P.MESSAGE_COMPONENT,
        ctx=h._context(mallory, h.dm(mallory)), data=P.button_click_data(custom_ids(snapshot)[0]),
        message={**snapshot, "channel_id": str(h.dm(mallory).id)},
    )
    r = await h.dispatch(forged)
    assert r.ephemeral and "not seated" in r.content
    same, _spec, same_state = await table.load()
    assert same.version == rec.version and same_state == state
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
    now, _spec, now_state = await table.load()
    assert now.version == after.version and now_state == after_state
    assert not h.fake.take_problems()


def emitted_event_types() -> set[str]:
    """Every event type the engine's source can emit: ``ev(events, "type", ...)`` calls (both branches of a
    conditional type), ``lose_{what}`` for health and sanity, and the private ``EhEvent(type=...)``."""
    found: set[str] = set()
    for path in (ROOT / "rules" / GAME).glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name == "ev" and len(node.args) >= 2:
                arg = node.args[1]
                if isinstance(arg, ast.JoinedStr):
                    head = "".join(v.value for v in arg.values if isinstance(v, ast.Constant))
                    assert head == "lose_", f"{path.name}: an event type built at run time: {ast.unparse(arg)}"
                    found |= {"lose_health", "lose_sanity"}
                    continue
                for sub in ast.walk(arg):
                    if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                        found.add(sub.value)
            elif name == "EhEvent":
                found |= {k.value.value for k in node.keywords if k.arg == "type" and isinstance(k.value, ast.Constant)}
    return found


def test_every_event_type_has_a_text_in_both_languages() -> None:
    types = emitted_event_types()
    assert {"game_over", "test", "reroll", "lose_health", "peek", "monster_defeated", "monster_discarded"} <= types
    missing = [(lang, e) for e in sorted(types) for lang in ("en", "ru") if not catalog().has(lang, f"{GAME}.ev.{e}")]
    assert not missing, f"event types without a text: {missing}"


def test_every_decision_kind_has_a_prompt_in_both_languages() -> None:
    import rules.eldritch_horror.engine  # noqa: F401 (registers every decision kind)
    from rules.eldritch_horror.machine import RESUME

    missing = [(lang, k) for k in sorted(RESUME) for lang in ("en", "ru")
               if not catalog().has(lang, f"{GAME}.prompt.{k}")]
    assert not missing, missing


def test_every_mythos_card_mystery_and_space_has_a_russian_name() -> None:
    from cogs.eldritch_horror import C, mystery_name, mythos_name
    from cogs.eldritch_horror.map import layout, space_name

    finals = [a["awakened"]["final_mystery"]["name"] for a in C.ancient_ones.values() if a["awakened"].get("final_mystery")]
    for name in [*C.mysteries, *finals]:
        assert catalog().has("ru", f"{GAME}.mystery_name.{name}") and re.search("[а-я]", mystery_name(name, "ru")), name
    for card_id in C.mythos:
        assert re.search("[а-я]", mythos_name(card_id, "ru")), card_id
    for space in layout().pos:
        assert re.search("[а-я]", space_name(space, "ru").lower()), space


def test_reserve_and_deck_choices_read_differently_in_both_languages() -> None:
    """EH-R17/EH-R56: "an item from the reserve" and "an item from the deck" are told apart in the label, and no
    qualifier (``from=…``, ``kind=…``) is ever shown raw."""
    from cogs.eldritch_horror import effect_label

    reserve, deck = "gain_asset 1 item from=reserve", "gain_asset 1 item from=deck"
    assert effect_label(reserve, "en") == "Gain asset: 1 Item from the reserve"
    assert effect_label(deck, "en") == "Gain asset: 1 Item from the deck"
    assert effect_label(reserve, "ru") == "Получить актив: 1 предмет из резерва"
    assert effect_label(deck, "ru") == "Получить актив: 1 предмет из колоды"
    for key in ("gain_clue 1 source=this_space_clue_first", "spend 2 clue group=true",
                "discard_possession 1 kind=spell", "discard_possession 1 Item kind=possession"):
        for locale in ("en", "ru"):
            assert "=" not in effect_label(key, locale) and not RAW_KEY.search(effect_label(key, locale))


# ---------------------------------------------------------------------- what a player reads
def _view(seed: int = 1, **options: Any) -> Any:
    from rules import registry

    engine = registry.get(GAME).engine
    state = engine.new_game(["1", "2"], {"pick": "random", **options}, seed=seed)
    return engine, state


def test_every_status_deck_and_encounter_choice_has_words() -> None:
    """Raw keys reached the table: an eliminated investigator's sheet read ``eldritch_horror.status.eliminated``
    and research encounters ``eldritch_horror.deck.research``; the mystery's special encounter had no label."""
    from cogs.eldritch_horror import C, option_label

    source = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "rules" / GAME).glob("*.py"))
    statuses = set(re.findall(r'\["status"\] = "(\w+)"', source)) | {"active"}
    assert "eliminated" in statuses
    decks = {k for k in C.decks if not k.startswith("research_")} | {"research", "general", "special"}
    for lang in ("en", "ru"):
        for status in statuses:
            assert catalog().has(lang, f"{GAME}.status.{status}"), status
        for deck in decks:
            assert catalog().has(lang, f"{GAME}.deck.{deck}"), deck
        for option in ("research", "other_world", "expedition", "special", "none", "combat"):
            assert "eldritch_horror." not in option_label("encounter", option, lang)


def test_the_mystery_on_the_table_says_what_solves_it() -> None:
    """The table once showed only "The Deep Ones Attack! — 0/None". Every mystery and final mystery now gets
    a goal line: the card's text in the project's words."""
    from cogs.eldritch_horror import UI, C
    from cogs.games.ui import Names

    engine, state = _view()
    view = engine.view(state, None)
    for lang in ("en", "ru"):
        for name in C.mysteries:  # each mystery as the engine shows it, its numbers worked out for this table
            s = state.model_copy(deep=True)
            s.mystery = {"name": name, "tokens": 0, "space": "Space 3"}
            world = UI._world(engine.view(s, None), lang)
            assert "None" not in world and "{" not in world, world
            assert "↳" in world, f"{name}: no goal line"
        for ao, sheet in C.ancient_ones.items():
            final = sheet["awakened"].get("final_mystery")
            if final is None:
                continue
            s = state.model_copy(deep=True)
            s.ancient_one, s.final = ao, {"name": final["name"], "tokens": 0, "solved": False}
            world = UI._world(engine.view(s, None), lang)
            assert "None" not in world and "↳" in world, world
        assert UI.table_embed(view, lang, Names({})).fields[0].value.count("↳") == 1
    s = state.model_copy(deep=True)
    s.mystery = {"name": "Watching the Stars", "tokens": 0, "space": None}
    assert "Cthylla" in UI._world(engine.view(s, None), "en")  # the card's own text, from the data


def test_rerolls_trades_omens_and_shopping_say_what_they_do() -> None:
    from cogs.eldritch_horror import UI, option_label
    from cogs.games.ui import Names
    from rules.eldritch_horror.events import EhEvent

    names = Names({"1": "Анна"})
    # A re-roll paid with a Clue was logged as "(clue)" in Russian.
    ev = EhEvent(type="reroll", data={"investigator": "Lola Hayes", "source": "clue", "dice": [5, 2]})
    assert UI.event_text(ev, "ru", names) == "Лола Хейз перебрасывает (улика): ⚄5 ⚁2"
    ev = EhEvent(type="reroll", data={"investigator": "Norman Withers", "source": "sanity", "dice": [6]})
    assert "sanity" not in (UI.event_text(ev, "ru", names) or "")
    # EH-R53: the re-roll buttons name the die they re-roll, the tester's pick.
    assert option_label("reroll", "reroll:clue@2", "en") == "Spend a Clue: re-roll ⚁2"
    assert option_label("reroll", "reroll:sanity@1+3", "ru") == "Заплатить 1 рассудок вместо улики: перебросить ⚀1 ⚂3"
    assert option_label("reroll", "reroll:Lucky Rabbit's Foot@4", "en") == "Re-roll ⚃4 (Lucky Rabbit's Foot)"
    # Counts agree with their noun in both languages: "1 success", «2 успеха», «5 успехов».
    for n, en, ru in ((1, "1 success,", "1 успех,"), (2, "2 successes,", "2 успеха,"), (5, "5 successes,", "5 успехов,")):
        ev = EhEvent(type="test_result", data={"investigator": "Lola Hayes", "successes": n, "passed": True})
        assert en in UI.event_text(ev, "en", names) and ru in UI.event_text(ev, "ru", names)
    # A test's outcome says it was the test that passed ("Марк Хэрриган: 1 успех, успех" read as a stutter).
    ev = EhEvent(type="test_result", data={"investigator": "Mark Harrigan", "successes": 1, "passed": True})
    assert UI.event_text(ev, "ru", names).endswith("1 успех, проверка пройдена")
    # Lola Hayes's own extra die does not name her twice; a die another investigator gives names the giver.
    own = EhEvent(type="extra_die", data={"investigator": "Lola Hayes", "source": "Lola Hayes", "dice": [3, 5]})
    given = EhEvent(type="extra_die", data={"investigator": "Mark Harrigan", "source": "Lola Hayes", "dice": [3]})
    assert UI.event_text(own, "en", names).count("Lola Hayes") == 1
    assert "Lola Hayes" in UI.event_text(given, "en", names) and "Mark Harrigan" in UI.event_text(given, "en", names)
    # The Russian edition's words: research encounters, the monster pool, one spelling of the Wind-Walker.
    assert option_label("encounter", "research", "ru") == "Поисковый контакт"
    from cogs.eldritch_horror import mythos_name
    assert mythos_name("the-wind-walker", "ru") == "Идущий с ветром"
    # An investigator's sheet names the start space as the map and every other line do ("Локация 15" read
    # «в локации локация 15»), and the private view's title reads as Russian.
    from bot.i18n import t
    from cogs.eldritch_horror import C as CARDS
    from cogs.eldritch_horror import sheet_text, space_name
    for who, data in CARDS.investigators.items():
        for lang in ("en", "ru"):
            assert f"**{space_name(data['start'], lang)}**" in sheet_text(who, lang), (who, lang)
    assert t("ru", "eldritch_horror.private_title", ancient_one="Азатот") == "Ваши сыщики · Древний: Азатот"
    # A new investigator (EH-R63) is offered with enough to choose by, as at setup.
    assert option_label("replace", "Jim Culver", "en") == "Jim Culver, The Musician · ❤7 🧠5 · The Deep South (6)"
    # Leo Anderson's Ally says which pile it comes from.
    assert option_label("target", "discarded:Witch Doctor", "en") == "Witch Doctor (from the asset discard pile)"
    assert option_label("target", "reserve:Urban Guide", "ru").endswith("(из резерва)")
    # Taking an item in a trade read "Take the loss", twice for two items.
    assert option_label("trade", "take:asset:Axe", "en") == "Take Axe"
    assert option_label("trade", "take:asset:Axe", "ru") == "Взять: Топор"
    assert option_label("prevent", "take", "en") == "Take the loss"
    # Blue is on the omen track twice: the two blues read differently.
    omens = [option_label("target", f"{k}:{c}", lang) for lang in ("en", "ru")
             for k, c in enumerate(("green", "blue", "red", "blue"))]
    assert len(set(omens)) == len(omens), omens
    # Shopping shows prices, and a discard says it comes from the reserve.
    assert option_label("buy", "buy:Axe+Holy Water", "en") == "Buy Axe + Holy Water (costs 4)"
    assert option_label("buy", "discard:Axe", "ru") == "Сбросить из резерва: Топор"


def test_prompts_say_what_is_being_chosen_and_how_the_dice_stand() -> None:
    from cogs.eldritch_horror import UI
    from cogs.games.ui import Names
    from rules.core import Prompt

    names = Names({"1": "Анна"})

    def text(kind: str, options: list[str], lang: str = "en", **params: Any) -> str:
        prompt = Prompt(seat="1", kind=kind, params={"investigator": "Lola Hayes", "options": options, **params})
        return UI.prompt_text(prompt, lang, names)

    assert text("target", ["lore", "influence", "observation", "strength", "will"]) == "Lola Hayes: choose a skill"
    assert text("target", ["Rome", "Tokyo"], "ru") == "Лола Хейз: выберите локацию"
    assert text("target", ["0:green", "1:blue", "no"]) == "Lola Hayes: choose the omen space"
    assert text("target", ["pay", "decline"]) == "Lola Hayes: pay the Clues this costs?"
    # A combat offer of "fight" or "cast a spell" asked "use this effect?" with no Yes among the buttons.
    assert text("optional", ["fight", "cast:Wither"]) == "Lola Hayes: fight as you are, or use a card first?"
    assert text("optional", ["yes", "no"]) == "Lola Hayes: use this effect?"
    # Russian: the other investigator's name stays in the nominative (once "меняется с Лола Хейз").
    assert text("trade", [], "ru", partner="Jim Culver") == "Лола Хейз: обмен с сыщиком Джим Калвер"
    assert text("prevent_other", [], "ru", partner="Jim Culver").startswith("Лола Хейз: потратить карту, чтобы сыщик")
    # The DM of a re-roll says how many successes the dice hold and which faces succeed.
    engine, state = _view()
    view = engine.view(state, "1")
    me = view.investigators[0]
    prompt = Prompt(seat="1", kind="reroll", params={"investigator": me.name, "dice": [6, 2, 5], "skill": "lore",
                                                     "options": ["accept"]})
    shown = view.model_copy(update={"pending": [prompt], "viewer": me.seat})
    embed = UI.private_embed(shown, "en", names)
    assert "(2 successes so far; a die succeeds on 5–6)" in (embed.description or "")
    cursed = shown.model_copy(update={"investigators": [me.model_copy(update={"conditions": ["Cursed"]}),
                                                        *view.investigators[1:]]})
    assert "(пока 1 успех; успех на кубике: 6)" in (UI.private_embed(cursed, "ru", names).description or "")


def test_russian_event_lines_agree_with_any_investigator_and_monster() -> None:
    """"Лола Хейз побеждён", "Змеелюди перемещается", "получает Радиосводка": the lines now agree with the
    noun they start with and leave card names in the nominative; travel is told once, by the moves."""
    from cogs.eldritch_horror import UI
    from cogs.games.ui import Names
    from rules.eldritch_horror.events import EhEvent

    names = Names({"1": "Анна"})

    def text(kind: str, **data: Any) -> str | None:
        return UI.event_text(EhEvent(type=kind, data=data), "ru", names)

    assert text("defeated", investigator="Lola Hayes") == "Сыщик Лола Хейз побеждён"
    assert text("monster_moved", monster="Serpent People", space="Rome") == "Монстр «Змеелюди» перемещается: Рим"
    assert text("gain_asset", investigator="Lola Hayes", card="Bull Whip") == "Лола Хейз получает: Кнут"
    assert text("action", investigator="Lola Hayes", action="travel:Rome") is None
    assert text("moved", investigator="Lola Hayes", space="Rome") == "Лола Хейз перемещается: Рим"
    assert text("action", investigator="Lola Hayes", action="rest") == "Лола Хейз: Отдых"


def test_an_optional_effect_says_what_it_would_do() -> None:
    """A "may" effect is asked with its cost and gain spelled out, not a bare "use this effect?"."""
    from cogs.eldritch_horror import UI
    from cogs.games.ui import Names
    from rules.eldritch_horror.spec import SPEC
    from tests.rules.eldritch_horror.helpers import game, quiet, resolve

    s = quiet(game("Azathoth", names=("Silas Marsh",)))
    resolve(s, [{"op": "optional", "cost": [{"op": "lose_sanity", "n": 1}], "then": [{"op": "gain_clue", "n": 1}]}])
    prompt = SPEC.engine.pending(s)[0]
    assert prompt.kind == "optional" and prompt.params["effect"] == "lose_sanity 1 + gain_clue 1"
    assert UI.prompt_text(prompt, "en", Names({})) == "Silas Marsh may: Lose Sanity: 1 + Gain Clue: 1. Do it?"
    assert "может: Потерять рассудок: 1 + Получить улику: 1" in UI.prompt_text(prompt, "ru", Names({}))


def test_the_table_shows_the_reserve_the_clues_and_every_mythos_card_in_play() -> None:
    """What a player must see without asking: the four assets on offer (EH-R17) on the table and, with their
    texts, in the private view when Acquire Assets is offered; where the clues lie (EH-R45), in words as well
    as on the map; the drawn Mythos card's text and the text of every rumor and ongoing card in play."""
    from cogs.eldritch_horror import UI, C
    from cogs.games.ui import Names
    from rules.core import Prompt
    from rules.eldritch_horror.events import EhEvent

    names = Names({"1": "Анна", "2": "Bob"})
    engine, state = _view()
    state.reserve = ["Axe", "Holy Water", "Bandages", ".38 Revolver"]
    state.clues = ["Space 15", "Tokyo"]
    state.in_play = [{"id": "stars-aligned", "eldritch": 0, "health": 0}, {"id": "driven-to-bankruptcy", "eldritch": 2, "health": 0}]
    state.rumors = {"Space 7": "stars-aligned"}
    view = engine.view(state, "1")
    table = UI.text_table(view, "en", names)
    assert "Reserve (cost): Axe (2), Holy Water (2), Bandages (1), .38 Revolver (1)" in table
    assert "Clues at: South Africa (15), Tokyo" in table
    assert "Mythos cards in play" in table and "**Stars Aligned** — Central America (7):" in table
    stars = C.mythos["stars-aligned"]["text"]["en"]
    assert stars[:40] in table and C.mythos["driven-to-bankruptcy"]["text"]["en"][:40] in table
    assert "Улики: Южная Африка (15), Токио" in UI.text_table(view, "ru", names)
    acting = Prompt(seat="1", kind="action", params={"investigator": view.investigators[0].name,
                                                     "options": ["rest", "acquire", "end"]})
    private = UI.text_private(view.model_copy(update={"pending": [acting]}), "en", names)
    assert "• **Axe** (2):" in private and "• **Bandages** (1):" in private
    drawn = EhEvent(type="mythos", data={"card": "Stars Aligned", "colour": "blue", "id": "stars-aligned"})
    assert UI.event_text(drawn, "en", names).endswith(stars)
    assert C.mythos["stars-aligned"]["text"]["ru"] in UI.event_text(drawn, "ru", names)


def test_travel_reads_well_and_journeys_on_tickets_get_their_own_menu() -> None:
    """Travel: next-door moves are buttons, journeys on tickets one menu of their own; the Russian label
    needs no case after a preposition (it once read «через Южная Африка (15)»)."""
    from cogs.eldritch_horror import UI, option_label
    from rules.eldritch_horror.actions import Choose

    assert option_label("action", "travel:Space 15>Space 16>Tokyo", "ru") == \
        "Переместиться: Токио (по пути: Южная Африка (15) → Центральная Россия (16))"
    assert option_label("action", "travel:Space 5>Arkham", "en") == "Travel to Arkham via America's Heartland (5)"
    assert UI.action_group(Choose(option="travel:Space 5")) == "travel"
    assert UI.action_group(Choose(option="travel:Space 5>Arkham")) == "travel_far"
    assert UI.group_placeholder("travel_far", "ru") == "Поехать по билетам в…"
