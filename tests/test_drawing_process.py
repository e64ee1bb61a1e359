"""Table pictures are drawn in a process of their own after a move (the event loop's GIL stays free):
the view and names travel there by pickling and the picture comes back as PNG bytes."""

from __future__ import annotations

from rules import registry

from cogs.games.ui import Names


def test_a_map_is_drawn_in_the_drawing_process_as_in_this_one() -> None:
    # Imported here, not at the top: bots unloading their extensions in earlier tests drop cogs.games from
    # sys.modules, and a function is pickled by its module's current name.
    from cogs.games.common import draw_table, drawing_pool

    spec = registry.get("cthulhu_wars_duel")
    state = spec.engine.new_game(["1", "2"], spec.options_model(), 3)
    public = spec.engine.view(state, None)
    names = Names({"1": "Ann", "2": "Bob"})
    pool = drawing_pool(1)
    far = pool.submit(draw_table, spec.id, public, "ru", names).result(timeout=120)
    near = draw_table(spec.id, public, "ru", names)
    assert far is not None and far.startswith(b"\x89PNG") and far == near
