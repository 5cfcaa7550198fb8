# kplan — build, test, demo, install.  `make help` lists the targets.
#
#   make            build build/kplan and build/kplan.so
#   make test       all tests (TAP through prove); SAN=1 for ASan+UBSan
#   make demo       import examples/, show what was imported
#
# Missing Debian -dev packages are installed with apt-get (as root).

SAN ?= 0
CC ?= cc
PREFIX ?= /usr/local

ifeq ($(SAN),1)
BUILD := build/san
OPT := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
else
BUILD := build
OPT := -O2 -g
endif

CFLAGS_ALL := -std=c11 -Wall -Wextra -Werror -D_DEFAULT_SOURCE -fPIC $(OPT) $(CFLAGS)
LDFLAGS_ALL := $(OPT) $(LDFLAGS)
LIBS := -lsqlite3 -lyaml -lcsv -lm

BUILD_DEPS := libsqlite3-dev libyaml-dev libcsv-dev
TEST_DEPS := sqlite3 perl

LIB_SRC := common/kp.c common/db.c common/priority.c common/read.c \
	importers/quantity.c importers/ydom.c importers/k8s.c importers/csv.c importers/requests.c \
	importers/import.c planner/udf.c planner/json.c planner/scores.c planner/snapshot.c planner/static.c \
	planner/profile.c planner/cycle.c planner/plan.c planner/extender.c planner/counters.c planner/quality.c $(wildcard planner/plugins/*.c)
LIB_SRC += planner/whatif.c planner/rebalance.c planner/explain.c planner/explain_replay.c planner/decisive.c
LIB_SRC += planner/fix.c planner/fix_evict.c planner/fix_relax.c
LIB_SRC += importers/ytext.c planner/config_merge.c
LIB_SRC += planner/capacity.c planner/capacity_fit.c planner/capacity_nodes.c planner/capacity_survive.c
CLI_SRC := $(wildcard cli/*.c) $(wildcard reports/*.c)
FILTER_SQL := $(wildcard queries/filters/*.sql)
FIX_SQL := $(wildcard queries/fix/*.sql)
UNIT_SRC := $(wildcard tests/unit/test_*.c)

LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/schema_sql.o \
	$(FILTER_SQL:queries/filters/%.sql=$(BUILD)/obj/gen/filter_%.o) \
	$(FIX_SQL:queries/fix/%.sql=$(BUILD)/obj/gen/fix_%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
EXT_OBJ := $(BUILD)/obj/ext/udf.o $(BUILD)/obj/importers/quantity.o $(BUILD)/obj/common/kp.o \
	$(BUILD)/obj/planner/scores.o $(BUILD)/obj/planner/json.o
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
# kplan capacity's queries (planner/capacity*.c)
CAPACITY_SQL := $(wildcard queries/capacity/*.sql)
LIB_OBJ += $(CAPACITY_SQL:queries/capacity/%.sql=$(BUILD)/obj/gen/capacity_%.o)

.PHONY: all deps test-deps test demo clean install help valgrind fuzz bench screenshot
.DEFAULT_GOAL := all

all: $(BUILD)/kplan $(BUILD)/kplan.so $(BUILD)/bench/gen $(BUILD)/bench/floor $(BUILD)/bench/capacity

deps:
	@sh scripts/deps.sh $(BUILD_DEPS)

test-deps:
	@sh scripts/deps.sh $(TEST_DEPS)

$(BUILD)/gen/schema_sql.c: schema/schema.sql scripts/embed.sh | deps
	@mkdir -p $(dir $@)
	sh scripts/embed.sh kp_schema_sql schema/schema.sql > $@

# each static filter query becomes kp_sql_filter_<name>
$(BUILD)/gen/filter_%.c: queries/filters/%.sql scripts/embed.sh | deps
	@mkdir -p $(dir $@)
	sh scripts/embed.sh kp_sql_filter_$(subst -,_,$*) $< > $@

# each kplan fix query (planner/fix*.c) becomes kp_sql_fix_<name>
$(BUILD)/gen/fix_%.c: queries/fix/%.sql scripts/embed.sh | deps
	@mkdir -p $(dir $@)
	sh scripts/embed.sh kp_sql_fix_$(subst -,_,$*) $< > $@

# each capacity query becomes kp_sql_capacity_<name>
$(BUILD)/gen/capacity_%.c: queries/capacity/%.sql scripts/embed.sh | deps
	@mkdir -p $(dir $@)
	sh scripts/embed.sh kp_sql_capacity_$(subst -,_,$*) $< > $@

$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -c $< -o $@

$(BUILD)/obj/gen/schema_sql.o: $(BUILD)/gen/schema_sql.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -c $< -o $@

# library objects use the SQLite core API
$(BUILD)/obj/%.o: %.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -DSQLITE_CORE -MMD -MP -c $< -o $@

# the extension's copy of udf.c goes through sqlite3_api
$(BUILD)/obj/ext/udf.o: planner/udf.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -MMD -MP -c $< -o $@

$(BUILD)/libkplan.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/kplan: $(CLI_OBJ) $(BUILD)/libkplan.a
	$(CC) $(LDFLAGS_ALL) -o $@ $(CLI_OBJ) $(BUILD)/libkplan.a $(LIBS)

# the benchmark cluster generator (bench/gen.c): plain C, no kplan code
$(BUILD)/bench/gen: bench/gen.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(LDFLAGS_ALL) -o $@ $<

# the I/O floor of a plan (bench/floor.c): kplan's own load and write, no planning
$(BUILD)/bench/floor: bench/floor.c $(BUILD)/libkplan.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -DSQLITE_CORE -o $@ $< $(BUILD)/libkplan.a $(LIBS) $(LDFLAGS_ALL)

# kplan capacity's answers as library code, timed (bench/capacity.c)
$(BUILD)/bench/capacity: bench/capacity.c $(BUILD)/libkplan.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -DSQLITE_CORE -o $@ $< $(BUILD)/libkplan.a $(LIBS) $(LDFLAGS_ALL)

$(BUILD)/kplan.so: $(EXT_OBJ)
	$(CC) $(LDFLAGS_ALL) -shared -o $@ $(EXT_OBJ) -lm

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libkplan.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -DSQLITE_CORE -I. -o $@ $< $(BUILD)/libkplan.a $(LIBS) $(LDFLAGS_ALL)

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

# Tests: C unit tests and shell end-to-end tests, all TAP, run by prove.
# KP_SHARED_DATA points at ../shared/data; tests skip (and say so) without it.
test: all $(UNIT_BIN) test-deps
	@KPLAN=$(abspath $(BUILD)/kplan) KPLAN_SO=$(abspath $(BUILD)/kplan.so) SAN=$(SAN) \
	 KP_SHARED_DATA=$${KP_SHARED_DATA:-$(abspath ../shared/data)} KP_TMP=$(abspath $(BUILD)/tmp) \
	 ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	 prove -j2 --exec '' $(UNIT_BIN) $(sort $(wildcard tests/t/*.t))

# Benchmarks (bench/run.sh): generated clusters and the openb trace, median of
# BENCH_RUNS runs; writes bench/RESULTS.md.  BENCH_SCALE=1 adds 50,000 nodes /
# 1,500,000 pods.
BENCH_RUNS ?= 5
bench: all
	@sh scripts/deps.sh time
	BENCH_RUNS=$(BENCH_RUNS) BENCH_SCALE=$(BENCH_SCALE) KP_SHARED_DATA=$${KP_SHARED_DATA:-$(abspath ../shared/data)} \
	 sh bench/run.sh $(BUILD)

# valgrind --leak-check=full over the main paths (init, import, plan, explain, query)
valgrind: all
	@sh scripts/deps.sh valgrind
	KPLAN=$(BUILD)/kplan sh scripts/valgrind.sh

# libFuzzer (clang) on the YAML/JSON, CSV, quantity and scheduler-config parsers;
# FUZZ_SECONDS per target (default 600), two at a time
FUZZ_SECONDS ?= 600
fuzz: all
	@sh scripts/deps.sh clang libclang-rt-14-dev
	sh scripts/fuzz.sh $(FUZZ_SECONDS)

demo: all
	@rm -f $(BUILD)/demo.db $(BUILD)/demo.db-wal $(BUILD)/demo.db-shm
	$(BUILD)/kplan import $(BUILD)/demo.db examples/
	$(BUILD)/kplan plan $(BUILD)/demo.db
	$(BUILD)/kplan report $(BUILD)/demo.db
	$(BUILD)/kplan report --format html -o $(BUILD)/demo-report.html $(BUILD)/demo.db

# docs/report.png (the README's picture): the HTML report of a plan of examples/ in
# headless Chromium (installed when missing)
screenshot: all
	@sh scripts/deps.sh chromium
	@rm -f $(BUILD)/shot.db $(BUILD)/shot.db-wal $(BUILD)/shot.db-shm
	$(BUILD)/kplan import -q $(BUILD)/shot.db examples/
	$(BUILD)/kplan plan -q $(BUILD)/shot.db
	$(BUILD)/kplan report -q --no-timing --format html -o $(BUILD)/report.html $(BUILD)/shot.db
	chromium --headless --no-sandbox --disable-gpu --no-first-run --hide-scrollbars --user-data-dir=$(abspath $(BUILD)/chromium) \
	  --window-size=1280,1700 --screenshot=$(abspath docs/report.png) file://$(abspath $(BUILD)/report.html) 2>/dev/null
	@test -s docs/report.png && echo "wrote docs/report.png"

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/kplan
	install -m 755 $(BUILD)/kplan $(DESTDIR)$(PREFIX)/bin/kplan
	install -m 644 $(BUILD)/kplan.so $(DESTDIR)$(PREFIX)/lib/kplan/kplan.so
	install -d $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 644 man/kplan.1 $(DESTDIR)$(PREFIX)/share/man/man1/kplan.1
	install -m 644 scripts/kplan.bash-completion $(DESTDIR)$(PREFIX)/share/bash-completion/completions/kplan

.PHONY: uninstall
uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/kplan $(DESTDIR)$(PREFIX)/lib/kplan/kplan.so \
	  $(DESTDIR)$(PREFIX)/share/man/man1/kplan.1 $(DESTDIR)$(PREFIX)/share/bash-completion/completions/kplan
	-rmdir $(DESTDIR)$(PREFIX)/lib/kplan 2>/dev/null

clean:
	rm -rf build

help:
	@echo "make [all]          build build/kplan and build/kplan.so"
	@echo "make test [SAN=1]   run every test (SAN=1: AddressSanitizer + UBSan build in build/san)"
	@echo "make demo           import examples/ into build/demo.db and show it"
	@echo "make install [PREFIX=/usr/local] [DESTDIR=]  kplan, kplan.so, man page, bash completion"
	@echo "make uninstall [PREFIX=/usr/local] [DESTDIR=]"
	@echo "make valgrind       the main paths under valgrind --leak-check=full"
	@echo "make fuzz [FUZZ_SECONDS=600]  libFuzzer on the four parsers (clang)"
	@echo "make screenshot     docs/report.png: the HTML report of examples/ in headless Chromium"
	@echo "make bench [BENCH_RUNS=5] [BENCH_SCALE=1]  benchmarks; writes bench/RESULTS.md"
	@echo "make clean"
