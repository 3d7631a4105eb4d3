"""``python -m bench.real.checkout``: each question file's vault, written from a local git copy of its
repository at the file's commit, under ``OUT/<wiki>/`` as ``python -m bench.real --wikis OUT`` reads it.

python -m bench.real.checkout --mirrors DIR [--out bench/out/wikis] [--questions F ...]

A repository is looked for in ``DIR`` as ``owner+name/repo``, ``owner+name``, ``owner/name`` or
``name`` (a git directory or a work tree). Only the vault's folder is written, file by file: a copy
that lacks some of the commit's blobs (a partial mirror) still gives every file it has, and the files
it lacks are counted, the Markdown ones named. ``git archive`` stops at the first missing blob with
the folders after it never written, which once measured a wiki on a third of its pages.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from bench.measure import REPO
from bench.real.questions import QuestionFile, QuestionFileError, load_question_file

QUESTIONS_DIR = REPO / "bench" / "real"


@dataclass(frozen=True)
class Checkout:
    written: int
    missing: tuple[str, ...]
    """Paths of the vault's files whose blobs the copy lacks."""


def find_git_dir(mirrors: Path, repo: str) -> Path | None:
    """The git directory of ``owner/name`` under ``mirrors``, if there is one."""
    owner, _, name = repo.partition("/")
    for candidate in (f"{owner}+{name}/repo", f"{owner}+{name}", repo, name):
        folder = mirrors / candidate
        for git_dir in (folder / ".git", folder):
            if (git_dir / "HEAD").is_file() and (git_dir / "objects").is_dir():
                return git_dir
    return None


def check_out(git_dir: Path, commit: str, vault: str, out: Path) -> Checkout:
    """Write the files under ``vault`` at ``commit`` into ``out`` (emptied first), keeping their
    paths inside the repository; a blob the copy lacks is skipped and reported."""
    if out.exists():
        shutil.rmtree(out)
    listing = _git(git_dir, "ls-tree", "-r", "-z", "--full-tree", commit, *([vault] if vault else []))
    files = []
    for entry in listing.split(b"\0"):
        meta, _, raw_path = entry.partition(b"\t")
        fields = meta.split()
        path = raw_path.decode("utf-8", "surrogateescape")
        if len(fields) == 3 and fields[1] == b"blob" and ".." not in Path(path).parts:
            files.append((fields[2], path))
    written, missing = 0, []
    for path, data in zip(
        (path for _, path in files), _blobs(git_dir, [blob for blob, _ in files]), strict=True
    ):
        if data is None:
            missing.append(path)
            continue
        target = out / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        written += 1
    return Checkout(written, tuple(missing))


def _blobs(git_dir: Path, blobs: list[bytes]) -> list[bytes | None]:
    """Each blob's content through one ``git cat-file --batch``; None for one the copy lacks."""
    request = b"".join(blob + b"\n" for blob in blobs)
    output = _git(git_dir, "cat-file", "--batch", stdin=request)
    contents: list[bytes | None] = []
    at = 0
    for _ in blobs:
        end = output.index(b"\n", at)
        header = output[at:end].split()
        at = end + 1
        if len(header) != 3:  # "<name> missing"
            contents.append(None)
            continue
        size = int(header[2])
        contents.append(output[at : at + size])
        at += size + 1
    return contents


def _git(git_dir: Path, *args: str, stdin: bytes | None = None) -> bytes:
    return subprocess.run(
        ["git", f"--git-dir={git_dir}", *args], input=stdin, check=True, capture_output=True
    ).stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.real.checkout", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--mirrors", type=Path, required=True, help="the folder of local repository copies")
    parser.add_argument("--out", type=Path, default=REPO / "bench" / "out" / "wikis")
    parser.add_argument("--questions", type=Path, action="append", default=[], help="a question file")
    args = parser.parse_args(argv)
    failed = 0
    for path in args.questions or sorted(QUESTIONS_DIR.glob("*.yaml")):
        try:
            file: QuestionFile = load_question_file(path)
        except QuestionFileError as error:
            print(error, file=sys.stderr)
            failed += 1
            continue
        if file.wiki in ("", ".", "..") or Path(file.wiki).name != file.wiki:
            print(f"{path}: wiki {file.wiki!r} is not a folder name", file=sys.stderr)
            failed += 1
            continue
        git_dir = find_git_dir(args.mirrors, file.repo) if file.repo else None
        if git_dir is None or not file.commit:
            print(f"{file.wiki}: no copy of {file.repo} under {args.mirrors}", file=sys.stderr)
            failed += 1
            continue
        try:
            done = check_out(git_dir, file.commit, file.vault, args.out / file.wiki)
        except subprocess.CalledProcessError as error:
            print(
                f"{file.wiki}: git failed: {error.stderr.decode(errors='replace').strip()}", file=sys.stderr
            )
            failed += 1
            continue
        pages = [path for path in done.missing if path.endswith(".md")]
        print(f"{file.wiki}: {done.written} files at {file.commit[:12]}, {len(done.missing)} missing")
        for page in pages:
            print(f"  missing page: {page}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
