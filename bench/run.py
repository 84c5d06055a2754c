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
PY_SYSTEMS = [("sqlite3", "sqlite3"), ("drumlin", "Drumlin Python"), ("objectbox", "ObjectBox")]
# The performance issue's targets: Drumlin ops/s >= factor x the peer's, from the same run's medians.
C_TARGETS = {"insert": 0.8, "get": 0.8, "update": 0.7, "delete": 0.7}
PY_TARGETS = {"insert": 1.2, "get": 1.0, "lookup": 1.0}
# The Swift model API against raw SQLite C (issue #13): bulk add and get + read every property.
SWIFT_TARGETS = {"insert": 0.8, "get": 0.8}
# The realistic Task workload (issue #20 item 4) runs at half of N (the issue measured 50k tasks).
TASK_STEPS = [("insert", "insert (one write; owner an existing object)"), ("get", "get by primary key, every property"),
              ("iterate", "iterate done == false, read 3 properties"), ("update", "set done on every task (one write)")]
SCALE_STEPS = ["insert", "get", "lookup"]
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


def ensure_objectbox(base_python: str) -> tuple[str, str | None]:
    """Returns (the Python for the Python harness, None or why ObjectBox is skipped)."""
    if os.environ.get("BENCH_OBJECTBOX", "1") in ("0", "no", "false"):
        return base_python, "BENCH_OBJECTBOX=0"
    vpython = os.path.join(VENV, "bin", "python")
    try:
        if not os.path.exists(vpython):
            log(f"creating {os.path.relpath(VENV, ROOT)} for ObjectBox")
            proc = subprocess.run([base_python, "-m", "venv", VENV], capture_output=True, text=True, timeout=300)
            if proc.returncode != 0:
                return base_python, "python -m venv failed: " + (proc.stderr.strip().splitlines() or ["?"])[-1]
        check = [vpython, "-c", "import objectbox"]
        if subprocess.run(check, capture_output=True, timeout=120).returncode != 0:
            log("pip install objectbox (into bench/.venv)")
            proc = subprocess.run([vpython, "-m", "pip", "install", "-q", "--disable-pip-version-check",
                                   "--timeout", "30", "objectbox"], capture_output=True, text=True, timeout=600)
            if proc.returncode != 0:
                tail = [l for l in proc.stderr.strip().splitlines() if l.strip()] or ["?"]
                return vpython, "pip install objectbox failed: " + tail[-1]
            proc = subprocess.run(check, capture_output=True, text=True, timeout=120)
            if proc.returncode != 0:
                tail = [l for l in proc.stderr.strip().splitlines() if l.strip()] or ["?"]
                return vpython, "import objectbox failed: " + tail[-1]
    except (OSError, subprocess.TimeoutExpired) as error:
        return (vpython if os.path.exists(vpython) else base_python), str(error)
    return vpython, None


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
        for d in lines:
            h, s, kind = d.get("harness"), d.get("system"), d.get("kind")
            if kind == "info":
                self.info[h] = d
            elif kind == "mem":
                self.mem.setdefault((h, s), []).append(d)
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
        sq, ca, ob = (r.rate("python", s, step) for s, _ in PY_SYSTEMS)
        rs, ro = ratio(ca, sq), ratio(ca, ob)
        target = PY_TARGETS.get(step)
        if target is None:
            tgt, met = "—", "—"
        else:
            tgt = f"≥ {target}× sqlite3"
            ok = None if rs is None else rs >= target
            met = "n/a" if ok is None else ("yes" if ok else "NO")
            verdicts.append((f"Python {step} ≥ {target}× sqlite3", ok))
        cells = [fmt_rate(x) if x is not None else r.why_missing("python", s, step) for x, (s, _) in
                 zip((sq, ca, ob), PY_SYSTEMS)]
        rows.append([STEP_LABEL[step]] + cells + [fmt_ratio(rs), fmt_ratio(ro), tgt, met])
    header = ["step", "sqlite3", "Drumlin Python", "ObjectBox", "Drumlin/sqlite3", "Drumlin/ObjectBox", "target", "met?"]
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
        cells = [fmt_rate(raw) if raw is not None else r.why_missing("c", "raw", step),
                 fmt_rate(sw) if sw is not None else r.why_missing("swift", "swift", step)]
        rows.append([STEP_LABEL[step]] + cells + [fmt_ratio(rs), tgt, met])
    header = ["step", "raw SQLite C", "Drumlin Swift (model API)", "Swift/raw", "target", "met?"]
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
    for h, systems in (("c", C_SYSTEMS), ("python", PY_SYSTEMS), ("swift", [("swift", "Drumlin Swift")])):
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


