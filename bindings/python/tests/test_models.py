"""Model classes (docs/python.md, Model classes): each seed feature declared as a class, written,
read back and queried. The JSON schema the classes give is what the engine validates."""

from __future__ import annotations

import dataclasses
import datetime
import enum
import pathlib
import uuid
from decimal import Decimal
from typing import Any, ClassVar, Optional

import pytest
from conftest import OpenDb, stored_rows

import drumlin


class Person(drumlin.Object):
    id: int = drumlin.persisted(primary_key=True)
    name: str = drumlin.persisted(default="", indexed=True)
    age: Optional[int] = None
    dog: Optional[Dog] = None
    dogs: drumlin.List[Dog] = drumlin.persisted(default_factory=list)
    address: Optional[Address] = None


class Dog(drumlin.Object):
    name: str = ""
    owners: drumlin.Results[Person] = drumlin.linking_objects(Person, "dogs")
    walkers = drumlin.linking_objects("Person", "dog")  # unannotated: typed by linking_objects


class Address(drumlin.EmbeddedObject):
    street: str = ""
    city: Optional[str] = None


def test_model_classes_give_the_json_schema(open_db: OpenDb) -> None:
    db = open_db([Person])  # Dog and Address come with Person, which links to them
    schema = {entry["name"]: entry for entry in db.schema}
    assert sorted(schema) == ["Address", "Dog", "Person"]
    person = schema["Person"]
    assert person["primaryKey"] == "id"
    assert person["properties"]["name"] == {
        "type": "string", "optional": False, "indexed": True, "mapTo": "name", "default": ""
    }
    assert person["properties"]["age"]["optional"] is True
    assert person["properties"]["dogs"]["type"] == "list"
    assert person["properties"]["dogs"]["objectType"] == "Dog"
    assert schema["Address"]["embedded"] is True
    assert schema["Dog"]["properties"]["owners"]["type"] == "linkingObjects"
    assert schema["Dog"]["properties"]["walkers"]["property"] == "dog"


def test_objects_of_a_model_class_are_its_instances(open_db: OpenDb) -> None:
    db = open_db([Person])
    with db.write():
        ann = db.create(Person, {"id": 1, "name": "Ann", "dogs": [{"name": "Rex"}]})
        bob = db.add(Person(id=2, name="Bob", age=40))
    assert isinstance(ann, Person) and type(ann).__name__ == "Person"
    assert bob.is_managed and bob.age == 40
    assert isinstance(db.get(Person, 2), Person)
    assert [p.name for p in db.objects(Person)] == ["Ann", "Bob"]
    assert [p.name for p in db.query(Person, "age > $0", 30)] == ["Bob"]
    assert isinstance(ann.dogs[0], Dog)
    # string class names keep working, and give the model's instances too
    assert isinstance(db.get("Person", 1), Person)
    assert db.objects("Dog")[0].name == "Rex"
    assert db.count(Person) == 2


def test_add_stores_the_same_python_object(open_db: OpenDb) -> None:
    db = open_db([Person])
    rex = Dog(name="Rex")
    ann = Person(id=1, name="Ann", dog=rex, address=Address(street="Main 1"))
    assert not ann.is_managed and ann.age is None and ann.to_dict()["name"] == "Ann"
    with db.write():
        stored = db.add(ann)
    assert stored is ann and ann.is_managed
    assert ann.dog is not None and ann.dog.name == "Rex"
    assert ann.address is not None and ann.address.street == "Main 1"
    assert db.query(Person, "address.street == 'Main 1'")[0] == ann
    with db.write():
        ann.age = 31
    assert db.get(Person, 1).age == 31  # type: ignore[union-attr]


def test_add_with_update_modes_upserts(open_db: OpenDb) -> None:
    db = open_db([Person])
    with db.write():
        db.add(Person(id=1, name="Ann"))
        with pytest.raises(drumlin.DuplicatePrimaryKeyError):
            db.add(Person(id=1, name="Again"))
        db.add(Person(id=1, name="Anna", age=3), update="modified")
        with pytest.raises(drumlin.InvalidArgumentError, match="update must be None"):
            db.add(Person(id=1, name="x"), update="upsert")  # type: ignore[arg-type]
    assert [(p.name, p.age) for p in db.objects(Person)] == [("Anna", 3)]


