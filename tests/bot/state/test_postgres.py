"""What only the PostgreSQL store has to do: its versioned schema, and outliving the database's
restarts (the contract itself is in test_state_contract.py)."""

from __future__ import annotations

import logging
import threading

import psycopg
import pytest

from bot.state.postgres import SchemaTooNew, StateUnavailable
from bot.state.store import POSTGRES_MIGRATIONS, PostgresStateStore
from tests.postgres import PASSWORD, Cluster, free_port


def test_the_schema_is_created_once_and_versioned(postgres_url: str) -> None:
    stores: list[PostgresStateStore] = []
    barrier = threading.Barrier(4)

    def open_one() -> None:
        barrier.wait()
        stores.append(PostgresStateStore(postgres_url))

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(stores) == 4 and all(store.schema_version == len(POSTGRES_MIGRATIONS) for store in stores)
    for store in stores:
        store.close()
    with psycopg.connect(postgres_url) as conn:
        versions = conn.execute("SELECT version FROM sakuin_schema ORDER BY version").fetchall()
    assert versions == [(version,) for version in range(1, len(POSTGRES_MIGRATIONS) + 1)]  # each once


def test_a_database_from_a_newer_sakuin_is_refused(postgres_url: str) -> None:
    PostgresStateStore(postgres_url).close()
    with psycopg.connect(postgres_url) as conn:
        conn.execute("INSERT INTO sakuin_schema (version) VALUES (%s)", (len(POSTGRES_MIGRATIONS) + 1,))
    with pytest.raises(SchemaTooNew, match=f"schema version {len(POSTGRES_MIGRATIONS) + 1}"):
        PostgresStateStore(postgres_url)


def test_a_restart_of_the_database_is_outlived(postgres: Cluster, postgres_url: str) -> None:
    with PostgresStateStore(postgres_url) as store:
        assert store.claim_event("EvBefore")
        store.claim_run("2026-10-14", "C1", "a", 120)
        postgres.restart()
        assert not store.claim_event("EvBefore")
        assert store.claim_event("EvAfter")
        run = store.run("2026-10-14", "C1")
        assert run is not None and run.owner == "a"


class Logged(logging.Handler):
    """``seen`` is set once ``logger`` logs a message containing ``text`` (a signal across threads)."""

    def __init__(self, logger: str, text: str) -> None:
        super().__init__(logging.DEBUG)
        self.logger, self.text = logging.getLogger(logger), text
        self.seen = threading.Event()

    def emit(self, record: logging.LogRecord) -> None:
        if self.text in record.getMessage():
            self.seen.set()

    def __enter__(self) -> Logged:
        self.logger.addHandler(self)
        return self

    def __exit__(self, *exc: object) -> None:
        self.logger.removeHandler(self)


def test_a_call_during_an_outage_waits_for_the_database(
    postgres: Cluster, postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    reconnecting = Logged("psycopg.pool", "error connecting")
    with (
        PostgresStateStore(postgres_url, outage_s=60) as store,
        caplog.at_level(logging.DEBUG),
        reconnecting,
    ):
        assert store.claim_event("EvBefore")
        postgres.stop_server()
        results: list[bool] = []
        waiting = threading.Thread(target=lambda: results.append(store.claim_event("EvDuring")))
        try:
            waiting.start()
            # Nothing but the claim asks for a connection: the pool failing to make one is the
            # claim finding the server gone and retrying.
            assert reconnecting.seen.wait(timeout=30), "the claim never tried the stopped server"
            assert waiting.is_alive() and results == []
        finally:
            postgres.start_server()
        waiting.join(timeout=60)
        assert results == [True]
        assert not store.claim_event("EvDuring")
    assert "127.0.0.1" in caplog.text and PASSWORD not in caplog.text  # the outage was logged


def test_an_outage_longer_than_the_wait_raises_without_the_password(
    postgres: Cluster, postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    with PostgresStateStore(postgres_url, outage_s=1) as store, caplog.at_level(logging.DEBUG):
        postgres.stop_server()
        try:
            with pytest.raises(StateUnavailable) as raised:
                store.claim_event("EvLost")
        finally:
            postgres.start_server()
        assert store.claim_event("EvLost")  # never recorded: Slack's retry is answered
    assert "unreachable for 1 s" in str(raised.value)
    assert PASSWORD not in str(raised.value) and PASSWORD not in caplog.text
    assert ":***@127.0.0.1" in str(raised.value)


def test_an_unreachable_database_at_start_is_reported_without_the_password() -> None:
    url = f"postgresql://postgres:{PASSWORD}@127.0.0.1:{free_port()}/sakuin"
    with pytest.raises(StateUnavailable) as raised:
        PostgresStateStore(url, outage_s=0.5)
    assert PASSWORD not in str(raised.value)
