#!/usr/bin/env python3
"""The numbers docs/experiments.md quotes from `flockscope run` folders, as Markdown.

  experiment_numbers.py runs LABEL=DIR ...       one line per run (seed 1 figures)
  experiment_numbers.py seeds LABEL DIR ...      the same preset over several seeds
  experiment_numbers.py views LABEL=DIR ...      polarisation range and final diameter
  experiment_numbers.py sweep DIR KEY            a sweep's runs.csv summarised per value of KEY
  experiment_numbers.py formation DIR            a sweep's formation times and diameters
  experiment_numbers.py check-literal DIR ...    exits 1 unless the runs reach one flock in at
                                                 least 80 % of them and hold more boids at the
                                                 walls x = 0, y = 0 than at x = W, y = H

Per run: the clusters (the run's vision as link radius, as metrics.csv counts them) from t = 50 on, the first
time the boids are one cluster, the diameter from t = 50 on, the centroid's range from t = 50
on, and at the last step how many boids are within 10 px of each wall."""
import csv
import json
import os
import sys

WALL = 10.0


def read_run(d):
    params = json.load(open(os.path.join(d, "run.json")))["params"]
    rows = list(csv.DictReader(open(os.path.join(d, "metrics.csv"))))
    final = list(csv.DictReader(open(os.path.join(d, "final_state.csv"))))
    w, h = float(params["width"]), float(params["height"])
    late = [r for r in rows if float(r["time"]) >= 50] or rows  # short runs (--quick): all of it
    one = [float(r["time"]) for r in rows if int(r["clusters"]) == 1]
    xs = [float(b["x"]) for b in final]
    ys = [float(b["y"]) for b in final]
    return {
        "clusters": (min(int(r["clusters"]) for r in late), max(int(r["clusters"]) for r in late)),
        "first_one": one[0] if one else None,
        "diameter": (min(float(r["diameter"]) for r in late), max(float(r["diameter"]) for r in late)),
        "cx": (min(float(r["centroid_x"]) for r in late), max(float(r["centroid_x"]) for r in late)),
        "cy": (min(float(r["centroid_y"]) for r in late), max(float(r["centroid_y"]) for r in late)),
        "x0": sum(x < WALL for x in xs), "xw": sum(x > w - WALL for x in xs),
        "y0": sum(y < WALL for y in ys), "yh": sum(y > h - WALL for y in ys),
        "time": float(rows[-1]["time"]),
        "global": params.get("rules") == "report" and not (0 < float(params.get("D_vis", 0)) < float("inf")),
    }


def rng(p, f="{:.0f}"):
    return f"{f.format(p[0])}-{f.format(p[1])}"


def runs(args):
    print("| run | clusters from t = 50 | first one flock | diameter from t = 50 | centroid x, y from t = 50 | "
          "boids within 10 px of x = 0 / y = 0 / x = W / y = H at the end |")
    print("| --- | --- | --- | --- | --- | --- |")
    for a in args:
        label, d = a.split("=", 1)
        r = read_run(d)
        first = "never" if r["first_one"] is None else f"t = {r['first_one']:g}"
        if r["global"]:
            first = "- (infinite vision: one cluster by definition)"
        print(f"| {label} | {rng(r['clusters'])} | {first} | {rng(r['diameter'], '{:.1f}')} | "
              f"x {rng(r['cx'])}, y {rng(r['cy'])} | {r['x0']} / {r['y0']} / {r['xw']} / {r['yh']} |")


