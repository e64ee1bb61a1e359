"""Call to Glory at the Discord table: how its views, actions and events read, and its table picture."""

from __future__ import annotations

import io
from collections.abc import Hashable
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

import discord
from PIL import Image, ImageDraw
from pydantic import BaseModel

from bot.i18n import locale_of

# Every text here is worded from plain strings and numbers, and a click words dozens of them,
# mostly as after the move before: each is kept once worded.
from bot.i18n import t_cached as t
from bot.render import font
from cogs.games.ui import GameUI, Names, register_ui
from rules.call_to_glory.cards import catalog
from rules.call_to_glory.engine import SETS_TO_END
from rules.call_to_glory.views import CtgView, PlayerView
from rules.core import Event, Prompt

if TYPE_CHECKING:
    from cogs.games.host import GameBot

GAME = "call_to_glory"
# One colour per character, light to dark by rank, so sets are told apart at a glance.
COLOURS = {
    6: (196, 30, 58), 7: (214, 92, 150), 8: (130, 60, 180), 9: (60, 80, 190), 12: (40, 140, 200),
    14: (40, 40, 40), 16: (30, 150, 110), 18: (220, 140, 30), 20: (120, 150, 50),
}


# Names come from fixed data (the cards, the message catalog) and are asked for dozens of times per message
# (every card of every hand, set, pile and button), so each is worked out once per card, pile or task and
# locale. Every key comes from the data or a validated action (piles are literals), so the caches stay small.
@cache
def char_name(value: int, locale: str) -> str:
    return catalog().names[value][locale_of(locale)]


@cache
def char_label(value: int, locale: str) -> str:
    return f"{char_name(value, locale)} ({value})"


@cache
def pile_label(pile: str | int, locale: str) -> str:
    key = {1: "discard1", 2: "discard2"}.get(pile, pile) if isinstance(pile, int) else pile
    return t(locale, f"{GAME}.pile.{key}")


@cache
def pile_from(pile: str, locale: str) -> str:
    """A pile's name inside a sentence after "from" (Russian needs the genitive: «из колоды 1»)."""
    return t(locale, f"{GAME}.pile_from.{pile}")


@cache
def task_label(task_id: str, locale: str) -> str:
    task = catalog().tasks[task_id]
    return t(locale, f"{GAME}.task", deck=task.deck, character=char_label(task.character, locale), bonus=task.bonus)


@lru_cache(maxsize=256)
def piles_text(deck_counts: tuple[int, ...], discard_tops: tuple[int | None, ...], discard_counts: tuple[int, ...],
               locale: str) -> str:
    """The four piles in words. The table's embed and each player's show the same piles after a move, and
    the four catalog texts cost more than the key, so the words are cached by what they say."""
    parts = [
        t(locale, f"{GAME}.deck_count", pile=pile_label(f"deck{i + 1}", locale), count=n)
        for i, n in enumerate(deck_counts)
    ]
    for i, (top, n) in enumerate(zip(discard_tops, discard_counts, strict=True)):
        label = pile_label(i + 1, locale)
        parts.append(
            t(locale, f"{GAME}.discard_top", pile=label, top=char_label(top, locale), count=n)
            if top is not None
            else t(locale, f"{GAME}.discard_empty", pile=label)
        )
    return "\n".join(parts)


@lru_cache(maxsize=256)
def player_text(sets: tuple[tuple[int, int], ...], round_scores: tuple[int, ...], total: int, hand_count: int,
                ninjas: int | None, tasks: tuple[int, tuple[str, ...]] | None, locale: str) -> str:
    """A player's block on the table in words (``ninjas`` and ``tasks`` None when the variant is off). Only
    the player who moved has a new block after a move, so the others' words are cached by what they say."""
    sets_in = dict(sets)
    lines = [
        t(locale, f"{GAME}.sets", sets=sets_text(sets_in, locale), points=sum(sets_in)) if sets_in
        else t(locale, f"{GAME}.no_sets"),
        t(locale, f"{GAME}.hand_count", count=hand_count),
        # The breakdown by round says something only once there are two rounds to add up.
        t(locale, f"{GAME}.score", total=total, rounds=" + ".join(map(str, round_scores)))
        if len(round_scores) > 1 else t(locale, f"{GAME}.score_total", total=total),
    ]
    if ninjas is not None:
        lines.append(t(locale, f"{GAME}.ninjas", count=ninjas))
    if tasks is not None:
        count, revealed = tasks
        lines.append(t(locale, f"{GAME}.tasks_public", count=count,
                       revealed=", ".join(task_label(x, locale) for x in revealed) or "—"))
    return "\n".join(lines)


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


