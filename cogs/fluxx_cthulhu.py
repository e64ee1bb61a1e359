"""Cthulhu Fluxx at the Discord table: the rules in force, goals, everyone's keepers, creepers and Doom.

Reaction windows ask every other seat (the engine's design), so a prompt never tells the table who holds
a surprise; each seat gets its own "pass or play a surprise" buttons by DM or through "My hand".
"""

from __future__ import annotations

import json
import re
from collections.abc import Hashable
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

import discord
from pydantic import BaseModel

from bot.i18n import catalog as messages
from bot.i18n import locale_of

# Every text here is worded from plain strings and numbers, and a click words dozens of them,
# mostly as after the move before: each is kept once worded.
from bot.i18n import t_cached as t
from cogs.games.ui import GameUI, Names, clip, register_ui
from rules.core import Event, Prompt
from rules.fluxx_cthulhu.cards import DATA_FILE, catalog
from rules.fluxx_cthulhu.views import FlxView, PlayerView

if TYPE_CHECKING:
    from cogs.games.host import GameBot

GAME = "fluxx_cthulhu"
# Characters the cards held may fill in one private view (names always, descriptions while they fit), so
# the embed stays inside Discord's 6000 characters however big a hand grows.
HAND_TEXT_BUDGET = 3800
_SEPARATORS = re.compile(r"[>|:]")


# A card's name, quoted name and text come from fixed card data and are asked for dozens of times per
# message (every card in every hand, keeper row, rule and button), so each is worked out once per locale.
@lru_cache(maxsize=4096)
def card_name(cid: str | None, locale: str) -> str:
    if cid is None:
        return "—"
    card = catalog().get(cid)
    if card is None:
        return cid
    return card.name_ru if locale_of(locale) == "ru" else card.name_en


@lru_cache(maxsize=4096)
def quoted(cid: str | None, locale: str) -> str:
    """A card's name inside a Russian sentence: in «quotes», so it reads right whatever its case and
    gender (and a name with a comma in it, «Сыграй все, кроме 1», stays one name in a list)."""
    if cid is None:
        return "—"
    name = card_name(cid, locale)
    return f"«{name}»" if locale_of(locale) == "ru" and cid in catalog() else name


def card_names(cids: list[str], locale: str, quote: bool = False) -> str:
    return ", ".join(quoted(c, locale) if quote else card_name(c, locale) for c in cids) or "—"


@cache
def _texts() -> dict[str, dict[str, str]]:
    doc = json.loads(DATA_FILE.read_text(encoding="utf-8"))
    return {c["id"]: c.get("text") or {} for c in doc["cards"]}


@lru_cache(maxsize=4096)
def card_text(cid: str, locale: str, limit: int = 160) -> str:
    """What a card does, short enough for a line of a hand or a table (cut at a word, with "…"; /card
    shows the rest)."""
    texts = _texts().get(cid, {})
    text = texts.get(locale_of(locale)) or texts.get("en") or ""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    return cut[: cut.rfind(" ")].rstrip(",;:.—- ") + "…"


@lru_cache(maxsize=4096)
def described(cid: str, locale: str, limit: int = 160) -> str:
    text = card_text(cid, locale, limit)
    return f"{card_name(cid, locale)} — {text}" if text else card_name(cid, locale)


def label(value: Any, locale: str, names: Names, quote: bool = False) -> str:
    """A prompt or option value as a person reads it: a card, a seat, a word from the catalog, or parts
    of a compound option such as ``mine>theirs``. ``quote``: for a sentence (see :func:`quoted`)."""
    if isinstance(value, list):
        return ", ".join(label(v, locale, names, quote) for v in value)
    if not isinstance(value, str):
        return str(value)
    if value in catalog():
        return quoted(value, locale) if quote else card_name(value, locale)
    if value in names.by_seat:
        return names(value)
    key = f"{GAME}.act.{value}"
    if messages().has(locale_of(locale), key) or messages().has("en", key):
        return t(locale, key)
    if _SEPARATORS.search(value):
        parts = _SEPARATORS.split(value)
        return " ⇄ ".join(label(p, locale, names, quote) for p in parts)
    return value


