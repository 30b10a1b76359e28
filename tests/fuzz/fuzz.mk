# SPDX-License-Identifier: MIT
# The fuzzers, included by the Makefile (kept apart for its length).

# libFuzzer on the set loader (tests/fuzz/fuzz_load.c), built for this
# host with clang whatever CROSS_COMPILE says: the sanitizers are clang's.
# `make fuzz` runs FUZZ_RUNS inputs, growing build/fuzz/corpus-load from
# the seeds in tests/fuzz/corpus/load; check-fuzz is a short run, skipped
# when there is no clang.  An input that breaks a target is kept as
# build/fuzz/crash-<sha1> (rerun: build/fuzz/fuzz_<name> FILE).
FUZZ_CC ?= clang
FUZZ_RUNS ?= 1000000
FUZZ_CHECK_RUNS ?= 20000
FUZZ_LOAD := build/fuzz/fuzz_load
FUZZ_FLAGS := -std=gnu11 -g -O1 -D_GNU_SOURCE -Iinclude \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined

$(FUZZ_LOAD): tests/fuzz/fuzz_load.c $(LIB_SRCS) $(wildcard include/mess/*.h)
	$(quiet) FUZZCC $@
	@mkdir -p $(@D)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ tests/fuzz/fuzz_load.c $(LIB_SRCS) $(LDLIBS_LIB)

# The harness's readers of outside data, each with the sources it needs:
# the option engine (fuzz_opts), the list parsers (fuzz_list), the
# resume state read back as a resumed run's options (fuzz_resume), the
# sampling decoders (fuzz_sample), the raw Mess tree (fuzz_messraw) and the
# run-directory loaders (fuzz_rundir), these two an input split into the
# files of a directory (tests/fuzz/fuzz_files.h).
FUZZ_HARNESS := opts list resume sample messraw rundir
FUZZ_OPTS_CORE := harness/core/options.c harness/core/numbers.c
FUZZ_SRCS_opts := $(FUZZ_OPTS_CORE) lib/base/parse.c
FUZZ_SRCS_list := $(FUZZ_SRCS_opts)
FUZZ_SRCS_resume := $(FUZZ_OPTS_CORE) harness/core/rundir/rundir.c harness/core/rundir/rundir_lock.c harness/core/rundir/outdir.c harness/core/util.c \
	harness/core/clock.c harness/core/signals.c harness/core/buildinfo.c harness/curves/options.c \
	harness/core/pmu/families.c harness/absorb/options.c \
	$(wildcard harness/core/report/html*.c) $(LIB_SRCS)
# The sampling decoders (SPE, IBS, data source, perf.data and the record
# walker): lib/ alone.
FUZZ_SRCS_sample := $(LIB_SRCS)
FUZZ_SRCS_messraw := $(LIB_SRCS)
FUZZ_SRCS_rundir := $(LIB_SRCS)
define FUZZ_RULE
build/fuzz/fuzz_$(1): tests/fuzz/fuzz_$(1).c $$(FUZZ_SRCS_$(1)) $$(wildcard harness/*/*.h harness/*/*/*.h include/mess/*.h tests/fuzz/*.h)
	$$(quiet) FUZZCC $$@
	@mkdir -p $$(@D)
	$$(Q)$$(FUZZ_CC) $$(FUZZ_FLAGS) -Iharness -Ikernels/include -Ikernels/c -Ikernels/asm/$(ARCH) $$(BUILD_INFO) \
		-o $$@ $$< $$(FUZZ_SRCS_$(1)) $$(LDLIBS_LIB)
endef
$(foreach t,$(FUZZ_HARNESS),$(eval $(call FUZZ_RULE,$(t))))

fuzz: $(FUZZ_LOAD) $(FUZZ_HARNESS:%=build/fuzz/fuzz_%)
	@mkdir -p build/fuzz/corpus-load
	$(Q)./$(FUZZ_LOAD) -runs=$(FUZZ_RUNS) -artifact_prefix=build/fuzz/ build/fuzz/corpus-load tests/fuzz/corpus/load
	$(Q)set -e; for t in $(FUZZ_HARNESS); do mkdir -p build/fuzz/corpus-$$t; \
		echo "== fuzz_$$t: $(FUZZ_RUNS) runs"; \
		./build/fuzz/fuzz_$$t -runs=$(FUZZ_RUNS) -artifact_prefix=build/fuzz/ build/fuzz/corpus-$$t tests/fuzz/corpus/$$t \
			>build/fuzz/fuzz_$$t.log 2>&1 || { tail -n 40 build/fuzz/fuzz_$$t.log; exit 1; }; \
		grep -E '^Done' build/fuzz/fuzz_$$t.log; done

check-fuzz:
	$(Q)if command -v $(FUZZ_CC) >/dev/null; then \
		exec $(MAKE) --no-print-directory fuzz FUZZ_RUNS=$(FUZZ_CHECK_RUNS); fi; \
	echo "SKIPPED check-fuzz: no $(FUZZ_CC) (apt-get install clang)"; \
	mkdir -p build; echo "check-fuzz: no $(FUZZ_CC)" >>build/skipped.txt
