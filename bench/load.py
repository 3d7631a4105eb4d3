"""``python -m bench.load``: `sakuin serve` under a burst of signed Slack requests while pages change.

    python -m bench.load                                                   # small: about a minute
    python -m bench.load --requests 1500 --concurrency 200 --pages 10000   # issue 13's burst

It generates a vault (`bench.generate`), builds its index with ``sakuin index``, and starts ``sakuin serve``
(the real command, a subprocess on 127.0.0.1 and a free port) against the fake Slack of the tests, on
localhost too. Once ``/healthz`` says the index is ready it sends N signed requests, at most C at a time:
``/entity`` and ``/wiki`` commands (answered through their own ``response_url``) and ``app_mention`` events
(answered with ``chat.postMessage`` in the event's thread), while a page of the vault is rewritten every
``--edit-every`` seconds. Then it waits, up to ``--answer-timeout``, for every request to be answered, and a
moment more for answers that come twice. Printed: ack p50/p99/max and acks over 3 s, requests answered
exactly once (and never, or more than once), apologies, busy notices (the answer queue was full: they are
not answers), answer latency, the server's RSS before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

import aiohttp
import psutil
from rich.console import Console
from rich.table import Table

from bench.generate import DEFAULT_SEED, generate
from bench.measure import REPO, percentile, tree_rss
from bot.blocks.notices import busy_reply, failure_reply, overloaded_reply
from bot.blocks.reply import Reply
from bot.i18n import LANGUAGES, use_language
from config.settings import Settings
from tests.bot.fake_slack import FakeSlack, SlackSender, mention_event

ACK_LIMIT_S = 3.0
ACK_BANDS = (0.0, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0)
MAX_REQUESTS = 5_000
MAX_CONCURRENCY = 500
MAX_PAGES = 100_000
CLIENT_TIMEOUT_S = 30.0
"""No request waits longer than this for its ack (it is then counted as an error)."""
BUILD_TIMEOUT_S = 3600.0
READY_TIMEOUT_S = 120.0
MIX = ("entity", "entity", "entity", "entity", "wiki", "wiki", "wiki", "mention", "mention", "mention")
"""Per ten requests: four lookups, three searches, three mentions."""
FIRST_TS = 1_800_000_000
WARM_TS = "1700000000.000100"
Log = Callable[[str], None]


def _in_every_language(*replies: Callable[[], Reply]) -> frozenset[str]:
    """The replies' texts in every UI language (the server answers in the asker's)."""
    texts = set()
    for language in LANGUAGES:
        with use_language(language):
            texts.update(reply().text for reply in replies)
    return frozenset(texts)


APOLOGIES = _in_every_language(failure_reply, overloaded_reply)
BUSY_TEXTS = _in_every_language(busy_reply)


@dataclass(frozen=True)
class Options:
    pages: int = 1000
    requests: int = 300
    concurrency: int = 30
    seed: int = DEFAULT_SEED
    work: Path = REPO / "bench" / "out"
    edit_every_s: float = 1.0
    answer_timeout_s: float = 120.0
    settle_s: float = 2.0


@dataclass(frozen=True)
class Request:
    """One request of the burst; ``name`` is its response_url name or, for a mention, its message ts."""

    kind: str
    text: str
    name: str


@dataclass(frozen=True)
class Ack:
    name: str
    status: int
    seconds: float
    sent_at: float
    error: str | None = None
    busy: bool = False
    """The ack said the bot is busy (a command that found the answer queue full)."""


def plan_requests(queries: dict, count: int) -> list[Request]:
    """The burst, deterministic: lookups from the lookup set, questions from the question set."""
    lookups = [query["query"] for query in queries["lookups"]]
    questions = [query["query"] for query in queries["questions"]]
    requests = []
    for number in range(count):
        kind = MIX[number % len(MIX)]
        pool = lookups if kind == "entity" else questions
        text = pool[number % len(pool)]
        name = f"{FIRST_TS + number}.000100" if kind == "mention" else f"r{number}"
        requests.append(Request(kind, text, name))
    return requests


class BurstSender(SlackSender):
    """The tests' signed sender with a connection pool as wide as the burst (aiohttp's default is 100)."""

    def __init__(self, url: str, signing_secret: str, *, connections: int) -> None:
        super().__init__(url, signing_secret)
        self._connections = connections

    async def __aenter__(self) -> BurstSender:
        connector = aiohttp.TCPConnector(limit=self._connections)
        timeout = aiohttp.ClientTimeout(total=CLIENT_TIMEOUT_S)
        self._session = aiohttp.ClientSession(connector=connector, timeout=timeout)
        return self


async def send(sender: SlackSender, slack: FakeSlack, request: Request) -> Ack:
    started = time.monotonic()
    try:
        if request.kind == "mention":
            sent = await sender.event(mention_event(request.text, ts=request.name))
        else:
            command = "/entity" if request.kind == "entity" else "/wiki"
            sent = await sender.command(command, request.text, response_url=slack.response_url(request.name))
    except (aiohttp.ClientError, TimeoutError) as error:
        return Ack(request.name, 0, time.monotonic() - started, started, error=type(error).__name__)
    return Ack(
        request.name, sent.status, sent.seconds, started, busy=any(text in sent.text for text in BUSY_TEXTS)
    )


async def burst(
    sender: SlackSender, slack: FakeSlack, requests: list[Request], concurrency: int
) -> list[Ack]:
    """Send every request with at most ``concurrency`` in flight; acks in request order."""
    gate = asyncio.Semaphore(concurrency)

    async def one(request: Request) -> Ack:
        async with gate:
            return await send(sender, slack, request)

    return list(await asyncio.gather(*(one(request) for request in requests)))


@dataclass(frozen=True)
class Answer:
    name: str
    at: float
    apology: bool


def answers(slack: FakeSlack) -> Iterator[Answer]:
    """Every answer the fake Slack received, by request name (response_url name or thread ts);
    busy notices are not answers (`busy_notices`)."""
    for post in slack.responses:
        if post.body.get("text") not in BUSY_TEXTS:
            yield Answer(post.name, post.at, post.body.get("text") in APOLOGIES)
    for method in ("chat.postMessage", "chat.postEphemeral"):
        for call in slack.calls_to(method):
            name = call.args.get("thread_ts") or call.args.get("ts") or ""
            if call.args.get("text") not in BUSY_TEXTS:
                yield Answer(str(name), call.at, call.args.get("text") in APOLOGIES)


def busy_notices(acks: list[Ack], slack: FakeSlack) -> int:
    """Requests told "busy, answering in a moment": in their ack, or by a post in their thread."""
    posts = sum(post.body.get("text") in BUSY_TEXTS for post in slack.responses)
    calls = sum(
        call.args.get("text") in BUSY_TEXTS
        for method in ("chat.postMessage", "chat.postEphemeral")
        for call in slack.calls_to(method)
    )
    return sum(ack.busy for ack in acks) + posts + calls


async def wait_for_answers(slack: FakeSlack, names: set[str], timeout_s: float, settle_s: float) -> None:
    """Until every request has an answer (or the timeout), then ``settle_s`` more for duplicates."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if names <= {answer.name for answer in answers(slack)}:
            break
        await asyncio.sleep(0.1)
    await asyncio.sleep(settle_s)


