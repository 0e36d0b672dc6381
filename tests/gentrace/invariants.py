#!/usr/bin/env python3
"""Check the structural promises tl-gentrace makes about its traces.

usage: invariants.py [-j] trace.json[.gz] ...

For each file prints "ok json FILE" once it parses with the json module
and, unless -j, "ok invariants FILE" when every structural promise
holds; otherwise "FAIL ..." lines.  Exits 1 if anything failed.  One
process checks many files because starting Python is the slow part.
"""
import decimal
import gzip
import json
import os
import re
import sys
from collections import defaultdict


def load(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rb") as f:
        raw = f.read()
    # Exact decimals by default: the generator promises nesting in the
    # text; TL_FLOAT=1 checks what a consumer parsing doubles sees.
    if os.environ.get("TL_FLOAT"):
        return raw, json.loads(raw)
    return raw, json.loads(raw, parse_float=decimal.Decimal)


def check(path, raw, d):
    bad = []

    def fail(msg):
        if len(bad) < 30:
            bad.append(msg)

    for k in ("schemaVersion", "deviceProperties", "distributedInfo",
              "traceEvents", "traceName"):
        if k not in d:
            fail("missing top-level key %s" % k)
    keys = list(d.keys())
    if keys.index("traceName") < keys.index("traceEvents"):
        fail("traceName before traceEvents")

    # Kineto prints times with exactly three decimals.
    for m in re.finditer(rb'"(ts|dur)": ?(-?[0-9.eE+]+)', raw):
        if not re.fullmatch(rb"-?[0-9]+\.[0-9]{3}", m.group(2)):
            fail("time without 3 decimals: %r" % m.group(0))
            break

    ev = d["traceEvents"]
    host = [e for e in ev if e.get("ph") == "X" and e.get("cat") in
            ("cpu_op", "user_annotation", "python_function",
             "cuda_runtime", "cuda_driver")]
    gpu = [e for e in ev if e.get("ph") == "X" and e.get("cat") in
           ("kernel", "gpu_memcpy", "gpu_memset")]
    if not host or not gpu:
        fail("no host or no GPU events")

    # Strict nesting per host thread, apart from rare sub-us bleeds.
    bleeds = 0
    bythr = defaultdict(list)
    for e in host:
        bythr[(e["pid"], e["tid"])].append(e)
    enclosing = {}
    for k, lst in bythr.items():
        lst.sort(key=lambda e: (e["ts"], -e["dur"]))
        stack = []
        for e in lst:
            s, t = e["ts"], e["ts"] + e["dur"]
            while stack and stack[-1]["ts"] + stack[-1]["dur"] <= s:
                stack.pop()
            if stack:
                p = stack[-1]
                pe = p["ts"] + p["dur"]
                if t > pe:
                    if t - pe < 1:
                        bleeds += 1
                    else:
                        fail("bleed > 1us: %s in %s" % (e["name"],
                                                        p["name"]))
                    continue
                if s == p["ts"] or t == pe:
                    fail("child not strictly inside: %s in %s" %
                         (e["name"], p["name"]))
            if e["cat"] in ("cuda_runtime", "cuda_driver"):
                for q in reversed(stack):
                    if q["cat"] in ("cpu_op", "user_annotation"):
                        enclosing[id(e)] = q
                        break
            stack.append(e)
    nsteps = sum(1 for e in host if e["name"].startswith("ProfilerStep#"))
    if bleeds > nsteps:
        fail("too many bleeds: %d for %d steps" % (bleeds, nsteps))

    # Runtime External id is the innermost enclosing op's.
    rt = {}
    for e in host:
        if e["cat"] in ("cuda_runtime", "cuda_driver"):
            rt[e["args"]["correlation"]] = e
            q = enclosing.get(id(e))
            x = e["args"].get("External id")
            if q is not None and x is not None and \
                    x != q["args"]["External id"]:
                fail("runtime %s External id %s != enclosing %s" %
                     (e["name"], x, q["args"]["External id"]))

    # GPU work: after its launch, serialised per stream.
    bystream = defaultdict(list)
    for g in gpu:
        c = g["args"].get("correlation")
        r = rt.get(c)
        if r is None:
            fail("GPU event without runtime call: corr %s" % c)
        elif not g["ts"] > r["ts"]:
            fail("GPU event %s starts before its launch" % g["name"])
        bystream[(g["pid"], g["tid"])].append(g)
    for k, lst in bystream.items():
        lst.sort(key=lambda g: g["ts"])
        for a, b in zip(lst, lst[1:]):
            if b["ts"] < a["ts"] + a["dur"]:
                fail("overlap on stream %s: %s / %s" % (k, a["name"][:40],
                                                       b["name"][:40]))

    # ac2g flows: one start at the launch, one finish per GPU event.
    starts, fins = {}, defaultdict(list)
    for e in ev:
        if e.get("cat") == "ac2g":
            if e["ph"] == "s":
                if e["id"] in starts:
                    fail("duplicate ac2g start %s" % e["id"])
                starts[e["id"]] = e
            elif e["ph"] == "f":
                fins[e["id"]].append(e)
    for g in gpu:
        c = g["args"]["correlation"]
        if c not in starts:
            fail("no ac2g start for %s" % c)
        elif c in rt and starts[c]["ts"] != rt[c]["ts"]:
            fail("ac2g start ts != launch ts for %s" % c)
        if not any(f["ts"] == g["ts"] and f["tid"] == g["tid"]
                   for f in fins.get(c, [])):
            fail("no ac2g finish for %s" % c)

    # Backward nodes pair with forward ops by Sequence number.
    fwdseq, bwdseq = set(), set()
    for e in host:
        a = e.get("args", {})
        if "Sequence number" in a:
            if "Fwd thread id" in a:
                bwdseq.add(a["Sequence number"])
            else:
                fwdseq.add(a["Sequence number"])
    if not bwdseq or not bwdseq <= fwdseq:
        fail("backward sequence numbers without forward op: %s" %
             sorted(bwdseq - fwdseq)[:5])

    # Python parents exist; Ev Idx is unique.
    pyids = {e["args"]["Python id"] for e in host
             if e["cat"] == "python_function"}
    for e in host:
        if e["cat"] == "python_function":
            p = e["args"]["Python parent id"]
            if p is not None and p not in pyids:
                fail("dangling Python parent id %s" % p)
    idx = [e["args"]["Ev Idx"] for e in ev
           if isinstance(e.get("args"), dict) and "Ev Idx" in e["args"]]
    if len(idx) != len(set(idx)):
        fail("Ev Idx not unique")

    # Graph replays share one correlation among several kernels.
    percorr = defaultdict(int)
    for g in gpu:
        percorr[g["args"]["correlation"]] += 1
    graphs = [r for r in rt.values() if r["name"].endswith("GraphLaunch")]
    for r in graphs:
        if percorr[r["args"]["correlation"]] < 2:
            fail("graph launch with fewer than two kernels")

    return bad


def main():
    args = sys.argv[1:]
    jsononly = bool(args) and args[0] == "-j"
    if jsononly:
        args = args[1:]
    failed = False
    for path in args:
        try:
            raw, d = load(path)
        except (OSError, ValueError) as e:
            print("FAIL json %s: %s" % (path, e))
            failed = True
            continue
        print("ok json %s" % path)
        if jsononly:
            continue
        try:
            bad = check(path, raw, d)
        except (KeyError, TypeError, ValueError) as e:
            bad = ["malformed event: %r" % e]
        for m in bad:
            print("FAIL invariants %s: %s" % (path, m))
        if bad:
            failed = True
        else:
            print("ok invariants %s" % path)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
