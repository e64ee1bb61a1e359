"""Call of Cthulhu: The Card Game at the Discord table.

The channel's table shows what both players can see: domains and their resources, characters and
supports in play, the three stories with who is committed and the success tokens, stories won, pile
sizes and whose decision it is. Hands, setup picks, commit plans and looked-at cards stay in each
player's private view (DM or the ephemeral "My hand"), with the buttons. Responses and disrupts are
asked of whichever player the engine names, often the one not on turn; the shared machinery DMs them.

Decks are chosen in the lobby: ``/game new options: deck1=agency+hastur/A``, or ``/coc deck`` (a faction
pairing and packet) and ``/coc decklist`` (paste a list into a form), each player for their own seat (the
host for any seat). The text is read by
``rules.coc_lcg.decklist``; this cog only passes it on.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable, Collection, Hashable, Iterator
from functools import lru_cache
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands
from pydantic import BaseModel

from bot.i18n import catalog as messages
from bot.i18n import locale_of

# Every text here is worded from plain strings and numbers, and a click words dozens of them,
# mostly as after the move before: each is kept once worded.
from bot.i18n import t_cached as t
from bot.sessions import SessionError
from cogs.games import active_session, guarded, refresh_lobby, reply
from cogs.games.ui import GameUI, Names, clip, register_ui
from rules.coc_lcg.cards import FACTION_IDS, ICONS, catalog
from rules.coc_lcg.decklist import quick_choices
from rules.coc_lcg.script import SCRIPTS
from rules.coc_lcg.table import BORROWED, res_value
from rules.coc_lcg.views import CocView, PlayerView
from rules.core import Event, Prompt, RuleError

if TYPE_CHECKING:
    from cogs.games.host import GameBot

GAME = "coc_lcg"
FIELD = 1024
EMBED_BUDGET = 5500  # Discord refuses embeds over 6000 characters; the machinery adds a log and a footer
FACTION_MARK = {"agency": "🟫", "miskatonic": "🟨", "syndicate": "⬛", "cthulhu": "🟩", "hastur": "🟪",
                "yog_sothoth": "🟦", "shub_niggurath": "🟥", "neutral": "⬜", "story": "📜"}
ICON_MARK = {"terror": "😱", "combat": "⚔", "arcane": "✴", "investigation": "🔍"}
# keywords that change how a character in play fights or survives, in the order shown beside it
SHOWN_KEYWORDS = ("heroic", "villainous", "fast", "willpower", "invulnerable")
WORDS = ("none", "use", "mill", "destroy", "mine", "theirs", "heroic", "villainous", "terror", "combat",
         "arcane", "investigation")
# Action types sharing a row of buttons or one select menu; plays and uses share one list so a busy
# window still fits Discord's five rows.
GROUPS = {"pass": "cmd", "commit_done": "cmd", "play": "act", "use": "act", "attach_resource": "attach",
          "commit": "commit", "withdraw": "withdraw", "choose": "choose", "setup_resource": "setup"}


# ---------------------------------------------------------------------- vocabulary
def card_of(iid: str) -> str:
    """The card id of an instance (``0:agency-t-men:1``, ``s:story-…``) or of a plain card id."""
    parts = iid.split(":")
    return parts[1] if len(parts) >= 2 else iid


@lru_cache(maxsize=8192)
def card_name(iid: str | None, locale: str) -> str:
    """A card's name in the reader's language. Cached: every message after a move names each card in view,
    some more than once, and the catalog never changes while the bot runs."""
    if not iid:
        return "—"
    card = catalog().get(card_of(iid))
    if card is None:
        return iid
    return card.name_ru if locale_of(locale) == "ru" else card.name_en


def card_names(iids: list[str], locale: str) -> str:
    return ", ".join(card_name(c, locale) for c in iids) or "—"


@lru_cache(maxsize=1)
def card_texts() -> dict[str, dict[str, str]]:
    """Each card's own-words text by language, as the ``/card`` lookup shows it."""
    raw = json.loads((Path(__file__).resolve().parents[1] / "rules" / GAME / "data" / "cards.json")
                     .read_text(encoding="utf-8"))
    return {c["id"]: c.get("text") or {} for c in raw["cards"]}


@lru_cache(maxsize=2)
def story_effects(lang: str) -> dict[str, str]:
    """Each story's effect in a few words: its text without the lead-in ("Story effect: ") and without the
    closing sentence every story shares (the winner decides), which the prompt itself says."""
    ids = [c.id for c in catalog().values() if c.type == "story"]
    texts = {i: card_texts().get(i, {}).get(lang) or "" for i in ids}
    # RUF071 is silenced: a character-wise common suffix of prose is what is wanted here, not a path
    tail = os.path.commonprefix([x[::-1] for x in texts.values()])[::-1]  # noqa: RUF071
    tail = tail[tail.find(". ") + 1:] if ". " in tail else ""
    out = {}
    for i, x in texts.items():
        if len(tail) > 20 and x.endswith(tail):
            x = x[: -len(tail)].rstrip()
        head, sep, rest = x.partition(": ")
        out[i] = rest if sep and len(head) < 40 else x
    return out


def char_stats(cid: str, now: dict[str, Any] | None = None, locale: str = "en") -> str:
    """A character's skill and struggle icons (``2 ⚔✴``); empty for other cards. With ``now`` (the view's
    current values) it shows those, and the printed ones beside them when a lasting effect changed them."""
    card = catalog().get(card_of(cid))
    if card is None or card.type != "character":
        return ""
    printed = _stats_text(card.skill, list(card.icons))
    if now is None:
        return printed
    current = _stats_text(int(now["skill"]), list(now["icons"]))
    return current if current == printed else t(locale, f"{GAME}.ui.changed_stats", now=current, printed=printed)


