"""Which files are pages (index/reading/vault.py), on the fixture vaults: a grown wiki/ tree nested any way,
a plain documentation vault with .txt tables beside its notes, and a folder of exports."""

from __future__ import annotations

from pathlib import Path

import pytest

from index.model import FolderCount
from index.reading.vault import scan_vault, survey_vault
from tests.vaults import GROWN_WIKI, HANDBOOK, SEEDS, write_vault

TIDAL = "@2026__OSDI__Tidal - Elastic KV Cache Tiering"
HELIX = "@2025__NSDI__Helix - Serving Mixed Workloads at Scale"
LOOM = "@2025__SOSP__Loom - Streaming Checkpoints Without Stalls"


def page_types(root: Path) -> dict[str, str | None]:
    return {file.path: file.folder_type for file in scan_vault(root).files}


def test_every_note_under_wiki_is_a_page_at_any_depth_typed_by_its_first_folder() -> None:
    assert page_types(GROWN_WIKI) == {
        f"wiki/asks/{HELIX}.md": "ask",
        f"wiki/briefs/serving/{TIDAL}.md": "brief",
        "wiki/channels/slack.md": "channels",
        "wiki/comparisons/Tidal vs Helix.md": "comparison",
        "wiki/components/Tidal.md": "components",
        "wiki/components/Vector Store.md": "components",
        "wiki/concepts/KVキャッシュ階層化.md": "concept",
        "wiki/concepts/ops/LLM-Ops.md": "concept",
        "wiki/concepts/storage/Vector-DB.md": "concept",
        "wiki/entities/Atlas.md": "entity",
        "wiki/entities/LLMOps.md": "entity",
        "wiki/entities/orgs/Kestrel Labs.md": "entity",
        "wiki/entities/products/Tidal.md": "entity",
        "wiki/projects/Atlas (2024 rewrite).md": "projects",
        f"wiki/sources/serving/{HELIX}.md": "source",
        f"wiki/sources/serving/{TIDAL}.md": "source",
        f"wiki/sources/training/{LOOM}.md": "source",
        "wiki/transcripts/2026-10-02 standup.md": "transcripts",
    }


def test_the_survey_names_every_left_out_note_with_its_reason() -> None:
    survey = survey_vault(GROWN_WIKI)
    assert survey.layout == "wiki" and survey.warning is None
    folders = {folder.folder: folder for folder in survey.folders}
    assert folders["wiki/sources"] == FolderCount("wiki/sources", 3, (("catalog", 1), ("raw material", 1)))
    assert folders["wiki"] == FolderCount("wiki", 0, (("catalog", 3), ("guide", 2)))
    assert folders["wiki/raw"] == FolderCount("wiki/raw", 0, (("raw material", 1),))
    assert folders["wiki/meta"] == FolderCount("wiki/meta", 0, (("meta/ folder", 1),))
    assert folders["wiki/_drafts"] == FolderCount("wiki/_drafts", 0, (("_-prefixed", 1),))
    assert folders["wiki/channels"] == FolderCount(
        "wiki/channels", 1, (("text file beside Markdown notes", 1),)
    )
    assert folders["notes"] == FolderCount("notes", 0, (("outside wiki/ (human note layer)", 1),))
    assert folders["."] == FolderCount(".", 0, (("outside wiki/ (human note layer)", 2),))
    assert not any(folder.startswith((".raw", ".obsidian")) for folder in folders)
    assert sum(folder.indexed for folder in survey.folders) == len(scan_vault(GROWN_WIKI).files)


@pytest.mark.parametrize(
    ("root", "layout", "pages"),
    [
        (HANDBOOK, "plain", ["はじめに.md", "用語集/SLO.md", "運用/デプロイ手順.md", "運用/障害対応.md"]),
        (SEEDS, "exports", ["000_213e1c2424b8de26.txt", "003_fae802be7995b149.txt"]),
    ],
)
def test_txt_files_are_pages_only_in_a_folder_of_exports(root: Path, layout: str, pages: list[str]) -> None:
    scan = scan_vault(root)
    assert scan.survey.layout == layout
    assert [file.path for file in scan.files] == pages


def test_txt_tables_beside_notes_are_counted_as_attachments() -> None:
    folders = {folder.folder: folder for folder in survey_vault(HANDBOOK).folders}
    assert folders["運用"] == FolderCount("運用", 2, (("text file beside Markdown notes", 2),))
    assert folders["_templates"] == FolderCount("_templates", 0, (("_-prefixed", 1),))
    assert folders["."] == FolderCount(".", 1, (("catalog", 1),))


@pytest.mark.parametrize(
    ("files", "warning"),
    [
        pytest.param(
            {
                "wiki/entities/A.md": "# A\n",
                "wiki/index.md": "# Index\n",
                "wiki/log.md": "# Log\n",
                "notes/1.md": "# 1\n",
                "notes/2.md": "# 2\n",
                "wiki/raw/r.md": "# r\n",
                "Clippings/c.md": "# c\n",
            },
            "most notes were left out (4 of 5): notes (2), Clippings (1), wiki/raw (1)",
            id="most-left-out",
        ),
        pytest.param(
            {"wiki/entities/A.md": "# A\n", "notes/1.md": "# 1\n", "wiki/index.md": "# I\n"},
            None,
            id="half-is-not-most",
        ),
        pytest.param(
            {".obsidian/app.json": "{}", ".trash/old.md": "# old\n", "index.md": "# I\n"},
            "no notes found: no Markdown file outside dot-folders, catalogs and guides",
            id="no-notes",
        ),
    ],
)
def test_a_vault_losing_most_notes_gets_a_warning_naming_the_folders(
    tmp_path: Path, files: dict[str, str], warning: str | None
) -> None:
    assert survey_vault(write_vault(tmp_path, files)).warning == warning


def test_pages_that_cannot_be_read_are_left_out_with_their_reason(tmp_path: Path) -> None:
    """An empty file is "empty file" in the folder table as in the problem-files table."""
    root = write_vault(tmp_path, {"wiki/entities/A.md": "# A\n", "wiki/entities/Empty.md": ""})
    survey = survey_vault(root, {"wiki/entities/Empty.md": "empty file"})
    assert survey.folders == (FolderCount("wiki/entities", 1, (("empty file", 1),)),)
