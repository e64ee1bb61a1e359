"""Cthulhu Wars: Duel at the Discord table: the Sleeper against the Windwalker.

The channel's table shows the public state and the map picture; each player's private view (DM or the
ephemeral "My hand") adds their own Elder Sign values, a text board and the buttons. Battle answers go to
whichever player owes them, which is often the one not on turn: the shared machinery DMs the prompted
seat. Actions are grouped so a full turn fits Discord's five component rows.
"""

from __future__ import annotations

from collections.abc import Hashable
from functools import lru_cache, partial
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import discord
from pydantic import BaseModel

from bot.i18n import catalog, locale_of, t
from cogs.cthulhu_wars_duel.map import acting_seat, draw_map, units_line
from cogs.games.ui import GameUI, Names, clip, embed_to_text, register_ui
from rules.core import Event, Prompt
from rules.cthulhu_wars_duel.battle import move_cost
from rules.cthulhu_wars_duel.common import ACTION_COST
from rules.cthulhu_wars_duel.common import action_cost as cost_of
from rules.cthulhu_wars_duel.engine import ritual_cost
from rules.cthulhu_wars_duel.factions import GOOS, KINDS, MONSTERS, UNITS
from rules.cthulhu_wars_duel.maps import MapError, load
from rules.cthulhu_wars_duel.views import CwdView, PlayerView

if TYPE_CHECKING:
    from cogs.games.host import GameBot

GAME = "cthulhu_wars_duel"
FACTION_MARK = {"sleeper": "🟧", "windwalker": "🟦"}  # the picture's colours, in text
FIELD = 1024
EMBED_LIMIT = 5800  # Discord refuses embeds over 6000 characters; room is left for the footer

# Actions sharing a group share a row of buttons or one select menu. Five groups at most can be offered
# at once, so related action types share one: a turn shows commands, map actions, special actions.
GROUPS = {
    "move": "cmd", "pass": "cmd", "end_turn": "cmd", "end_move": "cmd", "cancel_move": "cmd", "doom_done": "cmd",
    "ritual": "cmd", "take_any_time_book": "cmd", "reveal": "cmd",
    "recruit": "main", "summon": "main", "awaken": "main", "build_gate": "main", "battle": "main",
    "capture": "main",
    "unique": "special", "spend_requirement": "special", "control_gate": "special", "abandon_gate": "special",
    "move_unit": "move_unit", "decide": "decide",
}
AREA_PROMPTS = ("nexus", "howl", "howl_victim", "sacrifice", "assign", "retreat", "retreat_elim", "cannibalism",
                "capture_victim", "capture_monster_victim")


# ---------------------------------------------------------------------- vocabulary
def lang(locale: str) -> str:
    return locale_of(locale)


# The names below come from fixed data (maps, the message catalog) and are looked up hundreds of times per
# move (every area, unit, book and requirement in every player's view and the table's), so each is cached.
@lru_cache(maxsize=4096)
def area_name(map_id: str, area: str | None, locale: str) -> str:
    if area is None:
        return "—"
    try:
        names = load(map_id).names.get(area)
    except MapError:
        names = None
    return names[lang(locale)] if names else area


@lru_cache(maxsize=1024)
def unit_name(kind: str, locale: str) -> str:
    return t(locale, f"{GAME}.unit.{kind}")


@lru_cache(maxsize=1024)
def book_name(book: str, locale: str) -> str:
    return t(locale, f"{GAME}.book.{book}")


@lru_cache(maxsize=1024)
def requirement_text(req: str, locale: str) -> str:
    return t(locale, f"{GAME}.requirement.{req}")


@lru_cache(maxsize=1024)
def faction_name(faction: str, locale: str) -> str:
    return t(locale, f"{GAME}.faction.{faction}")


@lru_cache(maxsize=64)
def gate_mark(mark: str, locale: str) -> str:
    """A Gate and its owner's colour, as the board text writes it on every area with a Gate."""
    return t(locale, f"{GAME}.ui.gate_mark", mark=mark)


