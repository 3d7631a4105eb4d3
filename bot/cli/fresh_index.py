"""The index as the command line keeps it: opened from the settings, brought up to date before a
command reads it (with a progress bar while it is built), and the report of what was built, left
out and skipped."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from bot.cli.reasons import reason_text
from bot.cli.terminal import err
from bot.i18n import _
from config.settings import Settings, require_wiki_dir
from index import IndexReport, VaultSurvey, Wiki

VAULT_NOTE = "VAULT"
"""The file in an index folder that names the vault it was last brought up to date for."""


def open_wiki(settings: Settings) -> Wiki:
    require_wiki_dir(settings)
    note_vault(settings.wiki_dir, settings.index_dir)
    return Wiki.open(settings.wiki_dir, settings.index_dir, settings.wiki_base_url)


def note_vault(vault: Path, index_dir: Path) -> None:
    """Say so when the index was built for another vault (one INDEX_DIR for two vaults), then
    record this one: without INDEX_DIR each vault has its own (`config.settings.index_dir_for`)."""
    note = index_dir / VAULT_NOTE
    here = str(vault.expanduser().resolve())
    try:
        before = note.read_text(encoding="utf-8").strip()
    except OSError:
        before = None
    if before == here:
        return
    if before:
        err.print(
            _(
                "sakuin: the index in {index} was built for {other}, not {vault}: it is brought up to"
                " date for {vault} (leave INDEX_DIR unset and each vault keeps an index of its own)"
            ).format(index=index_dir, other=before, vault=here)
        )
    with contextlib.suppress(OSError):  # an index folder that cannot be written fails on its own
        index_dir.mkdir(parents=True, exist_ok=True)
        note.write_text(here + "\n", encoding="utf-8")


def fresh_wiki(settings: Settings) -> Wiki:
    """The wiki with its index brought up to date first (a first run builds it, with progress)."""
    wiki = open_wiki(settings)
    building = wiki.state().status != "ready"
    report = update_with_progress(wiki, rebuild=False) if building else wiki.update()
    if building:
        print_report(report, err)
    return wiki


def update_with_progress(wiki: Wiki, *, rebuild: bool) -> IndexReport:
    columns = (TextColumn("indexing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    # No refresh thread: a large build forks index workers, and forking beside a thread is unsafe.
    with Progress(*columns, console=err, transient=True, auto_refresh=False) as progress:
        task = progress.add_task("index", total=None)

        def advance(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total, refresh=True)

        return wiki.update(rebuild=rebuild, progress=advance, workers=build_workers())


def build_workers() -> int:
    """Processes for a full build from the command line (single-threaded, so it may fork)."""
    return min(os.cpu_count() or 1, 4)


def print_report(report: IndexReport, console: Console) -> None:
    summary = (
        _(
            "index built: {pages} pages in {seconds:.2f} s; files: {added} added, {changed} changed, "
            "{removed} removed, {skipped} skipped"
        )
        if report.rebuilt
        else _(
            "index updated: {pages} pages in {seconds:.2f} s; files: {added} added, {changed} changed, "
            "{removed} removed, {skipped} skipped"
        )
    )
    console.print(
        summary.format(
            pages=report.pages,
            seconds=report.seconds,
            added=report.added,
            changed=report.changed,
            removed=report.removed,
            skipped=len(report.skipped),
        )
    )
    if report.removal_warning:
        console.print(_("warning: {warning}").format(warning=report.removal_warning))
    if report.survey is not None:
        print_survey(report.survey, console)
    if report.skipped or report.warnings:
        table = Table(_("file"), _("problem"), title=_("files with problems"), title_justify="left")
        for item in report.skipped:
            table.add_row(item.path, _("skipped: {reason}").format(reason=reason_text(item.reason)))
        for item in report.warnings:
            table.add_row(item.path, _("indexed: {reason}").format(reason=reason_text(item.reason)))
        console.print(table)


def print_survey(survey: VaultSurvey, console: Console) -> None:
    """Per top folder: notes indexed, notes left out and why; then the warning, if any."""
    table = Table(
        _("folder"), _("indexed"), _("left out"), _("why"), title=_("notes per folder"), title_justify="left"
    )
    for folder in survey.folders:
        left_out = sum(count for _reason, count in folder.left_out)
        why = ", ".join(f"{reason_text(reason)}: {count}" for reason, count in folder.left_out)
        table.add_row(folder.folder, str(folder.indexed), str(left_out) if left_out else "", why)
    console.print(table)
    if survey.warning:
        console.print(_("warning: {warning}").format(warning=survey.warning))
