"""Eldritch Horror at the Discord table: how its views, option keys and events read, and its world map.

The engine asks every question as a list of plain option keys (``travel:London>Rome``, ``buy:Axe``,
``fight:12:Ghoul``); this module turns each key into a label from the game's data (card and space names in
Russian or English) and nothing else: it holds no rule. Eldritch Horror hides nothing from any player, so
the private view is simply the player's own investigator sheets plus the choice waiting for them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Hashable
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

import discord
from pydantic import BaseModel

from bot.i18n import catalog, locale_of, t, t_cached
from cogs.eldritch_horror.map import draw_map, space_name
from cogs.games.ui import GameUI, Names, clip, register_ui
from rules.core import Event, Prompt
from rules.eldritch_horror.data import DATA, SKILLS, load
from rules.eldritch_horror.dice import successes, threshold
from rules.eldritch_horror.world import TOKENS

if TYPE_CHECKING:
    from cogs.games.host import GameBot

GAME = "eldritch_horror"
C = load()
DIE_FACES = "⚀⚁⚂⚃⚄⚅"
OMENS = ("green", "blue", "red")


def txt(value: Any, locale: str) -> str:
    """A data text in the reader's language: ``{"en", "ru"}`` objects or (older data) a plain string."""
    if isinstance(value, dict):
        return str(value.get(locale_of(locale)) or value.get("en") or next(iter(value.values()), ""))
    return "" if value is None else str(value)


@cache
def _cards() -> dict[str, dict[str, Any]]:
    """cards.json by English name: it holds the Russian names of investigators, monsters and possessions."""
    data = json.loads((DATA / "cards.json").read_text(encoding="utf-8"))
    out: dict[str, dict[str, Any]] = {}
    for c in data["cards"]:
        out.setdefault(txt(c["name"], "en"), c)
    return out


@cache
def _stat_labels() -> dict[str, Any]:
    return dict(json.loads((DATA / "cards.json").read_text(encoding="utf-8"))["stat_labels"])


@lru_cache(maxsize=4096)
def card(name: str, locale: str) -> str:
    """A card, investigator, monster or Ancient One by its English name. Cached (the data never changes):
    every message after a move names each investigator and possession in it."""
    found = _cards().get(name)
    return txt(found["name"], locale) if found else name


_NUMBERED = re.compile(r"\*\*(?:Space|локация) (\d+)\*\*")


@lru_cache(maxsize=2048)
def sheet_text(name: str, locale: str) -> str:
    """A card's text in the reader's language; a numbered space in it is named as the map and every other
    line name it ("South Africa (15)"), not by the engine's id ("Space 15", «в локации локация 15»). Cached:
    each private message shows its investigators' sheets, and rewriting them took a regular expression."""
    found = _cards().get(name)
    text = txt(found["text"], locale) if found and found.get("text") else ""
    return _NUMBERED.sub(lambda m: f"**{space_name('Space ' + m.group(1), locale)}**", text)


@lru_cache(maxsize=256)
def skill(name: str, locale: str) -> str:
    """A skill's label. Cached: every investigator on the table and on each sheet lists all five."""
    return txt(_stat_labels().get(name, name), locale)


@cache
def _mythos_ids() -> dict[str, str]:
    return {txt(c["name"], "en"): k for k, c in C.mythos.items()}


@lru_cache(maxsize=1024)
def mythos_name(card_id_or_name: str, locale: str) -> str:
    """Mythos cards by id or English name; their Russian names are this game's catalog entries. Cached: the
    table names every card in play after each move."""
    card_id = card_id_or_name if card_id_or_name in C.mythos else _mythos_ids().get(card_id_or_name)
    key = f"{GAME}.mythos_name.{card_id}"
    if card_id is not None and _has(key):
        return t_cached(locale, key)
    return txt(C.mythos[card_id]["name"], locale) if card_id is not None else card_id_or_name


@lru_cache(maxsize=1024)
def mythos_text(card_id_or_name: str, locale: str) -> str:
    """What a Mythos card says, in the reader's language (cached as ``mythos_name``)."""
    card_id = card_id_or_name if card_id_or_name in C.mythos else _mythos_ids().get(card_id_or_name)
    return txt(C.mythos[card_id].get("text"), locale) if card_id is not None else ""


@lru_cache(maxsize=256)
def mystery_name(name: str, locale: str) -> str:
    """A mystery's name in the reader's language (cached: the table names the solved ones after each move)."""
    key = f"{GAME}.mystery_name.{name}"
    return t_cached(locale, key) if _has(key) else name


def thing(token: str, locale: str) -> str:
    """Any name an option key may carry: a space, a card, a skill, or a word of the game's vocabulary."""
    if token in C.spaces:
        return space_name(token, locale)
    if token in _cards():
        return card(token, locale)
    if token in SKILLS or token in ("health", "sanity"):
        return skill(token, locale)
    if token in C.mythos:
        return mythos_name(token, locale)
    key = f"{GAME}.word.{token}"
    return t_cached(locale, key) if _has(key) else token


