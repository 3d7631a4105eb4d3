"""What the wiki's loop costs when the vault changes (issue 25): asking open requests again, and
telling watched pages' changes.

    python -m bench.inbox --pages 10000 --requests 1000 --watches 1000 --out bench/out/inbox-10000

Builds (or reuses) a synthetic vault of ``--pages`` pages (`bench.generate`), indexes it, takes
``--requests`` questions it cannot answer yet (the generator's questions and lookups, with a name
the vault does not have put in), then measures one change as a push brings it: a new page that
answers one request, and an edit of an unrelated page (a relation line and a line at the end).
Printed: the update, the check of every open request's words against the changed pages
(`Wiki.questions_meeting`), how many requests it lets through, and the time to ask those again;
the alternative, asking every request again, is measured on a sample and extrapolated.

Watched pages: ``--watches`` pages get a watch (their snapshot taken as ``/wiki watch`` takes it),
the edited page among them; printed are the time to work out what changed on the watched pages
the update touched, and on every watched page (what a build from nothing costs: it names no
change, so every watched page is compared).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from bench.generate import generate
from bot.blocks.answer import cited_pages
from bot.loop.watches import change_now, resolve_page
from bot.state.watches import PageWatch
from index.model import Answer
from index.wiki import Wiki

NEW_NAME = "Qwertyzz"


def requests_of(queries: dict, count: int, rng: random.Random) -> dict[str, str]:
    texts = [q["query"] for q in queries["questions"]] + [f"{q['query']} とは?" for q in queries["lookups"]]
    rng.shuffle(texts)
    asked = {}
    for n in range(count):
        base = texts[n % len(texts)]
        asked[f"r{n:04d}"] = f"{base} ({NEW_NAME}{n})" if n else f"{NEW_NAME} を開発したのはどこ?"
    return asked


def _answered_from(answer: Answer, changed: tuple[str, ...]) -> bool:
    """As `bot.answered_later` decides: answered, citing a page the change added or changed."""
    return answer.status in ("answered", "relation") and bool(set(cited_pages(answer)) & set(changed))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.inbox", description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=10000)
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--watches", type=int, default=1000)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    vault = args.out / "vault"
    if not (args.out / "queries.json").exists():
        generate(args.pages, args.out)
    queries = json.loads((args.out / "queries.json").read_text(encoding="utf-8"))
    wiki = Wiki.open(vault, args.out / "index")
    started = time.perf_counter()
    wiki.update()
    print(f"index of {args.pages} pages ready in {time.perf_counter() - started:.1f} s")
    asked = requests_of(queries, args.requests, random.Random(7))

    page = vault / "wiki" / "entities" / f"{NEW_NAME}.md"
    maker = sorted(path.stem for path in (vault / "wiki" / "entities").glob("*.md") if path != page)[0]
    page.write_text(
        f"---\ntype: entity\ntitle: {NEW_NAME}\n---\n\n# {NEW_NAME}\n\n## 概要\n\n{NEW_NAME} は推論基盤。\n\n"
        f"## 関連\n\n- 開発元: [[{maker}]]\n",
        encoding="utf-8",
    )
    edited = sorted((vault / "wiki" / "concepts").glob("*.md"))[0]
    watches = watched_pages(wiki, vault, edited, args.watches)
    text = edited.read_text(encoding="utf-8")  # a relation line put in, and a line at the end
    text = text.replace("\n## 出典", f"- 関連: [[{NEW_NAME}]]\n\n## 出典", 1)
    edited.write_text(text + "\n追記。\n", encoding="utf-8")
    started = time.perf_counter()
    report = wiki.update(paths=[page, edited])
    print(f"update: {report.changed_paths} in {time.perf_counter() - started:.3f} s")

    started = time.perf_counter()
    meeting = wiki.questions_meeting(asked, report.changed_paths)
    check = time.perf_counter() - started
    started = time.perf_counter()
    answered = [rid for rid in meeting if _answered_from(wiki.answer(asked[rid]), report.changed_paths)]
    reask = time.perf_counter() - started
    sample = list(asked.values())[:50]
    started = time.perf_counter()
    for question in sample:
        wiki.answer(question)
    every = (time.perf_counter() - started) / len(sample) * len(asked)
    print(f"{len(asked)} open requests: the words check took {check * 1000:.0f} ms")
    print(f"  it let {len(meeting)} through ({', '.join(meeting[:5])})")
    print(f"  asking those again took {reask * 1000:.0f} ms ({len(answered)} now answered by a changed page)")
    print(f"  asking all {len(asked)} again would take about {every:.1f} s")

    touched = set(report.changed_paths) | set(report.removed_paths)
    started = time.perf_counter()
    due = [watch for watch in watches if watch.path in touched]
    changes = [change_now(wiki, watch)[0] for watch in due]
    update_cost = time.perf_counter() - started
    started = time.perf_counter()
    every_change = [change_now(wiki, watch)[0] for watch in watches]
    all_cost = time.perf_counter() - started
    print(f"{len(watches)} watched pages: the update touched {len(due)}")
    print(
        f"  what changed on those: {update_cost * 1000:.1f} ms ({sum(not c.empty for c in changes)} to tell)"
    )
    print(
        f"  what changed on all {len(watches)} (a build from nothing): {all_cost * 1000:.0f} ms,"
        f" {all_cost / len(watches) * 1000:.2f} ms a page ({sum(not c.empty for c in every_change)} to tell)"
    )


def watched_pages(wiki: Wiki, vault: Path, edited: Path, count: int) -> list[PageWatch]:
    """``count`` watches, ``edited`` first, with the snapshots ``/wiki watch`` takes (timed)."""
    pages = sorted(vault.glob("wiki/*/*.md"))
    chosen = [edited, *random.Random(11).sample([p for p in pages if p != edited], count - 1)]
    started = time.perf_counter()
    watches = []
    for page in chosen:
        resolved = resolve_page(wiki, page.stem)
        if resolved.path is not None and resolved.title is not None and resolved.snapshot is not None:
            watches.append(PageWatch("C0BENCH", resolved.path, resolved.title, resolved.snapshot, 0.0))
    seconds = time.perf_counter() - started
    print(
        f"{len(watches)} of {count} pages watched by name in {seconds:.1f} s"
        f" ({seconds / count * 1000:.1f} ms each)"
    )
    return watches


if __name__ == "__main__":
    main()