def tally(requests: list[Request], acks: list[Ack], slack: FakeSlack) -> dict:
    names = {request.name for request in requests}
    got = [answer for answer in answers(slack) if answer.name in names]
    count = Counter(answer.name for answer in got)
    first: dict[str, float] = {}
    for answer in sorted(got, key=lambda answer: answer.at):
        first.setdefault(answer.name, answer.at)
    sent_at = {ack.name: ack.sent_at for ack in acks}
    latency = [first[name] - sent_at[name] for name in first]
    apologies = {answer.name for answer in got if answer.apology}
    seconds = [ack.seconds for ack in acks if ack.status]
    return {
        "requests": len(requests),
        "by_kind": dict(Counter(request.kind for request in requests)),
        "ack_p50_s": percentile(seconds, 50),
        "ack_p99_s": percentile(seconds, 99),
        "ack_max_s": max(seconds, default=float("nan")),
        "acks_over_3s": sum(second >= ACK_LIMIT_S for second in seconds),
        "ack_not_200": sum(ack.status not in (0, 200) for ack in acks),
        "ack_errors": dict(Counter(ack.error for ack in acks if ack.error)),
        "answered_once": sum(count[name] == 1 and name not in apologies for name in names),
        "unanswered": sum(count[name] == 0 for name in names),
        "answered_twice_or_more": sum(count[name] > 1 for name in names),
        "apologies": len(apologies),
        "busy_notices": busy_notices(acks, slack),
        "answer_p50_s": percentile(latency, 50),
        "answer_p99_s": percentile(latency, 99),
        "answer_max_s": max(latency, default=float("nan")),
        "ack_by_kind": ack_by_kind(requests, acks),
        "ack_histogram": histogram(seconds),
        "ack_seconds": [round(ack.seconds, 4) for ack in acks],
    }