def test_constructor_refuses_unknown_names_and_add_needs_a_model_object(open_db: OpenDb) -> None:
    db = open_db([Person])
    with pytest.raises(TypeError, match="unexpected keyword argument 'nmae'"):
        Person(id=1, nmae="Ann")  # type: ignore[call-arg]
    with db.write():
        ann = db.create("Person", {"id": 1})
        with pytest.raises(drumlin.TypeMismatchError, match="add\\(\\) takes an object of a model class"):
            db.add({"id": 2})  # type: ignore[type-var]
        assert db.add(ann) is ann  # already stored: returned as it is
    with pytest.raises(drumlin.MissingValueError):
        with db.write():
            db.add(Person(name="no id"))
    assert db.count(Person) == 1


def test_backlinks_from_linking_objects(open_db: OpenDb) -> None:
    db = open_db([Person])
    with db.write():
        rex = db.add(Dog(name="Rex"))
        ann = db.add(Person(id=1, name="Ann", dog=rex))
        ann.dogs.append(rex)
        db.add(Person(id=2, name="Bob")).dogs.append(rex)
    assert [p.name for p in rex.owners] == ["Ann", "Bob"]
    assert [p.name for p in rex.walkers] == ["Ann"]
    assert [p.name for p in rex.owners.filter("name BEGINSWITH 'B'")] == ["Bob"]
    assert db.query(Dog, "owners.@count == 2")[0] == rex


def test_dict_schemas_and_model_classes_mix(open_db: OpenDb) -> None:
    cat = {"name": "Cat", "properties": {"name": "string", "friend": "Dog"}}
    db = open_db([Dog, cat, {"name": "Person", "primaryKey": "id", "properties": {"id": "int", "dogs": "Dog[]", "dog": "Dog"}}])
    with db.write():
        tom = db.create("Cat", {"name": "Tom", "friend": {"name": "Rex"}})
    assert tom.friend.name == "Rex" and isinstance(tom.friend, Dog)
    assert type(tom).__name__ == "Cat" and not isinstance(tom, Dog)


class Reading(drumlin.AsymmetricObject):
    id: uuid.UUID = drumlin.persisted(primary_key=True, default_factory=uuid.uuid4)
    value: float = 0.0


def test_asymmetric_model_class_is_insert_only(open_db: OpenDb) -> None:
    db = open_db([Reading])
    with db.write():
        reading = db.add(Reading(value=1.5))
        assert db.create(Reading, {"value": 2.5}) is None
    assert not reading.is_managed  # it cannot be read back
    with pytest.raises(drumlin.NotSupportedError):
        db.objects(Reading)


class Every(drumlin.Object, map_to="every_type"):
    id: drumlin.ObjectId = drumlin.persisted(primary_key=True, default_factory=drumlin.ObjectId)
    flag: bool = False
    count: int = 0
    ratio: float = 0.0
    single: float = drumlin.persisted(default=0.0, type="float")
    price: Decimal = Decimal("0")
    text: str = drumlin.persisted(default="", map_to="text_column")
    bio: Optional[str] = drumlin.persisted(default=None, indexed="full-text")
    blob: bytes = b""
    when: Optional[datetime.datetime] = None
    key: Optional[uuid.UUID] = None
    anything: Any = None
    numbers: drumlin.List[int] = drumlin.persisted(default_factory=list)
    maybe: drumlin.List[Optional[int]] = drumlin.persisted(default_factory=list)
    tags: drumlin.Set[str] = drumlin.persisted(default_factory=set)
    extra: drumlin.Dictionary[Any] = drumlin.persisted(default_factory=dict)