# The table's embed and every player's show the same rules, goals and keepers after a move, and most of
# them stay as they were, while their catalog texts cost more than the keys: the words are cached by what
# they say (no text here names a command, whose mention changes after a sync).
@lru_cache(maxsize=256)
def rules_text(draw: int, play: int | str, hand_limit: int | None, keeper_limit: int | None, rules: tuple[str, ...],
               meta_rule: str | None, explained: bool, locale: str) -> str:
    """The rules in force; ``explained`` puts each New Rule on a line of its own with what it does."""
    shown = t(locale, f"{GAME}.play_rule.{play}") if isinstance(play, str) else str(play)  # "all", "all_but_1"
    lines = [t(locale, f"{GAME}.rules_in_force", draw=draw, play=shown)]
    if hand_limit is not None:
        lines.append(t(locale, f"{GAME}.hand_limit", limit=hand_limit))
    if keeper_limit is not None:
        lines.append(t(locale, f"{GAME}.keeper_limit", limit=keeper_limit))
    if explained:
        lines += [f"📜 {described(r, locale, 90)}" for r in rules]
        if meta_rule:
            # its opening words only say it was agreed on before play: show what it does as well
            lines.append(f"⚖️ {described(meta_rule, locale, 250)}")
        return clip("\n".join(lines), 1024)
    if rules:
        lines.append("📜 " + card_names(list(rules), locale, quote=True))
    if meta_rule:
        lines.append("⚖️ " + card_name(meta_rule, locale))
    return "\n".join(lines)


@lru_cache(maxsize=256)
def player_text(keepers: tuple[str, ...], creepers: tuple[str, ...], attached: tuple[tuple[str, str], ...], doom: int,
                hand_count: int, locale: str) -> str:
    """A player's keepers (with the creepers attached to each), free creepers, Doom and hand size."""
    shown = []
    for k in keepers:
        on_it = [c for c, host in attached if host == k]
        shown.append(card_name(k, locale) + (f" ⟵ {card_names(on_it, locale)}" if on_it else ""))
    hosted = {c for c, _ in attached}
    free_creepers = [c for c in creepers if c not in hosted]
    lines = [
        "🗝 " + (", ".join(shown) or "—"),
        "🐙 " + card_names(free_creepers, locale),
        t(locale, f"{GAME}.doom", doom=doom) + " · " + t(locale, f"{GAME}.hand_cards", count=hand_count),
    ]
    return "\n".join(lines)


@lru_cache(maxsize=256)
def goals_text(goals: tuple[str, ...], locale: str) -> str:
    if not goals:
        return "🎯 " + t(locale, f"{GAME}.no_goal")
    return "\n".join(("☠ " if catalog()[g].type == "ungoal" else "🎯 ") + described(g, locale, 150) for g in goals)


@lru_cache(maxsize=256)
def card_chunks(cids: tuple[str, ...], locale: str) -> tuple[str, ...]:
    """Cards held, one line each with its type and what it does, cut into field-sized chunks. A very big
    hand loses the descriptions of its last cards before the embed outgrows Discord. Cached by the cards:
    a hand stays as it was while the others move."""
    lines = [f"• **{card_name(c, locale)}** ({FluxxUI._type(c, locale)})" for c in cids]
    budget = HAND_TEXT_BUDGET - sum(len(line) + 1 for line in lines)
    for i, c in enumerate(cids):
        text = card_text(c, locale)
        if text and budget >= len(text) + 2:
            lines[i] += f": {text}"
            budget -= len(text) + 2
    chunks: list[str] = []
    for line in lines or ["—"]:
        if chunks and len(chunks[-1]) + 1 + len(line) <= 1024:
            chunks[-1] += "\n" + line
        else:
            chunks.append(clip(line, 1024))
    return tuple(chunks)


def _owner(view: Any, cid: str) -> str | None:
    return next((p.seat for p in view.players if cid in p.keepers or cid in p.creepers), None)


