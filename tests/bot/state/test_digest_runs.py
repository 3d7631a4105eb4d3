"""The rules of digest runs both stores decide by (bot/state/digest_runs.py), without a database;
that each store applies them is test_state_contract.py."""

from __future__ import annotations

import json

import pytest

from bot.state.digest_runs import (
    DigestRun,
    LeaseLost,
    RunStatus,
    add_part,
    close_run,
    give_back,
    holds,
    open_run,
    require_owner,
    take_over,
)

NOW = 1000.0


def recorded(**changes: object) -> DigestRun:
    values: dict = {
        "day": "2025-01-06",
        "channel": "C0DIGEST",
        "status": RunStatus.RUNNING,
        "owner": "a",
        "lease_until": NOW + 60,
        "attempts": 1,
        "next_attempt_at": 0,
        "started_at": NOW - 10,
    }
    values.update(changes)
    return DigestRun(**values)


def test_a_first_claim_opens_the_run() -> None:
    assert open_run("a", 60, NOW) == {
        "status": "running",
        "owner": "a",
        "lease_until": NOW + 60,
        "attempts": 1,
        "started_at": NOW,
        "updated_at": NOW,
    }


@pytest.mark.parametrize(
    ("run", "owner", "ignore_backoff", "taken"),
    [
        (None, "b", False, False),
        (recorded(status=RunStatus.DONE, owner=None, lease_until=0), "b", True, False),
        (recorded(), "b", False, False),  # a's lease runs
        (recorded(), "b", True, False),  # by hand too: a's lease still runs
        (recorded(lease_until=NOW), "b", False, True),  # a's lease ran out
        (recorded(), "a", False, True),  # its own (a retry after a lost connection)
        (
            recorded(status=RunStatus.FAILED, owner=None, lease_until=0, next_attempt_at=NOW + 5),
            "b",
            False,
            False,
        ),
        (
            recorded(status=RunStatus.FAILED, owner=None, lease_until=0, next_attempt_at=NOW + 5),
            "b",
            True,
            True,
        ),
        (recorded(status=RunStatus.FAILED, owner=None, lease_until=0, next_attempt_at=NOW), "b", False, True),
    ],
    ids=[
        "missing",
        "done",
        "held",
        "held-by-hand",
        "expired",
        "own",
        "backing-off",
        "backing-off-by-hand",
        "backed-off",
    ],
)
def test_take_over(run: DigestRun | None, owner: str, ignore_backoff: bool, taken: bool) -> None:
    columns = take_over(run, owner, 30, NOW, ignore_backoff=ignore_backoff)
    if not taken:
        assert columns is None
        return
    assert run is not None and columns == {
        "status": "running",
        "owner": owner,
        "lease_until": NOW + 30,
        "attempts": run.attempts + 1,
        "updated_at": NOW,
    }


@pytest.mark.parametrize(
    ("run", "owner", "held"),
    [
        (None, "a", False),
        (recorded(), "a", True),
        (recorded(), "b", False),
        (recorded(lease_until=0), "a", True),  # expired, not yet taken over: still its own
        (recorded(status=RunStatus.DONE), "a", False),
        (recorded(status=RunStatus.FAILED, owner=None), "a", False),
    ],
    ids=["missing", "own", "other", "own-expired", "done", "given-back"],
)
def test_who_holds_a_run(run: DigestRun | None, owner: str, held: bool) -> None:
    assert holds(run, owner) is held
    if held:
        assert require_owner(run, "2025-01-06", "C0DIGEST", owner) is run
    else:
        with pytest.raises(LeaseLost, match="not held by"):
            require_owner(run, "2025-01-06", "C0DIGEST", owner)
    given_back = give_back(run, owner, "x" * 600, 120, NOW)
    if held:
        assert given_back == {
            "status": "failed",
            "owner": None,
            "lease_until": 0,
            "next_attempt_at": NOW + 120,
            "error": "x" * 500,
            "updated_at": NOW,
        }
    else:
        assert given_back is None


@pytest.mark.parametrize(
    ("posted", "inflight", "part", "ts", "now_posted", "now_inflight"),
    [
        ({}, 0, 0, "1.1", {"0": "1.1"}, None),
        ({0: "1.1"}, 1, 1, "1.2", {"0": "1.1", "1": "1.2"}, None),
        ({0: "1.1"}, None, 0, "9.9", {"0": "1.1"}, None),  # the first ts stays
        ({}, 2, 1, "1.2", {"1": "1.2"}, 2),  # another part's mark stays
    ],
)
def test_add_part(posted, inflight, part, ts, now_posted, now_inflight) -> None:
    columns = add_part(recorded(posted=posted, inflight=inflight), "d", "c", part, ts, NOW)
    assert json.loads(str(columns["posted"])) == now_posted
    assert columns["inflight"] == now_inflight and columns["updated_at"] == NOW


def test_add_part_of_no_run() -> None:
    with pytest.raises(KeyError, match="no digest run d c"):
        add_part(None, "d", "c", 0, "1.1", NOW)


def test_a_closed_run_has_no_owner_lease_mark_or_error() -> None:
    assert close_run(NOW) == {
        "status": "done",
        "owner": None,
        "lease_until": 0,
        "inflight": None,
        "error": None,
        "updated_at": NOW,
    }
