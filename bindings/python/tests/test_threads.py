"""Two Python threads on one database. Ordering is forced with events, never with sleeps."""

from __future__ import annotations

import threading
from typing import Callable

import pytest

import drumlin

N = 50


def run_threads(*targets: Callable[[], None]) -> None:
    errors: list[BaseException] = []

    def wrap(target: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            try:
                target()
            except BaseException as error:  # re-raised in the main thread below
                errors.append(error)

        return run

    threads = [threading.Thread(target=wrap(t)) for t in targets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]


def test_two_threads_create_objects_in_their_own_write_blocks(db: drumlin.Database) -> None:
    def writer(offset: int) -> Callable[[], None]:
        def run() -> None:
            for i in range(N):
                with db.write():
                    db.create("Person", {"_id": offset + i, "name": f"p{offset + i}"})
                    # Inside the block, this thread's own object is visible and nobody else's
                    # create can slip into this transaction.
                    assert db.get("Person", offset + i).name == f"p{offset + i}"

        return run

    run_threads(writer(0), writer(1000))
    assert db.count("Person") == 2 * N
    assert db.get("Person", 1000 + N - 1).name == f"p{1000 + N - 1}"


def test_write_on_a_second_thread_waits_for_the_first_block_to_end(db: drumlin.Database) -> None:
    order: list[str] = []
    first_inside = threading.Event()

    def first() -> None:
        with db.write():
            first_inside.set()
            db.create("Person", {"_id": 1, "name": "first"})
            order.append("first commits")

    def second() -> None:
        first_inside.wait()
        with db.write():
            order.append("second begins")
            assert db.get("Person", 1) is not None  # the first block committed before
            db.create("Person", {"_id": 2, "name": "second"})

    run_threads(first, second)
    assert order == ["first commits", "second begins"]
    assert db.count("Person") == 2


def test_a_write_from_a_thread_outside_write_does_not_join_anothers_transaction(
    db: drumlin.Database,
) -> None:
    inside = threading.Event()
    tried = threading.Event()
    seen: list[BaseException] = []

    def holder() -> None:
        with db.write():
            db.create("Person", {"_id": 1, "name": "holder"})
            inside.set()
            tried.wait()  # hold the transaction open until the intruder has tried

    def intruder() -> None:
        inside.wait()
        try:
            db.create("Person", {"_id": 2, "name": "intruder"})
        except drumlin.TransactionError as error:
            seen.append(error)
        finally:
            tried.set()

    run_threads(holder, intruder)
    assert len(seen) == 1
    assert "another thread holds this database's write transaction" in str(seen[0])
    assert db.get("Person", 2) is None
    assert db.count("Person") == 1


def test_a_rollback_on_one_thread_does_not_lose_another_threads_commit(db: drumlin.Database) -> None:
    committed = threading.Event()

    def committer() -> None:
        with db.write():
            db.create("Person", {"_id": 1, "name": "kept"})
        committed.set()

    def failer() -> None:
        committed.wait()
        with pytest.raises(RuntimeError), db.write():
            db.create("Person", {"_id": 2, "name": "dropped"})
            raise RuntimeError("roll back")

    run_threads(committer, failer)
    assert db.get("Person", 1).name == "kept"
    assert db.get("Person", 2) is None


def test_threads_read_one_object_concurrently(db: drumlin.Database) -> None:
    with db.write():
        ann = db.create("Person", {"_id": 1, "name": "Ann" * 50, "age": 30})

    def reader() -> None:
        for _ in range(500):
            assert ann.name == "Ann" * 50
            assert ann.to_dict() == {"_id": 1, "name": "Ann" * 50, "age": 30}

    run_threads(reader, reader, reader)


def test_errors_stay_on_the_thread_that_caused_them(db: drumlin.Database) -> None:
    messages: dict[str, str] = {}

    def fail(name: str) -> Callable[[], None]:
        def run() -> None:
            for _ in range(100):
                try:
                    db.get(name, 1)
                except drumlin.NoSuchClassError as error:
                    messages[name] = error.message

        return run

    run_threads(fail("Alpha"), fail("Beta"))
    assert messages == {
        "Alpha": "Object type 'Alpha' is not in the schema.",
        "Beta": "Object type 'Beta' is not in the schema.",
    }