def _stats_text(skill: int, icons: list[int]) -> str:
    marks = "".join(ICON_MARK[ICONS[k]] * max(0, n) for k, n in enumerate(icons))
    return f"{skill} {marks}".strip()


def copy_tag(iid: str, view: CocView | None) -> str:
    """`` #2`` when another copy of the same card of the same owner sits in the same place (two Local Sheriffs
    in play, in a hand or in a discard pile), so buttons and the table tell them apart; else nothing."""
    if view is None or iid.count(":") < 2:
        return ""
    return _twin_tags(view).get(iid, "")


class _LastTags:
    """The tags of the newest view asked about. A message asks for dozens of tags of one view (every card
    line, resource and button), and each view is drawn from one state and never changed, so its tags are
    worked out once (``_tags_of``)."""

    view: ClassVar[CocView | None] = None
    tags: ClassVar[dict[str, str]] = {}


def _twin_tags(view: CocView) -> dict[str, str]:
    if _LastTags.view is not view:
        _LastTags.view, _LastTags.tags = view, _tags_of(view)
    return _LastTags.tags


def _tags_of(view: CocView) -> dict[str, str]:
    """Each card's copy tag, given by the first place it is found in (each card is in one place in a real
    game). Places are settled with C's set and dict work where no twins can be."""
    zones = list(_zones(view))
    ids = list(chain.from_iterable(zones))
    if len(set(map(_kind, ids))) == len(ids):  # no two copies of a card anywhere (early on, mostly)
        return dict.fromkeys(ids, "")
    tags: dict[str, str] = {}
    for zone in zones:
        if len(zone) < 2:  # no room for twins (most domains, empty places)
            for iid in zone:
                tags.setdefault(iid, "")
            continue
        fresh = zone if tags.keys().isdisjoint(zone) else [iid for iid in zone if iid not in tags]
        kinds = list(map(_kind, fresh))
        if len(set(kinds)) == len(kinds):  # no twins here (the usual case)
            tags.update(dict.fromkeys(fresh, ""))
            continue
        copies = Counter(kinds)
        for iid, kind in zip(fresh, kinds, strict=True):
            tags[iid] = _number(iid) if copies[kind] > 1 else ""
    return tags


class _ById(dict[str, str]):
    """A fact about an instance id (``fn`` of it), worked out as ids are met and read through the dict's own
    lookup, so that ``map`` over a place stays in C."""

    def __init__(self, fn: Callable[[str], str]) -> None:
        super().__init__()
        self.fn = fn

    def __missing__(self, iid: str) -> str:
        found = self.fn(iid)
        if len(self) < 8192:  # ids come from games only, but keep the memo bounded
            self[iid] = found
        return found


# what twins share (owner and card: ``0:agency-t-men``), and the tag of a copy that has a twin (`` #2``)
_kind = _ById(lambda iid: ":".join(iid.split(":")[:2])).__getitem__
_number = _ById(lambda iid: f" #{parts[2]}" if len(parts := iid.split(":")) >= 3 else "").__getitem__


def _zones(view: CocView) -> Iterator[Collection[str]]:
    """The places a card can sit, in the order ``copy_tag`` looks: play, then each player's hand, discard
    pile, peeked cards and domains. Walked lazily, as the tag is asked for many times per message."""
    yield view.play
    for p in view.players:
        yield p.hand or ()
        yield p.discard
        yield p.peek or ()
        for d in p.domains:
            yield d.resources


def ability_word(iid: str, n: int, locale: str, view: CocView | None = None) -> str:
    """Which ability of a card a button uses, as its text names it (Action, Response, Disrupt), numbered
    only when the card has two of that kind; a borrowed one (Pickman) names the card it comes from."""
    cid, k = card_of(iid), n
    if n >= BORROWED:
        lent = [m for m in (view.mods if view is not None else []) if m.get("k") == "borrow" and m.get("t") == iid]
        if not lent:
            return t(locale, f"{GAME}.ability.number", n=n - BORROWED + 1)
        cid, k = str(lent[-1].get("card")), n - BORROWED
    sc = SCRIPTS.get(cid)
    if sc is None or not 0 <= k < len(sc.abilities):
        return t(locale, f"{GAME}.ability.number", n=k + 1)
    kind = sc.abilities[k].kind
    same = [i for i, a in enumerate(sc.abilities) if a.kind == kind]
    text = t(locale, f"{GAME}.ability.{kind}") if messages().has("en", f"{GAME}.ability.{kind}") \
        else t(locale, f"{GAME}.ability.number", n=k + 1)
    if len(same) > 1:
        text += f" {same.index(k) + 1}"
    if cid != card_of(iid):
        text = t(locale, f"{GAME}.ability.borrowed", ability=text, card=card_name(cid, locale))
    return text


def faction_name(fid: str, locale: str) -> str:
    return t(locale, f"{GAME}.faction.{fid}")


def word(value: str, locale: str) -> str:
    return t(locale, f"{GAME}.word.{value}")


def label(value: Any, locale: str, names: Names, view: CocView | None = None, q: str = "") -> str:
    """A prompt or option value as a person reads it: a card, a story, a seat, a domain or a word."""
    if isinstance(value, list):
        return ", ".join(label(v, locale, names, view, q) for v in value)
    if not isinstance(value, str):
        return str(value)
    if value in names.by_seat:
        return names(value)
    if value in WORDS:
        return word(value, locale)
    if value.isdigit():
        n = int(value)
        if q in ("which_deck", "token_side") and view is not None and n < len(view.players):
            return names(view.players[n].seat)
        if q in ("marker_from", "marker_to", "drain_to_keep"):
            return t(locale, f"{GAME}.ui.domain", n=n + 1)
        return value
    if card_of(value) in catalog():
        return card_name(value, locale)
    return value


