"""Call of Cthulhu: The Card Game (FFG LCG, 2008 Core Set) for two players.

Registered: the registry treats a package exporting ``SPEC`` as a game (the spec itself lives in
``rules.coc_lcg.spec``); its Discord table is ``cogs/coc_lcg.py``.

Layout: ``cards`` (typed card data from ``data/cards.json``), ``options`` (deck choices), ``decklist``
(deck choices written as text: a faction pairing or a pasted card list), ``state``, ``actions``,
``engine`` (the contract: new_game / pending / legal_actions / apply / view / result), ``flow`` (the task
runner: turn sequence, windows, story phase, effects), ``reactions`` (who may answer a trigger, the effect
tasks answers start), ``playing`` (what may be played or used now, and paying for it), ``table`` (stats
under modifiers, costs, wounds, insanity, tokens, zones),
``effects`` (the effect vocabulary), ``script`` (the ability model and the ``SCRIPTS`` registry) and
``scripts/`` (every card's script, one module per faction plus stories and neutrals).
"""

from rules.coc_lcg.spec import SPEC

__all__ = ["SPEC"]
