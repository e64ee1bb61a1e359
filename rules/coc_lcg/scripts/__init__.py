"""Card scripts, one module per group; importing this package registers them all in ``SCRIPTS``."""

from rules.coc_lcg.scripts import (  # noqa: F401
    agency,
    cthulhu,
    hastur,
    miskatonic,
    neutral,
    shub_niggurath,
    stories,
    syndicate,
    vanilla,
    yog_sothoth,
)