def option_label(value: Any, locale: str, names: Names, view: CocView, q: str = "") -> str:
    """A choice as a button reads it: the card, told apart from its twin, with where it is when that matters
    (the opponent's card, a resource's domain, whose discard pile) and its state (exhausted, insane, wounds)."""
    text = label(value, locale, names, view, q)
    if not isinstance(value, str) or value.count(":") < 2 or card_of(value) not in catalog():
        return text
    text += copy_tag(value, view)
    seats = [p.seat for p in view.players]
    inst = view.play.get(value)
    if inst is not None and value not in view.stories:
        marks = card_marks(inst, view.current.get(value))
        if marks:
            text += " " + marks
        ctl = inst.get("ctl")
        if isinstance(ctl, int) and 0 <= ctl < len(seats) and seats[ctl] != view.viewer:
            text += " · " + names(seats[ctl])
        return text
    for p in view.players:
        theirs = p.seat != view.viewer
        for d, dom in enumerate(p.domains):
            if value in dom.resources:
                where = t(locale, f"{GAME}.ui.domain", n=d + 1)
                return f"{text} · {where}" + (f" · {names(p.seat)}" if theirs else "")
        if value in p.discard:
            key = f"{GAME}.act.in_discard_of" if theirs else f"{GAME}.act.in_my_discard"
            return f"{text} · " + t(locale, key, who=names(p.seat))
    return text


def card_marks(inst: dict[str, Any], now: dict[str, Any] | None = None) -> str:
    """Exhausted, insane and wounds; with ``now`` (the view's current values) the wounds read as ``✚1/3``:
    taken out of the number that destroys the character (its Toughness + 1, CoC-R106)."""
    marks = []
    if inst.get("exhausted"):
        marks.append("⤵")
    if inst.get("insane"):
        marks.append("🌀")
    if inst.get("wounds"):
        limit = f"/{int(now.get('toughness', 0)) + 1}" if now is not None and not inst.get("insane") else ""
        marks.append(f"✚{inst['wounds']}{limit}")
    return " ".join(marks)


def keyword_text(now: dict[str, Any] | None, locale: str) -> str:
    """A character's keywords now (Heroic, Fast, Willpower, Invulnerability, Toughness +N) in the edition's
    words, as lasting effects left them; empty when it has none of them."""
    if now is None:
        return ""
    kws = set(now.get("kws") or ())
    words = [t(locale, f"{GAME}.kw.{k}") for k in SHOWN_KEYWORDS if k in kws]
    if now.get("toughness"):
        words.append(t(locale, f"{GAME}.kw.toughness", n=now["toughness"]))
    return ", ".join(words)


def faction_mark(iid: str) -> str:
    """The coloured square of a card's faction (the legend names them), for resources on domains."""
    card = catalog().get(card_of(iid))
    return FACTION_MARK.get(card.faction, "") if card is not None else ""


@lru_cache(maxsize=16)
def faction_legend(locale: str) -> str:
    """Which colour is which faction, in the reader's language (cached: fixed text, on every table)."""
    marks = " ".join(f"{FACTION_MARK[f]} {faction_name(f, locale)}" for f in (*FACTION_IDS, "neutral"))
    return t(locale, f"{GAME}.ui.faction_legend", marks=marks)


def icon_name(icon: Any, locale: str) -> str:
    """A struggle icon, named by the engine either way: its word or its index in ``ICONS``."""
    if isinstance(icon, int) and 0 <= icon < len(ICONS):
        icon = ICONS[icon]
    return word(icon, locale) if icon in ICON_MARK else "—"


@lru_cache(maxsize=4096)
def _hand_card(card_id: str, locale: str) -> tuple[str, str] | None:
    """A hand line's two halves around the copy tag (``• 🟫 **Name`` and ``** (cost, type) — text``), or None
    for an unknown card. Cached: only the tag depends on the game, and building the rest (the card's whole
    text among it) for every hand card was about half the cost of an LCG private embed."""
    card = catalog().get(card_id)
    if card is None:
        return None
    cost = "X" if card.x_cost else ("—" if card.cost is None else str(card.cost))
    text = card_texts().get(card.id, {}).get(locale_of(locale)) or ""
    mark = FACTION_MARK.get(card.faction, "")
    kind = t(locale, f"{GAME}.type.{card.type}")
    if card.type == "character":
        kind += ", " + t(locale, f"{GAME}.ui.skill", stats=char_stats(card_id))
    return f"• {mark} **{card_name(card_id, locale)}", f"** ({cost}, {kind})" + (f" — {text}" if text else "")


class _Drawn:
    """The newest table blocks drawn per player (or for the stories) and language, each with everything it
    was drawn from, compared whole before drawing it again."""

    players: ClassVar[dict[tuple[int, str], tuple[tuple[Any, ...], str]]] = {}
    stories: ClassVar[dict[str, tuple[tuple[Any, ...], str]]] = {}


def _hand_line(cid: str, tag: str, locale: str) -> str:
    known = _hand_card(card_of(cid), locale)
    if known is None:
        return f"• {cid}"
    head, tail = known
    return head + tag + tail


@lru_cache(maxsize=256)
def _hand_pages(cards: tuple[str, ...], tags: tuple[str, ...], locale: str) -> tuple[str, ...]:
    """The hand, one card a line with its whole text, cut into as many fields as it needs (never into a
    card): a long hand takes more room rather than losing words. Cached by the cards, their copy tags and
    the language: a hand stays as it was over most moves, and every private message shows it."""
    pages: list[str] = []
    for line in (_hand_line(c, tag, locale) for c, tag in zip(cards, tags, strict=True)):
        if pages and len(pages[-1]) + 1 + len(line) <= FIELD:
            pages[-1] += "\n" + line
        else:
            pages.append(clip(line, FIELD))
    return tuple(pages) or ("—",)


def my_prompt(view: CocView) -> Prompt | None:
    return next((p for p in view.pending if p.seat == view.viewer), None)


