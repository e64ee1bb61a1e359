"""Call to Glory at the Discord table: how its views, actions and events read, and its table picture."""

from __future__ import annotations

import io
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

import discord
from PIL import Image, ImageDraw
from pydantic import BaseModel

from bot.i18n import locale_of, t
from bot.render import font
from bot.ui import GameUI, Names, register_ui
from rules.call_to_glory.cards import catalog
from rules.call_to_glory.engine import SETS_TO_END
from rules.call_to_glory.views import CtgView, PlayerView
from rules.core import Event, Prompt

if TYPE_CHECKING:
    from bot.client import GameBot

GAME = "call_to_glory"
# One colour per character, light to dark by rank, so sets are told apart at a glance.
COLOURS = {
    6: (196, 30, 58), 7: (214, 92, 150), 8: (130, 60, 180), 9: (60, 80, 190), 12: (40, 140, 200),
    14: (40, 40, 40), 16: (30, 150, 110), 18: (220, 140, 30), 20: (120, 150, 50),
}


def char_name(value: int, locale: str) -> str:
    return catalog().names[value][locale_of(locale)]


def char_label(value: int, locale: str) -> str:
    return f"{char_name(value, locale)} ({value})"


def pile_label(pile: str | int, locale: str) -> str:
    key = {1: "discard1", 2: "discard2"}.get(pile, pile) if isinstance(pile, int) else pile
    return t(locale, f"{GAME}.pile.{key}")


def task_label(task_id: str, locale: str) -> str:
    task = catalog().tasks[task_id]
    return t(locale, f"{GAME}.task", deck=task.deck, character=char_label(task.character, locale), bonus=task.bonus)


def sets_text(sets: dict[int, int], locale: str) -> str:
    if not sets:
        return "—"
    return ", ".join(f"{char_name(v, locale)} ×{n}" for v, n in sorted(sets.items()))


def hand_text(hand: list[int], locale: str) -> str:
    """A hand with each character's value, which is what a set of it scores."""
    counts: dict[int, int] = {}
    for v in hand:
        counts[v] = counts.get(v, 0) + 1
    return ", ".join(f"{char_label(v, locale)} ×{n}" for v, n in sorted(counts.items())) or "—"