def action_cost(view: CwdView, kind: str, area: str | None, unit: str | None = None) -> int:
    """What an action costs, priced by the engine's own ``action_cost`` over the public view (units on the
    map, captives, the Ice Age token), so a button can say it before it is pressed."""
    seats = [p.seat for p in view.players]
    board = SimpleNamespace(
        units=[view.units.get(seat, {}) for seat in seats], captives=[p.captives for p in view.players],
        sorcery=view.ancient_sorcery, slumber=view.cursed_slumber, ice=view.ice_age,
    )
    payer = UNITS[unit][0] if unit in UNITS else seats.index(view.viewer) if view.viewer in seats else None
    return 0 if payer is None else cost_of(board, payer, kind, area, unit)


def _books_board(view: CwdView) -> SimpleNamespace:
    """The public facts the engine's pricing reads about books and the Ritual track."""
    return SimpleNamespace(players=[{"books": p.spellbooks} for p in view.players], ice=view.ice_age,
                           ritual_track=view.ritual_track, ritual=view.ritual_position)


def ritual_price(view: CwdView) -> int:
    """The Ritual's price for the viewer, from the engine's ``ritual_cost`` (Herald of the Outer Gods)."""
    seats = [p.seat for p in view.players]
    if view.viewer not in seats:
        return 0
    # ritual_cost reads only the board's public facts above; its rules/ signature names the whole state
    return ritual_cost(_books_board(view), seats.index(view.viewer))  # type: ignore[arg-type]


def step_price(view: CwdView, kind: str, src: str, dst: str, locale: str) -> str:
    """One unit's step in an open Move, priced by the engine's ``move_cost``: 1, free with Arctic Wind,
    one more the first time the Sleeper ends a step in the Ice Age area."""
    mv = view.move
    if mv is None:
        return "1"
    p = [q.seat for q in view.players].index(mv["seat"])
    unit, tax = move_cost(_books_board(view), {"p": p, "iced": mv["iced"], "ith": mv["ith"]}, kind, src, dst)
    if unit == 0 and tax == 0:
        return t(locale, f"{GAME}.ui.cost_wind")
    if tax:
        return t(locale, f"{GAME}.ui.cost_ice", cost=unit + tax)
    return str(unit + tax)


def my_prompt(view: CwdView) -> Prompt | None:
    return next((p for p in view.pending if p.seat == view.viewer), view.pending[0] if view.pending else None)


def _seat_or_faction(names: Names, seats: list[Any], factions: tuple[str, ...], locale: str, i: int) -> str:
    """A mention of the i-th player when the event names the seats, else the faction's name in its place."""
    return names.mention(str(seats[i])) if i < len(seats) else faction_name(factions[i], locale)


@lru_cache(maxsize=512)
def _block_text(locale: str, map_id: str, power: int, doom: int, signs: int, hibernating: bool, gates: int,
                cult: int, monsters: int, goos: tuple[str, ...], start_area: str | None, books: tuple[str, ...],
                pool: tuple[str, ...], met: tuple[str, ...], captives: tuple[tuple[str, int], ...]) -> str:
    """A player's block in words, from what it shows. The same block appears in the table's embed and in
    each player's own after a move, and its catalog texts cost more than building the key, so it is
    cached by what it says (none of these texts names a command, whose mention changes after a sync)."""
    lines = [t(locale, f"{GAME}.ui.power_doom_signs", power=power, doom=doom, signs=signs)]
    if hibernating:
        lines.append(t(locale, f"{GAME}.ui.hibernating"))
    goo_names = ", ".join(unit_name(k, locale) for k in goos) or "—"
    lines.append(t(locale, f"{GAME}.ui.forces", gates=gates, cultists=cult, monsters=monsters, goos=goo_names))
    if start_area:
        lines.append(t(locale, f"{GAME}.ui.start", area=area_name(map_id, start_area, locale)))
    lines.append(t(locale, f"{GAME}.ui.books", count=len(books),
                   books=", ".join(book_name(b, locale) for b in books) or "—"))
    if pool:
        lines.append(t(locale, f"{GAME}.ui.books_left", books=", ".join(book_name(b, locale) for b in pool)))
    lines.append(t(locale, f"{GAME}.ui.requirements", count=len(met),
                   met="; ".join(requirement_text(r, locale) for r in met) or "—"))
    if captives:
        held = ", ".join(f"{unit_name(k, locale)} ×{n}" for k, n in captives)
        lines.append(t(locale, f"{GAME}.ui.captives", units=held))
    return clip("\n".join(lines), FIELD)


