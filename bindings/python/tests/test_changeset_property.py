"""Change sets are exact (issue #45, item 1): applying a delivered change set to the old contents
gives the new contents, for random operation sequences in one write.

Realm's rule, checked on every delivery: ``deletions`` are ascending indices in the old contents,
``insertions`` and ``modifications`` ascending indices in the new contents; removing the deleted
elements, then putting each inserted element at its index, leaves the kept elements in order at
the other indices, and a kept element differs from the new one at its index only where that index
is a modification. Modifications are exact too: for results and sets, the kept objects that were
changed in the write (no more, no fewer); for lists, those plus slots whose element was replaced.
Dictionaries report keys: removed, added, and whose value changed.

``make test`` runs ``DRUMLIN_CHANGESET_SEEDS`` seeds (200 by default, a few seconds); ``make
stress`` many more. A failing seed is named in the assertion; rerun it alone with
``DRUMLIN_CHANGESET_SEED=<seed>``."""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import drumlin
from drumlin import CollectionChange, DictionaryChange

SEEDS = int(os.environ.get("DRUMLIN_CHANGESET_SEEDS", "200"))
ONLY_SEED = os.environ.get("DRUMLIN_CHANGESET_SEED")
WRITES_PER_SEED = 3
LIST_OPERATIONS = ["insert", "delete", "move", "set", "append", "clear"]

SCHEMA = [
    {
        "name": "Holder",
        "primaryKey": "id",
        "properties": {
            "id": "int",
            "xs": "int[]",
            "objs": "Item[]",
            "ints": "int<>",
            "items": "Item<>",
            "d": "int{}",
        },
    },
    {
        "name": "Item",
        "primaryKey": "id",
        "properties": {"id": "int", "score": "int", "group": "int", "label": "string"},
    },
]

# The results observed: (description, how to get them from the database).
RESULTS: list[tuple[str, Callable[[drumlin.Database], Any]]] = [
    ("all", lambda db: db.objects("Item")),
    ("filtered", lambda db: db.objects("Item").filter("group == 1")),
    ("filtered sorted", lambda db: db.objects("Item").filter("group == 1").sort("score")),
    (
        "sorted on two keys",
        lambda db: db.objects("Item").filter("score >= 2").sort([("group", False), ("score", True)]),
    ),
    ("list sorted", lambda db: db.get("Holder", 1).objs.sort("score")),
    ("list filtered", lambda db: db.get("Holder", 1).objs.filter("score < 5")),
]


def check_applies(
    old: list[Any], new: list[Any], change: CollectionChange, what: str
) -> list[tuple[Any, int]]:
    """Asserts that `change` turns `old` into `new`; returns the kept elements as (old element,
    new index)."""
    for name, indices, bound in (
        ("deletions", change.deletions, len(old)),
        ("insertions", change.insertions, len(new)),
        ("modifications", change.modifications, len(new)),
    ):
        assert indices == sorted(set(indices)), f"{what}: {name} {indices} are not ascending and unique"
        assert all(0 <= i < bound for i in indices), f"{what}: {name} {indices} out of range {bound}"
    inserted = set(change.insertions)
    modified = set(change.modifications)
    assert not inserted & modified, f"{what}: {change} inserts and modifies one index"
    deleted = set(change.deletions)
    kept = [element for i, element in enumerate(old) if i not in deleted]
    assert len(kept) + len(inserted) == len(new), f"{what}: {change} does not turn {old} into {new}"
    pairs: list[tuple[Any, int]] = []
    remaining = iter(kept)
    for n in range(len(new)):
        if n in inserted:
            continue
        element = next(remaining)
        pairs.append((element, n))
        if n not in modified:
            assert element == new[n], f"{what}: {change} does not turn {old} into {new} (index {n})"
    return pairs


