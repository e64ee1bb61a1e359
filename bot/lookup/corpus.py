"""The rules-reference corpus: ``rules/<game>/reference/sections.yaml`` and ``rules/<game>/data/cards.json``.

The models follow the shared corpus brief exactly; extra fields on cards (engine facts, confidence
marks) and on the files are kept, not rejected. ``load_corpus`` finds every game that has either file
under the project root (resolved from this package, never from the working directory).
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, model_validator

log = logging.getLogger(__name__)

PROJECT_ROOT = Path(__file__).resolve().parents[2]
RULES_DIR = PROJECT_ROOT / "rules"
SECTIONS_PATH = Path("reference") / "sections.yaml"
CARDS_PATH = Path("data") / "cards.json"
GLOSSARY_PATH = Path("glossary.yaml")

NonEmpty = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
SectionId = Annotated[str, StringConstraints(pattern=r"^[a-z0-9_]+$")]


class CorpusError(ValueError):
    """A corpus file that is missing required data or breaks a rule of the brief."""


# --------------------------------------------------------------------------- sections.yaml


class SectionText(BaseModel):
    """One language's version of a section."""

    model_config = ConfigDict(extra="forbid")

    title: NonEmpty
    keywords: list[NonEmpty] = Field(default_factory=list)
    text: NonEmpty