def three_card_notes(hand: list[int], seats: int, locale: str) -> list[str]:
    """Why a pair in hand offers no lay-out: with 3–4 players the dotted characters need three (CTG-R7)."""
    if seats < 3:
        return []
    dotted = catalog().three_dots
    return [
        t(locale, f"{GAME}.three_card_note", character=char_label(v, locale))
        for v in sorted(set(hand)) if v in dotted and hand.count(v) == 2
    ]


@lru_cache(maxsize=256)
def hand_field(hand: tuple[int, ...], seats: int, locale: str) -> str:
    """A player's hand with the notes on pairs that make no set (CTG-R7), cached by the hand: it stays as it
    was while the others move, and a message for it is built after each of their moves."""
    return "\n".join([hand_text(list(hand), locale), *three_card_notes(list(hand), seats, locale)])


@lru_cache(maxsize=256)
def opponents_text(others: tuple[tuple[str, tuple[tuple[int, int], ...], int], ...], locale: str) -> str:
    """Each opponent (by name) with their sets and score: most moves change one player's at most, so the
    words are cached by what they say."""
    return "\n".join(t(locale, f"{GAME}.opponent", who=who, sets=sets_text(dict(sets), locale), total=total)
                     for who, sets, total in others)


def round_reason(e: Any, locale: str, names: Names) -> str:
    """Why a round ended (CTG-R12), naming the player whose sets ended it."""
    seat = getattr(e, "seat", None)
    if e.reason == "characters_per_player" and seat:
        return t(locale, f"{GAME}.reason.characters_of", who=names(seat), count=e.characters)
    return t(locale, f"{GAME}.reason.{e.reason}")


