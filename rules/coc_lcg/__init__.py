"""Call of Cthulhu: The Card Game (FFG LCG, 2008 Core Set) for two players.

Not registered yet: the spec lives in ``rules.coc_lcg.spec`` (import it from there) until the game is
declared complete; the registry treats any package exporting ``SPEC`` as playable.

Layout: ``cards`` (typed card data from ``data/cards.json``), ``options`` (deck choices), ``state``,
``actions``, ``engine`` (the contract: new_game / pending / legal_actions / apply / view / result),
``flow`` (the task runner: turn sequence, windows, story phase, reactions, effects), ``playing`` (what
may be played or used now, and paying for it), ``table`` (stats under modifiers, costs, wounds, insanity,
tokens, zones), ``effects`` (the effect vocabulary), ``script`` (the ability model and the ``SCRIPTS``
registry) and ``scripts/`` (every card's script, one module per faction plus stories and neutrals).
"""
