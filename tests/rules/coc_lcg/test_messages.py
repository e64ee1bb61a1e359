"""Every rule error code the engine can raise has a message in Russian and English."""

from __future__ import annotations

import re
from pathlib import Path

from bot.i18n import catalog

ROOT = Path(__file__).resolve().parents[3] / "rules" / "coc_lcg"


def test_every_coc_code_is_translated() -> None:
    text = "\n".join(p.read_text(encoding="utf-8") for p in ROOT.rglob("*.py"))
    codes = set(re.findall(r'"(coc\.[a-z_]+)"', text))
    assert len(codes) > 20
    for lang in ("en", "ru"):
        missing = sorted(c for c in codes if not catalog().has(lang, f"rule.{c}"))
        assert not missing, f"{lang}: {missing}"