def test_every_property_type_round_trips(open_db: OpenDb, tmp_path: pathlib.Path) -> None:
    db = open_db([Every])
    when = datetime.datetime(2024, 3, 18, 13, 50, 58, tzinfo=datetime.timezone.utc)
    key = uuid.uuid4()
    with db.write():
        obj = db.add(Every(flag=True, count=3, ratio=0.5, single=0.25, price=Decimal("1.10"),
                           text="t", bio="quick brown fox", blob=b"\x00\x01", when=when, key=key,
                           anything=[1, {"a": None}], numbers=[1, 2], maybe=[None, 3], tags={"x"},
                           extra={"k": 1.5}))
    assert (obj.flag, obj.count, obj.ratio, obj.single, obj.price) == (True, 3, 0.5, 0.25, Decimal("1.10"))
    assert (obj.text, obj.bio, obj.blob, obj.when, obj.key) == ("t", "quick brown fox", b"\x00\x01", when, key)
    assert obj.anything == [1, {"a": None}]
    assert list(obj.numbers) == [1, 2] and list(obj.maybe) == [None, 3]
    assert set(obj.tags) == {"x"} and dict(obj.extra) == {"k": 1.5}
    assert isinstance(obj.id, drumlin.ObjectId)
    assert db.query(Every, "bio TEXT 'fox'")[0] == obj
    assert db.query(Every, "text_column == 't' AND text == 't'")[0] == obj  # both names
    schema = db.schema[0]
    assert schema["mapTo"] == "every_type" and schema["properties"]["single"]["type"] == "float"
    assert schema["properties"]["bio"]["indexed"] == "full-text"
    db.close()
    assert stored_rows(tmp_path / "test.drumlin", "SELECT text_column FROM every_type") == [("t",)]


class Owner(drumlin.Object):
    name: str = ""
    cache_hits = 0  # ignored: a plain class attribute
    kind: ClassVar[str] = "owner"  # ignored: a ClassVar

    @property
    def shout(self) -> str:  # ignored: computed
        return self.name.upper()

    def greet(self) -> str:  # ignored: a method
        return f"hello {self.name}"


def test_ignored_attributes_stay_plain_python(open_db: OpenDb) -> None:
    db = open_db([Owner])
    assert list(db.schema[0]["properties"]) == ["name"]
    with db.write():
        ann = db.add(Owner(name="Ann"))
    ann.cache_hits = 5  # no write transaction needed: not persisted
    assert (ann.cache_hits, Owner.cache_hits, ann.shout, ann.greet()) == (5, 0, "ANN", "hello Ann")
    with pytest.raises(drumlin.NoSuchPropertyError):
        ann.nickname = "x"  # type: ignore[attr-defined]
    with pytest.raises(AttributeError, match="has no property 'nickname'"):
        Owner().nickname = "x"  # type: ignore[attr-defined]


class User(drumlin.Object):
    email_address: str = drumlin.persisted(default="", map_to="email")

    @property
    def email(self) -> str:
        return self.email_address

    @email.setter
    def email(self, value: str) -> None:
        if "@" not in value:
            raise ValueError(f"not an email address: {value!r}")
        self.email_address = value.strip().lower()


def test_custom_setter_validates_and_derives(open_db: OpenDb) -> None:
    db = open_db([User])
    with db.write():
        user = db.add(User())
        user.email = "  Ann@Example.COM "
        with pytest.raises(ValueError, match="not an email address: 'nope'"):
            user.email = "nope"
    assert user.email == "ann@example.com"
    assert db.query(User, "email == $0", "ann@example.com")[0] == user  # the stored name


class Status(enum.Enum):
    TODO = "todo"
    DONE = "done"


class Priority(enum.IntEnum):
    LOW = 1
    HIGH = 2


@dataclasses.dataclass
class Location:
    city: str
    zip_code: Optional[str] = None


class Task(drumlin.Object):
    title: str = ""
    status: Status = Status.TODO
    priority: Optional[Priority] = None
    folder: pathlib.PurePosixPath = pathlib.PurePosixPath("/")
    where: Optional[Location] = None