def collect(args, n: int, steps: list[str], py_systems: list[str], python: str, skip_reason: str | None):
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
    lines = c_lines + py_lines + sw_lines
    if skip_reason and "objectbox" not in py_systems:
        lines.append({"harness": "python", "kind": "skipped", "system": "objectbox", "reason": skip_reason})
    res = Results(n, lines)
    if c_rc:
        res.failed.append(f"C harness exited with status {c_rc}")
    if py_rc:
        res.failed.append(f"Python harness exited with status {py_rc}")
    if sw_rc:
        res.failed.append(f"Swift harness exited with status {sw_rc}")
    return res


def task_n(n: int) -> int:
    return max(1000, n // 2)


def task_section(args, python: str, n: int) -> tuple[list[str], list[str]]:
    """The Task workload: bench/task_api.py (Python against sqlite3, its own markdown table) and the
    Swift harness's `--workload task` (absolute rates: no raw C peer for this schema).
    Returns the report's lines and the failures."""
    env = dict(os.environ)
    env.setdefault("DRUMLIN_LIBRARY", os.path.join(ROOT, ".build", "release", "libdrumlin.so"))
    tn = task_n(n)
    out, failed = [], []
    log(f"== Task workload, Python (bench/task_api.py), N={n_label(tn)}, {args.runs} runs ==")
    proc = subprocess.run([python, os.path.join(HERE, "task_api.py"), "--n", str(tn), "--runs", str(args.runs)],
                          env=env, stdout=subprocess.PIPE, text=True)
    if proc.returncode:
        failed.append(f"bench/task_api.py exited with status {proc.returncode}")
    out.append(proc.stdout.replace("## Python object API", "## Task workload: Python object API", 1).rstrip())
    out.append("")
    if getattr(args, "swift_harness", None):
        log(f"== Task workload, Swift harness, N={n_label(tn)}, {args.runs} runs ==")
        lines, rc = run_lines([args.swift_harness, "--workload", "task", "--n", str(tn), "--runs", str(args.runs)], env)
        if rc:
            failed.append(f"Swift harness (--workload task) exited with status {rc}")
        rows = []
        for step, label in TASK_STEPS:
            found = [ln for ln in lines if ln.get("system") == "swift-task" and ln.get("step") == step]
            rates = [ln["ops"] / ln["seconds"] for ln in found if ln.get("seconds")]
            rate = statistics.median(rates) if rates else None
            rows.append([label, fmt_rate(rate) if rate is not None else "missing",
                         found[0].get("how", "") if found else ""])
        out.append(f"## Task workload: Swift model API (N = {n_label(tn)} tasks, median of {args.runs})")
        out.append("")
        out.append("No raw SQLite C peer for this schema yet: absolute rates only (the Python table above has "
                   "the ratios to a hand-written sqlite3 schema).")
        out.append("")
        out.append(table(["step", "Drumlin Swift (model API)", "how"], rows))
        out.append("")
    return out, failed


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
    out = [f"bench/run.py time (ObjectBox venv check + both harnesses): {end - t_start:.0f} s"]
    if args.started:
        total = end - args.started
        builds = t_start - args.started
        out.append(f"`make` wall time: {total:.0f} s (of which library and harness builds: {builds:.0f} s)")
    return out


def main_default(args, python: str, skip_reason: str | None, t_start: float) -> int:
    n = args.n
    py_systems = ["sqlite3", "drumlin"] + (["objectbox"] if skip_reason is None else [])
    res = collect(args, n, STEPS, py_systems, python, skip_reason)
    ct, cv = c_table(res)
    pt, pv = py_table(res)
    st, sv = swift_table(res)
    mt = mem_table(res)
    mem_line, mem_ok = memory_verdict(res)
    task_lines, task_failed = task_section(args, sys.executable, n)
    res.failed.extend(task_failed)
    verdicts = cv + pv + (sv if args.swift_harness else [])
    out = []
    out.append(f"# Drumlin benchmark — N = {n_label(n)} Person objects, median of {args.runs} runs")
    out.append("")
    out.append("Rates are ops/s (the range query: matched rows/s); ratios are Drumlin ÷ peer from this run's "
               "medians (higher is better for Drumlin). Each system runs in its own process on a fresh file "
               "(WAL, synchronous=NORMAL). Not a test: nothing here fails on a number.")
    out.append("")
    out.append("## C: raw SQLite C (prepared statements) vs Drumlin's C API")
    out.append("")
    out.append(ct)
    out.append("")
    out.append("## Python: sqlite3 vs Drumlin's Python package vs ObjectBox")
    out.append("")
    if skip_reason:
        out.append(f"ObjectBox: skipped ({skip_reason})")
        out.append("")
    out.append(pt)
    out.append("")
    if args.swift_harness:
        out.append("## Swift: raw SQLite C vs Drumlin's Swift model API (`import Drumlin`)")
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
    small, large = parse_n(args.scale_small), parse_n(args.scale_large)
    results = {}
    for n in (small, large):
        results[n] = collect(args, n, SCALE_STEPS, ["sqlite3", "drumlin"], python, None)
    rows = []
    verdicts = []
    systems = [("c", s, l) for s, l in C_SYSTEMS] + [("python", s, l) for s, l in PY_SYSTEMS[:2]]
    for step in SCALE_STEPS:
        for h, s, label in systems:
            a, b = results[small].rate(h, s, step), results[large].rate(h, s, step)
            us_a = 1e6 / a if a else None
            us_b = 1e6 / b if b else None
            grow = us_b / us_a if us_a and us_b else None
            is_drumlin = s in ("json", "typed", "drumlin")
            tgt = f"≤ {SCALE_LIMIT}×" if is_drumlin else "(peer)"
            met = "—"
            if is_drumlin:
                ok = None if grow is None else grow <= SCALE_LIMIT
                met = "n/a" if ok is None else ("yes" if ok else "NO")
                verdicts.append((f"scale {step} {label}", ok))
            fmt = (lambda us: f"{us:.2f} µs" if us is not None else "—")
            rows.append([STEP_LABEL[step], label, fmt(us_a), fmt(us_b),
                         f"{grow:.2f}×" if grow is not None else "n/a", tgt, met])
    st = table(["step", "system", f"per op @{n_label(small)}", f"per op @{n_label(large)}",
                f"{n_label(large)}/{n_label(small)}", "target", "met?"], rows)
    big = results[large]
    mem_line, mem_ok = memory_verdict(big)
    out = [f"# Drumlin scale benchmark — {n_label(small)} vs {n_label(large)}, median of {args.runs} runs", "",
           "Per-operation time (1 / ops/s; the lookup step: per lookup) at each N, and its growth.", "", st, "",
           f"## Memory at {n_label(large)}", "", mem_table(big), "", "- " + mem_line, "", "## Targets", ""]
    out.extend(f"- {label}: {'met' if ok else ('n/a' if ok is None else 'MISSED')}" for label, ok in verdicts)
    out.append(f"- memory: {'met' if mem_ok else ('n/a' if mem_ok is None else 'MISSED')}")
    timeouts = [f"{n_label(n)} {h}/{s} {step}: {why}" for n in (small, large)
                for (h, s, step), why in results[n].timeouts.items()]
    if timeouts:
        out += ["", "## Timeouts"] + [f"- {t}" for t in timeouts]
    failed = results[small].failed + results[large].failed
    if failed:
        out += ["", "## Failures"] + [f"- {f}" for f in failed]
    out += ["", "## Machine", ""] + [f"- {line}" for line in machine_info(big) + timing_lines(args, t_start)]
    text = "\n".join(out) + "\n"
    print(text)
    path = write_report("scale.md", text)
    log(f"wrote {os.path.relpath(path, ROOT)}")
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--c-harness", default=os.path.join(ROOT, "build", "bench", "drumlin-bench"))
    parser.add_argument("--swift-harness", default=None, help="the Swift harness (bench/swift); omitted: no Swift table")
    parser.add_argument("--n", default=os.environ.get("BENCH_N") or "100k")
    parser.add_argument("--runs", type=int, default=int(os.environ.get("BENCH_RUNS") or 3))
    parser.add_argument("--scale", action="store_true", help="insert/get/lookup at --scale-small and --scale-large")
    parser.add_argument("--scale-small", default="10k")
    parser.add_argument("--scale-large", default="1M")
    parser.add_argument("--step-timeout", type=int, default=int(os.environ.get("BENCH_STEP_TIMEOUT") or 0),
                        help="seconds one step may take (default: 60 per 100k objects); a step that takes "
                             "longer is reported as timed out and left out of the later runs")
    parser.add_argument("--started", type=float, default=None, help="epoch seconds `make bench` started")
    args = parser.parse_args()
    args.n = parse_n(str(args.n))
    if args.n < 1000:
        parser.error("N must be at least 1000 (the lookup step does 1000 lookups)")
    if not os.path.exists(args.c_harness):
        parser.error(f"no C harness at {args.c_harness} (make bench builds it)")
    t_start = time.time()
    if args.scale:
        return main_scale(args, sys.executable, t_start)
    python, skip_reason = ensure_objectbox(sys.executable)
    if skip_reason:
        log(f"ObjectBox: skipped ({skip_reason})")
    return main_default(args, python, skip_reason, t_start)


if __name__ == "__main__":
    sys.exit(main())
