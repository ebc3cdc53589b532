#!/usr/bin/env python3
"""Markdown tables from octree_bench JSON files (bench/results/*.json), for bench/README.md.

usage: results_table.py LEVEL.json... [--scaling SCALING.json]
"""
import json
import sys

# ray_any: the query file's rays answered again by any-hit casts (rayAny, rtcOccluded1). JSON
# written before it existed lacks it; its cells are then "-".
KINDS = ("ray", "sphere", "capsule", "box", "ray_any")
# (label in the tables, key under "peers")
PEERS = (("Embree 3", "embree"), ("Bullet", "bullet"), ("Bullet contactTest", "bullet_contact"))


def agreement_cell(e):
    """Worst non-grazing agreement over the kinds; kinds whose agreement is informational
    (bullet_contact's overlaps: contact points, not exact counts) are shown apart."""
    exact, info = [], []
    for k in KINDS:
        if k not in e["kinds"]:
            continue
        a = e["kinds"][k]["agreement_with_octree"]
        if a.get("informational"):
            info.append(a["agreement"])
        else:
            exact.append(a["agreement_non_grazing"])
    cell = "%.4f" % min(exact) if exact else ""
    if info:
        cell += "%s%.4f informational" % ("; " if cell else "", min(info))
    return cell


def rate_cells(kinds):
    return " | ".join(fmt_rate(kinds[k]["queries_per_second"]) if k in kinds else "-"
                      for k in KINDS)


def ratio_cells(kinds, key, fmt):
    return " | ".join(fmt % kinds[k][key] if k in kinds and key in kinds[k] else "-"
                      for k in KINDS)


def fmt_rate(x):
    if x >= 1e6:
        return "%.2f M" % (x / 1e6)
    return "%.0f k" % (x / 1e3) if x >= 1e4 else "%.1f k" % (x / 1e3)


def level_tables(paths):
    rows = []
    for p in paths:
        j = json.load(open(p))
        name = p.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        peers = j.get("peers", {})
        rows.append((name, j, [(label, peers.get(key, {})) for label, key in PEERS]))
    out = []
    out.append("| Level | triangles | engine | build ms | B/tri (total) | ray/s | sphere/s | capsule/s | box/s | ray_any/s |")
    out.append("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, j, peers in rows:
        out.append("| %s | %d | **octree** | %.1f | %.1f | %s |" % (
            name, j["triangles"], j["build_ms"], j["bytes_per_triangle"],
            rate_cells(j["kinds"])))
        for label, e in peers:
            if "kinds" not in e:
                continue
            out.append("| | | %s | %.1f | %.1f | %s |" % (
                label, e["build_ms"], e["bytes_per_triangle"], rate_cells(e["kinds"])))
        if "oracle" in j:
            o = j["oracle"]
            out.append("| | | brute force | | | %s |" % rate_cells(o["kinds"]))
    out.append("")
    out.append("Ratios from the same runs (octree ÷ peer; throughput > 1 and build/memory < 1 favour the octree):")
    out.append("")
    out.append("| Level | vs | ray | sphere | capsule | box | ray_any | build time | memory | agreement (non-grazing) |")
    out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for name, j, peers in rows:
        for label, e in peers:
            if "kinds" not in e:
                continue
            out.append("| %s | %s | %s | %.2f× | %.2f× | %s |" % (
                name, label.replace("Embree 3", "Embree"),
                ratio_cells(e["kinds"], "ours_over_peer", "%.2f×"),
                e["build_time_ratio"], e["memory_ratio"], agreement_cell(e)))
        if "oracle" in j:
            o = j["oracle"]
            agree = min(o["kinds"][k]["octree_agreement"]["agreement_non_grazing"] for k in KINDS
                        if k in o["kinds"])
            out.append("| %s | brute force | %s | | | %.4f (first %d of each kind) |" % (
                name, ratio_cells(o["kinds"], "speedup", "%.0f×"), agree,
                o["kinds"]["ray"]["count"]))
    return "\n".join(out)


def scaling_table(path):
    j = json.load(open(path))
    out = ["| triangles | copies | engine | build ms | build ms / (n log2 n) × 1e6 | B/tri | ray/s | sphere/s | capsule/s | box/s | ray_any/s |",
           "|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    import math
    for r in j["scaling"]:
        n = r["triangles"]
        nlogn = n * math.log2(n)
        out.append("| %d | %d | octree | %.1f | %.3f | %.1f | %s |" % (
            n, r["copies_of_level"], r["build_ms"], r["build_ms"] / nlogn * 1e6,
            r["bytes_per_triangle"], rate_cells(r["kinds"])))
        for label, key in PEERS:
            e = r.get("peers", {}).get(key, {})
            if "kinds" not in e:
                continue
            out.append("| | | %s | %.1f | %.3f | %.1f | %s |" % (
                label, e["build_ms"], e["build_ms"] / nlogn * 1e6, e["bytes_per_triangle"],
                rate_cells(e["kinds"])))
    return "\n".join(out)


def main():
    args = sys.argv[1:]
    scaling = None
    if "--scaling" in args:
        i = args.index("--scaling")
        scaling = args[i + 1]
        del args[i:i + 2]
    if args:
        print(level_tables(args))
    if scaling:
        print()
        print(scaling_table(scaling))


if __name__ == "__main__":
    main()