def _has(key: str) -> bool:
    return catalog().has("en", key)


def dice_text(dice: list[int]) -> str:
    return " ".join(DIE_FACES[d - 1] + str(d) if 1 <= d <= 6 else str(d) for d in dice)


def item_label(key: str, locale: str) -> str:
    """``asset:Axe``, ``spell:Wither``, ``ticket:ship``, ``clue``: a possession moving in a trade."""
    kind, _, name = key.partition(":")
    if kind == "clue":
        return t_cached(locale, f"{GAME}.word.clue")
    if kind == "ticket":
        return t_cached(locale, f"{GAME}.ticket.{name}")
    return card(name, locale) if name else thing(kind, locale)


# ---------------------------------------------------------------------- option keys

_MONSTER_KEY = re.compile(r"^(\d+):([^@]+)(?:@(.+))?$")


def effect_label(summary: str, locale: str) -> str:
    """A ``choose_one`` option as the engine summarises it (``lose_health 1 + gain_condition Injury``)."""
    if summary == "nothing":
        return t_cached(locale, f"{GAME}.op.nothing")
    dup = re.search(r" \((\d+)\)$", summary)
    if dup:
        summary = summary[: dup.start()]
    parts = []
    for part in summary.split(" + "):
        op, *tokens = part.split(" ")
        args = [a for a in tokens if "=" not in a]
        quals = [qualifier_label(a, locale) for a in tokens if "=" in a]
        joined = " ".join(args)
        shown = [thing(joined, locale)] if joined in _cards() else [thing(a, locale) for a in args]
        if op == "spend" and args and args[-1] == "clue":  # "spend 2 clue": the clues are the thing spent
            op, shown = "spend_clue", shown[:-1]
        if op == "improve_skill" and len(args) == 2 and args[0].isdigit():  # "improve_skill 1 lore"
            shown = [f"{shown[1]} (+{args[0]})"]
        label = t_cached(locale, f"{GAME}.op.{op}") if _has(f"{GAME}.op.{op}") else op.replace("_", " ")
        rest = " ".join([*shown, *quals]).strip()
        parts.append(f"{label}: {rest}" if shown else " ".join([label, rest]).strip())
    text = " + ".join(parts)
    return t_cached(locale, f"{GAME}.op.variant", text=text, n=dup.group(1)) if dup else text


def qualifier_label(token: str, locale: str) -> str:
    """``from=reserve``, ``source=…``, ``kind=spell``, ``group=true``: what tells two similar options apart."""
    field, _, value = token.partition("=")
    key = f"{GAME}.arg.{field}.{value}"
    return t_cached(locale, key) if _has(key) else f"({thing(value, locale)})"


