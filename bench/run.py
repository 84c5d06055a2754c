#!/usr/bin/env python3
"""run.py — runs Drumlin's benchmark harnesses and reports (what `make bench` calls).

    python3 bench/run.py --c-harness build/bench/drumlin-bench [--n 100k] [--runs 3] [--scale]

Runs the C harness (raw SQLite C, Drumlin C JSON and typed paths), then the Python harness (sqlite3,
Drumlin Python, ObjectBox when it can be installed in bench/.venv), takes the median of each step over
the runs, prints the tables with the Drumlin/peer ratios, the targets of the performance issue and
whether each is met, peak RSS, and writes bench/results/latest.md (with --scale:
bench/results/scale.md). It never fails because of a number: only a harness that crashed or read
wrong data makes it exit non-zero.

Environment: BENCH_N (10k, 100k, 1M or a number), BENCH_RUNS, BENCH_OBJECTBOX=0 to skip ObjectBox,
BENCH_STEP_TIMEOUT (seconds per step; default 60 per 100k objects), DRUMLIN_LIBRARY (the library the
Python harness loads).
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
VENV = os.path.join(HERE, ".venv")
RESULTS = os.path.join(HERE, "results")
STEPS = ["insert", "get", "lookup", "range", "update", "delete"]
STEP_LABEL = {
    "insert": "insert (one transaction)",
    "get": "get by primary key, every field",
    "lookup": "1000 indexed lookups (name ==)",
    "range": "range: age BETWEEN 30 AND 40 (rows/s)",
    "update": "update every score (one transaction)",
    "delete": "delete all (one transaction)",
}
C_SYSTEMS = [("raw", "raw SQLite C"), ("json", "Drumlin C (JSON)"), ("typed", "Drumlin C (typed)")]
PY_SYSTEMS = [("sqlite3", "sqlite3"), ("drumlin", "Drumlin Python"), ("objectbox", "ObjectBox"),
              ("sqlalchemy", "SQLAlchemy 2 ORM"), ("peewee", "peewee"),
              ("drumlin-objects", "Drumlin Python (object API)")]
PY_PEERS = [s for s in PY_SYSTEMS if s[0] not in ("sqlite3", "drumlin", "drumlin-objects")]  # ratios, no target
ORMS = ("sqlalchemy", "peewee")  # set against Drumlin's object API (drumlin-objects), as they read objects
# GRDB.swift, the Swift peer (bench/swift/Sources/grdb-bench-swift): Codable records and raw Rows.
GRDB_SYSTEMS = [("grdb-record", "GRDB records"), ("grdb-row", "GRDB Row API")]
# The performance issue's targets: Drumlin ops/s >= factor x the peer's, from the same run's medians.
C_TARGETS = {"insert": 0.8, "get": 0.8, "update": 0.7, "delete": 0.7}
PY_TARGETS = {"insert": 1.2, "get": 1.0, "lookup": 1.0}
# The Swift model API against raw SQLite C (issue #13): bulk add and get + read every property.
SWIFT_TARGETS = {"insert": 0.8, "get": 0.8}
# The realistic Task workload (issue #20 item 4) runs at half of N (the issue measured 50k tasks).
TASK_STEPS = [("insert", "insert (one write; owner an existing object)"), ("get", "get by primary key, every property"),
              ("iterate", "iterate done == false, read 3 properties"), ("update", "set done on every task (one write)")]
SCALE_STEPS = ["insert", "get", "lookup", "range", "update"]
# The Python systems run up to this N (10M dicts would take ~4 GB and minutes); BENCH_SCALE_PYTHON_MAX.
SCALE_PYTHON_MAX_DEFAULT = "1M"
SCALE_LIMIT = 1.5     # per-op time at 1M within 1.5x of that at 10k
MEMORY_LIMIT = 2.0    # a bulk insert peaks below 2x the size of its input data


def parse_n(text: str) -> int:
    t = text.strip().lower().replace("_", "")
    mult = 1
    if t.endswith("k"):
        mult, t = 1000, t[:-1]
    elif t.endswith("m"):
        mult, t = 1_000_000, t[:-1]
    return int(float(t) * mult)


def n_label(n: int) -> str:
    if n % 1_000_000 == 0:
        return f"{n // 1_000_000}M"
    if n % 1000 == 0:
        return f"{n // 1000}k"
    return str(n)


def fmt_rate(x: float | None) -> str:
    if x is None:
        return "—"
    if x >= 1e6:
        return f"{x / 1e6:.2f}M/s"
    if x >= 1e3:
        return f"{x / 1e3:.1f}k/s"
    return f"{x:.0f}/s"


def fmt_ratio(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.2f}×"


def fmt_mb(kb_or_bytes: float, is_bytes: bool = False) -> str:
    mb = kb_or_bytes / (1024 * 1024) if is_bytes else kb_or_bytes / 1024
    return f"{mb:.1f} MB"


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# ---- running the harnesses ----------------------------------------------------------------------

def run_lines(cmd: list[str], env: dict | None = None) -> tuple[list[dict], int]:
    """Runs a harness; its stderr (progress) passes through, its stdout is JSON lines."""
    log("$ " + " ".join(cmd))
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, text=True, env=env)
    lines = []
    for line in proc.stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            try:
                lines.append(json.loads(line))
            except json.JSONDecodeError:
                log(f"  (unparsed line: {line[:120]})")
    return lines, proc.returncode


# What bench/.venv holds beside the Python harness's own needs: the peers and the chart's library.
VENV_PACKAGES = {"objectbox": "objectbox", "sqlalchemy": "sqlalchemy", "peewee": "peewee", "matplotlib": "matplotlib"}


def ensure_venv(base_python: str) -> tuple[str, dict[str, str]]:
    """Creates bench/.venv (once) and `pip install`s the packages of VENV_PACKAGES it lacks.
    Returns (the Python for the Python harnesses, {module: why it is not importable}); a package
    that cannot be had is skipped with its reason, and everything else runs as usual."""
    skipped: dict[str, str] = {}
    if os.environ.get("BENCH_OBJECTBOX", "1") in ("0", "no", "false"):
        skipped["objectbox"] = "BENCH_OBJECTBOX=0"
    vpython = os.path.join(VENV, "bin", "python")
    wanted = [m for m in VENV_PACKAGES if m not in skipped]
    try:
        if not os.path.exists(vpython):
            log(f"creating {os.path.relpath(VENV, ROOT)} for the peers and the chart")
            proc = subprocess.run([base_python, "-m", "venv", VENV], capture_output=True, text=True, timeout=300)
            if proc.returncode != 0:
                why = "python -m venv failed: " + (proc.stderr.strip().splitlines() or ["?"])[-1]
                return base_python, {**skipped, **{m: why for m in wanted}}

        def missing() -> dict[str, str]:
            out = {}
            for m in wanted:
                proc = subprocess.run([vpython, "-c", f"import {m}"], capture_output=True, text=True, timeout=120)
                if proc.returncode != 0:
                    tail = [l for l in proc.stderr.strip().splitlines() if l.strip()] or ["?"]
                    out[m] = f"import {m} failed: " + tail[-1]
            return out

        absent = missing()
        if absent:
            packages = [VENV_PACKAGES[m] for m in absent]
            log(f"pip install {' '.join(packages)} (into bench/.venv)")
            proc = subprocess.run([vpython, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                                   "--timeout", "30", *packages], capture_output=True, text=True, timeout=900)
            if proc.returncode != 0:
                tail = [l for l in proc.stderr.strip().splitlines() if l.strip()] or ["?"]
                log(f"pip install failed: {tail[-1]}")
            absent = missing()
        skipped.update(absent)
    except (OSError, subprocess.TimeoutExpired) as error:
        return (vpython if os.path.exists(vpython) else base_python), {**skipped, **{m: str(error) for m in wanted}}
    return vpython, skipped


class Results:
    """Measurements of one N: medians per (harness, system, step)."""

    def __init__(self, n: int, lines: list[dict]) -> None:
        self.n = n
        self.samples: dict[tuple, list[float]] = {}
        self.rows: dict[tuple, list[float]] = {}
        self.skipped: dict[tuple, str] = {}
        self.how: dict[tuple, str] = {}
        self.mem: dict[tuple, list[dict]] = {}
        self.info: dict[str, dict] = {}
        self.failed: list[str] = []
        self.system_skipped: dict[str, str] = {}
        self.timeouts: dict[tuple, str] = {}
        self.files: dict[tuple, list[int]] = {}
        for d in lines:
            h, s, kind = d.get("harness"), d.get("system"), d.get("kind")
            if kind == "info":
                self.info[h] = d
            elif kind == "mem":
                self.mem.setdefault((h, s), []).append(d)
            elif kind == "file":
                self.files.setdefault((h, s), []).append(d["bytes"] + d.get("wal_bytes", 0))
            elif kind == "failed":
                self.failed.append(f"{h}/{s} run {d.get('run', 0) + 1}: {d.get('reason', 'crashed')}")
            elif kind == "timeout":
                self.timeouts[(h, d.get("system"), d.get("step"))] = (
                    f"timed out (> {d.get('seconds')} s) in run {d.get('run', 0) + 1}")
            elif kind == "skipped":
                self.system_skipped[s] = d.get("reason", "")
            elif "skipped" in d:
                self.skipped[(h, s, d["step"])] = d["skipped"]
            elif "step" in d:
                key = (h, s, d["step"])
                secs = max(d["seconds"], 1e-9)
                self.samples.setdefault(key, []).append(d["ops"] / secs)
                self.rows.setdefault(key, []).append(d["rows"] / secs)
                self.how[key] = d.get("how", "")

    def rate(self, h: str, s: str, step: str) -> float | None:
        """Median ops/s (rows/s for the range query)."""
        key = (h, s, step)
        values = (self.rows if step == "range" else self.samples).get(key)
        return statistics.median(values) if values else None

    def runs(self, h: str, s: str, step: str) -> int:
        return len(self.samples.get((h, s, step), []))

    def why_missing(self, h: str, s: str, step: str) -> str:
        if (h, s, step) in self.timeouts:
            return self.timeouts[(h, s, step)]
        if (h, s, step) in self.skipped:
            return self.skipped[(h, s, step)]
        if s in self.system_skipped:
            return f"skipped ({self.system_skipped[s]})"
        stopped = [st for (hh, ss, st) in self.timeouts if (hh, ss) == (h, s)]
        if stopped:
            return f"not reached (the run stopped at the {stopped[0]} timeout)"
        if any(f.startswith(f"{h}/{s} ") for f in self.failed):
            return "not reached (the run failed)"
        return "no measurement"

    def mem_median(self, h: str, s: str, field: str) -> float | None:
        values = [m[field] for m in self.mem.get((h, s), []) if field in m]
        return statistics.median(values) if values else None


def ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a is not None and b else None


# ---- tables ---------------------------------------------------------------------------------------

def table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    out = ["| " + " | ".join(str(h).ljust(w) for h, w in zip(header, widths)) + " |",
           "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    for r in rows:
        out.append("| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths)) + " |")
    return "\n".join(out)


def c_table(r: Results) -> tuple[str, list[tuple[str, bool | None]]]:
    verdicts = []
    rows = []
    for step in STEPS:
        raw, js, ty = (r.rate("c", s, step) for s, _ in C_SYSTEMS)
        rj, rt = ratio(js, raw), ratio(ty, raw)
        target = C_TARGETS.get(step)
        if target is None:
            tgt, met = "—", "—"
        else:
            tgt = f"≥ {target}×"
            best = max(((x, name) for x, name in ((rj, "JSON"), (rt, "typed")) if x is not None), default=None)
            if best is None:
                met, ok = "n/a", None
            else:
                ok = best[0] >= target
                met = f"{'yes' if ok else 'NO'} ({best[1]})"
            verdicts.append((f"C {step} ≥ {target}× raw SQLite C", ok))
        cells = [fmt_rate(x) if x is not None else r.why_missing("c", s, step) for x, (s, _) in
                 zip((raw, js, ty), C_SYSTEMS)]
        rows.append([STEP_LABEL[step]] + cells + [fmt_ratio(rj), fmt_ratio(rt), tgt, met])
    header = ["step", "raw SQLite C", "Drumlin C (JSON)", "Drumlin C (typed)", "JSON/raw", "typed/raw", "target",
              "met? (best path)"]
    return table(header, rows), verdicts


def py_table(r: Results) -> tuple[str, list[tuple[str, bool | None]]]:
    verdicts = []
    rows = []
    for step in STEPS:
        rates = [r.rate("python", s, step) for s, _ in PY_SYSTEMS]
        sq, ca = rates[0], rates[1]
        rs = ratio(ca, sq)
        objects = r.rate("python", "drumlin-objects", step)
        peer_ratios = [ratio(objects if s in ORMS else ca, r.rate("python", s, step)) for s, _ in PY_PEERS]
        target = PY_TARGETS.get(step)
        if target is None:
            tgt, met = "—", "—"
        else:
            tgt = f"≥ {target}× sqlite3"
            ok = None if rs is None else rs >= target
            met = "n/a" if ok is None else ("yes" if ok else "NO")
            verdicts.append((f"Python {step} ≥ {target}× sqlite3", ok))
        cells = [fmt_rate(x) if x is not None else r.why_missing("python", s, step) for x, (s, _) in
                 zip(rates, PY_SYSTEMS)]
        rows.append([STEP_LABEL[step]] + cells + [fmt_ratio(rs)] + [fmt_ratio(x) for x in peer_ratios] + [tgt, met])
    header = (["step"] + [label for _, label in PY_SYSTEMS] + ["Drumlin/sqlite3"]
              + [f"Drumlin{' objects' if s in ORMS else ''}/{label}" for s, label in PY_PEERS] + ["target", "met?"])
    return table(header, rows), verdicts


def swift_table(r: Results) -> tuple[str, list[tuple[str, bool | None]]]:
    verdicts = []
    rows = []
    for step in STEPS:
        raw, sw = r.rate("c", "raw", step), r.rate("swift", "swift", step)
        rs = ratio(sw, raw)
        target = SWIFT_TARGETS.get(step)
        if target is None:
            tgt, met = "—", "—"
        else:
            tgt = f"≥ {target}×"
            ok = None if rs is None else rs >= target
            met = "n/a" if ok is None else ("yes" if ok else "NO")
            verdicts.append((f"Swift {step} ≥ {target}× raw SQLite C", ok))
        grdb = [r.rate("swift", s, step) for s, _ in GRDB_SYSTEMS]
        cells = [fmt_rate(raw) if raw is not None else r.why_missing("c", "raw", step),
                 fmt_rate(sw) if sw is not None else r.why_missing("swift", "swift", step)]
        cells += [fmt_rate(g) if g is not None else r.why_missing("swift", s, step) for g, (s, _) in zip(grdb, GRDB_SYSTEMS)]
        rows.append([STEP_LABEL[step]] + cells + [fmt_ratio(rs)] + [fmt_ratio(ratio(sw, g)) for g in grdb] + [tgt, met])
    header = (["step", "raw SQLite C", "Drumlin Swift (model API)"] + [label for _, label in GRDB_SYSTEMS]
              + ["Swift/raw"] + [f"Swift/{label}" for _, label in GRDB_SYSTEMS] + ["target (vs raw)", "met?"])
    return table(header, rows), verdicts


def mem_table(r: Results) -> str:
    rows = []
    for h, systems in (("c", C_SYSTEMS), ("python", PY_SYSTEMS), ("swift", [("swift", "Drumlin Swift")])):
        for s, label in systems:
            if not r.mem.get((h, s)):
                continue
            base = r.mem_median(h, s, "baseline_kb")
            after = r.mem_median(h, s, "after_input_kb")
            ins = r.mem_median(h, s, "insert_peak_kb")
            peak = r.mem_median(h, s, "peak_kb")
            inp = r.mem_median(h, s, "input_bytes")
            what = r.mem[(h, s)][0].get("input", "")
            growth = (ins - base) * 1024 if ins is not None and base is not None else None
            extra = (ins - after) * 1024 if ins is not None and after is not None else None
            rows.append([label, f"{what}: {fmt_mb(inp, True)}" if inp else what, fmt_mb(base),
                         fmt_mb(ins), fmt_mb(growth, True) if growth is not None else "—",
                         f"{growth / inp:.2f}×" if growth is not None and inp else "—",
                         fmt_mb(extra, True) if extra is not None else "—", fmt_mb(peak)])
    header = ["system", "input data", "RSS before input", "peak RSS after insert", "insert growth",
              "growth / input", "insert extra (beyond input)", "process peak RSS"]
    return table(header, rows)


def memory_verdict(r: Results) -> tuple[str, bool | None]:
    """The memory target, judged on the Drumlin C JSON bulk insert: RSS growth from before the input
    was built to the peak after the insert, against the JSON text's size."""
    base = r.mem_median("c", "json", "baseline_kb")
    ins = r.mem_median("c", "json", "insert_peak_kb")
    inp = r.mem_median("c", "json", "input_bytes")
    if None in (base, ins, inp) or not inp:
        return "memory: no Drumlin C JSON measurement", None
    growth = (ins - base) * 1024
    ok = growth < MEMORY_LIMIT * inp
    where = "" if r.n >= 1_000_000 else f" (measured at {n_label(r.n)}; the target is for 1M: make bench-scale)"
    return (f"memory: the Drumlin C bulk insert of {n_label(r.n)} objects (drumlin_create_many_json) peaks "
            f"{fmt_mb(growth, True)} above the process's RSS before its input was built = {growth / inp:.2f}× "
            f"its input (the JSON text, {fmt_mb(inp, True)}); target < {MEMORY_LIMIT}×: "
            f"{'met' if ok else 'MISSED'}{where}"), ok