def test_persisted_value_transforms(open_db: OpenDb) -> None:
    db = open_db([Task])
    with db.write():
        task = db.add(Task(title="a", status=Status.DONE, priority=Priority.HIGH,
                           folder=pathlib.PurePosixPath("/home/ann"), where=Location("Bern")))
        db.create(Task, {"title": "b"})
    assert (task.status, task.priority, task.folder) == (Status.DONE, Priority.HIGH, pathlib.PurePosixPath("/home/ann"))
    assert task.where == Location("Bern")
    stored = db.query_dicts("Task", "title == 'a'")[0]  # the stored values
    assert (stored["status"], stored["priority"], stored["folder"]) == ("done", 2, "/home/ann")
    assert stored["where"] == {"city": "Bern", "zip_code": None}
    second = db.get(Task, 0) if False else db.query(Task, "title == 'b'")[0]
    assert (second.status, second.priority, second.where) == (Status.TODO, None, None)
    assert [t.title for t in db.query(Task, "status == $0", Status.DONE)] == ["a"]
    with db.write():
        task.status = Status.TODO
        task.where = Location("Basel", "4000")
        with pytest.raises(ValueError):
            task.status = "later"  # type: ignore[assignment]
    assert (task.status, task.where) == (Status.TODO, Location("Basel", "4000"))
    schema = {e["name"]: e for e in db.schema}
    assert schema["Location"]["embedded"] is True
    assert schema["Task"]["properties"]["status"]["default"] == "todo"


class Friend(drumlin.Object):
    id: int = drumlin.persisted(primary_key=True)
    first_name: str = ""
    last_name: str = ""
    address: Optional[Address] = None
    friends: drumlin.List[Friend] = drumlin.persisted(default_factory=list)


class FriendView(drumlin.Projection[Friend]):
    first_name: str  # passthrough
    home_city: Optional[str] = drumlin.projected("address.city")  # renamed, through an embedded object
    friend_names: list[str] = drumlin.projected("friends.first_name")  # a collection, mapped


def test_projection_reads_through_the_object(open_db: OpenDb) -> None:
    db = open_db([Friend])
    with db.write():
        ann = db.add(Friend(id=1, first_name="Ann", address=Address(city="Bern")))
        ann.friends.append(db.add(Friend(id=2, first_name="Bob")))
        ann.friends.append(db.add(Friend(id=3, first_name="Cy")))
    views = db.objects(FriendView)
    assert [v.first_name for v in views] == ["Ann", "Bob", "Cy"]
    view = views[0]
    assert isinstance(view, FriendView) and view.object == ann
    assert (view.home_city, view.friend_names) == ("Bern", ["Bob", "Cy"])
    assert views[1].home_city is None
    assert db.get(FriendView, 2).first_name == "Bob"  # type: ignore[union-attr]
    assert [v.first_name for v in db.query(FriendView, "friends.@count > 0")] == ["Ann"]
    (bob,) = db.query(FriendView, "id == $0", 2)  # one object: made alone, seen through the view
    assert isinstance(bob, FriendView) and bob.object == db.get(Friend, 2)
    with db.write():
        view.first_name = "Anna"  # writes the object
        ann.address.city = "Basel"  # type: ignore[union-attr]
    assert (ann.first_name, view.home_city) == ("Anna", "Basel")
    with pytest.raises(TypeError, match="projects Friend objects"):
        FriendView(Dog(name="x"))  # type: ignore[arg-type]


def test_model_errors_name_the_field_and_the_engine_validates(open_db: OpenDb) -> None:
    class Bad(drumlin.Object):
        when: datetime.date = datetime.date(2024, 1, 1)

    with pytest.raises(TypeError, match="Bad.when: .*date is not a type Drumlin can store"):
        open_db([Bad])

    class Plain(drumlin.Object):
        items: list[int] = drumlin.persisted(default_factory=list)

    with pytest.raises(TypeError, match=r"Plain.items: use drumlin.List\[...\]"):
        open_db([Plain])

    class Kennel(drumlin.Object):
        dog: Dog  # a link must be optional: the engine says so

    with pytest.raises(drumlin.SchemaValidationError, match="property .dog. on .Kennel.: User-defined types as standalone objects"):
        open_db([Kennel, Dog, Person])
