"""Vaults pushed by someone who means harm, through `sakuin index` and the real indexer: links out of
the vault, devices, FIFOs, files swapped for links while the indexer reads."""

from __future__ import annotations

import logging
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from index.asking.splitting import MAX_SENTENCE_CHARS
from index.model import FolderCount
from index.reading.pages import MAX_NAME_CHARS, MAX_PAGE_BYTES, parse_page
from index.reading.vault import SYMLINK, RefusedFile, read_vault_file, scan_vault, survey_vault
from index.store.chunks import MAX_CHUNK_CHARS, split_passages
from index.wiki import Wiki
from tests.vaults import billion_laughs, entity, write_vault

SECRET = "xoxb-hostile-vault-secret"
INDEX_TIMEOUT_S = 120
MEMORY_LIMIT = 3 << 30
"""Address space of the `sakuin index` under test: a read of /dev/zero fails instead of taking the machine."""


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder beside the vault holding a secret note, as any file of the machine would."""
    return write_vault(tmp_path / "outside", {"Secret.md": f"# Secret\n\nSLACK_BOT_TOKEN={SECRET}\n"})


def hostile_vault(root: Path, outside: Path) -> Path:
    vault = write_vault(
        root, {"wiki/entities/Alpha.md": entity("Alpha"), "wiki/concepts/Beta.md": "# Beta\n"}
    )
    entities = vault / "wiki/entities"
    os.symlink("/proc/self/environ", entities / "Environ.md")
    os.symlink(outside / "Secret.md", entities / "Outside.md")
    os.symlink("/dev/zero", entities / "Zero.md")
    os.symlink("Alpha.md", entities / "Inside.md")  # a link to a note of the vault: not followed either
    os.symlink(outside, vault / "wiki/shared")  # a linked folder: never walked
    os.mkfifo(entities / "Pipe.md")
    return vault


def test_sakuin_index_reads_no_link_device_or_fifo_and_counts_each(tmp_path: Path, outside: Path) -> None:
    vault = hostile_vault(tmp_path / "vault", outside)
    environment = {
        "PATH": os.environ.get("PATH", ""),
        "WIKI_DIR": str(vault),
        "INDEX_DIR": str(tmp_path / "index"),
        "STATE_DB": str(tmp_path / "state.sqlite3"),
        "UI_LANGUAGE": "en",
        "COLUMNS": "200",
        "SLACK_SIGNING_SECRET": SECRET,  # what /proc/self/environ would hand over
    }
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from bot.cli import main; sys.exit(main(['index']))"],
        env=environment,
        capture_output=True,
        text=True,
        timeout=INDEX_TIMEOUT_S,
        preexec_fn=_limit_memory,
    )
    assert done.returncode == 0, done.stderr
    assert "symbolic link: 4" in done.stdout and "not a regular file: 1" in done.stdout
    assert "wiki/shared" in done.stdout and SECRET not in done.stdout + done.stderr
    wiki = Wiki.open(vault, tmp_path / "index")
    assert {page.title for page in wiki.live().catalog.pages.values()} == {"Alpha", "Beta"}
    assert wiki.search(SECRET).hits == () and wiki.search("SLACK_BOT_TOKEN").hits == ()


def test_the_survey_counts_links_and_fifos_under_their_reasons(tmp_path: Path, outside: Path) -> None:
    vault = hostile_vault(tmp_path / "vault", outside)
    assert [file.path for file in scan_vault(vault).files] == [
        "wiki/concepts/Beta.md",
        "wiki/entities/Alpha.md",
    ]
    folders = {folder.folder: folder for folder in survey_vault(vault).folders}
    assert folders["wiki/entities"] == FolderCount(
        "wiki/entities", 1, (("symbolic link", 4), ("not a regular file", 1))
    )
    assert folders["wiki/shared"] == FolderCount("wiki/shared", 0, (("symbolic link", 1),))


def test_a_file_swapped_for_a_link_after_the_walk_is_not_followed(tmp_path: Path, outside: Path) -> None:
    """The indexer reads the pages in order after walking the vault: while it writes the first, the
    second becomes a link out of the vault, and a folder on the third's way a linked folder."""
    vault = write_vault(
        tmp_path / "vault",
        {
            "wiki/entities/A.md": entity("Alpha"),
            "wiki/entities/B.md": entity("Bravo"),
            "wiki/people/C.md": entity("Charlie"),
        },
    )
    write_vault(outside, {"C.md": f"# Charlie\n\n{SECRET}\n"})

    def swap(done: int, total: int) -> None:
        if done == 1:
            os.replace(
                _link_to(outside / "Secret.md", vault / "wiki/entities/B.link"), vault / "wiki/entities/B.md"
            )
            os.rename(vault / "wiki/people", tmp_path / "people")
            os.symlink(outside, vault / "wiki/people")

    wiki = Wiki.open(vault, tmp_path / "index")
    report = wiki.update(progress=swap)
    assert [(item.path, item.reason) for item in report.skipped] == [
        ("wiki/entities/B.md", SYMLINK),
        ("wiki/people/C.md", SYMLINK),
    ]
    assert wiki.search(SECRET).hits == () and wiki.lookup("Alpha").match is not None