class CocUI(GameUI):
    game_id = GAME

    # ------------------------------------------------------------------ table blocks
    def _status(self, view: CocView, locale: str, names: Names) -> str:
        lines = [t(locale, f"{GAME}.ui.phase", phase=t(locale, f"{GAME}.phase.{view.phase}"),
                   active=names(view.active_seat), first=names(view.first_seat))]
        lines.append(t(locale, f"{GAME}.ui.story_deck", count=view.story_deck_count))
        lines.append(t(locale, f"{GAME}.ui.legend"))
        lines.append(faction_legend(locale))
        if view.resolving:
            lines.append(t(locale, f"{GAME}.ui.resolving", cards=card_names(view.resolving, locale)))
        prompt = view.pending[0] if view.pending else None
        if prompt is not None and view.result is None:
            lines.append(t(locale, f"{GAME}.ui.waiting", who=names(prompt.seat),
                           what=t(locale, f"{GAME}.kind.{prompt.kind}")))
        return "\n".join(lines)

    def _card_line(self, view: CocView, iid: str, locale: str) -> str:
        inst = view.play[iid]
        now = view.current.get(iid)
        marks = card_marks(inst, now)
        text = card_name(iid, locale) + copy_tag(iid, view)
        stats = "" if inst.get("insane") else char_stats(iid, now, locale)
        if stats:
            text += f" [{stats}]"
        kws = "" if inst.get("insane") else keyword_text(now, locale)
        if kws:
            text += f" ‹{kws}›"
        if marks:
            text += " " + marks
        attached = [a for a, x in view.play.items() if x.get("host") == iid]
        if attached:
            text += f" ⟵ {card_names(attached, locale)}"
        return text

    def _player_block(self, view: CocView, i: int, p: PlayerView, locale: str) -> str:
        """Player ``i``'s part of the table, drawn again only when something it shows changed: the table and
        each private message show the same block (it is public), and most moves change one player's."""
        tags = _twin_tags(view)
        res = [d.resources for d in p.domains]
        # everything the block is drawn from; play cards' copy tags follow from ``play`` itself (it is the
        # first place ``_twin_tags`` looks), resources' are taken as they are
        shown = (res, [d.drained for d in p.domains], [tags.get(r) for rs in res for r in rs], p.hand_count,
                 p.deck_count, len(p.discard), p.discard[-1:], p.won, view.stories, view.play, view.current)
        last = _Drawn.players.get((i, locale))
        if last is not None and last[0] == shown:
            return last[1]
        text = self._draw_player_block(view, i, p, locale)
        _Drawn.players[(i, locale)] = (shown, text)
        return text

    def _draw_player_block(self, view: CocView, i: int, p: PlayerView, locale: str) -> str:
        doms = []
        for d, dom in enumerate(p.domains):
            res = ", ".join(faction_mark(r) + card_name(r, locale) + copy_tag(r, view) for r in dom.resources) or "—"
            mark = "🔒" if dom.drained else "🔓"
            doms.append(f"{mark} {d + 1}: {res}")
        story_ids = set(view.stories)
        chars: list[str] = []
        supports: list[str] = []
        for iid, inst in view.play.items():
            if inst.get("ctl") != i or inst.get("host") or iid in story_ids:
                continue
            kind = catalog()[card_of(iid)].type if card_of(iid) in catalog() else "support"
            if kind == "character" and inst.get("story"):
                continue  # shown under the story it is committed to
            (chars if kind == "character" else supports).append(self._card_line(view, iid, locale))
        lines = [t(locale, f"{GAME}.ui.domains"), *doms,
                 t(locale, f"{GAME}.ui.characters", cards="; ".join(chars) or "—"),
                 t(locale, f"{GAME}.ui.supports", cards="; ".join(supports) or "—"),
                 t(locale, f"{GAME}.ui.piles", hand=p.hand_count, deck=p.deck_count, discard=len(p.discard))]
        if p.discard:
            lines.append(t(locale, f"{GAME}.ui.discard_top", card=card_name(p.discard[-1], locale)))
        if p.won:
            lines.append(t(locale, f"{GAME}.ui.won_list", cards=card_names(p.won, locale)))
        return clip("\n".join(lines), FIELD)

    def _stories_block(self, view: CocView, locale: str, names: Names) -> str:
        """The stories with what is committed to them, drawn again only when something it shows changed
        (see ``_player_block``)."""
        seats = [p.seat for p in view.players]
        shown = ([names(s) for s in seats], view.stories, view.tokens, view.struggles, view.play, view.current)
        last = _Drawn.stories.get(locale)
        if last is not None and last[0] == shown:
            return last[1]
        text = self._draw_stories_block(view, locale, names, seats)
        _Drawn.stories[locale] = (shown, text)
        return text

    def _draw_stories_block(self, view: CocView, locale: str, names: Names, seats: list[str]) -> str:
        blocks = []
        for story in view.stories:
            tokens = view.tokens.get(story, [0, 0])
            icons = "".join(ICON_MARK[ICONS[i]] * n for i, n in enumerate(view.struggles.get(story, [])))
            head = f"📜 **{card_name(story, locale)}** [{icons}] · " + " / ".join(
                f"{names(s)} {tokens[k]}/5" for k, s in enumerate(seats))
            lines = [head]
            attached = [a for a, x in view.play.items() if x.get("host") == story]
            if attached:
                lines.append("  ⟵ " + card_names(attached, locale))
            for k, seat in enumerate(seats):
                here = [self._card_line(view, iid, locale) for iid, x in view.play.items()
                        if x.get("story") == story and x.get("ctl") == k]
                if here:
                    lines.append(f"  {names(seat)}: " + "; ".join(here))
            blocks.append("\n".join(lines))
        return clip("\n".join(blocks) or "—", FIELD)

    def table_embed(self, view: CocView, locale: str, names: Names) -> discord.Embed:
        embed = discord.Embed(title=t(locale, f"{GAME}.ui.title", turn=view.turn),
                              description=self._status(view, locale, names), colour=discord.Colour.dark_teal())
        embed.add_field(name=t(locale, f"{GAME}.ui.stories"), value=self._stories_block(view, locale, names),
                        inline=False)
        for i, p in enumerate(view.players):
            marker = "▶ " if p.seat == view.active_seat and view.result is None else ""
            name = t(locale, f"{GAME}.ui.player", who=names(p.seat), won=len(p.won))
            embed.add_field(name=clip(marker + name, 256), value=self._player_block(view, i, p, locale),
                            inline=True)
        if view.result is not None:
            embed.add_field(name=t(locale, f"{GAME}.ui.result"), value=self._result(view, locale, names),
                            inline=False)
        return embed

    def _result(self, view: CocView, locale: str, names: Names) -> str:
        r = view.result
        assert r is not None
        reason = t(locale, f"{GAME}.reason.{r.reason}")
        scores = " · ".join(f"{names(s)}: {n}" for s, n in r.scores.items())
        if r.winners:
            return t(locale, f"{GAME}.ui.winner", who=names(r.winners[0]), reason=reason) + "\n" + scores
        return t(locale, f"{GAME}.ui.draw", reason=reason) + "\n" + scores

    # ------------------------------------------------------------------ private view
    def _hand_line(self, cid: str, locale: str, view: CocView | None = None) -> str:
        return _hand_line(cid, copy_tag(cid, view), locale)

    def _hand(self, cards: list[str], locale: str, view: CocView) -> list[str]:
        tags = _twin_tags(view)  # as ``copy_tag`` reads them (an id without a copy number is tagged "" there)
        return list(_hand_pages(tuple(cards), tuple([tags.get(c, "") for c in cards]), locale))

    def _story_effects(self, view: CocView, locale: str) -> str:
        effects = story_effects(locale_of(locale))
        lines = [f"📜 **{card_name(s, locale)}**: {effects[card_of(s)]}" for s in view.stories if card_of(s) in effects]
        return clip("\n".join(lines), FIELD)

    def private_embed(self, view: CocView, locale: str, names: Names) -> discord.Embed:
        me_i = next(i for i, p in enumerate(view.players) if p.seat == view.viewer)
        me = view.players[me_i]
        embed = discord.Embed(title=t(locale, f"{GAME}.ui.private_title", turn=view.turn),
                              colour=discord.Colour.teal())
        hand = me.hand or []
        pages = self._hand(hand, locale, view)
        embed.add_field(name=t(locale, f"{GAME}.ui.your_hand", count=len(hand)) + " · " + t(locale, f"{GAME}.ui.icons"),
                        value=pages[0], inline=False)
        for page in pages[1:]:
            embed.add_field(name=t(locale, f"{GAME}.ui.your_hand_more"), value=page, inline=False)
        if me.picks:
            embed.add_field(name=t(locale, f"{GAME}.ui.your_picks"), value=card_names(me.picks, locale), inline=False)
        if me.plan:
            plan = "\n".join(f"{card_name(c, locale)} → {card_name(s, locale)}" for c, s in me.plan.items())
            embed.add_field(name=t(locale, f"{GAME}.ui.your_plan"), value=clip(plan, FIELD), inline=False)
        if me.peek:
            embed.add_field(name=t(locale, f"{GAME}.ui.your_peek"), value=clip(card_names(me.peek, locale), FIELD),
                            inline=False)
        embed.add_field(name=t(locale, f"{GAME}.ui.stories"), value=self._stories_block(view, locale, names),
                        inline=False)
        mine = my_prompt(view)
        if mine is not None and self._about_stories(mine):
            effects = self._story_effects(view, locale)
            if effects:
                embed.add_field(name=t(locale, f"{GAME}.ui.story_effects"), value=effects, inline=False)
        for i, p in enumerate(view.players):
            name = t(locale, f"{GAME}.ui.player", who=names(p.seat), won=len(p.won))
            embed.add_field(name=clip(name, 256), value=self._player_block(view, i, p, locale), inline=True)
        while len(embed) > EMBED_BUDGET and len(embed.fields) > 1:
            embed.remove_field(len(embed.fields) - 1)
        if mine is not None:
            embed.description = "**" + self.prompt_text(mine, locale, names) + "**"
        elif view.result is None and view.pending:
            embed.description = t(locale, f"{GAME}.ui.waiting", who=names(view.pending[0].seat),
                                  what=t(locale, f"{GAME}.kind.{view.pending[0].kind}"))
        else:
            embed.description = self._status(view, locale, names)
        return embed

    @staticmethod
    def _about_stories(prompt: Prompt) -> bool:
        """Decisions where what each story does when won matters: committing, and the story picks."""
        pick = prompt.params.get("pick") or {}
        step = str(prompt.params.get("step") or "")
        return (prompt.kind == "commit" or pick.get("verb") in ("story_effect", "resolve", "token")
                or (prompt.kind == "window" and step.startswith("story")))

    def personal(self, view: CocView) -> Hashable:
        me = next(p for p in view.players if p.seat == view.viewer)
        return (tuple(me.hand or ()), tuple(me.picks or ()), tuple(sorted((me.plan or {}).items())),
                tuple(me.peek or ()))

    # ------------------------------------------------------------------ actions
    def action_group(self, action: BaseModel) -> str:
        return GROUPS.get(str(getattr(action, "type", "")), "cmd")

    def _domain(self, view: CocView, d: int | None, locale: str) -> str:
        if d is None:
            return t(locale, f"{GAME}.act.free")
        me = next((p for p in view.players if p.seat == view.viewer), None)
        resources = me.domains[d].resources if me is not None and d < len(me.domains) else []
        size = sum(res_value(r) for r in resources)  # what the domain pays, by the engine's own count
        return t(locale, f"{GAME}.act.drain", n=d + 1, size=size)

    def action_label(self, action: BaseModel, view: Any, locale: str, names: Names) -> str:
        a: Any = action
        prompt = my_prompt(view)
        kind = prompt.kind if prompt is not None else ""
        if a.type == "pass":
            return t(locale, f"{GAME}.act.pass_{kind}" if kind in ("react", "resource") else f"{GAME}.act.pass")
        if a.type == "setup_resource":
            return t(locale, f"{GAME}.act.setup_resource", card=card_name(a.card, locale) + copy_tag(a.card, view))
        if a.type == "attach_resource":
            return t(locale, f"{GAME}.act.attach_resource", card=card_name(a.card, locale) + copy_tag(a.card, view),
                     n=a.domain + 1)
        if a.type == "play":
            card = catalog().get(card_of(a.card))
            cost = "X" if card is not None and card.x_cost else (card.cost if card is not None else "?")
            return t(locale, f"{GAME}.act.play", card=card_name(a.card, locale) + copy_tag(a.card, view), cost=cost,
                     pay=self._domain(view, a.domain, locale))
        if a.type == "use":
            key = f"{GAME}.act.use_paid" if a.domain is not None else f"{GAME}.act.use"
            return t(locale, key, card=card_name(a.card, locale) + copy_tag(a.card, view),
                     ability=ability_word(a.card, a.ability, locale, view), pay=self._domain(view, a.domain, locale))
        if a.type == "commit":
            stats = char_stats(a.card, view.current.get(a.card), locale)
            icons = "".join(ICON_MARK[ICONS[i]] * n for i, n in enumerate(view.struggles.get(a.story, [])))
            return t(locale, f"{GAME}.act.commit", card=card_name(a.card, locale) + copy_tag(a.card, view)
                     + (f" [{stats}]" if stats else ""),
                     story=card_name(a.story, locale) + (f" [{icons}]" if icons else ""))
        if a.type == "commit_done":
            return t(locale, f"{GAME}.act.commit_done")
        if a.type == "withdraw":
            return t(locale, f"{GAME}.act.withdraw", card=card_name(a.card, locale) + copy_tag(a.card, view))
        if a.type == "choose":
            q = self._q(prompt)
            pick = (prompt.params.get("pick") or {}) if prompt is not None else {}
            verb = pick.get("verb")
            option = option_label(a.option, locale, names, view, q)
            if a.option != "none" and verb in ("token", "ready"):
                if verb == "token" and pick.get("q") == "success":
                    verb = "token_success"
                return t(locale, f"{GAME}.act.{verb}", option=option)
            return t(locale, f"{GAME}.act.choose", option=option)
        return a.type

    @staticmethod
    def _q(prompt: Prompt | None) -> str:
        if prompt is None or prompt.kind != "choose":
            return ""
        params = prompt.params.get("pick") or prompt.params
        return str(params.get("q") or "")

    # ------------------------------------------------------------------ prompts
    def prompt_text(self, prompt: Prompt, locale: str, names: Names) -> str:
        k, prm = prompt.kind, prompt.params
        if k == "setup":
            return t(locale, f"{GAME}.prompt.setup", count=3)
        if k == "window":
            return t(locale, f"{GAME}.prompt.window", step=t(locale, f"{GAME}.step.{prm.get('step', '')}"))
        if k == "react":
            ev = prm.get("ev") or {}
            kind = ev.get("kind")
            ability = t(locale, f"{GAME}.ability.{kind}") if isinstance(kind, str) and messages().has(
                "en", f"{GAME}.ability.{kind}") else t(locale, f"{GAME}.ability.effect")
            what = t(locale, f"{GAME}.trigger.{ev.get('on', '')}", card=card_name(ev.get("card"), locale),
                     story=card_name(ev.get("story"), locale),
                     icon=icon_name(ev.get("icon"), locale), ability=ability)
            targets = [x for x in ev.get("targets") or [] if isinstance(x, str) and card_of(x) in catalog()]
            if ev.get("on") == "initiated" and targets:
                what += t(locale, f"{GAME}.trigger.targets", cards=card_names(targets, locale))
            return t(locale, f"{GAME}.prompt.{prm.get('kind', 'response')}", what=what)
        if k == "choose":
            pick = prm.get("pick")
            if pick is not None:
                verb = pick.get("verb")
                story = pick.get("story") or (pick.get("options") or [None])[0]
                if verb == "token" and pick.get("q") == "success":
                    verb = "token_success"  # CoC-R81/R82: the tokens of a successful skill check
                return t(locale, f"{GAME}.pick.{verb}", story=card_name(story, locale),
                         card=card_name(pick.get("card"), locale),
                         icon=t(locale, f"{GAME}.word.{pick.get('q')}") if pick.get("q") in ICON_MARK else "—")
            q = str(prm.get("q") or "target")
            card = card_name(prm.get("why"), locale)
            if q.startswith("frozen:"):
                return t(locale, f"{GAME}.q.frozen", card=card, target=card_name(q.removeprefix("frozen:"), locale))
            key = f"{GAME}.q.{q}"
            if not messages().has("en", key):
                key = f"{GAME}.q.target"
            return t(locale, key, card=card)
        return t(locale, f"{GAME}.prompt.{k}")

    def rule_error_params(self, params: dict[str, Any], locale: str, names: Names) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in params.items():
            if k == "domain" and isinstance(v, int):
                out[k] = v + 1
            elif k == "factions" and isinstance(v, list):
                out[k] = " + ".join(faction_name(f, locale) if f in FACTION_IDS else str(f) for f in v)
            elif k == "seats" and isinstance(v, list):
                out[k] = ", ".join(names(s) for s in v)
            elif k == "title" and isinstance(v, str):
                card = next((c for c in catalog().values() if c.name_en == v), None)
                out[k] = card_name(card.id, locale) if card is not None else v
            else:
                out[k] = label(v, locale, names)
        return out

    # ------------------------------------------------------------------ events
    def event_text(self, event: Event, locale: str, names: Names) -> str | None:
        e: Any = event
        if e.type == "passed":
            return None  # every window closes with passes; the log keeps what changed the table
        data = {k: v for k, v in e.model_dump().items() if k not in ("type", "audience")}
        params: dict[str, Any] = {}
        for k, v in data.items():
            if k in ("seat", "winner"):
                params[k] = names(v) if v else "—"
            elif k == "domain":
                params[k] = "—" if v is None else v + 1
            elif k == "ability":
                params[k] = ability_word(str(data.get("card") or ""), v, locale)
            elif k == "phase":
                params[k] = t(locale, f"{GAME}.phase.{v}")
            elif k == "icon":
                params[k] = word(v, locale)
            elif k == "reason":
                params[k] = t(locale, f"{GAME}.reason.{v}")
            elif k == "how":
                params[k] = t(locale, f"{GAME}.how.{v}")
            elif k == "totals":
                params[k] = "–".join(str(x) for x in v)
            elif k == "cards" and isinstance(v, dict):
                params[k] = "; ".join(f"{card_name(c, locale)} → {card_name(s, locale)}" for c, s in v.items()) or "—"
            elif k in ("resources", "cards") and isinstance(v, list):
                params[k] = card_names(v, locale)
            else:
                params[k] = label(v, locale, names)
        key = f"{GAME}.ev.{e.type}"
        if e.type == "played" and e.domain is None:
            key += "_free"
        elif e.type == "entered_play" and e.host:
            key += "_on"
        elif e.type == "entered_play" and e.insane:
            key += "_insane"
        elif e.type == "struggle" and e.winner is None:
            if not any(e.totals):
                return None  # nobody had the icon: four of these per story would push real moves out of the log
            key += "_tied"
        elif e.type == "skill_check":
            key += "_unchallenged" if e.unchallenged else ("_success" if e.success else "_fail")
        elif e.type == "game_over" and e.winner is None:
            key += "_draw"
        elif e.type == "cancelled" and not e.by:
            key += "_anon"
        return t(locale, key, **params)

    def announcements(self, events: list[Event], locale: str, names: Names) -> list[str]:
        out = []
        for e in events:
            g: Any = e
            if g.type == "game_over":
                reason = t(locale, f"{GAME}.reason.{g.reason}")
                if g.winner:
                    out.append(t(locale, f"{GAME}.ann.winner", who=names.mention(g.winner), reason=reason))
                else:
                    out.append(t(locale, f"{GAME}.ann.draw", reason=reason))
            elif g.type == "story_won":
                out.append(t(locale, f"{GAME}.ann.story_won", who=names(g.seat), story=card_name(g.story, locale)))
        return out

    def option_text(self, name: str, value: Any, locale: str) -> str | None:
        """A lobby option's value in words, for the machinery's options list (see the module docstring of
        ``rules.coc_lcg.decklist``: decks are stored as short text); None leaves the default wording."""
        if name not in ("deck1", "deck2") or not isinstance(value, str):
            return None
        from rules.coc_lcg.options import DeckChoice

        try:
            return deck_text(DeckChoice.model_validate(value), locale)
        except RuleError:
            return None

    def start_notice(self, options: BaseModel, locale: str) -> str | None:
        opts: Any = options
        return t(locale, f"{GAME}.notice.decks", deck1=deck_text(opts.deck1, locale),
                 deck2=deck_text(opts.deck2, locale))


