"""Eldritch Horror («Древний ужас»): co-operative, 1-8 investigators against one of four Ancient Ones.

Where things are:

- ``data/*.json`` + ``data.py``: the board (36 spaces, 58 typed routes), investigators, Ancient Ones, monsters,
  mythos, encounters, items and the 16 core mysteries, validated at import. ``cards.json`` feeds /card;
  ``layout.json`` places the spaces on the table picture (cogs/eldritch_horror/map.py) and names them in ru/en.
- ``machine.py``: the effect interpreter. Every card, sheet and phase step is a list of ops run from frames in
  the state; an op needing an answer pushes a Decision whose options are plain keys.
- ops by topic: ``world.py`` (doom, omen, gates, monsters, clues), ``people.py`` (investigators, possessions,
  conditions, defeat), ``dice.py`` (tests and rerolls), ``combat.py``, ``effects.py`` (choices, cards, map),
  ``progress.py`` (mysteries, rumors, winning), ``tokens.py`` (Eldritch tokens and what mysteries bank),
  ``mythos.py`` (Mythos phase, reckoning, end of round), ``phases.py`` (Action and Encounter phases).
- ``setup.py`` (new game), ``engine.py`` (the Engine contract), ``views.py`` (what the table sees),
  ``spec.py`` (the GameSpec the registry finds here).
"""

from rules.eldritch_horror.spec import SPEC

__all__ = ["SPEC"]
