#!/bin/sh
# Checks for bin/tl-gentrace.  Builds nothing: run after the binary exists.
# Needs python3 for JSON validation; the last line is "N passed, N failed".

cd "$(dirname "$0")/../.." || exit 1
G=bin/tl-gentrace
INV=tests/gentrace/invariants.py
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT INT TERM

pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# check description command...: passes when the command succeeds.
check() {
	d=$1
	shift
	if "$@" >"$T/out" 2>&1; then ok; else bad "$d"; cat "$T/out"; fi
}

# checkrc description status command...: passes on that exit status.
checkrc() {
	d=$1
	want=$2
	shift 2
	"$@" >"$T/rcout" 2>"$T/rcerr"
	rc=$?
	if [ "$rc" -eq "$want" ]; then ok; else bad "$d: exit $rc, want $want"; fi
}

# python files...: run the JSON and invariant checks in one Python
# process (starting Python dominates the run time) and count its verdicts.
python() {
	python3 "$INV" "$@" >"$T/py" 2>&1
	n=$(grep -c '^ok ' "$T/py")
	pass=$((pass + n))
	n=$(grep -c -v '^ok ' "$T/py")
	fail=$((fail + n))
	grep -v '^ok ' "$T/py" | sed 's/^/FAIL: /; s/^FAIL: FAIL /FAIL: /'
}

size() { wc -c <"$1" | tr -d ' '; }

if [ ! -x "$G" ]; then
	echo "FAIL: $G not built"
	echo "0 passed, 1 failed"
	exit 1
fi

# Seeds 1-13 cover every layout: parity picks header placement,
# (seed/2)%4 the style, seed%3 relative time, seed%5==4 early metadata.
files=
for g in nvidia amd; do
	for s in 1 2 3 4 5 6 7 9 12 13; do
		f="$T/$g.$s.json"
		if ! "$G" -s "$s" -g "$g" -n 2 -o "$f"; then
			bad "generate -s $s -g $g"
			continue
		fi
		files="$files $f"
		"$G" -s "$s" -g "$g" -n 2 >"$T/again.json"
		check "same bytes for -s $s -g $g" cmp -s "$f" "$T/again.json"
	done
done
if cmp -s "$T/nvidia.1.json" "$T/nvidia.2.json"; then
	bad "seeds 1 and 2 give the same trace"
else
	ok
fi
if cmp -s "$T/nvidia.1.json" "$T/amd.1.json"; then
	bad "-g nvidia and -g amd give the same trace"
else
	ok
fi
check "amd trace has hipLaunchKernel" grep -q hipLaunchKernel "$T/amd.1.json"
check "nvidia trace has cudaLaunchKernel" \
    grep -q cudaLaunchKernel "$T/nvidia.1.json"
check "default is two steps" \
    test "$(grep -c '"user_annotation", "name": "ProfilerStep#' \
    "$T/nvidia.1.json")" -eq 2

# Many steps: rare events (graph replay, bleed, zero-length kernel) show up.
"$G" -s 11 -n 24 -o "$T/long.json"
files="$files $T/long.json"
check "graph replay present" grep -q cudaGraphLaunch "$T/long.json"

# -z: gzip of exactly the plain output, deterministic too.
"$G" -z -s 5 -g amd -n 2 -o "$T/z.json.gz"
files="$files $T/z.json.gz"
check "gzip integrity" gzip -t "$T/z.json.gz"
"$G" -s 5 -g amd -n 2 >"$T/z.json"
gzip -dc "$T/z.json.gz" >"$T/z.out"
check "-z holds the plain trace" cmp -s "$T/z.json" "$T/z.out"
"$G" -z -s 5 -g amd -n 2 >"$T/z2.json.gz"
check "-z is deterministic" cmp -s "$T/z.json.gz" "$T/z2.json.gz"

# -S stops at the step boundary nearest the target.
for s in 1 6; do
	"$G" -s "$s" -n 1 -o "$T/n1.json"
	"$G" -s "$s" -n 2 -o "$T/n2.json"
	step=$(($(size "$T/n2.json") - $(size "$T/n1.json")))
	for want in 2 6; do
		n=$((want * 1048576))
		"$G" -s "$s" -S "${want}M" -o "$T/sz.$s.$want.json"
		got=$(size "$T/sz.$s.$want.json")
		d=$((got - n))
		[ "$d" -lt 0 ] && d=$((-d))
		if [ "$d" -le "$step" ]; then
			ok
		else
			bad "-s $s -S ${want}M gave $got bytes (step $step)"
		fi
	done
	files="$files $T/sz.$s.6.json"
done
"$G" -S 1k -o "$T/tiny.json"
files="$files $T/tiny.json"

# -c: a change that changes nothing gives the same bytes; each change
# leaves the trace valid, with the same number of lines (no event or
# random draw more or less), the renamed kernel in place of the old.
"$G" -s 2 -c op:aten::mm=1 -c kernel:gemm=1.0 -o "$T/c0.json"
check "-c with factor 1 gives the same bytes" cmp -s "$T/nvidia.2.json" "$T/c0.json"
"$G" -s 2 -c op:aten::mm=2 -c idle:1500 \
    -c 'rename:vectorized_layer_norm_kernel=my "norm"' -o "$T/c1.json"
