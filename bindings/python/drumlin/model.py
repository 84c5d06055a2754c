"""Model classes: ``class Dog(drumlin.Object)`` with annotated properties.

A model class is a Python description of one object schema. Its annotations are read once, when a
database is opened with it (so forward references to classes defined later work), and turned into
the same JSON schema a dict schema gives: the engine validates it and stays the one source of
truth. Nothing here checks what the engine checks (optional links, index types, defaults...).

- ``name: str`` is a persisted property; ``= value`` gives its default, ``= persisted(...)``
  its options (primary key, index, stored name, default factory, schema type).
- ``Optional[X]`` / ``X | None`` is an optional property; ``drumlin.List[X]``, ``drumlin.Set[X]``,
  ``drumlin.Dictionary[X]`` are collections; another model class is a link;
  ``drumlin.Results[X] = linking_objects(X, "prop")`` (or the unannotated
  ``walkers = linking_objects(...)``) is a linkingObjects property.
- Unannotated class attributes, ``ClassVar`` annotations, methods and ``@property`` are ignored:
  they stay plain Python.
- Transforms: an ``Enum`` (of str or int values) is stored as its value, a ``pathlib.PurePath``
  as a string, a dataclass as an embedded object of the same name.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
import datetime as _datetime
import decimal
import enum
import pathlib
import sys
import types
import typing
import uuid
from collections.abc import Mapping
from typing import Any, Callable, ClassVar, Optional, TypeVar, Union

from .values import ObjectId

__all__ = ["linking_objects", "persisted"]

_T = TypeVar("_T")

# The type of ``int | None`` (Python 3.10 and later).
_UNION_TYPE: Any = getattr(types, "UnionType", None)


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


# ---- Field specifiers -----------------------------------------------------------------------------


class FieldSpec:
    """What ``persisted(...)`` returns: the options of one persisted property."""

    __slots__ = ("default", "default_factory", "indexed", "map_to", "primary_key", "type")

    def __init__(
        self,
        default: Any,
        default_factory: Callable[[], Any] | None,
        primary_key: bool,
        indexed: bool | str,
        map_to: str | None,
        type: str | None,
    ) -> None:
        self.default = default
        self.default_factory = default_factory
        self.primary_key = primary_key
        self.indexed = indexed
        self.map_to = map_to
        self.type = type


def persisted(
    default: Any = MISSING,
    *,
    default_factory: Callable[[], Any] | None = None,
    primary_key: bool = False,
    indexed: bool | typing.Literal["full-text"] = False,
    map_to: str | None = None,
    type: str | None = None,
) -> Any:
    """The options of a persisted property of a model class::

        class Person(drumlin.Object):
            id: drumlin.ObjectId = drumlin.persisted(primary_key=True, default_factory=drumlin.ObjectId)
            name: str = drumlin.persisted(default="", indexed=True)
            bio: Optional[str] = drumlin.persisted(default=None, indexed="full-text")
            first_name: str = drumlin.persisted(default="", map_to="first_name_col")
            weight: float = drumlin.persisted(default=0.0, type="float")   # 32-bit float

    ``default`` goes into the schema (the engine applies it when a create leaves the property
    out); ``default_factory`` is called by the model class for every new object instead.
    ``type`` overrides the schema type read from the annotation (``"float"``, ``"decimal128"``,
    ``"mixed"``...). Give ``default`` by keyword: type checkers only see it that way.
    """
    if default is not MISSING and default_factory is not None:
        raise ValueError("persisted() takes a default or a default_factory, not both")
    return FieldSpec(default, default_factory, primary_key, indexed, map_to, type)


class LinkingObjectsSpec:
    """What ``linking_objects(...)`` returns."""

    __slots__ = ("origin", "property")

    def __init__(self, origin: Any, property: str) -> None:
        self.origin = origin
        self.property = property


def linking_objects(
    origin: type[Any] | str, property: str, *, init: typing.Literal[False] = False
) -> Any:
    """A linkingObjects property (computed, read-only): the objects of ``origin`` (a model class or
    a class name) whose link property ``property`` points at this object::

        class Dog(drumlin.Object):
            owners: drumlin.Results[Person] = drumlin.linking_objects("Person", "dogs")
    """
    del init  # for type checkers only: backlinks are not constructor arguments
    return LinkingObjectsSpec(origin, property)


# ---- Annotations ----------------------------------------------------------------------------------


class _Forward:
    """An annotation name that could not be resolved yet: taken as a class name of the schema."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


