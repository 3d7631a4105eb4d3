"""The domain's reasons (a file left out, skipped or read with a problem), in the UI language.

`index/` says why in English and never imports the edge; the fixed reasons are marked here, with
the domain's own words as their message ids, so the catalog translates them where they are shown
(`sakuin index`, `sakuin doctor`). A reason with details in it (a byte offset, an error) is shown as the
domain said it.
"""

from __future__ import annotations

from bot.i18n import N_, _

KNOWN = (
    # Left out: index/reading/vault.py
    N_("outside wiki/ (human note layer)"),
    N_("catalog"),
    N_("guide"),
    N_("meta/ folder"),
    N_("raw material"),
    N_("_-prefixed"),
    N_("could not be read"),
    N_("text file beside Markdown notes"),
    # Skipped, or indexed with a problem: index/reading/pages.py, index/reading/frontmatter.py
    N_("empty file"),
    N_("frontmatter has no closing '---'; read as body"),
    N_("frontmatter is not a mapping; ignored"),
)


def reason_text(reason: str) -> str:
    """``reason`` (one, or several joined by ``; `` as the indexer joins a file's problems) in the
    language being composed in."""
    parts, shown = reason.split("; "), []
    while parts:
        pair = "; ".join(parts[:2])
        if len(parts) > 1 and pair in KNOWN:
            shown.append(_(pair))
            del parts[:2]
        else:
            part = parts.pop(0)
            shown.append(_(part) if part in KNOWN else part)
    return "; ".join(shown)
