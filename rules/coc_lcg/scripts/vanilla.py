"""Cards whose whole text is their keywords (or nothing): stats and keywords are all the engine needs."""

from rules.coc_lcg.script import script

KEYWORDS_ONLY = (
    "agency-undercover-security",
    "agency-hired-muscle",
    "agency-freelance-occultist",
    "agency-blackwood-file-clerk",
    "agency-g-men",
    "miskatonic-laboratory-assistant",
    "cthulhu-keeper-of-the-golden-path",
    "cthulhu-guardian-shoggoth",
    "cthulhu-innsmouth-troublemaker",
    "cthulhu-young-deep-one",
    "syndicate-dr-marinus-bicknell-willett",
    "syndicate-bag-man",
    "syndicate-triggerman",
    "hastur-byakhee-servant",
    "hastur-mad-artist",
    "yog-sothoth-arcane-initiate",
    "yog-sothoth-servant-of-nodens",
    "shub-niggurath-degenerate-ghoul",
)

for _card in KEYWORDS_ONLY:
    script(_card, keywords_only=True)