def deck_text(choice: Any, locale: str) -> str:
    """A seat's deck in words: the pairing and packet, or the size of a custom list."""
    if choice.cards is not None:
        return t(locale, f"{GAME}.ui.custom_deck", count=len(choice.cards))
    factions = " + ".join(faction_name(f, locale) for f in choice.factions or ())
    return t(locale, f"{GAME}.ui.quick_deck", factions=factions or "—", packet=choice.packet or "—")


UI = CocUI()


# ---------------------------------------------------------------------- lobby: deck choice
def pairing_choices() -> list[app_commands.Choice[str]]:
    names = {f: faction_name(f, "en") for f in FACTION_IDS}
    out = []
    for q in quick_choices():
        a, b = q.split("+")
        out.append(app_commands.Choice(name=_(f"{names[a]} + {names[b]}", key=f"coc.pair.{q}"), value=q))
    return out


def own_seat(rec: Any, user_id: int, seat: int | None) -> int:
    """The seat (1 or 2) a deck command is about: the one given, else the caller's own."""
    if seat is not None:
        return seat
    if user_id not in rec.seats:
        raise SessionError("not_seated")
    return rec.seats.index(user_id) + 1


async def set_deck(interaction: discord.Interaction, seat: int | None, text: str) -> None:
    """Store a seat's deck in this channel's lobby and redraw it: each player sets their own seat's deck,
    the host any seat's."""
    bot: GameBot = interaction.client  # type: ignore[assignment]
    loc = locale_of(interaction.locale)
    rec = await active_session(interaction)
    if rec.game_id != GAME:
        raise SessionError("wrong_game", game=bot.sessions.spec(GAME).name(loc))
    seat = own_seat(rec, interaction.user.id, seat)
    field = f"deck{seat}"
    try:
        rec = await bot.sessions.set_options(rec.id, interaction.user.id, {field: text}, own_seat=seat - 1)
    except RuleError as exc:
        params = UI.rule_error_params(dict(exc.params), loc, Names.of(rec, await bot.sessions.ai_seats(rec.id), loc))
        await reply(interaction, t(loc, f"rule.{exc.code}", **params))
        return
    spec_opts: Any = bot.sessions.spec(GAME).parse_options(rec.options)
    choice = getattr(spec_opts, field)
    extra = {"embed": deck_embed(choice, loc)} if choice.cards is not None else {}
    await reply(interaction, t(loc, f"{GAME}.deck.set", seat=seat, deck=deck_text(choice, loc)), **extra)
    await refresh_lobby(bot, rec)


