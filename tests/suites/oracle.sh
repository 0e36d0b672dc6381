# Sourced by the oracle suites (oracle-generated, oracle-traces), after
# they set top: TraceLens as the oracle.  Finds it ($TL_TRACELENS, else
# ../tracelens beside the project) and runs it with Debian's pandas
# (the site bridge of ../shared/reference, or $TL_ORACLE_SITE): sets
# PATH, conform (the checker), py, tmp (a scratch folder, removed on
# exit) and PYTHONPATH.  Exits 77 (a skip) without TraceLens, its
# Python packages or the conformance checker.  Not a suite itself: not
# executable.
PATH=$top/bin:$PATH; export PATH
conform=$top/../shared/conformance/tl-conform
tlens=${TL_TRACELENS:-$top/../tracelens}
py=/usr/bin/python3
[ -x "$conform" ] || { echo "no ../shared/conformance/tl-conform"; exit 77; }
[ -d "$tlens/TraceLens" ] || { echo "no TraceLens at $tlens"; exit 77; }
"$py" -c 'import pandas, openpyxl' 2>/dev/null || { echo "no python3-pandas or python3-openpyxl"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tl-oracle.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
site=${TL_ORACLE_SITE:-}
if [ -z "$site" ]; then
	site=$tmp/site
	mkdir "$site" &&
		cp "$top/../shared/reference/oracle-sitecustomize.py" "$site/sitecustomize.py" 2>/dev/null ||
		site=
fi
PYTHONPATH=${site:+$site:}$tlens; export PYTHONPATH
