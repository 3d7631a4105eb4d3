"""``python -m bench.real``: sakuin's answers on real wikis, beside plain FTS5, and the digest's days.

python -m bench.real --vault DIR --questions FILE              # one wiki
python -m bench.real --questions A.yaml --vault DIR_A --questions B.yaml --vault DIR_B
python -m bench.real --wikis /work/wikis                       # every bench/real/*.yaml whose vault
                                                               # is under /work/wikis/<wiki>/
python -m bench.real --wikis /work/wikis --questions A.yaml --json bench/out/real.json

The n-th ``--vault`` goes with the n-th ``--questions``; a question file without one is looked up as
``WIKIS/<wiki>/`` (its ``vault:`` folder inside, when it has one). Indexes are built in a temporary
folder (``--work`` keeps them). It is a benchmark, not a test: it prints figures and exits 0 when
every wiki it found ran.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from rich.console import Console

from bench.measure import REPO
from bench.real.questions import QuestionFile, QuestionFileError, load_question_file
from bench.real.report import print_run, write_json
from bench.real.run import WikiRun, resolve_vault, run_wiki
from bench.report import machine_info

QUESTIONS_DIR = REPO / "bench" / "real"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.real", description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=Path, action="append", default=[], help="a question file")
    parser.add_argument("--vault", type=Path, action="append", default=[], help="its vault (in order)")
    parser.add_argument("--wikis", type=Path, help="a folder of vaults, one <wiki> subfolder each")
    parser.add_argument("--json", type=Path, help="write every figure and question row here")
    parser.add_argument("--work", type=Path, help="build the indexes here (kept) instead of a temp folder")
    args = parser.parse_args(argv)
    if len(args.vault) > len(args.questions):
        parser.error("each --vault goes with a --questions file given before or after it, in order")
    if not args.questions and args.wikis is None:
        parser.error("give --questions FILE --vault DIR, or --wikis DIR for every bench/real/*.yaml")
    if not args.questions:
        args.questions = sorted(QUESTIONS_DIR.glob("*.yaml"))
    return args


def find_vault(file: QuestionFile, given: Path | None, wikis: Path | None) -> Path | None:
    folder = given if given is not None else (wikis / file.wiki if wikis is not None else None)
    if folder is None or not folder.is_dir():
        return None
    return resolve_vault(folder, file.vault)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    console = Console(width=None if sys.stdout.isatty() else 200)
    runs: list[WikiRun] = []
    skipped: list[str] = []
    failed = False
    for number, path in enumerate(args.questions):
        try:
            file = load_question_file(path)
        except QuestionFileError as error:
            console.print(f"[red]{error}[/red]", highlight=False)
            failed = True
            continue
        given = args.vault[number] if number < len(args.vault) else None
        vault = find_vault(file, given, args.wikis)
        if vault is None:
            where = given if given is not None else (args.wikis / file.wiki if args.wikis else "?")
            skipped.append(f"{path}: no vault at {where}")
            console.print(f"[yellow]skipped {file.wiki}: no vault at {where}[/yellow]", highlight=False)
            failed = failed or given is not None
            continue
        if args.work is not None:
            run = run_wiki(file, vault, args.work / file.wiki)
        else:
            with tempfile.TemporaryDirectory(prefix=f"bench-real-{file.wiki}-") as work:
                run = run_wiki(file, vault, Path(work))
        print_run(run, console)
        runs.append(run)
    if not runs:
        console.print("[red]no wiki was measured[/red]")
    if args.json is not None:
        write_json(args.json, machine_info(), runs, skipped)
        console.print(f"written {args.json}", highlight=False)
    return 1 if failed or not runs else 0


if __name__ == "__main__":
    sys.exit(main())
