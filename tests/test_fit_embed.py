"""``fit_embed`` clips what Discord would refuse and leaves what fits exactly as it was."""

from __future__ import annotations

import discord

from cogs.games.common import fit_embed


def test_fit_embed_clips_only_what_is_too_long_and_fills_what_is_empty() -> None:
    embed = discord.Embed(title="T" * 300, description="d")
    embed.add_field(name="short", value="fits", inline=False)
    embed.add_field(name="n" * 257, value="v" * 1025)
    embed.add_field(name="", value="", inline=True)
    embed.set_footer(text="f" * 2049)
    fit_embed(embed)
    data = embed.to_dict()
    assert data["title"] == "T" * 255 + "…" and data["description"] == "d"
    assert data["fields"] == [
        {"name": "short", "value": "fits", "inline": False},
        {"name": "n" * 255 + "…", "value": "v" * 1023 + "…", "inline": True},
        {"name": "—", "value": "—", "inline": True},
    ]
    assert data["footer"] == {"text": "f" * 2047 + "…"}


def test_fit_embed_leaves_a_fitting_embed_as_it_was() -> None:
    embed = discord.Embed(title="T", description="d", colour=discord.Colour.teal())
    embed.add_field(name="a", value="b" * 1024, inline=False)
    embed.set_footer(text="f" * 2048, icon_url="https://example.com/i.png")
    before = embed.to_dict()
    assert fit_embed(embed).to_dict() == before