def test_a_watched_path_through_a_linked_folder_or_to_a_link_is_not_read(
    tmp_path: Path, outside: Path
) -> None:
    vault = write_vault(tmp_path / "vault", {"wiki/entities/A.md": entity("Alpha")})
    wiki = Wiki.open(vault, tmp_path / "index")
    wiki.update()
    os.symlink(outside, vault / "wiki/shared")
    os.symlink(outside / "Secret.md", vault / "wiki/entities/Secret.md")
    report = wiki.update(paths=[vault / "wiki/shared/Secret.md", vault / "wiki/entities/Secret.md"])
    assert report.added == 0 and wiki.search(SECRET).hits == ()


@pytest.mark.parametrize("kind", ["link out", "link in", "fifo", "linked folder on the way"])
def test_read_vault_file_refuses_what_is_not_a_regular_file(tmp_path: Path, outside: Path, kind: str) -> None:
    vault = write_vault(tmp_path / "vault", {"wiki/A.md": "# A\n", "wiki/entities/B.md": "# B\n"})
    spelled = "wiki/X.md"
    if kind == "link out":
        os.symlink(outside / "Secret.md", vault / spelled)
    elif kind == "link in":
        os.symlink("A.md", vault / spelled)
    elif kind == "fifo":
        os.mkfifo(vault / spelled)
    else:
        os.symlink(outside, vault / "wiki/linked")
        spelled = "wiki/linked/Secret.md"
    with pytest.raises(RefusedFile):
        read_vault_file(str(vault), spelled)
    assert read_vault_file(str(vault), "wiki/entities/B.md") == b"# B\n"


def _link_to(target: Path, link: Path) -> Path:
    os.symlink(target, link)
    return link


def test_splitting_a_long_line_into_passages_takes_linear_time() -> None:
    """16 MB without a sentence end took 11 s when each cut copied the rest of the line."""
    started = time.process_time()  # this process's CPU: other work on the machine does not count
    pieces = split_passages("x" * (16 << 20))
    assert time.process_time() - started < 4.0
    assert len(pieces) == -(-(16 << 20) // MAX_CHUNK_CHARS) and {len(piece) for piece in pieces} == {
        MAX_CHUNK_CHARS,
        (16 << 20) % MAX_CHUNK_CHARS,
    }