@lru_cache(maxsize=4096)
def option_label(kind: str, key: str, locale: str) -> str:
    """The readable label of one option key offered by a decision of ``kind``. Cached (it reads only the
    game's data and texts): every private message labels each of its player's options."""
    g = GAME
    head, _, rest = key.partition(":")
    if kind in ("action", "extra_action"):
        if head == "travel":
            path = rest.split(">")
            if len(path) == 1:
                return t_cached(locale, f"{g}.act.travel", dest=space_name(path[0], locale))
            return t_cached(locale, f"{g}.act.travel_via", dest=space_name(path[-1], locale),
                     via=" → ".join(space_name(p, locale) for p in path[:-1]))
        if head == "prepare":
            return t_cached(locale, f"{g}.act.prepare", ticket=t_cached(locale, f"{g}.ticket.{rest}"))
        if head == "trade":
            return t_cached(locale, f"{g}.act.trade", who=card(rest, locale))
        if head == "component":
            what, _, name = rest.partition(":")
            if what in ("sheet", "mystery"):
                return t_cached(locale, f"{g}.act.{what}")
            if what == "condition":
                name = name.split(":")[-1]
            return t_cached(locale, f"{g}.act.component", card=card(name, locale))
        if head == "free":
            return t_cached(locale, f"{g}.act.free", card=card(rest, locale))
        if not rest:
            return t_cached(locale, f"{g}.act.{head}")
    if kind == "encounter":
        if head == "location":
            return t_cached(locale, f"{g}.enc.location", region=t_cached(locale, f"{g}.region.{rest}"))
        if head == "rumor":
            return t_cached(locale, f"{g}.enc.rumor", card=mythos_name(rest, locale))
        if head == "corpse":
            return t_cached(locale, f"{g}.enc.corpse", who=card(rest, locale))
        if head == "cast":
            return t_cached(locale, f"{g}.enc.cast", card=card(rest, locale))
        if not rest:
            return t_cached(locale, f"{g}.enc.{head}")
    if kind == "reroll" and head in ("accept", "reroll", "reroll_all", "add", "bump"):
        if head == "reroll":  # ``clue@2``, ``sanity@1+3``, ``Lucky Rabbit's Foot@1``: the source, then the dice
            source, _, faces = rest.partition("@")
            shown = dice_text([int(f) for f in faces.split("+")])
            if source in ("clue", "sanity"):
                return t_cached(locale, f"{g}.rr.{source}", faces=shown)
            return t_cached(locale, f"{g}.rr.reroll", card=card(source, locale), faces=shown)
        return t_cached(locale, f"{g}.rr.{head}", card=card(rest, locale))
    if kind == "lead":
        if head == "pass":
            return t_cached(locale, f"{g}.lead.pass", who=card(rest, locale))
        return t_cached(locale, f"{g}.lead.keep")
    if kind in ("optional", "fight", "prevent", "prevent_other"):
        name, _, whose = rest.partition("@")
        if head == "fight" and name:
            return t_cached(locale, f"{g}.choice.fight_monster", monster=card(name.split(":", 1)[-1], locale))
        if head in ("cast", "use"):
            text = t_cached(locale, f"{g}.choice.{head}", card=card(name, locale))
            return text + (f" ({card(whose, locale)})" if whose else "")
        if not rest:
            return t_cached(locale, f"{g}.choice.{head}")
    if kind == "buy":
        if head == "buy":
            names = rest.split("+")
            cost = sum(int((C.assets.get(c) or {}).get("cost") or 0) for c in names)
            return t_cached(locale, f"{g}.choice.buy", cards=" + ".join(card(c, locale) for c in names), cost=cost)
        if head == "discard":
            return t_cached(locale, f"{g}.choice.discard_reserve", card=card(rest, locale))
        return t_cached(locale, f"{g}.choice.{head}")
    if kind == "trade":
        if head in ("give", "take"):
            return t_cached(locale, f"{g}.choice.{head}_item", item=item_label(rest, locale))
        return t_cached(locale, f"{g}.choice.{head}")
    if kind in ("trade_consent", "swap_places"):
        return t_cached(locale, f"{g}.choice.{head}")
    if kind in ("pick_investigator", "replace"):  # setup step 3, EH-R63: enough to choose by; the sheet follows
        return investigator_choice(key, locale)
    if kind == "drop_ticket":
        return t_cached(locale, f"{g}.choice.drop_ticket", ticket=t_cached(locale, f"{g}.ticket.{key}"))
    if kind == "choose":
        return effect_label(key, locale)
    return target_label(key, locale)


def investigator_choice(name: str, locale: str) -> str:
    """An investigator offered at setup: name, title, health and sanity, and where they start."""
    found = _cards().get(name)
    if found is None:
        return t_cached(locale, f"{GAME}.choice.random")
    data = C.investigators[name]
    return t_cached(locale, f"{GAME}.choice.pick", name=card(name, locale), title=txt(found.get("title"), locale),
             health=data["health"], sanity=data["sanity"], space=space_name(data["start"], locale))


def target_label(key: str, locale: str) -> str:
    """Targets are names (spaces, cards, investigators, skills, rumor ids) or short composite keys."""
    g = GAME
    if key.startswith(("health>sanity:", "sanity>health:")):
        pair, _, n = key.partition(":")
        a, b = pair.split(">")
        return t_cached(locale, f"{g}.choice.shift", n=n, src=skill(a, locale), dst=skill(b, locale))
    if ">" in key and all(p in SKILLS for p in key.split(">")):
        a, b = key.split(">")
        return t_cached(locale, f"{g}.choice.swap_improvement", src=skill(a, locale), dst=skill(b, locale))
    m = _MONSTER_KEY.match(key)
    if m:
        if m.group(2) in OMENS:
            slot = int(m.group(1))
            after = C.omen_track[(slot + 1) % len(C.omen_track)] if slot < len(C.omen_track) else m.group(2)
            return t_cached(locale, f"{g}.choice.omen", colour=t_cached(locale, f"{g}.colour.{m.group(2)}"),
                     next=t_cached(locale, f"{g}.colour.{after}"))
        where = f" — {space_name(m.group(3), locale)}" if m.group(3) else ""
        return card(m.group(2), locale) + where
    head, _, rest = key.partition(":")
    if head in ("keep", "move") and rest:
        return t_cached(locale, f"{g}.choice.{head}_at", space=space_name(rest, locale))
    if head in ("reserve", "discarded") and rest:  # Leo Anderson's Ally: which pile it comes from
        return t_cached(locale, f"{g}.choice.from_{head}", card=card(rest, locale))
    if head in ("asset", "artifact", "spell") and rest:
        return card(rest, locale)
    if not rest and _has(f"{g}.choice.{head}"):
        return t_cached(locale, f"{g}.choice.{head}")
    return " · ".join(thing(p, locale) for p in key.split(":"))