class Field:
    """One persisted property of a model class, before and after resolution."""

    __slots__ = (
        "annotation",
        "backlink",
        "codec",
        "default",
        "default_factory",
        "kind",
        "name",
        "namespace",
        "owner",
        "spec",
    )

    def __init__(self, owner: type, name: str, annotation: Any, value: Any, namespace: Any) -> None:
        self.owner = owner
        self.name = name
        self.annotation = annotation
        self.namespace = namespace
        self.backlink: LinkingObjectsSpec | None = None
        self.spec: FieldSpec | None = None
        self.default: Any = MISSING
        self.default_factory: Callable[[], Any] | None = None
        if isinstance(value, LinkingObjectsSpec):
            self.backlink = value
        elif isinstance(value, FieldSpec):
            self.spec = value
            self.default = value.default
            self.default_factory = value.default_factory
        elif value is not MISSING:
            self.default = value
        # Set by resolve(): "scalar", "collection", "link", "backlink"; the value transform.
        self.kind = ""
        self.codec: Codec | None = None

    def __repr__(self) -> str:
        return f"<drumlin field {self.owner.__name__}.{self.name}>"


class _Unmanaged:
    """The class-level descriptor of a persisted property: reads and writes the values of an
    object that is not in a database yet (managed objects read through the database's own
    descriptors, see ``_accessors.install_object_type``)."""

    __slots__ = ("field",)

    def __init__(self, field: Field) -> None:
        self.field = field

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if obj is None:
            return self
        values = obj._drumlin_values
        name = self.field.name
        if values is None:  # managed, but the database's schema has no such property
            return obj._drumlin_read(obj._drumlin_property(name))
        try:
            return values[name]
        except KeyError:
            raise AttributeError(
                f"'{type(obj).__name__}' object has no value for '{name}' yet (it has no default)"
            ) from None

    def __set__(self, obj: Any, value: Any) -> None:
        values = obj._drumlin_values
        name = self.field.name
        if values is None:  # managed, but the database's schema has no such property
            obj[name] = value  # the engine's NoSuchPropertyError
        elif self.field.kind == "backlink":
            raise AttributeError(f"'{type(obj).__name__}.{name}' is computed (linkingObjects)")
        else:
            values[name] = value

    def __repr__(self) -> str:
        return f"<drumlin property {self.field.owner.__name__}.{self.field.name}>"


_PRIMITIVES: dict[Any, str] = {
    bool: "bool",
    int: "int",
    float: "double",
    decimal.Decimal: "decimal128",
    str: "string",
    bytes: "data",
    _datetime.datetime: "date",
    ObjectId: "objectId",
    uuid.UUID: "uuid",
    Any: "mixed",
    object: "mixed",
}


class Codec:
    """A persisted-value transform: the Python type a model declares, stored as a supported type.
    ``store`` turns a model value into what the engine stores, ``load`` the other way."""

    __slots__ = ("load", "store")

    def __init__(self, store: Callable[[Any], Any], load: Callable[[Any], Any]) -> None:
        self.store = store
        self.load = load


def _optional(codec: Codec) -> Codec:
    store, load = codec.store, codec.load
    return Codec(
        lambda value: None if value is None else store(value),
        lambda value: None if value is None else load(value),
    )


def _enum_codec(kind: type[enum.Enum]) -> tuple[str, Codec]:
    values = [member.value for member in kind]
    if values and all(isinstance(v, str) for v in values):
        stored = "string"
    elif values and all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        stored = "int"
    else:
        raise TypeError(
            f"enum {kind.__name__} cannot be persisted: its values must all be str or all be int"
        )

    def store(value: Any) -> Any:
        # A member of the enum, or one of its values: anything else is refused by the enum itself.
        return kind(value).value

    return stored, Codec(store, kind)


def _path_codec(kind: type[Any]) -> Codec:
    def store(value: Any) -> Any:
        if isinstance(value, pathlib.PurePath):
            return str(value)
        return value  # the engine reports the mismatch for anything but a path or a str

    return Codec(store, kind)


def _dataclass_codec(kind: type[Any]) -> Codec:
    def store(value: Any) -> Any:
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            model = _dataclass_model(type(value))
            return {
                f.name: _store_field(model, f.name, getattr(value, f.name))
                for f in dataclasses.fields(value)
            }
        return value

    def load(value: Any) -> Any:
        data = value.to_dict() if not isinstance(value, Mapping) else value
        return _load_dataclass(kind, data)

    return Codec(store, load)


