"""Cthulhu Fluxx played through the real discord.py stack: a whole game, a surprise played off turn,
a player joining mid-game, reaction prompts sent to every other seat."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from .harness import Harness
from .tables import Table, custom_ids


def eager_surprises(legal: list[Any], rnd: random.Random) -> int:
    """Answer a reaction window with a surprise whenever one fits; otherwise play at random."""
    plays = [i for i, a in enumerate(legal) if a.type == "play"]
    if any(a.type == "pass" for a in legal) and plays:
        return rnd.choice(plays)
    return rnd.randrange(len(legal))


async def play_to_the_end(h: Harness, table: Table, rnd: random.Random) -> bool:
    """Play a whole game; True if a surprise was played by someone whose turn it was not."""
    off_turn = False
    for _ in range(1500):
        rec, spec, state = await table.load()
        prompts = spec.engine.pending(state)
        if not prompts:
            assert rec.status == "finished"
            return off_turn
        if prompts[0].kind == "react" and prompts[0].params.get("by"):
            # The card's player is never asked to answer their own card.
            assert prompts[0].params["by"] not in {p.seat for p in prompts}
        before = len(await h.bot.store.actions(table.sid))
        await table.step(rnd, eager_surprises)
        log = await h.bot.store.actions(table.sid)
        clicked = [e for e in log[before:] if not e.auto]
        assert len(clicked) == 1, "every click applies exactly once (the rest are the bot's forced steps)"
        log = log[: log.index(clicked[0]) + 1]
        move = json.loads(log[-1].action_json)
        if prompts[0].kind == "react" and move["type"] == "play" and log[-1].seat != state.players[state.current].seat:
            off_turn = True
    raise AssertionError("the game did not end")


async def test_whole_game_with_an_off_turn_surprise_and_a_late_joiner(h: Harness) -> None:
    users = [h.user(n) for n in ("alice", "bob", "carol")]
    late = h.user("dave")
    table = Table(h, users, game="fluxx_cthulhu")
    await table.open(users[0])
    await table.seat_all()
    lobby = h.fake.message(table.table_id)
    assert "Cthulhu Fluxx" in lobby["embeds"][0]["title"]
    # Dave sits down while the game runs, from the table's Join button: it asks first, the confirm seats him.
    assert f"gj:{table.sid}" in custom_ids(lobby)
    r = await h.click(late, table.table_id, f"gj:{table.sid}")
    assert r.ephemeral and "Take a seat in this game of Cthulhu Fluxx?" in r.content
    rec, _spec, state = await table.load()
    assert late.id not in rec.seats and len(state.players) == 3, "asking seats nobody"
    assert custom_ids(r.message) == [f"gjc:{table.sid}"]
    r = await h.click(late, r.message["id"], f"gjc:{table.sid}")
    assert r.ephemeral
    table.users[str(late.id)] = late
    rec, _spec, state = await table.load()
    assert late.id in rec.seats and len(state.players) == 4
    assert h.fake.dms_to(late.id), "the newcomer gets their hand by DM"
    r = await h.click(late, table.table_id, f"gj:{table.sid}")
    assert r.ephemeral and "already" in r.content

    rnd = random.Random(2)
    games = [await play_to_the_end(h, table, rnd)]
    posts = [m["content"] for m in h.fake.messages_in(h.channel.id, include_ephemeral=False)]
    assert any("wins" in p or "Everyone loses" in p for p in posts)
    # Surprises are in few hands; play further games at the same table until one is played off turn.
    while not any(games) and len(games) < 6:
        table = Table(h, users, game="fluxx_cthulhu")
        await table.open(users[0])
        await table.seat_all()
        games.append(await play_to_the_end(h, table, rnd))
    assert any(games), "a surprise was played out of turn through a DM or ephemeral prompt"
    assert not h.fake.take_problems()


async def test_reaction_window_prompts_every_other_seat_by_dm(h: Harness) -> None:
    users = [h.user(n) for n in ("ann", "ben", "cat")]
    for u in users:  # full control: with auto-pass on, seats holding no surprise pass at once
        await h.slash(u, h.channel, "game autopass", enabled=False)
    table = Table(h, users, game="fluxx_cthulhu")
    await table.open(users[0], "meta_rule")
    await table.seat_all()
    rnd = random.Random(7)
    for _ in range(400):
        rec, spec, state = await table.load()
        prompts = spec.engine.pending(state)
        if not prompts:
            break
        # (a seat that provably holds no surprise, all of them being in sight elsewhere, passes at once even
        # with auto-pass off: nothing hidden decides it)
        if prompts[0].kind == "react" and len(prompts) > 1:
            waiting = [p.seat for p in prompts]
            for seat in waiting:
                message = table.private_message(table.users[seat], rec.version)
                assert message is not None, "every seat in the window has its own pass/play buttons"
                assert any(c.startswith(f"gb:{table.sid}:{rec.version}:") for c in custom_ids(message))
            # One seat passes; the window stays open for the other, whose DM moves to the new version
            # in place (no "outdated" detour).
            first, rest = waiting[0], waiting[1:]
            dms_before = len(h.fake.dms_to(table.users[rest[0]].id))
            message = table.private_message(table.users[first], rec.version)
            legal = spec.engine.legal_actions(state, first)
            await table.press(table.users[first], message, next(i for i, a in enumerate(legal) if a.type == "pass"),
                              rec.version)
            after, _spec, _state = await table.load()
            assert [p.seat for p in spec.engine.pending(_state)] == rest
            message = table.private_message(table.users[rest[0]], after.version)
            assert message is not None and message["id"] in [m["id"] for m in h.fake.dms_to(table.users[rest[0]].id)]
            assert len(h.fake.dms_to(table.users[rest[0]].id)) == dms_before, "edited, not sent again"
            return
        await table.step(rnd)
    pytest.fail("no reaction window opened in 400 moves")


async def test_russian_table(h: Harness) -> None:
    h.guild.preferred_locale = "ru"
    users = [h.user("аня", locale="ru"), h.user("боря", locale="ru")]
    table = Table(h, users, game="fluxx_cthulhu")
    await table.open(users[0])
    await table.seat_all()
    msg = h.fake.message(table.table_id)
    assert msg["embeds"][0]["title"].startswith("Fluxx Ктулху")
    r = await h.click(users[1], table.table_id, f"gh:{table.sid}")
    assert r.message["embeds"][0]["title"].startswith("Ваша рука")


@pytest.mark.parametrize(("locale", "hint"), [("en", "You may still turn up"), ("ru", "Можно и сейчас открыть")])
def test_the_elder_signs_owner_sees_the_reveal_offered_off_turn(locale: str, hint: str) -> None:
    """Off turn, the private view of the Elder Sign's owner says the hidden creeper may be turned up now
    (its button comes with the view's actions); other players are told nothing of the kind."""
    from cogs.fluxx_cthulhu import UI
    from cogs.games.ui import Names
    from rules.fluxx_cthulhu import SPEC
    from tests.rules.fluxx_cthulhu.helpers import arrange, new

    s = arrange(new(3), keepers={1: ["elder_sign"]}, creepers={1: ["mi_go"]}, current=0)
    s.hidden = "mi_go"
    names = Names({"p0": "Ann", "p1": "Ben", "p2": "Cat"})
    owner = UI.private_embed(SPEC.engine.view(s, "p1"), locale, names)
    other = UI.private_embed(SPEC.engine.view(s, "p2"), locale, names)
    assert hint in (owner.description or "") and hint not in (other.description or "")
    assert [a.type for a in SPEC.engine.legal_actions(s, "p1")] == ["use_power"]


# ---------------------------------------------------------------------- how the texts read (UX review)


def _flx() -> tuple[Any, Any, Any]:
    from cogs.fluxx_cthulhu import UI
    from cogs.games.ui import Names
    from rules.fluxx_cthulhu import events as ev

    return UI, Names({"p0": "Аня", "p1": "Боря", "p2": "Вика"}), ev


def _embed_size(embed: Any) -> int:
    return len(embed.title or "") + len(embed.description or "") + sum(len(f.name) + len(f.value)
                                                                       for f in embed.fields)


def test_play_all_rules_read_as_play_all_not_as_all_new_rules() -> None:
    """With "Play All but 1" in force the table said "play All New Rules"; the Yellow Sign's "all"
    option showed the raw word "all" on its button."""
    from rules.fluxx_cthulhu import SPEC
    from tests.rules.fluxx_cthulhu.helpers import arrange, new

    UI, names, _ev = _flx()
    s = arrange(new(3), rules=["play_all_but_1"], goals=["music_of_erich_zann"])
    assert "сыграй все, кроме 1" in UI.table_embed(SPEC.engine.view(s, None), "ru", names).description
    en = UI.table_embed(SPEC.engine.view(s, None), "en", names).description
    assert "play all but 1" in en and "All New Rules" not in en
    s = arrange(new(3), rules=["play_all"])
    assert "Rules: draw 1, play all" in UI.table_embed(SPEC.engine.view(s, None), "en", names).description
    view = SPEC.engine.view(s, "p0")
    assert UI._option_label("all", view, "ru", names) == "Все новые правила"
    assert UI._option_label("all", view, "en", names) == "All New Rules"


def test_hand_goals_and_rules_say_what_the_cards_do() -> None:
    """A hand used to be "• Музыка Эриха Цанна — Цель" and the table "🎯 Музыка Эриха Цанна": nobody
    could tell what a goal needs, what "Страх неизвестного" allows or what was in front of them."""
    from rules.fluxx_cthulhu import SPEC
    from tests.rules.fluxx_cthulhu.helpers import arrange, new

    UI, names, _ev = _flx()
    s = arrange(new(3), hands={0: ["music_of_erich_zann", "time_slip"]}, keepers={0: ["poet"]},
                rules=["fear_of_the_unknown"], goals=["thing_on_the_doorstep"])
    private = UI.private_embed(SPEC.engine.view(s, "p0"), "ru", names)
    fields = {f.name: f.value for f in private.fields}
    assert "**Музыка Эриха Цанна** (Цель): Победа, если перед вами «Художник» и «Поэт»." in fields["Ваша рука"]
    assert "**Провал во времени** (Действие): Сразу после этого хода сделайте ещё один." in fields["Ваша рука"]
    assert "🗝 Поэт" in fields["Перед вами"]
    assert "📜 Страх неизвестного — 🤖 Решение бота: раз за ход, бесплатно: вытяните 1 карту" in fields["На столе"]
    assert "Тварь на пороге — Победа, если перед вами «Поэт» и «Склеп»." in fields["Цели"]
    table = UI.table_embed(SPEC.engine.view(s, None), "en", names)
    assert "🎯 The Thing on the Doorstep — " in table.description


def test_a_huge_hand_stays_inside_discords_embed_limits() -> None:
    from rules.fluxx_cthulhu import SPEC
    from rules.fluxx_cthulhu.cards import deck_ids
    from tests.rules.fluxx_cthulhu.helpers import arrange, new

    UI, names, _ev = _flx()
    rules = ["fear_of_the_unknown", "play_2", "draw_3", "keeper_limit_4"]
    big = [c for c in deck_ids(True) if c not in rules][:60]
    s = arrange(new(3), hands={0: big}, rules=rules)
    for loc in ("ru", "en"):
        embed = UI.private_embed(SPEC.engine.view(s, "p0"), loc, names)
        assert _embed_size(embed) <= 6000 and len(embed.fields) <= 25
        assert all(0 < len(f.value) <= 1024 and f.name for f in embed.fields)
        assert sum(f.value.count("• ") for f in embed.fields) == 60, "every card is listed"


def test_russian_log_quotes_card_names_and_agrees_in_gender() -> None:
    """"Аня сыграл …", "Новая цель: Цвет из иных миров. Оно заменяет …", "Кошмары ложится …", a list
    "Страх неизвестного, Сыграй все, кроме 1, Тяни 3" that reads as four cards, an ungoal announced as
    "Новая цель", and "— сбрасывает …" for cards no player discarded."""
    from rules.core import Prompt

    UI, names, ev = _flx()
    text = lambda e, loc="ru": UI.event_text(e, loc, names)  # noqa: E731
    assert text(ev.CardPlayed(seat="p0", card="poet", source="hand", counted=True)) == "Аня играет «Поэт»."
    assert text(ev.GoalPlaced(seat="p0", card="colour_out_of_space", replaced=["haunter_of_the_dark"])) == (
        "Новая цель: «Цвет из иных миров». В сброс уходит «Обитающий во мраке».")
    assert text(ev.GoalPlaced(seat="p0", card="dunwich_horror", replaced=[])) == "Новый провал: «Ужас Данвича»."
    assert text(ev.GoalPlaced(seat="p0", card="dunwich_horror", replaced=[]), "en") == "New ungoal: The Dunwich Horror."
    assert text(ev.CreeperPlaced(seat="p1", card="nightmares")) == "Проблема «Кошмары» ложится перед игроком Боря."
    assert text(ev.CardMoved(card="poet", from_seat="p0", to_seat="p1", reason="steal")) == (
        "Карта «Поэт» переходит от игрока Аня к игроку Боря.")
    assert text(ev.CardsDiscarded(seat="p0", cards=["fear_of_the_unknown", "play_all_but_1"], reason="x")) == (
        "Аня: в сброс — «Страх неизвестного», «Сыграй все, кроме 1».")
    assert text(ev.CardsDiscarded(seat=None, cards=["meat_market"], reason="goal_spot_lost")) == (
        "В сброс — «Мясной рынок».")
    assert text(ev.CardsDrawn(seat="p0", count=2)) == "Аня тянет 2 карты."
    assert text(ev.CardsDrawn(seat="p0", count=5)) == "Аня тянет 5 карт."
    assert text(ev.Reshuffled(count=21)) == "Сброс перемешан в новую колоду (21 карта)."
    assert text(ev.HandsSwapped(seats=["p0", "p2"], kind="trade")) == "Аня и Вика меняются руками."
    react = Prompt(seat="p1", kind="react", params={"trigger": "action", "card": "cult_theft", "by": "p0"})
    assert UI.prompt_text(react, "ru", names) == "Аня играет «Кража для культа»: сыграйте сюрприз или пасуйте"


def test_choices_say_what_they_do_and_whose_card_it_is() -> None:
    """"сделайте выбор для карты Обмен темами" with buttons "Поэт ⇄ Лечебница" left open which keeper
    goes and what the choice does."""
    from rules.core import Prompt
    from rules.fluxx_cthulhu import SPEC
    from tests.rules.fluxx_cthulhu.helpers import arrange, new

    UI, names, _ev = _flx()
    s = arrange(new(3), keepers={0: ["poet"], 1: ["sanitarium"]})
    view = SPEC.engine.view(s, "p0")
    assert UI._option_label("poet>sanitarium", view, "ru", names) == "Отдать «Поэт», взять «Лечебница» (Боря)"
    assert UI._option_label("sanitarium", view, "en", names) == "The Sanitarium (Боря)"
    prompt = Prompt(seat="p0", kind="choose", params={"effect": "steal_keeper", "options": ["sanitarium"],
                                                      "card": "cult_theft"})
    assert UI.prompt_text(prompt, "ru", names) == "«Кража для культа»: выберите чужую тему, которую заберёте себе"
    assert UI.prompt_text(prompt, "en", names).startswith("Cult Theft: pick another player's keeper")


def test_end_of_game_posts_name_no_missing_card() -> None:
    """A goal win read "🏆 <@…> wins with —: the goal was met."; a loss did not say which ungoal."""
    UI, names, ev = _flx()
    [post] = UI.announcements([ev.GameEnded(winner="p1", reason="goal")], "en", names)
    assert post == f"🏆 {names.mention('p1')} wins: the goal was met." and "—" not in post
    [post] = UI.announcements([ev.GameEnded(winner=None, reason="ungoal", card="dunwich_horror")], "ru", names)
    assert post == "💀 Проиграли все: выполнен провал «Ужас Данвича»."
    [post] = UI.announcements([ev.GameEnded(winner="p0", reason="secret_cultist", card="secret_cultist")], "ru",
                              names)
    assert "благодаря карте «Скрытый культист»" in post and "««" not in post


def test_house_card_notice_speaks_plainly() -> None:
    from bot.i18n import t

    assert "неопознанн" not in t("ru", "fluxx_cthulhu.notice.house")
    assert "fluxx_cthulhu" not in t("ru", "fluxx_cthulhu.notice.house")
    assert "неопознанн" not in t("ru", "opt.fluxx_cthulhu.house_cards")
    for loc in ("ru", "en"):
        assert "{" not in t(loc, "rule.flx.answer_expected")
        assert "{trigger}" not in str(messages_of(loc, "rule.flx.surprise_does_not_apply"))
    assert t("ru", "rule.flx.already_given", to="Аня") == "Игроку Аня карта уже досталась."


def messages_of(loc: str, key: str) -> object:
    from bot.i18n import catalog

    return catalog().messages[loc][key]


def test_the_meta_rule_in_a_hand_view_says_what_it_does() -> None:
    """Cut at 90 characters, Cult Clash showed only that it was agreed on before play."""
    from rules.fluxx_cthulhu import SPEC
    from tests.rules.fluxx_cthulhu.helpers import arrange, new

    UI, names, _ev = _flx()
    s = arrange(new(3, meta_rule=True))
    table = next(f.value for f in UI.private_embed(SPEC.engine.view(s, "p0"), "ru", names).fields
                 if f.name == "На столе")
    assert "⚖️ Битва культов — " in table and "побеждает игрок с наибольшей безысходностью" in table


def test_a_goal_win_is_announced_with_its_goal() -> None:
    from cogs.fluxx_cthulhu import UI
    from cogs.games.ui import Names
    from rules.fluxx_cthulhu.events import GameEnded

    event = GameEnded(winner="p2", reason="goal", card="miskatonic_university")
    text = UI.announcements([event], "en", Names({"p2": "Cat"}))[0]
    assert "**Cat**" in text and "Miskatonic University" in text  # a seat that is not a member: its name


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_every_card_the_bot_decided_shows_the_ruling_in_hand_on_the_table_and_in_card(locale: str) -> None:
    """A card whose effect, requirement or Doom the bot decided (``bot_rulings`` in the data) never
    reads "effect not known" while the engine does something: its text says what the bot does, marked as
    a bot ruling, within what the hand (160 characters), the goals (150), the rules list (90) and
    ``/card`` show of it."""
    from bot.lookup.search import LookupIndex
    from cogs.fluxx_cthulhu import card_text
    from rules.fluxx_cthulhu.cards import DATA_FILE

    marker = "🤖 Bot ruling" if locale == "en" else "🤖 Решение бота"
    ruled = [c for c in json.loads(DATA_FILE.read_text(encoding="utf-8"))["cards"] if c.get("bot_rulings")]
    assert len(ruled) == 20
    index = LookupIndex.build()
    for c in ruled:
        shown = {card_text(c["id"], locale, 160), index.card("fluxx_cthulhu", c["id"]).text.get(locale)}
        if c["type"] in ("goal", "ungoal"):
            shown.add(card_text(c["id"], locale, 150))
        if c["type"] == "new_rule":
            shown.add(card_text(c["id"], locale, 90))
        for text in shown:
            assert marker in text, (c["id"], text)
            assert not any(w in text.lower() for w in ("not known", "unknown", "не извест", "не найден")), c["id"]


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_hiding_under_the_elder_sign_and_revealing_are_different_buttons(locale: str) -> None:
    """Both are the Elder Sign's power on a creeper; they once read alike ("Use The Elder Sign on Cthulhu")."""
    from cogs.games.ui import layout_actions
    from rules.fluxx_cthulhu import SPEC
    from tests.rules.fluxx_cthulhu.helpers import arrange, new

    UI, names, _ev = _flx()
    s = arrange(new(3), hands={0: ["cat"]}, keepers={0: ["elder_sign", "tomb"]}, creepers={0: ["cthulhu", "mi_go"]})
    engine = SPEC.engine
    hide = [a for a in engine.legal_actions(s, "p0") if a.type == "use_power" and a.card == "elder_sign"]
    labels = [UI.action_label(a, engine.view(s, "p0"), locale, names) for a in hide]
    assert len(labels) == 2 and all(x.startswith("🔒") for x in labels)
    s, _ = engine.apply(s, "p0", hide[0])
    [reveal] = [a for a in engine.legal_actions(s, "p0") if a.type == "use_power" and a.card == "elder_sign"]
    text = UI.action_label(reveal, engine.view(s, "p0"), locale, names)
    assert text.startswith("🔓") and text not in labels
    word = {"en": ("Hide", "Reveal"), "ru": ("Спрятать", "Открыть")}[locale]
    assert word[0] in labels[0] and word[1] in text
    layout = layout_actions(UI, engine.view(s, "p0"), engine.legal_actions(s, "p0"), locale, names)
    rows = {label: row for row, _i, label in layout.buttons}
    others = [r for label, r in rows.items() if label != text]
    assert rows[text] not in others  # a row of its own


def test_table_says_everyone_lost_as_a_loss_and_labels_the_discard_top() -> None:
    """The end of a lost game read "🏆 Winner: Everyone lost"; the discard line ended in a bare card name."""
    from rules.fluxx_cthulhu import SPEC
    from tests.rules.fluxx_cthulhu.helpers import arrange, new, play

    UI, names, _ev = _flx()
    s = arrange(new(3), hands={0: ["dunwich_horror"]}, creepers={1: ["yog_sothoth", "cthulhu"], 2: ["deep_ones"]})
    s, _ = play(s, "p0", "dunwich_horror")
    assert s.phase == "over" and s.winner is None
    for locale, title, reason in (("ru", "💀 Проиграли все", "выполнен провал"), ("en", "💀 Everyone lost", "")):
        embed = UI.table_embed(SPEC.engine.view(s, None), locale, names)
        field = embed.fields[-1]
        assert field.name == title and reason in field.value and "🏆" not in field.name
    s = arrange(new(3), hands={0: ["time_slip", "cat"]}, goals=["meat_market"])
    s, _ = play(s, "p0", "time_slip")
    assert s.discard[-1] == "time_slip"
    embed = UI.table_embed(SPEC.engine.view(s, None), "ru", names)
    assert f"Сброс: {len(s.discard)} · сверху «Провал во времени»" in embed.description


async def test_a_player_leaves_a_running_game_from_the_table(h: Harness) -> None:
    """The table's Leave button asks first; the confirm takes the player out through the engine's
    ``leave`` (their cards go to the discard pile) and the session's seats shrink with it."""
    users = [h.user(n) for n in ("ann", "ben", "cat")]
    table = Table(h, users, game="fluxx_cthulhu")
    await table.open(users[0])
    await table.seat_all()
    cat = users[2]
    assert f"gq:{table.sid}" in custom_ids(h.fake.message(table.table_id))
    r = await h.click(cat, table.table_id, f"gq:{table.sid}")
    assert r.ephemeral and "Leave this game?" in r.content
    rec, _spec, state = await table.load()
    assert cat.id in rec.seats and len(state.players) == 3, "asking takes nobody out"
    r = await h.click(cat, r.message["id"], f"gqc:{table.sid}")
    rec, spec, state = await table.load()
    assert cat.id not in rec.seats and [p.seat for p in state.players] == [str(u.id) for u in users[:2]]
    assert spec.engine.pending(state), "the game goes on with two players"
    # Leaving stays open with two players (then the other one wins the game).
    assert f"gq:{table.sid}" in custom_ids(h.fake.message(table.table_id))
    assert not h.fake.take_problems()