def mystery_goal(data: dict[str, Any], shown: dict[str, Any], view: Any, locale: str) -> str:
    """What a mystery (or final mystery) asks for: the card's own text from the data, then where its token or
    epic monster stands now, so the table knows where to go."""
    text = (data.get("text") or {}).get(locale) or (data.get("text") or {}).get("en", "")
    monster = (data.get("solve") or {}).get("defeat_epic")
    at = next((m.space for m in view.monsters if m.name == monster), None) if monster else shown.get("space")
    return text + t_cached(locale, f"{GAME}.goal_at", space=space_name(at, locale)) if at else text


def target_topic(options: list[str]) -> str | None:
    """What a bare "choose" is about, told from its options, so the prompt can say "choose a skill"."""
    if not options:
        return None
    if all(o in SKILLS for o in options):
        return "skill"
    if all(o in C.spaces for o in options):
        return "space"
    if all(o in C.investigators for o in options):
        return "investigator"
    keys = [_MONSTER_KEY.match(o) for o in options if o != "no"]
    if keys and all(keys):
        return "omen" if all(k.group(2) in OMENS for k in keys if k) else "monster"
    if all(o in ("pay", "pay_sanity", "decline") for o in options):
        return "pay"
    if all(o in C.assets or o in C.conditions or o in C.spells or o in C.artifacts for o in options):
        return "card"
    return None


def prompt_kind(view: Any) -> str:
    mine = [p for p in view.pending if p.seat == view.viewer]
    chosen = mine or view.pending
    return chosen[0].kind if chosen else ""


def mythos_stage(left: list[int]) -> str:
    """The stage the next Mythos card comes from and the cards left in it ("II: 3"); "—" once the deck is out."""
    for numeral, n in zip(("I", "II", "III"), left, strict=True):
        if n:
            return f"{numeral}: {n}"
    return "—"


@lru_cache(maxsize=1024)
def investigator_text(locale: str, who: str, space: str, health: int, max_health: int, sanity: int, max_sanity: int,
                      clues: int, skills: tuple[tuple[str, int], ...], tickets: tuple[tuple[str, int], ...],
                      things: tuple[str, ...], conditions: tuple[str, ...], status: str, delayed: bool) -> str:
    """An investigator as the table and their sheet show them. Cached by what it shows: the table and the
    player's sheet show each investigator after every move, and most moves change one of them or none."""
    g = GAME
    lines = [
        t_cached(locale, f"{g}.inv.owner", who=who, space=space_name(space, locale)),
        t_cached(locale, f"{g}.inv.stats", health=health, max_health=max_health, sanity=sanity, max_sanity=max_sanity,
           clues=clues),
        " · ".join(f"{skill(s, locale)} {v}" for s, v in skills),
    ]
    shown_tickets = [f"{t_cached(locale, f'{g}.ticket.{k}')} ×{n}" for k, n in tickets if n]
    if shown_tickets:
        lines.append(", ".join(shown_tickets))
    if things:
        lines.append(t_cached(locale, f"{g}.inv.possessions", items=", ".join(card(x, locale) for x in things)))
    if conditions:
        lines.append(t_cached(locale, f"{g}.inv.conditions", items=", ".join(card(x, locale) for x in conditions)))
    if status != "active":
        lines.append("**" + t_cached(locale, f"{g}.status.{status}") + "**")
    elif delayed:
        lines.append(t_cached(locale, f"{g}.status.delayed"))
    return "\n".join(lines)


@lru_cache(maxsize=512)
def sheet_lines(head: str, name: str, things: tuple[str, ...], locale: str) -> str:
    """An investigator's sheet: ``head`` (``investigator_text``), the sheet's text, then each possession's
    text. Cached by what it shows, as ``investigator_text`` is."""
    lines = [head]
    text = sheet_text(name, locale)
    if text:
        lines.append(clip(text, 400))
    for thing_name in things:
        found = _cards().get(thing_name)
        if found and found.get("text"):
            lines.append(f"• **{card(thing_name, locale)}**: {clip(txt(found['text'], locale), 140)}")
    return "\n".join(lines)


# ---------------------------------------------------------------------- the UI