def deck_embed(choice: Any, locale: str) -> discord.Embed:
    from rules.coc_lcg.decklist import summary

    lines = [f"{k}× {name}" for k, name in summary(choice.cards, locale_of(locale) == "ru")]
    embed = discord.Embed(title=t(locale, f"{GAME}.ui.custom_deck", count=len(choice.cards)),
                          colour=discord.Colour.teal())
    embed.description = clip("\n".join(lines), 4000)
    return embed


def discard_embed(view: CocView, locale: str, names: Names) -> discord.Embed:
    """Both discard piles in full, newest card first: they are public (the reference's bot ruling), and the
    table has room for only their tops."""
    embed = discord.Embed(title=t(locale, f"{GAME}.ui.discard_title"), colour=discord.Colour.teal())
    for p in view.players:
        cards = "\n".join(f"{k}. {card_name(c, locale)}" for k, c in enumerate(reversed(p.discard), 1))
        embed.add_field(name=clip(t(locale, f"{GAME}.ui.discard_pile", who=names(p.seat), count=len(p.discard)), 256),
                        value=clip(cards or "—", FIELD), inline=True)
    return embed


async def show_discards(interaction: discord.Interaction) -> None:
    bot: GameBot = interaction.client  # type: ignore[assignment]
    loc = locale_of(interaction.locale)
    rec = await active_session(interaction)
    if rec.game_id != GAME:
        raise SessionError("wrong_game", game=bot.sessions.spec(GAME).name(loc))
    rec, spec, state = await bot.sessions.load(rec.id)
    if state is None:
        raise SessionError("not_running")
    view: Any = spec.engine.view(state, None)
    names = Names.of(rec, await bot.sessions.ai_seats(rec.id), loc)
    await interaction.response.send_message(embed=discard_embed(view, loc, names), ephemeral=True)


