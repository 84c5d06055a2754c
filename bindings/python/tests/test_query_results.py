"""drumlin.Results from queries: db.objects / db.query / db.count, reading (len, indexing, slices,
iteration, ==, in), chaining, live re-evaluation, snapshot, delete_all, List.filter / List.sort,
backlinks as queryable Results, and the Python side of query arguments."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from conftest import OpenDb

import drumlin

SCHEMA: list[dict[str, Any]] = [
    {
        "name": "Person",
        "primaryKey": "id",
        "properties": {"id": "int", "name": "string", "age": "int?", "dogs": "Dog[]", "scores": "int[]"},
    },
    {
        "name": "Dog",
        "primaryKey": "name",
        "properties": {
            "name": "string",
            "age": "int",
            "owners": {"type": "linkingObjects", "objectType": "Person", "property": "dogs"},
        },
    },
    {"name": "Note", "properties": {"text": "string", "rank": "int"}},
]


@pytest.fixture
def db(open_db: OpenDb) -> drumlin.Database:
    db = open_db(SCHEMA)
    with db.write():
        db.create_many(
            "Dog", [{"name": "Rex", "age": 3}, {"name": "Bo", "age": 12}, {"name": "Fido", "age": 1}]
        )
        db.create_many(
            "Person",
            [
                {"id": 1, "name": "Ann", "age": 31, "dogs": ["Rex", "Bo"], "scores": [1, 2]},
                {"id": 2, "name": "Bob", "age": 17, "dogs": ["Bo", "Bo", "Fido"]},
                {"id": 3, "name": "Cy", "age": None},
                {"id": 4, "name": "Dee", "age": 62, "dogs": ["Fido"]},
            ],
        )
        db.create_many("Note", [{"text": "b", "rank": 2}, {"text": "a", "rank": 1}, {"text": "c", "rank": 3}])
    return db


def ids(results: Any) -> list[Any]:
    return [obj.primary_key for obj in results]


# ---- Making results ------------------------------------------------------------------------------


def test_objects_are_every_object_in_creation_order(db: drumlin.Database) -> None:
    people = db.objects("Person")
    assert isinstance(people, drumlin.Results)
    assert ids(people) == [1, 2, 3, 4]
    assert [note.text for note in db.objects("Note")] == ["b", "a", "c"]  # no primary key
    assert repr(people) == "<drumlin.Results Person size=4>"


def test_query_is_objects_filter(db: drumlin.Database) -> None:
    query = db.query("Person", "age > $0 SORT(name DESC) LIMIT(2)", 16)
    assert ids(query) == [4, 2]
    assert ids(db.objects("Person").filter("age > $0 SORT(name DESC) LIMIT(2)", 16)) == [4, 2]
    assert ids(db.query("Person", "age >= $0 AND name BEGINSWITH[c] $1", 18, "a")) == [1]


def test_count_with_and_without_a_query(db: drumlin.Database) -> None:
    assert db.count("Person") == 4
    assert db.count("Person", "age > 20") == 2
    assert db.count("Person", "age > $0 AND age < $1", 20, 40) == 1
    assert db.count("Person", "dogs.@count > 1") == 2
    with pytest.raises(drumlin.QueryError):
        db.count("Person", "age >")


def test_unknown_class_and_bad_arguments(db: drumlin.Database) -> None:
    with pytest.raises(drumlin.NoSuchClassError):
        db.objects("Cat")
    with pytest.raises(drumlin.NoSuchClassError):
        db.query("Cat", "TRUEPREDICATE")
    with pytest.raises(drumlin.TypeMismatchError, match="a query is a string, not int"):
        db.query("Person", 5)  # type: ignore[arg-type]
    with pytest.raises(drumlin.TypeMismatchError):
        db.query("Person", None)  # type: ignore[arg-type]
    with pytest.raises(drumlin.InvalidArgumentError, match="NUL"):
        db.query("Person", "name == 'a\0'")


# ---- Reading ---------------------------------------------------------------------------------------


def test_len_indexing_slices_iteration(db: drumlin.Database) -> None:
    people = db.query("Person", "TRUEPREDICATE SORT(id DESC)")
    assert len(people) == 4 and people.count() == 4
    assert people[0].id == 4 and people[-1].id == 1 and people[-4].id == 4
    assert [p.id for p in people[1:3]] == [3, 2]
    assert [p.id for p in people[::-2]] == [1, 3]
    assert [p.id for p in people[10:]] == []
    assert [p.id for p in reversed(people)] == [1, 2, 3, 4]
    with pytest.raises(IndexError, match="Index 4 is out of bounds for results of size 4."):
        people[4]
    with pytest.raises(IndexError):
        people[-5]
    with pytest.raises(drumlin.TypeMismatchError):
        people["0"]  # type: ignore[call-overload]
    with pytest.raises(TypeError):
        people[0] = people[1]  # type: ignore[index]



def test_slices_of_results_are_the_slices_of_their_objects(db: drumlin.Database) -> None:
    # results[a:b] with 0 <= a, b reads the first b objects through LIMIT (after a sort, SQLite
    # keeps only them as it sorts); every other slice reads as before. Each is the list's slice.
    cuts = [slice(None, 0), slice(None, 2), slice(1, 3), slice(3, 1), slice(2, None), slice(None, 10),
            slice(-2, None), slice(None, -1), slice(None, None, 2), slice(1, 3, 1), slice(0, 4), slice(4, 9)]
    every = [
        db.objects("Person"),
        db.objects("Person").sort("name", ascending=False),
        db.objects("Person").filter("age != nil").sort("age"),
        db.objects("Person").sort("age").distinct("age"),
        db.get("Person", 2).dogs.filter("age > 0").sort("age"),  # type: ignore[union-attr]
    ]
    for results in every:
        whole = [obj.primary_key for obj in results]
        for cut in cuts:
            assert [obj.primary_key for obj in results[cut]] == whole[cut], (whole, cut)
    with db.write():
        db.create("Person", {"id": 5, "name": "Abe", "age": 40})
        by_name = db.objects("Person").sort("name")
        assert [p.id for p in by_name[:2]] == [5, 1]
        assert [p.id for p in by_name[1:3]] == [1, 2]
    assert [p.name for p in db.objects("Person").sort("age", ascending=False)[:2]] == ["Dee", "Abe"]


def test_the_last_object_is_read_alone_and_is_the_last_of_the_list(db: drumlin.Database) -> None:
    # results[-1] is drumlin_results_get_last: results of a class not read by position read that
    # object alone; the others read their keys. Each is the last of the objects' list.
    every = [
        lambda: db.objects("Person"),
        lambda: db.objects("Person").sort("name", ascending=False),
        lambda: db.objects("Person").filter("age != nil").sort("age"),
        lambda: db.query("Person", "TRUEPREDICATE SORT(age DESC) LIMIT(2)"),
        lambda: db.objects("Person").distinct("age"),
        lambda: db.get("Person", 2).dogs,  # type: ignore[union-attr]
        lambda: db.get("Dog", "Bo").owners,  # type: ignore[union-attr]
        lambda: db.get("Person", 2).dogs.filter("age > 0").sort("age"),  # type: ignore[union-attr]
    ]
    for make in every:
        last = make()[-1]
        assert last == list(make())[-1]
    assert db.objects("Note")[-1].text == "c"
    for empty in (db.query("Person", "age > 100"), db.objects("Person").filter("age > 100").sort("age"),
                  db.get("Person", 3).dogs.filter("age > 0")):  # type: ignore[union-attr]
        with pytest.raises(IndexError, match=r"Index -1 is out of bounds for results of size 0\."):
            empty[-1]
    with db.write():
        db.create("Person", {"id": 0, "name": "Zoe", "age": 1})  # created last, key below the others
    assert db.objects("Person")[-1].name == "Zoe" and db.objects("Person").sort("age")[-1].id == 4


def test_in_and_index_find_stored_objects_by_their_key(db: drumlin.Database) -> None:
    # One read of the results' keys (drumlin_results_index_of_key), no object per element: the
    # first position, and never an object of another class or a value that is not stored.
    people = db.objects("Person").sort("age", ascending=False)  # Dee 62, Ann 31, Bob 17, Cy null
    dee, ann, bob, cy = (db.get("Person", i) for i in (4, 1, 2, 3))
    assert [people.index(p) for p in (dee, ann, bob, cy)] == [0, 1, 2, 3]
    over_30 = db.objects("Person").filter("age > 30")
    assert ann in over_30 and dee in over_30 and bob not in over_30 and cy not in over_30
    with pytest.raises(ValueError, match="is not in the results"):
        over_30.index(bob)
    assert over_30.index(dee, 1) == 1  # with a start: through the objects, as a list
    rex = db.get("Dog", "Rex")
    assert rex not in people and 1 not in people and "Ann" not in people and None not in people
    bobs_dogs = db.get("Person", 2).dogs.filter("TRUEPREDICATE")  # type: ignore[union-attr]
    assert [d.name for d in bobs_dogs] == ["Bo", "Bo", "Fido"]
    assert bobs_dogs.index(db.get("Dog", "Bo")) == 0 and bobs_dogs.index(db.get("Dog", "Fido")) == 2
    assert rex not in bobs_dogs
    with db.write():
        db.delete(cy)
    assert cy not in people and len(people) == 3


def test_bool_asks_whether_there_is_an_object(db: drumlin.Database) -> None:
    # drumlin_results_is_empty: SQLite stops at the first object of a class or its filters.
    assert db.objects("Person") and db.objects("Person").filter("age > 30")
    assert not db.objects("Person").filter("age > 100") and not db.objects("Person").limit(0)
    assert db.objects("Person").sort("age") and not db.objects("Person").filter("age > 100").sort("age")
    assert db.query("Person", "name == $0", "Ann") and not db.query("Person", "name == $0", "Zed")
    over_60 = db.objects("Person").filter("age > 60")
    assert over_60
    with db.write():
        db.delete(db.get("Person", 4))
        assert not over_60
        assert not db.get("Person", 2).dogs.filter("age > 20")  # type: ignore[union-attr]
    assert not over_60

def test_bool_eq_contains_index(db: drumlin.Database) -> None:
    people = db.objects("Person")
    ann, bob = db.get("Person", 1), db.get("Person", 2)
    assert people and not db.query("Person", "FALSEPREDICATE")
    assert people == db.query("Person", "TRUEPREDICATE")
    assert people != db.query("Person", "age > 0")
    assert people.filter("id <= 2") == [ann, bob]
    assert people.filter("id <= 2") != [bob, ann]
    assert db.query("Person", "FALSEPREDICATE") == []
    assert (people == (ann, bob)) is False  # only lists and Results compare equal
    assert ann in people and db.get("Dog", "Rex") not in people and "Ann" not in people
    assert people.index(bob) == 1
    with pytest.raises(ValueError):
        people.filter("id > 1").index(ann)
    bo = db.get("Dog", "Bo")
    assert bo is not None
    assert bo.owners.count(bob) == 2 and bo.owners.count() == 3
    with pytest.raises(TypeError):
        hash(people)


def test_to_list_and_to_dicts(db: drumlin.Database) -> None:
    young = db.query("Person", "age < 40 SORT(age ASC)")
    assert young.to_list() == [db.get("Person", 2), db.get("Person", 1)]
    assert young.to_dicts() == [
        {"id": 2, "name": "Bob", "age": 17, "dogs": ["Bo", "Bo", "Fido"], "scores": []},
        {"id": 1, "name": "Ann", "age": 31, "dogs": ["Rex", "Bo"], "scores": [1, 2]},
    ]
    assert db.query("Note", "rank > 1").to_dicts() == [{"text": "b", "rank": 2}, {"text": "c", "rank": 3}]


def test_reading_inside_a_write_sees_uncommitted_objects(db: drumlin.Database) -> None:
    people = db.query("Person", "age > 20")
    notes = db.query("Note", "rank > 1")
    with db.write():
        db.create("Person", {"id": 5, "name": "Eve", "age": 45})
        db.create("Note", {"text": "d", "rank": 4})
        assert ids(people) == [1, 4, 5] and len(people) == 3
        assert people[-1].name == "Eve" and [p.id for p in people[1:]] == [4, 5]
        assert [n.text for n in notes] == ["b", "c", "d"]
        assert people.to_list() == [db.get("Person", 1), db.get("Person", 4), db.get("Person", 5)]
        # Iterating while deleting: the objects are read first.
        for person in people:
            db.delete(person)
        assert len(people) == 0
    assert ids(db.objects("Person")) == [2, 3]


# ---- Chaining ------------------------------------------------------------------------------------


def test_chaining_filter_sort_distinct_limit(db: drumlin.Database) -> None:
    people = db.objects("Person")
    assert ids(people.filter("age != nil").sort("age", ascending=False)) == [4, 1, 2]
    assert ids(people.sort([("age", False), ("name", True)])) == [4, 1, 2, 3]
    assert ids(people.sort(["age", ("id", False)])) == [3, 2, 1, 4]
    assert ids(people.sort("name", False).limit(2)) == [4, 3]
    assert ids(people.limit(2).sort("name", False)) == [2, 1]
    assert ids(people.filter("age > $0", 10).filter("age < $0", 40)) == [1, 2]
    assert ids(db.objects("Dog").distinct("age")) == ["Rex", "Bo", "Fido"]
    assert ids(people.limit(0)) == []
    # each step is a new Results; the original stays as it was
    assert ids(people) == [1, 2, 3, 4]


def test_sorted_results_are_the_objects_sorted_with_ties_in_creation_order(db: drumlin.Database) -> None:
    # Filters then a sort read the class's table straight (no join back to it): the same objects
    # as Python's stable sort of the filtered objects, through iteration, to_dicts and a LIMIT,
    # before and after objects created out of key order.
    def check() -> None:
        for filters in ([], ["age != nil"], ["age > $0", "id != $0"]):
            results = db.objects("Person")
            for text in filters:
                results = results.filter(text, 10) if "$0" in text else results.filter(text)
            objects = list(results)
            by_age = sorted((o for o in objects if o.age is not None), key=lambda o: -o.age)
            by_age += [o for o in objects if o.age is None]  # nulls sort first: last when descending
            expected = [o.id for o in by_age]
            descending = results.sort("age", ascending=False)
            assert ids(descending) == expected, filters
            assert [d["id"] for d in descending.to_dicts()] == expected
            assert ids(descending.limit(2)) == expected[:2] and ids(descending[:3]) == expected[:3]

    check()
    with db.write():
        db.create_many("Person", [{"id": 9, "name": "Ivo", "age": 31}, {"id": 7, "name": "Gil", "age": 17}])
    check()
    assert ids(db.objects("Person").sort("age", ascending=False)) == [4, 1, 9, 2, 7, 3]


def test_sort_distinct_limit_arguments_are_checked(db: drumlin.Database) -> None:
    people = db.objects("Person")
    with pytest.raises(drumlin.InvalidArgumentError, match=r"optional ASC or DESC.*not 'age DOWN'"):
        people.sort("age DOWN")  # sort("age DESC") is the text form, as in C and Swift
    with pytest.raises(drumlin.InvalidArgumentError, match="at least one key path"):
        people.sort([])
    with pytest.raises(drumlin.TypeMismatchError, match="ascending must be True or False, not int"):
        people.sort("age", 0)  # type: ignore[arg-type]
    with pytest.raises(drumlin.TypeMismatchError):
        people.sort(5)  # type: ignore[arg-type]
    with pytest.raises(drumlin.InvalidArgumentError):
        people.sort([("age", False, 1)])  # type: ignore[list-item]
    with pytest.raises(drumlin.InvalidArgumentError, match="at least one key path"):
        people.distinct()
    with pytest.raises(drumlin.InvalidArgumentError):
        people.distinct("age, name")
    with pytest.raises(drumlin.InvalidArgumentError, match="0 or more, got -1"):
        people.limit(-1)
    with pytest.raises(drumlin.TypeMismatchError):
        people.limit(True)
    with pytest.raises(drumlin.QueryError, match="'Person' has no property 'agee'"):
        people.sort("agee")
    with pytest.raises(drumlin.QueryError, match="'Person' has no property 'nope'"):
        people.distinct("nope")
    assert ids(people.limit(2**70)) == [1, 2, 3, 4]


# ---- Live results, snapshot, delete --------------------------------------------------------------


def test_results_are_live(db: drumlin.Database) -> None:
    adults = db.query("Person", "age >= 18 SORT(age ASC)")
    first = adults.limit(1)
    assert len(adults) == 2 and ids(first) == [1]
    with db.write():
        db.create("Person", {"id": 5, "name": "Eve", "age": 20})
        db.get("Person", 2).age = 18  # type: ignore[union-attr]
    assert len(adults) == 4
    assert ids(adults) == [2, 5, 1, 4] and ids(first) == [2]
    with db.write():
        db.delete(db.get("Person", 2))  # type: ignore[arg-type]
    assert ids(adults) == [5, 1, 4]


def test_live_results_see_other_handles(open_db: OpenDb, db: drumlin.Database) -> None:
    other = open_db(SCHEMA)
    adults = db.query("Person", "age >= 18")
    assert len(adults) == 2
    with other.write():
        other.create("Person", {"id": 9, "name": "Zed", "age": 99})
    assert len(adults) == 3 and adults[-1].name == "Zed"


def test_snapshot_is_frozen(db: drumlin.Database) -> None:
    adults = db.query("Person", "age >= 18 SORT(age DESC)")
    frozen = adults.snapshot()
    with db.write():
        db.create("Person", {"id": 5, "name": "Eve", "age": 99})
        db.get("Person", 1).age = 100  # type: ignore[union-attr]
    assert ids(adults) == [1, 5, 4]
    assert ids(frozen) == [4, 1]  # neither added nor reordered
    with db.write():
        db.delete(db.get("Person", 4))  # type: ignore[arg-type]
    assert ids(frozen) == [1]  # deleted objects are left out
    assert ids(frozen.sort("id", ascending=False)) == [1]


def test_delete_all_and_db_delete_results(db: drumlin.Database) -> None:
    young = db.query("Person", "age < 40")
    with pytest.raises(drumlin.TransactionError):
        young.delete_all()
    with pytest.raises(drumlin.TransactionError):
        db.delete(young)
    with db.write():
        assert young.delete_all() == 2
        assert len(young) == 0
    assert ids(db.objects("Person")) == [3, 4]
    with db.write():
        db.delete(db.query("Note", "rank != 2"))
        db.delete(db.objects("Dog").filter("FALSEPREDICATE"))
    assert [n.text for n in db.objects("Note")] == ["b"]
    assert db.count("Dog") == 3


def test_closed_database_and_pickle(db: drumlin.Database) -> None:
    people = db.objects("Person")
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(people)
    db.close()
    with pytest.raises(drumlin.MisuseError):
        len(people)
    with pytest.raises(drumlin.MisuseError):
        people.filter("age > 1")
    with pytest.raises(drumlin.MisuseError):
        db.objects("Person")
    assert repr(people) == "<drumlin.Results Person (unreadable)>"
    people.close()
    assert repr(people) == "<drumlin.Results Person (closed)>"
    with pytest.raises(drumlin.MisuseError, match="These results are closed."):
        people.sort("age")


# ---- Lists and backlinks ---------------------------------------------------------------------------


def test_list_filter_and_sort(db: drumlin.Database) -> None:
    bob = db.get("Person", 2)
    assert bob is not None
    dogs = bob.dogs
    assert ids(dogs.filter("age > $0", 2)) == ["Bo", "Bo"]
    assert ids(dogs.filter("TRUEPREDICATE SORT(name ASC)")) == ["Bo", "Bo", "Fido"]
    assert ids(dogs.sort("age")) == ["Fido", "Bo", "Bo"]
    assert ids(dogs.sort([("name", False)])) == ["Fido", "Bo", "Bo"]
    assert ids(dogs.filter("age > 2").distinct("name")) == ["Bo"]
    assert dogs.filter("age > 2").sum("age") == 24
    assert [dog.name for dog in dogs] == ["Bo", "Bo", "Fido"]  # the list itself is unchanged
    filtered = dogs.filter("age < 5")
    with db.write():
        dogs.insert(0, "Rex")
    assert ids(filtered) == ["Rex", "Fido"]
    with db.write():
        assert filtered.delete_all() == 2
    assert [dog.name for dog in dogs] == ["Bo", "Bo"]
    with pytest.raises(drumlin.TypeMismatchError, match=r"List 'Person.scores' does not hold objects"):
        bob.scores.filter("TRUEPREDICATE")
    with pytest.raises(drumlin.QueryError, match="'Dog' has no property 'nope'"):
        dogs.filter("nope == 1")


def test_list_results_of_a_deleted_owner(db: drumlin.Database) -> None:
    ann = db.get("Person", 1)
    assert ann is not None
    dogs = ann.dogs.filter("TRUEPREDICATE")
    with db.write():
        db.delete(ann)
    with pytest.raises(drumlin.InvalidatedObjectError):
        len(dogs)


def test_backlinks_can_be_filtered_and_sorted(db: drumlin.Database) -> None:
    bo = db.get("Dog", "Bo")
    assert bo is not None
    owners = bo.owners
    assert ids(owners) == [1, 2, 2]
    assert ids(owners.filter("name == $0", "Bob")) == [2, 2]
    assert ids(owners.sort("name", ascending=False)) == [2, 2, 1]
    assert ids(owners.distinct("id")) == [1, 2]
    assert owners.filter("age > 20").max("age") == 31
    assert ids(bo.linking_objects("Person", "dogs").filter("age < 20")) == [2, 2]
    with db.write():
        db.create("Person", {"id": 7, "name": "Al", "age": 70, "dogs": ["Bo"]})
    assert ids(owners.sort("name")) == [7, 1, 2, 2]


# ---- Arguments -----------------------------------------------------------------------------------


def test_object_arguments(db: drumlin.Database) -> None:
    rex, bo = db.get("Dog", "Rex"), db.get("Dog", "Bo")
    assert ids(db.query("Person", "ANY dogs == $0", bo)) == [1, 2]
    assert ids(db.query("Person", "dogs == $0 OR dogs == $1", rex, "Fido")) == [1, 2, 4]
    assert ids(db.query("Person", "NONE dogs IN $0", [rex, bo])) == [3, 4]
    young_dogs = db.query("Dog", "age < 5")
    assert ids(db.query("Person", "ANY dogs IN $0", young_dogs)) == [1, 2, 4]
    assert ids(db.query("Person", "ANY dogs IN $0", db.get("Person", 4).dogs)) == [2, 4]  # type: ignore[union-attr]
    assert ids(db.query("Person", "age IN $0", (age for age in (17, 62)))) == [2, 4]
    note = db.objects("Note")[0]
    with pytest.raises(drumlin.QueryError) as caught:
        db.query("Person", "dogs == $0", note)
    assert caught.value.message == (
        "The relationship 'dogs' which links to type 'Dog' cannot be compared to an argument of type "
        "'Note' (at position 1)"
    )


def test_argument_types_checked_in_python(db: drumlin.Database) -> None:
    with pytest.raises(drumlin.InvalidArgumentError, match="does not fit in 64 bits"):
        db.query("Person", "age == $0", 2**64)
    with pytest.raises(
        drumlin.TypeMismatchError,
        match="Query arguments: Drumlin cannot store a value of Python type 'object'",
    ):
        db.query("Person", "age == $0", object())
    with pytest.raises(drumlin.QueryError) as caught:
        db.query("Person", "age == $1", 1)
    assert caught.value.message == (
        "Request for argument at index 1 but only 1 argument is provided: $1 is missing (at position 8)"
    )


def test_iterating_large_results_inside_a_write(db: drumlin.Database) -> None:
    # Reading a whole Results is one pass (not one query per object), also inside a write where
    # the engine re-evaluates on every call: 3000 objects would take minutes otherwise.
    with db.write():
        db.create_many("Person", [{"id": 100 + i, "name": f"p{i}", "age": i % 90} for i in range(3000)])
        old = db.query("Person", "id >= 100 AND age >= 80")
        assert len(list(old)) == 330
        assert old[5:8] == [
            db.get("Person", 105 + 80),
            db.get("Person", 106 + 80),
            db.get("Person", 107 + 80),
        ]
        assert db.get("Person", 189) in old and db.get("Person", 3099) not in old