def seeds(label, dirs):
    rs = [read_run(d) for d in dirs]
    reached = sum(r["first_one"] is not None for r in rs)
    low = sum(r["x0"] + r["y0"] for r in rs)
    high = sum(r["xw"] + r["yh"] for r in rs)
    firsts = sorted(r["first_one"] for r in rs if r["first_one"] is not None)
    fmin = f"{firsts[0]:g}" if firsts else "-"
    fmax = f"{firsts[-1]:g}" if firsts else "-"
    print(f"| {label} | {len(rs)} | {reached} | {fmin}-{fmax} | "
          f"{min(r['clusters'][0] for r in rs)}-{max(r['clusters'][1] for r in rs)} | "
          f"{sum(r['x0'] for r in rs)} / {sum(r['y0'] for r in rs)} | {sum(r['xw'] for r in rs)} / {sum(r['yh'] for r in rs)} |")
    return reached, low, high, len(rs)


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    if argv[1] == "runs":
        runs(argv[2:])
    elif argv[1] == "views":
        print("| view | polarisation over the run (min-max) | diameter at the end |")
        print("| --- | --- | --- |")
        for a in argv[2:]:
            label, d = a.split("=", 1)
            rows = list(csv.DictReader(open(os.path.join(d, "metrics.csv"))))
            pol = [float(r["polarisation"]) for r in rows[1:]]
            print(f"| {label} | {min(pol):.2f}-{max(pol):.2f} | {float(rows[-1]['diameter']):.0f} |")
    elif argv[1] == "sweep":
        # sweep DIR KEY: per value of KEY, the share of runs that formed, the mean of the
        # time-mean diameter and of the formation time (runs that formed).
        rows = list(csv.DictReader(open(os.path.join(argv[2], "runs.csv"))))
        key = argv[3]
        print(f"| {key} | runs | formed | time-mean diameter (mean) | formation time (mean of formed) |")
        print("| --- | --- | --- | --- | --- |")
        groups = {}
        for r in rows:
            groups.setdefault(r[key], []).append(r)
        for v in sorted(groups, key=lambda t: float(t) if t not in ("inf",) else float("inf")):
            g = groups[v]
            formed = [float(r["formed_time"]) for r in g if r["formed"] == "1"]
            md = sum(float(r["mean_diameter"]) for r in g) / len(g)
            ft = f"{sum(formed) / len(formed):.1f}" if formed else "-"
            print(f"| {v} | {len(g)} | {len(formed)} | {md:.1f} | {ft} |")
    elif argv[1] == "formation":
        # formation DIR: a sweep's formation times (median, quartiles, range) and the spread of
        # its time-mean and final diameters.
        rows = list(csv.DictReader(open(os.path.join(argv[2], "runs.csv"))))
        t = sorted(float(r["formed_time"]) for r in rows if r["formed"] == "1")

        def q(f):
            k = (len(t) - 1) * f
            lo, hi = int(k), min(int(k) + 1, len(t) - 1)
            return t[lo] + (t[hi] - t[lo]) * (k - lo)

        def mean_sd(key):
            v = [float(r[key]) for r in rows]
            m = sum(v) / len(v)
            return m, (sum((x - m) ** 2 for x in v) / max(1, len(v) - 1)) ** 0.5

        md, mf = mean_sd("mean_diameter"), mean_sd("final_diameter")
        if t:
            print(f"{len(rows)} runs: formed in {len(t)}; first formed at median t = {q(0.5):g} (quartiles {q(0.25):g} "
                  f"and {q(0.75):g}, range {t[0]:g}-{t[-1]:g}); time-mean diameter {md[0]:.1f} +- {md[1]:.1f}, "
                  f"final {mf[0]:.1f} +- {mf[1]:.1f}")
        else:
            print(f"{len(rows)} runs: none formed")
    elif argv[1] == "seeds-header":
        print("| preset | seeds | one flock reached | first time one flock | clusters from t = 50 (min-max) | "
              "at the end within 10 px of x = 0 / y = 0 | of x = W / y = H |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
    elif argv[1] == "seeds":
        seeds(argv[2], argv[3:])
    elif argv[1] == "check-literal":
        rs = [read_run(d) for d in argv[2:]]
        reached = sum(r["first_one"] is not None for r in rs)
        low = sum(r["x0"] + r["y0"] for r in rs)
        high = sum(r["xw"] + r["yh"] for r in rs)
        ok = reached >= 0.8 * len(rs) and low > high
        print(f"literal D_vis = 10: one flock in {reached} of {len(rs)} runs; {low} boids at x = 0 / y = 0 "
              f"against {high} at x = W / y = H: {'holds' if ok else 'DOES NOT HOLD'}")
        sys.exit(0 if ok else 1)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
