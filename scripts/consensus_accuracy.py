#!/usr/bin/env python3
"""Couzin-style accuracy of a `flockscope consensus` study, and static against dynamic bias
on paired seeds. Reads STUDY/runs.csv (every scout biased right: the informed majority's
side is +x). A trial is accurate when its naive_heading (the naive boids' mean x-heading over
the study's heading window, sweep.json, up to the decision) is > 0. Writes STUDY/accuracy.csv (one row per point,
Wilson 95 % intervals), STUDY/paired.csv (dynamic minus static per point: the mean of the
paired differences with a normal 95 % interval) and per-group-size series for
`flockscope plot` (STUDY/accuracy-N<boids>-<bias>-<target>.csv); prints Markdown tables.
Usage: scripts/consensus_accuracy.py STUDY"""
import csv
import json
import math
import os
import sys
from collections import defaultdict

Z = 1.959963984540054


def wilson(k, n):
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    p = k / n
    d = 1 + Z * Z / n
    c = (p + Z * Z / (2 * n)) / d
    h = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / d
    return p, max(0.0, c - h), min(1.0, c + h)


def main(study):
    spec = json.load(open(os.path.join(study, "sweep.json")))
    rows = list(csv.DictReader(open(os.path.join(study, "runs.csv"))))
    if not rows:
        sys.exit(f"{study}/runs.csv: no runs")
    keys = [g["key"] for g in spec["grid"]]
    for k in ("informed", "boids"):
        if k not in keys:
            sys.exit(f"{study}: the study must sweep {k}")
    bias_key = "dynamicbias" if "dynamicbias" in keys else None
    target_key = "bias_target" if "bias_target" in keys else None
    base = spec["params"]

    def label(r, k, default):
        return r[k] if k else default

    acc = defaultdict(lambda: [0, 0, 0])  # point -> [accurate, decided right, trials]
    paired = defaultdict(dict)  # (boids, informed, target) -> rep -> {bias: accurate}
    for r in rows:
        if r["naive_heading"] in ("NA", ""):
            continue
        bias = label(r, bias_key, str(base.get("dynamicbias", False)).lower())
        target = label(r, target_key, base.get("bias_target", "unit"))
        point = (int(r["boids"]), float(r["informed"]), bias, target)
        good = float(r["naive_heading"]) > 0
        a = acc[point]
        a[0] += good
        a[1] += r["decision"] == "1"
        a[2] += 1
        paired[(point[0], point[1], target)].setdefault(int(r["rep"]), {})[bias] = good

    window = spec.get("heading_window", [0, spec["steps"]])
    last = min(window[1], spec["steps"])
    print(f"Accuracy: share of trials with the naive boids' mean x-heading over steps {window[0]}..{last} "
          "(up to the decision) > 0 "
          f"(Wilson 95 % CI); {spec['reps']} trials per point, {spec['steps']} steps.\n")
    with open(os.path.join(study, "accuracy.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["boids", "informed", "dynamicbias", "bias_target", "trials", "accuracy", "lo", "hi", "p_right"])
        print("| N | informed | bias | target | trials | accuracy [95 % CI] | P(right) |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for point in sorted(acc):
            k, right, n = acc[point]
            p, lo, hi = wilson(k, n)
            w.writerow([*point, n, f"{p:.4f}", f"{lo:.4f}", f"{hi:.4f}", f"{right / n:.4f}"])
            bias = "dynamic" if point[2] == "true" else "static"
            print(f"| {point[0]} | {point[1]:g} | {bias} | {point[3]} | {n} | {p:.2f} [{lo:.2f}, {hi:.2f}] | {right / n:.2f} |")
    # Series for the plots: accuracy against the informed share, one file per group size.
    series = defaultdict(list)
    for point in sorted(acc):
        k, _, n = acc[point]
        series[(point[0], point[2], point[3])].append((point[1], *wilson(k, n)))
    for (boids, bias, target), pts in series.items():
        name = f"accuracy-N{boids}-{'dynamic' if bias == 'true' else 'static'}-{target}.csv"
        with open(os.path.join(study, name), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["informed", "accuracy", "lo", "hi"])
            for x, p, lo, hi in pts:
                w.writerow([x, f"{p:.4f}", f"{lo:.4f}", f"{hi:.4f}"])
    if bias_key:
        print("\nDynamic minus static accuracy on paired seeds (trial r of both starts from the same seed): "
              "mean of the paired differences, normal 95 % CI.\n")
        print("| N | informed | target | pairs | static | dynamic | dynamic - static [95 % CI] |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        with open(os.path.join(study, "paired.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["boids", "informed", "bias_target", "pairs", "static", "dynamic", "diff", "lo", "hi"])
            for key in sorted(paired):
                d = [int(v["true"]) - int(v["false"]) for v in paired[key].values() if "true" in v and "false" in v]
                s = [int(v["false"]) for v in paired[key].values() if "true" in v and "false" in v]
                n = len(d)
                if n < 2:
                    continue
                m = sum(d) / n
                sd = math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1))
                h = Z * sd / math.sqrt(n)
                st = sum(s) / n
                w.writerow([*key, n, f"{st:.4f}", f"{st + m:.4f}", f"{m:.4f}", f"{m - h:.4f}", f"{m + h:.4f}"])
                print(f"| {key[0]} | {key[1]:g} | {key[2]} | {n} | {st:.2f} | {st + m:.2f} | {m:+.2f} [{m - h:+.2f}, {m + h:+.2f}] |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
