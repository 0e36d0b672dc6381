# tl: streaming analysis of PyTorch profiler GPU traces.  See README.
include config.mk

HDR = $(wildcard common/*.h common/models/*.h)
# libtl: common/ and the perf models by family, common/models/
COMMONSRC = $(wildcard common/*.c common/models/*.c)
COMMONOBJ = $(COMMONSRC:.c=.o)
LIB = common/libtl.a
# Where the C programs go: bin, or tests/tmp/dyn for the dynamically
# linked copies that valgrind runs (target dyn).
BD = bin
FILTERS = $(patsubst filters/%.c,$(BD)/%,$(wildcard filters/*.c))
# A program of several files keeps main() in filters/NAME.c and the
# rest in filters/NAME/ (with its internal header): MULTI are those.
# Each depends on every part of them all: one rule, and a change to a
# part relinks the few of them.
PARTSRC = $(wildcard filters/*/*.c)
PARTHDR = $(wildcard filters/*/*.h)
MULTI = $(patsubst filters/%/,$(BD)/%,$(sort $(dir $(PARTSRC))))
SCRIPTS = $(patsubst scripts/%.sh,bin/%,$(filter-out scripts/tl-lib%,$(wildcard scripts/tl-*.sh)))
# Test-data generator: built from common/ like the filters, not installed.
GENTRACE = $(BD)/tl-gentrace
GENSRC = $(wildcard tests/gentrace/*.c)
SHLIB = $(patsubst scripts/%.sh,bin/%.sh,$(wildcard scripts/tl-lib*.sh))
# tl-report's engine: its stages and sheets (scripts/report/*.sh) and
# the Makefile that schedules them, made by scripts/report/generate;
# for rocprofv3 results, those of scripts/report/rocprof.
REPORT = scripts/report/generate scripts/report/schedule $(wildcard scripts/report/*.sh)
RPREPORT = scripts/report/generate scripts/report/rocprof/schedule $(wildcard scripts/report/rocprof/*.sh)
ENGINE = bin/tl-report.mk bin/tl-report.vars bin/tl-report.d \
	bin/tl-report-rocprof.mk bin/tl-report-rocprof.vars bin/tl-report-rocprof.d
BIN = $(FILTERS) $(SCRIPTS) $(SHLIB) $(ENGINE)
MAN = $(wildcard man/*.1 man/*.7)
# What `make check` needs beyond the build: valgrind and clang with
# libFuzzer, for tests/suites/valgrind and fuzz-short; GNU time, for
# the worst-case suites (worst-time, worst-memory).
CHECKDEPS = valgrind:/usr/bin/valgrind clang:/usr/bin/clang time:/usr/bin/time

all: .deps $(BIN) $(GENTRACE)

# Install missing Debian packages, or stop with the command to run.
.deps: config.mk scripts/deps
	@sh scripts/deps $(DEPS)
	@touch $@

$(COMMONOBJ): $(HDR) .deps
$(LIB): $(COMMONOBJ)
	rm -f $@
	$(AR) rcs $@ $(COMMONOBJ)

.c.o:
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(BD)/%: filters/%.c $(LIB) $(HDR)
	@mkdir -p $(BD)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(LIB) $(LDFLAGS) $(STATIC) $(LDLIBS)

$(MULTI): $(BD)/%: filters/%.c $(PARTSRC) $(PARTHDR) $(LIB) $(HDR)
	@mkdir -p $(BD)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(filter filters/$*/%,$(PARTSRC)) $(LIB) $(LDFLAGS) $(STATIC) $(LDLIBS)

# ISA-L and libxlsxwriter come without static archives: these two link
# dynamically (config.mk, STATIC).
$(BD)/tl-parse: LDLIBS += $(PARSELIBS)
$(BD)/tl-parse: STATIC =

$(BD)/tl-xlsx: filters/tl-xlsx.c $(LIB) $(HDR)
	@mkdir -p $(BD)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ filters/tl-xlsx.c $(LIB) $(LDFLAGS) $(XLSXLIBS) $(LDLIBS)

# Dynamically linked copies of the C programs in tests/tmp/dyn, for the
# valgrind suite: memcheck cannot follow a static glibc's malloc.
dyn: .deps
	@$(MAKE) -s BD=tests/tmp/dyn STATIC= programs
programs: $(FILTERS) $(GENTRACE)

bin/%: scripts/%.sh config.mk
	@mkdir -p bin
	sed 's/@VERSION@/$(VERSION)/g' $< >$@
	chmod +x $@

