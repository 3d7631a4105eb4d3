"""Instances of a kind the question names: the licenses a sentence writes without the word."""

from __future__ import annotations

import pytest

from index.asking.kinds import instances, kind_named


@pytest.mark.parametrize(
    ("forms", "folded", "expected"),
    [
        (
            ("ライセンス", "license"),
            "github readme (github.com/x/idobata, gpl-3.0) で 2 モジュール構成",
            ["gpl-3.0"],
        ),
        (("ライセンス",), "next.js / typescript / agpl-3.0。", ["agpl-3.0"]),
        (("license",), "ライセンスはgpl-3.0です", ["gpl-3.0"]),
        (("license",), "released under the mit license; later apache 2.0", ["mit", "apache 2.0"]),
        (("license",), "cc by-nc 4.0 (以前のバージョンは cc by 4.0)", ["cc by-nc 4.0", "cc by 4.0"]),
        (
            ("license",),
            "an mit-licensed model, or bsd-3-clause, gplv3, mpl-2.0",
            ["mit", "bsd-3-clause", "gplv3", "mpl-2.0"],
        ),
        (("license",), "a lab at mit; the gpl-ish code of gpl3x", []),  # the institute, no identifier
        (("licence",), "released under mit.", ["mit"]),
        (("version",), "gpl-3.0", []),  # a word that names no listed kind
    ],
)
def test_instances(forms: tuple[str, ...], folded: str, expected: list[str]) -> None:
    assert [folded[start:end] for start, end in instances(kind_named(forms), folded)] == expected
