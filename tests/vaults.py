"""Small real vaults written into a test's folder."""

from __future__ import annotations

from pathlib import Path


def write_vault(root: Path, files: dict[str, str | bytes]) -> Path:
    for relative, content in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
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


FIXTURES = Path(__file__).parent / "fixtures"
GROWN_WIKI = FIXTURES / "grown_wiki"
"""A wiki/ tree as LLM-maintained wikis grow it: nested sources and concepts, a team's own folders,
raw material, .txt tables beside notes, names that differ only by a hyphen, two notes with one title."""
HANDBOOK = FIXTURES / "handbook"
"""A plain, human-written documentation vault whose translation tables are .txt files."""
SEEDS = FIXTURES / "seeds"
"""A folder of exports: the two flattened seed pages, nothing else."""
