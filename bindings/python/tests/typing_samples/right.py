"""The same program without its mistakes (typing_samples/mistakes.py): both checkers pass it, and
objects read by class name stay dynamic (their properties are not declared to the checkers)."""

from __future__ import annotations

from typing import Optional

import drumlin


class Task(drumlin.Object):
    title: str = ""


class Person(drumlin.Object):
    name: str = ""
    age: Optional[int] = None
    tasks: drumlin.List[Task] = drumlin.persisted(default_factory=list)


with drumlin.open(":memory:", schema=[Person, Task]) as db:
    with db.write():
        d = db.add(Person(name="Ann"))
        d.age = 3
        d.tasks.append(db.add(Task(title="write")))
        for p in db.objects(Person):
            p.name = "Bo"
        for q in db.query(Person, "age > 1").sort("name"):
            q.age = None
        for t in d.tasks:
            t.title = "ship"
        by_name = db.objects("Person")[0]
        for o in db.objects("Person"):
            o.age = 4
    names: list[str] = [p.name for p in db.objects(Person)]
    titles: list[str] = [t.title for t in d.tasks]
    print(names, titles, by_name.tasks[0].title, db.objects("Person")[0].age)
