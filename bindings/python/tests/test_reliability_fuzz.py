"""Fuzzing the schema, payload and query paths through the C layer (issue #19, item 8).

A child process feeds random inputs (mutated schemas, payloads and queries, and random bytes) to
the C functions for a fixed time budget; every call must succeed or fail with a drumlin error other
than INTERNAL, and the child must not crash. Seeds are fixed, so a failure reproduces: the child
prints the input that failed. ``make test`` gives each harness a few seconds
(``DRUMLIN_FUZZ_SECONDS``); ``make stress`` a minute."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import drumlin

pytestmark = pytest.mark.stress

SECONDS = float(os.environ.get("DRUMLIN_FUZZ_SECONDS", "4"))

FUZZER = r"""
import json, random, sys, time
from ctypes import byref, c_int64, c_void_p, cast
sys.path.insert(0, sys.argv[1])
import drumlin
from drumlin import _ffi
harness, seed, seconds = sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
rng = random.Random(seed)

BASE = [
    {"name": "P", "primaryKey": "id", "properties": {"id": "int", "s": "string?", "d": "double", "b": "bool",
     "m": "mixed", "l": "int[]", "set": "string<>", "map": "double{}", "o": "P?", "os": "P[]", "e": "E?",
     "dt": "date?", "data": "data?", "dec": "decimal128?", "oid": "objectId?", "u": "uuid?"}},
    {"name": "E", "embedded": True, "properties": {"x": "int", "y": "string?"}},
]
NAMES = ["P", "E", "id", "s", "d", "b", "m", "l", "set", "map", "o", "os", "e", "dt", "data", "dec", "oid", "u", "@count",
         "@size", "@sum", "@avg", "@min", "@max", "@type", "@keys", "@values", "@links", "x", "y", "zzz", ""]
TYPES = ["int", "int?", "string", "bool", "double", "float", "date", "data", "decimal128", "objectId", "uuid",
         "mixed", "P", "P?", "E", "E?", "int[]", "P[]", "string<>", "mixed{}", "E[]", "nope", "list", ""]
OPS = ["==", "!=", "<", "<=", ">", ">=", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "IN", "BETWEEN", "=[c]",
       "TEXT", "GEOWITHIN", "AND", "OR", "NOT", "&&", "||", "!", "ANY", "ALL", "NONE", "SUBQUERY(", "$x", "SORT(",
       "DISTINCT(", "LIMIT(", "ASC", "DESC", ")", "(", "{", "}", ",", ".", "TRUEPREDICATE", "FALSEPREDICATE"]
LITERALS = ["0", "-1", "1.5", "1e308", "9223372036854775807", "-9223372036854775809", "'a'", '"b"', "'", "nil",
            "NULL", "true", "false", "$0", "$1", "$99", "$-1", "oid(0123456789abcdef01234567)", "uuid(x)",
            "T2020-01-01@00:00:00", "B64\"AA==\"", "0x1f", "obj('P', 1)", "{1, 2}", "{}", "'\\u0000'", "\\"]


def value(depth=0):
    r = rng.random()
    if depth > 3 or r < 0.5:
        return rng.choice([None, True, False, 0, -1, 2**63 - 1, -(2**63), 2**64, 1.5, float("inf"), float("nan"), "",
                           "x" * rng.randint(0, 50), "\ud800", {"$oid": "0" * 24}, {"$date": "x"}, {"$numberDecimal": "1e9999"},
                           {"$binary": {"base64": "!!", "subType": "00"}}, {"$uuid": "nope"}, {"$ref": 1}])
    if r < 0.75:
        return [value(depth + 1) for _ in range(rng.randint(0, 4))]
    return {rng.choice(NAMES + ["$x", "a.b"]): value(depth + 1) for _ in range(rng.randint(0, 4))}


def mutate_text(text):
    chars = list(text)
    for _ in range(rng.randint(1, 4)):
        i = rng.randint(0, len(chars))
        action = rng.random()
        if action < 0.4 and chars:
            del chars[min(i, len(chars) - 1)]
        elif action < 0.8:
            chars.insert(i, rng.choice('{}[]":,\\0 x1-.$@\u00e9\U0001F600'))
        else:
            chars[i:i] = list(rng.choice(LITERALS))
    return "".join(chars)


