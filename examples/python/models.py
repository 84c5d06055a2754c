"""Drumlin's model classes: declare the schema as Python classes, and let the type checker see it.

    DRUMLIN_LIBRARY=.build/release/libdrumlin.so python3 examples/python/models.py [path]

`make demo` runs it; `mypy --strict` checks it (bindings/python/tests/test_typing.py).
"""

from __future__ import annotations

import enum
import sys
from pathlib import Path
from typing import Optional

try:
    import drumlin
except ImportError:  # not installed: use the package from this checkout
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bindings" / "python"))
    import drumlin


class Status(enum.Enum):
    TODO = "todo"
    DONE = "done"


class Person(drumlin.Object):
    id: drumlin.ObjectId = drumlin.persisted(primary_key=True, default_factory=drumlin.ObjectId)
    name: str = drumlin.persisted(default="", indexed=True)
    age: Optional[int] = None
    address: Optional[Address] = None
    tasks: drumlin.List[Task] = drumlin.persisted(default_factory=list)


class Address(drumlin.EmbeddedObject):
    city: str = ""


class Task(drumlin.Object, map_to="tasks"):
    title: str = ""
    status: Status = Status.TODO  # stored as the string "todo"
    assignees: drumlin.Results[Person] = drumlin.linking_objects(Person, "tasks")

    @property
    def is_done(self) -> bool:  # plain Python: not persisted
        return self.status is Status.DONE


class PersonCard(drumlin.Projection[Person]):
    name: str
    city: Optional[str] = drumlin.projected("address.city")
    task_titles: list[str] = drumlin.projected("tasks.title")


def main(path: str) -> None:
    with drumlin.open(path, schema=[Person], delete_if_migration_needed=True) as db:
        with db.write():
            db.delete(db.objects(Person))
            db.delete(db.objects(Task))
            ann = db.add(Person(name="Ann", age=31, address=Address(city="Bern")))
            ann.tasks.append(db.create(Task, {"title": "write docs"}))
            ann.tasks.append(db.add(Task(title="ship", status=Status.DONE)))
        for task in db.objects(Task).sort("title"):
            print(f"{task.title}: {task.status.value}, done={task.is_done}, by {[p.name for p in task.assignees]}")
        for card in db.objects(PersonCard):
            print(f"{card.name} in {card.city}: {', '.join(card.task_titles)}")
        adults: drumlin.Results[Person] = db.query(Person, "age >= $0", 18)
        print("adults:", [p.name for p in adults])


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "models.drumlin")