class DeckListModal(discord.ui.Modal):
    def __init__(self, seat: int, locale: str) -> None:
        super().__init__(title=clip(t(locale, f"{GAME}.deck.modal_title", seat=seat), 45),
                         custom_id=f"coc-deck:{seat}")
        self.seat = seat
        self.text: discord.ui.TextInput[DeckListModal] = discord.ui.TextInput(
            label=clip(t(locale, f"{GAME}.deck.modal_label"), 45), style=discord.TextStyle.paragraph,
            custom_id="cards", placeholder=clip(t(locale, f"{GAME}.deck.modal_placeholder"), 100),
            max_length=4000, required=True)
        self.add_item(self.text)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: set_deck(interaction, self.seat, self.text.value))


class CocCommands(commands.Cog):
    coc = app_commands.Group(
        name=_("coc", key="coc"),
        description=_("Call of Cthulhu LCG: decks in the lobby, discard piles in play", key="coc.desc"),
        guild_only=True,
    )

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @coc.command(name=_("deck", key="coc.deck"),
                 description=_("Choose your quick-start deck: two factions and a neutral packet", key="coc.deck.desc"))
    @app_commands.describe(seat=_("Which seat (1 or 2); your own when left out (the host may set any)",
                                  key="coc.deck.seat"),
                           pairing=_("Two factions", key="coc.deck.pairing"),
                           packet=_("Neutral packet A or B", key="coc.deck.packet"))
    @app_commands.rename(seat=_("seat", key="coc.deck.seat.name"), pairing=_("pairing", key="coc.deck.pairing.name"),
                         packet=_("packet", key="coc.deck.packet.name"))
    @app_commands.choices(pairing=pairing_choices(),
                          packet=[app_commands.Choice(name="A", value="A"), app_commands.Choice(name="B", value="B")])
    async def deck(self, interaction: discord.Interaction, pairing: str, packet: str,
                   seat: app_commands.Range[int, 1, 2] | None = None) -> None:
        await guarded(interaction, lambda: set_deck(interaction, seat, f"{pairing}/{packet}"))

    @coc.command(name=_("decklist", key="coc.decklist"),
                 description=_("Paste your own deck list (at least 50 cards)", key="coc.decklist.desc"))
    @app_commands.describe(seat=_("Which seat (1 or 2); your own when left out (the host may set any)",
                                  key="coc.decklist.seat"))
    @app_commands.rename(seat=_("seat", key="coc.decklist.seat.name"))
    async def decklist(self, interaction: discord.Interaction,
                       seat: app_commands.Range[int, 1, 2] | None = None) -> None:
        async def work() -> None:
            rec = await active_session(interaction)
            if rec.game_id != GAME or rec.status != "lobby":
                raise SessionError("not_lobby" if rec.game_id == GAME else "wrong_game",
                                   game=self.bot.sessions.spec(GAME).name(locale_of(interaction.locale)))
            chosen = own_seat(rec, interaction.user.id, seat)
            if interaction.user.id != rec.host_id and rec.seats[chosen - 1:chosen] != [interaction.user.id]:
                raise SessionError("host_only")
            await interaction.response.send_modal(DeckListModal(chosen, locale_of(interaction.locale)))

        await guarded(interaction, work)

    @coc.command(name=_("discard", key="coc.discard"),
                 description=_("Show both discard piles of this channel's game in full", key="coc.discard.desc"))
    async def discard(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, lambda: show_discards(interaction))


async def setup(bot: GameBot) -> None:
    register_ui(UI)
    await bot.add_cog(CocCommands(bot))
