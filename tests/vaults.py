"""Small real vaults written into a test's folder."""

from __future__ import annotations

import shutil
from datetime import date, timedelta
from itertools import pairwise
from pathlib import Path

from tests.conftest import EXAMPLE_VAULT

EDGE_CASES = Path(__file__).resolve().parent / "fixtures" / "edge_cases"
"""The awkward files (CRLF, invalid UTF-8, an empty file, a link zoo …): tests/fixtures/EDGE_CASES.md."""


def write_vault(root: Path, files: dict[str, str | bytes]) -> Path:
    for relative, content in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def edge_vault(root: Path) -> Path:
    """The example vault with the edge cases laid over it: a realistic wiki that has every awkward file."""
    shutil.copytree(EXAMPLE_VAULT, root)
    shutil.copytree(EDGE_CASES, root, dirs_exist_ok=True)
    return root


def entity(
    title: str, *, aliases: tuple[str, ...] = (), tier: str = "full", body: str = "", kind: str = "entity"
) -> str:
    alias_lines = "".join(f'  - "{alias}"\n' for alias in aliases)
    return (
        f'---\ntype: {kind}\ntitle: "{title}"\naliases:\n{alias_lines}entity_tier: {tier}\n'
        f"created: 2026-09-01\n---\n\n# {title}\n\n{body or title + ' についてのページ。'}\n"
    )


SMALL_VAULT: dict[str, str | bytes] = {
    "wiki/entities/ByteDance.md": entity(
        "ByteDance",
        aliases=("バイトダンス", "字節跳動"),
        body="## 概要\n\n北京のテクノロジー企業。[[Minder]] を開発した。\n\n## 関連\n\n"
        "- 関連プロダクト: [[MegaScale]] / [[Minder]]\n- 関連組織: [[ByteDance Seed]]\n"
        "- 関連人物: [[Zhuo Jiang]]\n",
    ),
    "wiki/entities/ByteDance Seed.md": entity("ByteDance Seed", body="ByteDance の研究組織。"),
    "wiki/entities/MegaScale.md": entity("MegaScale", body="1 万 GPU 超で LLM を訓練する本番システム。"),
    "wiki/entities/Minder.md": entity(
        "Minder", body="ByteDance が開発した障害マシン検出システム。監視指標から故障を見つける。"
    ),
    "wiki/entities/Sakura Compute Inc..md": entity("Sakura Compute Inc.", aliases=("株式会社さくら計算",)),
    "wiki/entities/Anna Stub.md": entity("Anna", tier="stub"),
    "wiki/entities/Anna Full.md": entity("Anna", tier="full"),
    "wiki/entities/Ant Group.md": entity(
        "Ant Group",
        aliases=("蚂蚁集团",),
        body="[[University of Chinese Academy of Sciences|UCAS]] と共同研究。 [[Zhuo Jiang]] とは無関係。",
    ),
    "wiki/entities/University of Chinese Academy of Sciences.md": entity(
        "University of Chinese Academy of Sciences"
    ),
    "wiki/concepts/異常検知.md": (
        "---\ntype: concept\ntitle: 異常検知\naliases: [anomaly detection]\n---\n# 異常検知\n\n## 定義\n\n"
        "正常から外れた振る舞いを見つけること。\n\n## 関連\n\n- エンティティ: [[Minder]]\n"
    ),
    "wiki/concepts/集合通信.md": (
        "---\ntype: concept\ntitle: 集合通信\n---\n# 集合通信\n\n## 定義\n\n"
        "複数の GPU が all-reduce などで一斉に通信すること。CCL のハングは訓練を止める。\n"
    ),
    "wiki/sources/@2025__NSDI__Minder - Faulty Machine Detection.md": (
        '---\ntype: source\ntitle: "Minder: Faulty Machine Detection"\ncreated: 2026-10-14\n---\n\n'
        "> [!abstract] 概要\n> 分散訓練の障害マシンを自動検出する。\n\n## 提案手法\n\n"
        "[[ByteDance]] の本番環境で [[Minder]] を運用した。\n"
    ),
    "wiki/index.md": "# Index\n\n- [[ByteDance]]: 企業\n",
    "wiki/log.md": (
        "## [2026-10-14] ingest-paper | Minder\n"
        "- Summary: [[@2025__NSDI__Minder - Faulty Machine Detection]]\n"
    ),
    "wiki/meta/lint-report.md": "---\ntype: meta\ntitle: ByteDance lint\n---\n# ByteDance lint\n",
    "wiki/entities/_index.md": "# entities\n",
    ".obsidian/app.json": "{}",
    ".raw/papers/x.md": "# ByteDance raw\n",
}


