# ruff: noqa: E501  (long lines are page text written verbatim into the vault)
"""Record of how the byte-sensitive files of the example vault were written.

The vault under ``examples/vault/`` is committed as is; this script is only a
record (and a way to regenerate these files if they are damaged). It writes
the files whose exact bytes matter and that an editor would silently "fix":

- ``wiki/entities/CRLF Entity.md``          CRLF line endings
- ``wiki/entities/Unclosed Frontmatter.md`` frontmatter without its closing ``---``
- ``wiki/entities/Empty Page.md``           a 0-byte file
- ``wiki/entities/Broken Encoding.md``      invalid UTF-8 bytes in the body
- ``wiki/concepts/巨大ページ.md``            a ~200 KB page
- ``wiki/concepts/ストラグラー.md``           a filename saved in NFD (as macOS does)
- tiny valid PNG files for every figure embed, and placeholder raw originals

Run: ``python3 examples/make_edge_cases.py`` from the repository root.
See ``examples/EDGE_CASES.md`` for what each file is meant to exercise.
"""

from __future__ import annotations

import struct
import unicodedata
import zlib
from pathlib import Path

VAULT = Path(__file__).resolve().parent / "vault"
WIKI = VAULT / "wiki"

S_MEGA = "@2024__NSDI__MegaScale - Scaling Large Language Model Training to More Than 10,000 GPUs"
S_MINDER = "@2025__NSDI__Minder - Faulty Machine Detection for Large-scale Distributed Model Training"
S_STRAG = "@2025__OSDI__Understanding Stragglers in Large Model Training Using What-if Analysis"
S_ROBUST = "@2025__SOSP__Robust LLM Training Infrastructure at ByteDance"


# --------------------------------------------------------------------------- CRLF

CRLF_ENTITY = """---
address: c-000291
type: entity
title: "CRLF Entity"
date: 2026-10-08 09:00
created: 2026-10-08
updated: 2026-10-08
aliases:
  - "CRLF テスト用エンティティ"
  - "crlf-fixture"
tags:
  - 2026/10/08
  - entity
  - fixture
status: seed
entity_type: product
entity_tier: stub
role: "Windows で編集されて改行コードが CRLF になったページの見本"
---

# CRLF Entity

Windows のエディタで保存され、改行コードが CRLF(\\r\\n)になったページの見本。内容は [[NCCL]] に関するメモで、[[集合通信]] の実装例として挙がる。

## 関連

- 関連プロダクト: [[Mycroft]] / [[CCL-D]]
- 概念: [[集合通信]]
"""


# ---------------------------------------------------------- unclosed frontmatter

UNCLOSED = """---
address: c-000292
type: entity
title: "Should Not Be Used"
aliases:
  - "Unclosed Alias"
tags:
  - 2026/10/08
  - entity

# Unclosed Frontmatter

フロントマターの閉じ `---` が欠けたページの見本。規約(§9)どおりなら、このファイルにはフロントマターがなく、タイトルはこの H1 から「Unclosed Frontmatter」になる。上の `title:` や `aliases:` の行はただの本文として扱われる。

本文中のリンク: [[ByteDance]]
"""


# ------------------------------------------------------------------- broken bytes

BROKEN_HEAD = """---
address: c-000293
type: entity
title: "Broken Encoding"
date: 2026-10-08 09:30
created: 2026-10-08
updated: 2026-10-08
aliases:
  - "文字化けページ"
tags:
  - 2026/10/08
  - entity
  - fixture
status: seed
entity_type: product
entity_tier: stub
role: "本文に不正な UTF-8 バイト列を含むページの見本"
---

# Broken Encoding

コピー&ペーストの事故で、本文の途中に不正なバイト列が混入したページの見本。
この行の途中に不正なバイト""".encode()

BROKEN_TAIL = """が入っている。前後の文字列と [[MegaScale]] へのリンクは読めるはずである。

## 関連

- 関連プロダクト: [[MegaScale]]
""".encode()


# ---------------------------------------------------------------------- big page

BIG_HEAD = """---
address: c-000392
type: concept
title: "巨大ページ"
date: 2026-10-09 20:00
created: 2026-10-09
updated: 2026-10-09
aliases:
  - "large page fixture"
tags:
  - 2026/10/09
  - concept
  - fixture
status: seed
complexity: basic
domain: "運用メモ"
---

# 巨大ページ

約 200 KB の長大なページの見本。障害対応の当番記録を節ごとに並べた体裁をとる(架空の記録であり、特定の事実を述べるものではない)。

## 定義

当番記録を一つのページに追記し続けた結果、非常に長くなったページである。索引や検索がこの大きさのページでも破綻しないことを確かめるために置いている。

"""

SUBJECTS = ["訓練プロセス", "集合通信", "チェックポイント保存", "監視基盤", "データローダ", "ネットワーク", "GPU ノード", "ストレージ"]
SYMPTOMS = ["応答の遅延", "ハング", "再起動の繰り返し", "スループットの半減",
            "ログの途切れ", "鳴り止まないアラート", "NaN の混入", "ディスクの枯渇"]