class CallToGloryUI(GameUI):
    game_id = GAME

    # ------------------------------------------------------------------ table
    @staticmethod
    def _piles_line(view: CtgView, locale: str) -> str:
        return piles_text(tuple(view.deck_counts), tuple(view.discard_tops), tuple(view.discard_counts), locale)

    @staticmethod
    def _player_block(view: CtgView, p: PlayerView, locale: str) -> str:
        return player_text(tuple(p.sets.items()), tuple(p.round_scores), p.total, p.hand_count,
                           p.ninjas if view.ninja_power else None,
                           (p.task_count, tuple(p.revealed_tasks)) if view.imperial_tasks else None, locale)

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
            view.current_seat,
            tuple(view.discard_tops),
            tuple(view.discard_counts),
            tuple((p.seat, p.total, tuple(sorted(p.sets.items()))) for p in view.players),
            tuple(view.result.winners) if view.result is not None else None,
        )

    def private_embed(self, view: CtgView, locale: str, names: Names) -> discord.Embed:
        me = next(p for p in view.players if p.seat == view.viewer)
        embed = discord.Embed(
            title=t(locale, f"{GAME}.private_title", round=view.round, rounds=view.rounds_total),
            colour=discord.Colour.dark_gold(),
        )
        embed.add_field(name=t(locale, f"{GAME}.your_hand"),
                        value=hand_field(tuple(me.hand or ()), len(view.players), locale), inline=False)
        embed.add_field(name=t(locale, f"{GAME}.your_sets"), value=sets_text(me.sets, locale), inline=False)
        # Whether to beat someone's set (CTG-R8) or cut it with a Ninja depends on what they hold and score.
        others = tuple((names(p.seat), tuple(p.sets.items()), p.total) for p in view.players if p.seat != view.viewer)
        embed.add_field(name=t(locale, f"{GAME}.opponents"), value=opponents_text(others, locale), inline=False)
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
                return t(locale, f"{GAME}.act.draw_discard", pile=pile_from(a.pile, locale),
                         card=char_name(top, locale) if top is not None else "—")
            return t(locale, f"{GAME}.act.draw_deck", pile=pile_from(a.pile, locale))
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
            return t(locale, f"{GAME}.act.use_ninja", target=names(a.target),
                     character=char_label(a.character, locale))
        if kind == "give_up_card":
            return t(locale, f"{GAME}.act.give_up_card", pile=a.pile)
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
        if isinstance(out.get("pile"), str):  # the draw refusals name the pile inside a sentence
            out["pile"] = pile_from(out["pile"], locale)
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
                return t(locale, f"{key}_hidden", who=who, pile=pile_from(e.pile, locale))
            return t(locale, key, who=who, pile=pile_from(e.pile, locale), card=char_label(e.card, locale))
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
            return t(locale, key, who=who, target=names(e.target), character=char_label(e.character, locale))
        if e.type == "task_revealed":
            gains = ", ".join(f"{names(s)} +{g}" for s, g in e.gains.items()) or t(locale, f"{GAME}.ev.nobody")
            return t(locale, key, who=who, task=task_label(e.task, locale), gains=gains)
        if e.type == "round_started":
            return t(locale, key, round=e.round, who=names(e.first_seat))
        if e.type == "round_ended":
            return t(locale, key, round=e.round, reason=round_reason(e, locale, names))
        if e.type == "game_ended":
            return t(locale, key, winners=", ".join(names(s) for s in e.ranking[0]))
        if e.type == "conceded":
            return t(locale, key, who=who, winners=", ".join(names(s) for s in e.winners))
        return None

    def announcements(self, events: list[Event], locale: str, names: Names) -> list[str]:
        out = []
        for e in events:
            if e.type == "round_ended":
                r: Any = e
                lines = [t(locale, f"{GAME}.ann.round", round=r.round, reason=round_reason(r, locale, names))]
                # Without task bonuses (no Imperial Tasks, or none scored) "+ 0 from tasks" is only noise.
                line = f"{GAME}.ann.line" if any(r.task_bonus.values()) else f"{GAME}.ann.line_sets"
                for seat, pts in r.set_points.items():
                    bonus = r.task_bonus.get(seat, 0)
                    lines.append(t(locale, line, who=names.mention(seat), points=pts + bonus, sets=pts,
                                   bonus=bonus, total=r.totals[seat]))
                out.append("\n".join(lines))
            elif e.type == "game_ended":
                g: Any = e
                lines = [t(locale, f"{GAME}.ann.game_over")]
                for place, group in enumerate(g.ranking, start=1):
                    who = ", ".join(names.mention(s) for s in group)
                    lines.append(t(locale, f"{GAME}.ann.place", place=place, who=who, total=g.totals[group[0]]))
                out.append("\n".join(lines))
        return out


# ---------------------------------------------------------------------- the picture

# Sized for a phone: Discord shrinks a 720-pixel picture to about half on a narrow screen, so no text is
# drawn smaller than 18 pixels and card captions shrink only as far as that to fit under their card.
WIDTH, MARGIN = 720, 18
CARD_W, CARD_H, GAP = 100, 112, 12
MIN_TEXT = 18
INK, DIM, GOLD, FELT, BAND = (240, 236, 222), (190, 200, 190), (255, 215, 90), (34, 48, 40), (58, 80, 66)


def _fit(draw: ImageDraw.ImageDraw, text: str, size: int, width: int, bold: bool = False) -> Any:
    """The largest font from ``size`` down to ``MIN_TEXT`` in which ``text`` fits ``width``."""
    while size > MIN_TEXT and draw.textlength(text, font=font(size, bold=bold)) > width:
        size -= 1
    return font(size, bold=bold)


def _card(draw: ImageDraw.ImageDraw, x: int, y: int, value: int, label: str = "") -> None:
    draw.rounded_rectangle((x, y, x + CARD_W, y + CARD_H), 8, fill=COLOURS[value], outline=INK, width=2)
    draw.text((x + CARD_W / 2, y + 38), str(value), font=font(40, bold=True), fill="white", anchor="mm")
    if value in catalog().three_dots:  # CTG-R7's three dots: a set of three at a 3–4 player table
        draw.text((x + CARD_W / 2, y + 68), "•••", font=font(20), fill="white", anchor="mm")
    if label:
        draw.text((x + CARD_W / 2, y + CARD_H - 18), label, font=font(24, bold=True), fill="white", anchor="mm")


