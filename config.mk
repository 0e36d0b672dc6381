# tl build settings; edit here, not in the Makefile.
VERSION = 0.1.0
PREFIX = /usr/local
MANPREFIX = $(PREFIX)/share/man
CC = cc
CFLAGS = -pthread -std=c17 -O2 -g -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
# JSMN_PARENT_LINKS: jsmn finds the container a token closes by its
# parent link, not by scanning back over every token before it, which
# makes a list of n objects (a kernel list) n^2; every file that
# includes jsmn.h must see the same token struct.
CPPFLAGS = -DTL_VERSION=\"$(VERSION)\" -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
	-DJSMN_PARENT_LINKS -Icommon
LDFLAGS = -pthread
# The C programs link statically: a report starts some 60 of them, and
# here a static one starts in 0.34 ms against 0.62 ms dynamically (no
# loader, no libraries to map and relocate; tl-internals(7)).  Set it empty
# for dynamic ones (make check-asan does; valgrind runs make dyn's).
STATIC = -static
LDLIBS = -lcsv -lxxhash -lz -lm
# Only tl-xlsx reads and writes workbooks: only it links these.
XLSXLIBS = -lxlsxwriter -lminizip -lexpat
# Only tl-parse inflates whole gzip traces: ISA-L's igzip (doc/design).
PARSELIBS = -lisal
# Debian packages the build (and tl-summary --plots) needs, and a file
# each installs; then those the scripts run (tl-ranks: GNU parallel).
DEPS = libjsmn-dev:jsmn.h libcsv-dev:csv.h libxxhash-dev:xxhash.h zlib1g-dev:zlib.h libisal-dev:isa-l/igzip_lib.h \
	libminizip-dev:minizip/unzip.h libexpat1-dev:expat.h libxlsxwriter-dev:xlsxwriter.h \
	gnuplot-nox:/usr/bin/gnuplot parallel:/usr/bin/parallel