ACTIONS = ["該当ノードの隔離", "直近のチェックポイントからの再開", "設定の巻き戻し",
           "通信グループの再構成", "監視の閾値の見直し", "ケーブルの交換",
           "担当チームへの引き継ぎ", "再発防止策の記録"]
LESSONS = ["早めの隔離が損失を小さくする", "症状の出た場所と原因の場所は離れていることが多い",
           "手順書は実際に使ってみないと古くなる", "アラートは対処できる内容に絞るべきである",
           "再開の速さも信頼性の一部である", "小さな異常も記録しておくと後で役に立つ"]
NEEDLE_SECTION = 137
NEEDLE = "この節には合言葉「瑠璃色のチェックポイント」を記す。検索テストはこの語で巨大ページの奥の節を探せること。"


def big_page() -> str:
    parts = [BIG_HEAD]
    for n in range(1, 151):
        s = SUBJECTS[n % len(SUBJECTS)]
        y = SYMPTOMS[(n * 3) % len(SYMPTOMS)]
        a = ACTIONS[(n * 5) % len(ACTIONS)]
        b = ACTIONS[(n * 7 + 1) % len(ACTIONS)]
        lesson = LESSONS[n % len(LESSONS)]
        day = 1 + (n % 28)
        hour = n % 24
        gpus = 64 * (1 + n % 32)
        body = [
            f"## 節 {n}",
            "",
            f"第 {n} 回の当番記録。{day} 日 {hour:02d} 時ごろ、{gpus} GPU 規模のジョブで{s}に{y}が起きた。"
            f"一次対応として{a}を行った。その後の調査で原因の候補を三つに絞り、二次対応として{b}を行った。",
            "",
            f"- 影響範囲: 同じ{s}を使っていた {1 + n % 9} 件のジョブ",
            f"- 復旧までの時間: 約 {5 + (n * 13) % 170} 分",
            f"- 教訓: {lesson}。",
            "",
            f"振り返りでは、{s}の異常が他の部分にどう波及したかを時系列で整理した。"
            f"最初の兆候から対応開始までに {1 + n % 17} 分かかっており、検知の遅れが損失の大半を占めていた。"
            f"次回は同じ症状が出たら、まず{a}を行うよう手順書の先頭に書き加えた。"
            f"あわせて{y}を監視の対象に加え、閾値を超えたら当番に通知する設定を入れた。"
            f"記録番号 R-{n:04d}。",
            "",
            f"補足: 同じ週には{SUBJECTS[(n + 3) % len(SUBJECTS)]}でも軽微な異常が {1 + n % 4} 件あったが、"
            f"いずれも自動復旧の範囲に収まった。当番の引き継ぎでは、{lesson}という点を改めて共有し、"
            f"次の当番が同じ調査を繰り返さずに済むよう、調べたログの場所と見落としやすい指標を書き残した。",
            "",
        ]
        if n == NEEDLE_SECTION:
            body.insert(3, NEEDLE)
            body.insert(4, "")
        parts.append("\n".join(body) + "\n")
    parts.append("## 未解決の問い\n\n## 未編纂の観察\n\n## 関連\n\n- 概念: [[GPUクラスタ運用]]\n\n## 出典\n")
    return "".join(parts)


# ------------------------------------------------------------------- NFD filename