class CallToGloryUI(GameUI):
    game_id = GAME

    # ------------------------------------------------------------------ table
    def _piles_line(self, view: CtgView, locale: str) -> str:
        parts = [
            t(locale, f"{GAME}.deck_count", pile=pile_label(f"deck{i + 1}", locale), count=n)
            for i, n in enumerate(view.deck_counts)
        ]
        for i, (top, n) in enumerate(zip(view.discard_tops, view.discard_counts)):
            label = pile_label(i + 1, locale)
            parts.append(
                t(locale, f"{GAME}.discard_top", pile=label, top=char_label(top, locale), count=n)
                if top is not None
                else t(locale, f"{GAME}.discard_empty", pile=label)
            )
        return "\n".join(parts)

    def _player_block(self, view: CtgView, p: PlayerView, locale: str) -> str:
        sets = (t(locale, f"{GAME}.sets", sets=sets_text(p.sets, locale), points=sum(p.sets)) if p.sets
                else t(locale, f"{GAME}.no_sets"))
        # The breakdown by round says something only once there are two rounds to add up.
        score = (t(locale, f"{GAME}.score", total=p.total, rounds=" + ".join(map(str, p.round_scores)))
                 if len(p.round_scores) > 1 else t(locale, f"{GAME}.score_total", total=p.total))
        lines = [sets, t(locale, f"{GAME}.hand_count", count=p.hand_count), score]
        if view.ninja_power:
            lines.append(t(locale, f"{GAME}.ninjas", count=p.ninjas))
        if view.imperial_tasks:
            revealed = ", ".join(task_label(x, locale) for x in p.revealed_tasks) or "—"
            lines.append(t(locale, f"{GAME}.tasks_public", count=p.task_count, revealed=revealed))
        return "\n".join(lines)

    def table_embed(self, view: CtgView, locale: str, names: Names) -> discord.Embed:
        embed = discord.Embed(
            title=t(locale, f"{GAME}.title", round=view.round, rounds=view.rounds_total),
            description=self._piles_line(view, locale),
            colour=discord.Colour.dark_red(),
        )
        if view.ninja_power:
            embed.description = f"{embed.description}\n" + t(locale, f"{GAME}.ninja_supply", count=view.ninja_supply)
        if view.result is None:
            need = SETS_TO_END.get(len(view.players))
            if need is not None:
                embed.description = f"{embed.description}\n" + t(locale, f"{GAME}.round_end", count=need)
        for p in view.players:
            marker = "▶ " if p.seat == view.current_seat and view.result is None else ""
            embed.add_field(name=f"{marker}{names(p.seat)}", value=self._player_block(view, p, locale), inline=True)
        if view.result is not None:
            winners = ", ".join(names(s) for s in view.result.winners)
            embed.add_field(name=t(locale, f"{GAME}.winner"), value=winners, inline=False)
        return embed

    def personal(self, view: CtgView) -> Hashable:
        me = next(p for p in view.players if p.seat == view.viewer)
        return (tuple(me.hand or ()), tuple(sorted(me.sets.items())), tuple(me.tasks or ()), me.ninjas)

    def table_image(self, view: CtgView, locale: str, names: Names) -> bytes:
        return draw_table(view, locale, names)

    def image_key(self, view: CtgView) -> Hashable:
        return (
            view.round,
            tuple((p.seat, p.total, tuple(sorted(p.sets.items()))) for p in view.players),
            tuple(view.result.winners) if view.result is not None else None,
        )

    def private_embed(self, view: CtgView, locale: str, names: Names) -> discord.Embed:
        me = next(p for p in view.players if p.seat == view.viewer)
        embed = discord.Embed(
            title=t(locale, f"{GAME}.private_title", round=view.round, rounds=view.rounds_total),
            colour=discord.Colour.dark_gold(),
        )
        embed.add_field(name=t(locale, f"{GAME}.your_hand"), value=hand_text(me.hand or [], locale), inline=False)
        embed.add_field(name=t(locale, f"{GAME}.your_sets"), value=sets_text(me.sets, locale), inline=False)
        if me.tasks is not None and view.imperial_tasks:
            embed.add_field(
                name=t(locale, f"{GAME}.your_tasks"),
                value="\n".join(task_label(x, locale) for x in me.tasks) or "—",
                inline=False,
            )
        if view.ninja_power:
            embed.add_field(name=t(locale, f"{GAME}.your_ninjas"), value=str(me.ninjas), inline=True)
        embed.add_field(name=t(locale, f"{GAME}.piles"), value=self._piles_line(view, locale), inline=False)
        mine = [p for p in view.pending if p.seat == view.viewer]
        if mine:
            embed.description = "**" + self.prompt_text(mine[0], locale, names) + "**"
        elif view.result is None and view.pending:
            embed.description = t(locale, f"{GAME}.waiting", who=", ".join(names(p.seat) for p in view.pending))
        return embed

    # ------------------------------------------------------------------ actions and prompts
    def action_label(self, action: BaseModel, view: Any, locale: str, names: Names) -> str:
        a: Any = action
        kind = a.type
        if kind == "draw":
            if a.pile.startswith("discard"):
                index = int(a.pile[-1]) - 1
                top = view.discard_tops[index]
                return t(locale, f"{GAME}.act.draw_discard", pile=pile_label(a.pile, locale),
                         card=char_name(top, locale) if top is not None else "—")
            return t(locale, f"{GAME}.act.draw_deck", pile=pile_label(a.pile, locale))
        if kind == "lay_out":
            text = t(locale, f"{GAME}.act.lay_out", count=a.count, character=char_label(a.character, locale))
            if a.pile is not None:
                text += t(locale, f"{GAME}.act.old_set_to", pile=a.pile)
            return text
        if kind == "discard":
            return t(locale, f"{GAME}.act.discard", character=char_label(a.character, locale), pile=a.pile)
        if kind == "place_beaten_set":
            return t(locale, f"{GAME}.act.place_beaten_set", pile=a.pile)
        if kind == "use_ninja":
            return t(locale, f"{GAME}.act.use_ninja", target=names(a.target))
        if kind == "give_up_card":
            return t(locale, f"{GAME}.act.give_up_card", character=char_label(a.character, locale), pile=a.pile)
        if kind == "end_turn":
            return t(locale, f"{GAME}.act.end_turn")
        if kind == "reveal_task":
            return t(locale, f"{GAME}.act.reveal_task", task=task_label(a.task, locale))
        return kind

    def prompt_text(self, prompt: Prompt, locale: str, names: Names) -> str:
        params = dict(prompt.params)
        if "character" in params:
            params["character"] = char_label(params["character"], locale)
        if "by" in params:
            params["by"] = names(params["by"])
        if prompt.kind == "draw":
            params["step"] = int(params.get("drawn", 0)) + 1
        return t(locale, f"{GAME}.prompt.{prompt.kind}", **params)

    def rule_error_params(self, params: dict[str, Any], locale: str, names: Names) -> dict[str, Any]:
        out = dict(params)
        if isinstance(out.get("character"), int):
            out["character"] = char_label(out["character"], locale)
        for key in ("owner", "current", "target", "seat"):
            if isinstance(out.get(key), str):
                out[key] = names(out[key])
        if "seats" in out:
            out["seats"] = ", ".join(names(s) for s in out["seats"])
        if isinstance(out.get("pile"), str):
            out["pile"] = pile_label(out["pile"], locale)
        if isinstance(out.get("task"), str) and out["task"] in catalog().tasks:
            out["task"] = task_label(out["task"], locale)
        return out

    # ------------------------------------------------------------------ events
    def event_text(self, event: Event, locale: str, names: Names) -> str | None:
        e: Any = event
        who = names(getattr(e, "seat", None))
        key = f"{GAME}.ev.{e.type}"
        if e.type == "card_drawn":
            if e.card is None:
                return t(locale, f"{key}_hidden", who=who, pile=pile_label(e.pile, locale))
            return t(locale, key, who=who, pile=pile_label(e.pile, locale), card=char_label(e.card, locale))
        if e.type == "set_laid":
            text = t(locale, key, who=who, count=e.count, character=char_label(e.character, locale))
            if e.beaten_seat:
                text += " " + t(locale, f"{GAME}.ev.beats", whom=names(e.beaten_seat), count=e.beaten_count)
            if e.replaced:
                text += " " + t(locale, f"{GAME}.ev.replaces", count=e.replaced)
            return text + "."
        if e.type in ("set_discarded", "card_discarded", "card_given_up"):
            return t(locale, key, who=who, count=getattr(e, "count", 1), character=char_label(e.character, locale),
                     pile=e.pile)
        if e.type == "ninja_taken":
            return t(locale, key, who=who, supply=e.supply)
        if e.type == "ninja_used":
            return t(locale, key, who=who, target=names(e.target))
        if e.type == "task_revealed":
            gains = ", ".join(f"{names(s)} +{g}" for s, g in e.gains.items()) or t(locale, f"{GAME}.ev.nobody")
            return t(locale, key, who=who, task=task_label(e.task, locale), gains=gains)
        if e.type == "round_started":
            return t(locale, key, round=e.round, who=names(e.first_seat))
        if e.type == "round_ended":
            return t(locale, key, round=e.round, reason=t(locale, f"{GAME}.reason.{e.reason}"))
        if e.type == "game_ended":
            return t(locale, key, winners=", ".join(names(s) for s in e.ranking[0]))
        return None

    def announcements(self, events: list[Event], locale: str, names: Names) -> list[str]:
        out = []
        for e in events:
            if e.type == "round_ended":
                r: Any = e
                lines = [t(locale, f"{GAME}.ann.round", round=r.round, reason=t(locale, f"{GAME}.reason.{r.reason}"))]
                # Without task bonuses (no Imperial Tasks, or none scored) "+ 0 from tasks" is only noise.
                line = f"{GAME}.ann.line" if any(r.task_bonus.values()) else f"{GAME}.ann.line_sets"
                for seat, pts in r.set_points.items():
                    bonus = r.task_bonus.get(seat, 0)
                    lines.append(t(locale, line, who=f"<@{seat}>", points=pts + bonus, sets=pts,
                                   bonus=bonus, total=r.totals[seat]))
                out.append("\n".join(lines))
            elif e.type == "game_ended":
                g: Any = e
                lines = [t(locale, f"{GAME}.ann.game_over")]
                for place, group in enumerate(g.ranking, start=1):
                    who = ", ".join(f"<@{s}>" for s in group)
                    lines.append(t(locale, f"{GAME}.ann.place", place=place, who=who, total=g.totals[group[0]]))
                out.append("\n".join(lines))
        return out


