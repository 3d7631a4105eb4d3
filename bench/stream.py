"""``python -m bench.stream``: a model's answer streamed into a thread against today's ``chat.update``.

    python -m bench.stream                                          # 8 questions per path, ~1 min
    python -m bench.stream --first-token 1.0 --token-delay 0.08      # a slower model
    python -m bench.stream --first-token 4 --wait 3                  # no sentence within LLM_STREAM_WAIT
    python -m bench.stream --slack-latency 0.25 --json bench/out/stream.json

The real server (`bot.serve.app` and `bot.serve.server`, in this process on 127.0.0.1) answers
signed ``app_mention`` events in their threads, against the fake Slack of the tests (each Web API call taking
``--slack-latency`` seconds) and the fake model server (``--first-token`` seconds before its first
piece of text, then ``--token-delay`` seconds per piece of 6 characters). The same questions, Japanese
and English, go through both paths in the same run, one at a time, alternating:

- ``update``: ``LLM_STREAM=off``, today's path: the extractive answer posted, then rewritten in place;
- ``stream``: ``LLM_STREAM=auto`` (``LLM_STREAM_WAIT`` = ``--wait``): the answer streamed from its
  first checked sentence.

Printed per path (median and max over the questions, seconds from sending the event): the first
visible word (any answer text in the thread), the first word of the model's answer, the final message
(with its cited pages and 👍/👎), the Slack calls per answer and the messages per answer.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table

from bot.blocks.visible import visible_text
from index.wiki import Wiki
from tests.bot.conftest import running_bot
from tests.bot.fake_openai import FakeOpenAI
from tests.bot.fake_slack import CHANNEL_ID, STREAM_METHODS, Call, FakeSlack, mention_event
from tests.conftest import EXAMPLE_VAULT

ANSWERS = {
    "Minder を開発したのはどこ?": (
        "Minder は ByteDance が開発した障害検知システムである [1]。"
        "分散学習ジョブの遅いマシンを数分で見つける [1]。"
        "論文は NSDI 2025 で発表された [4]。"
        "本番では ByteDance のチームが運用している [1]。"
    ),
    "Who developed Minder?": (
        "Minder was developed by ByteDance to find faulty machines in distributed training [1]. "
        "It spots a slow machine within minutes [1]. "
        "The paper was presented at NSDI 2025 [4]. "
        "ByteDance's own teams run it in production [1]."
    ),
}
PATHS = ("update", "stream")
ANSWER_TIMEOUT_S = 60.0


@dataclass(frozen=True)
class Measure:
    path: str
    question: str
    first_visible_s: float
    first_model_word_s: float | None
    final_s: float
    slack_calls: int
    messages: int


async def measure_one(bot, slack: FakeSlack, path: str, question: str, ts: str) -> Measure:
    """Send one mention and wait for its final message; read the times off the fake Slack's calls."""
    before, messages_before = len(slack.calls), len(slack.messages(CHANNEL_ID))
    sent_at = time.monotonic()
    await bot.sender.event(mention_event(question, ts=ts))
    deadline = sent_at + ANSWER_TIMEOUT_S
    while (final := _final(slack.calls[before:])) is None:
        if time.monotonic() > deadline:
            raise TimeoutError(f"no final answer to {question!r} on the {path} path")
        await asyncio.sleep(0.01)
    calls = [call for call in slack.calls[before:] if call.status == 200]
    shown = [c for c in calls if c.method in ("chat.postMessage", "chat.startStream", "chat.update")]
    model = [c for c in calls if _has_model_words(c)]
    return Measure(
        path,
        question,
        shown[0].at - sent_at,
        model[0].at - sent_at if model else None,
        final.at - sent_at,
        len([c for c in calls if c.method.startswith("chat.")]),
        len(slack.messages(CHANNEL_ID)) - messages_before,
    )


def _final(calls: list[Call]) -> Call | None:
    for call in calls:
        if call.status != 200:
            continue
        if call.method == "chat.stopStream" or (
            call.method in ("chat.postMessage", "chat.update") and "written by" in _text(call)
        ):
            return call
    return None


def _has_model_words(call: Call) -> bool:
    if call.method in STREAM_METHODS[:2]:
        return True
    return call.method in ("chat.postMessage", "chat.update") and (
        "written by" in _text(call) or "is writing an answer" in _text(call)
    )


def _text(call: Call) -> str:
    return visible_text(call.args.get("blocks") or [])