def _caption(draw: ImageDraw.ImageDraw, x: int, y: int, text: str, fill: tuple[int, int, int] = DIM) -> None:
    """A line under a card, centred on it and allowed to spill into the gap beside it."""
    draw.text((x + CARD_W / 2, y), text, font=_fit(draw, text, 20, CARD_W + GAP), fill=fill, anchor="mt")


def _discards(draw: ImageDraw.ImageDraw, view: CtgView, y: int, locale: str) -> int:
    """Both discard piles with the card on top and their size: what a draw from them would take. The
    decks' sizes change on every draw and stay in the embed's text, so the picture is not redrawn for
    each card drawn."""
    x = MARGIN
    for i, (top, n) in enumerate(zip(view.discard_tops, view.discard_counts, strict=True)):
        if top is None:
            draw.rounded_rectangle((x, y, x + CARD_W, y + CARD_H), 8, outline=DIM, width=2)
            draw.text((x + CARD_W / 2, y + CARD_H / 2), "—", font=font(30), fill=DIM, anchor="mm")
        else:
            _card(draw, x, y, top, f"({n})")
        label = pile_label(i + 1, locale)
        if top is not None:
            label += f": {char_name(top, locale)}"
        draw.text((x + CARD_W + GAP, y + CARD_H / 2), label,
                  font=_fit(draw, label, 22, WIDTH // 2 - CARD_W - 2 * GAP - MARGIN), fill=INK, anchor="lm")
        x = WIDTH // 2 + GAP // 2
    return y + CARD_H + 18


def draw_table(view: CtgView, locale: str, names: Names) -> bytes:
    """The table for a glance on a phone: whose turn it is, both discard tops, and everyone's sets as
    cards with totals. Deck sizes and hand sizes are in the embed's text."""
    per_row = (WIDTH - 2 * MARGIN + GAP) // (CARD_W + GAP)
    rows = [-(-len(p.sets) // per_row) for p in view.players]  # a player with no set gets only the header
    set_row = CARD_H + 36
    header_h = 54
    top_h = 100 + CARD_H + 18
    height = top_h + sum(header_h + r * set_row + 8 for r in rows) + 6
    img = Image.new("RGB", (WIDTH, height), FELT)
    draw = ImageDraw.Draw(img)
    draw.text((MARGIN, 12), t(locale, f"{GAME}.title", round=view.round, rounds=view.rounds_total),
              font=font(30, bold=True), fill=INK)
    winners = set(view.result.winners) if view.result is not None else set()
    if view.result is None:
        status = t(locale, f"{GAME}.img.turn", who=names(view.current_seat))
    else:
        status = t(locale, f"{GAME}.img.winners", who=", ".join(names(s) for s in view.result.winners))
    draw.text((MARGIN, 54), status, font=_fit(draw, status, 28, WIDTH - 2 * MARGIN, bold=True), fill=GOLD)
    y = _discards(draw, view, 100, locale)
    for p, n_rows in zip(view.players, rows, strict=True):
        on_turn = view.result is None and p.seat == view.current_seat
        if on_turn:  # the row of the player on turn is lit, besides the line at the top
            draw.rectangle((0, y - 4, WIDTH, y + header_h + n_rows * set_row), fill=BAND)
        star = "★ " if p.seat in winners else "▶ " if on_turn else ""
        header = star + names(p.seat)
        draw.text((MARGIN, y), header, font=_fit(draw, header, 26, WIDTH // 2, bold=True),
                  fill=GOLD if p.seat in winners or on_turn else INK)
        score = t(locale, f"{GAME}.img.header", total=p.total, points=sum(p.sets))
        draw.text((WIDTH - MARGIN, y + 2), score, font=font(22), fill=INK, anchor="ra")
        cy = y + header_h - 12
        for k, (value, count) in enumerate(sorted(p.sets.items())):
            x = MARGIN + (k % per_row) * (CARD_W + GAP)
            top = cy + (k // per_row) * set_row
            _card(draw, x, top, value, f"×{count}")
            _caption(draw, x, top + CARD_H + 6, char_name(value, locale))
        y += header_h + n_rows * set_row + 8
    out = io.BytesIO()
    img.save(out, format="PNG", compress_level=1)  # speed over bytes: redrawn whenever the table changes
    return out.getvalue()


UI = CallToGloryUI()


async def setup(bot: GameBot) -> None:
    register_ui(UI)