# The shell library the scripts source: installed beside them, not run.
$(SHLIB): bin/%.sh: scripts/%.sh
	@mkdir -p bin
	cp $< $@

bin/tl-report.mk: $(REPORT)
	@mkdir -p bin
	sh scripts/report/generate mk >$@.tmp && mv $@.tmp $@

# (the schedule's settings, which the driver reads)
bin/tl-report.vars: $(REPORT)
	@mkdir -p bin
	sh scripts/report/generate vars >$@.tmp && mv $@.tmp $@

# (a stage's file: its functions and those of tl-lib.sh it calls)
bin/tl-report.d: $(REPORT) scripts/tl-lib.sh
	@mkdir -p bin
	rm -rf $@.tmp && mkdir $@.tmp && sh scripts/report/generate split "" $@.tmp && \
	    rm -rf $@ && mv $@.tmp $@

bin/tl-report-rocprof.d: $(RPREPORT) scripts/tl-lib.sh
	@mkdir -p bin
	rm -rf $@.tmp && mkdir $@.tmp && sh scripts/report/generate split rocprof $@.tmp && \
	    rm -rf $@ && mv $@.tmp $@

bin/tl-report-rocprof.mk: $(RPREPORT)
	@mkdir -p bin
	sh scripts/report/generate mk rocprof >$@.tmp && mv $@.tmp $@

bin/tl-report-rocprof.vars: $(RPREPORT)
	@mkdir -p bin
	sh scripts/report/generate vars rocprof >$@.tmp && mv $@.tmp $@

$(GENTRACE): $(GENSRC) $(wildcard tests/gentrace/*.h) $(LIB) $(HDR)
	@mkdir -p $(BD)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $(GENSRC) $(LIB) $(LDFLAGS) $(STATIC) $(LDLIBS)

check: all
	@sh scripts/deps $(CHECKDEPS)
	@sh tests/run

check-asan:
	$(MAKE) clean
	$(MAKE) all STATIC= CFLAGS='-pthread -std=c17 -O1 -g -Wall -Wextra -Werror -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all' LDFLAGS='-pthread -fsanitize=address,undefined'
	TL_SAN=1 ASAN_OPTIONS=detect_leaks=0 sh tests/run
	$(MAKE) clean

demo: all
	@sh scripts/demo

bench: all
	@sh tests/bench/bench

bench-scale: all
	@sh tests/bench/bench-scale

fuzz: .deps
	@sh tests/fuzz/run

install: all
	mkdir -p $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(MANPREFIX)/man1 $(DESTDIR)$(MANPREFIX)/man7 $(DESTDIR)$(PREFIX)/share/tl/arch
	cp -Rf $(BIN) $(DESTDIR)$(PREFIX)/bin/
	cp -f scripts/arch/*.json $(DESTDIR)$(PREFIX)/share/tl/arch/
	for m in $(MAN); do case $$m in \
	  *.1) cp -f $$m $(DESTDIR)$(MANPREFIX)/man1/ ;; \
	  *.7) cp -f $$m $(DESTDIR)$(MANPREFIX)/man7/ ;; esac; done

# TraceLens's command names, as links to the scripts that replace
# them (which then take TraceLens's defaults): opt-in, never by default.
TLNAMES = TraceLens_generate_perf_report_pytorch:tl-report \
	TraceLens_generate_perf_report_rocprof:tl-report \
	TraceLens_compare_perf_reports_pytorch:tl-compare \
	TraceLens_generate_multi_rank_collective_report_pytorch:tl-ranks

install-tracelens-names: install
	for p in $(TLNAMES); do ln -sf "$${p#*:}" "$(DESTDIR)$(PREFIX)/bin/$${p%%:*}"; done

uninstall:
	rm -rf $(DESTDIR)$(PREFIX)/share/tl
	for p in $(TLNAMES); do rm -f "$(DESTDIR)$(PREFIX)/bin/$${p%%:*}"; done
	for b in $(BIN); do rm -rf $(DESTDIR)$(PREFIX)/$$b; done
	for m in $(MAN); do rm -f $(DESTDIR)$(MANPREFIX)/man1/$${m#man/} $(DESTDIR)$(MANPREFIX)/man7/$${m#man/}; done

clean:
	rm -rf bin $(COMMONOBJ) $(LIB) tests/tmp

.PHONY: all dyn programs check check-asan demo bench bench-scale fuzz install install-tracelens-names uninstall clean