@lru_cache(maxsize=256)
def status_text(first: str, turn: str, track_cells: tuple[int, ...], position: int, decay: int, bag: int, map_id: str,
                ice_age: str | None, towers: tuple[str, ...], sorcery: int, slumber: bool,
                battle: tuple[str, str, str, tuple[tuple[str, int], ...]] | None, locale: str) -> tuple[str, ...]:
    """The table's state under the map's name, in words (``battle``: its area, the attacker's and the
    defender's names and the dice by name). The table's embed and each player's show it after a move, and
    its catalog texts cost more than the key, so it is cached by what it says (none names a command)."""
    lines = [t(locale, f"{GAME}.ui.first_and_turn", first=first, turn=turn)]
    cells = [str(v) for v in track_cells] + [t(locale, f"{GAME}.ui.end_short")]
    pos = min(position, len(cells) - 1)
    track = " ".join(f"**[{c}]**" if i == pos else c for i, c in enumerate(cells))
    lines.append(t(locale, f"{GAME}.ui.ritual", track=track))
    lines.append(t(locale, f"{GAME}.ui.decay_bag", decay=decay, bag=bag))
    if ice_age:
        lines.append(t(locale, f"{GAME}.ui.ice_age", area=area_name(map_id, ice_age, locale)))
    if towers:
        lines.append(t(locale, f"{GAME}.ui.towers", count=len(towers),
                       areas=", ".join(area_name(map_id, a, locale) for a in towers)))
    if sorcery:
        lines.append(t(locale, f"{GAME}.ui.sorcery_held"))
    if slumber:
        lines.append(t(locale, f"{GAME}.ui.slumber_held"))
    if battle:
        area, attacker, defender, dice = battle
        text = t(locale, f"{GAME}.ui.battle", area=area_name(map_id, area, locale), attacker=attacker,
                 defender=defender)
        if any(n for _, n in dice):
            text += " · " + t(locale, f"{GAME}.ui.battle_dice", dice=", ".join(f"{who} {n}" for who, n in dice))
        lines.append(text)
    return tuple(lines)


@lru_cache(maxsize=128)
def board_words(map_id: str, forces: tuple[tuple[str, tuple[tuple[str, tuple[tuple[str, int], ...]], ...]], ...],
                gates: tuple[tuple[str, str], ...], towers: tuple[str, ...], ice_age: str | None, locale: str) -> str:
    """The board text from what it shows: per player, its colour mark and its units by area (areas with
    none left out); the Gates with their owners' marks; the towers; the Ice Age area. Both players' own
    embeds show it after a move, and most moves leave the map as it was, so it is cached by what it says."""
    units = [(i, mark, {a: dict(kinds) for a, kinds in areas}) for i, (mark, areas) in enumerate(forces)]
    gate_marks = dict(gates)
    # Only areas with something on them get a line: the rest of the map is passed over unread.
    busy = set(gate_marks).union(towers)
    for _, _, here in units:
        busy.update(here)
    if ice_age is not None:
        busy.add(ice_age)
    lines = []
    for a in load(map_id).areas:
        if a not in busy:
            continue
        parts = [f"{mark} {units_line(here[a], i, locale)}" for i, mark, here in units if a in here]
        if a in gate_marks:
            parts.append(gate_mark(gate_marks[a], locale))
        if a in towers:
            parts.append("♜")
        if ice_age == a:
            parts.append("❄")
        if parts:
            lines.append(f"**{area_name(map_id, a, locale)}**: " + " · ".join(parts))
    return "\n".join(lines) or "—"


