"""Everything a person reads comes from these catalogs, in Russian or English."""

from bot.i18n.catalog import Catalog, catalog, commands_in, locale_of, t, t_cached

__all__ = ["Catalog", "catalog", "commands_in", "locale_of", "t", "t_cached"]
