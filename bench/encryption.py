#!/usr/bin/env python3
"""Encrypted against unencrypted Drumlin on the same workload (issue 50, docs/encryption.md): the C
harness's typed system runs insert, get and range on a plain file and on an encrypted one
(DRUMLIN_BENCH_ENCRYPTED=1), runs alternating, and prints the median times and their ratio as a
Markdown table. The target is within 1.3x for each step.

    bench/encryption.py --harness build/bench/drumlin-bench [--n 100000] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

STEPS = ("insert", "get", "range")
TARGET = 1.3


def run(harness: str, n: int, encrypted: bool) -> dict[str, float]:
    env = dict(os.environ, DRUMLIN_BENCH_ENCRYPTED="1" if encrypted else "0")
    result = subprocess.run(
        [harness, "--n", str(n), "--runs", "1", "--systems", "typed", "--steps", ",".join(STEPS)],
        capture_output=True, text=True, env=env, check=True,
    )
    seconds: dict[str, float] = {}
    for line in result.stdout.splitlines():
        record = json.loads(line)
        if record.get("step") in STEPS:
            seconds[record["step"]] = record["seconds"]
    missing = [s for s in STEPS if s not in seconds]
    if missing:
        sys.exit(f"encryption.py: the harness reported no {', '.join(missing)} ({'encrypted' if encrypted else 'plain'})")
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--harness", required=True)
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    plain: dict[str, list[float]] = {s: [] for s in STEPS}
    encrypted: dict[str, list[float]] = {s: [] for s in STEPS}
    for _ in range(args.runs):
        for step, value in run(args.harness, args.n, False).items():
            plain[step].append(value)
        for step, value in run(args.harness, args.n, True).items():
            encrypted[step].append(value)
    print(f"\n### Encrypted vs unencrypted Drumlin (C, typed; N={args.n}, median of {args.runs} runs)\n")
    print("| step | unencrypted s | encrypted s | ratio | within 1.3x |")
    print("|---|---:|---:|---:|---|")
    for step in STEPS:
        p, e = statistics.median(plain[step]), statistics.median(encrypted[step])
        ratio = e / p if p > 0 else float("inf")
        print(f"| {step} | {p:.4f} | {e:.4f} | {ratio:.2f}x | {'yes' if ratio <= TARGET else 'no'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