def source_page(
    title: str, *, created: str | None, stamp: str | None, venue: str, year: int, **extra: str
) -> str:
    """A source page as the harness writes it: ``date:``/``created:`` stamps and an abstract callout."""
    lines = ["---", "type: source", f'title: "{title}"']
    if stamp:
        lines.append(f"date: {stamp}")
    if created:
        lines += [f"created: {created}", f"updated: {created}"]
    lines += ["tags:", "  - source", "source_type: paper", 'author: "Jane Doe ほか"']
    lines += [f"{key}: {value}" for key, value in extra.items()]
    lines += ["---", "", f"# {title}", "", "> [!abstract] 概要", f"> {title} の要約。<!channel> を含む。", ""]
    return "\n".join(lines)


def digest_vault(day: date, *, count: int = 3) -> dict[str, str]:
    """``count`` papers created on ``day``, one only updated that day, one on the day before, an
    entity and a concept citing the first, a brief for the first, and a log."""
    iso = day.isoformat()
    before = (day - timedelta(days=1)).isoformat()
    files = {
        f"wiki/sources/@2025__NSDI__Paper {n:02d}.md": source_page(
            f"Paper {n:02d} & <Co>",
            created=iso,
            stamp=f"{iso} {9 + n % 12:02d}:{n:02d}",
            venue="NSDI",
            year=2025,
        )
        for n in range(count)
    }
    old = source_page("Old Paper", created="2026-01-05", stamp="2026-01-05 10:00", venue="SOSP", year=2023)
    files["wiki/sources/@2023__SOSP__Old Paper.md"] = old.replace("updated: 2026-01-05", f"updated: {iso}")
    files["wiki/sources/@2024__arXiv__Yesterday Paper.md"] = source_page(
        "Yesterday Paper", created=before, stamp=f"{before} 20:00", venue="arXiv", year=2024
    )
    files["wiki/entities/Jane Doe.md"] = (
        "---\ntype: entity\ntitle: Jane Doe\nentity_type: person\n---\n\n# Jane Doe\n\n"
        "## 関連ソース\n\n- [[@2025__NSDI__Paper 00]] — 提案\n"
    )
    files["wiki/concepts/異常検知.md"] = (
        "---\ntype: concept\ntitle: 異常検知\n---\n\n# 異常検知\n\n"
        "## 定義\n\n定義 [[@2025__NSDI__Paper 00]]。\n"
    )
    files["wiki/briefs/@2025__NSDI__Paper 00.md"] = (
        '---\ntype: brief\ntitle: "紹介: Paper 00"\nsources:\n'
        '  - "[[wiki/sources/@2025__NSDI__Paper 00]]"\n---\n\n'
        "# 紹介: Paper 00\n\n## 紹介文\n\n- 一行目の紹介\n- 二行目の紹介\n"
        "- 📄 Doe et al., NSDI 2025\n\n## 出典\n\n"
        "- [[wiki/sources/@2025__NSDI__Paper 00]]\n"
    )
    files["wiki/log.md"] = (
        f"## [{iso}] wiki-query | Old Paper について\n- Question: ?\n- Summary: [[@2023__SOSP__Old Paper]]\n"
        f"## [{iso}] ingest-paper | Paper 00\n- Summary: [[@2025__NSDI__Paper 00]]\n"
        f"- Pages updated: [[@2023__SOSP__Old Paper]]\n"
    )
    return files


def billion_laughs(levels: int = 9) -> str:
    """Nine levels of nine aliases: a 500-byte block standing for 9⁹ values once copied."""
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    names = "abcdefghijklmnopqrstuvwxyz"[:levels]
    for previous, name in pairwise(names):
        lines.append(f"{name}: &{name} [{','.join([f'*{previous}'] * 9)}]")
    return "---\n" + "\n".join(lines) + "\ntitle: Bomb\naliases:\n  - Laughs\n---\n# Bomb\n"


FIXTURES = Path(__file__).parent / "fixtures"
GROWN_WIKI = FIXTURES / "grown_wiki"
"""A wiki/ tree as LLM-maintained wikis grow it: nested sources and concepts, a team's own folders,
raw material, .txt tables beside notes, names that differ only by a hyphen, two notes with one title."""
HANDBOOK = FIXTURES / "handbook"
"""A plain, human-written documentation vault whose translation tables are .txt files."""
SEEDS = FIXTURES / "seeds"
"""A folder of exports: the two flattened seed pages, nothing else."""