def how_table(r: Results) -> str:
    rows = []
    for h, systems in (("c", C_SYSTEMS), ("python", PY_SYSTEMS),
                       ("swift", [("swift", "Drumlin Swift")] + GRDB_SYSTEMS)):
        for s, label in systems:
            for step in STEPS:
                how = r.how.get((h, s, step))
                if how:
                    rows.append([label, step, how])
                elif (h, s, step) in r.skipped:
                    rows.append([label, step, r.skipped[(h, s, step)]])
    return table(["system", "step", "how"], rows)


def machine_info(r: Results | None) -> list[str]:
    cpu = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    info = r.info if r else {}
    c_info, py_info = info.get("c", {}), info.get("python", {})
    return [
        f"date: {datetime.datetime.now().astimezone().strftime('%Y-%m-%d %H:%M %Z')}",
        f"machine: {os.cpu_count()} CPUs (nproc {len(os.sched_getaffinity(0))}), {cpu}, {platform.platform()}",
        f"SQLite: {c_info.get('sqlite', '?')} (C), {py_info.get('sqlite', '?')} (Python sqlite3)",
        f"Python: {py_info.get('python', platform.python_version())}",
        f"Drumlin: {c_info.get('drumlin', '?')} (library {os.environ.get('DRUMLIN_LIBRARY', '?')})",
    ]