STRAGGLER = f"""---
address: c-000310
type: concept
title: "ストラグラー"
date: 2026-10-13 19:30
created: 2026-10-13
updated: 2026-10-14
aliases:
  - "straggler"
tags:
  - 2026/10/13
  - concept
  - straggler
  - 2026/10/14
status: developing
complexity: intermediate
domain: "LLM分散学習"
sources:
  - "[[{S_STRAG}]]"
  - "[[{S_MEGA}]]"
  - "[[{S_MINDER}]]"
---

# ストラグラー

## 定義

同期をとりながら進む分散訓練で、他より遅れて全体を足止めする少数のワーカー(GPU、マシン、プロセス)のことである。障害と違って訓練は止まらないため気づきにくいが、同期のたびに全員が最も遅いワーカーを待つことになり、訓練全体の速度を落とす(Source: [[{S_STRAG}]])。

## 原因

- **ストラグラーは必ずしもハードウェア故障によって生じるわけではなく、複数の複雑な要因から生じる。**
  - 根拠: [[{S_STRAG}]] — ByteDance の 5 ヶ月分の訓練トレース
- **ストラグラーの影響は、ストラグラーがいない場合をシミュレートして実際と比べる what-if 分析で定量化できる。**
  - 根拠: [[{S_STRAG}]] — what-if 分析

## 検出と緩和

- **1 万 GPU 級の訓練では、CUDA イベントによる計時と 3D 並列の可視化がストラグラーの発見に役立つ。**
  - 根拠: [[{S_MEGA}]] — ストラグラー緩和のための診断ツール
- **他のマシンから外れた指標を示し続けるマシンは、障害マシンの候補として自動で検出できる。**
  - 根拠: [[{S_MINDER}]] — マシン間類似性と継続性
  - 反証: [[{S_STRAG}]] — 外れたワーカーの原因がハードウェアとは限らない

> [!contradiction]- 外れ値のマシンは「障害マシン」か「ストラグラー」か (status: open)
> [[Minder]] は外れ値のマシンを障害マシンとして扱い、隔離の対象にする。ストラグラーの what-if 分析は、遅いワーカーがソフトウェアや訓練設定に由来する場合もあると報告している。
> > 隔離しても遅さが解消しないケースがどれだけあるかは、どちらのソースにも数値がない。要追加検証。
> [[異常検知]] のページにも同じ記述がある。

## 未解決の問い

- ハードウェア起因のストラグラーと、負荷の偏りなどソフトウェア起因のストラグラーを、実行中に自動で見分けられるか。
- [[ByteRobust]] の過剰排除は、ソフトウェア起因のストラグラーに対して逆効果にならないか。

## 未編纂の観察

- [検出と緩和] ByteRobust の過剰排除と、ストラグラー分析の「遅いのは故障とは限らない」という知見は、同じ ByteDance の中で緊張関係にある。(Source: [[{S_ROBUST}]], [[{S_STRAG}]])

## 関連

- ソース: [[{S_STRAG}]] / [[{S_MEGA}]] / [[{S_MINDER}]]
- 概念: [[LLM分散学習]] / [[耐障害LLM訓練]] / [[異常検知]]
- エンティティ: [[ByteDance]] / [[ByteDance Seed]] / [[Minder]]

## 出典

- [[{S_STRAG}]](定義、原因)
- [[{S_MEGA}]](検出の道具)
- [[{S_MINDER}]](外れ値としての検出)
"""


# --------------------------------------------------------------------------- PNG

def tiny_png(rgb: tuple[int, int, int] = (200, 200, 200)) -> bytes:
    """A valid 1x1 RGB PNG."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    ihdr = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    raw = b"\x00" + bytes(rgb)
    idat = zlib.compress(raw)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


FIGURES = [
    "x/fig01.png",
    "arxiv-2402.15627/fig05-robust-training-workflow.png",
    "arxiv-2411.01791/fig02-minder-overview.png",
    "arxiv-2509.16293/fig03-byterobust-architecture.png",
    "arxiv-2509.03018/fig04-mycroft-overview.png",
    "arxiv-2605.04478/fig02-ccld-architecture.png",
    "arxiv-2502.05413/fig03-xputimer-design.png",
    "arxiv-2505.05713/fig02-what-if-analysis.png",
    "arxiv-2509.25874/fig02-logpilot-pipeline.png",
    "fcs-2025-logsage/fig03-logsage-pipeline.png",
]

RAW_FILES = [
    "papers/x.pdf",
    "papers/arxiv-2402.15627.pdf",
    "papers/arxiv-2411.01791.pdf",
    "papers/arxiv-2509.16293.pdf",
    "papers/arxiv-2509.03018.pdf",
    "papers/arxiv-2605.04478.pdf",
    "papers/arxiv-2502.05413.pdf",
    "papers/arxiv-2505.05713.pdf",
    "papers/arxiv-2509.25874.pdf",
    "papers/fcs-2025-logsage.pdf",
    "books/designing-ml-systems/chapters/ch-08.md",
]


def write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    print(f"{len(data):>8}  {path.relative_to(VAULT)}")


def main() -> None:
    ents = WIKI / "entities"
    cons = WIKI / "concepts"

    write(ents / "CRLF Entity.md", CRLF_ENTITY.replace("\n", "\r\n").encode("utf-8"))
    write(ents / "Unclosed Frontmatter.md", UNCLOSED.encode("utf-8"))
    write(ents / "Empty Page.md", b"")
    write(ents / "Broken Encoding.md", BROKEN_HEAD + b"\xff\xfe" + BROKEN_TAIL)
    write(cons / "巨大ページ.md", big_page().encode("utf-8"))

    nfc_name = "ストラグラー.md"
    nfd_name = unicodedata.normalize("NFD", nfc_name)
    assert nfd_name != nfc_name
    if (cons / nfc_name).exists() and nfc_name in {p.name for p in cons.iterdir()}:
        (cons / nfc_name).unlink()  # never keep an NFC twin next to the NFD file
    write(cons / nfd_name, STRAGGLER.encode("utf-8"))

    for fig in FIGURES:
        write(WIKI / "sources" / "_attachments" / fig, tiny_png())
    for raw in RAW_FILES:
        text = f"placeholder for the raw original {raw}; the example vault ships no real PDFs.\n"
        write(VAULT / ".raw" / raw, text.encode("utf-8"))


if __name__ == "__main__":
    main()
