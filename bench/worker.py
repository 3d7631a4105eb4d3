"""One measurement in a fresh process, so that memory and start-up are those of a real process.

    python -m bench.worker {build|cold|serve|update} --engine sakuin --vault DIR --index DIR \
        --queries FILE --out FILE

Each task writes its figures as JSON to ``--out``. ``cold`` also prints one line the moment the first
answer exists, so the parent can time start-up from spawn to answer.
"""

from __future__ import annotations

import time

STARTED = time.perf_counter()  # before any heavy import: cold start counts imports

import argparse  # noqa: E402
import json  # noqa: E402
import resource  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

import psutil  # noqa: E402

from bench.answer_keys import answered, normalise  # noqa: E402
from bench.engines import Engine, open_engine  # noqa: E402
from bot.memory import collect_less_often, exempt_the_index  # noqa: E402

WARMUP = ("warm up", "ウォームアップ")
VISIBLE_TIMEOUT_S = 60.0


def peak_rss_mb() -> dict[str, float]:
    """Peak resident memory (Linux reports ru_maxrss in KiB) of this process and of its waited children."""
    return {
        "self_peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "children_peak_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
    }


def task_build(engine: Engine, queries: dict) -> dict:
    started = time.perf_counter()
    engine.build()
    return {"seconds": time.perf_counter() - started, **peak_rss_mb()}


def task_cold(engine: Engine, queries: dict, opened_s: float) -> dict:
    answer = engine.lookup(queries["lookups"][0]["query"])
    answered = time.perf_counter() - STARTED
    print("answered", flush=True)
    return {"open_s": opened_s, "first_answer_s": answered, "paths": answer.paths[:1]}


def task_serve(engine: Engine, queries: dict) -> dict:
    """Answer every lookup and question once (after a short warm-up), recording latency and results; then
    compose the reply to every question (timed apart, after the memory figure) and check its answer keys."""
    for text in WARMUP:
        engine.lookup(text)
        engine.search(text, 5)
    lookups = []
    for query in queries["lookups"]:
        started = time.perf_counter()
        answer = engine.lookup(query["query"])
        lookups.append(
            {
                "ms": (time.perf_counter() - started) * 1000,
                "paths": answer.paths[:8],
                "decided": answer.decided,
            }
        )
    searches = []
    for query in queries["questions"]:
        started = time.perf_counter()
        paths = engine.search(query["query"], 5)
        searches.append({"ms": (time.perf_counter() - started) * 1000, "paths": paths})
    rss_mb = psutil.Process().memory_info().rss / 2**20  # before replies: the figure is the search's
    engine.reply(WARMUP[1])
    return {
        "lookups": lookups,
        "searches": searches,
        "replies": [reply_row(engine, query) for query in queries["questions"]],
        "rss_mb": rss_mb,
        **peak_rss_mb(),
    }


def reply_row(engine: Engine, query: dict) -> dict:
    """Compose the reply to a question and check its answer keys on the first screen and anywhere in it."""
    from bot.blocks.visible import first_screen, visible_text

    started = time.perf_counter()
    blocks = engine.reply(query["query"])
    ms = (time.perf_counter() - started) * 1000
    screen = first_screen(blocks)
    return {
        "ms": ms,
        "first_screen": answered(query["keys"], screen, query["query"]),
        "in_reply": answered(query["keys"], normalise(visible_text(blocks)), query["query"]),
        "screen": screen,
    }


def task_update(engine: Engine, queries: dict, vault: Path, edits: int) -> dict:
    """Edit pages one at a time; time from the write until search and lookup both show the edit."""
    engine.search(WARMUP[0], 5)
    started = time.perf_counter()
    engine.refresh([])
    noop_s = time.perf_counter() - started
    targets = list(dict.fromkeys(query["expected"] for query in queries["lookups"]))[:edits]
    results = []
    for number, path in enumerate(targets):
        word, alias = f"Zqxbody{number}w", f"Zqxalias{number}a"
        text = (vault / path).read_text(encoding="utf-8")
        started = time.perf_counter()
        (vault / path).write_text(add_edit(text, word, alias), encoding="utf-8")
        refreshes = 0
        while True:
            engine.refresh([path])
            refreshes += 1
            visible = path in engine.search(word, 5) and engine.lookup(alias).paths[:1] == [path]
            elapsed = time.perf_counter() - started
            if visible or elapsed > VISIBLE_TIMEOUT_S:
                break
        results.append({"path": path, "seconds": elapsed, "visible": visible, "refreshes": refreshes})
    return {"noop_refresh_s": noop_s, "edits": results}


def add_edit(text: str, word: str, alias: str) -> str:
    """Append a sentence holding ``word`` and add ``alias`` to the frontmatter aliases."""
    if "\naliases: []\n" in text:
        text = text.replace("\naliases: []\n", f'\naliases:\n  - "{alias}"\n', 1)
    else:
        text = text.replace("\naliases:\n", f'\naliases:\n  - "{alias}"\n', 1)
    return text.rstrip("\n") + f"\n\n更新メモ: {word}の挙動を追記した。\n"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.worker")
    parser.add_argument("task", choices=("build", "cold", "serve", "update"))
    parser.add_argument("--engine", required=True)
    parser.add_argument("--vault", type=Path, required=True)
    parser.add_argument("--index", type=Path, required=True)
    parser.add_argument("--queries", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--edits", type=int, default=5)
    args = parser.parse_args(argv)
    queries = json.loads(args.queries.read_text(encoding="utf-8"))
    engine = open_engine(args.engine, args.vault, args.index)
    if args.task in ("cold", "serve"):  # as the bot serves (`bot.serve.runtime`, `bot.serve.freshness`)
        collect_less_often()
        exempt_the_index()
    opened_s = time.perf_counter() - STARTED
    if args.task == "build":
        result = task_build(engine, queries)
    elif args.task == "cold":
        result = task_cold(engine, queries, opened_s)
    elif args.task == "serve":
        result = task_serve(engine, queries)
    else:
        result = task_update(engine, queries, args.vault, args.edits)
    args.out.write_text(json.dumps(result, ensure_ascii=False), encoding="utf-8")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