# ---- the two modes --------------------------------------------------------------------------------

def harness_cmds(args, n: int, steps: list[str], py_systems: list[str], python: str) -> tuple[list, list]:
    c = [args.c_harness, "--n", str(n), "--runs", str(args.runs), "--steps", ",".join(steps)]
    py = [python, os.path.join(HERE, "bench.py"), "--n", str(n), "--runs", str(args.runs),
          "--steps", ",".join(steps), "--systems", ",".join(py_systems), "--python", python]
    if args.step_timeout:
        c += ["--step-timeout", str(args.step_timeout)]
        py += ["--step-timeout", str(args.step_timeout)]
    return c, py


def interleaved(c_cmd: list[str], sw_cmd: list[str], runs: int, env: dict) -> tuple[list[dict], int, list[dict], int]:
    """The C and Swift harnesses one run at a time, in turn (``--runs 1`` each; the one going
    first alternates), so that raw SQLite C and the Swift model API, whose ratio is a target, are
    timed minutes apart at most rather than a whole harness apart: on this machine the same
    insert moves between 0.15 and 0.27 s from one minute to the next. Each line's ``run`` is the
    run it belongs to."""
    out: dict[str, tuple[list[dict], int]] = {"c": ([], 0), "swift": ([], 0)}
    commands = {"c": c_cmd[:c_cmd.index("--runs")] + ["--runs", "1"] + c_cmd[c_cmd.index("--runs") + 2:],
                "swift": sw_cmd[:sw_cmd.index("--runs")] + ["--runs", "1"] + sw_cmd[sw_cmd.index("--runs") + 2:]}
    for run in range(runs):
        order = ["c", "swift"] if run % 2 == 0 else ["swift", "c"]
        for name in order:
            log(f"== {'C' if name == 'c' else 'Swift'} harness, run {run + 1}/{runs} ==")
            lines, rc = run_lines(commands[name], env)
            for line in lines:
                if "run" in line:
                    line["run"] = run
            kept, kept_rc = out[name]
            out[name] = (kept + lines, kept_rc or rc)
    return out["c"][0], out["c"][1], out["swift"][0], out["swift"][1]