async def run(args: argparse.Namespace) -> list[Measure]:
    measures: list[Measure] = []
    with tempfile.TemporaryDirectory(prefix="sakuin-stream-") as work:
        wiki = Wiki.open(EXAMPLE_VAULT, Path(work) / "index", "https://wiki.example.com/")
        wiki.update()
        async with (
            FakeSlack(latency=args.slack_latency) as slack,
            FakeOpenAI(first_delay=args.first_token, delay=args.token_delay) as model,
        ):
            settings = {
                "llm_base_url": model.base_url,
                "llm_model": "bench-model",
                "llm_timeout": 60.0,
                "ui_language": "en",  # the labels the measure reads ("written by"); the answers are scripted
            }
            work_dir = Path(work)
            for path in PATHS:
                (work_dir / path).mkdir()
            async with (
                running_bot(work_dir / "update", slack, wiki, llm_stream="off", **settings) as update_bot,
                running_bot(
                    work_dir / "stream", slack, wiki, llm_stream="auto", llm_stream_wait=args.wait, **settings
                ) as stream_bot,
            ):
                bots = {"update": update_bot, "stream": stream_bot}
                for _round in range(args.questions):
                    for question, answer in ANSWERS.items():
                        model.reply(answer)
                        for path, bot in bots.items():
                            ts = f"{1700000000 + len(measures)}.000100"
                            measures.append(await measure_one(bot, slack, path, question, ts))
                            await asyncio.sleep(0.2)  # calls after the final one (none expected) still count
    return measures


def summarise(measures: list[Measure]) -> dict[str, dict[str, float]]:
    summary: dict[str, dict[str, float]] = {}
    for path in PATHS:
        mine = [m for m in measures if m.path == path]
        model_words = [m.first_model_word_s for m in mine if m.first_model_word_s is not None]
        summary[path] = {
            "answers": len(mine),
            "first_visible_p50_s": statistics.median(m.first_visible_s for m in mine),
            "first_visible_max_s": max(m.first_visible_s for m in mine),
            "first_model_word_p50_s": statistics.median(model_words) if model_words else float("nan"),
            "final_p50_s": statistics.median(m.final_s for m in mine),
            "final_max_s": max(m.final_s for m in mine),
            "slack_calls_per_answer": statistics.mean(m.slack_calls for m in mine),
            "messages_per_answer_max": max(m.messages for m in mine),
        }
    return summary


def print_summary(summary: dict[str, dict[str, float]], args: argparse.Namespace) -> None:
    table = Table(
        title=(
            f"first token {args.first_token:g} s, {args.token_delay:g} s per 6 characters, "
            f"Slack {args.slack_latency:g} s per call, LLM_STREAM_WAIT {args.wait:g} s"
        )
    )
    for column in (
        "path",
        "answers",
        "first visible p50 / max",
        "model's first word p50",
        "final p50 / max",
        "Slack calls",
        "messages",
    ):
        table.add_column(column, justify="right")
    for path, row in summary.items():
        table.add_row(
            path,
            str(row["answers"]),
            f"{row['first_visible_p50_s']:.2f} / {row['first_visible_max_s']:.2f} s",
            f"{row['first_model_word_p50_s']:.2f} s",
            f"{row['final_p50_s']:.2f} / {row['final_max_s']:.2f} s",
            f"{row['slack_calls_per_answer']:.1f}",
            str(row["messages_per_answer_max"]),
        )
    Console(width=150).print(table)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.stream", description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=4, help="rounds of the two questions (default 4)")
    parser.add_argument("--first-token", type=float, default=0.5, help="model's time to first token, s")
    parser.add_argument("--token-delay", type=float, default=0.05, help="s per 6 characters of the answer")
    parser.add_argument("--slack-latency", type=float, default=0.1, help="s per Slack Web API call")
    parser.add_argument("--wait", type=float, default=3.0, help="LLM_STREAM_WAIT of the stream path, s")
    parser.add_argument("--json", type=Path, help="write the measures and the summary here")
    args = parser.parse_args(argv)
    if not 1 <= args.questions <= 100:
        parser.error("--questions must be between 1 and 100")
    measures = asyncio.run(run(args))
    summary = summarise(measures)
    print_summary(summary, args)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        settings = {k: getattr(args, k) for k in ("first_token", "token_delay", "slack_latency", "wait")}
        data = {"settings": settings, "summary": summary, "measures": [asdict(m) for m in measures]}
        args.json.write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