class Model:
    """The expected contents, changed by the same operations as the database."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.items: dict[int, dict[str, Any]] = {}
        self.next_id = 1
        self.xs: list[int] = []
        self.objs: list[int] = []
        self.ints: list[int] = []
        self.set_items: list[int] = []
        self.d: dict[str, int] = {}
        self.touched: set[int] = set()

    def item_fields(self) -> dict[str, Any]:
        rng = self.rng
        return {"score": rng.randrange(8), "group": rng.randrange(3), "label": rng.choice("abc")}


def apply_list_operation(rng: random.Random, live: Any, model: list[Any], element: Any, modelled: Any) -> None:
    """One random operation on the live list ``live`` (storing ``element``) and the same on its
    model (storing ``modelled``)."""
    op = rng.choice(LIST_OPERATIONS) if model else "append"
    if op == "insert":
        i = rng.randrange(len(model) + 1)
        live.insert(i, element)
        model.insert(i, modelled)
    elif op == "delete":
        i = rng.randrange(len(model))
        del live[i]
        del model[i]
    elif op == "move":
        a, b = rng.randrange(len(model)), rng.randrange(len(model))
        live.move(a, b)
        model.insert(b, model.pop(a))
    elif op == "set":
        i = rng.randrange(len(model))
        live[i] = element
        model[i] = modelled
    elif op == "append":
        live.append(element)
        model.append(modelled)
    else:
        live.clear()
        model.clear()


def random_write(db: drumlin.Database, model: Model) -> None:
    """One write of 1-12 random operations on every kind of collection and on the items."""
    rng = model.rng
    holder = db.get("Holder", 1)
    model.touched = set()
    created: set[int] = set()
    for _ in range(rng.randrange(1, 13)):
        kind = rng.choice(["xs", "xs", "objs", "objs", "ints", "items", "d", "item", "item"])
        if kind == "xs":
            value = rng.randrange(5)
            apply_list_operation(rng, holder.xs, model.xs, value, value)
        elif kind == "objs":
            if not model.items:
                continue
            target = rng.choice(sorted(model.items))
            apply_list_operation(rng, holder.objs, model.objs, db.get("Item", target), target)
        elif kind == "ints":
            value = rng.randrange(8)
            if rng.random() < 0.5:
                holder.ints.add(value)
                if value not in model.ints:
                    model.ints.append(value)
            else:
                holder.ints.discard(value)
                if value in model.ints:
                    model.ints.remove(value)
        elif kind == "items":
            if not model.items:
                continue
            target = rng.choice(sorted(model.items))
            if rng.random() < 0.5:
                holder.items.add(db.get("Item", target))
                if target not in model.set_items:
                    model.set_items.append(target)
            else:
                holder.items.discard(db.get("Item", target))
                if target in model.set_items:
                    model.set_items.remove(target)
        elif kind == "d":
            key = rng.choice("pqrstu")
            if rng.random() < 0.6:
                value = rng.randrange(4)
                holder.d[key] = value
                model.d[key] = value
            elif key in model.d:
                del holder.d[key]
                del model.d[key]
        else:
            op = rng.choice(["create", "delete", "update", "update", "update"]) if model.items else "create"
            if op == "create":
                fields = model.item_fields()
                db.create("Item", {"id": model.next_id, **fields})
                model.items[model.next_id] = fields
                created.add(model.next_id)
                model.next_id += 1
            elif op == "delete":
                target = rng.choice(sorted(model.items))
                db.delete(db.get("Item", target))
                del model.items[target]
                model.objs = [key for key in model.objs if key != target]
                model.set_items = [key for key in model.set_items if key != target]
                model.touched.discard(target)
            else:
                target = rng.choice(sorted(model.items))
                name = rng.choice(["score", "group", "label"])
                value = model.item_fields()[name]
                setattr(db.get("Item", target), name, value)
                # Assigning a property is a change even to the value it has (Realm's rule); a
                # new object's changes are part of its insertion.
                if target not in created:
                    model.touched.add(target)
                model.items[target][name] = value


def ids(collection: Any) -> list[int]:
    return [item.id for item in collection]


def check_list_of_values(old: list[int], new: list[int], change: CollectionChange, what: str) -> None:
    for element, n in check_applies(old, new, change, what):
        # A modification of a list of values is a slot whose value was replaced.
        if n in change.modifications:
            assert element != new[n], f"{what}: {change} modifies index {n}, which kept {element}"


def check_list_of_objects(
    old: list[int], new: list[int], change: CollectionChange, touched: set[int], what: str
) -> None:
    for element, n in check_applies(old, new, change, what):
        if element == new[n]:
            # The same object stayed at n: a modification exactly when it was changed.
            assert (n in change.modifications) == (element in touched), (
                f"{what}: {change}, index {n} (object {element}, changed: {element in touched})"
            )


def check_objects_that_stay(
    old: list[int], new: list[int], change: CollectionChange, touched: set[int], what: str
) -> None:
    """Results and sets: nothing is replaced in place; modifications are exactly the kept objects
    that changed."""
    for element, n in check_applies(old, new, change, what):
        assert element == new[n], f"{what}: {change} replaces {element} by {new[n]} at {n}"
    expected = [n for n in range(len(new)) if n not in change.insertions and new[n] in touched]
    assert change.modifications == expected, f"{what}: {change}, changed objects that stayed at {expected}"


def check_dictionary(old: dict[str, int], new: dict[str, int], change: DictionaryChange, what: str) -> None:
    assert change.deletions == sorted(old.keys() - new.keys()), f"{what}: {change}"
    assert change.insertions == sorted(new.keys() - old.keys()), f"{what}: {change}"
    changed = sorted(key for key in old.keys() & new.keys() if old[key] != new[key])
    assert change.modifications == changed, f"{what}: {change}"


def one_or_none(got: list[Any], what: str) -> Any:
    assert len(got) <= 1, f"{what}: {len(got)} deliveries for one write"
    return got[0] if got else None


def run_seed(db: drumlin.Database, seed: int) -> None:
    rng = random.Random(seed)
    model = Model(rng)
    with db.write():
        db.objects("Holder").delete_all()  # the seed before's objects
        db.objects("Item").delete_all()
        for _ in range(rng.randrange(0, 7)):
            fields = model.item_fields()
            db.create("Item", {"id": model.next_id, **fields})
            model.items[model.next_id] = fields
            model.next_id += 1
        model.xs = [rng.randrange(5) for _ in range(rng.randrange(0, 7))]
        keys = sorted(model.items)
        model.objs = [rng.choice(keys) for _ in range(rng.randrange(0, 6))] if keys else []
        model.ints = list(dict.fromkeys(rng.randrange(8) for _ in range(rng.randrange(0, 5))))
        model.set_items = list(dict.fromkeys(model.objs))
        model.d = {key: rng.randrange(4) for key in rng.sample("pqrstu", rng.randrange(0, 4))}
        db.create(
            "Holder",
            {
                "id": 1,
                "xs": model.xs,
                "objs": [db.get("Item", key) for key in model.objs],
                "ints": model.ints,
                "items": [db.get("Item", key) for key in model.set_items],
                "d": model.d,
            },
        )
    holder = db.get("Holder", 1)
    assert holder.xs == model.xs and ids(holder.objs) == model.objs
    assert list(holder.ints) == model.ints and ids(holder.items) == model.set_items
    views: dict[str, Any] = {"xs": holder.xs, "objs": holder.objs, "ints": holder.ints, "items": holder.items}
    views.update((name, make(db)) for name, make in RESULTS)
    got: dict[str, list[Any]] = {name: [] for name in [*views, "d"]}
    tokens = [view.observe(got[name].append) for name, view in views.items()]
    tokens.append(holder.d.observe(got["d"].append))

    def snapshot() -> dict[str, Any]:
        state: dict[str, Any] = {"xs": list(holder.xs), "ints": list(holder.ints), "d": dict(holder.d)}
        for name in ("objs", "items", *(name for name, _ in RESULTS)):
            state[name] = ids(views[name])
        return state

    before = snapshot()
    for write in range(WRITES_PER_SEED):
        for deliveries in got.values():
            deliveries.clear()
        with db.write():
            random_write(db, model)
        after = snapshot()
        assert after["xs"] == model.xs and after["objs"] == model.objs and after["d"] == model.d
        assert after["ints"] == model.ints and after["items"] == model.set_items
        empty = CollectionChange()
        for name in views:
            what = f"seed {seed}, write {write}, {name}"
            change = one_or_none(got[name], what) or empty
            if name == "xs":
                check_list_of_values(before[name], after[name], change, what)
            elif name == "objs":
                check_list_of_objects(before[name], after[name], change, model.touched, what)
            elif name == "ints":
                check_applies(before[name], after[name], change, what)
                assert change.modifications == [], f"{what}: {change} modifies a set of values"
            else:
                check_objects_that_stay(before[name], after[name], change, model.touched, what)
        what = f"seed {seed}, write {write}, d"
        check_dictionary(before["d"], after["d"], one_or_none(got["d"], what) or DictionaryChange(), what)
        before = after
    for token in tokens:
        token.cancel()


def seeds() -> list[int]:
    return [int(ONLY_SEED)] if ONLY_SEED else list(range(SEEDS))


def test_change_sets_turn_the_old_contents_into_the_new(tmp_path: Path) -> None:
    # One file for every seed (each begins by deleting the objects of the one before).
    db = drumlin.open(str(tmp_path / "seeds.drumlin"), SCHEMA)
    try:
        for seed in seeds():
            run_seed(db, seed)
    finally:
        db.close()


def test_the_property_checker_refuses_wrong_change_sets() -> None:
    # The case: [1, 2, 3, 4] -> [2, 4, 5] is not deletions [0], modifications [2].
    with pytest.raises(AssertionError):
        wrong = CollectionChange(deletions=[0], modifications=[2])
        check_list_of_values([1, 2, 3, 4], [2, 4, 5], wrong, "issue")
    check_list_of_values([1, 2, 3, 4], [2, 4, 5], CollectionChange(deletions=[0, 2], insertions=[2]), "issue")
    # A modification reported for an unchanged object that stayed is refused too.
    with pytest.raises(AssertionError):
        check_objects_that_stay([1, 2], [1, 2], CollectionChange(modifications=[1]), set(), "results")
    # And so is a changed object that stayed but is not reported.
    with pytest.raises(AssertionError):
        check_objects_that_stay([1, 2], [1, 2], CollectionChange(), {2}, "results")
    check_objects_that_stay([1, 2], [2, 1], CollectionChange(deletions=[0], insertions=[1]), {1}, "results")