def ack_by_kind(requests: list[Request], acks: list[Ack]) -> dict[str, dict[str, float]]:
    kinds: dict[str, list[float]] = {}
    for request, ack in zip(requests, acks, strict=True):
        if ack.status:
            kinds.setdefault(request.kind, []).append(ack.seconds)
    return {
        kind: {
            "p50_s": percentile(values, 50),
            "p99_s": percentile(values, 99),
            "over_3s": sum(value >= ACK_LIMIT_S for value in values),
        }
        for kind, values in kinds.items()
    }


def histogram(seconds: list[float]) -> dict[str, int]:
    """Acks per band of seconds (a TCP connect retried after a full listen backlog shows at 1, 3, 7 s)."""
    bands: dict[str, int] = {}
    for low, high in itertools.pairwise(ACK_BANDS):
        bands[f"{low:g}-{high:g} s"] = sum(low <= second < high for second in seconds)
    bands[f"≥ {ACK_BANDS[-1]:g} s"] = sum(second >= ACK_BANDS[-1] for second in seconds)
    return bands


async def edit_pages(vault: Path, paths: list[str], every_s: float, stop: asyncio.Event) -> int:
    """Append a sentence to one page after another until ``stop``; returns the number of edits."""
    edits = 0
    while not stop.is_set() and paths:
        page = vault / paths[edits % len(paths)]
        await asyncio.to_thread(_append, page, f"\n負荷試験の追記 {edits}: 観測を更新した。\n")
        edits += 1
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), every_s)
    return edits


def _append(page: Path, text: str) -> None:
    with page.open("a", encoding="utf-8") as file:
        file.write(text)


def sakuin_command() -> list[str]:
    """The installed console script next to this interpreter (``sakuin``), as a user runs it."""
    script = Path(sys.executable).with_name("sakuin")
    found = str(script) if script.exists() else shutil.which("sakuin")
    if found is None:
        raise SystemExit("no `sakuin` command next to this Python: run `make install` first")
    return [found]


def server_environment(values: dict[str, str]) -> dict[str, str]:
    """This process's environment without any sakuin or Slack setting, plus ``values``."""
    ours = {name.upper() for name in Settings.model_fields}
    kept = {k: v for k, v in os.environ.items() if not k.startswith("SLACK_") and k not in ours}
    return {**kept, **values}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def wait_ready(base_url: str, server: subprocess.Popen, log_path: Path) -> dict:
    deadline = time.monotonic() + READY_TIMEOUT_S
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=5)) as session:
        while time.monotonic() < deadline:
            if server.poll() is not None:
                raise SystemExit(f"sakuin serve exited with {server.returncode}:\n{_tail(log_path)}")
            with contextlib.suppress(aiohttp.ClientError, TimeoutError):
                async with session.get(base_url + "/healthz") as response:
                    health = await response.json()
                    if health.get("status") == "ready":
                        return health
            await asyncio.sleep(0.2)
    raise SystemExit(f"sakuin serve was not ready after {READY_TIMEOUT_S:.0f} s:\n{_tail(log_path)}")


def _tail(path: Path, chars: int = 2000) -> str:
    return path.read_text(encoding="utf-8", errors="replace")[-chars:] if path.exists() else ""


def stop_server(server: subprocess.Popen) -> None:
    """Terminate the one server process this benchmark started (by its own handle, never by name)."""
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)


def rss_mb(server: subprocess.Popen) -> float:
    return tree_rss(psutil.Process(server.pid)) / 2**20


