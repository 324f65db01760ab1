# make bench: the in-kernel benchmarks (included by the Makefile).
#
#   make bench [ARCH=..] [CPUS=..] [MUTEX=..] [BENCH_SECS=..] [BENCH_TASKS=..]
#
# Boots the MUTEX build (default native) of each arch once per CPU count
# with bench=all: synchro-test, then the VFS test with the semaphore and
# with the mutex. scripts/bench.py keeps the logs, writes
# build/bench/bench.csv, draws the plots there with gnuplot and prints the
# table. The boots run one at a time: they measure time.
#
# ARCH left out means every arch that builds (one that does not is skipped
# with a note); CPUS left out means the counts below. BENCH_SECS sets the
# run time of both benchmarks; by default the VFS test runs 10 seconds per
# lock, as the seeds' "test-mutex V 16 10", and synchro-test 5.

BENCH_DIR := build/bench
BENCH_ARCHES := $(if $(call given,ARCH),$(ARCH),$(ALL_ARCHES))
BENCH_CPUS_i386 := 1 2 4 8
BENCH_CPUS_x86_64 := 1 2 4 8
BENCH_CPUS_arm := 1 2 4
bench_cpus = $(if $(call given,CPUS),$(CPUS),$(BENCH_CPUS_$(1)))
BENCH_SECS ?=
BENCH_TASKS ?= 16
BENCH_VFS_SECS := $(or $(BENCH_SECS),10)
BENCH_SYNCHRO_SECS := $(or $(BENCH_SECS),5)

# ARCH:IMAGE:CPU,CPU,.. as scripts/bench.py takes it.
bench_target = $(1):build/$(1)-$(MUTEX)/$(call image_of,$(1)):$(subst $(space),$(comma),$(strip $(call bench_cpus,$(1))))

.PHONY: bench
bench:
	$(Q)WITH_BENCH=1 scripts/check-tools.sh $(firstword $(BENCH_ARCHES))
	$(Q)targets=""; \
	for t in $(foreach a,$(BENCH_ARCHES),$(call bench_target,$(a))); do \
		a=$${t%%:*}; \
		if $(MAKE) --no-print-directory ARCH=$$a MUTEX=$(MUTEX) CONF= all; then \
			targets="$$targets $$t"; \
		elif [ -n "$(call given,ARCH)" ]; then \
			exit 1; \
		else \
			echo "bench: $$a does not build, skipped"; \
		fi; \
	done; \
	[ -n "$$targets" ] || { echo "bench: nothing to run"; exit 1; }; \
	scripts/bench.py --outdir $(BENCH_DIR) --accel $(ACCEL) \
		--vfs-secs $(BENCH_VFS_SECS) --synchro-secs $(BENCH_SYNCHRO_SECS) \
		--vfs-tasks $(BENCH_TASKS) $$targets