class CthulhuWarsDuelUI(GameUI):
    game_id = GAME

    # ------------------------------------------------------------------ shared text blocks
    def _status_lines(self, view: CwdView, locale: str, names: Names, warn: bool = True) -> list[str]:
        prompt = view.pending[0] if view.pending else None
        battle = None
        if view.battle:
            b = view.battle
            dice = tuple((names(s), n) for s, n in (b.get("dice") or {}).items())
            battle = (b["area"], names(b["attacker"]), names(b["defender"]), dice)
        return [self._map_line(view.map, locale, warn),
                *status_text(names(view.first_player), names(prompt.seat) if prompt else "—",
                             tuple(view.ritual_track), view.ritual_position, view.decay, view.elder_signs_in_bag,
                             view.map, view.ice_age, tuple(view.towers), view.ancient_sorcery, view.cursed_slumber,
                             battle, locale)]

    def _map_line(self, map_id: str, locale: str, warn: bool) -> str:
        """The map's name; on the table, also the warning that the Extinction layout is reconstructed."""
        text = "🗺 " + t(locale, f"opt.{GAME}.map.{map_id}")
        try:
            reconstructed = load(map_id).reconstructed
        except MapError:
            reconstructed = False
        if reconstructed and warn:  # the view says so too (map_reconstructed); the map data is the source
            text += "\n⚠ " + t(locale, f"{GAME}.ui.reconstructed")
        return text

    def _player_block(self, view: CwdView, i: int, p: PlayerView, locale: str) -> str:
        gates = sum(1 for c in view.gates.values() if c == p.seat)
        on_map: dict[str, int] = {}
        for here in view.units.get(p.seat, {}).values():
            for k, n in here.items():
                on_map[k] = on_map.get(k, 0) + n
        cult = sum(on_map.get(k, 0) for k in KINDS[i] if k not in MONSTERS[i] and k not in GOOS[i])
        monsters = sum(on_map.get(k, 0) for k in MONSTERS[i])
        goos = tuple(k for k in GOOS[i] if on_map.get(k))
        return _block_text(locale, view.map, p.power, p.doom, p.elder_signs, p.hibernating, gates, cult, monsters,
                           goos, p.start_area, tuple(p.spellbooks), tuple(p.spellbook_pool),
                           tuple(p.requirements_met), tuple(sorted(p.captives.items())))

    def _player_fields(self, embed: discord.Embed, view: CwdView, locale: str, names: Names) -> None:
        acting = view.pending[0].seat if view.pending else None
        for i, p in enumerate(view.players):
            marker = "▶ " if p.seat == acting and view.result is None else ""
            embed.add_field(name=clip(f"{marker}{FACTION_MARK[p.faction]} {names(p.seat)} — "
                                      f"{faction_name(p.faction, locale)}", 256),
                            value=self._player_block(view, i, p, locale), inline=True)

    def _result_field(self, embed: discord.Embed, view: CwdView, locale: str, names: Names) -> None:
        if view.result is None:
            return
        scores = view.result.get("scores", [])
        lines = [t(locale, f"{GAME}.reason.{view.result.get('reason')}")]
        for p, score in zip(view.players, scores, strict=False):
            lines.append(t(locale, f"{GAME}.ui.final_line", who=names(p.seat),
                           faction=faction_name(p.faction, locale), doom=score))
        if len(scores) == 2 and scores[0] != scores[1]:
            winner = view.players[0 if scores[0] > scores[1] else 1]
            lines.append(t(locale, f"{GAME}.ui.winner", who=names(winner.seat)))
        else:
            lines.append(t(locale, f"{GAME}.ui.tie"))
        embed.add_field(name=t(locale, f"{GAME}.ui.result"), value=clip("\n".join(lines), FIELD), inline=False)

    def board_text(self, view: CwdView, locale: str) -> str:
        """The map in words, one line per area with anything on it (for DMs and the terminal table)."""
        faction_of = {p.seat: p.faction for p in view.players}
        forces = tuple(
            (FACTION_MARK[p.faction], tuple((a, tuple(here.items())) for a, here in view.units.get(p.seat, {}).items()
                                            if here))
            for p in view.players
        )
        gates = tuple((a, FACTION_MARK[faction_of[owner]] if owner is not None else "⬜")
                      for a, owner in view.gates.items())
        return board_words(view.map, forces, gates, tuple(view.towers), view.ice_age, locale)

    # ------------------------------------------------------------------ embeds
    def table_embed(self, view: CwdView, locale: str, names: Names) -> discord.Embed:
        embed = discord.Embed(
            title=t(locale, f"{GAME}.ui.title", round=view.round, phase=t(locale, f"{GAME}.phase.{view.phase}")),
            description="\n".join(self._status_lines(view, locale, names)),
            colour=discord.Colour.dark_teal(),
        )
        self._player_fields(embed, view, locale, names)
        self._result_field(embed, view, locale, names)
        return embed

    def private_embed(self, view: CwdView, locale: str, names: Names) -> discord.Embed:
        me = next((p for p in view.players if p.seat == view.viewer), None)
        faction = faction_name(me.faction, locale) if me else "—"
        embed = discord.Embed(title=t(locale, f"{GAME}.ui.private_title", faction=faction, round=view.round),
                              colour=discord.Colour.dark_gold())
        mine = [p for p in view.pending if p.seat == view.viewer]
        if mine:
            embed.description = "**" + self.prompt_text(mine[0], locale, names) + "**"
        elif view.result is None and view.pending:
            embed.description = t(locale, f"{GAME}.ui.waiting", who=names(view.pending[0].seat))
            if me is not None and me.elder_sign_values:
                embed.description += "\n" + t(locale, f"{GAME}.ui.reveal_any_time")
        if me is not None:
            values = ", ".join(str(v) for v in me.elder_sign_values or []) or "—"
            embed.add_field(name=t(locale, f"{GAME}.ui.your_signs"), value=values, inline=False)
        embed.add_field(name=t(locale, f"{GAME}.ui.table"),
                        value=clip("\n".join(self._status_lines(view, locale, names, warn=False)), FIELD),
                        inline=False)
        self._player_fields(embed, view, locale, names)
        self._result_field(embed, view, locale, names)
        board = clip(self.board_text(view, locale), FIELD)
        if len(embed) + len(board) + 40 < EMBED_LIMIT:  # the footer comes later; the picture has the board too
            embed.add_field(name=t(locale, f"{GAME}.ui.board"), value=board, inline=False)
        return embed

    def text_table(self, view: CwdView, locale: str, names: Names) -> str:
        return embed_to_text(self.table_embed(view, locale, names)) + "\n\n" + self.board_text(view, locale)

    def personal(self, view: CwdView) -> Hashable:
        me = next((p for p in view.players if p.seat == view.viewer), None)
        return tuple(me.elder_sign_values or ()) if me else ()

    def table_image(self, view: CwdView, locale: str, names: Names) -> bytes:
        return draw_map(view, lang(locale), names)

    def image_key(self, view: CwdView) -> Hashable:
        return (
            view.map, view.round, view.phase, view.decay, view.ritual_position, view.elder_signs_in_bag,
            view.ice_age, tuple(view.towers), tuple(sorted((a, c or "") for a, c in view.gates.items())),
            tuple((s, tuple(sorted((a, tuple(sorted(k.items()))) for a, k in u.items())))
                  for s, u in sorted(view.units.items())),
            tuple((p.seat, p.power, p.doom, p.elder_signs, tuple(p.spellbooks), p.hibernating,
                   tuple(sorted(p.captives.items()))) for p in view.players),
            view.battle.get("area") if view.battle else None,
            acting_seat(view), view.first_player, view.cursed_slumber, view.ancient_sorcery,
        )

    # ------------------------------------------------------------------ actions
    def action_group(self, action: BaseModel) -> str:
        return GROUPS.get(str(getattr(action, "type", "")), "other")

    def action_label(self, action: BaseModel, view: Any, locale: str, names: Names) -> str:
        a: Any = action
        kind = a.type
        key = f"{GAME}.action.{kind}"
        m = view.map
        if kind in ("control_gate", "abandon_gate"):
            return t(locale, key, area=area_name(m, a.area, locale))
        if kind == "build_gate" and a.area in view.towers:
            key = f"{GAME}.action.build_gate_towered"  # CWD-R98: the Tower takes the new Gate at once
        if kind in ACTION_COST:
            return t(locale, key, area=area_name(m, a.area, locale), cost=action_cost(view, kind, a.area))
        if kind == "ritual":
            return t(locale, key, cost=ritual_price(view))
        if kind in ("summon", "awaken"):
            return t(locale, key, kind=unit_name(a.kind, locale), area=area_name(m, a.area, locale),
                     cost=action_cost(view, kind, a.area, a.kind))
        if kind == "move_unit":
            return t(locale, key, kind=unit_name(a.kind, locale), src=area_name(m, a.src, locale),
                     dst=area_name(m, a.dst, locale), cost=step_price(view, a.kind, a.src, a.dst, locale))
        if kind == "unique":
            text = t(locale, f"{GAME}.ability.{a.ability}")
            return f"{text} — {area_name(m, a.area, locale)}" if a.area else text
        if kind == "spend_requirement":
            return t(locale, key, requirement=requirement_text(a.requirement, locale))
        if kind == "reveal":
            return t(locale, key, value=a.value)
        if kind == "decide":
            return self._decide_label(a, view, locale, names)
        return t(locale, key)

    def _decide_label(self, a: Any, view: CwdView, locale: str, names: Names) -> str:
        prompt = my_prompt(view)
        frame = prompt.kind if prompt else ""
        c = a.choice
        m = view.map
        area = area_name(m, a.area, locale) if a.area else ""
        ch = f"{GAME}.choice"
        if frame == "choose_start":
            return t(locale, f"{ch}.start", area=area)
        if frame == "choose_book":
            return f"{book_name(c, locale)}: {t(locale, f'{GAME}.book_effect.{c}')}"
        if frame == "choose_first":
            return t(locale, f"{ch}.first", who=names(c))
        if frame == "place_tower":
            return t(locale, f"{ch}.tower", area=area)
        if frame == "nexus":
            where = area_name(m, prompt.params.get("area") if prompt else None, locale)
            if c == "decline":
                return t(locale, f"{ch}.decline")
            if c == "move":
                return t(locale, f"{ch}.nexus_move", area=where)
            verb, _, what = c.partition(":")
            if verb in ("summon", "awaken"):
                return t(locale, f"{GAME}.action.{verb}", kind=unit_name(what, locale), area=area,
                         cost=action_cost(view, verb, a.area, what))
            if verb == "unique":
                return f"{t(locale, f'{GAME}.ability.{what}')} — {area}"
            return t(locale, f"{GAME}.action.{verb}", area=area,
                     **({"cost": action_cost(view, verb, a.area)} if verb in ACTION_COST else {}))
        if frame in ("howl", "eternal"):
            return t(locale, f"{ch}.{c}")
        if frame == "sacrifice":
            return t(locale, f"{ch}.{c}")
        if frame in ("howl_victim", "retreat"):
            return t(locale, f"{ch}.unit_to", kind=unit_name(c, locale), area=area)
        if frame == "assign":
            result = prompt.params.get("result", "k") if prompt else "k"
            return t(locale, f"{ch}.assign", result=t(locale, f"{GAME}.result.{result}"), kind=unit_name(c, locale))
        if frame == "retreat_elim":
            return t(locale, f"{ch}.eliminate", kind=unit_name(c, locale))
        if frame == "cannibalism":
            return t(locale, f"{ch}.decline") if c == "decline" else t(locale, f"{ch}.place", kind=unit_name(c, locale))
        if frame in ("capture_victim", "capture_monster_victim"):
            return unit_name(c, locale)
        if _known(locale, f"{ch}.{c}"):
            return f"{t(locale, f'{ch}.{c}')} {area}".strip()
        return f"{c} {area}".strip()

    def prompt_text(self, prompt: Prompt, locale: str, names: Names) -> str:
        text = t(locale, f"{GAME}.prompt.{prompt.kind}")
        params = prompt.params
        details = []
        if prompt.kind in ("turn", "after_action") and "power" in params:
            details.append(t(locale, f"{GAME}.ui.power_left", power=params["power"]))
        if prompt.kind == "assign":
            details.append(t(locale, f"{GAME}.ui.results_left",
                             result=t(locale, f"{GAME}.result.{params.get('result')}"), count=params.get("left", 1)))
        if prompt.kind == "eternal" and params.get("result"):
            details.append(t(locale, f"{GAME}.ui.eternal_result",
                             result=t(locale, f"{GAME}.result.{params['result']}")))
        if prompt.kind == "choose_book" and params.get("requirement"):
            details.append(requirement_text(params["requirement"], locale))
        if prompt.kind == "place_tower" and "left" in params:
            details.append(t(locale, f"{GAME}.ui.towers_left", count=params["left"]))
        if prompt.kind in AREA_PROMPTS and params.get("area"):
            details.append(self._area_from_params(params["area"], locale))
        if prompt.kind == "move" and params.get("nexus"):
            details.append(t(locale, f"{GAME}.ui.nexus_move"))
        return f"{text} ({'; '.join(details)})" if details else text

    @staticmethod
    def _area_from_params(area: str, locale: str) -> str:
        """A prompt carries no map id; area ids are unique across both maps, so any map that knows it
        names it."""
        for map_id in ("extinction", "earth"):
            name = area_name(map_id, area, locale)
            if name != area:
                return name
        return area

    def rule_error_params(self, params: dict[str, Any], locale: str, names: Names) -> dict[str, Any]:
        out = dict(params)
        if isinstance(out.get("area"), str):
            out["area"] = self._area_from_params(out["area"], locale)
        if isinstance(out.get("kind"), str):
            kind = out["kind"]
            for key in (f"{GAME}.unit.{kind}", f"{GAME}.prompt.{kind}"):
                if _known(locale, key):
                    out["kind"] = t(locale, key)
                    break
        if isinstance(out.get("ability"), str):
            out["ability"] = t(locale, f"{GAME}.ability.{out['ability']}")
        if isinstance(out.get("requirement"), str):
            out["requirement"] = requirement_text(out["requirement"], locale)
        if isinstance(out.get("phase"), str):
            out["phase"] = t(locale, f"{GAME}.phase.{out['phase']}")
        if isinstance(out.get("action"), str):
            out["action"] = t(locale, f"{GAME}.action_type.{out['action']}")
        for key in ("seat", "current"):
            if isinstance(out.get(key), str):
                out[key] = names(out[key])
        if isinstance(out.get("seats"), list):
            out["seats"] = ", ".join(names(s) for s in out["seats"])
        return out

    # ------------------------------------------------------------------ events
    def event_text(self, event: Event, locale: str, names: Names) -> str | None:
        e: Any = event
        if e.type == "map_reconstructed":
            return None  # the start notice just above it in "Last moves" says so, and so does the table
        data: dict[str, Any] = dict(getattr(e, "data", {}) or {})
        key = f"{GAME}.event.{e.type}"
        params: dict[str, Any] = dict(data)
        params["seat"] = names(data.get("seat")) if data.get("seat") else "—"
        if isinstance(data.get("winner"), str):
            params["winner"] = names(data["winner"])
        for k in ("area", "src", "dst"):
            if isinstance(data.get(k), str):
                params[k] = self._area_from_params(data[k], locale)
        if isinstance(data.get("kind"), str):
            params["kind"] = unit_name(data["kind"], locale)
        if isinstance(data.get("book"), str):
            params["book"] = book_name(data["book"], locale)
        if isinstance(data.get("requirement"), str):
            params["requirement"] = requirement_text(data["requirement"], locale)
        if e.type == "demand_sacrifice":
            params["choice"] = t(locale, f"{GAME}.choice.{data.get('choice')}")
        if e.type == "doom":
            why = data.get("why")
            params["why"] = " " + t(locale, f"{GAME}.ui.ev.doom_why.{why}") if why else ""
        text = t(locale, key, **params)
        extra = self._event_extra(e.type, data, locale)
        return f"{text} {extra}" if extra else text

    def _event_extra(self, kind: str, data: dict[str, Any], locale: str) -> str:
        ev = f"{GAME}.ui.ev"
        factions = [faction_name(f, locale) for f in ("sleeper", "windwalker")]
        if kind == "dice" and data.get("rolls"):
            rolls = "[" + " ".join(str(r) for r in data["rolls"]) + "]"
            if data.get("converted"):
                rolls += " " + t(locale, f"{GAME}.ui.converted", count=data["converted"])
            return rolls
        if kind == "decay_paid" and data.get("turn_over"):
            return t(locale, f"{ev}.turn_lost")
        if kind == "power_gathered" and data.get("power"):
            return "— " + ", ".join(f"{f} {n}" for f, n in zip(factions, data["power"], strict=False))
        if kind == "game_over" and data.get("scores"):
            reason = t(locale, f"{GAME}.reason.{data.get('reason')}")
            return f"({reason}) — " + ", ".join(f"{f} {n}" for f, n in zip(factions, data["scores"], strict=False))
        if kind == "awakened" and data.get("gate_removed"):
            return t(locale, f"{ev}.gate_removed")
        if kind == "eliminated" and data.get("blocked"):
            return t(locale, f"{ev}.blocked")
        if kind == "requirement_spent" and data.get("opponent_delta"):
            return t(locale, f"{ev}.opponent_delta", delta=f"{data['opponent_delta']:+d}")
        if kind == "ritual" and data.get("end"):
            return t(locale, f"{ev}.ritual_end")
        return ""

    def announcements(self, events: list[Event], locale: str, names: Names) -> list[str]:
        """The final result as a fresh post. Scores come by faction; players are mentioned when the event
        names the seats (``seats``, faction order), otherwise the factions stand for them."""
        out = []
        factions = ("sleeper", "windwalker")
        for e in events:
            if e.type != "game_over":
                continue
            data: dict[str, Any] = dict(getattr(e, "data", {}) or {})
            scores = list(data.get("scores") or [])
            seats = list(data.get("seats") or [])
            # Bound now, not looked up later: each game_over event names its own seats.
            who = partial(_seat_or_faction, names, seats, factions, locale)

            lines = [t(locale, f"{GAME}.ann.game_over", reason=t(locale, f"{GAME}.reason.{data.get('reason')}"))]
            for i, score in enumerate(scores[:2]):
                lines.append(t(locale, f"{GAME}.ann.line", who=who(i), faction=faction_name(factions[i], locale),
                               doom=score))
            if data.get("winner") in seats:  # a concession: the player who stayed wins whatever the Doom
                lines.append(t(locale, f"{GAME}.ann.winner", who=who(seats.index(data["winner"]))))
            elif len(scores) == 2 and scores[0] != scores[1]:
                lines.append(t(locale, f"{GAME}.ann.winner", who=who(0 if scores[0] > scores[1] else 1)))
            else:
                lines.append(t(locale, f"{GAME}.ann.tie"))
            out.append("\n".join(lines))
        return out

    def start_notice(self, options: BaseModel, locale: str) -> str | None:
        map_id = str(getattr(options, "map", "extinction"))
        try:
            reconstructed = load(map_id).reconstructed
        except MapError:
            return None
        return t(locale, f"{GAME}.ui.notice_reconstructed" if reconstructed else f"{GAME}.ui.notice_earth")


def _known(locale: str, key: str) -> bool:
    return catalog().has(lang(locale), key) or catalog().has("en", key)


UI = CthulhuWarsDuelUI()


async def setup(bot: GameBot) -> None:
    register_ui(UI)
