"""Cthulhu Fluxx at the Discord table: the rules in force, goals, everyone's keepers, creepers and Doom.

Reaction windows ask every other seat (the engine's design), so a prompt never tells the table who holds
a surprise; each seat gets its own "pass or play a surprise" buttons by DM or through "My hand".
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

import discord
from pydantic import BaseModel

from bot.i18n import catalog as messages
from bot.i18n import locale_of, t
from bot.ui import GameUI, Names, register_ui
from rules.core import Event, Prompt
from rules.fluxx_cthulhu.cards import catalog
from rules.fluxx_cthulhu.views import FlxView, PlayerView

if TYPE_CHECKING:
    from bot.client import GameBot

GAME = "fluxx_cthulhu"
_SEPARATORS = re.compile(r"[>|:]")


def card_name(cid: str | None, locale: str) -> str:
    if cid is None:
        return "—"
    card = catalog().get(cid)
    if card is None:
        return cid
    return card.name_ru if locale_of(locale) == "ru" else card.name_en


def card_names(cids: list[str], locale: str) -> str:
    return ", ".join(card_name(c, locale) for c in cids) or "—"


def goal_names(cids: list[str], locale: str) -> str:
    """Goals, with ungoals (which end the game for everyone) marked so nobody mistakes one for a goal."""
    marked = [("☠ " if (c in catalog() and catalog()[c].type == "ungoal") else "") + card_name(c, locale) for c in cids]
    return ", ".join(marked) or "—"


def label(value: Any, locale: str, names: Names) -> str:
    """A prompt or option value as a person reads it: a card, a seat, a word from the catalog, or parts
    of a compound option such as ``mine>theirs``."""
    if isinstance(value, list):
        return ", ".join(label(v, locale, names) for v in value)
    if not isinstance(value, str):
        return str(value)
    if value in catalog():
        return card_name(value, locale)
    if value in names.by_seat:
        return names(value)
    key = f"{GAME}.act.{value}"
    if messages().has(locale_of(locale), key) or messages().has("en", key):
        return t(locale, key)
    if _SEPARATORS.search(value):
        parts = _SEPARATORS.split(value)
        return " ⇄ ".join(label(p, locale, names) for p in parts)
    return value


class FluxxUI(GameUI):
    game_id = GAME

    # ------------------------------------------------------------------ table
    def _rules_text(self, view: FlxView, locale: str) -> str:
        lines = [t(locale, f"{GAME}.rules_in_force", draw=view.draw_target, play=self._play(view, locale))]
        if view.hand_limit is not None:
            lines.append(t(locale, f"{GAME}.hand_limit", limit=view.hand_limit))
        if view.keeper_limit is not None:
            lines.append(t(locale, f"{GAME}.keeper_limit", limit=view.keeper_limit))
        if view.rules:
            lines.append("📜 " + card_names(view.rules, locale))
        if view.meta_rule:
            lines.append("⚖️ " + card_name(view.meta_rule, locale))
        return "\n".join(lines)

    @staticmethod
    def _play(view: FlxView, locale: str) -> str:
        return t(locale, f"{GAME}.act.all_rules") if isinstance(view.play_target, str) else str(view.play_target)

    def _player_block(self, view: FlxView, p: PlayerView, locale: str) -> str:
        keepers = []
        for k in p.keepers:
            attached = [c for c, host in view.attached.items() if host == k]
            keepers.append(card_name(k, locale) + (f" ⟵ {card_names(attached, locale)}" if attached else ""))
        free_creepers = [c for c in p.creepers if c not in view.attached]
        lines = [
            "🗝 " + (", ".join(keepers) or "—"),
            "🐙 " + card_names(free_creepers, locale),
            t(locale, f"{GAME}.doom", doom=p.doom) + " · " + t(locale, f"{GAME}.hand_cards", count=p.hand_count),
        ]
        return "\n".join(lines)

    def table_embed(self, view: FlxView, locale: str, names: Names) -> discord.Embed:
        goals = goal_names(view.goals, locale) if view.goals else t(locale, f"{GAME}.no_goal")
        description = [
            "🎯 " + goals,
            self._rules_text(view, locale),
            t(locale, f"{GAME}.deck_count", count=view.deck_count) + " · "
            + t(locale, f"{GAME}.discard_count", count=len(view.discard))
            + (f" · {card_name(view.discard[-1], locale)}" if view.discard else ""),
            t(locale, f"{GAME}.table_doom", doom=view.table_doom),
        ]
        if view.hidden:
            description.append(t(locale, f"{GAME}.hidden_under_elder_sign", card=card_name(view.hidden, locale)))
        embed = discord.Embed(title=t(locale, f"{GAME}.title", turn=view.turn), description="\n".join(description),
                              colour=discord.Colour.dark_green())
        for p in view.players:
            marker = "▶ " if p.seat == view.current_seat and view.result is None else ""
            embed.add_field(name=f"{marker}{names(p.seat)}", value=self._player_block(view, p, locale), inline=True)
        if view.result is not None:
            winners = ", ".join(names(s) for s in view.result.winners)
            embed.add_field(name=t(locale, f"{GAME}.winner"), value=winners or t(locale, f"{GAME}.everyone_lost"),
                            inline=False)
        return embed

    def private_embed(self, view: FlxView, locale: str, names: Names) -> discord.Embed:
        me = next(p for p in view.players if p.seat == view.viewer)
        embed = discord.Embed(title=t(locale, f"{GAME}.private_title", turn=view.turn), colour=discord.Colour.green())
        hand = [f"• {card_name(c, locale)} — {self._type(c, locale)}" for c in me.hand or []]
        embed.add_field(name=t(locale, f"{GAME}.your_hand"), value="\n".join(hand) or "—", inline=False)
        if me.limbo:
            embed.add_field(name=t(locale, f"{GAME}.drawn_for_action"), value=card_names(me.limbo, locale), inline=False)
        if me.dreams:
            embed.add_field(name=t(locale, f"{GAME}.dream_cards"), value=card_names(me.dreams, locale), inline=False)
        embed.add_field(name=t(locale, f"{GAME}.table"), value=self._rules_text(view, locale), inline=False)
        embed.add_field(name="🎯", value=goal_names(view.goals, locale) if view.goals else t(locale, f"{GAME}.no_goal"),
                        inline=False)
        mine = [p for p in view.pending if p.seat == view.viewer]
        if mine:
            embed.description = "**" + self.prompt_text(mine[0], locale, names) + "**"
        elif view.result is None and view.pending:
            who = ", ".join(dict.fromkeys(names(p.seat) for p in view.pending))
            embed.description = t(locale, f"{GAME}.waiting", who=who)
            if view.hidden is not None and "elder_sign" in me.keepers:
                embed.description += "\n" + t(locale, f"{GAME}.reveal_any_time", card=card_name(view.hidden, locale))
        return embed

    def personal(self, view: FlxView) -> Hashable:
        me = next(p for p in view.players if p.seat == view.viewer)
        return (tuple(me.hand or ()), tuple(me.keepers), tuple(me.creepers), tuple(me.limbo or ()),
                tuple(me.dreams or ()))

    @staticmethod
    def _type(cid: str, locale: str) -> str:
        card = catalog().get(cid)
        return t(locale, f"{GAME}.type.{card.type}") if card else ""

    # ------------------------------------------------------------------ actions
    def action_label(self, action: BaseModel, view: Any, locale: str, names: Names) -> str:
        a: Any = action
        reacting = any(p.kind == "react" and p.seat == view.viewer for p in view.pending)
        if a.type == "play":
            return t(locale, f"{GAME}.act.react" if reacting else f"{GAME}.act.play", card=card_name(a.card, locale))
        if a.type in ("discard",):
            return t(locale, f"{GAME}.act.discard", card=card_name(a.card, locale))
        if a.type == "choose":
            return t(locale, f"{GAME}.act.choose", option=label(a.option, locale, names))
        if a.type == "give":
            return t(locale, f"{GAME}.act.give", card=card_name(a.card, locale), to=names(a.to))
        if a.type == "use_power":
            if a.to is not None:
                return t(locale, f"{GAME}.act.use_power_move", card=card_name(a.card, locale),
                         target=label(a.target, locale, names), to=names(a.to))
            if a.target is not None:
                return t(locale, f"{GAME}.act.use_power_target", card=card_name(a.card, locale),
                         target=label(a.target, locale, names))
            return t(locale, f"{GAME}.act.use_power", card=card_name(a.card, locale))
        return t(locale, f"{GAME}.act.{a.type}")

    def prompt_text(self, prompt: Prompt, locale: str, names: Names) -> str:
        params = {k: label(v, locale, names) for k, v in prompt.params.items()}
        kind = prompt.kind
        if kind == "react" and prompt.params.get("trigger") == "ungoal":
            kind = "react_ungoal"
        return t(locale, f"{GAME}.prompt.{kind}", **params)

    def rule_error_params(self, params: dict[str, Any], locale: str, names: Names) -> dict[str, Any]:
        return {k: label(v, locale, names) for k, v in params.items()}

    # ------------------------------------------------------------------ events
    def event_text(self, event: Event, locale: str, names: Names) -> str | None:
        e: Any = event
        fields = {k: v for k, v in e.model_dump().items() if k not in ("type", "audience")}
        params: dict[str, Any] = {k: label(v, locale, names) for k, v in fields.items()}
        params["who"] = names(fields.get("seat")) if fields.get("seat") else "—"
        if e.type == "card_moved":
            params["from"], params["to"] = names(e.from_seat), names(e.to_seat)
        if e.type == "turn_started" and e.extra:
            return t(locale, f"{GAME}.ev.extra_turn", **params)
        if e.type == "cards_drawn" and e.cards is not None:
            return t(locale, f"{GAME}.ev.cards_drawn_private", **params)
        if e.type == "card_given" and e.card is not None:
            return t(locale, f"{GAME}.ev.card_given_private", **params)
        if e.type == "creeper_hidden" and not e.hidden:
            return t(locale, f"{GAME}.ev.creeper_revealed", **params)
        if e.type == "game_ended":
            params["reason"] = t(locale, f"{GAME}.reason.{e.reason}")
        text = t(locale, f"{GAME}.ev.{e.type}", **params)
        if e.type in ("rule_placed", "goal_placed") and e.replaced:
            text += " " + t(locale, f"{GAME}.ev.rule_replaced", replaced=card_names(e.replaced, locale))
        return text

    def announcements(self, events: list[Event], locale: str, names: Names) -> list[str]:
        out = []
        for e in events:
            g: Any = e
            if e.type == "game_ended":
                reason = t(locale, f"{GAME}.reason.{g.reason}")
                if g.winner:
                    out.append(t(locale, f"{GAME}.ann.winner", who=f"<@{g.winner}>", reason=reason,
                                 card=card_name(g.card, locale)))
                else:
                    out.append(t(locale, f"{GAME}.ann.everyone_lost", reason=reason))
        return out

    def start_notice(self, options: BaseModel, locale: str) -> str | None:
        opts: Any = options
        return t(locale, f"{GAME}.notice.house" if opts.house_cards else f"{GAME}.notice.no_house")


UI = FluxxUI()


async def setup(bot: GameBot) -> None:
    register_ui(UI)