def schema_input():
    schema = json.loads(json.dumps(BASE))
    for _ in range(rng.randint(0, 3)):
        cls = rng.choice(schema)
        props = cls["properties"]
        choice = rng.random()
        if choice < 0.3:
            props[rng.choice(NAMES + ["n" + str(rng.randint(0, 9))])] = rng.choice(TYPES)
        elif choice < 0.5:
            props[rng.choice(list(props) or ["a"])] = {"type": rng.choice(TYPES), "optional": rng.random() < 0.5,
                                                      "indexed": rng.choice([True, False, "fullText", 3]),
                                                      "objectType": rng.choice(NAMES)}
        elif choice < 0.6:
            cls[rng.choice(["primaryKey", "embedded", "asymmetric", "mapTo", "name"])] = value()
        elif choice < 0.7:
            schema.append({"name": rng.choice(NAMES), "properties": {}})
        else:
            props.pop(rng.choice(list(props) or ["a"]), None)
    text = json.dumps(schema)
    return mutate_text(text) if rng.random() < 0.3 else text


def query_input():
    parts = []
    for _ in range(rng.randint(1, 8)):
        parts.append(rng.choice([rng.choice(NAMES), rng.choice(OPS), rng.choice(LITERALS),
                                 ".".join(rng.choice(NAMES) for _ in range(rng.randint(1, 3)))]))
    text = " ".join(parts)
    if rng.random() < 0.2:
        text = mutate_text(text)
    args = json.dumps([value() for _ in range(rng.randint(0, 3))])
    return text, (mutate_text(args) if rng.random() < 0.1 else args)


def payload_input():
    obj = {rng.choice(NAMES): value() for _ in range(rng.randint(0, 6))}
    if rng.random() < 0.7:
        obj["id"] = rng.randint(-5, 5)
    text = json.dumps(obj)
    return mutate_text(text) if rng.random() < 0.2 else text


def call(fn, *args):
    try:
        fn(*args)
    except drumlin.DrumlinError as error:
        if error.code == _ffi.DRUMLIN_ERR_INTERNAL:
            print("INTERNAL", repr(args[1:]), error, flush=True)
            sys.exit(3)
    except (ValueError, TypeError):  # ctypes refusing a str with a NUL, say: never reached the C layer
        pass


def enc(text):
    return text.encode("utf-8", "surrogatepass")


db = drumlin.open(":memory:", BASE)
handle = db._ptr()
with db.write():
    for i in range(20):
        db.create("P", {"id": i, "s": str(i), "d": i / 2, "b": i % 2 == 0, "l": [i], "os": [], "e": {"x": i}})
runs = 0
end = time.monotonic() + seconds
while time.monotonic() < end:
    runs += 1
    if harness == "schema":
        out = _ffi.drumlin_db_p()
        try:
            _ffi.drumlin_open(b":memory:", enc(schema_input()), None, byref(out))
            _ffi.drumlin_close(out)
        except drumlin.DrumlinError as error:
            if error.code == _ffi.DRUMLIN_ERR_INTERNAL:
                print("INTERNAL schema", error, flush=True)
                sys.exit(3)
    elif harness == "payload":
        _ffi.drumlin_begin_write(handle)
        out = c_void_p()
        call(_ffi.drumlin_create_json, handle, rng.choice([b"P", b"E", b"Q"]), enc(payload_input()),
             rng.choice([0, 1, 2, 7]), byref(out))
        if out.value:
            _ffi.drumlin_object_release(cast(out, _ffi.drumlin_object_p))
        if rng.random() < 0.5:
            _ffi.drumlin_commit(handle)
        else:
            _ffi.drumlin_rollback(handle)
    else:
        text, args = query_input()
        count = c_int64()
        call(_ffi.drumlin_count, handle, rng.choice([b"P", b"E"]), enc(text), enc(args), byref(count))
        out = c_void_p()
        try:
            _ffi.drumlin_query_json(handle, b"P", enc(text), enc(args), byref(out))
            _ffi.drumlin_free(out)
        except drumlin.DrumlinError as error:
            if error.code == _ffi.DRUMLIN_ERR_INTERNAL:
                print("INTERNAL query", repr(text), args, error, flush=True)
                sys.exit(3)
        except (ValueError, TypeError):
            pass
print("runs", runs)
"""


@pytest.mark.parametrize("harness", ["schema", "payload", "query"])
def test_random_inputs_never_crash_or_give_internal(tmp_path: Path, harness: str) -> None:
    package = str(Path(drumlin.__file__).resolve().parents[1])
    seed = int(os.environ.get("DRUMLIN_FUZZ_SEED", "19"))
    result = subprocess.run(
        [sys.executable, "-c", FUZZER, package, harness, str(seed), str(SECONDS)],
        capture_output=True,
        text=True,
        timeout=SECONDS + 120,
    )
    assert result.returncode == 0, f"{result.stdout[-2000:]}\n{result.stderr[-2000:]}"
    runs = int(result.stdout.split()[-1])
    print(f"\n{harness}: {runs} inputs")
    assert runs > 0
    assert json.dumps(runs)