def collect(args, n: int, steps: list[str], py_systems: list[str], python: str, skipped: dict[str, str]):
    c_cmd, py_cmd = harness_cmds(args, n, steps, py_systems, python)
    env = dict(os.environ)
    env.setdefault("DRUMLIN_LIBRARY", os.path.join(ROOT, ".build", "release", "libdrumlin.so"))
    sw_rc = 0
    sw_lines: list[dict] = []
    if getattr(args, "swift_harness", None) and set(steps) == set(STEPS):
        log(f"== C and Swift harnesses, N={n_label(n)}, {args.runs} runs, interleaved ==")
        sw_cmd = [args.swift_harness, "--n", str(n), "--runs", str(args.runs)]
        c_lines, c_rc, sw_lines, sw_rc = interleaved(c_cmd, sw_cmd, args.runs, env)
    else:
        log(f"== C harness, N={n_label(n)}, {args.runs} runs ==")
        c_lines, c_rc = run_lines(c_cmd, env)
    log(f"== Python harness, N={n_label(n)}, {args.runs} runs ==")
    py_lines, py_rc = run_lines(py_cmd, env)
    grdb_lines, grdb_rc = grdb_runs(args, n, env) if sw_lines else ([], 0)
    lines = c_lines + py_lines + sw_lines + grdb_lines
    for system, reason in skipped.items():
        if system in dict(PY_SYSTEMS) and system not in py_systems:
            lines.append({"harness": "python", "kind": "skipped", "system": system, "reason": reason})
    res = Results(n, lines)
    if c_rc:
        res.failed.append(f"C harness exited with status {c_rc}")
    if py_rc:
        res.failed.append(f"Python harness exited with status {py_rc}")
    if sw_rc:
        res.failed.append(f"Swift harness exited with status {sw_rc}")
    if grdb_rc:
        res.failed.append(f"GRDB harness exited with status {grdb_rc}")
    return res


def grdb_harness(args) -> str | None:
    """The GRDB harness, built beside the Swift harness (bench/swift), or None."""
    if not getattr(args, "swift_harness", None):
        return None
    path = os.path.join(os.path.dirname(args.swift_harness), "grdb-bench-swift")
    return path if os.path.exists(path) else None


def grdb_runs(args, n: int, env: dict, workload: str = "person") -> tuple[list[dict], int]:
    """GRDB's two systems, each run in its own process (``--runs 1``) on a fresh file, the order
    alternating per run, as the other harnesses' systems."""
    harness = grdb_harness(args)
    if harness is None:
        return [], 0
    lines, status = [], 0
    for run in range(args.runs):
        systems = ["record", "row"] if run % 2 == 0 else ["row", "record"]
        for system in systems:
            log(f"== GRDB ({system}, {workload}), run {run + 1}/{args.runs} ==")
            got, rc = run_lines([harness, "--system", system, "--workload", workload, "--n", str(n), "--runs", "1"], env)
            for line in got:
                if "run" in line:
                    line["run"] = run
            lines += got
            status = status or rc
    return lines, status


