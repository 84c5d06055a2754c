"""The mistakes a new user makes with model classes: mypy --strict and pyright must report each one
(test_typing_mistakes.py checks them by line)."""

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
        d.agee = 3
        for p in db.objects(Person):
            reveal_type(p)
            p.nmae = "Bo"
        for q in db.query(Person, "age > 1").sort("name"):
            q.age = "old"
        for t in d.tasks:
            t.titel = "write"
