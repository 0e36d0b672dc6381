#!/usr/bin/python3
# The oracle of the tl-tree cases: TraceLens's own tree of a trace, dumped in
# the formats of tl(7) (ops.tsv, gpu.tsv, intervals.tsv, meta.tsv) into
# OUTDIR, with facts.tsv (host_events_dropped, gpu_events_unlinked,
# linking_key).  Not a case (no cmd); run it with Debian's python3:
#   TRACELENS=/work/tracelens /usr/bin/python3 tracelens_tree.py T.json DIR
# usage: tracelens_tree.py TRACE.json OUTDIR [--python]
import json, sys, os, gzip, io, contextlib
sys.path.insert(0, os.environ.get("TRACELENS", "/work/tracelens"))
from TraceLens.Trace2Tree.trace_to_tree import TraceToTree

path, outdir = sys.argv[1], sys.argv[2]
pyf = "--python" in sys.argv
raw = gzip.open(path).read() if path.endswith(".gz") else open(path, "rb").read()
class Num(str): pass
def enc(v):
    if isinstance(v, Num): return str(v)
    if isinstance(v, str): return json.dumps(v, ensure_ascii=False)
    if v is True: return "true"
    if v is False: return "false"
    if v is None: return "null"
    if isinstance(v, list): return "[" + ",".join(enc(x) for x in v) + "]"
    if isinstance(v, dict): return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + enc(x) for k, x in v.items()) + "}"
def cell(v):
    if v is None: return ""
    if isinstance(v, Num): s = str(v)
    elif isinstance(v, str): s = v
    elif v is True: s = "true"
    elif v is False: s = "false"
    else: s = enc(v)
    return s.replace("\\","\\\\").replace("\t","\\t").replace("\n","\\n").replace("\r","\\r").replace("\0","\\0")
rd = json.loads(raw, parse_int=Num, parse_float=Num)
rev = rd["traceEvents"] if isinstance(rd, dict) else rd
d = json.loads(raw)
ev = d["traceEvents"] if isinstance(d, dict) else d
with contextlib.redirect_stdout(io.StringIO()):
    tree = TraceToTree(ev)
    tree.build_tree(add_python_func=pyf)
E = tree.events_by_uid
def rawf(uid, k):
    e = rev[uid]
    if k in ("ph","cat","name","pid","tid","ts","dur","id","bp"):
        return cell(e.get(k)) if k in e else ""
    a = e.get("args") if isinstance(e.get("args"), dict) else {}
    return cell(a[k]) if k in a else ""
GPU = {"kernel","gpu_memcpy","gpu_memset"}
HOST = {"cpu_op","cuda_runtime","cuda_driver"} | ({"python_function"} if pyf else set())
INP = ["Input Dims","Input type","Input Strides","Concrete Inputs"]
def par(e):
    p = e.get("parent")
    return None if p is None else E[p]
def root(e):
    while e.get("parent") is not None:
        e = E[e["parent"]]
    return e
def launcher(k):
    rt = par(k)
    if rt is None: return None
    cur = par(rt)
    while cur is not None:
        c = cur.get("cat")
        if c == "cpu_op":
            if cur.get("name") == "execute":
                cur = par(cur); continue
            return cur
        elif c == "python_function":
            cur = par(cur)
        else:
            break
    return rt
def nearest_cpu(k):
    cur = par(par(k))
    while cur is not None:
        if cur.get("cat") == "cpu_op": return cur
        cur = par(cur)
    return None
def is_comm(n):
    n = n.lower()
    return "nccl" in n or "rccl" in n or "cross_device_reduce" in n
