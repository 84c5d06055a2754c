#!/usr/bin/env python3
"""chart.py — draws `make bench`'s ratios (bench/results/latest.json, written by bench/run.py) as
bench/results/latest.png and latest.svg: one panel per language (C, Python, Swift), one group of
bars per step (Person steps, then the Task workload's), one bar per peer, the height Drumlin ÷
peer on a log scale (above 1 Drumlin is faster), a line at 1× and a short line at each target.

    bench/.venv/bin/python bench/chart.py bench/results/latest.json bench/results/latest

Needs matplotlib (bench/run.py installs it into bench/.venv); draws with the Agg backend, no display.
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402

LANGUAGES = ["C", "Python", "Swift"]
PERSON_STEPS = ["insert", "get", "lookup", "range", "update", "delete"]
TASK_STEPS = ["insert", "get", "iterate", "update"]
COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2"]


def groups(ratios: list[dict], language: str) -> list[tuple[str, str, str]]:
    """(workload, step, label) of the language's bars, in order."""
    out = []
    for workload, steps in (("Person", PERSON_STEPS), ("Task", TASK_STEPS)):
        for step in steps:
            if any(r["language"] == language and r["workload"] == workload and r["step"] == step for r in ratios):
                out.append((workload, step, step if workload == "Person" else f"Task\n{step}"))
    return out


def draw(data: dict, out_base: str) -> None:
    ratios = data["ratios"]
    languages = [lang for lang in LANGUAGES if any(r["language"] == lang for r in ratios)]
    if not languages:
        raise SystemExit("chart.py: no ratios to draw")
    fig, axes = plt.subplots(len(languages), 1, figsize=(12, 3.6 * len(languages)), squeeze=False)
    for ax, language in zip(axes[:, 0], languages):
        mine = [r for r in ratios if r["language"] == language]
        peers = list(dict.fromkeys(r["peer"] for r in mine))
        slots = groups(ratios, language)
        width = 0.8 / max(1, len(peers))
        for p, peer in enumerate(peers):
            xs, ys = [], []
            for g, (workload, step, _label) in enumerate(slots):
                for r in mine:
                    if r["peer"] == peer and r["workload"] == workload and r["step"] == step:
                        x = g - 0.4 + width * (p + 0.5)
                        xs.append(x)
                        ys.append(r["ratio"])
                        if r.get("target"):
                            ax.hlines(r["target"], x - width / 2, x + width / 2, colors="black", linewidth=2)
            ax.bar(xs, ys, width * 0.92, label=f"÷ {peer}", color=COLORS[p % len(COLORS)])
            for x, y in zip(xs, ys):
                ax.annotate(f"{y:.2g}", (x, y), ha="center", va="bottom", fontsize=6.5)
        ax.axhline(1.0, color="grey", linewidth=0.8, linestyle="--")
        ax.set_yscale("log")
        ax.yaxis.set_major_locator(matplotlib.ticker.LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax.yaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda y, _pos: f"{y:g}×"))
        ax.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.set_xticks(range(len(slots)), [label for _, _, label in slots], fontsize=8)
        ax.set_ylabel("Drumlin ÷ peer (log)")
        ax.set_title(f"{language}", loc="left", fontsize=11, fontweight="bold")
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
        ax.grid(axis="y", which="both", alpha=0.25)
    fig.suptitle(data.get("title", "Drumlin ÷ peer") + "  (black bars: targets; dashed: 1×)", fontsize=11)
    fig.tight_layout()
    fig.savefig(out_base + ".png", dpi=110)
    fig.savefig(out_base + ".svg")


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-3].strip(), file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        draw(json.load(f), sys.argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main())