def task_n(n: int) -> int:
    return max(1000, n // 2)


TASK_PY_SYSTEMS = [("drumlin", "Drumlin Python (object API)"), ("sqlalchemy", "SQLAlchemy 2 ORM"), ("peewee", "peewee")]


def task_section(args, python: str, n: int, venv_python: str,
                 skipped: dict[str, str]) -> tuple[list[str], list[str], list[dict]]:
    """The Task workload: bench/task_api.py (Python against sqlite3, its own markdown table),
    bench/orm_peers.py (the object API against SQLAlchemy and peewee, each in its own process),
    and the Swift harness's `--workload task` beside GRDB's (no raw C peer for this schema).
    Returns the report's lines, the failures and the ratios for the chart."""
    env = dict(os.environ)
    env.setdefault("DRUMLIN_LIBRARY", os.path.join(ROOT, ".build", "release", "libdrumlin.so"))
    tn = task_n(n)
    out, failed, ratios = [], [], []
    log(f"== Task workload, Python (bench/task_api.py), N={n_label(tn)}, {args.runs} runs ==")
    proc = subprocess.run([python, os.path.join(HERE, "task_api.py"), "--n", str(tn), "--runs", str(args.runs)],
                          env=env, stdout=subprocess.PIPE, text=True)
    if proc.returncode:
        failed.append(f"bench/task_api.py exited with status {proc.returncode}")
    out.append(proc.stdout.replace("## Python object API", "## Task workload: Python object API", 1).rstrip())
    out.append("")
    orm = [s for s, _ in TASK_PY_SYSTEMS[1:] if s not in skipped]
    if orm:
        log(f"== Task workload, Python ORMs (bench/orm_peers.py), N={n_label(tn)}, {args.runs} runs ==")
        lines, rc = run_lines([venv_python, os.path.join(HERE, "orm_peers.py"), "--workload", "task", "--n", str(tn),
                               "--runs", str(args.runs), "--systems", ",".join(["drumlin"] + orm)], env)
        if rc:
            failed.append(f"bench/orm_peers.py exited with status {rc}")
        systems = [(s, label) for s, label in TASK_PY_SYSTEMS if s == "drumlin" or s in orm]
        out += task_table(lines, systems, f"## Task workload: Python object API vs SQLAlchemy 2 ORM and peewee "
                          f"(N = {n_label(tn)} tasks, get and update on the first {min(tn, 20000)}, median of "
                          f"{args.runs})", "Each library as its documentation shows (`how` below the table); each "
                          "system in its own process on a fresh file.", "Python", ratios)
    if getattr(args, "swift_harness", None):
        log(f"== Task workload, Swift harness, N={n_label(tn)}, {args.runs} runs ==")
        lines, rc = run_lines([args.swift_harness, "--workload", "task", "--n", str(tn), "--runs", str(args.runs)], env)
        if rc:
            failed.append(f"Swift harness (--workload task) exited with status {rc}")
        grdb_lines, grdb_rc = grdb_runs(args, tn, env, "task")
        if grdb_rc:
            failed.append(f"GRDB harness (--workload task) exited with status {grdb_rc}")
        systems = [("swift", "Drumlin Swift (model API)")] + [(s, label) for s, label in GRDB_SYSTEMS]
        out += task_table(lines + grdb_lines, systems, f"## Task workload: Swift model API vs GRDB.swift "
                          f"(N = {n_label(tn)} tasks, median of {args.runs})", "No raw SQLite C peer for this schema: "
                          "GRDB is the peer (records with a `belongsTo` owner and Codable tags and location stored "
                          "as JSON; the Row API the same columns by hand).", "Swift", ratios)
    return out, failed, ratios


def task_table(lines: list[dict], systems: list[tuple[str, str]], title: str, note: str, language: str,
               ratios: list[dict]) -> list[str]:
    """A Task table: each system's median rate per step and Drumlin ÷ each peer (appended to ratios)."""
    def rate(system: str, step: str) -> float | None:
        found = [ln["ops"] / ln["seconds"] for ln in lines
                 if ln.get("system") == f"{system}-task" and ln.get("step") == step and ln.get("seconds")]
        return statistics.median(found) if found else None

    def how(system: str, step: str) -> str:
        return next((ln.get("how", "") for ln in lines
                     if ln.get("system") == f"{system}-task" and ln.get("step") == step), "")

    rows, hows = [], []
    for step, label in TASK_STEPS:
        rates = [rate(s, step) for s, _ in systems]
        peer = [ratio(rates[0], x) for x in rates[1:]]
        rows.append([label] + [fmt_rate(x) if x is not None else "missing" for x in rates] + [fmt_ratio(x) for x in peer])
        for (s, plabel), x in zip(systems[1:], peer):
            if x is not None:
                ratios.append({"language": language, "workload": "Task", "peer": plabel, "step": step, "ratio": x,
                               "target": None})
        for s, slabel in systems:
            hows.append([slabel, step, how(s, step) or "—"])
    skipped = [f"{ln['system']}: skipped ({ln.get('reason', '')})" for ln in lines if ln.get("kind") == "skipped"]
    header = (["step"] + [label for _, label in systems]
              + [f"Drumlin/{label}" for s, label in systems[1:]])
    return [title, "", note, ""] + ([", ".join(skipped), ""] if skipped else []) + [
        table(header, rows), "", table(["system", "step", "how"], hows), ""]


def person_ratios(r: Results) -> list[dict]:
    """Drumlin ÷ each peer per Person step, as the chart draws them (C: the better of the JSON and
    typed paths, as the targets are judged)."""
    out = []

    def add(language: str, peer: str, step: str, x: float | None, target: float | None) -> None:
        if x is not None:
            out.append({"language": language, "workload": "Person", "peer": peer, "step": step, "ratio": x,
                        "target": target})

    for step in STEPS:
        raw = r.rate("c", "raw", step)
        best = max((x for x in (ratio(r.rate("c", s, step), raw) for s in ("json", "typed")) if x is not None),
                   default=None)
        add("C", "raw SQLite C", step, best, C_TARGETS.get(step))
        drumlin = r.rate("python", "drumlin", step)
        add("Python", "sqlite3", step, ratio(drumlin, r.rate("python", "sqlite3", step)), PY_TARGETS.get(step))
        objects = r.rate("python", "drumlin-objects", step)
        for s, label in PY_PEERS:
            add("Python", label, step, ratio(objects if s in ORMS else drumlin, r.rate("python", s, step)), None)
        swift = r.rate("swift", "swift", step)
        add("Swift", "raw SQLite C", step, ratio(swift, raw), SWIFT_TARGETS.get(step))
        for s, label in GRDB_SYSTEMS:
            add("Swift", label, step, ratio(swift, r.rate("swift", s, step)), None)
    return out


def write_chart(python: str, skipped: dict[str, str], ratios: list[dict], title: str) -> str:
    """Writes results/latest.json (the ratios) and, with matplotlib in bench/.venv, bench/chart.py
    draws results/latest.png and .svg from it. Returns the report's line about the chart."""
    data_path = write_report("latest.json", json.dumps({"title": title, "ratios": ratios}, indent=1) + "\n")
    if "matplotlib" in skipped:
        return f"chart: skipped ({skipped['matplotlib']}); the ratios are in {os.path.relpath(data_path, ROOT)}"
    proc = subprocess.run([python, os.path.join(HERE, "chart.py"), data_path, os.path.join(RESULTS, "latest")],
                          capture_output=True, text=True)
    if proc.returncode:
        tail = [l for l in proc.stderr.strip().splitlines() if l.strip()] or ["?"]
        return f"chart: FAILED ({tail[-1]})"
    return "chart: `bench/results/latest.png` and `latest.svg` (ratios per step, language and peer; target lines)"


def write_report(name: str, text: str) -> str:
    os.makedirs(RESULTS, exist_ok=True)
    path = os.path.join(RESULTS, name)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)
    return path


