"""How long a day's digest takes on a large synthetic vault (the catalog keeps the dates: no page
that is not new that day is read).

    python -m bench.digest --pages 10000 --out bench/out/digest-10000

generates the vault (`bench.generate`) unless ``<out>/vault`` exists, builds the index once, then
times the digest of each day the log records (and of a day without anything new), as
``sakuin digest`` computes it after bringing the index up to date.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from datetime import date
from pathlib import Path
from zoneinfo import ZoneInfo

from bench.generate import DEFAULT_SEED, generate
from index.reading.wiki_log import parse_log
from index.wiki import Wiki

ZONE = ZoneInfo("Asia/Tokyo")


def measure(pages: int, out: Path, seed: int = DEFAULT_SEED, days: int = 20) -> dict[str, object]:
    vault = out / "vault"
    if not vault.exists():
        generate(pages, out, seed, lookups=10, questions=10)
    wiki = Wiki.open(vault, out / "index")
    started = time.perf_counter()
    report = wiki.update(workers=2)
    built = time.perf_counter() - started
    log_text = (vault / "wiki" / "log.md").read_text(encoding="utf-8")
    started = time.perf_counter()
    entries = parse_log(log_text)
    parsed = time.perf_counter() - started
    logged = sorted({date.fromisoformat(entry.when[:10]) for entry in entries})
    chosen = [*logged[:: max(1, len(logged) // days)][:days], date(2000, 1, 1)]
    wiki.digest(chosen[0], zone=ZONE)  # warm: the first read opens the catalog
    timings, items, summarised = [], [], 0
    for day in chosen:
        started = time.perf_counter()
        digest = wiki.digest(day, zone=ZONE)
        timings.append(time.perf_counter() - started)
        items.append(digest.count)
        summarised += digest.summary is not None
    return {
        "pages": report.pages,
        "build_s": round(built, 1),
        "log_entries": len(entries),
        "log_parse_s": round(parsed, 3),
        "days": len(chosen),
        "digest_median_s": round(statistics.median(timings), 3),
        "digest_max_s": round(max(timings), 3),
        "items_per_day_max": max(items),
        "days_summarised": summarised,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.digest", description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--days", type=int, default=20)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.pages, args.out, args.seed, args.days), indent=1))


if __name__ == "__main__":
    main()