def _store_field(model: ModelInfo, name: str, value: Any) -> Any:
    field = model.fields.get(name)
    if field is None or field.codec is None:
        return value
    return field.codec.store(value)


def _load_dataclass(kind: type[Any], data: Mapping[str, Any]) -> Any:
    model = _dataclass_model(kind)
    values = {}
    for f in dataclasses.fields(kind):
        if f.name in data:
            value = data[f.name]
            field = model.fields.get(f.name)
            if field is not None and field.codec is not None:
                value = field.codec.load(value)
            values[f.name] = value
    return kind(**values)


# Dataclasses stored as embedded objects: their models, by class.
_dataclass_models: dict[type, ModelInfo] = {}


def _dataclass_model(kind: type[Any]) -> ModelInfo:
    model = _dataclass_models.get(kind)
    if model is None:
        namespace = _namespace_of(kind, None)
        fields = {}
        for f in dataclasses.fields(kind):
            default = MISSING if f.default is dataclasses.MISSING else f.default
            fields[f.name] = Field(kind, f.name, f.type, default, namespace)
        model = ModelInfo(kind, fields, kind="embedded", map_to=None)
        _dataclass_models[kind] = model
    return model


class _Namespace:
    """Where the names in a class's annotations are looked up, read when the annotations are
    resolved (so classes defined after this one are found): the locals of the function the
    class was declared in (if any), its module, the builtins."""

    __slots__ = ("frame_locals", "module")

    def __init__(self, cls: type, frame_locals: dict[str, Any] | None) -> None:
        self.module = cls.__module__
        self.frame_locals = frame_locals

    def __contains__(self, name: str) -> bool:
        return self.lookup(name) is not MISSING

    def __getitem__(self, name: str) -> Any:
        return self.lookup(name)

    def lookup(self, name: str) -> Any:
        if self.frame_locals and name in self.frame_locals:
            return self.frame_locals[name]
        module = sys.modules.get(self.module)
        if module is not None and name in vars(module):
            return vars(module)[name]
        return vars(builtins).get(name, MISSING)


def _namespace_of(cls: type, frame_locals: dict[str, Any] | None) -> Any:
    return _Namespace(cls, frame_locals)


class _Type:
    """A resolved annotation: ``base`` is a Python type, a model class or a class name;
    ``optional`` whether None is allowed; ``container`` a drumlin collection or Results."""

    __slots__ = ("base", "container", "optional")

    def __init__(self, base: Any, optional: bool = False, container: Any = None) -> None:
        self.base = base
        self.optional = optional
        self.container = container


class _Resolver:
    """Turns an annotation (a string from ``from __future__ import annotations``, or an object)
    into a :class:`_Type`. Works on Python 3.9 too, where ``int | None`` cannot be evaluated."""

    def __init__(self, namespace: Any, models: dict[str, type]) -> None:
        self.namespace = namespace
        self.models = models

    def resolve(self, annotation: Any) -> Any:
        """The annotation as a value: a type, a typing construct, a _Forward, or a tuple
        ("union", members) / ("generic", origin, args)."""
        if isinstance(annotation, str):
            try:
                tree = ast.parse(annotation.strip(), mode="eval").body
            except SyntaxError:
                raise TypeError(f"cannot read the annotation {annotation!r}") from None
            return self._node(tree)
        if isinstance(annotation, typing.ForwardRef):
            return self.resolve(annotation.__forward_arg__)
        if annotation is None or annotation is type(None):
            return type(None)
        origin = typing.get_origin(annotation)
        if origin is not None:
            args = typing.get_args(annotation)
            if origin is Union or _is_union_type(origin):
                return ("union", [self.resolve(a) for a in args])
            if origin is ClassVar:
                return ("classvar",)
            return ("generic", origin, [self.resolve(a) for a in args])
        return annotation

    def _node(self, node: ast.expr) -> Any:
        if isinstance(node, ast.Constant):
            if node.value is None:
                return type(None)
            if isinstance(node.value, str):
                return self.resolve(node.value)
            raise TypeError(f"cannot read the annotation {ast.unparse(node)!r}")
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return ("union", [self._node(node.left), self._node(node.right)])
        if isinstance(node, (ast.Name, ast.Attribute)):
            return self._name(node)
        if isinstance(node, ast.Subscript):
            origin = self._node(node.value)
            index = node.slice
            if sys.version_info < (3, 9) or isinstance(index, ast.Index):  # pragma: no cover
                index = index.value  # type: ignore[attr-defined]
            items = index.elts if isinstance(index, ast.Tuple) else [index]
            if origin is ClassVar:
                return ("classvar",)
            if origin is Union:
                return ("union", [self._node(i) for i in items])
            if origin is Optional:
                return ("union", [self._node(items[0]), type(None)])
            if origin is getattr(typing, "Annotated", None):
                return self._node(items[0])
            return ("generic", origin, [self._node(i) for i in items])
        raise TypeError(f"cannot read the annotation {ast.unparse(node)!r}")

    def _name(self, node: ast.expr) -> Any:
        dotted = ast.unparse(node)
        if dotted in self.models:
            return self.models[dotted]
        head, *rest = dotted.split(".")
        if head not in self.namespace:
            return _Forward(dotted)
        value = self.namespace[head]
        for part in rest:
            try:
                value = getattr(value, part)
            except AttributeError:
                return _Forward(dotted)
        return value