async def run_load(options: Options, log: Log) -> dict:
    folder = options.work / f"load-{options.pages}"
    log(f"generating {options.pages} pages in {folder}")
    queries = generate(options.pages, folder, options.seed)
    vault, index, state = folder / "vault", folder / "index", folder / "state.sqlite3"
    shutil.rmtree(index, ignore_errors=True)
    state.unlink(missing_ok=True)
    requests = plan_requests(queries, options.requests)
    edited = list(dict.fromkeys(query["answers"][0] for query in queries["questions"]))
    secret = secrets.token_hex(16)
    started = time.perf_counter()
    async with FakeSlack() as slack:
        port = free_port()
        env = server_environment(
            {
                "SLACK_BOT_TOKEN": "xoxb-load-benchmark",
                "SLACK_SIGNING_SECRET": secret,
                "SLACK_API_URL": slack.api_url,
                "WIKI_DIR": str(vault),
                "INDEX_DIR": str(index),
                "STATE_DB": str(state),
                "HOST": "127.0.0.1",
                "PORT": str(port),
                "LOG_LEVEL": "WARNING",
            }
        )
        log("building the index with `sakuin index`")
        build_started = time.perf_counter()
        subprocess.run(
            [*sakuin_command(), "index"], env=env, cwd=folder, check=True, capture_output=True,
            timeout=BUILD_TIMEOUT_S,
        )  # fmt: skip
        build_s = time.perf_counter() - build_started
        log_path = folder / "serve.log"
        with log_path.open("wb") as server_log:
            server = subprocess.Popen(
                [*sakuin_command(), "serve"], env=env, cwd=folder, stdout=server_log, stderr=server_log
            )
        try:
            base_url = f"http://127.0.0.1:{port}"
            health = await wait_ready(base_url, server, log_path)
            log(f"sakuin serve ready on {base_url} ({health.get('pages')} pages); warming up")
            async with BurstSender(
                base_url + "/slack/events", secret, connections=options.concurrency
            ) as sender:
                warm = [Request("entity", requests[0].text, "warm"), Request("mention", "warm up", WARM_TS)]
                await burst(sender, slack, warm, 2)
                await wait_for_answers(slack, {"warm", WARM_TS}, options.answer_timeout_s, 0)
                rss_before = rss_mb(server)
                log(f"{len(requests)} requests at concurrency {options.concurrency}, editing pages")
                stop = asyncio.Event()
                editor = asyncio.create_task(edit_pages(vault, edited, options.edit_every_s, stop))
                peak = asyncio.create_task(_sample_peak(server, stop))
                burst_started = time.monotonic()
                acks = await burst(sender, slack, requests, options.concurrency)
                burst_s = time.monotonic() - burst_started
                log(f"sent in {burst_s:.1f} s; waiting for the answers")
                names = {request.name for request in requests}
                await wait_for_answers(slack, names, options.answer_timeout_s, options.settle_s)
                stop.set()
                edits, rss_peak = await editor, await peak
                rss_after = rss_mb(server)
                after = await wait_ready(base_url, server, log_path)
        finally:
            stop_server(server)
        result = tally(requests, acks, slack)
    return {
        "options": {**asdict(options), "work": str(options.work)},
        "pages": health.get("pages"),
        "index_build_s": build_s,
        "burst_s": burst_s,
        "requests_per_s": len(requests) / burst_s if burst_s else None,
        "edits": edits,
        "index_updated": after.get("updated_at") != health.get("updated_at"),
        "server_log": str(log_path),
        **result,
        "rss_before_mb": rss_before,
        "rss_after_mb": rss_after,
        "rss_peak_mb": max(rss_peak, rss_after),
        "wall_s": time.perf_counter() - started,
    }


async def _sample_peak(server: subprocess.Popen, stop: asyncio.Event) -> float:
    peak = 0.0
    while not stop.is_set():
        with contextlib.suppress(psutil.Error):
            peak = max(peak, rss_mb(server))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.1)
    return peak


