# See LICENSE file for copyright and license details.
# stage: tree
# TraceLens's call tree of the trace (tl_tree_stage, tl-tree(1)): the
# tree records of tl(7), and the facts the later stages decide by:
# cpu_ops (some cpu_op or python_function event: TraceLens's test for
# a GPU-only trace), gpu_events (gpu.tsv has a record), gpu_work (some
# GPU event is a kernel or linked: what the perf models need) and last_uid
# (the trace's last UID, after which the synthetic ops are numbered).
# (The trace may be /dev/stdin: tl-report's standard input is fd 9.
# A trace that came on a pipe is read from its work copy, but named in
# messages as the user gave it.)
# The parsed events (tl-parse's records) are the stage's own: they go
# right after it, before the sheets write their files (on a VM, the
# page cache so freed is what the next files reuse).
# in:
# out: gpu.tsv ops.tsv dropped_ops.tsv intervals.tsv walk.tsv gpuev.tsv meta.tsv health.tsv comm.tsv fwd.tsv sel.tsv recompute.tsv callstack.tsv trace.facts
# out: busy0.tsv kernels.tsv kernels.facts
tree() {
	# (the subtree busy times of intervals.tsv in the arithmetic of
	# tl-kernels: exact ns with --exact-time)
	# (and with --detect_recompute, recompute.tsv: the UIDs of the host
	# events in TraceLens's recompute subtrees, ascending, and
	# callstack.tsv: each launch's call stack in TraceLens's tree with
	# the python functions, by UID; --include_call_stack needs that
	# file too)
	# (and, as soon as gpu.tsv is whole, beside the passes after it on
	# the core they leave idle, gpu_events_rows: the GPU events' busy
	# intervals, busy0.tsv, unsorted, for gpu_events; kernels.tsv and
	# kernels.facts)
	rc=$recompute
	[ "$callstack" != 1 ] || rc=1
	rt=
	[ "$recompute" != 1 ] || rt=runtime
	(cd "$cwd" && TL_TREE_XBUSY=$xflag && TL_TREE_RECOMPUTE=$rc &&
		TL_TREE_TMP=$TL_WORK/tree &&
		TL_TREE_GPU_HOOK='cd "$TL_WORK" && gpu_events_rows $rt >busy0.tsv' &&
		tl_tree_stage "$TL_WORK/events.tsv" "$TL_WORK" "$trace" "$trace_name") <&9
	case $? in
	0) ;;
	3) return 1 ;;	# tl-parse could not read the trace, and has said why
	*) echo "$prog: tree stage failed" >&2; return 1 ;;
	esac
	for f in gpu ops intervals walk meta health sel; do
		[ -f "$f.tsv" ] || { echo "$prog: tree stage wrote no $f.tsv" >&2; return 1; }
	done
	# (cpu_ops, last_uid and gpu_work as the tree's passes saw them:
	# no process reads the events or gpu.tsv again for them)
	cpu= last= work=
	while IFS=$TAB read -r k v; do
		case $k in
		cpu_ops) cpu=$v ;;
		last_uid) last=$v ;;
		gpu_work) work=$v ;;
		esac
	done <tree.facts
	[ -n "$cpu" ] && [ -n "$work" ] || { echo "$prog: tree stage wrote no facts" >&2; return 1; }
	tl_drop tree.facts
	# (split's copy of the events, by the run's dropper: freeing its
	# pages costs 2 ms for the 6 MB of the 50 MB h100-qwen trace, which
	# the stages after this one would wait for; not by a job of this
	# stage: one that outlives its stage is a process of the run's group
	# left for init to reap, and tl_wait then scans /proc for the group)
	tl_drop_later events.tsv
	gpu=0
	! tl_rows gpu.tsv || gpu=1
	# gpu_work: some GPU event that TraceLens's timeline takes, a kernel
	# or one linked to its launch (any, with --include-unlinked-kernels):
	# without one TraceLens stops before its perf models, and tl reports
	# health alone.
	[ "$unlinked" != 1 ] || work=$gpu
	printf 'cpu_ops=%s\ngpu_events=%s\ngpu_work=%s\nlast_uid=%s\n' "$cpu" "$gpu" "$work" "$last" >trace.facts
}

# gpu_events_rows [runtime]: one pass over the GPU events (gpu.tsv)
# for two readers: the busy intervals of gpu_events, unsorted, on
# stdout (with the launching runtime event's UID last), and kernels.tsv,
# one record per kernel (linked or not), in UID order:
#	cpu_op UID cpu_op_name runtime_name linked name stream dur dims strides concrete
# (the last three for the short-kernel sheets only); both with a header.
# kernels.facts: kernels (there are any), kernels_cpu_op (some has a
# cpu_op) and busy_rows (some busy interval).
gpu_events_rows() {
	# (tl-gpurows(1): -r, the runtime column; -u, the unlinked GPU
	# events are busy too; -s, the kernels' shapes for short_kernels)
	set -- ${1:+-r}
	[ "$unlinked" != 1 ] || set -- "$@" -u
	[ "$short" != 1 ] || set -- "$@" -s
	st tl-gpurows "$@" -k kernels.tsv -f kernels.facts gpu.tsv
}
