"""Everything a person reads comes from these catalogs, in Russian or English."""

from bot.i18n.catalog import Catalog, catalog, commands_in, locale_of, t
from bot.i18n.translator import CatalogTranslator

__all__ = ["Catalog", "CatalogTranslator", "catalog", "commands_in", "locale_of", "t"]