files="$files $T/c1.json"
check "-c keeps the lines" test "$(wc -l <"$T/c1.json")" -eq "$(wc -l <"$T/nvidia.2.json")"
check "-c rename: the new name" grep -q '"my \\"norm\\""' "$T/c1.json"
if grep -q vectorized_layer_norm_kernel "$T/c1.json"; then
	bad "-c rename: the old name is left"
else
	ok
fi
# -r: a trace repeated; the invariants hold (fresh ids, copies apart).
"$G" -s 3 -n 2 -o "$T/real.json"
"$G" -r "$T/real.json" -n 1 -o "$T/r1.json"
check "-r -n 1 gives the trace back" cmp -s "$T/real.json" "$T/r1.json"
"$G" -z -s 4 -g amd -n 2 -o "$T/real.json.gz"
"$G" -r "$T/real.json.gz" -n 3 -o "$T/r3.json"
files="$files $T/r3.json"
check "-r -n 3: six steps" test "$(grep -o 'ProfilerStep#[0-9]*' \
    "$T/r3.json" | sort -u | wc -l)" -eq 6
check "-r: metadata once" test "$(grep -c '"process_name"' "$T/r3.json")" \
    -eq "$(gzip -dc "$T/real.json.gz" | grep -c '"process_name"')"
"$G" -r "$T/real.json" -n 2 -z -o "$T/r2.json.gz"
"$G" -r "$T/real.json" -n 2 -o "$T/r2.json"
gzip -dc "$T/r2.json.gz" >"$T/r2.out"
check "-r -z holds the plain trace" cmp -s "$T/r2.json" "$T/r2.out"
one=$(size "$T/real.json")
"$G" -r "$T/real.json" -S $((one * 5)) -o "$T/r5.json"
got=$(size "$T/r5.json")
if [ "$got" -gt $((one * 4)) ] && [ "$got" -lt $((one * 6)) ]; then
	ok
else
	bad "-r -S $((one * 5)) gave $got bytes (copy $one)"
fi

# -R: the ranks of one job, valid, deterministic, each its own.
for r in 0 1 2; do
	"$G" -s 3 -n 2 -R "$r/3" -o "$T/rank$r.json" || bad "generate -R $r/3"
	files="$files $T/rank$r.json"
done
"$G" -s 3 -n 2 -R 1/3 >"$T/again.json"
check "same bytes for -R 1/3" cmp -s "$T/rank1.json" "$T/again.json"
if cmp -s "$T/rank0.json" "$T/rank1.json"; then bad "ranks 0 and 1 are the same"; else ok; fi
check "-R writes all_to_allv" grep -q '"all_to_allv"' "$T/rank2.json"
check "-R writes the rank" grep -q '"rank": 2, "world_size": 3' "$T/rank2.json"

# shellcheck disable=SC2086
python $files

# Usage and errors.
checkrc "-h exits 0" 0 "$G" -h
check "-h prints usage" grep -q "^usage: tl-gentrace" "$T/rcout"
checkrc "--help exits 0" 0 "$G" --help
check "--help prints usage" grep -q "^usage: tl-gentrace" "$T/rcout"
checkrc "--version exits 0" 0 "$G" --version
check "--version prints a version" grep -q "^tl-gentrace [0-9]" "$T/rcout"
checkrc "unknown option exits 2" 2 "$G" -x
check "bad usage prints usage" grep -q "^usage: tl-gentrace" "$T/rcerr"
checkrc "bad gpu exits 2" 2 "$G" -g intel
checkrc "bad size exits 2" 2 "$G" -S 12Q
checkrc "zero steps exits 2" 2 "$G" -n 0
checkrc "operand exits 2" 2 "$G" extra
for c in op:aten::mm op:=2 op:x=0 op:x=-1 kernel:k=1.2.3 rename:x= idle:x idle: size:3; do
	checkrc "bad change $c exits 2" 2 "$G" -c "$c"
done
checkrc "bad -R exits 2" 2 "$G" -R 3/3
checkrc "-R of one rank exits 2" 2 "$G" -R 0/1
checkrc "-R without a world exits 2" 2 "$G" -R 2
checkrc "-r with -s exits 2" 2 "$G" -r "$T/real.json" -s 2
checkrc "-r of no file exits 1" 1 "$G" -r "$T/no/such.json" -o "$T/x.json"
printf '{"traceEvents": []}' >"$T/none.json"
checkrc "-r of no events exits 1" 1 "$G" -r "$T/none.json" -o "$T/x.json"
printf '{"traceEvents": [' >"$T/cut.json"
checkrc "-r of a cut trace exits 1" 1 "$G" -r "$T/cut.json" -o "$T/x.json"
checkrc "unwritable output exits 1" 1 "$G" -o "$T/no/such/dir/x.json"
check "error message format" grep -q "^tl-gentrace: " "$T/rcerr"
if [ -w /dev/full ]; then
	checkrc "write error exits 1" 1 "$G" -n 1 -o /dev/full
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
