"""The fake's two schema validators must agree on every body.

``OpenAPISpec.check`` lets jsonschema-rs decide whether a body is valid and asks Python's jsonschema
only to explain a rejection. That is as strict as validating with jsonschema alone only if both read
Discord's schema the same way, so these tests take bodies shaped like the bot's (messages with embeds,
buttons and selects, interaction callbacks, a modal, autocomplete choices, a command sync), break them
at random places in the ways Discord's limits are usually broken, and require the same verdict.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import discord
import jsonschema_rs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .fake_discord import OpenAPISpec, _BodyValidator

CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"
CREATE = "/channels/{channel_id}/messages"
EDIT = "/channels/{channel_id}/messages/{message_id}"
FOLLOWUP = "/webhooks/{webhook_id}/{webhook_token}"
SYNC = "/applications/{application_id}/commands"


def _view() -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(label="Play", style=discord.ButtonStyle.success, custom_id="g:1:play",
                                    emoji="\N{GAME DIE}"))
    view.add_item(discord.ui.Button(label="Rules", style=discord.ButtonStyle.link, url="https://example.org/rules"))
    view.add_item(discord.ui.Select(custom_id="g:1:pick", placeholder="Pick a card", min_values=1, max_values=2,
                                    options=[discord.SelectOption(label=f"Card {i}", value=f"c{i}",
                                                                  description="a card") for i in range(5)]))
    view.add_item(discord.ui.UserSelect(custom_id="g:1:invite", max_values=3))
    return view


def _message() -> dict[str, Any]:
    embed = discord.Embed(title="Turn 3", description="Alice to move", colour=0x3366FF)
    embed.add_field(name="Score", value="12 - 9", inline=True)
    embed.add_field(name="Deck", value="31 cards", inline=True)
    embed.set_footer(text="version 7")
    embed.set_image(url="attachment://board.png")
    return {"content": "Your turn, <@1>", "embeds": [embed.to_dict()], "components": _view().to_components(),
            "allowed_mentions": {"parse": [], "users": ["1"]}}


def _modal() -> dict[str, Any]:
    modal = discord.ui.Modal(title="Deck list", custom_id="deck:modal")
    modal.add_item(discord.ui.TextInput(label="Cards", custom_id="deck:text", style=discord.TextStyle.paragraph,
                                        max_length=4000, required=True))
    return modal.to_dict()


def _command() -> dict[str, Any]:
    return {"name": "game", "description": "Play a game", "type": 1,
            "name_localizations": {"ru": "игра"}, "description_localizations": {"ru": "Сыграть"},
            "options": [{"type": 1, "name": "new", "description": "Start a table", "options": [
                {"type": 3, "name": "game", "description": "Which game", "required": True,
                 "choices": [{"name": "Call to Glory", "value": "call_to_glory"}, {"name": "Fluxx", "value": "fluxx"}]},
                {"type": 4, "name": "seats", "description": "Seats", "min_value": 2, "max_value": 6}]}],
            "contexts": [0, 1], "integration_types": [0]}


#: (method, template, body) as the bot sends them; all valid.
SAMPLES: list[tuple[str, str, dict[str, Any] | list[dict[str, Any]]]] = [
    ("POST", CREATE, _message()),
    ("PATCH", EDIT, _message()),
    ("POST", FOLLOWUP, {**_message(), "flags": 64}),
    ("POST", CALLBACK, {"type": 4, "data": {**_message(), "flags": 64}}),
    ("POST", CALLBACK, {"type": 7, "data": _message()}),
    ("POST", CALLBACK, {"type": 8, "data": {"choices": [{"name": f"Card {i}", "value": f"c{i}"} for i in range(25)]}}),
    ("POST", CALLBACK, {"type": 9, "data": _modal()}),
    ("PUT", SYNC, [_command()]),
]


def _paths(value: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value, the root included."""
    out = [here]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(_paths(v, (*here, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(_paths(v, (*here, i)))
    return out


def _replace(value: Any, path: tuple[Any, ...], change: Callable[[Any], Any]) -> Any:
    if not path:
        return change(value)
    head, rest = path[0], path[1:]
    value[head] = _replace(value[head], rest, change)
    return value


def _breakers() -> st.SearchStrategy[Callable[[Any], Any]]:
    """Ways a body goes wrong: overlong text, overfull lists, wrong types, lost or unknown keys."""
    long_text = st.integers(min_value=0, max_value=6100).map(lambda n: (lambda v: "x" * n))
    replacements: list[Any] = [None, 0, -1, 7, 2**40, 1.5, True, "", "7", [], {}]
    other_type = st.sampled_from(replacements).map(lambda new: (lambda v: new))
    repeat = st.integers(min_value=0, max_value=30).map(
        lambda n: (lambda v: [copy.deepcopy(v[0]) for _ in range(n)] if isinstance(v, list) and v else v))
    drop_key = st.integers(min_value=0, max_value=20).map(
        lambda i: (lambda v: {k: x for j, (k, x) in enumerate(v.items()) if j != i % len(v)}
                   if isinstance(v, dict) and v else v))
    extra_key = st.sampled_from(["label", "type", "bogus", "style", "url"]).map(
        lambda k: (lambda v: {**v, k: "x"} if isinstance(v, dict) else v))
    return st.one_of(long_text, other_type, repeat, drop_key, extra_key)


@st.composite
def broken_bodies(draw: st.DrawFn) -> tuple[str, str, Any]:
    method, template, body = draw(st.sampled_from(SAMPLES))
    body = copy.deepcopy(body)
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        path = draw(st.sampled_from(_paths(body)))
        body = _replace(body, path, draw(_breakers()))
    return method, template, body


def _pair(spec: OpenAPISpec, method: str, template: str) -> _BodyValidator:
    v = spec.validator(method, template, "application/json")
    assert v is not None, f"{method} {template} takes a JSON body in Discord's schema"
    return v


@pytest.mark.parametrize(("method", "template", "body"), SAMPLES, ids=[f"{m} {t}" for m, t, _ in SAMPLES])
def test_bodies_shaped_like_the_bots_pass_both_validators(discord_spec: OpenAPISpec, method: str, template: str,
                                                          body: Any) -> None:
    v = _pair(discord_spec, method, template)
    assert v.fast.is_valid(body)
    assert v.explaining.is_valid(body)
    assert discord_spec.check(method, template, body) == []


@settings(max_examples=200, deadline=None)
@given(case=broken_bodies())
def test_broken_bodies_get_the_same_verdict_from_both_validators(discord_spec: OpenAPISpec,
                                                                 case: tuple[str, str, Any]) -> None:
    method, template, body = case
    v = _pair(discord_spec, method, template)
    valid = v.explaining.is_valid(body)
    assert v.fast.is_valid(body) == valid
    assert (discord_spec.check(method, template, body) == []) == valid


def test_a_rejected_body_is_explained_down_to_the_field(discord_spec: OpenAPISpec) -> None:
    body = _message()
    body["components"][1]["components"][0]["options"] *= 6  # 30 options; Discord allows 25
    errors = discord_spec.check("POST", CREATE, body)
    assert errors and errors[0].validator == "maxItems"
    assert list(errors[0].absolute_path) == ["components", 1, "components", 0, "options"]


def test_a_body_only_the_fast_validator_rejects_still_fails(discord_spec: OpenAPISpec) -> None:
    v = _pair(discord_spec, "POST", CREATE)
    strict = _BodyValidator(v.ref, discord_spec)
    strict.fast = jsonschema_rs.Draft202012Validator({"not": {}})  # a stand-in that refuses everything
    discord_spec._validators[("post", CREATE, "application/json")] = strict
    try:
        (error,) = discord_spec.check("POST", CREATE, _message())
    finally:
        discord_spec._validators[("post", CREATE, "application/json")] = v
    assert "Python jsonschema accepts it" in error.message
