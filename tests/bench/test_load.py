"""The load scenario: the burst's plan, how answers are counted, and a smoke run of `sakuin serve`."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.load import MIX, Ack, Options, Request, parse_args, plan_requests, run_load, tally
from bot.blocks.notices import busy_reply, failure_reply, overloaded_reply
from bot.i18n import use_language
from tests.bot.fake_slack import Call, FakeSlack, ResponsePost

QUERIES = {
    "lookups": [{"query": "ByteDance"}, {"query": "Minder"}],
    "questions": [{"query": "Minderを開発したのは?"}],
}


def test_the_burst_is_planned_deterministically_with_unique_names() -> None:
    requests = plan_requests(QUERIES, 25)
    assert requests == plan_requests(QUERIES, 25)
    assert [request.kind for request in requests[: len(MIX)]] == list(MIX)
    assert len({request.name for request in requests}) == 25
    assert all(request.text == "Minderを開発したのは?" for request in requests if request.kind != "entity")


def test_answers_are_counted_per_request() -> None:
    """One answer each; a second answer, an apology and a missing answer are each told apart."""
    requests = [
        Request("entity", "ByteDance", "r0"),
        Request("wiki", "q", "r1"),
        Request("mention", "q", "1800000002.000100"),
        Request("mention", "q", "1800000003.000100"),
        Request("entity", "Minder", "r4"),
        Request("wiki", "q", "r5"),
    ]
    acks = [Ack(request.name, 200, 0.1 * number, 100.0) for number, request in enumerate(requests)]
    with use_language("ja"):  # the apology counts as a failure in either language
        japanese_apology = failure_reply().text
    slack = FakeSlack()
    slack.responses += [
        ResponsePost("r0", {"text": "ByteDance"}, 101.0),
        ResponsePost("r1", {"text": "hits"}, 102.0),
        ResponsePost("r1", {"text": "hits"}, 103.0),
        ResponsePost("r5", {"text": japanese_apology}, 101.5),
    ]
    slack.calls.append(
        Call("chat.postMessage", {"thread_ts": "1800000002.000100", "text": "answer"}, "xoxb", 200, 104.0)
    )
    result = tally(requests, acks, slack)
    assert result["answered_once"] == 2  # r0 and the first mention
    assert result["answered_twice_or_more"] == 1  # r1
    assert result["apologies"] == 1  # r5
    assert result["unanswered"] == 2  # the second mention and r4
    assert result["answer_max_s"] == pytest.approx(4.0)
    assert result["ack_max_s"] == pytest.approx(0.5)


def test_busy_notices_are_counted_apart_from_answers() -> None:
    """Told busy in the ack or in the thread, then answered: answered once; the overload apology
    is an apology."""
    requests = [
        Request("entity", "ByteDance", "r0"),
        Request("mention", "q", "1800000001.000100"),
        Request("wiki", "q", "r2"),
    ]
    acks = [
        Ack("r0", 200, 0.1, 100.0, busy=True),
        Ack("1800000001.000100", 200, 0.1, 100.0),
        Ack("r2", 200, 0.1, 100.0, busy=True),
    ]
    slack = FakeSlack()
    slack.responses += [
        ResponsePost("r0", {"text": "ByteDance"}, 101.0),
        ResponsePost("r2", {"text": overloaded_reply().text}, 101.0),
    ]
    thread = {"thread_ts": "1800000001.000100"}
    slack.calls += [
        Call("chat.postEphemeral", {**thread, "text": busy_reply().text}, "xoxb", 200, 100.5),
        Call("chat.postMessage", {**thread, "text": "answer"}, "xoxb", 200, 102.0),
    ]
    result = tally(requests, acks, slack)
    assert (result["answered_once"], result["answered_twice_or_more"]) == (2, 0)
    assert (result["apologies"], result["busy_notices"]) == (1, 3)


@pytest.mark.parametrize(
    "argv",
    [["--requests", "0"], ["--requests", "100000"], ["--concurrency", "0"], ["--pages", "5"]],
)
def test_the_scenario_is_bounded(argv: list[str]) -> None:
    with pytest.raises(SystemExit):
        parse_args(argv)


async def test_a_small_burst_against_sakuin_serve(tmp_path: Path) -> None:
    """The real `sakuin serve` on a generated vault answers every request of a small burst exactly once."""
    options = Options(
        pages=30,
        requests=8,
        concurrency=4,
        work=tmp_path,
        edit_every_s=0.2,
        settle_s=0.3,
        answer_timeout_s=60.0,
    )
    result = await run_load(options, lambda message: None)
    assert result["requests"] == 8 and result["pages"] > 0
    assert result["answered_once"] == 8, result
    assert result["unanswered"] == result["apologies"] == result["answered_twice_or_more"] == 0
    assert result["ack_not_200"] == 0 and not result["ack_errors"]
    assert result["rss_before_mb"] > 0 and result["rss_after_mb"] > 0
    assert result["edits"] >= 1