def _is_union_type(origin: Any) -> bool:
    return _UNION_TYPE is not None and origin is _UNION_TYPE


class ModelInfo:
    """What a model class declares, and (once resolved) its object schema."""

    def __init__(self, cls: type, fields: dict[str, Field], *, kind: str, map_to: str | None) -> None:
        self.cls = cls
        self.name: str = cls.__name__
        self.fields = fields
        self.kind = kind  # "object", "embedded", "asymmetric"
        self.map_to = map_to
        self.resolved = False
        self.schema: dict[str, Any] = {}
        self.codecs: dict[str, Codec] = {}
        self.factories: dict[str, Callable[[], Any]] = {}
        self.defaults: dict[str, Any] = {}
        self.collections: dict[str, Callable[[], Any]] = {}
        self.related: list[Any] = []  # model classes and dataclasses linked from here

    def resolve(self, models: dict[str, type]) -> None:
        """Read the annotations (``models``: model classes by name, for forward references) and
        build the object schema. Done once; what cannot be read is a TypeError naming the field."""
        if self.resolved:
            return
        properties: dict[str, Any] = {}
        primary_key = None
        related: list[Any] = []
        for field in self.fields.values():
            try:
                spec = self._property(field, models, related)
            except TypeError as error:
                raise TypeError(f"{self.name}.{field.name}: {error}") from None
            properties[field.name] = spec
            if field.spec is not None and field.spec.primary_key:
                primary_key = field.name
        schema: dict[str, Any] = {"name": self.name, "properties": properties}
        if primary_key is not None:
            schema["primaryKey"] = primary_key
        if self.kind == "embedded":
            schema["embedded"] = True
        elif self.kind == "asymmetric":
            schema["asymmetric"] = True
        if self.map_to is not None:
            schema["mapTo"] = self.map_to
        self.schema = schema
        self.related = related
        self.resolved = True

    def _property(self, field: Field, models: dict[str, type], related: list[Any]) -> dict[str, Any]:
        resolver = _Resolver(field.namespace, models)
        value = resolver.resolve(field.annotation)
        spec = field.spec
        prop: dict[str, Any]
        if field.backlink is not None:
            origin = field.backlink.origin
            origin_name = origin if isinstance(origin, str) else getattr(origin, "__name__", None)
            if not isinstance(origin_name, str):
                raise TypeError("linking_objects() takes a model class or a class name")
            if not isinstance(origin, str):
                related.append(origin)
            field.kind = "backlink"
            return {"type": "linkingObjects", "objectType": origin_name, "property": field.backlink.property}
        optional, value = _strip_optional(value)
        if isinstance(value, tuple) and value[0] == "generic" and _collection_kind(value[1]):
            kind = _collection_kind(value[1]) or "list"
            args = value[2]
            if not args:
                raise TypeError(f"give the element type: drumlin.{value[1].__name__}[int]")
            element = args[-1]
            element_optional, element = _strip_optional(element)
            type_name, codec = self._element(element, related)
            if codec is not None:
                raise TypeError("collections of transformed values (enums, paths, dataclasses) are not supported")
            prop = {"type": kind, "objectType": spec.type if spec is not None and spec.type else type_name}
            if element_optional:
                prop["optional"] = True
            field.kind = "collection"
            self.collections[field.name] = _EMPTY[kind]
        else:
            if isinstance(value, tuple):
                raise TypeError(_unsupported(value))
            type_name, codec = self._element(value, related)
            if spec is not None and spec.type:
                type_name = spec.type
            if type_name in _PRIMITIVE_NAMES:
                prop = {"type": type_name}
                field.kind = "scalar"
            else:
                # Explicit: a link that is not Optional is refused by the engine, with its words.
                prop = {"type": "object", "objectType": type_name, "optional": optional}
                field.kind = "link"
            if optional:
                prop["optional"] = True
            if codec is not None:
                if optional:
                    codec = _optional(codec)
                field.codec = codec
                self.codecs[field.name] = codec
        if spec is not None:
            if spec.indexed:
                prop["indexed"] = spec.indexed
            if spec.map_to is not None:
                prop["mapTo"] = spec.map_to
        if field.default_factory is not None:
            self.factories[field.name] = field.default_factory
        elif field.default is not MISSING:
            self.defaults[field.name] = field.default
            stored = field.codec.store(field.default) if field.codec else field.default
            if field.kind == "scalar" and stored is not None and not isinstance(stored, (dict, list)):
                prop["default"] = stored
        return prop

    def _element(self, value: Any, related: list[Any]) -> tuple[str, Codec | None]:
        """The schema type name of a (non-optional) annotation, and its transform if any."""
        if isinstance(value, _Forward):
            return value.name, None
        if isinstance(value, tuple):
            raise TypeError(_unsupported(value))
        name = _PRIMITIVES.get(value)
        if name is not None:
            return name, None
        if isinstance(value, type):
            if isinstance(getattr(value, "_drumlin_model", None), ModelInfo):  # a model class
                related.append(value)
                return value.__name__, None
            if issubclass(value, enum.Enum):
                return _enum_codec(value)
            if issubclass(value, pathlib.PurePath):
                return "string", _path_codec(value)
            if dataclasses.is_dataclass(value):
                related.append(value)
                return value.__name__, _dataclass_codec(value)
            for base, type_name in _PRIMITIVES.items():  # subclasses (IntEnum is handled above)
                if isinstance(base, type) and base is not object and issubclass(value, base):
                    return type_name, None
        raise TypeError(f"{_describe(value)} is not a type Drumlin can store")

    # ---- values -------------------------------------------------------------------------------

    def new_values(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """The values of a new unmanaged object: the given ones, then defaults, factories, empty
        collections and None for optional properties left out."""
        values: dict[str, Any] = {}
        for name, field in self.fields.items():
            if field.kind == "backlink":
                continue
            if name in given:
                values[name] = given[name]
            elif name in self.factories:
                values[name] = self.factories[name]()
            elif name in self.defaults:
                values[name] = _copy_default(self.defaults[name])
            elif name in self.collections:
                values[name] = self.collections[name]()
            elif self.schema["properties"][name].get("optional") or field.kind == "link":
                values[name] = None
        return values

    def store_values(self, values: Mapping[str, Any], *, fill: bool) -> dict[str, Any]:
        """A create payload: values through their transforms; ``fill``: default factories run for
        properties left out (as a new object would get)."""
        payload: dict[str, Any] = {}
        codecs = self.codecs
        for name, value in values.items():
            codec = codecs.get(name) if type(name) is str else None
            payload[name] = codec.store(value) if codec is not None else value
        if fill:
            for name, factory in self.factories.items():
                if name not in payload:
                    value = factory()
                    codec = codecs.get(name)
                    payload[name] = codec.store(value) if codec is not None else value
        return payload


_EMPTY: dict[str, Callable[[], Any]] = {"list": list, "set": set, "dictionary": dict}

_PRIMITIVE_NAMES = frozenset(
    {"bool", "int", "float", "double", "decimal128", "string", "data", "date", "objectId", "uuid", "mixed"}
)


def _copy_default(value: Any) -> Any:
    return value.copy() if isinstance(value, (list, dict, set)) else value


def _strip_optional(value: Any) -> tuple[bool, Any]:
    if isinstance(value, tuple) and value[0] == "union":
        members = [m for m in value[1] if m is not type(None)]
        optional = len(members) < len(value[1])
        if len(members) == 1:
            inner_optional, inner = _strip_optional(members[0])
            return optional or inner_optional, inner
        raise TypeError(
            "a union of several types cannot be stored (use typing.Any for a mixed property)"
        )
    return False, value


def _collection_kind(origin: Any) -> str | None:
    # drumlin.List, Set, Dictionary and Results (modules above this one) name themselves with a
    # class attribute of their own; their subclasses do not inherit the name.
    kind = vars(origin).get("_drumlin_annotation_kind") if isinstance(origin, type) else None
    if kind in ("list", "set", "dictionary"):
        return str(kind)
    if kind == "results":
        raise TypeError("a drumlin.Results property needs a value: = drumlin.linking_objects(Class, 'property')")
    if origin in (list, set, dict, typing.List, typing.Set, typing.Dict):
        name = {"set": "Set", "dict": "Dictionary"}.get(getattr(origin, "__name__", ""), "List")
        raise TypeError(
            f"use drumlin.{name}[...] for a persisted collection: it reads back as a live "
            f"drumlin.{name}, not a {getattr(origin, '__name__', origin)}"
        )
    return None


def _describe(value: Any) -> str:
    return getattr(value, "__qualname__", None) or repr(value)


def _unsupported(value: Any) -> str:
    if value[0] == "generic":
        return f"{_describe(value[1])}[...] is not a type Drumlin can store"
    return "this annotation is not a type Drumlin can store"


# ---- Model class creation -------------------------------------------------------------------------


def model_fields(cls: type, frame_locals: dict[str, Any] | None) -> dict[str, Field]:
    """The persisted properties a model class declares (its own and its model bases'), with the
    class attributes holding their defaults replaced by descriptors."""
    fields: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        model = base.__dict__.get("_drumlin_model")
        if model is not None:
            fields.update(model.fields)
    namespace = _namespace_of(cls, frame_locals)
    annotations = cls.__dict__.get("__annotations__", {})
    for name, annotation in annotations.items():
        if _is_classvar(annotation):
            continue
        value = cls.__dict__.get(name, MISSING)
        if callable(value) and not isinstance(value, (FieldSpec, LinkingObjectsSpec, type)):
            continue  # an annotated method or property: ignored
        fields[name] = Field(cls, name, annotation, value, namespace)
    for name, value in list(cls.__dict__.items()):
        if isinstance(value, LinkingObjectsSpec) and name not in annotations:
            fields[name] = Field(cls, name, "None", value, namespace)
    for name, field in fields.items():
        if field.owner is cls:
            setattr(cls, name, _Unmanaged(field))
    return fields


def _is_classvar(annotation: Any) -> bool:
    if isinstance(annotation, str):
        text = annotation.strip()
        return text.startswith(("ClassVar", "typing.ClassVar", "t.ClassVar"))
    return annotation is ClassVar or typing.get_origin(annotation) is ClassVar


def collect_schema(entries: list[Any]) -> tuple[list[Any], list[type]]:
    """A schema list holding model classes and dicts, as dicts: model classes (and the model
    classes and dataclasses they link to) become their object schemas. Model classes are found
    by name for forward references (``Optional["Person"]``)."""
    models: dict[str, type] = {}
    for entry in entries:
        if isinstance(entry, type) and getattr(entry, "_drumlin_model", None) is not None:
            models.setdefault(entry.__name__, entry)
    declared: set[Any] = {entry.get("name") for entry in entries if isinstance(entry, Mapping)} | set(models)
    result: list[Any] = []
    seen: set[Any] = set()
    queue = list(entries)
    while queue:
        entry = queue.pop(0)
        if isinstance(entry, type):
            model = getattr(entry, "_drumlin_model", None)
            if model is None and dataclasses.is_dataclass(entry):
                model = _dataclass_model(entry)
            if model is None:
                raise TypeError(
                    f"schema entries are dicts and model classes (drumlin.Object subclasses), not "
                    f"the class {entry.__name__}"
                )
            if entry in seen:
                continue
            seen.add(entry)
            model.resolve(models)
            result.append(model.schema)
            for other in model.related:
                # A class the list already declares (as a dict, or as another model class of
                # that name) is not added again.
                name: str = other.__name__
                if name in declared and models.get(name) is not other:
                    continue
                if other not in seen and isinstance(other, type):
                    models.setdefault(other.__name__, other)
                    queue.append(other)
        else:
            result.append(entry)
    classes = [c for c in seen if getattr(c, "_drumlin_model", None) is not None]
    return result, classes


def model_of(cls: Any) -> ModelInfo | None:
    return getattr(cls, "_drumlin_model", None) if isinstance(cls, type) else None


def ensure_resolved(model: ModelInfo) -> None:
    if not model.resolved:
        collect_schema([model.cls])
