"""`bench.real.checkout`: a vault written from a real git repository at a commit, and the files a
partial copy lacks reported, not silently dropped."""

from __future__ import annotations

import subprocess
from pathlib import Path

from bench.real.checkout import check_out, find_git_dir, main


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


def make_repo(root: Path) -> tuple[Path, str]:
    """``owner+name/repo`` (a bare copy, as a mirror keeps it) of a repository with a ``wiki/`` vault."""
    work = root / "work"
    for path, text in {
        "wiki/a.md": "# A\n",
        "wiki/sub/b.md": "# B\n",
        "wiki/z.md": "# Z\n",
        "raw/c.md": "# raw\n",
    }.items():
        (work / path).parent.mkdir(parents=True, exist_ok=True)
        (work / path).write_text(text, encoding="utf-8")
    git(root, "init", "-q", str(work))
    git(work, "add", ".")
    git(work, "commit", "-q", "-m", "vault")
    commit = git(work, "rev-parse", "HEAD")
    bare = root / "mirrors" / "owner+name" / "repo"
    git(root, "clone", "-q", "--bare", str(work), str(bare))
    return bare, commit


def test_the_vault_folder_is_written_at_the_commit(tmp_path: Path) -> None:
    bare, commit = make_repo(tmp_path)
    assert find_git_dir(tmp_path / "mirrors", "owner/name") == bare
    assert find_git_dir(tmp_path / "mirrors", "owner/other") is None
    done = check_out(bare, commit, "wiki", tmp_path / "out")
    assert done.written == 3 and done.missing == ()
    assert (tmp_path / "out" / "wiki" / "sub" / "b.md").read_text(encoding="utf-8") == "# B\n"
    assert not (tmp_path / "out" / "raw").exists()


def test_a_blob_the_copy_lacks_is_reported_and_the_rest_written(tmp_path: Path) -> None:
    """`git archive` stops at the first missing blob; the files after it must still be written."""
    bare, commit = make_repo(tmp_path)
    blob = git(bare, "rev-parse", f"{commit}:wiki/sub/b.md")
    git(bare, "repack", "-q", "-a", "-d")  # one pack: write it out again without that blob
    objects = git(bare, "rev-list", "--objects", "--all").split("\n")
    kept = "".join(f"{line.split()[0]}\n" for line in objects if not line.startswith(blob))
    subprocess.run(
        ["git", "pack-objects", "-q", str(bare / "objects" / "pack" / "kept")],
        input=kept,
        cwd=bare,
        check=True,
        capture_output=True,
        text=True,
    )
    for old in (bare / "objects" / "pack").glob("pack-*"):
        old.unlink()
    done = check_out(bare, commit, "wiki", tmp_path / "out")
    assert done.missing == ("wiki/sub/b.md",)
    assert done.written == 2 and (tmp_path / "out" / "wiki" / "z.md").is_file()


def test_a_question_file_without_a_copy_fails_clearly(tmp_path: Path, capsys) -> None:
    questions = tmp_path / "x.yaml"
    questions.write_text(
        "wiki: x\nrepo: owner/none\ncommit: " + "0" * 40 + "\nvault: wiki\nlanguage: en\nquestions: []\n",
        encoding="utf-8",
    )
    assert (
        main(["--mirrors", str(tmp_path), "--out", str(tmp_path / "out"), "--questions", str(questions)]) == 1
    )
    assert "no copy of owner/none" in capsys.readouterr().err


def test_a_wiki_name_that_is_no_folder_name_is_refused(tmp_path: Path, capsys) -> None:
    """The wiki's folder under OUT is emptied before it is written: ``../x`` must never name one."""
    _bare, commit = make_repo(tmp_path)
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "keep.md").write_text("kept", encoding="utf-8")
    questions = tmp_path / "q.yaml"
    questions.write_text(
        f"wiki: ../x\nrepo: owner/name\ncommit: {commit}\nvault: wiki\nlanguage: en\nquestions: []\n",
        encoding="utf-8",
    )
    argv = [
        "--mirrors",
        str(tmp_path / "mirrors"),
        "--out",
        str(tmp_path / "out"),
        "--questions",
        str(questions),
    ]
    assert main(argv) == 1
    assert "is not a folder name" in capsys.readouterr().err
    assert (tmp_path / "x" / "keep.md").is_file()
