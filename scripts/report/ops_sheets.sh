# See LICENSE file for copyright and license details.
# sheet: ops_sheets
# The three ops sheets of the launchers, one after the other:
# ops_summary_by_category, ops_summary and ops_unique_args (their
# files here).  Beside the perf models and the kernel sheets, more at
# once would only add to the peak memory, not speed; as one stage they
# cost one shell, not three.
# in: launchers.tsv launcher_cats.tsv launcher_names.tsv trace.facts
# out: ops_summary_by_category.csv ops_summary.csv ops_unique_args.csv
# when: cpu_ops=1
ops_sheets() {
	ops_summary_by_category
	ops_summary
	ops_unique_args
}
