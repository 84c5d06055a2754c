"""Issue #45: the issue's wrong list change set (item 1), and what a callback reads (item 2): a
change set is delivered with the version it describes, so that reading the observed collection
inside the callback shows that version, however many commits other handles and processes make
meanwhile. After the callback, reads see the latest commits again.

The writer processes run ``DRUMLIN_OBSERVE_SECONDS`` (2 by default; ``make stress`` longer)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from conftest import OpenDb
from test_changeset_property import check_applies

import drumlin
from drumlin import CollectionChange, DictionaryChange

SECONDS = float(os.environ.get("DRUMLIN_OBSERVE_SECONDS", "2"))

HOLDER = [
    {
        "name": "Holder",
        "primaryKey": "id",
        "properties": {"id": "int", "xs": "int[]", "d": "int{}"},
    }
]


def test_deleting_two_elements_and_appending_is_two_deletions_and_an_insertion(open_db: OpenDb) -> None:
    db = open_db(HOLDER)
    with db.write():
        db.create("Holder", {"id": 1, "xs": [1, 2, 3, 4]})
    h = db.get("Holder", 1)
    got: list[CollectionChange] = []
    token = h.xs.observe(got.append)
    with db.write():
        del h.xs[0]
        del h.xs[1]
        h.xs.append(5)
    assert h.xs == [2, 4, 5]
    # It said deletions [0], modifications [2]: applied to [1, 2, 3, 4] that is [2, 3, 5].
    assert got == [CollectionChange(deletions=[0, 2], insertions=[2])]
    token.cancel()


LISTED = [
    {"name": "Owner", "primaryKey": "id", "properties": {"id": "int", "items": "Item[]"}},
    {"name": "Item", "primaryKey": "id", "properties": {"id": "int", "score": "int", "label": "string"}},
]


def test_results_of_a_list_holding_an_object_twice_report_each_occurrence(open_db: OpenDb) -> None:
    db = open_db(LISTED)
    with db.write():
        a = db.create("Item", {"id": 1, "score": 5, "label": "a"})
        b = db.create("Item", {"id": 2, "score": 1, "label": "b"})
        owner = db.create("Owner", {"id": 1, "items": [a]})
    by_score = owner.items.sort("score")
    got: list[CollectionChange] = []
    token = by_score.observe(got.append)
    with db.write():
        owner.items.append(a)  # [a, a]: it said deletions [0], insertions [0], modifications [1]
    with db.write():
        owner.items.append(b)  # sorted: [b, a, a]
    with db.write():
        a.label = "renamed"  # both of a's places, not one
    assert [item.id for item in by_score] == [2, 1, 1]
    assert got == [
        CollectionChange(insertions=[1]),
        CollectionChange(insertions=[0]),
        CollectionChange(modifications=[1, 2]),
    ]
    token.cancel()


def test_a_callback_reads_the_version_of_its_change_set(open_db: OpenDb) -> None:
    observer = open_db(HOLDER)
    writer = open_db(HOLDER)
    with observer.write():
        observer.create("Holder", {"id": 1, "xs": []})
    xs, written = observer.get("Holder", 1).xs, writer.get("Holder", 1).xs
    seen: list[tuple[CollectionChange, list[int], int]] = []

    def callback(change: CollectionChange) -> None:
        # Another handle commits, then the callback reads: still the delivered version.
        with writer.write():
            written.insert(0, 0)
        seen.append((change, list(xs), xs[len(xs) - 1]))

    token = xs.observe(callback)
    with observer.write():
        xs.append(1)  # delivered on commit: [1]
    assert xs == [0, 1]  # after the callback, the latest commit
    assert observer.refresh() is True  # the writer's insert: [0, 1]
    assert xs == [0, 0, 1]
    assert seen == [
        (CollectionChange(insertions=[0]), [1], 1),
        (CollectionChange(insertions=[0]), [0, 1], 1),
    ]
    token.cancel()


def test_every_observer_of_one_delivery_reads_the_same_version(open_db: OpenDb) -> None:
    observer = open_db(HOLDER)
    writer = open_db(HOLDER)
    with observer.write():
        observer.create("Holder", {"id": 1, "xs": [], "d": {}})
    h = observer.get("Holder", 1)
    writer_h = writer.get("Holder", 1)
    reads: list[tuple[str, Any, Any]] = []

    def on_list(change: CollectionChange) -> None:
        with writer.write():
            writer_h.xs.append(99)
            writer_h.d["later"] = 99
        reads.append(("xs", change, list(h.xs)))

    def on_dict(change: DictionaryChange) -> None:
        reads.append(("d", change, dict(h.d)))

    tokens = [h.xs.observe(on_list), h.d.observe(on_dict)]
    with observer.write():
        h.xs.append(1)
        h.d["a"] = 1
    assert reads == [
        ("xs", CollectionChange(insertions=[0]), [1]),
        ("d", DictionaryChange(insertions=["a"]), {"a": 1}),
    ]
    assert h.xs == [1, 99] and h.d == {"a": 1, "later": 99}
    for token in tokens:
        token.cancel()


# One writer process: for SECONDS, one write at a time creates an item (its label tells who and
# which), renames an earlier one of its own, and appends the item's id to the shared list.
WRITER = r"""
import sys, time
sys.path.insert(0, sys.argv[1])
import drumlin, json
path, who, seconds, schema = sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), json.loads(sys.argv[5])
db = drumlin.open(path, schema, busy_timeout=60)
holder = db.get("Holder", 1)
n = 0
end = time.monotonic() + seconds
while time.monotonic() < end:
    with db.write():
        key = who * 1000000 + n
        db.create("Item", {"id": key, "label": f"{who}-{n}"})
        if n:
            earlier = db.get("Item", who * 1000000 + n // 2)
            earlier.label = f"{who}-{n // 2}-renamed"
        holder.xs.append(key)
    n += 1
db.close()
print(n)
"""

SHARED = [
    {"name": "Holder", "primaryKey": "id", "properties": {"id": "int", "xs": "int[]"}},
    {"name": "Item", "primaryKey": "id", "properties": {"id": "int", "label": "string"}},
]


def label_matches(key: int, label: str) -> bool:
    return label.split("-")[:2] == [str(key // 1000000), str(key % 1000000)]


def test_writer_processes_and_a_refreshing_observer(tmp_path: Path) -> None:
    path = str(tmp_path / "shared.drumlin")
    db = drumlin.open(path, SHARED)
    with db.write():
        db.create("Holder", {"id": 1, "xs": []})
    items = db.objects("Item").sort("id")
    xs = db.get("Holder", 1).xs
    previous: dict[str, list[Any]] = {"items": [], "xs": []}
    problems: list[str] = []
    deliveries = {"items": 0, "xs": 0}

    def observer(name: str, view: Any, key_of: Any) -> Any:
        def callback(change: CollectionChange) -> None:
            try:
                deliveries[name] += 1
                current = [key_of(element) for element in view]
                check_applies(previous[name], current, change, name)
                for i in change.insertions + change.modifications:
                    element = view[i]  # readable: the version the change set describes
                    if key_of(element) != current[i]:
                        problems.append(f"{name}[{i}] read {key_of(element)}, first {current[i]}")
                    if name == "items" and not label_matches(element.id, element.label):
                        problems.append(f"items[{i}] is {element.id} labelled {element.label}")
                if len(view) != len(current):
                    problems.append(f"{name} has {len(view)} elements, then {len(current)} in one callback")
                previous[name] = current
            except (AssertionError, IndexError) as error:
                problems.append(f"{name}: {type(error).__name__}: {error}")

        return callback

    tokens = [
        items.observe(observer("items", items, lambda item: item.id)),
        xs.observe(observer("xs", xs, lambda key: key)),
    ]
    package = str(Path(drumlin.__file__).resolve().parents[1])
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, package, path, str(who), str(SECONDS), json.dumps(SHARED)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=os.environ.copy(),
        )
        for who in (1, 2, 3)
    ]
    while any(writer.poll() is None for writer in writers):
        db.refresh()
        time.sleep(0.001)
    written = 0
    for writer in writers:
        out, err = writer.communicate(timeout=120)
        assert writer.returncode == 0, err
        written += int(out)
    db.refresh()
    assert problems == []
    assert deliveries["items"] > 0 and deliveries["xs"] > 0
    assert previous["items"] == [item.id for item in items] and len(items) == written
    assert previous["xs"] == list(xs) and sorted(previous["xs"]) == previous["items"]
    for token in tokens:
        token.cancel()
    db.close()
