"""Objects inside nested lists and dictionaries of mixed values, as Realm allows since nested
collections arrived (realm-core 14): every write route stores them, reads give the objects back,
queries follow them (realm-core's parser test ``properties.three[1].friend.name``), deleting the
object clears them as realm-core's ``Lst<Mixed>::nullify`` and ``Dictionary::nullify`` do (a list
element is removed, a dictionary value becomes null) at any depth, and exports, imports and
migrations keep them. Format 4 (docs/storage.md): an older file gets the links' index when opened
for writing."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest
from conftest import OpenDb, run_sql, stored_rows

import drumlin

SCHEMA: list[dict[str, Any]] = [
    {"name": "Holder", "primaryKey": "id",
     "properties": {"id": "int", "properties": "mixed", "items": "mixed[]", "map": "mixed{}"}},
    {"name": "Dog", "primaryKey": "name", "properties": {"name": "string", "age": "int?"}},
    {"name": "Cat", "properties": {"n": "int", "name": "string"}},
]


@pytest.fixture
def db(open_db: OpenDb) -> drumlin.Database:
    return open_db(SCHEMA)


def pets(db: drumlin.Database) -> tuple[drumlin.Object, drumlin.Object]:
    rex = db.create("Dog", {"name": "Rex", "age": 3})
    bo = db.create("Dog", {"name": "Bo", "age": 9})
    assert rex is not None and bo is not None
    return rex, bo


def holder(db: drumlin.Database, id: int = 1) -> drumlin.Object:
    found = db.get("Holder", id)
    assert found is not None
    return found


Write = Callable[[drumlin.Database, drumlin.Object, drumlin.Object], None]


@pytest.mark.parametrize(
    ("write", "prop", "expected"),
    [
        (lambda db, h, rex: setattr(h, "properties", {"a": [rex]}), "properties", lambda rex: {"a": [rex]}),
        (lambda db, h, rex: h.update({"properties": [[rex], 1]}), "properties", lambda rex: [[rex], 1]),
        (lambda db, h, rex: h.items.append({"k": rex}), "items", lambda rex: [{"k": rex}]),
        (lambda db, h, rex: h.map.__setitem__("m", [rex]), "map", lambda rex: {"m": [rex]}),
        (lambda db, h, rex: h.set_mixed("properties", ["x"], rex), "properties", lambda rex: {"x": rex, "l": []}),
        (lambda db, h, rex: h.append_mixed("properties", ["l"], rex), "properties", lambda rex: {"x": 0, "l": [rex]}),
    ],
    ids=["assign", "update", "list append", "dict set", "set_mixed", "append_mixed"],
)
def test_every_write_route_stores_an_object_inside_a_nested_collection(
    db: drumlin.Database, write: Write, prop: str, expected: Callable[[drumlin.Object], Any]
) -> None:
    with db.write():
        rex, _ = pets(db)
        h = db.create("Holder", {"id": 1, "properties": {"x": 0, "l": []}})
        assert h is not None
        write(db, h, rex)
    value = getattr(h, prop)
    assert (list(value) if prop == "items" else dict(value) if prop == "map" else value) == expected(rex)


def test_create_and_create_many_store_objects_at_any_depth(db: drumlin.Database) -> None:
    with db.write():
        rex, bo = pets(db)
        db.create("Holder", {"id": 1, "properties": {"three": [1, {"friend": rex}], "deep": [[[{"d": bo}]]]}})
        db.create_many("Holder", [{"id": 2, "items": [[rex, bo]], "map": {"m": {"pet": bo}}}])
    one, two = holder(db, 1), holder(db, 2)
    assert one.properties == {"three": [1, {"friend": rex}], "deep": [[[{"d": bo}]]]}
    assert one.properties["three"][1]["friend"].name == "Rex"
    assert list(two.items) == [[rex, bo]] and two.map["m"] == {"pet": bo}
    assert one.get_mixed("properties", ["three", 1, "friend"]) == rex
    key = rex._drumlin_object_key()
    assert one.to_dict()["properties"]["three"][1] == {"friend": {"$link": {"class": "Dog", "key": key}}}
    assert f'"friend":{{"$link":{{"class":"Dog","key":{key}}}}}' in one.to_json()


def test_queries_follow_an_object_inside_a_nested_collection(db: drumlin.Database) -> None:
    with db.write():
        rex, bo = pets(db)
        db.create("Holder", {"id": 1, "properties": {"three": [1, {"friend": rex}]}})
        db.create("Holder", {"id": 2, "properties": {"three": [1, {"friend": bo}]}})
        db.create("Holder", {"id": 3, "properties": {"three": [1, {"friend": "Rex"}]}})

    def ids(query: str, *args: Any) -> list[int]:
        return sorted(h.id for h in db.objects("Holder").filter(query, *args))

    assert ids("properties.three[1].friend.name == 'Rex'") == [1]
    assert ids("properties.three[1].friend.age > 5") == [2]
    assert ids("properties.three[1].friend.@type == 'objectlink'") == [1, 2]
    assert ids("properties.three[1].friend == $0", rex) == [1]


def test_deleting_the_object_clears_it_at_every_depth(db: drumlin.Database) -> None:
    with db.write():
        rex, bo = pets(db)
        db.create("Holder", {"id": 1, "properties": {"three": [rex, 1, {"friend": rex, "other": bo}, rex],
                                                       "deep": [[[rex, bo]]]},
                              "items": [[rex], {"r": rex}], "map": {"m": [bo, rex]}})
    h = holder(db)
    with db.write():
        db.delete(rex)
    # Realm: a list's element is removed (the rest close up), a dictionary's value becomes null.
    assert h.properties == {"three": [1, {"friend": None, "other": bo}], "deep": [[[bo]]]}
    assert list(h.items) == [[], {"r": None}]
    assert h.map["m"] == [bo]
    assert h.get_mixed("properties", ["three", 1]) == {"friend": None, "other": bo}
    # Positions closed up: appending goes to the end, reading by index finds the survivors.
    with db.write():
        h.append_mixed("properties", ["three"], "end")
    assert h.get_mixed("properties", ["three"]) == [1, {"friend": None, "other": bo}, "end"]
    assert stored_rows(db.path, "SELECT count(*) FROM _drumlin_mixed WHERE value_type = 10") == [(3,)]


def test_a_bulk_delete_clears_them_too(db: drumlin.Database) -> None:
    with db.write():
        rex, bo = pets(db)
        db.create("Holder", {"id": 1, "properties": {"l": [rex, bo, rex], "d": {"a": bo}}})
    with db.write():
        assert db.objects("Dog").filter("age > 5").delete_all() == 1
    assert holder(db).properties == {"l": [rex, rex], "d": {"a": None}}
    with db.write():
        db.objects("Dog").delete_all()
    assert holder(db).properties == {"l": [], "d": {"a": None}}


def test_refusals_inside_nested_collections_change_nothing(db: drumlin.Database, open_db: OpenDb) -> None:
    other = open_db(SCHEMA, name="other.drumlin")
    with other.write():
        stranger = other.create("Dog", {"name": "Stranger"})
    with db.write():
        h = db.create("Holder", {"id": 1, "properties": {"l": [1]}})
        assert h is not None
        for route in (lambda: setattr(h, "properties", {"l": [stranger]}),
                      lambda: db.create_many("Holder", [{"id": 2, "properties": [[stranger]]}])):
            with pytest.raises(drumlin.InvalidArgumentError) as caught:
                route()
            assert caught.value.message == (
                "Property 'Holder.properties': the Dog object belongs to another database: a mixed value can "
                "only hold objects of its own database"
            )
        ghost = db.create("Dog", {"name": "Ghost"})
        assert ghost is not None
        db.delete(ghost)
        with pytest.raises(drumlin.InvalidatedObjectError):
            h.append_mixed("properties", ["l"], ghost)
    assert h.properties == {"l": [1]}
    assert stored_rows(db.path, "SELECT count(*) FROM _drumlin_mixed WHERE value_type = 10") == [(0,)]


def test_export_and_import_keep_them(db: drumlin.Database, open_db: OpenDb, tmp_path: Path) -> None:
    with db.write():
        rex, _ = pets(db)
        cat = db.create("Cat", {"n": 1, "name": "Tom"})
        db.create("Holder", {"id": 1, "properties": {"pets": [rex, {"cat": cat}]}})
    out = tmp_path / "all.ndjson"
    assert db.export_ndjson(out) == 4
    assert '{"$link":{"class":"Dog","primaryKey":"Rex"}}' in out.read_text()
    copy = open_db(SCHEMA, name="copy.drumlin")
    with copy.write():
        copy.create("Cat", {"n": 0, "name": "Filler"})  # object keys differ between the files
    assert copy.import_ndjson(out) == 4
    h = holder(copy)
    imported_rex = copy.get("Dog", "Rex")
    tom = copy.objects("Cat").filter("name == 'Tom'")[0]
    assert h.properties == {"pets": [imported_rex, {"cat": tom}]}


def test_a_migration_remaps_object_keys_and_clears_links_to_removed_classes(tmp_path: Path) -> None:
    path = tmp_path / "m.drumlin"
    with drumlin.open(path, SCHEMA, schema_version=1) as db, db.write():
        rex, _ = pets(db)
        for n in (10, 20):
            db.create("Cat", {"n": n, "name": f"c{n}"})
        c20 = db.objects("Cat").filter("n == 20")[0]
        db.create("Holder", {"id": 1, "properties": {"cats": [c20, rex], "d": {"c": c20}}})
    # Cat becomes keyed by its int primary key: the object keys change, the links follow.
    keyed = [SCHEMA[0], SCHEMA[1], {"name": "Cat", "primaryKey": "n", "properties": {"n": "int", "name": "string"}}]
    with drumlin.open(path, keyed, schema_version=2) as db:
        h = holder(db)
        c20 = db.get("Cat", 20)
        assert h.properties == {"cats": [c20, db.get("Dog", "Rex")], "d": {"c": c20}}
        assert h.properties["cats"][0].name == "c20"
    # Cat leaves the schema: its objects stay in the file (as in Realm), so do links to them, read
    # as None; deleting its data clears them, as deleting the objects would.
    with drumlin.open(path, SCHEMA[:2], schema_version=3) as db:
        assert holder(db).properties == {"cats": [None, db.get("Dog", "Rex")], "d": {"c": None}}
    with drumlin.open(path, SCHEMA[:2], schema_version=4, migration=lambda m: m.delete_data("Cat")) as db:
        assert holder(db).properties == {"cats": [db.get("Dog", "Rex")], "d": {"c": None}}


def test_a_format_3_file_gets_the_index_when_opened_for_writing(tmp_path: Path) -> None:
    path = tmp_path / "f3.drumlin"
    drumlin.open(path, SCHEMA).close()
    run_sql(path, "DROP INDEX _drumlin_mixed_links; UPDATE _drumlin_meta SET value = 3 WHERE key = 'format'")
    with drumlin.open(path, SCHEMA, read_only=True) as db:
        assert db.count("Holder") == 0
    assert stored_rows(path, "SELECT value FROM _drumlin_meta WHERE key = 'format'") == [(3,)]
    with drumlin.open(path, SCHEMA) as db, db.write():
        rex, _ = pets(db)
        db.create("Holder", {"id": 1, "properties": [rex]})
    assert stored_rows(path, "SELECT value FROM _drumlin_meta WHERE key = 'format'") == [(4,)]
    assert stored_rows(path, "SELECT name FROM sqlite_master WHERE name = '_drumlin_mixed_links'") == [("_drumlin_mixed_links",)]
    run_sql(path, "UPDATE _drumlin_meta SET value = 5 WHERE key = 'format'")
    with pytest.raises(drumlin.CorruptError) as caught:
        drumlin.open(path, SCHEMA)
    assert caught.value.message == f"The file '{path}' uses Drumlin format 5; this library reads formats 1, 2, 3 and 4."
