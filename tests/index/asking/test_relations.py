"""The relation a question asks for (`index.asking.relations`), in the wiki's labels (table-driven)."""

from __future__ import annotations

import pytest

from index.analysis import fold
from index.asking.relations import relations_asked
from index.asking.vocabulary import shape_of


@pytest.mark.parametrize(
    ("question", "labels"),
    [
        ("Minder を開発したのはどこ?", ("開発元",)),
        ("who developed XPUTimer?", ("開発元",)),
        ("NexusZephyrはどこが開発した?", ("開発元",)),
        ("CCL-D の開発元は?", ("開発元",)),
        ("ByteDance の共同研究先は?", ("共同研究先",)),
        ("Haibin Lin が関わったプロジェクトは?", ("関連プロダクト",)),
        ("Shenglin Zhang が責任著者の論文は?", ("ソース",)),
        ("which papers did Haibin Lin write?", ("ソース",)),
        ("ByteDanceの異常検知に関する研究は?", ("ソース",)),
        ("XPUTimer の別名は?", ("別名",)),
        ("XPUTimer 論文の著者は?", None),
        ("Minder の開発の動機は?", None),
        ("XPUTimer は何 GPU の本番クラスタで動いた?", None),
    ],
)
def test_relations_asked(question: str, labels: tuple[str, ...] | None) -> None:
    folded = fold(question)
    relations, _ = relations_asked(folded, shape_of(folded).shape)
    assert (relations[0].labels if relations else None) == labels
