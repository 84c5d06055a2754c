"""Every persisted property of an object's class is a data descriptor made once per class from the
schema, of one class per kind of access (drumlin._accessors); reads and writes go through it."""

from __future__ import annotations

import enum
from typing import Any, Optional

import pytest
from conftest import OpenDb

import drumlin
from drumlin import _accessors


class Size(enum.Enum):
    SMALL = "s"
    LARGE = "l"


class Kennel(drumlin.Object):
    id: int = drumlin.persisted(primary_key=True)
    name: str = ""
    rating: Optional[float] = None
    size: Size = Size.SMALL  # a transform: stored as its value
    extra: Any = None  # mixed
    best: Optional[Kennel] = None
    tags: drumlin.List[str] = drumlin.persisted(default_factory=list)
    codes: drumlin.Set[int] = drumlin.persisted(default_factory=set)
    notes: drumlin.Dictionary[str] = drumlin.persisted(default_factory=dict)
    fans: drumlin.Results[Kennel] = drumlin.linking_objects("Kennel", "best")

    @property
    def shout(self) -> str:  # plain Python: no descriptor of the database's
        return self.name.upper()


EXPECTED = {
    "id": _accessors.ScalarAccessor,
    "name": _accessors.ScalarAccessor,
    "rating": _accessors.ScalarAccessor,
    "size": _accessors.TransformedAccessor,
    "extra": _accessors.MixedAccessor,
    "best": _accessors.LinkAccessor,
    "tags": _accessors.ListAccessor,
    "codes": _accessors.SetAccessor,
    "notes": _accessors.DictionaryAccessor,
    "fans": _accessors.BacklinksAccessor,
}


def test_every_persisted_property_of_a_model_class_is_a_descriptor_of_its_kind(open_db: OpenDb) -> None:
    db = open_db([Kennel])
    with db.write():
        db.add(Kennel(id=1, name="Home"))
    home = db.get(Kennel, 1)
    assert home is not None
    made = type(home)
    assert issubclass(made, Kennel) and made is not Kennel
    kinds = {name: type(made.__dict__[name]) for name in EXPECTED}
    assert kinds == EXPECTED
    for name in EXPECTED:  # data descriptors: found before any instance attribute
        assert hasattr(made.__dict__[name], "__set__")
    assert type(made.__dict__["size"].accessor) is _accessors.ScalarAccessor
    assert "shout" not in made.__dict__ and home.shout == "HOME"
    # Made once per class: a second object has the same class, with the same descriptors.
    assert type(db.get(Kennel, 1)) is made
    assert made.__dict__["name"] is type(db.get(Kennel, 1)).__dict__["name"]


def test_reads_and_writes_go_through_the_descriptors(open_db: OpenDb) -> None:
    db = open_db([Kennel])
    with db.write():
        db.add(Kennel(id=1, name="Home"))
        db.add(Kennel(id=2, name="Away"))
    home, away = db.get(Kennel, 1), db.get(Kennel, 2)
    assert home is not None and away is not None
    made = type(home)
    with db.write():
        made.__dict__["name"].__set__(home, "Hearth")
        made.__dict__["size"].__set__(home, Size.LARGE)
        made.__dict__["extra"].__set__(home, {"floors": [1, 2]})
        made.__dict__["best"].__set__(away, home)
        made.__dict__["tags"].__set__(home, ["warm", "dry"])
        home.rating = 4.5  # an assignment is the descriptor's __set__
    assert made.__dict__["name"].__get__(home, made) == "Hearth" == home.name
    assert made.__dict__["rating"].__get__(home, made) == 4.5
    assert home.size is Size.LARGE and home["size"] == "l"  # obj["name"]: the stored value
    assert home.extra == {"floors": [1, 2]}
    assert away.best == home and home.best is None
    assert list(home.tags) == ["warm", "dry"]
    assert list(made.__dict__["fans"].__get__(home, made)) == [away]
    with db.write():
        home.update({"name": "Den", "rating": None})
        home["codes"] = {3, 1}
    assert (home.name, home.rating, sorted(home.codes)) == ("Den", None, [1, 3])
    with pytest.raises(drumlin.InvalidArgumentError, match="read-only"), db.write():
        home.fans = []  # type: ignore[assignment]


def test_a_class_made_from_a_schema_alone_has_descriptors_too(open_db: OpenDb) -> None:
    schema = [{"name": "Box", "primaryKey": "id", "properties": {
        "id": "int", "label": "string", "update": "int", "two words": "string"}}]
    db = open_db(schema)
    with db.write():
        box = db.create("Box", {"id": 1, "label": "a", "update": 7, "two words": "x"})
    made = type(box)
    assert type(made.__dict__["label"]) is _accessors.ScalarAccessor
    # Names that are Object's own or not identifiers are read and written as items only.
    assert "update" not in made.__dict__ and "two words" not in made.__dict__
    assert (box["update"], box["two words"]) == (7, "x")
    with db.write():
        box.label = "b"
        box["update"] = 8
    assert (box.label, box["update"]) == ("b", 8)
    db.close()
    with pytest.raises(drumlin.MisuseError):
        made.__dict__["label"].__get__(box, made)  # its kept row answers nothing once closed
