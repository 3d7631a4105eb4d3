"""What the real-wiki benchmark prints (rich tables) and writes (``--json``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.table import Table

from bench.real.metrics import Measured, misses, wrong_answers
from bench.real.run import WikiRun

SCREEN_CHARS = 160
DIGEST_DAYS_SHOWN = 15
NONE = "–"


def print_run(run: WikiRun, console: Console) -> None:
    file = run.file
    answerable = sum(question.answerable for question in file.questions)
    console.print(
        f"\n[bold]{file.wiki}[/bold]  {file.repo or '?'} @ {(file.commit or '?')[:12]}  "
        f"vault {run.vault}: {run.pages} pages indexed in {run.build_s:.1f} s "
        f"(FTS5 {run.fts5_build_s:.1f} s); "
        f"{len(file.questions)} questions, {answerable} answerable, {len(file.questions) - answerable} not"
    )
    for problem in run.problems:
        console.print(f"  [yellow]{problem}[/yellow]", highlight=False)
    console.print(figures_table(run))
    for rows, title in (
        (misses(run.rows), "Misses: answer words not on the first screen"),
        (wrong_answers(run.rows), "Unanswerable questions answered"),
    ):
        console.print(misses_table(rows, title) if rows else f"{title}: none")
    console.print(digest_table(run.digest))


def figures_table(run: WikiRun) -> Table:
    figures = run.figures()
    table = Table(title=f"{run.file.wiki}: sakuin beside plain FTS5 (trigram, bm25) on the same pages")
    for column in ("", "questions", "first screen", "anywhere", "hit@1", "hit@3", "MRR"):
        table.add_column(column, justify="left" if not column else "right")
    for column in ("abstention P", "abstention R", "false abstention"):
        table.add_column(column, justify="right")
    groups = [("all", figures["all"]), *figures["by_lang"].items()]
    if len(figures["by_lang"]) == 1:
        groups = groups[:1]
    for name, group in groups:
        sakuin, fts5 = group["sakuin"], group["fts5"]
        table.add_row(
            f"sakuin · {name}",
            f"{sakuin['answerable']}+{sakuin['unanswerable']}",
            cell(sakuin["first_screen"]),
            cell(sakuin["anywhere"]),
            cell(sakuin["hit1"]),
            cell(sakuin["hit3"]),
            number(sakuin["mrr"]),
            cell(sakuin["abstention_precision"]),
            cell(sakuin["abstention_recall"]),
            cell(sakuin["false_abstention"]),
        )
        table.add_row(
            f"FTS5 · {name}",
            str(fts5["hit1"]["of"]),
            NONE,
            NONE,
            cell(fts5["hit1"]),
            cell(fts5["hit3"]),
            number(fts5["mrr"]),
            NONE,
            NONE,
            NONE,
            end_section=True,
        )
    table.caption = (
        "questions: answerable+unanswerable (FTS5: answerable with pages). first screen/anywhere over "
        "answerable; hit@k/MRR: sakuin's answer pages vs FTS5's top 5; abstention P = right/abstained, "
        "R = right/unanswerable, false = abstained/answerable"
    )
    return table


def misses_table(rows: Sequence[Measured], title: str) -> Table:
    table = Table(title=f"{title} ({len(rows)})", show_lines=True)
    for column, ratio in (
        ("id", 1),
        ("question", 3),
        ("expected pages", 3),
        ("sakuin's top 3", 3),
        ("status", 1),
        ("first screen", 6),
    ):
        table.add_column(column, ratio=ratio, overflow="fold")
    for row in rows:
        table.add_row(
            row.question.id,
            row.question.question,
            "\n".join(short(path) for path in row.question.pages) or NONE,
            "\n".join(short(path) for path in row.ranking[:3]) or NONE,
            row.status,
            clip(row.screen, SCREEN_CHARS),
        )
    return table


def digest_table(digest: dict) -> Table:
    total = digest["all_days"]
    fields = ", ".join(f"{field} {count}" for field, count in digest["fields"].items()) or "none"
    title = f"Digest: {digest['dated_pages']} pages dated ({fields}); {total['days']} days of dates and logs"
    table = Table(title=title)
    for column in ("day", "dated", "dated sources", "digest", "right", "precision", "recall"):
        table.add_column(column, justify="left" if column == "day" else "right")
    table.add_column("recall (sources)", justify="right")
    table.add_column("ms", justify="right")
    days = sorted(digest["days"], key=lambda row: -(row["expected"] + row["digested"]))[:DIGEST_DAYS_SHOWN]
    for row in sorted(days, key=lambda row: row["day"]):
        table.add_row(*digest_cells(row), f"{row['ms']:.1f}")
    mean = total["ms_mean"]
    times = NONE if mean is None else f"{mean:.1f} mean, {total['ms_max']:.1f} max"
    table.add_row(*digest_cells({**total, "day": "all days"}), times, style="bold")
    if len(digest["days"]) > len(days):
        table.caption = f"the {len(days)} busiest of {len(digest['days'])} days shown; all in --json"
    return table


def digest_cells(row: dict) -> list[str]:
    return [
        row["day"],
        str(row["expected"]),
        str(row["expected_sources"]),
        str(row["digested"]),
        str(row["right"]),
        number(row["precision"], percent=True),
        number(row["recall"], percent=True),
        number(row["recall_sources"], percent=True),
    ]


def cell(figure: dict) -> str:
    if figure["rate"] is None:
        return NONE
    return f"{figure['rate']:.0%} ({figure['count']}/{figure['of']})"


def number(value: float | None, *, percent: bool = False) -> str:
    if value is None:
        return NONE
    return f"{value:.0%}" if percent else f"{value:.2f}"


def short(path: str) -> str:
    return path.removesuffix(".md")


def clip(text: str, chars: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= chars else text[: chars - 1] + "…"


def run_json(run: WikiRun) -> dict:
    file = run.file
    return {
        "wiki": file.wiki,
        "questions_file": str(file.path),
        "repo": file.repo,
        "commit": file.commit,
        "vault": str(run.vault),
        "pages": run.pages,
        "build_s": run.build_s,
        "fts5_build_s": run.fts5_build_s,
        "problems": list(run.problems),
        "figures": run.figures(),
        "digest": run.digest,
        "questions": [row_json(row) for row in run.rows],
    }


def row_json(row: Measured) -> dict:
    question = row.question
    return {
        "id": question.id,
        "lang": question.lang,
        "kind": question.kind,
        "question": question.question,
        "answerable": question.answerable,
        "pages": list(question.pages),
        "answer": ["|".join(group) for group in question.keys],
        "first_screen": row.first_screen,
        "anywhere": row.anywhere,
        "status": row.status,
        "status_from": row.status_from,
        "abstained": row.abstained,
        "confidence": row.confidence,
        "ranking": list(row.ranking),
        "cited": list(row.cited),
        "fts5_ranking": list(row.fts5_ranking),
        "screen": row.screen,
        "ms": row.ms,
    }


def write_json(path: Path, machine: dict, runs: Sequence[WikiRun], skipped: Sequence[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"machine": machine, "wikis": [run_json(run) for run in runs], "skipped": list(skipped)}
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