os.makedirs(outdir, exist_ok=True)
with open(os.path.join(outdir, "gpu.tsv"), "w") as f:
    f.write("UID\tcat\tname\tpid\ttid\tstream\tts\tdur\tcorrelation\tlinked\truntime\truntime_name\tlauncher\tlauncher_name\tcpu_op\tcpu_op_name\t" + "\t".join(INP) + "\troot\n")
    for e in tree.events:
        if e.get("cat") not in GPU: continue
        u = e["UID"]
        row = [str(u)] + [rawf(u, k) for k in ("cat","name","pid","tid","stream","ts","dur","correlation")]
        if e.get("tree"):
            rt = par(e); la = launcher(e); co = nearest_cpu(e)
            row += ["1", str(rt["UID"]), cell(rt["name"]), str(la["UID"]), cell(la["name"])]
            if co is not None:
                row += [str(co["UID"]), cell(co["name"])] + [rawf(co["UID"], k) for k in INP]
            else:
                row += ["", ""] + [""] * 4
        else:
            row += ["0"] + [""] * 10
        row.append(str(root(par(e))["UID"]) if e.get("tree") else "")
        f.write("\t".join(row) + "\n")
def depth(e):
    n = 0
    while e.get("parent") is not None:
        e = E[e["parent"]]; n += 1
    return n
with open(os.path.join(outdir, "ops.tsv"), "w") as f:
    f.write("UID\tcat\tname\tpid\ttid\tts\tdur\tparent\tdepth\tExternal id\tSequence number\t" + "\t".join(INP) + "\tngpu\tfwd\tcpu_root\troot\n")
    for e in tree.events:
        c = e.get("cat")
        if c in GPU: continue
        if c in HOST:
            if not e.get("tree"): continue
            dropped = "nn_module_stack" not in e
            if dropped and not (c in ("cuda_runtime","cuda_driver") and e.get("gpu_events")): continue
        elif e.get("parent") is None: continue
        u = e["UID"]
        row = [str(u)] + [rawf(u, k) for k in ("cat","name","pid","tid","ts","dur")]
        p = e.get("parent")
        row += ["" if p is None else str(p), str(depth(e))]
        row += [rawf(u, k) for k in ["External id","Sequence number"] + INP]
        row += [str(len(e.get("gpu_events", []))), "" if e.get("fwd_event") is None else str(e["fwd_event"]), "1" if e.get("cpu_op_root") else "0", str(root(e)["UID"])]
        f.write("\t".join(row) + "\n")
recs = []
for e in tree.events:
    if e.get("cat") in GPU: continue
    for g in e.get("gpu_events", []):
        recs.append((e["UID"], "s" if E[g].get("cat") in GPU else "n", g))
for k in tree.events:
    if k.get("cat") not in GPU or is_comm(k.get("name","")): continue
    la = launcher(k)
    if la is not None: recs.append((la["UID"], "d", k["UID"]))
recs.sort(key=lambda r: (r[0], r[1], E[r[2]]["ts"], r[2]))
with open(os.path.join(outdir, "intervals.tsv"), "w") as f:
    f.write("op\tkind\tts\tdur\tgpu\tname\tstream\tcat\n")
    for op, kind, g in recs:
        f.write("\t".join([str(op), kind, rawf(g,"ts"), rawf(g,"dur"), str(g), rawf(g,"name"), rawf(g,"stream"), rawf(g,"cat")]) + "\n")
with open(os.path.join(outdir, "meta.tsv"), "w") as f:
    f.write("pid\ttid\tname\tvalue\n")
    for u, e in enumerate(rev):
        if e.get("ph") != "M": continue
        a = e.get("args") if isinstance(e.get("args"), dict) else {}
        v = None
        for k in ("name", "labels", "sort_index"):
            if k in a: v = a[k]; break
        f.write("\t".join([rawf(u,"pid"), rawf(u,"tid"), rawf(u,"name"), "" if v is None else cell(v)]) + "\n")
dropped = sum(1 for e in tree.events if e.get("cat") in HOST and e.get("tree") and "nn_module_stack" not in e)
unl = sum(1 for e in tree.events if e.get("cat") in GPU and not e.get("tree"))
with open(os.path.join(outdir, "facts.tsv"), "w") as f:
    f.write("host_events_dropped\t%d\ngpu_events_unlinked\t%d\nlinking_key\t%s\n" % (dropped, unl, tree.linking_key))
