"""transfer.py — export and import as Extended JSON lines against create_many, for the same data.

    make bench-transfer                   (BENCH_N=1M by default here)
    DRUMLIN_LIBRARY=$PWD/.build/release/libdrumlin.so python3 bench/transfer.py --n 1000000

Each phase runs in its own child process, so its peak RSS is its own:

1. create_many: N `Person` dicts (the benchmark's workload: id int primary key, name indexed,
   age, email, score, active) inserted with `db.create_many` in one transaction, into a fresh file;
2. export: `db.export_ndjson` of that file to a .ndjson file;
3. import: `db.import_ndjson` of the .ndjson file into a fresh file with the same schema.

It prints the seconds and peak RSS of each phase, the export/import time over the create_many
time (the target: each at most 2x) and, for constant memory, the export and import RSS at N/10
beside N. It checks that the imported file holds the same objects, and never fails because of a
number (this is not a test).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bindings" / "python"))

SCHEMA = [
    {
        "name": "Person",
        "primaryKey": "id",
        "properties": {
            "id": "int",
            "name": {"type": "string", "indexed": True},
            "age": "int",
            "email": "string",
            "score": "double",
            "active": "bool",
        },
    }
]


def rows(n: int) -> list[dict[str, object]]:
    return [
        {"id": i, "name": f"name{i}", "age": i % 90, "email": f"user{i}@example.com", "score": i * 0.5,
         "active": i % 2 == 0}
        for i in range(n)
    ]


def phase(name: str, n: int, directory: Path) -> dict[str, float]:
    """Runs in the child: one phase, timed; returns seconds and peak RSS in MiB."""
    import drumlin

    source, lines, target = directory / "source.drumlin", directory / "all.ndjson", directory / "target.drumlin"
    if name == "create_many":
        data = rows(n)
        db = drumlin.open(source, SCHEMA)
        started = time.perf_counter()
        with db.write():
            db.create_many("Person", data)
        seconds = time.perf_counter() - started
    elif name == "export":
        db = drumlin.open(source, read_only=True)
        started = time.perf_counter()
        count = db.export_ndjson(lines, "Person")
        seconds = time.perf_counter() - started
        assert count == n, count
    else:
        db = drumlin.open(target, SCHEMA)
        started = time.perf_counter()
        count = db.import_ndjson(lines, "Person")
        seconds = time.perf_counter() - started
        assert count == n, count
        assert db.get_dict("Person", n - 1) == rows(n)[-1] if n < 100_000 else db.count("Person") == n
    db.close()
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"seconds": seconds, "rss_mib": peak_mib}


def measure(n: int) -> dict[str, dict[str, float]]:
    results = {}
    with tempfile.TemporaryDirectory(prefix="drumlin-transfer-") as directory:
        for name in ("create_many", "export", "import"):
            child = subprocess.run(
                [sys.executable, __file__, "--phase", name, "--n", str(n), "--dir", directory],
                capture_output=True, text=True, check=True,
            )
            results[name] = json.loads(child.stdout)
        with open(Path(directory) / "all.ndjson", "rb") as f:
            results["file"] = {"mib": os.fstat(f.fileno()).st_size / 2**20}
    return results


def parse_n(text: str) -> int:
    text = text.lower()
    factor = 1_000_000 if text.endswith("m") else 1_000 if text.endswith("k") else 1
    return int(float(text.rstrip("mk")) * factor)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=parse_n, default=1_000_000)
    parser.add_argument("--phase", choices=["create_many", "export", "import"], help=argparse.SUPPRESS)
    parser.add_argument("--dir", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.phase:
        print(json.dumps(phase(args.phase, args.n, args.dir)))
        return
    small = measure(max(args.n // 10, 1000))
    full = measure(args.n)
    base = full["create_many"]["seconds"]
    print(f"Export/import as Extended JSON lines vs create_many, N = {args.n} Person objects "
          f"({full['file']['mib']:.0f} MiB of lines)\n")
    print("| phase | seconds | vs create_many | peak RSS at N | peak RSS at N/10 |")
    print("|---|---|---|---|---|")
    for name in ("create_many", "export", "import"):
        seconds = full[name]["seconds"]
        print(f"| {name} | {seconds:.2f} | {seconds / base:.2f}x | {full[name]['rss_mib']:.0f} MiB | "
              f"{small[name]['rss_mib']:.0f} MiB |")
    print("\nTarget: export and import each within 2x of create_many; their memory the same at N and N/10.")


if __name__ == "__main__":
    main()