class Section(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: SectionId
    rules: list[NonEmpty] = Field(default_factory=list)
    en: SectionText
    ru: SectionText

    def lang(self, lang: str) -> SectionText:
        return self.ru if lang == "ru" else self.en


class GameNames(BaseModel):
    model_config = ConfigDict(extra="allow")

    en: NonEmpty | None = None
    ru: NonEmpty | None = None
    # Single words players use for the game itself ("fluxx", «флакс»): every /rules question is about
    # the game, so the search reads them as saying nothing about the topic.
    also: list[NonEmpty] = Field(default_factory=list)


class SectionsFile(BaseModel):
    model_config = ConfigDict(extra="allow")

    game: NonEmpty
    names: GameNames | None = None
    sections: list[Section] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_ids(self) -> SectionsFile:
        dupes = sorted(sid for sid, n in Counter(s.id for s in self.sections).items() if n > 1)
        if dupes:
            raise ValueError(f"duplicate section ids: {dupes}")
        return self


# --------------------------------------------------------------------------- cards.json


class LocalText(BaseModel):
    model_config = ConfigDict(extra="allow")

    en: NonEmpty
    ru: NonEmpty

    def get(self, lang: str) -> str:
        return self.ru if lang == "ru" else self.en


StatValue = int | float | str


class Card(BaseModel):
    model_config = ConfigDict(extra="allow")

    id: NonEmpty
    type: NonEmpty
    name: LocalText
    text: LocalText
    stats: dict[str, StatValue] = Field(default_factory=dict)
    aliases: list[str] = Field(default_factory=list)

    @property
    def extra(self) -> dict[str, Any]:
        """Engine facts and other fields beyond the required ones."""
        return dict(self.model_extra or {})


class CardsFile(BaseModel):
    model_config = ConfigDict(extra="allow")

    game: NonEmpty
    types: dict[str, LocalText] = Field(min_length=1)
    stat_labels: dict[str, LocalText] = Field(default_factory=dict)
    cards: list[Card] = Field(min_length=1)

    @model_validator(mode="after")
    def _consistent(self) -> CardsFile:
        problems: list[str] = []
        seen: set[str] = set()
        for card in self.cards:
            if card.id in seen:
                problems.append(f"duplicate card id {card.id!r}")
            seen.add(card.id)
            if card.type not in self.types:
                problems.append(f"card {card.id!r}: type {card.type!r} not in types")
            unknown = sorted(set(card.stats) - set(self.stat_labels))
            if unknown:
                problems.append(f"card {card.id!r}: stats {unknown} not in stat_labels")
        if problems:
            shown = problems[:20] + ([f"... and {len(problems) - 20} more"] if len(problems) > 20 else [])
            raise ValueError("; ".join(shown))
        return self


# --------------------------------------------------------------------------- loading


class GlossaryTerm(BaseModel):
    """One game term: its one name per language, the synonyms texts must avoid, and the words players
    use for it (``also``), which the search reads as the term."""

    model_config = ConfigDict(extra="forbid")

    en: NonEmpty
    ru: NonEmpty
    avoid: dict[str, list[NonEmpty]] = Field(default_factory=dict)
    also: dict[str, list[NonEmpty]] = Field(default_factory=dict)


class GlossaryFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: NonEmpty
    terms: dict[str, GlossaryTerm]


@dataclass(frozen=True)
class GameCorpus:
    game: str
    sections: SectionsFile | None = None
    cards: CardsFile | None = None
    glossary: GlossaryFile | None = None

    def display_name(self, lang: str) -> str:
        names = self.sections.names if self.sections else None
        if names is not None:
            name = getattr(names, lang, None) or names.en or names.ru
            if name:
                return name
        return self.game


@dataclass(frozen=True)
class Corpus:
    games: dict[str, GameCorpus]
    errors: tuple[str, ...] = field(default=())  # files skipped by a non-strict load

    def __contains__(self, game: str) -> bool:
        return game in self.games


def load_sections(path: Path, game: str | None = None) -> SectionsFile:
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
        model = SectionsFile.model_validate(raw)
    except (OSError, yaml.YAMLError, ValidationError) as exc:
        raise CorpusError(f"{path}: {exc}") from exc
    if game is not None and model.game != game:
        raise CorpusError(f"{path}: game {model.game!r} does not match its folder {game!r}")
    return model


def load_cards(path: Path, game: str | None = None) -> CardsFile:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        model = CardsFile.model_validate(raw)
    except (OSError, json.JSONDecodeError, ValidationError) as exc:
        raise CorpusError(f"{path}: {exc}") from exc
    if game is not None and model.game != game:
        raise CorpusError(f"{path}: game {model.game!r} does not match its folder {game!r}")
    return model


def load_glossary(path: Path, game: str | None = None) -> GlossaryFile:
    try:
        model = GlossaryFile.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
    except (OSError, yaml.YAMLError, ValidationError) as exc:
        raise CorpusError(f"{path}: {exc}") from exc
    if game is not None and model.game != game:
        raise CorpusError(f"{path}: game {model.game!r} does not match its folder {game!r}")
    return model


def corpus_files(root: Path | None = None) -> dict[str, dict[str, Path]]:
    """``{game: {"sections": path, "cards": path, "glossary": path}}`` for every game with at least one
    of the files."""
    rules_dir = (root or PROJECT_ROOT) / "rules"
    found: dict[str, dict[str, Path]] = {}
    for kind, rel in (("sections", SECTIONS_PATH), ("cards", CARDS_PATH), ("glossary", GLOSSARY_PATH)):
        for path in sorted(rules_dir.glob(f"*/{rel.as_posix()}")):
            game = path.relative_to(rules_dir).parts[0]
            found.setdefault(game, {})[kind] = path
    return dict(sorted(found.items()))


def load_corpus(root: Path | None = None, *, strict: bool = True) -> Corpus:
    """Every game's corpus under ``root`` (default: the project).

    ``strict`` raises ``CorpusError`` on the first invalid file; otherwise the bad file is logged,
    recorded in ``Corpus.errors`` and skipped, and the rest of the corpus still loads.
    """
    games: dict[str, GameCorpus] = {}
    errors: list[str] = []
    for game, paths in corpus_files(root).items():
        sections = cards = glossary = None
        if "sections" in paths:
            try:
                sections = load_sections(paths["sections"], game)
            except CorpusError as exc:
                if strict:
                    raise
                log.error("skipping %s", exc)
                errors.append(str(exc))
        if "cards" in paths:
            try:
                cards = load_cards(paths["cards"], game)
            except CorpusError as exc:
                if strict:
                    raise
                log.error("skipping %s", exc)
                errors.append(str(exc))
        if "glossary" in paths:
            try:
                glossary = load_glossary(paths["glossary"], game)
            except CorpusError as exc:
                if strict:
                    raise
                log.error("skipping %s", exc)
                errors.append(str(exc))
        if sections is not None or cards is not None:
            games[game] = GameCorpus(game, sections, cards, glossary)
    return Corpus(games, tuple(errors))


__all__ = [
    "CARDS_PATH",
    "PROJECT_ROOT",
    "SECTIONS_PATH",
    "Card",
    "CardsFile",
    "Corpus",
    "CorpusError",
    "GameCorpus",
    "GameNames",
    "GlossaryFile",
    "GlossaryTerm",
    "LocalText",
    "Section",
    "SectionText",
    "SectionsFile",
    "load_cards",
    "load_corpus",
    "load_glossary",
    "load_sections",
]
