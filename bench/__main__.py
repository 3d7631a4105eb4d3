"""``python -m bench``: measure sakuin against the FTS5 baseline at one or more vault sizes.

python -m bench                         # 1,000 and 10,000 pages
python -m bench --pages 50000           # add or choose sizes (repeatable)
python -m bench --pages 100000          # the large run (`make bench-large`): its own JSON and docs block
python -m bench --pages 200 --no-docs   # a quick run that leaves docs/benchmarks.md alone
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from rich.console import Console

from bench.generate import DEFAULT_SEED
from bench.measure import REPO, WorkerFailed
from bench.report import BLOCKS, machine_info, print_results, write_json, write_markdown
from bench.runner import measure_size
from bench.targets import LARGE_PAGES

DEFAULT_PAGES = (1_000, 10_000)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--pages", type=int, action="append", help="vault size (repeatable; default 1000, 10000)"
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument(
        "--work", type=Path, default=REPO / "bench" / "out", help="where vaults and indexes go"
    )
    parser.add_argument(
        "--json", type=Path, help="default bench/out/results.json (results-large.json for --block large)"
    )
    parser.add_argument("--docs", type=Path, default=REPO / "docs" / "benchmarks.md")
    parser.add_argument(
        "--block",
        choices=sorted(BLOCKS),
        help="the docs block to rewrite (default: large when every size is 100,000 pages or more)",
    )
    parser.add_argument("--no-docs", action="store_true", help="do not update the docs page")
    parser.add_argument("--cold-runs", type=int, default=3, help="fresh processes timed for cold start")
    parser.add_argument("--edits", type=int, default=5, help="one-page edits timed until answerable")
    args = parser.parse_args(argv)
    if any(pages < 10 for pages in args.pages or ()):
        parser.error("--pages must be at least 10")
    if args.block is None:
        large = bool(args.pages) and min(args.pages) >= LARGE_PAGES
        args.block = "large" if large else "results"
    if args.json is None:
        name = "results.json" if args.block == "results" else f"results-{args.block}.json"
        args.json = REPO / "bench" / "out" / name
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    console = Console() if sys.stdout.isatty() else Console(width=140)
    sizes = sorted(set(args.pages or DEFAULT_PAGES))
    command = "python -m bench " + " ".join(
        shlex.quote(arg) for arg in (sys.argv[1:] if argv is None else argv)
    )
    results = {"machine": machine_info(), "command": command.strip(), "runs": []}
    try:
        for pages in sizes:
            run = measure_size(
                pages,
                args.work,
                seed=args.seed,
                cold_runs=args.cold_runs,
                edits=args.edits,
                log=lambda message: console.log(message),
            )
            results["runs"].append(run)
            write_json(results, args.json)  # after each size, so a long run leaves what it has
    except WorkerFailed as error:
        console.print(f"[bold red]benchmark failed[/bold red]: {error}")
        return 1
    print_results(results, console)
    console.print(f"JSON: {args.json}")
    if not args.no_docs:
        write_markdown(results, args.docs, args.block)
        console.print(f"docs: {args.docs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