class FluxxUI(GameUI):
    game_id = GAME

    # ------------------------------------------------------------------ table
    @staticmethod
    def _rules_text(view: FlxView, locale: str, explained: bool = False) -> str:
        """The rules in force; ``explained`` puts each New Rule on a line of its own with what it does."""
        return rules_text(view.draw_target, view.play_target, view.hand_limit, view.keeper_limit, tuple(view.rules),
                          view.meta_rule, explained, locale)

    @staticmethod
    def _player_block(view: FlxView, p: PlayerView, locale: str) -> str:
        return player_text(tuple(p.keepers), tuple(p.creepers), tuple(view.attached.items()), p.doom, p.hand_count,
                           locale)

    @staticmethod
    def _goals(view: FlxView, locale: str) -> str:
        """The goals in play with what each asks for: nobody can aim at a goal they cannot read."""
        return goals_text(tuple(view.goals), locale)

    def table_embed(self, view: FlxView, locale: str, names: Names) -> discord.Embed:
        description = [
            self._goals(view, locale),
            self._rules_text(view, locale),
            t(locale, f"{GAME}.deck_count", count=view.deck_count) + " · "
            + t(locale, f"{GAME}.discard_count", count=len(view.discard))
            + (" · " + t(locale, f"{GAME}.discard_top", card=quoted(view.discard[-1], locale)) if view.discard else ""),
            t(locale, f"{GAME}.table_doom", doom=view.table_doom),
        ]
        if view.hidden:
            description.append(t(locale, f"{GAME}.hidden_under_elder_sign", card=quoted(view.hidden, locale)))
        embed = discord.Embed(title=t(locale, f"{GAME}.title", turn=view.turn), description="\n".join(description),
                              colour=discord.Colour.dark_green())
        for p in view.players:
            marker = "▶ " if p.seat == view.current_seat and view.result is None else ""
            embed.add_field(name=f"{marker}{names(p.seat)}", value=self._player_block(view, p, locale), inline=True)
        if view.result is not None:
            reason = t(locale, f"{GAME}.reason.{view.result.reason}")
            if view.result.winners:
                winners = ", ".join(names(s) for s in view.result.winners)
                embed.add_field(name=t(locale, f"{GAME}.winner"), value=f"{winners} ({reason})", inline=False)
            else:  # nobody won: the field says so in its title, not as the name of a winner
                embed.add_field(name=t(locale, f"{GAME}.everyone_lost"), value=reason, inline=False)
        return embed

    def private_embed(self, view: FlxView, locale: str, names: Names) -> discord.Embed:
        me = next(p for p in view.players if p.seat == view.viewer)
        embed = discord.Embed(title=t(locale, f"{GAME}.private_title", turn=view.turn), colour=discord.Colour.green())
        self._card_fields(embed, t(locale, f"{GAME}.your_hand"), me.hand or [], locale)
        if me.limbo:
            self._card_fields(embed, t(locale, f"{GAME}.drawn_for_action"), me.limbo, locale)
        if me.dreams:
            self._card_fields(embed, t(locale, f"{GAME}.dream_cards"), me.dreams, locale)
        embed.add_field(name=t(locale, f"{GAME}.in_front_of_you"), value=self._player_block(view, me, locale),
                        inline=False)
        embed.add_field(name=t(locale, f"{GAME}.table"), value=self._rules_text(view, locale, explained=True),
                        inline=False)
        embed.add_field(name=t(locale, f"{GAME}.goals"), value=clip(self._goals(view, locale), 1024), inline=False)
        mine = [p for p in view.pending if p.seat == view.viewer]
        if mine:
            embed.description = "**" + self.prompt_text(mine[0], locale, names) + "**"
        elif view.result is None and view.pending:
            who = ", ".join(dict.fromkeys(names(p.seat) for p in view.pending))
            embed.description = t(locale, f"{GAME}.waiting", who=who)
            if view.hidden is not None and "elder_sign" in me.keepers:
                embed.description += "\n" + t(locale, f"{GAME}.reveal_any_time", card=quoted(view.hidden, locale))
        return embed

    def personal(self, view: FlxView) -> Hashable:
        me = next(p for p in view.players if p.seat == view.viewer)
        return (tuple(me.hand or ()), tuple(me.keepers), tuple(me.creepers), tuple(me.limbo or ()),
                tuple(me.dreams or ()))

    @staticmethod
    @lru_cache(maxsize=4096)
    def _type(cid: str, locale: str) -> str:
        card = catalog().get(cid)
        return t(locale, f"{GAME}.type.{card.type}") if card else ""

    @staticmethod
    def _card_fields(embed: discord.Embed, name: str, cids: list[str], locale: str) -> None:
        """Cards held, each with its type and what it does, over as many fields as the text needs."""
        for i, chunk in enumerate(card_chunks(tuple(cids), locale)):
            embed.add_field(name=name if i == 0 else "\u200b", value=chunk, inline=False)

    # ------------------------------------------------------------------ actions
    def action_label(self, action: BaseModel, view: Any, locale: str, names: Names) -> str:
        a: Any = action
        reacting = any(p.kind == "react" and p.seat == view.viewer for p in view.pending)
        if a.type == "play":
            return t(locale, f"{GAME}.act.react" if reacting else f"{GAME}.act.play", card=quoted(a.card, locale))
        if a.type in ("discard",):
            return t(locale, f"{GAME}.act.discard", card=quoted(a.card, locale))
        if a.type == "choose":
            return self._option_label(a.option, view, locale, names)
        if a.type == "give":
            return t(locale, f"{GAME}.act.give", card=quoted(a.card, locale), to=names(a.to))
        if a.type == "use_power":
            if a.card == "elder_sign":  # one card, two opposite moves: each gets its own words and row
                return t(locale, f"{GAME}.act.{self._elder_sign_move(a, view)}",
                         target=label(a.target, locale, names, quote=True))
            if a.to is not None:
                return t(locale, f"{GAME}.act.use_power_move", card=quoted(a.card, locale),
                         target=label(a.target, locale, names, quote=True), to=names(a.to))
            if a.target is not None:
                return t(locale, f"{GAME}.act.use_power_target", card=quoted(a.card, locale),
                         target=label(a.target, locale, names, quote=True))
            return t(locale, f"{GAME}.act.use_power", card=quoted(a.card, locale))
        return t(locale, f"{GAME}.act.{a.type}")

    @staticmethod
    def _elder_sign_move(action: Any, view: Any) -> str:
        """Whether an Elder Sign power hides a creeper or turns up the one already under the sign."""
        return "elder_sign_reveal" if action.target == view.hidden else "elder_sign_hide"

    def action_group(self, action: BaseModel) -> str:
        a: Any = action
        if a.type == "use_power" and a.card == "elder_sign":
            # A row of its own, apart from the other free actions. Hiding is offered only while nothing
            # is hidden and turning up only while something is, so the row never mixes the two.
            return "elder_sign"
        return str(a.type)

    @staticmethod
    def _option_label(option: str, view: Any, locale: str, names: Names) -> str:
        """A choice as a button: a keeper or creeper on the table says whose it is, a keeper exchange
        says which one goes and which one comes."""
        if ">" in option:
            mine, theirs = option.split(">", 1)
            owner = _owner(view, theirs)
            return t(locale, f"{GAME}.act.exchange", give=quoted(mine, locale), take=quoted(theirs, locale),
                     owner=names(owner))
        owner = _owner(view, option) if option in catalog() else None
        if owner is not None:
            return t(locale, f"{GAME}.act.choose_owned", option=card_name(option, locale), owner=names(owner))
        return t(locale, f"{GAME}.act.choose", option=label(option, locale, names))

    def prompt_text(self, prompt: Prompt, locale: str, names: Names) -> str:
        params = {k: label(v, locale, names, quote=True) for k, v in prompt.params.items()}
        kind = prompt.kind
        if kind == "react" and prompt.params.get("trigger") == "ungoal":
            kind = "react_ungoal"
        if kind == "choose":
            # Say what the choice does, not only which card asks for it.
            specific = f"{GAME}.prompt.choose_{prompt.params.get('effect')}"
            if messages().has("en", specific):
                return t(locale, specific, **params)
        return t(locale, f"{GAME}.prompt.{kind}", **params)

    def rule_error_params(self, params: dict[str, Any], locale: str, names: Names) -> dict[str, Any]:
        return {k: label(v, locale, names, quote=True) for k, v in params.items()}

    # ------------------------------------------------------------------ events
    def event_text(self, event: Event, locale: str, names: Names) -> str | None:
        e: Any = event
        # Every Fluxx event field is a word, a number, a flag or a list of card ids, which model_dump only
        # copies: the fields are read as they are (nothing below changes them).
        fields = {k: v for k, v in e.__dict__.items() if k not in ("type", "audience")}
        params: dict[str, Any] = {k: label(v, locale, names, quote=True) for k, v in fields.items()}
        params["who"] = names(fields.get("seat")) if fields.get("seat") else "—"
        if e.type == "card_moved":
            params["from"], params["to"] = names(e.from_seat), names(e.to_seat)
        if e.type == "cards_discarded" and e.seat is None:
            return t(locale, f"{GAME}.ev.cards_discarded_table", **params)
        if e.type == "hands_swapped":
            if e.kind == "trade" and len(e.seats) == 2:
                return t(locale, f"{GAME}.ev.hands_traded", a=names(e.seats[0]), b=names(e.seats[1]))
            return t(locale, f"{GAME}.ev.hands_rotated")
        if e.type == "goal_placed" and catalog()[e.card].type == "ungoal":
            text = t(locale, f"{GAME}.ev.ungoal_placed", **params)
            if e.replaced:
                text += " " + t(locale, f"{GAME}.ev.rule_replaced", replaced=card_names(e.replaced, locale, True))
            return text
        if e.type == "turn_started" and e.extra:
            return t(locale, f"{GAME}.ev.extra_turn", **params)
        if e.type == "cards_drawn" and e.cards is not None:
            return t(locale, f"{GAME}.ev.cards_drawn_private", **params)
        if e.type == "card_given" and e.card is not None:
            return t(locale, f"{GAME}.ev.card_given_private", **params)
        if e.type == "player_left" and not e.cards:
            return t(locale, f"{GAME}.ev.player_left_empty", **params)
        if e.type == "creeper_hidden" and not e.hidden:
            return t(locale, f"{GAME}.ev.creeper_revealed", **params)
        if e.type == "game_ended" and e.reason == "conceded" and e.winner:
            return t(locale, f"{GAME}.ev.game_ended_conceded", winner=names(e.winner))
        if e.type == "game_ended":
            params["reason"] = t(locale, f"{GAME}.reason.{e.reason}")
        text = t(locale, f"{GAME}.ev.{e.type}", **params)
        if e.type in ("rule_placed", "goal_placed") and e.replaced:
            text += " " + t(locale, f"{GAME}.ev.rule_replaced", replaced=card_names(e.replaced, locale, True))
        return text

    def announcements(self, events: list[Event], locale: str, names: Names) -> list[str]:
        out = []
        for e in events:
            g: Any = e
            if e.type == "game_ended":
                reason = t(locale, f"{GAME}.reason.{g.reason}")
                if g.winner:
                    key = f"{GAME}.ann.winner" if g.card else f"{GAME}.ann.winner_goal"
                    out.append(t(locale, key, who=names.mention(g.winner), reason=reason, card=quoted(g.card, locale)))
                elif g.card:
                    out.append(t(locale, f"{GAME}.ann.everyone_lost_to", card=quoted(g.card, locale)))
                else:
                    out.append(t(locale, f"{GAME}.ann.everyone_lost", reason=reason))
        return out

    def start_notice(self, options: BaseModel, locale: str) -> str | None:
        opts: Any = options
        return t(locale, f"{GAME}.notice.house" if opts.house_cards else f"{GAME}.notice.no_house")


UI = FluxxUI()


async def setup(bot: GameBot) -> None:
    register_ui(UI)