# ---------------------------------------------------------------------- the picture

CARD_W, CARD_H, GAP = 64, 76, 10


def _card(draw: ImageDraw.ImageDraw, x: int, y: int, value: int, label: str = "") -> None:
    draw.rounded_rectangle((x, y, x + CARD_W, y + CARD_H), 6, fill=COLOURS[value], outline=(250, 245, 230), width=2)
    draw.text((x + CARD_W / 2, y + 26), str(value), font=font(22, bold=True), fill="white", anchor="mm")
    if value in catalog().three_dots:
        draw.text((x + CARD_W / 2, y + 46), "•••", font=font(12), fill="white", anchor="mm")
    if label:
        draw.text((x + CARD_W / 2, y + CARD_H - 12), label, font=font(12, bold=True), fill="white", anchor="mm")


def draw_table(view: CtgView, locale: str, names: Names) -> bytes:
    """Everyone's sets as cards, with totals: the part of the table a picture shows best. Piles, hands
    and whose turn it is change every move and are in the embed's text."""
    width = 860
    row_h = CARD_H + 54
    height = 44 + len(view.players) * row_h + 6
    img = Image.new("RGB", (width, height), (34, 48, 40))
    draw = ImageDraw.Draw(img)
    draw.text((16, 12), t(locale, f"{GAME}.title", round=view.round, rounds=view.rounds_total),
              font=font(20, bold=True), fill=(240, 230, 200))
    y = 44
    winners = set(view.result.winners) if view.result is not None else set()
    for p in view.players:
        header = (
            ("★ " if p.seat in winners else "")
            + f"{names(p.seat)} — "
            + t(locale, f"{GAME}.img.header", total=p.total, points=sum(p.sets))
        )
        draw.text((16, y), header, font=font(16, bold=True), fill=(255, 215, 90) if p.seat in winners else (235, 235, 225))
        x = 16
        for value, count in sorted(p.sets.items()):
            _card(draw, x, y + 22, value, f"×{count}")
            draw.text((x + CARD_W / 2, y + 22 + CARD_H + 10), char_name(value, locale), font=font(10),
                      fill=(220, 220, 210), anchor="mm")
            x += CARD_W + GAP
        if not p.sets:
            draw.text((16, y + 22 + CARD_H / 2), "—", font=font(16), fill=(160, 170, 160), anchor="lm")
        y += row_h
    out = io.BytesIO()
    img.save(out, format="PNG", compress_level=1)  # speed over bytes: redrawn whenever a set changes
    return out.getvalue()


UI = CallToGloryUI()


async def setup(bot: GameBot) -> None:
    register_ui(UI)
