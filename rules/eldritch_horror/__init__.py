"""Eldritch Horror («Древний ужас»): co-operative, 1-8 investigators against one of four Ancient Ones.

Work in progress: the GameSpec lives in ``rules.eldritch_horror.spec`` and is deliberately not exported here,
so the registry does not offer the game yet (reference/sections.yaml lists what is missing).

Where things are:

- ``data/*.json`` + ``data.py``: the board (36 spaces, 58 typed routes), investigators, Ancient Ones, monsters,
  mythos, encounters, items and (house-designed) mysteries, validated at import. ``cards.json`` feeds /card.
- ``machine.py``: the effect interpreter. Every card, sheet and phase step is a list of ops run from frames in
  the state; an op needing an answer pushes a Decision whose options are plain keys.
- ops by topic: ``world.py`` (doom, omen, gates, monsters, clues), ``people.py`` (investigators, possessions,
  conditions, defeat), ``dice.py`` (tests and rerolls), ``combat.py``, ``effects.py`` (choices, cards, map),
  ``progress.py`` (mysteries, rumors, winning), ``mythos.py`` (Mythos phase, reckoning, end of round),
  ``phases.py`` (Action and Encounter phases).
- ``setup.py`` (new game), ``engine.py`` (the Engine contract), ``views.py`` (what the table sees).
"""