def timing_lines(args, t_start: float) -> list[str]:
    end = time.time()
    out = [f"bench/run.py time (venv check + the harnesses): {end - t_start:.0f} s"]
    if args.started:
        total = end - args.started
        builds = t_start - args.started
        out.append(f"`make` wall time: {total:.0f} s (of which library and harness builds: {builds:.0f} s)")
    return out


def main_default(args, python: str, skipped: dict[str, str], t_start: float) -> int:
    n = args.n
    py_systems = ["sqlite3", "drumlin"] + [s for s, _ in PY_PEERS if s not in skipped]
    if any(s in py_systems for s in ORMS):
        py_systems.append("drumlin-objects")
    res = collect(args, n, STEPS, py_systems, python, skipped)
    ct, cv = c_table(res)
    pt, pv = py_table(res)
    st, sv = swift_table(res)
    mt = mem_table(res)
    mem_line, mem_ok = memory_verdict(res)
    task_lines, task_failed, task_ratios = task_section(args, sys.executable, n, python, skipped)
    res.failed.extend(task_failed)
    verdicts = cv + pv + (sv if args.swift_harness else [])
    when = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M")
    chart_line = write_chart(python, skipped, person_ratios(res) + task_ratios,
                             f"Drumlin ÷ peer, N = {n_label(n)} (Task: {n_label(task_n(n))}), median of {args.runs} "
                             f"runs, {when}, load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    if chart_line.startswith("chart: FAILED"):
        res.failed.append(chart_line)
    out = []
    out.append(f"# Drumlin benchmark — N = {n_label(n)} Person objects, median of {args.runs} runs")
    out.append("")
    out.append("Rates are ops/s (the range query: matched rows/s); ratios are Drumlin ÷ peer from this run's "
               "medians (higher is better for Drumlin). Each system runs in its own process on a fresh file "
               "(WAL, synchronous=NORMAL). Not a test: nothing here fails on a number.")
    out.append("")
    out.append(chart_line)
    out.append("")
    out.append("## C: raw SQLite C (prepared statements) vs Drumlin's C API")
    out.append("")
    out.append(ct)
    out.append("")
    out.append("## Python: sqlite3 vs Drumlin's Python package vs ObjectBox, SQLAlchemy 2 ORM and peewee")
    out.append("")
    out.append("The ORMs are used as their documentation shows (models, a Session; `how` below) and set against "
               "Drumlin's object API (objects and attributes, `db.get(...).score = x`), as they read and write "
               "objects; `sqlite3` and ObjectBox against the one-call paths. No ratio to a peer has a target: "
               "the targets stay against `sqlite3`.")
    out.append("")
    for system, reason in skipped.items():
        if system in dict(PY_SYSTEMS):
            out.append(f"{dict(PY_SYSTEMS)[system]}: skipped ({reason})")
            out.append("")
    out.append(pt)
    out.append("")
    if args.swift_harness:
        out.append("## Swift: raw SQLite C and GRDB.swift vs Drumlin's Swift model API (`import Drumlin`)")
        out.append("")
        out.append("GRDB 7.10 on a `DatabasePool` (WAL, synchronous=NORMAL): its Codable records through the query "
                   "interface, and raw `Row`s from cached statements; each in its own process on a fresh file.")
        out.append("")
        out.append(st)
        out.append("")
    out.extend(task_lines)
    out.append("## Memory (median over runs; RSS from /proc/self/statm and getrusage ru_maxrss)")
    out.append("")
    out.append(mt)
    out.append("")
    out.append("- " + mem_line)
    out.append("")
    out.append("## Targets")
    out.append("")
    for label, ok in verdicts:
        out.append(f"- {label}: {'met' if ok else ('n/a' if ok is None else 'MISSED')}")
    out.append(f"- memory (1M bulk insert < {MEMORY_LIMIT}× input): see `make bench-scale`"
               + (f" (at {n_label(n)}: {'met' if mem_ok else 'missed'})" if mem_ok is not None else ""))
    out.append(f"- scale (per-op time at 1M ≤ {SCALE_LIMIT}× that at 10k): see `make bench-scale`")
    met = sum(1 for _, ok in verdicts if ok)
    out.append(f"- summary: {met} of {len(verdicts)} ratio targets met")
    if res.timeouts:
        out.append("")
        out.append("## Timeouts")
        out.extend(f"- {h}/{s} {step}: {why}" for (h, s, step), why in res.timeouts.items())
    if res.failed:
        out.append("")
        out.append("## Failures")
        out.extend(f"- {f}" for f in res.failed)
    out.append("")
    out.append("## How each system does each step")
    out.append("")
    out.append(how_table(res))
    out.append("")
    out.append("## Machine")
    out.append("")
    out.extend(f"- {line}" for line in machine_info(res) + timing_lines(args, t_start))
    text = "\n".join(out) + "\n"
    print(text)
    path = write_report("latest.md", text)
    log(f"wrote {os.path.relpath(path, ROOT)}")
    return 1 if res.failed else 0


def main_scale(args, python: str, t_start: float) -> int:
    """Per-op time of each step at each size of --scale-sizes (10k, 1M, 10M by default), its growth
    from the smallest to the largest against raw SQLite C's own, the insert's memory against its
    input and the file size against raw SQLite's, at every size."""
    sizes = sorted({parse_n(x) for x in args.scale_sizes.split(",") if x.strip()})
    if len(sizes) < 2:
        log("--scale-sizes needs at least two sizes")
        return 2
    python_max = parse_n(os.environ.get("BENCH_SCALE_PYTHON_MAX") or SCALE_PYTHON_MAX_DEFAULT)
    results = {}
    for n in sizes:
        py = ["sqlite3", "drumlin"] if n <= python_max else []
        results[n] = collect(args, n, SCALE_STEPS, py, python, {}) if py else collect_c_only(args, n)
    large = sizes[-1]
    rows, verdicts = [], []
    systems = [("c", s, l) for s, l in C_SYSTEMS] + [("python", s, l) for s, l in PY_SYSTEMS[:2]]
    fmt = (lambda us: f"{us:.2f} µs" if us is not None else "—")
    for step in SCALE_STEPS:
        raw_growth = None
        for h, s, label in systems:
            per_op = []
            for n in sizes:
                rate = results[n].rate(h, s, step)
                per_op.append(1e6 / rate if rate else None)
            known = [(n, us) for n, us in zip(sizes, per_op) if us is not None]
            grow = known[-1][1] / known[0][1] if len(known) >= 2 else None
            span = f"{n_label(known[0][0])}→{n_label(known[-1][0])}" if len(known) >= 2 else ""
            if (h, s) == ("c", "raw"):
                raw_growth = grow if known and known[-1][0] == large else None
            is_drumlin = s in ("json", "typed", "drumlin")
            vs_raw, met = "—", "—"
            if is_drumlin and h == "c" and grow is not None and raw_growth and known[-1][0] == large:
                vs_raw = f"{grow / raw_growth:.2f}×"
                ok = grow <= raw_growth * 1.1  # no worse than raw SQLite's own growth (10% for noise)
                met = "yes" if ok else "NO"
                verdicts.append((f"scale {step} {label}: growth ≤ raw SQLite C's (+10%)", ok))
            elif is_drumlin and grow is not None:
                ok = grow <= SCALE_LIMIT
                met = ("yes" if ok else "NO") + f" (≤ {SCALE_LIMIT}×)"
            rows.append([STEP_LABEL[step], label] + [fmt(us) for us in per_op]
                        + [f"{grow:.2f}× ({span})" if grow is not None else "n/a", vs_raw, met])
    st = table(["step", "system"] + [f"per op @{n_label(n)}" for n in sizes]
               + ["growth", "growth ÷ raw C's", "met?"], rows)
    mem_rows, mem_verdicts = [], []
    for n in sizes:
        r = results[n]
        for s, label in C_SYSTEMS:
            base, ins = r.mem_median("c", s, "baseline_kb"), r.mem_median("c", s, "insert_peak_kb")
            inp = r.mem_median("c", s, "input_bytes")
            size = statistics.median(r.files[("c", s)]) if r.files.get(("c", s)) else None
            raw_size = statistics.median(r.files[("c", "raw")]) if r.files.get(("c", "raw")) else None
            growth = (ins - base) * 1024 if ins is not None and base is not None else None
            mem_rows.append([n_label(n), label, fmt_mb(inp, True) if inp else "—",
                             fmt_mb(growth, True) if growth is not None else "—",
                             f"{growth / inp:.2f}×" if growth is not None and inp else "—",
                             fmt_mb(r.mem_median("c", s, "peak_kb") or 0),
                             fmt_mb(size, True) if size else "—",
                             f"{size / raw_size:.2f}×" if size and raw_size else "—"])
        line, ok = memory_verdict(r)
        mem_verdicts.append((n, line, ok))
    mt = table(["N", "system", "input", "insert growth", "growth / input", "process peak RSS", "file size",
                "file ÷ raw SQLite's"], mem_rows)
    out = [f"# Drumlin scale benchmark — {', '.join(n_label(n) for n in sizes)}, median of {args.runs} runs", "",
           "Per-operation time (1 / ops/s; lookups: per lookup; range: per matched row) at each N, its growth "
           f"from the smallest to the largest N, and that growth against raw SQLite C's own (target: no worse, "
           f"with 10% for noise). The Python systems run up to {n_label(python_max)} (their target stays "
           f"growth ≤ {SCALE_LIMIT}×).", "", st, "",
           "## Memory and file size", "",
           "Insert growth: peak RSS after the bulk insert minus RSS before the input was built (the input "
           "included); file size: the database file after the process closed it (write-ahead log "
           "checkpointed), after insert, get, lookups, range and update.", "", mt, ""]
    out += [f"- {line}" for _, line, _ in mem_verdicts]
    out += ["", "## Targets", ""]
    out.extend(f"- {label}: {'met' if ok else ('n/a' if ok is None else 'MISSED')}" for label, ok in verdicts)
    big_ok = mem_verdicts[-1][2]
    out.append(f"- memory at {n_label(large)}: {'met' if big_ok else ('n/a' if big_ok is None else 'MISSED')}")
    timeouts = [f"{n_label(n)} {h}/{s} {step}: {why}" for n in sizes for (h, s, step), why in results[n].timeouts.items()]
    if timeouts:
        out += ["", "## Timeouts"] + [f"- {t}" for t in timeouts]
    failed = [f for n in sizes for f in results[n].failed]
    if failed:
        out += ["", "## Failures"] + [f"- {f}" for f in failed]
    out += ["", "## Machine", ""] + [f"- {line}" for line in machine_info(results[large]) + timing_lines(args, t_start)]
    text = "\n".join(out) + "\n"
    print(text)
    path = write_report("scale.md", text)
    log(f"wrote {os.path.relpath(path, ROOT)}")
    return 1 if failed else 0


def collect_c_only(args, n: int) -> Results:
    """The C harness alone (bench-scale's sizes above BENCH_SCALE_PYTHON_MAX)."""
    c_cmd, _ = harness_cmds(args, n, SCALE_STEPS, [], sys.executable)
    env = dict(os.environ)
    log(f"== C harness, N={n_label(n)}, {args.runs} runs ==")
    lines, rc = run_lines(c_cmd, env)
    res = Results(n, lines)
    if rc:
        res.failed.append(f"C harness exited with status {rc}")
    return res


def main_readers(args, t_start: float) -> int:
    """Readers beside a writer (bench/readers.c): reads/s and commit latency for 1, 2 and 4 reader
    threads and processes, raw SQLite C against Drumlin's C API; writes results/readers.md."""
    cmd = [args.readers_harness, "--n", str(args.n), "--seconds", str(args.readers_seconds)]
    lines, rc = run_lines(cmd)
    info = next((ln for ln in lines if ln.get("kind") == "info"), {})
    got = [ln for ln in lines if ln.get("harness") == "readers" and "readers" in ln]
    rows = []
    for mode in ("threads", "processes"):
        for count in sorted({ln["readers"] for ln in got}):
            pair = {ln["system"]: ln for ln in got if ln["mode"] == mode and ln["readers"] == count}
            raw, dl = pair.get("raw"), pair.get("drumlin")
            for system, ln in (("raw SQLite C", raw), ("Drumlin C", dl)):
                if ln is None:
                    continue
                noun = {"threads": ("thread", "threads"), "processes": ("process", "processes")}[mode][count > 1]
                rows.append([f"{count} reader {noun}", system, fmt_rate(ln["gets_per_s"]), fmt_rate(ln["rows_per_s"]),
                             f"{ln['get_p99_us']:.1f} µs", f"{ln['get_max_us']:.0f} µs", f"{ln['commits_per_s']:.0f}/s",
                             f"{ln['commit_p50_us']:.0f} µs", f"{ln['commit_p99_us']:.0f} µs"])
            if raw and dl:
                rows.append(["", "Drumlin ÷ raw", fmt_ratio(ratio(dl["gets_per_s"], raw["gets_per_s"])),
                             fmt_ratio(ratio(dl["rows_per_s"], raw["rows_per_s"])), "", "", "",
                             fmt_ratio(ratio(dl["commit_p50_us"], raw["commit_p50_us"])) + " (time)",
                             fmt_ratio(ratio(dl["commit_p99_us"], raw["commit_p99_us"])) + " (time)"])
    out = [f"## Readers beside a writer — N = {n_label(args.n)} Person rows, {args.readers_seconds} s each", "",
           f"One writer commits a transaction of {info.get('updates_per_commit', '?')} score updates by primary key "
           f"every {info.get('commit_every_us', '?')} µs while the readers, each with its own connection or "
           f"database handle, loop over {info.get('gets_per_round', '?')} gets by primary key (all 6 fields, each its "
           f"own implicit read) and one {info.get('range_rows', '?')}-row range (`id BETWEEN a AND a+99`, all 6 "
           "fields), so gets/s and range rows/s are equal by design and a range row costs less than a get. "
           "Reads/s are over all readers; a get's p99 and max are the worst reader's; commit latency is "
           "begin to commit returned. WAL, synchronous=NORMAL for both. Ratios of latencies are Drumlin's time ÷ "
           "raw's (lower is better); of rates, Drumlin ÷ raw (higher is better). Both readers and writer share the "
           "machine's cores: with more readers than cores, reads/s stop growing.", "",
           table(["readers", "system", "gets/s", "range rows/s", "get p99", "get max", "commits",
                  "commit p50", "commit p99"], rows), ""]
    if rc:
        out += [f"- FAILED: bench/readers.c exited with status {rc}", ""]
    out += [f"- {line}" for line in [f"SQLite {info.get('sqlite', '?')}, Drumlin {info.get('drumlin', '?')}"]
            + timing_lines(args, t_start)[:1]]
    text = "\n".join(out) + "\n"
    print(text)
    write_report("readers.md", text)
    return 1 if rc else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--c-harness", default=os.path.join(ROOT, "build", "bench", "drumlin-bench"))
    parser.add_argument("--swift-harness", default=None, help="the Swift harness (bench/swift); omitted: no Swift table")
    parser.add_argument("--n", default=os.environ.get("BENCH_N") or "100k")
    parser.add_argument("--runs", type=int, default=int(os.environ.get("BENCH_RUNS") or 3))
    parser.add_argument("--scale", action="store_true",
                        help="insert/get/lookup/range/update at each size of --scale-sizes")
    parser.add_argument("--scale-sizes", default=os.environ.get("BENCH_SCALE_SIZES") or "10k,1M,10M",
                        help="comma-separated sizes (default 10k,1M,10M; BENCH_SCALE_SIZES)")
    parser.add_argument("--step-timeout", type=int, default=int(os.environ.get("BENCH_STEP_TIMEOUT") or 0),
                        help="seconds one step may take (default: 60 per 100k objects); a step that takes "
                             "longer is reported as timed out and left out of the later runs")
    parser.add_argument("--readers-harness", default=None,
                        help="run only the readers-beside-a-writer harness (bench/readers.c); writes results/readers.md")
    parser.add_argument("--readers-seconds", type=float, default=float(os.environ.get("BENCH_READERS_SECONDS") or 3))
    parser.add_argument("--started", type=float, default=None, help="epoch seconds `make bench` started")
    args = parser.parse_args()
    args.n = parse_n(str(args.n))
    if args.n < 1000:
        parser.error("N must be at least 1000 (the lookup step does 1000 lookups)")
    if not os.path.exists(args.c_harness):
        parser.error(f"no C harness at {args.c_harness} (make bench builds it)")
    t_start = time.time()
    if args.readers_harness:
        return main_readers(args, t_start)
    if args.scale:
        return main_scale(args, sys.executable, t_start)
    python, skipped = ensure_venv(sys.executable)
    for module, reason in skipped.items():
        log(f"{module}: skipped ({reason})")
    return main_default(args, python, skipped, t_start)


if __name__ == "__main__":
    sys.exit(main())
