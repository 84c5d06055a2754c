"""Drumlin quickstart: open a database, create, read, update, query, count, handle an error, and
relate objects: a Person with a list of Dogs, an embedded Address, the Dogs' `owners` backlink and
a mixed payload.

    python3 examples/python/quickstart.py [path]     (default: a file in a new temp directory)

Uses the installed `drumlin` package, or this checkout's bindings/python with the library from
DRUMLIN_LIBRARY (as `make demo` runs it).
"""

from __future__ import annotations

import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

try:
    import drumlin
except ImportError:  # not installed: use the package from this checkout
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bindings" / "python"))
    import drumlin

SCHEMA = [
    {
        "name": "Person",
        "primaryKey": "_id",
        "properties": {
            "_id": "objectId",
            "name": {"type": "string", "indexed": True},
            "age": "int?",
            "email": "string?",
            "score": "double",
            "joined": "date",
            "dogs": "Dog[]",
            "address": "Address",
            "extra": "mixed",
        },
    },
    {
        "name": "Dog",
        "primaryKey": "name",
        "properties": {
            "name": "string",
            "owners": {"type": "linkingObjects", "objectType": "Person", "property": "dogs"},
        },
    },
    {"name": "Address", "embedded": True, "properties": {"street": "string", "city": "string?"}},
]


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp()) / "quickstart.drumlin"
    path.unlink(missing_ok=True)  # start from a fresh database

    with drumlin.open(path, schema=SCHEMA) as db:
        print(f"opened {db.path} with drumlin {drumlin.__version__}")

        # Every write happens inside `with db.write():` (commit at the end, rollback on error).
        ann_id = drumlin.ObjectId()
        with db.write():
            ann = db.create(
                "Person",
                {
                    "_id": ann_id,
                    "name": "Ann",
                    "age": 30,
                    "score": 9.5,
                    "joined": datetime(2024, 3, 18, 13, 50, 58, tzinfo=timezone.utc),
                },
            )
            created = db.create_many(
                "Person",
                [
                    {
                        "_id": drumlin.ObjectId(),
                        "name": "Bob",
                        "score": 7.0,
                        "joined": datetime.now(timezone.utc),
                    },
                    {
                        "_id": drumlin.ObjectId(),
                        "name": "Cy",
                        "age": 41,
                        "score": 8.25,
                        "joined": datetime.now(timezone.utc),
                    },
                ],
            )
        print(f"created {ann!r} and {created} more")

        # Read: attributes or items; objects are live views of the stored data.
        found = db.get("Person", ann_id)
        assert found is not None and found == ann
        print(f"get: {found.name}, age {found['age']}, joined {found.joined.isoformat()}")

        # Update: assign attributes, or several at once with update().
        with db.write():
            ann.age = 31
            ann.update({"email": "ann@example.com", "score": 9.75})
        print(f"updated: {ann.to_dict()}")

        print(f"count: {db.count('Person')} people")

        # Query: Realm Query Language with $0, $1... arguments; results are live and chainable.
        scored = db.query("Person", "score >= $0", 8.0).sort("score", ascending=False)
        print(f"score >= 8, best first: {[person.name for person in scored]}")
        with_age = db.count("Person", "age != nil")
        print(f"{with_age} with an age, the oldest is {db.objects('Person').max('age')}")

        # Errors are exceptions with the engine's message and the C status code.
        try:
            with db.write():
                db.create(
                    "Person", {"_id": ann_id, "name": "Ann again", "score": 0.0, "joined": datetime.now()}
                )
        except drumlin.DuplicatePrimaryKeyError as error:
            print(f"refused (code {error.code}): {error}")
        print(f"still {db.count('Person')} people; Ann is {db.get('Person', ann_id).name}")

        # Relationships: a list of Dogs (new ones from dicts, existing ones as objects or by
        # primary key), an embedded Address, and a mixed value holding nested lists and dicts.
        with db.write():
            rex = db.create("Dog", {"name": "Rex"})
            ann.update(
                {
                    "dogs": [rex, {"name": "Bo"}],
                    "address": {"street": "1 Main St", "city": "Springfield"},
                    "extra": {"tags": ["new", "vip"], "visits": {"2024": 3}},
                }
            )
            ann.dogs.append("Rex")  # the same Dog again, by primary key
            ann.address.city = "Shelbyville"  # an embedded object is changed in place
            ann.set_mixed("extra", ["visits", "2025"], 1)  # one element of the mixed value
        print(f"dogs: {[dog.name for dog in ann.dogs]}, address: {ann.address.to_dict()}")
        print(f"extra: {ann.extra}")
        print(f"Rex's owners (a backlink): {[owner.name for owner in rex.owners]}")

        with db.write():
            db.delete(ann)  # its Address goes with it; the Dogs stay, without an owner
        print(f"deleted Ann: is_valid={ann.is_valid}, count={db.count('Person')}")
        print(f"Rex's owners now: {len(rex.owners)}, dogs left: {db.count('Dog')}")


if __name__ == "__main__":
    main()
