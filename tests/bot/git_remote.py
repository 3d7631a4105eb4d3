"""A real git remote on disk for tests: a bare repository and a clone of it to push from; and
`GitHttp`, that repository served over HTTP behind a token, as GitHub or GitLab serve one."""

from __future__ import annotations

import asyncio
import base64
import socket
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psutil
from aiohttp import web

from tests.vaults import write_vault

IDENTITY = ("-c", "user.name=sakuin tests", "-c", "user.email=tests@sakuin.invalid")


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *IDENTITY, *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    return done.stdout.strip()


class Remote:
    """``bare`` is the remote (``url`` is its ``file://`` URL); ``work`` is where pushes come from."""

    def __init__(self, root: Path, files: dict[str, str | bytes], branch: str = "main") -> None:
        self.bare = root / "remote.git"
        self.work = root / "author"
        self.branch = branch
        self.bare.mkdir(parents=True)
        git(self.bare, "init", "--quiet", "--bare", f"--initial-branch={branch}")
        self.work.mkdir()
        git(self.work, "init", "--quiet", f"--initial-branch={branch}")
        git(self.work, "remote", "add", "origin", self.url)
        self.commit(files, "first pages")

    @property
    def url(self) -> str:
        return self.bare.resolve().as_uri()

    def commit(self, files: dict[str, str | bytes], message: str, *, push: bool = True) -> str:
        write_vault(self.work, files)
        git(self.work, "add", "--all")
        git(self.work, "commit", "--quiet", "-m", message)
        if push:
            self.push()
        return self.head()

    def remove(self, relative: str, message: str) -> str:
        git(self.work, "rm", "--quiet", relative)
        git(self.work, "commit", "--quiet", "-m", message)
        self.push()
        return self.head()

    def push(self, *, force: bool = False, branch: str | None = None) -> None:
        target = branch or self.branch
        git(self.work, "push", "--quiet", *(["--force"] if force else []), "origin", f"HEAD:{target}")

    def head(self) -> str:
        return git(self.work, "rev-parse", "HEAD")

    def rewrite(self, files: dict[str, str | bytes], message: str) -> str:
        """Replace the last commit and force-push it (history rewritten under the bot)."""
        write_vault(self.work, files)
        git(self.work, "add", "--all")
        git(self.work, "commit", "--quiet", "--amend", "-m", message)
        self.push(force=True)
        return self.head()


class GitHttp:
    """``remote`` over git's smart HTTP (``git http-backend``) on 127.0.0.1, answering only
    requests with ``Authorization: Basic user:token``. While each request is served (the client's
    git processes are alive, waiting for it), every command line on the machine is read from
    ``/proc``: those holding the token (or any of ``watch``) land in ``exposed``.

    ``async with GitHttp(remote, "x-access-token", token) as server: server.url`` (with the token).
    ``read_only``: pushes are refused (403), as for a token with read access only.
    """

    def __init__(
        self, remote: Remote, user: str, token: str, *, watch: tuple[str, ...] = (), read_only: bool = False
    ) -> None:
        self.remote, self.user, self.token = remote, user, token
        self.read_only = read_only
        self.watch = (token, *watch)
        self.expected = "Basic " + base64.b64encode(f"{user}:{token}".encode()).decode()
        self.authorized = 0
        self.refused = 0
        self.exposed: list[str] = []
        self._runner: web.AppRunner | None = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://{self.user}:{self.token}@127.0.0.1:{self.port}/{self.remote.bare.name}"

    async def __aenter__(self) -> GitHttp:
        app = web.Application()
        app.router.add_route("*", "/{path:.*}", self._serve)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._runner is not None
        await self._runner.cleanup()

    async def _serve(self, request: web.Request) -> web.StreamResponse:
        self.exposed.extend(command_lines_holding(self.watch))
        if request.headers.get("Authorization") != self.expected:
            self.refused += 1
            return web.Response(status=401, headers={"WWW-Authenticate": 'Basic realm="git"'})
        self.authorized += 1
        if self.read_only and "receive-pack" in (request.path + request.query_string):
            return web.Response(status=403, text="write access not granted")
        body = await request.read()
        environment = {
            "GIT_PROJECT_ROOT": str(self.remote.bare.parent),
            "GIT_HTTP_EXPORT_ALL": "1",
            "PATH_INFO": request.path,
            "REQUEST_METHOD": request.method,
            "QUERY_STRING": request.query_string,
            "CONTENT_TYPE": request.headers.get("Content-Type", ""),
            "CONTENT_LENGTH": str(len(body)),
            "HTTP_CONTENT_ENCODING": request.headers.get("Content-Encoding", ""),
            "GIT_PROTOCOL": request.headers.get("Git-Protocol", ""),
            "REMOTE_USER": self.user,
            "REMOTE_ADDR": "127.0.0.1",
        }
        process = await asyncio.create_subprocess_exec(
            "git", "http-backend", env=environment,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        output, _ = await process.communicate(body)
        head, _, payload = output.partition(b"\r\n\r\n")
        response = web.Response(body=payload)
        for line in head.decode("latin-1").split("\r\n"):
            name, _, value = line.partition(":")
            if name.lower() == "status":
                response.set_status(int(value.split()[0]))
            elif name:
                response.headers[name] = value.strip()
        return response


def command_lines_holding(secrets: tuple[str, ...]) -> list[str]:
    """The command lines of every process on the machine (readable by any user) holding one of
    ``secrets``."""
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            text = cmdline.read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        if any(secret in text for secret in secrets):
            found.append(text)
    return found


@contextmanager
def silent_remote(deadline_s: float = 60.0) -> Iterator[str]:
    """An ``http://127.0.0.1:PORT/repo.git`` URL whose server accepts every connection (the kernel
    completes the handshake) and never answers: a remote that hangs.

    After ``deadline_s`` (from a thread of its own), and when the block ends, every process still
    holding the URL is killed, so a test of code that fails to end them fails instead of hanging.
    """
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        url = f"http://127.0.0.1:{listener.getsockname()[1]}/repo.git"
        timer = threading.Timer(deadline_s, kill_processes_holding, (url,))
        timer.daemon = True
        timer.start()
        try:
            yield url
        finally:
            timer.cancel()
            kill_processes_holding(url)


def processes_holding(text: str) -> list[psutil.Process]:
    """The live processes (zombies aside) with ``text`` in their command line: for a remote's URL,
    ``git fetch`` and its ``git remote-http`` helper."""
    found = []
    for process in psutil.process_iter(["cmdline", "status"]):
        if process.info["status"] == psutil.STATUS_ZOMBIE:
            continue
        if any(text in part for part in process.info["cmdline"] or ()):
            found.append(process)
    return found


def kill_processes_holding(text: str) -> None:
    for process in processes_holding(text):
        try:
            process.kill()
        except psutil.Error:
            continue