def print_load(result: dict, console: Console) -> None:
    options = result["options"]
    table = Table(
        title=f"sakuin serve: {result['requests']} requests at concurrency {options['concurrency']}, "
        f"{result['pages']:,} pages, {result['edits']} page edits meanwhile",
        title_justify="left",
    )
    table.add_column("figure")
    table.add_column("value", justify="right")
    kinds = ", ".join(f"{count} {kind}" for kind, count in result["by_kind"].items())
    errors = ", ".join(f"{count} {name}" for name, count in result["ack_errors"].items()) or "0"
    rows = (
        ("requests", f"{result['requests']} ({kinds}) in {result['burst_s']:.1f} s"),
        ("ack p50 / p99 / max", _seconds(result, "ack_p50_s", "ack_p99_s", "ack_max_s")),
        (f"acks ≥ {ACK_LIMIT_S:g} s", str(result["acks_over_3s"])),
        ("acks not HTTP 200 / failed", f"{result['ack_not_200']} / {errors}"),
        ("answered exactly once", f"{result['answered_once']} of {result['requests']}"),
        ("never answered", str(result["unanswered"])),
        ("answered more than once", str(result["answered_twice_or_more"])),
        ("apologies", str(result["apologies"])),
        ("told busy first", str(result.get("busy_notices", 0))),
        (
            "answer p50 / p99 / max, from send",
            _seconds(result, "answer_p50_s", "answer_p99_s", "answer_max_s"),
        ),
        ("ack p50 / p99 by kind", _by_kind(result)),
        ("acks by band", ", ".join(f"{band}: {n}" for band, n in result["ack_histogram"].items() if n)),
        ("server RSS before / after / peak", _megabytes(result)),
        ("index updated while serving", "yes" if result["index_updated"] else "no"),
    )
    for row in rows:
        table.add_row(*row)
    console.print(table)
    console.print(f"server log: {result['server_log']}")


def _by_kind(result: dict) -> str:
    return ", ".join(
        f"{kind} {figures['p50_s']:.2f} / {figures['p99_s']:.2f} s"
        for kind, figures in result["ack_by_kind"].items()
    )


ANSWER_KEYS = ("answer_p50_s", "answer_p99_s", "answer_max_s")


def _seconds(result: dict, *keys: str) -> str:
    return " / ".join(f"{result[key]:.3f} s" for key in keys)


def _megabytes(result: dict) -> str:
    return " / ".join(f"{result[key]:.0f} MB" for key in ("rss_before_mb", "rss_after_mb", "rss_peak_mb"))


def parse_args(argv: list[str] | None) -> tuple[Options, Path]:
    defaults = Options()
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=defaults.pages)
    parser.add_argument("--requests", type=int, default=defaults.requests)
    parser.add_argument("--concurrency", type=int, default=defaults.concurrency)
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--work", type=Path, default=defaults.work, help="where the vault and index go")
    parser.add_argument("--edit-every", type=float, default=defaults.edit_every_s, help="seconds")
    parser.add_argument("--answer-timeout", type=float, default=defaults.answer_timeout_s, help="seconds")
    parser.add_argument("--json", type=Path, default=REPO / "bench" / "out" / "load.json")
    args = parser.parse_args(argv)
    if not 10 <= args.pages <= MAX_PAGES:
        parser.error(f"--pages must be between 10 and {MAX_PAGES:,}")
    if not 1 <= args.requests <= MAX_REQUESTS:
        parser.error(f"--requests must be between 1 and {MAX_REQUESTS:,}")
    if not 1 <= args.concurrency <= MAX_CONCURRENCY:
        parser.error(f"--concurrency must be between 1 and {MAX_CONCURRENCY}")
    if args.edit_every <= 0 or not 0 < args.answer_timeout <= 1800:
        parser.error("--edit-every must be positive and --answer-timeout at most 1800 s")
    options = Options(
        pages=args.pages,
        requests=args.requests,
        concurrency=args.concurrency,
        seed=args.seed,
        work=args.work,
        edit_every_s=args.edit_every,
        answer_timeout_s=args.answer_timeout,
    )
    return options, args.json


def main(argv: list[str] | None = None) -> int:
    options, json_path = parse_args(argv)
    console = Console() if sys.stdout.isatty() else Console(width=120)
    result = asyncio.run(run_load(options, lambda message: console.log(message)))
    print_load(result, console)
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(result, ensure_ascii=False, indent=2), encoding="utf-8")
    console.print(f"JSON: {json_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
