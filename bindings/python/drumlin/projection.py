"""Projections: a view class naming properties of a model class (Realm's ``Projection``).

    class PersonView(drumlin.Projection[Person]):
        first_name: str                                         # the same name
        home_city: Optional[str] = drumlin.projected("address.city")   # renamed, through a link
        friend_names: list[str] = drumlin.projected("friends.first_name")   # a collection, mapped

Reading a projected attribute reads the underlying object (live); a path through a collection gives
a list of the values at the end of the path. ``db.objects(PersonView)`` and ``db.get(PersonView,
pk)`` give projections.
"""

from __future__ import annotations

import sys
import typing
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar, Generic, TypeVar

from ._errors import InvalidArgumentError
from .object import Object

__all__ = ["Projection", "projected"]

_M = TypeVar("_M", bound=Object)


class _Path:
    """What ``projected()`` returns, and the descriptor that reads it."""

    __slots__ = ("name", "path", "steps")

    def __init__(self, path: str) -> None:
        if not isinstance(path, str) or not path or any(not step for step in path.split(".")):
            raise InvalidArgumentError(f"projected() takes a key path such as 'address.city', not {path!r}")
        self.path = path
        self.steps = tuple(path.split("."))
        self.name = path

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, view: Projection[Any] | None, owner: Any = None) -> Any:
        if view is None:
            return self
        return _follow(view._drumlin_object, self.steps)

    def __set__(self, view: Projection[Any], value: Any) -> None:
        target = _follow(view._drumlin_object, self.steps[:-1])
        if target is None or isinstance(target, list):
            raise InvalidArgumentError(
                f"Cannot assign {type(view).__name__}.{self.name}: the path '{self.path}' does not end "
                "at one object"
            )
        setattr(target, self.steps[-1], value)


def _follow(value: Any, steps: tuple[str, ...]) -> Any:
    for position, step in enumerate(steps):
        if value is None:
            return None
        if _is_collection(value):
            rest = steps[position:]
            return [_follow(item, rest) for item in value]
        value = getattr(value, step)
    return value


def _is_collection(value: Any) -> bool:
    return isinstance(value, Iterable) and not isinstance(value, (str, bytes, Mapping, Object))


def projected(path: str) -> Any:
    """A projected property: ``path`` is a property of the model (``"first_name"``), a key path
    through links and embedded objects (``"address.city"``), or through a collection
    (``"friends.first_name"``: a list of every friend's first name)."""
    return _Path(path)


class Projection(Generic[_M]):
    """The base of projection classes: ``class PersonView(drumlin.Projection[Person])``. An
    annotated attribute without a value projects the model property of the same name."""

    __slots__ = ("_drumlin_object",)

    _drumlin_model_class: ClassVar[Any] = None
    _drumlin_object: _M

    def __init__(self, obj: _M) -> None:
        """A view of ``obj`` (an object of the projected model class)."""
        model = type(self)._drumlin_projected_class()
        if not isinstance(obj, model):
            raise TypeError(f"{type(self).__name__} projects {model.__name__} objects, not {type(obj).__name__}")
        object.__setattr__(self, "_drumlin_object", obj)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for base in cls.__dict__.get("__orig_bases__", ()):
            if typing.get_origin(base) is Projection:
                (cls._drumlin_model_class,) = typing.get_args(base)
        for name, annotation in cls.__dict__.get("__annotations__", {}).items():
            if isinstance(annotation, str) and annotation.startswith(("ClassVar", "typing.ClassVar")):
                continue
            if typing.get_origin(annotation) is ClassVar:
                continue
            if name not in cls.__dict__:
                path = _Path(name)
                path.name = name
                setattr(cls, name, path)

    @classmethod
    def _drumlin_projected_class(cls) -> type[Object]:
        model = cls._drumlin_model_class
        if isinstance(model, typing.ForwardRef):
            model = model.__forward_arg__
        if isinstance(model, str):
            module = sys.modules.get(cls.__module__)
            model = getattr(module, model, None)
        if not (isinstance(model, type) and issubclass(model, Object)):
            raise TypeError(
                f"{cls.__name__} must name the model class it projects: class {cls.__name__}"
                "(drumlin.Projection[Person])"
            )
        return model

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return bool(self._drumlin_object == other._drumlin_object)

    def __hash__(self) -> int:
        return hash((type(self), self._drumlin_object))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self._drumlin_object!r}>"

    @property
    def object(self) -> _M:  # last: inside the class body, ``object`` names this property
        """The projected object."""
        return self._drumlin_object
