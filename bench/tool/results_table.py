#!/usr/bin/env python3
"""Markdown tables from octree_bench JSON files (bench/results/*.json), for bench/README.md.

usage: results_table.py LEVEL.json... [--scaling SCALING.json]
"""
import json
import sys

KINDS = ("ray", "sphere", "capsule", "box")
# (label in the tables, key under "peers")
PEERS = (("Embree 3", "embree"), ("Bullet", "bullet"), ("Bullet contactTest", "bullet_contact"))


def agreement_cell(e):
    """Worst non-grazing agreement over the kinds; kinds whose agreement is informational
    (bullet_contact's overlaps: contact points, not exact counts) are shown apart."""
    exact, info = [], []
    for k in KINDS:
        a = e["kinds"][k]["agreement_with_octree"]
        if a.get("informational"):
            info.append(a["agreement"])
        else:
            exact.append(a["agreement_non_grazing"])
    cell = "%.4f" % min(exact) if exact else ""
    if info:
        cell += "%s%.4f informational" % ("; " if cell else "", min(info))
    return cell


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
    out.append("| Level | triangles | engine | build ms | B/tri (total) | ray/s | sphere/s | capsule/s | box/s |")
    out.append("|---|---:|---|---:|---:|---:|---:|---:|---:|")
    for name, j, peers in rows:
        out.append("| %s | %d | **octree** | %.1f | %.1f | %s |" % (
            name, j["triangles"], j["build_ms"], j["bytes_per_triangle"],
            " | ".join(fmt_rate(j["kinds"][k]["queries_per_second"]) for k in KINDS)))
        for label, e in peers:
            if "kinds" not in e:
                continue
            out.append("| | | %s | %.1f | %.1f | %s |" % (
                label, e["build_ms"], e["bytes_per_triangle"],
                " | ".join(fmt_rate(e["kinds"][k]["queries_per_second"]) for k in KINDS)))
        if "oracle" in j:
            o = j["oracle"]
            out.append("| | | brute force | | | %s |" % " | ".join(
                fmt_rate(o["kinds"][k]["queries_per_second"]) for k in KINDS))
    out.append("")
    out.append("Ratios from the same runs (octree ÷ peer; throughput > 1 and build/memory < 1 favour the octree):")
    out.append("")
    out.append("| Level | vs | ray | sphere | capsule | box | build time | memory | agreement (non-grazing) |")
    out.append("|---|---|---:|---:|---:|---:|---:|---:|---|")
    for name, j, peers in rows:
        for label, e in peers:
            if "kinds" not in e:
                continue
            out.append("| %s | %s | %s | %.2f× | %.2f× | %s |" % (
                name, label.replace("Embree 3", "Embree"),
                " | ".join("%.2f×" % e["kinds"][k]["ours_over_peer"] for k in KINDS),
                e["build_time_ratio"], e["memory_ratio"], agreement_cell(e)))
        if "oracle" in j:
            o = j["oracle"]
            agree = min(o["kinds"][k]["octree_agreement"]["agreement_non_grazing"] for k in KINDS)
            out.append("| %s | brute force | %s | | | %.4f (first %d of each kind) |" % (
                name, " | ".join("%.0f×" % o["kinds"][k]["speedup"] for k in KINDS), agree,
                o["kinds"]["ray"]["count"]))
    return "\n".join(out)


def scaling_table(path):
    j = json.load(open(path))
    out = ["| triangles | copies | engine | build ms | build ms / (n log2 n) × 1e6 | B/tri | ray/s | sphere/s | capsule/s | box/s |",
           "|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|"]
    import math
    for r in j["scaling"]:
        n = r["triangles"]
        nlogn = n * math.log2(n)
        out.append("| %d | %d | octree | %.1f | %.3f | %.1f | %s |" % (
            n, r["copies_of_level"], r["build_ms"], r["build_ms"] / nlogn * 1e6,
            r["bytes_per_triangle"],
            " | ".join(fmt_rate(r["kinds"][k]["queries_per_second"]) for k in KINDS)))
        for label, key in PEERS:
            e = r.get("peers", {}).get(key, {})
            if "kinds" not in e:
                continue
            out.append("| | | %s | %.1f | %.3f | %.1f | %s |" % (
                label, e["build_ms"], e["build_ms"] / nlogn * 1e6, e["bytes_per_triangle"],
                " | ".join(fmt_rate(e["kinds"][k]["queries_per_second"]) for k in KINDS)))
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
