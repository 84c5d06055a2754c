"""A program with mistakes that only a type checker finds before it runs (test_typing.py)."""

from __future__ import annotations

from typing import Optional

import drumlin


class Dog(drumlin.Object):
    name: str = ""
    age: Optional[int] = None


with drumlin.open(":memory:", schema=[Dog]) as db:
    reveal_type(db)
    with db.write():
        rex = db.add(Dog(name="Rex"))
        db.create(Dog, {"name": "Bo"}, update="upsert")
        rex.age = "three"
    print(rex.nmae)
    Dog(nmae="Rex")
    reveal_type(db.objects(Dog)[0])
    reveal_type(db.get(Dog, 1))
