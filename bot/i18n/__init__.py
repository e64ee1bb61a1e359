"""Everything a person reads comes from these catalogs, in Russian or English."""

from bot.i18n.catalog import Catalog, catalog, locale_of, t
from bot.i18n.translator import CatalogTranslator

__all__ = ["Catalog", "CatalogTranslator", "catalog", "locale_of", "t"]
