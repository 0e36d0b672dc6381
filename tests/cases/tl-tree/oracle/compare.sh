#!/bin/sh
# compare.sh CASE [ORACLE_TRACE] [tl-tree options]: show CASE's tree as
# tl-tree makes it and as TraceLens makes it (tracelens_tree.py), and
# diff the two.  This is how the cases' expected trees were checked.
# Needs bin/ on PATH and /usr/bin/python3 with TraceLens's dependencies.
here=$(cd "$(dirname "$0")" && pwd)
c=$here/../$1
shift
src=$c/trace.json
case ${1:-} in *.json) src=$1; shift ;; esac
po=
case "$*" in *python*) po=--python ;; esac
T=$(mktemp -d "${TMPDIR:-/tmp}/tl-tree-oracle.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
export T
mkdir "$T/mine" "$T/theirs"
/usr/bin/python3 "$here/tracelens_tree.py" "$src" "$T/theirs/o" $po \
	>/dev/null || exit 1
cd "$c" || exit 1
. ../show.sh
tree trace.json "$@" && mv "$T/o" "$T/mine/o" || exit 1
(T=$T/mine; show) >"$T/mine.txt"
(T=$T/theirs; show) >"$T/theirs.txt"
diff "$T/theirs.txt" "$T/mine.txt" && echo "same as TraceLens"
