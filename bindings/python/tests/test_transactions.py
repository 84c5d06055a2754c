"""`with db.write():` commits, rolls back on exceptions, does not nest, and guards every write."""

from __future__ import annotations

import pytest
from conftest import PERSON, OpenDb

import drumlin


def test_write_commits_when_the_block_ends(open_db: OpenDb) -> None:
    db = open_db(PERSON)
    with db.write() as same:
        assert same is db
        db.create("Person", {"_id": 1, "name": "Ann"})
        assert db.is_in_write
    assert not db.is_in_write
    db.close()
    reopened = open_db(PERSON)
    assert reopened.get("Person", 1).name == "Ann"


def test_exception_in_write_rolls_back_and_propagates(db: drumlin.Database) -> None:
    with db.write():
        db.create("Person", {"_id": 1, "name": "Ann"})
    with pytest.raises(ZeroDivisionError), db.write():
        db.create("Person", {"_id": 2, "name": "Bob"})
        db.get("Person", 1).name = "Changed"
        1 / 0
    assert db.count("Person") == 1
    assert db.get("Person", 2) is None
    assert db.get("Person", 1).name == "Ann"
    assert not db.is_in_write


def test_drumlin_error_in_write_rolls_back_the_whole_block(db: drumlin.Database) -> None:
    with pytest.raises(drumlin.DuplicatePrimaryKeyError), db.write():
        db.create("Person", {"_id": 1, "name": "Ann"})
        db.create("Person", {"_id": 1, "name": "Ann again"})
    assert db.count("Person") == 0


def test_a_failed_call_inside_write_changes_nothing_and_the_block_continues(db: drumlin.Database) -> None:
    with db.write():
        db.create("Person", {"_id": 1, "name": "Ann"})
        with pytest.raises(drumlin.TypeMismatchError):
            db.create("Person", {"_id": 2, "name": 42})
        with pytest.raises(drumlin.DuplicatePrimaryKeyError):
            db.create_many("Person", [{"_id": 3, "name": "C"}, {"_id": 1, "name": "dup"}])
        db.create("Person", {"_id": 4, "name": "Dan"})
    assert sorted(p for p in (1, 2, 3, 4) if db.get("Person", p) is not None) == [1, 4]


def test_write_outside_write_raises_transaction_error(db: drumlin.Database) -> None:
    with db.write():
        ann = db.create("Person", {"_id": 1, "name": "Ann"})
    for attempt in (
        lambda: db.create("Person", {"_id": 2, "name": "Bob"}),
        lambda: db.create_many("Person", [{"_id": 3, "name": "Cy"}]),
        lambda: setattr(ann, "name", "Anna"),
        lambda: ann.__setitem__("name", "Anna"),
        lambda: ann.update({"name": "Anna"}),
        lambda: db.delete(ann),
    ):
        with pytest.raises(drumlin.TransactionError, match="outside of a write transaction"):
            attempt()
    assert db.count("Person") == 1
    assert ann.name == "Ann"


def test_nested_write_raises_and_leaves_the_outer_transaction_usable(db: drumlin.Database) -> None:
    with db.write():
        db.create("Person", {"_id": 1, "name": "Ann"})
        with pytest.raises(drumlin.TransactionError) as caught, db.write():
            db.create("Person", {"_id": 99, "name": "never"})
        assert caught.value.code == 14
        assert "does not nest" in caught.value.message
        assert db.is_in_write
        db.create("Person", {"_id": 2, "name": "Bob"})
    assert db.count("Person") == 2
    assert db.get("Person", 99) is None


def test_uncaught_nested_write_rolls_back_the_outer_block(db: drumlin.Database) -> None:
    with pytest.raises(drumlin.TransactionError), db.write():
        db.create("Person", {"_id": 1, "name": "Ann"})
        with db.write():
            pass
    assert db.count("Person") == 0
    with db.write():  # the database is usable again
        db.create("Person", {"_id": 1, "name": "Ann"})
    assert db.count("Person") == 1


def test_write_on_a_closed_database_raises_misuse(db: drumlin.Database) -> None:
    db.close()
    with pytest.raises(drumlin.MisuseError), db.write():
        pass


def test_closing_inside_write_rolls_back_and_reports_it(open_db: OpenDb) -> None:
    db = open_db(PERSON)
    with pytest.raises(drumlin.MisuseError, match="closed inside write"), db.write():
        db.create("Person", {"_id": 1, "name": "Ann"})
        db.close()
    assert open_db(PERSON).count("Person") == 0


def test_exception_after_closing_inside_write_is_the_one_reported(db: drumlin.Database) -> None:
    with pytest.raises(KeyError), db.write():
        db.close()
        raise KeyError("mine")


def test_read_only_database_refuses_writes_but_reads(open_db: OpenDb) -> None:
    writer = open_db(PERSON)
    with writer.write():
        writer.create("Person", {"_id": 1, "name": "Ann"})
    writer.close()
    db = open_db(PERSON, read_only=True)
    assert db.get("Person", 1).name == "Ann"
    with pytest.raises(drumlin.ReadOnlyError):
        db.create("Person", {"_id": 2, "name": "Bob"})
    with pytest.raises(drumlin.ReadOnlyError), db.write():
        pass
    assert not db.is_in_write
