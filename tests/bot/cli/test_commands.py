"""The `sakuin` command: contract JSON shapes, exit codes, and the two seed exports as they are."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

import pytest

from bot.cli.commands import main
from tests.conftest import EXAMPLE_VAULT, REPO, SEEDS
from tests.vaults import GROWN_WIKI, SMALL_VAULT, edge_vault, entity, write_vault


@pytest.fixture
def environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The CLI reads its Settings from the environment: this test sets every one it relies on."""
    monkeypatch.setenv("WIKI_DIR", str(EXAMPLE_VAULT))
    monkeypatch.setenv("INDEX_DIR", str(tmp_path / "index"))
    monkeypatch.setenv("STATE_DB", str(tmp_path / "state.sqlite3"))
    monkeypatch.setenv("UI_LANGUAGE", "en")
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def seeds_only(environment: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = environment / "seeds"
    folder.mkdir()
    for seed in SEEDS.glob("*.txt"):
        shutil.copy(seed, folder / seed.name)
    monkeypatch.setenv("WIKI_DIR", str(folder))
    return folder


@pytest.mark.parametrize(
    ("name", "path", "labels", "expected"),
    [
        (
            "ByteDance",
            "003_fae802be7995b149.txt",
            ["ソース", "エンティティ", "概念"],
            ["MegaScale", "Minder"],
        ),
        (
            "Ant Group",
            "000_213e1c2424b8de26.txt",
            ["ソース", "関連プロダクト", "関連組織", "関連人物", "共同研究先", "概念"],
            ["XPUTimer", "DLRover", "CCL-D"],
        ),
    ],
)
def test_seed_exports_answer_with_their_relation_groups(
    seeds_only: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    path: str,
    labels: list[str],
    expected: list[str],
) -> None:
    code, out, _ = run(capsys, "lookup", "--json", name)
    assert code == 0
    assert json.loads(out)["match"] == {"path": path, "title": name, "type": "entity"}
    code, out, _ = run(capsys, "ask", "--json", f"/entity {name}")
    payload = json.loads(out)
    text = json.dumps(payload["blocks"], ensure_ascii=False)
    assert code == 0 and payload["text"]
    positions = [text.index(label) for label in labels]
    assert positions == sorted(positions)
    assert all(item in text for item in expected)


def test_an_index_folder_named_with_uri_characters_is_built_and_read(
    environment: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INDEX_DIR", str(environment / "a#b?c%d" / "index"))
    assert run(capsys, "index")[0] == 0
    code, out, err = run(capsys, "lookup", "--json", "ByteDance")
    assert (code, err) == (0, "") and json.loads(out)["match"]["title"] == "ByteDance"
    code, out, _ = run(capsys, "search", "--json", "MegaScale")
    assert code == 0 and json.loads(out)["hits"]


def test_lookup_json_shape(environment: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "lookup", "--json", "bytedanse")
    data = json.loads(out)
    assert code == 0 and set(data) == {"query", "match", "candidates", "unresolved", "ambiguous"}
    assert data["match"]["path"] == "wiki/entities/ByteDance.md"
    assert data["candidates"][0]["path"] == data["match"]["path"]
    assert set(data["candidates"][0]) == {"path", "title", "type", "score"}
    assert "index built" in err


def test_search_json_shape(environment: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "search", "--json", "--limit", "3", "Minder を開発したのはどこ?")
    data = json.loads(out)
    assert code == 0 and data["query"] == "Minder を開発したのはどこ?"
    assert 1 <= len(data["hits"]) <= 3
    assert set(data["hits"][0]) == {"path", "title", "type", "score", "snippet"}


def test_no_match_is_success(environment: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "lookup", "--json", "Qzxqzxqzx")
    assert code == 0 and json.loads(out)["match"] is None


def test_index_reports_skipped_files(
    environment: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WIKI_DIR", str(edge_vault(environment / "edge")))
    code, out, _ = run(capsys, "index")
    assert code == 0
    assert "pages" in out and "Empty Page.md" in out


def test_index_reports_notes_per_folder(
    environment: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WIKI_DIR", str(GROWN_WIKI))
    code, out, _ = run(capsys, "index")
    rows = {line.split("│")[1].strip(): line for line in out.splitlines() if line.count("│") == 5}
    assert code == 0 and "notes per folder" in out and "warning" not in out
    assert [cell.strip() for cell in rows["wiki/sources"].split("│")[2:5]] == [
        "3",
        "2",
        "catalog: 1, raw material: 1",
    ]
    assert "outside wiki/ (human note layer): 1" in rows["papers"]


def test_index_warns_when_most_notes_are_left_out(
    environment: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    vault = write_vault(
        environment / "vault",
        {"wiki/entities/A.md": "# A\n", **{f"notes/{n}.md": f"# {n}\n" for n in range(3)}},
    )
    monkeypatch.setenv("WIKI_DIR", str(vault))
    code, out, _ = run(capsys, "index")
    assert code == 0
    assert "warning: most notes were left out (3 of 4): notes (3)" in out


def test_index_warns_when_an_update_removes_most_of_the_vault(
    environment: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A force-push of an empty tree: the checkout mirrors it, and `sakuin index` says so loudly."""
    vault = write_vault(environment / "vault", SMALL_VAULT)
    monkeypatch.setenv("WIKI_DIR", str(vault))
    assert run(capsys, "index")[0] == 0
    shutil.rmtree(vault / "wiki")
    code, out, _ = run(capsys, "index")
    assert code == 0 and "index updated: 0 pages" in out
    assert "warning: 12 of the vault's 12 files were removed at " in " ".join(out.split())
    assert "were removed" not in run(capsys, "index")[1]  # said by the update that removed them


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("PORT", "not-a-port", "invalid setting PORT"),
        ("DIGEST_TZ", "Mars/Olympus", "invalid setting DIGEST_TZ"),
        ("WIKI_DIR", "/nonexistent/vault", "invalid setting WIKI_DIR"),
        ("LOG_LEVEL", "verbose", "invalid setting LOG_LEVEL"),
        (
            "HOST",
            "no such host",
            "invalid setting HOST: 'no such host' is neither an IP address nor a host name",
        ),
        ("STATE_DB", "", "invalid setting STATE_DB: empty"),
        ("STATE_DB", "  ", "invalid setting STATE_DB: empty"),
        ("SLACK_API_URL", "garbage", "invalid setting SLACK_API_URL: expected an http(s) URL"),
        ("SLACK_API_URL", "https://slack.com:api/", "invalid setting SLACK_API_URL: expected an http(s) URL"),
        ("WIKI_DIR", "", "invalid setting WIKI_DIR: empty"),
        ("INDEX_DIR", " ", "invalid setting INDEX_DIR: empty"),
        (
            "WATCH_INTERVAL",
            "1e-300",
            "invalid setting WATCH_INTERVAL: Input should be greater than or equal to 0.1",
        ),
        (
            "WATCH_INTERVAL",
            "inf",
            "invalid setting WATCH_INTERVAL: Input should be less than or equal to 86400",
        ),
        ("WATCH_INTERVAL", "nan", "invalid setting WATCH_INTERVAL"),
        ("WIKI_GIT_INTERVAL", "1e-300", "invalid setting WIKI_GIT_INTERVAL"),
        ("WIKI_GIT_INTERVAL", "inf", "invalid setting WIKI_GIT_INTERVAL"),
        ("LLM_TIMEOUT", "inf", "invalid setting LLM_TIMEOUT"),
        ("LLM_TIMEOUT", "1e-300", "invalid setting LLM_TIMEOUT"),
        ("FOLLOW_UP_HOURS", "1e-300", "invalid setting FOLLOW_UP_HOURS"),
        ("FOLLOW_UP_HOURS", "inf", "invalid setting FOLLOW_UP_HOURS"),
    ],
)
def test_bad_settings_stop_with_one_line(
    environment: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    variable: str,
    value: str,
    message: str,
) -> None:
    monkeypatch.setenv(variable, value)
    code, _, err = run(capsys, "lookup", "ByteDance")
    assert code == 2
    assert err.startswith(f"sakuin: {message}") and err.count("\n") == 1


def test_a_settings_file_that_is_not_utf8_names_the_variable(
    environment: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Path(".env").write_bytes(b"LOG_LEVEL=INFO\nexport SLACK_TEAM_ID=T\xff\xfe\n")
    code, _, err = run(capsys, "lookup", "ByteDance")
    assert code == 2 and err == "sakuin: invalid setting SLACK_TEAM_ID: line 2 of .env is not UTF-8 text\n"


@pytest.mark.parametrize("host", ["garbage", "8.8.8.8"])
def test_serve_stops_on_a_host_it_cannot_listen_on_before_indexing(
    environment: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, host: str
) -> None:
    for name, value in {"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s", "HOST": host}.items():
        monkeypatch.setenv(name, value)
    code, _, err = run(capsys, "serve")
    assert code == 2 and err.startswith(f"sakuin: invalid setting HOST: cannot listen on {host!r}: ")
    assert err.count("\n") == 1 and not (environment / "index").exists()


@contextmanager
def read_only(path: Path) -> Iterator[None]:
    """``path`` read-only, for root too (which writes through file modes): immutable, where the
    file system allows it."""
    if os.geteuid() != 0:
        path.chmod(0o444)
        yield
        path.chmod(0o644)
        return
    if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("cannot make a file read-only for root here (chattr +i)")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


@pytest.mark.parametrize("place", ["read-only file", "folder", "under a file", "not SQLite"])
def test_a_state_db_that_cannot_be_written_stops_with_one_line(
    environment: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, place: str
) -> None:
    state = environment / "state.sqlite3"
    assert run(capsys, "feedback")[0] == 0  # creates the file
    target = {
        "read-only file": state,
        "folder": environment,
        "under a file": state / "state.sqlite3",
        "not SQLite": environment / "notes.txt",
    }[place]
    (environment / "notes.txt").write_text("not a database, " * 512)
    monkeypatch.setenv("STATE_DB", str(target))
    with read_only(state) if place == "read-only file" else nullcontext():
        code, _, err = run(capsys, "feedback")
    assert code == 2 and err.startswith(
        f"sakuin: invalid setting STATE_DB: cannot keep the state in {target}: "
    )
    assert err.count("\n") == 1


@pytest.mark.parametrize("command", [("lookup", "ByteDance"), ("digest", "--dry-run")])
def test_a_wiki_dir_that_is_a_file_is_refused_even_with_a_git_url(
    environment: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command
) -> None:
    (environment / "vault").write_text("not a folder")
    monkeypatch.setenv("WIKI_DIR", str(environment / "vault"))
    monkeypatch.setenv("WIKI_GIT_URL", "file:///nowhere.git")
    code, _, err = run(capsys, *command)
    assert code == 2 and err.startswith("sakuin: invalid setting WIKI_DIR") and err.count("\n") == 1


def test_mcp_refuses_a_bad_vault_on_stderr_only(
    environment: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stdout is the MCP client's: not even an error goes there."""
    monkeypatch.setenv("WIKI_DIR", str(environment / "nowhere"))
    code, out, err = run(capsys, "mcp")
    assert code == 2 and out == ""
    assert err.startswith("sakuin: invalid setting WIKI_DIR") and err.count("\n") == 1


def test_ask_shows_the_digest_preview_slack_shows(
    environment: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "ask", "/wiki digest 2026-10-14")
    assert code == 0
    assert "New sources · 2026-10-14 (3)" in out and "Mycroft" in out and "CCL-D" in out
    code, out, _ = run(capsys, "ask", "--json", "/wiki digest 2026-10-14")
    payload = json.loads(out)
    assert code == 0 and payload["blocks"][0]["text"]["text"] == "New sources · 2026-10-14 (3)"
    code, out, _ = run(capsys, "ask", "/wiki digest yesterday")
    assert code == 0 and "is not a date" in out


def test_the_readme_digest_example_shows_a_day_with_sources(
    environment: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The README's `sakuin digest … --dry-run` line, run as written on the demo vault."""
    line = re.search(r"sakuin (digest --date (\S+) --dry-run)", (REPO / "README.md").read_text("utf-8"))
    assert line is not None, "the README shows no digest example"
    code, out, _ = run(capsys, *line.group(1).split())
    assert code == 0 and f"New sources · {line.group(2)} (3)" in out and "No new sources" not in out


def test_bad_usage_exits_2(environment: Path) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["search", "--limit", "zero", "x"])
    assert exit_info.value.code == 2


def test_serve_without_tokens_names_the_variable(
    environment: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "serve")
    assert code == 2 and "SLACK_BOT_TOKEN" in err


def test_an_answer_keeps_a_sentence_with_a_mention_whole_and_escaped(
    environment: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    page = entity("Evil Corp", body="Evil Corp は <!channel> を呼ぶ会社である。本社は東京にある。")
    vault = write_vault(environment / "vault", {"wiki/entities/Evil Corp.md": page})
    monkeypatch.setenv("WIKI_DIR", str(vault))
    assert run(capsys, "index")[0] == 0
    code, out, _ = run(capsys, "ask", "--json", "Evil Corp とは")
    assert code == 0
    reply = json.loads(out)
    assert reply["text"].startswith("Evil Corp は &lt;!channel&gt; を呼ぶ会社である。")  # escaped: no ping
    assert "<!channel>" not in reply["text"]
    shown = json.dumps(reply["blocks"], ensure_ascii=False)
    assert "Evil Corp は <!channel> を呼ぶ会社である。" in shown  # literal in rich text
    assert '"channel> を呼ぶ' not in shown
