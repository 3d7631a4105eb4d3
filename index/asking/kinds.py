"""Words of a question that name a kind of thing a text writes by its instances: a question about a
*license* (ライセンス) is answered by ``GPL-3.0`` or ``Apache-2.0`` in a sentence that never writes the
word. Only kinds whose instances have a fixed, recognisable spelling are listed: a word of the
question counts as said where one of them stands.
"""

from __future__ import annotations

import re

_LICENSE = re.compile(
    r"(?<![a-z0-9.-])(?:(?:"
    r"(?:a|l)?gpl(?:[- ]?v?[123](?:\.[01])?)?(?:-only|-or-later|\+)?"
    r"|apache(?:[- ](?:license[- ])?)?(?:v|version )?2(?:\.0)?"
    r"|bsd[- ][0234][- ]clause|[0234]-clause bsd"
    r"|mpl[- ]?(?:v|version )?[12]\.[01]|epl[- ]?[12]\.0|eupl[- ]?1\.[12]|bsl-1\.0|artistic-2\.0"
    r"|cc[- ]?0|cc[- ]by(?:-(?:sa|nc|nd))*(?:[- ]\d\.\d)?|unlicense|wtfpl|isc license"
    r"|(?<=under )mit|(?<=under the )mit"
    r")(?![a-z0-9-])|mit(?=[- ]licen))"
)
"""A software or content license as wikis write it (folded): SPDX identifiers and their common
spellings (GPLv3, Apache 2.0, CC BY-NC 4.0); *MIT* only beside *license* or after *under*, as the
institute is written alone."""

KINDS = {"license": _LICENSE, "licence": _LICENSE, "licensed": _LICENSE, "ライセンス": _LICENSE}
"""A question's word (or its rendering) → how a text writes an instance of it."""


def kind_named(forms: tuple[str, ...]) -> re.Pattern[str] | None:
    """How a text writes an instance of the kind one of ``forms`` (a keyword's spellings and
    renderings) names; None when no form names a listed kind."""
    return next((KINDS[form] for form in forms if form in KINDS), None)


def instances(kind: re.Pattern[str] | None, folded: str) -> list[tuple[int, int]]:
    """Where the folded text writes an instance of ``kind`` (`kind_named`)."""
    return [match.span() for match in kind.finditer(folded)] if kind is not None else []