class EldritchHorrorUI(GameUI):
    game_id = GAME

    # ------------------------------------------------------------------ table
    def _head(self, view: Any, locale: str) -> str:
        g = GAME
        lines = [
            t_cached(locale, f"{g}.doom", doom=view.doom) + " · "
            + t_cached(locale, f"{g}.omen", colour=t_cached(locale, f"{g}.colour.{view.omen}"))
            + (" · " + t_cached(locale, f"{g}.omen_eldritch", count=view.omen_eldritch) if view.omen_eldritch else ""),
            t_cached(locale, f"{g}.phase_line", phase=t_cached(locale, f"{g}.phase.{view.phase}"), round=view.round,
              difficulty=t_cached(locale, f"opt.{g}.difficulty.{view.difficulty}")),
            t_cached(locale, f"{g}.decks", mythos=view.sizes.get("mythos", 0), stage=mythos_stage(view.mythos_stages),
              gates=view.sizes.get("gate_stack", 0), clues=view.sizes.get("clue_pool", 0),
              cup=view.sizes.get("cup", 0)),
        ]
        if view.awakened:
            lines.insert(0, "**" + t_cached(locale, f"{g}.awakened", ancient_one=card(view.ancient_one, locale)) + "**")
        return "\n".join(lines)

    def _world(self, view: Any, locale: str) -> str:
        g = GAME
        lines = []
        if view.mystery:
            lines.extend(self._mystery_lines("mystery", view.mystery, C.mysteries.get(view.mystery["name"]), view,
                                             locale))
        if view.final:
            data = C.ancient_ones.get(view.ancient_one, {}).get("awakened", {}).get("final_mystery")
            lines.extend(self._mystery_lines("final", view.final, data, view, locale))
        lines.append(t_cached(locale, f"{g}.solved", count=len(view.solved),
                       names=", ".join(mystery_name(n, locale) for n in view.solved) or "—"))
        if view.expedition:
            lines.append(t_cached(locale, f"{g}.expedition", space=space_name(view.expedition, locale)))
        gates = ", ".join(space_name(s, locale) for s in view.gates) or "—"
        clues = ", ".join(space_name(s, locale) for s in view.clues) or "—"
        lines.append(t_cached(locale, f"{g}.gates", spaces=gates))
        lines.append(t_cached(locale, f"{g}.clues_at", spaces=clues))
        lines.append(self.reserve_line(view, locale))
        return "\n".join(lines)

    def reserve_line(self, view: Any, locale: str) -> str:
        """The four assets on offer, with prices: what an Acquire Assets action can buy (EH-R17)."""
        cards = ", ".join(f"{card(c, locale)} ({(C.assets.get(c) or {}).get('cost', '?')})" for c in view.reserve)
        return t_cached(locale, f"{GAME}.reserve", cards=cards or "—")

    def reserve_detail(self, view: Any, locale: str) -> str:
        """The reserve card by card, price and text, for whoever is deciding whether (or what) to buy."""
        lines = [t_cached(locale, f"{GAME}.reserve", cards="")]
        for c in view.reserve:
            cost = (C.assets.get(c) or {}).get("cost", "?")
            lines.append(f"• **{card(c, locale)}** ({cost}): {clip(sheet_text(c, locale), 160)}")
        return "\n".join(lines)

    def _mythos(self, view: Any, locale: str) -> str:
        """Every rumor and ongoing Mythos card in play with its text: the rules it sets and what ends it."""
        where = {name: space for space, name in view.rumors.items()}
        lines = []
        for c in view.in_play:
            head = "🗣 " if c["name"] in where else "🜁 "
            head += f"**{mythos_name(c['name'], locale)}**"
            if c["name"] in where:
                head += f" — {space_name(where[c['name']], locale)}"
            head += self._tokens(c.get("eldritch") or 0, locale)
            text = mythos_text(str(c.get("id") or c["name"]), locale)
            lines.append(f"{head}: {text}" if text else head)
        return "\n".join(lines)

    def _mystery_lines(self, key: str, shown: dict[str, Any], data: dict[str, Any] | None, view: Any,
                       locale: str) -> list[str]:
        """The mystery's name and progress, then in a second line what solves it: the project's own mysteries
        are printed nowhere else, so without this line nobody at the table would know what to do."""
        g = GAME
        name = mystery_name(shown["name"], locale)
        if shown.get("needs") is not None:
            head = t_cached(locale, f"{g}.{key}", name=name, tokens=shown.get("tokens", 0), needs=shown["needs"])
        else:
            head = t_cached(locale, f"{g}.{key}_open", name=name)
        goal = mystery_goal(data or {}, shown, view, locale)
        return [head, f"   ↳ {goal}"] if goal else [head]

    def _tokens(self, n: int, locale: str) -> str:
        return f" ({t_cached(locale, f'{GAME}.tokens', count=n)})" if n else ""

    def _monsters(self, view: Any, locale: str) -> str:
        by_space: dict[str, list[str]] = {}
        for m in view.monsters:
            hurt = f" −{m.damage}" if m.damage else ""
            by_space.setdefault(m.space, []).append(f"{card(m.name, locale)} ({m.toughness}{hurt})")
        return "\n".join(f"{space_name(s, locale)}: {', '.join(ms)}" for s, ms in by_space.items()) or "—"

    def _investigator(self, inv: Any, locale: str, names: Names) -> str:
        return investigator_text(locale, names(inv.seat), inv.space, inv.health, inv.max_health, inv.sanity,
                                 inv.max_sanity, inv.clues, tuple(inv.skills.items()), tuple(inv.tickets.items()),
                                 (*inv.assets, *inv.artifacts, *inv.spells), tuple(inv.conditions), inv.status,
                                 inv.delayed)

    def _inv_title(self, view: Any, inv: Any, locale: str) -> str:
        acting = {p.params.get("investigator") for p in view.pending}
        mark = "▶ " if inv.name in acting else ""
        lead = " " + t_cached(locale, f"{GAME}.lead_mark") if inv.lead else ""
        return f"{mark}{card(inv.name, locale)}{lead}"

    def table_embed(self, view: Any, locale: str, names: Names) -> discord.Embed:
        g = GAME
        embed = discord.Embed(
            title=t_cached(locale, f"{g}.title", ancient_one=card(view.ancient_one, locale), round=view.round),
            description=self._head(view, locale),
            colour=discord.Colour.dark_teal(),
        )
        # Discord refuses embeds over 6000 characters; "Last moves" (up to 1024) is added after this.
        embed.add_field(name=t_cached(locale, f"{g}.world"), value=clip(self._world(view, locale), 800),
                        inline=False)
        embed.add_field(name=t_cached(locale, f"{g}.monsters"), value=clip(self._monsters(view, locale), 600),
                        inline=False)
        mythos = self._mythos(view, locale)
        if mythos:
            embed.add_field(name=t_cached(locale, f"{g}.mythos_in_play"), value=clip(mythos, 1000), inline=False)
        share = min(1024, (2000 if mythos else 2400) // max(1, len(view.investigators)))
        for inv in view.investigators:
            embed.add_field(name=clip(self._inv_title(view, inv, locale), 120),
                            value=clip(self._investigator(inv, locale, names), share), inline=True)
        if view.outcome is not None:
            embed.add_field(name=t_cached(locale, f"{g}.result"), value=self._result(view.outcome, locale),
                            inline=False)
        return embed

    def _result(self, outcome: dict[str, Any], locale: str) -> str:
        key = "won" if outcome.get("won") else "lost"
        reason = t_cached(locale, f"{GAME}.reason.{outcome.get('reason')}")
        return t_cached(locale, f"{GAME}.outcome.{key}", reason=reason)

    def table_image(self, view: Any, locale: str, names: Names) -> bytes:
        shown = ([i.name for i in view.investigators] + [c["name"] for c in view.corpses]
                 + [m.name for m in view.monsters])
        return draw_map(view, locale, {name: card(name, locale) for name in shown})

    def image_key(self, view: Any) -> Hashable:
        return (
            tuple(view.gates), tuple((m.id, m.space) for m in view.monsters), tuple(view.clues),
            tuple((i.name, i.space, i.status, i.lead) for i in view.investigators), view.expedition,
            tuple(sorted(view.rumors)), view.doom, view.omen, getattr(view, "omen_index", None),
            tuple(sorted(view.space_eldritch.items())),
            tuple((c["name"], c["space"]) for c in view.corpses), view.omen_eldritch,
        )

    def private_embed(self, view: Any, locale: str, names: Names) -> discord.Embed:
        """The player's own investigator sheets: the one-click answer to "what do I have?"."""
        g = GAME
        embed = discord.Embed(title=t_cached(locale, f"{g}.private_title", ancient_one=card(view.ancient_one, locale)),
                              colour=discord.Colour.dark_gold())
        mine = [i for i in view.investigators if i.seat == view.viewer]
        share = min(1024, 5000 // max(1, len(mine)))  # a solo player may hold all eight sheets
        for inv in mine:
            embed.add_field(name=clip(self._inv_title(view, inv, locale), 120),
                            value=clip(self._sheet(inv, locale, names), share), inline=False)
        prompts = [p for p in view.pending if p.seat == view.viewer]
        if prompts:
            embed.description = "**" + self.prompt_text(prompts[0], locale, names) + "**"
            if prompts[0].kind == "reroll" and prompts[0].params.get("dice"):
                embed.description += "\n" + self.odds(prompts[0], view, locale)
            if prompts[0].kind == "buy" or "acquire" in (prompts[0].params.get("options") or []):
                embed.description += "\n" + self.reserve_detail(view, locale)
        elif view.outcome is not None:
            embed.description = self._result(view.outcome, locale)
        elif view.pending:
            embed.description = t_cached(locale, f"{g}.waiting", who=", ".join(
                f"{names(p.seat)} ({card(str(p.params['investigator']), locale)})" if p.params.get("investigator")
                else names(p.seat) for p in view.pending))
        return embed

    def _sheet(self, inv: Any, locale: str, names: Names) -> str:
        return sheet_lines(self._investigator(inv, locale, names), inv.name,
                           (*inv.assets, *inv.artifacts, *inv.spells, *inv.conditions), locale)

    # ------------------------------------------------------------------ actions and prompts
    def action_label(self, action: BaseModel, view: Any, locale: str, names: Names) -> str:
        return option_label(prompt_kind(view), str(getattr(action, "option", "")), locale)

    def action_group(self, action: BaseModel) -> str:
        key = str(getattr(action, "option", ""))
        head, sep, rest = key.partition(":")
        if not sep:
            return "choose"
        if head == "travel" and ">" in rest:  # journeys on tickets in their own menu; next-door moves stay buttons
            return "travel_far"
        return {"travel": "travel", "component": "use", "free": "use", "buy": "buy", "move": "move",
                "give": "give", "take": "take"}.get(head, "choose")

    def prompt_text(self, prompt: Prompt, locale: str, names: Names) -> str:
        g = GAME
        p = prompt.params
        params: dict[str, Any] = {"investigator": card(str(p.get("investigator")), locale),
                                  "player": names(prompt.seat)}
        if "dice" in p:
            params["dice"] = dice_text(list(p["dice"]))
        if "skill" in p:
            params["skill"] = skill(str(p["skill"]), locale)
        if "partner" in p:
            params["partner"] = card(str(p["partner"]), locale)
        key = f"{g}.prompt.{prompt.kind}"
        options = [str(o) for o in p.get("options") or []]
        if prompt.kind == "target" and (topic := target_topic(options)):
            key = f"{g}.prompt.target_{topic}"
        elif prompt.kind == "optional" and "fight" in options:
            key = f"{g}.prompt.optional_fight"
        elif prompt.kind == "optional" and p.get("effect"):
            key = f"{g}.prompt.optional_effect"
            params["effect"] = effect_label(str(p["effect"]), locale)
        if not _has(key):
            key = f"{g}.prompt.other"
        return t_cached(locale, key, **params)

    def odds(self, prompt: Prompt, view: Any, locale: str) -> str:
        """How a test's dice stand: successes so far and the faces that succeed (5-6; 4-6 when Blessed, only
        6 when Cursed), by the engine's own threshold for the investigator's conditions."""
        who = str(prompt.params.get("investigator"))
        conditions = next((list(i.conditions) for i in view.investigators if i.name == who), [])
        need = threshold({"conditions": conditions})
        faces = "6" if need >= 6 else f"{need}–6"
        count = successes(list(prompt.params.get("dice") or []), need)
        return t_cached(locale, f"{GAME}.odds", count=count, faces=faces)

    def rule_error_params(self, params: dict[str, Any], locale: str, names: Names) -> dict[str, Any]:
        out = dict(params)
        if isinstance(out.get("kind"), str) and isinstance(out.get("option"), str):
            out["option"] = option_label(out["kind"], out["option"], locale)
        if isinstance(out.get("kind"), str):
            out["kind"] = t_cached(locale, f"{GAME}.kind.{out['kind']}")
        if "seats" in out:
            out["seats"] = ", ".join(names(s) for s in out["seats"])
        return out

    # ------------------------------------------------------------------ events
    def event_text(self, event: Event, locale: str, names: Names) -> str | None:
        d: dict[str, Any] = dict(getattr(event, "data", {}) or {})
        if event.type == "action" and str(d.get("action", "")).startswith("travel:"):
            return None  # the "moves to" lines that follow say where the investigator went, step by step
        key = f"{GAME}.ev.{event.type}"
        if event.type == "extra_die" and d.get("source") == d.get("investigator"):
            key += "_own"  # naming the roller twice ("Lola Hayes … (Lola Hayes)") reads like a mistake
        if event.type == "encounter_card" and encounter_text(d, locale):
            key += "_text"  # the part of the card being read, so the table can follow what happens next
        if event.type == "mythos" and mythos_text(str(d.get("id") or d.get("card")), locale):
            key += "_text"  # the drawn card's own words: what the icons and its effect will do
        return t(locale, key, **event_params(event.type, d, locale, names))

    def announcements(self, events: list[Event], locale: str, names: Names) -> list[str]:
        out = []
        for e in events:
            d: dict[str, Any] = dict(getattr(e, "data", {}) or {})
            if e.type == "game_over":
                key = "won" if d.get("won") else "lost"
                out.append("**" + t_cached(locale, f"{GAME}.outcome.{key}",
                                    reason=t_cached(locale, f"{GAME}.reason.{d.get('reason')}")) + "**")
            elif e.type in ("mystery_solved", "awakened"):
                out.append(t(locale, f"{GAME}.ev.{e.type}", **event_params(e.type, d, locale, names)))
        return out


def _card_word(kind: str, value: Any, locale: str, names: Names) -> str | None:
    return card(value, locale) if isinstance(value, str) else None


def _source_word(kind: str, value: Any, locale: str, names: Names) -> str | None:
    if value in ("clue", "sanity"):  # a re-roll paid with a Clue (or with Sanity in its place)
        return t_cached(locale, f"{GAME}.source.{value}")
    return card(value, locale) if isinstance(value, str) else None


def _catalog_word(section: str) -> Callable[[str, Any, str, Names], str | None]:
    def word(kind: str, value: Any, locale: str, names: Names) -> str | None:
        return t_cached(locale, f"{GAME}.{section}.{value}") if isinstance(value, str) else None
    return word


def _colour_word(kind: str, value: Any, locale: str, names: Names) -> str | None:
    # A Mythos card's colour or the omen's: Russian agrees differently.
    if not isinstance(value, str):
        return None
    return t_cached(locale, f"{GAME}.{'mythos_colour' if kind == 'mythos' else 'colour'}.{value}")


def _seat_word(kind: str, value: Any, locale: str, names: Names) -> str | None:
    return names(value) if isinstance(value, str) else None


_WORDS: dict[str, Callable[[str, Any, str, Names], str | None]] = {
    **dict.fromkeys(("investigator", "of", "target", "ancient_one", "condition", "monster"), _card_word),
    "source": _source_word,
    "space": lambda kind, value, locale, names: space_name(value, locale) if isinstance(value, str) else None,
    "skill": lambda kind, value, locale, names: skill(value, locale) if isinstance(value, str) else None,
    "dice": lambda kind, value, locale, names: dice_text(value) if isinstance(value, list) else None,
    "die": lambda kind, value, locale, names: dice_text([value]) if isinstance(value, int) else None,
    "colour": _colour_word,
    "omen": _catalog_word("colour"),
    "phase": _catalog_word("phase"),
    "ticket": _catalog_word("ticket"),
    "name": lambda kind, value, locale, names: mystery_name(value, locale) if isinstance(value, str) else None,
    "item": lambda kind, value, locale, names: item_label(value, locale) if isinstance(value, str) else None,
    "seat": _seat_word,
    "heir": _seat_word,  # the player who took over a leaver's investigators
    "reason": _catalog_word("reason"),
}
"""How each kind of event data is worded for a reader, by its key: an event holds a few of these keys, so the
data is walked once instead of every key being looked for in it."""


def event_params(kind: str, d: dict[str, Any], locale: str, names: Names) -> dict[str, Any]:
    """An event's data with every name in the reader's language."""
    g = GAME
    out: dict[str, Any] = dict(d)
    for key, value in d.items():
        word = _WORDS.get(key)
        if word is not None and (text := word(kind, value, locale, names)) is not None:
            out[key] = text
    if isinstance(d.get("id"), int) and "monster" not in d and d["id"] in TOKENS:
        out["monster"] = card(TOKENS[d["id"]], locale)
    if kind == "seat_left":
        out["investigators"] = ", ".join(card(n, locale) for n in d.get("investigators") or ())
    if kind == "test_result":
        out["count"] = int(d.get("successes") or 0)  # "1 success", «2 успеха»
        out["result"] = t_cached(locale, f"{g}.word.{'test_passed' if d.get('passed') else 'test_failed'}")
    if kind == "game_over":
        out["result"] = t_cached(locale, f"{g}.word.{'won' if d.get('won') else 'lost'}")
    if kind == "action":
        out["action"] = option_label("action", str(d.get("action", "")), locale)
    if kind == "encounter":
        out["choice"] = option_label("encounter", str(d.get("choice", "")), locale)
    if kind == "mythos":
        out["text"] = mythos_text(str(d.get("id") or d.get("card")), locale)
    if kind == "encounter_card":
        out["deck"] = t_cached(locale, f"{g}.deck.{d.get('deck')}")
        out["text"] = encounter_text(d, locale)
    elif isinstance(d.get("card"), str):
        out["card"] = mythos_name(d["card"], locale) if kind in ("mythos", "rumor", "rumor_ended", "eldritch_on_card") \
            else card(d["card"], locale)
    return out


def encounter_text(d: dict[str, Any], locale: str) -> str | None:
    """The text of the encounter part an ``encounter_card`` event names, in the reader's language."""
    card_data = C.encounters.get(str(d.get("card")))
    if card_data is None:
        return None
    part = next((s for s in card_data["sections"] if s["section"] == d.get("section")), None)
    text = (part or {}).get("text") or {}
    return text.get(locale_of(locale)) or text.get("en")


UI = EldritchHorrorUI()


async def setup(bot: GameBot) -> None:
    register_ui(UI)
