"""Bot tests that drive discord.py's own dispatch against a fake Discord (see harness.py)."""