def test_only_the_first_megabytes_of_a_huge_page_are_indexed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A 50 MB single-line page, and a page whose H1 alone is a megabyte."""
    vault = write_vault(tmp_path / "vault", {"wiki/entities/A.md": entity("Alpha")})
    line = "zqfirst " + "x" * (50 << 20) + " zqlast"
    (vault / "wiki/entities/Huge.md").write_text(f"# Huge\n\n{line}\n", encoding="utf-8")
    (vault / "wiki/entities/Long Title.md").write_text("# " + "長い名前 " * 100_000 + "\n\nzqbody\n")
    started = time.perf_counter()
    with caplog.at_level(logging.WARNING, logger="sakuin.index"):
        report = Wiki.open(vault, tmp_path / "index").update()
    assert time.perf_counter() - started < 60
    warned = {item.path: item.reason for item in report.warnings}
    assert "only its first 2 MB are indexed" in warned["wiki/entities/Huge.md"]
    assert "title longer than 200 characters" in warned["wiki/entities/Long Title.md"]
    assert "wiki/entities/Huge.md" in caplog.text and "2 MB" in caplog.text
    wiki = Wiki.open(vault, tmp_path / "index")
    assert [hit.path for hit in wiki.search("zqfirst").hits] == ["wiki/entities/Huge.md"]
    assert wiki.search("zqlast").hits == ()
    long_title = wiki.live().catalog.pages.get("wiki/entities/Long Title.md")
    assert long_title is not None and len(long_title.title) <= MAX_NAME_CHARS
    assert long_title.title.startswith("長い名前 長い名前")
    assert [hit.path for hit in wiki.search("zqbody").hits] == ["wiki/entities/Long Title.md"]


@pytest.mark.parametrize("offset", [0, 1, 2])
def test_a_page_is_cut_at_the_cap_between_two_characters(offset: int) -> None:
    """Whatever byte the cap falls on, no character is cut in two (no "invalid UTF-8" problem)."""
    head = "# X\n\n" + "a" * offset
    data = (head + "あ" * (MAX_PAGE_BYTES // 3 + 10)).encode()
    parsed = parse_page("wiki/entities/X.md", data, "entity")
    assert parsed.page is not None
    assert parsed.problems == ("larger than 2 MB: only its first 2 MB are indexed",)
    text = parsed.page.sections[0].text
    assert set(text[offset:]) == {"あ"} and len(text[offset:]) == (MAX_PAGE_BYTES - len(head)) // 3


def test_comments_reach_no_card_search_or_answer(tmp_path: Path) -> None:
    """Obsidian hides ``%%…%%`` and ``<!-- … -->``: people keep reviewer notes and secrets there."""
    vault = write_vault(
        tmp_path / "vault",
        {
            "wiki/entities/Acme.md": (
                "---\ntype: entity\n---\n# Acme\n\n"
                "%%reviewer: zqhidden1%%Acme は東京の会社。<!-- zqhidden2 -->\n\n"
                "## 概要\n\n%%\nSLACK_BOT_TOKEN=zqhidden3\n%%\nAcme は部品を作る。\n\n"
                "<!--\nzqhidden4\n-->\n## 関連\n\n- 取引先: [[Beta]] %%[[Gamma]] zqhidden5%%\n"
                "\n`%%zqcode%%` は表記の例。\n"
            ),
            "wiki/entities/Beta.md": entity("Beta"),
        },
    )
    wiki = Wiki.open(vault, tmp_path / "index")
    wiki.update()
    shown = repr(
        (
            wiki.card("wiki/entities/Acme.md"),
            wiki.live().catalog.pages.get("wiki/entities/Acme.md"),
            wiki.answer("Acme は何を作る?"),
            wiki.search("Acme").hits,
        )
    )
    assert "zqhidden" not in shown and "部品を作る" in shown and "Gamma" not in shown
    for n in range(1, 6):
        assert wiki.search(f"zqhidden{n}").hits == ()
    assert [hit.path for hit in wiki.search("zqcode").hits] == ["wiki/entities/Acme.md"]


def test_bad_frontmatter_loses_a_field_or_its_yaml_never_the_page(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    vault = write_vault(
        tmp_path / "vault",
        {
            "wiki/entities/Bad Date.md": "---\ntitle: Bad Date\ncreated: 2026-02-30\n---\n# Bad Date\n",
            "wiki/entities/Laughs.md": billion_laughs().replace("title: Bomb", "title: Laughs"),
            "wiki/entities/Anchor Bomb.md": "---\na: &a [*a]\ntitle: Anchor Bomb\n---\n# Anchor Bomb\n",
        },
    )
    started = time.perf_counter()
    with caplog.at_level(logging.WARNING, logger="sakuin.index"):
        report = Wiki.open(vault, tmp_path / "index").update()
    assert time.perf_counter() - started < 30
    assert report.skipped == () and report.pages == 3
    warned = {item.path: item.reason for item in report.warnings}
    assert warned["wiki/entities/Bad Date.md"] == (
        "frontmatter field 'created' dropped: '2026-02-30' is not a valid date"
    )
    assert "YAML aliases" in warned["wiki/entities/Laughs.md"]
    assert "refers to itself" in warned["wiki/entities/Anchor Bomb.md"]
    assert "wiki/entities/Bad Date.md with a problem: frontmatter field 'created'" in caplog.text
    wiki = Wiki.open(vault, tmp_path / "index")
    for title in ("Bad Date", "Laughs", "Anchor Bomb"):
        match = wiki.lookup(title).match
        assert match is not None and match.title == title
    assert wiki.live().catalog.pages.get("wiki/entities/Bad Date.md").created is None


FRAGMENTS = (
    "---\n", "---\ntitle: T\n---\n", "title: [a, b]\n", "aliases: {a: 1}\n", "created: 2026-02-30\n",
    "a: &a [*a]\n", "related: [[X]]\n", 'date_published: "²⁰²⁴"\n', "year: !!int x\n", "? [a]\n: b\n",
    "# ", "## ", "### ", "%%", "<!--", "-->", "`", "```", "~~~", "[[", "]]", "|", "\\|", "#", "^",
    "> [!note]- 編纂前の観察\n", "> [!abstract] 概要\n", "- ", "- 関連: ", " ## 関連 - ソース: ",
    "\n", "\n\n", "\r\n", "\ufeff", "\ud800", "\x00", "。", "!", "?", ". ", "<!channel>", "@2024__NSDI__X",
    "x" * 800, "長文" * 300, "[[A|B]]", "![[f.png]]", "&a", "*a", "{", "}", ":", "：", "**", "__", SECRET,
)  # fmt: skip
"""Pieces of hostile pages: bad frontmatter, unclosed code and comments, stray marks, lone surrogates."""


def hostile_page(rng: random.Random) -> bytes:
    text = "".join(rng.choice(FRAGMENTS) for _ in range(rng.randrange(1, 40)))
    if rng.random() < 0.05:
        text = billion_laughs() + text
    return text.encode("utf-8", errors="surrogatepass")  # a lone surrogate: bytes that are not UTF-8


def test_random_hostile_pages_are_read_or_skipped_never_raise() -> None:
    rng = random.Random(21)
    for _ in range(2000):
        path = rng.choice(["wiki/entities/X.md", "wiki/sources/@2024__NSDI__Y - Z.md", "notes/a.md", "0.txt"])
        parsed = parse_page(path, hostile_page(rng), rng.choice([None, "entity", "source", "brief"]))
        assert parsed.page is not None or parsed.problems == ("empty file",)
        if parsed.page is not None:
            assert len(parsed.page.title) <= MAX_NAME_CHARS


@pytest.mark.parametrize("seed", range(3))
def test_random_hostile_vaults_are_indexed_and_kept_without_reading_outside(
    tmp_path: Path, outside: Path, seed: int
) -> None:
    """Hostile pages beside links (out of the vault, into it, to devices), FIFOs and linked folders;
    built, then changed, then compared with a fresh build."""
    rng = random.Random(seed)
    folders = ("entities", "concepts", "sources", "team")
    vault = write_vault(
        tmp_path / "vault",
        {f"wiki/{rng.choice(folders)}/P{n}.md": hostile_page(rng) for n in range(40)},
    )
    targets = (outside / "Secret.md", outside, Path("/dev/zero"), Path("/proc/self/environ"), Path("P0.md"))
    for n in range(8):
        place = vault / "wiki" / rng.choice(folders)
        place.mkdir(parents=True, exist_ok=True)
        if rng.random() < 0.2:
            os.mkfifo(place / f"F{n}.md")
        else:
            os.symlink(rng.choice(targets), place / (f"L{n}.md" if rng.random() < 0.8 else f"linked{n}"))
    wiki = Wiki.open(vault, tmp_path / "index")
    reports = [wiki.update()]
    for n in rng.sample(range(40), 15):
        for path in vault.glob(f"wiki/*/P{n}.md"):
            path.write_bytes(hostile_page(rng))
    reports.append(wiki.update())
    for report in reports:
        assert {item.reason for item in report.skipped} <= {"empty file"}
        assert not any("could not be read" in item.reason for item in report.warnings)
    assert wiki.search(SECRET).hits == () or all(
        hit.path.rsplit("/", 1)[-1].startswith("P") for hit in wiki.search(SECRET).hits
    )
    fresh = Wiki.open(vault, tmp_path / "fresh")
    fresh.update()
    assert set(fresh.live().catalog.pages) == set(wiki.live().catalog.pages)
    assert all(len(page.title) <= MAX_NAME_CHARS for page in wiki.live().catalog.pages.values())


def test_lines_written_to_make_a_pattern_backtrack_are_read_at_once(tmp_path: Path) -> None:
    """A log line whose code span is blanked to spaces, a relation bullet of spaces, an alias of
    spaces and a run of ``[``: each took minutes (a log line of 300 blanked characters, five) when
    two quantifiers of a pattern could share the same spaces."""
    spaces = " " * 3000
    files = {
        "wiki/log.md": f"## [2026-09-01] ingest | x\n\n- `{'x' * 3000}` and no label\n",
        "wiki/entities/Alpha.md": entity("Alpha", body=f"## 関連\n\n- {spaces}x\n\n{'[' * 50000}\n"),
        "wiki/sources/@2025__NSDI__Beta.md": (
            f'---\ntype: source\ntitle: "Beta"\naliases:\n  - "{spaces}x"\n---\n\n# Beta\n'
        ),
    }
    root = write_vault(tmp_path / "vault", files)
    started = time.perf_counter()
    wiki = Wiki.open(root, tmp_path / "index")
    wiki.update()
    assert time.perf_counter() - started < 20.0
    assert {page.title for page in wiki.live().catalog.pages.values()} >= {"Alpha", "Beta"}


def test_lines_written_against_the_sentence_patterns_are_answered_at_once(tmp_path: Path) -> None:
    """A run of lowerCamelCase, of regex classes, of titles and of full stops, read by the answer
    step (`camel_parts`, `strip_citations`, the sentence ends): each pattern is read once, in order."""
    files = {
        "wiki/entities/Gamma.md": entity(
            "Gamma",
            body=(
                f"maxPayload {'aB' * 20000}\n\n{'^[1-9][0-9]' * 5000} [3]\n\n"
                f"{'the Rev. Foyster met Prof. Hans vs. Vue. ' * 2000}\n\n{'ab.' * 20000}\n"
            ),
        ),
    }
    root = write_vault(tmp_path / "vault", files)
    wiki = Wiki.open(root, tmp_path / "index")
    wiki.update()
    started = time.perf_counter()
    answer = wiki.answer("What max payload does Gamma take, and what did the Rev. Foyster say?")
    assert time.perf_counter() - started < 20.0
    assert answer.question and all(len(sentence.text) <= MAX_SENTENCE_CHARS for sentence in answer.sentences)
