# The test matrix (included by the Makefile).
#
# A variable given on the command line selects; one left out means all of
# its values: every arch, every mutex build, and per arch the CPU counts
# below. Every configuration is built first, then the host runner boots
# them all (two at a time) and prints one table each and the total.

given = $(filter command line environment,$(origin $(1)))
TEST_ARCHES := $(if $(call given,ARCH),$(ARCH),$(ALL_ARCHES))
TEST_MUTEXES := $(if $(call given,MUTEX),$(MUTEX),$(ALL_MUTEXES))
# CPU counts per arch and build: i386's native build also runs 2 and 8 CPUs
# (make test ARCH=x86_64 CPUS=8 runs the other arch's 8).
test_cpus = $(if $(call given,CPUS),$(CPUS),$(if $(filter native,$(2)),$(TEST_CPUS_NATIVE_$(1)),1 4))
TEST_CPUS_NATIVE_i386 := 1 2 4 8
TEST_CPUS_NATIVE_x86_64 := 1 4
TEST_CPUS_NATIVE_arm := 1 4
TEST_TIMEOUT ?= 1200
TEST_JOBS ?= 2
BUILD_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
TEST_APPEND ?=

test_configs = $(foreach a,$(TEST_ARCHES),$(foreach m,$(TEST_MUTEXES),\
	$(foreach c,$(call test_cpus,$(a),$(m)),\
	name=$(a)-$(m)-cpus$(c),arch=$(a),kernel=build/$(a)-$(m)/$(call image_of,$(a)),cpus=$(c),append=expect_cpus=$(c))))
comma := ,
image_of = $(if $(filter x86_64,$(1)),kernel.elf32,kernel.elf)
# arm also boots the native build's raw image, kernel7.img, the file the Pi
# firmware loads (QEMU puts it at 0x10000 and parks cores 1-3 itself), and
# checks the layout of the SD card image with fake firmware files.
raw_configs = $(if $(filter native,$(TEST_MUTEXES)),\
	$(foreach c,$(call test_cpus,arm,native),\
	name=arm-native-img-cpus$(c),arch=arm,kernel=build/arm-native/kernel7.img,cpus=$(c),append=expect_cpus=$(c)))
test_configs += $(if $(filter arm,$(TEST_ARCHES)),$(raw_configs))
# A uniprocessor kernel (CONFIG_SMP=n: spinlocks are only preemption
# control), on i386 with the native build, in the full matrix.
UP_DIR := build/i386-native-SMP=n
up_wanted = $(and $(filter i386,$(TEST_ARCHES)),$(filter native,$(TEST_MUTEXES)),$(if $(call given,CPUS),,y))
test_configs += $(if $(up_wanted),name=i386-native-up$(comma)arch=i386$(comma)kernel=$(UP_DIR)/kernel.elf$(comma)cpus=1$(comma)append=expect_cpus=1)

.PHONY: test test-build check-runner
test-build:
	$(Q)for a in $(TEST_ARCHES); do for m in $(TEST_MUTEXES); do \
		$(MAKE) --no-print-directory -j$(BUILD_JOBS) ARCH=$$a MUTEX=$$m CONF= all || exit 1; \
	done; done
	$(if $(up_wanted),$(Q)$(MAKE) --no-print-directory ARCH=i386 MUTEX=native CONF=CONFIG_SMP=n all)

test: test-build $(if $(call given,ARCH)$(call given,MUTEX)$(call given,CPUS),,check-runner check-grub)
	$(if $(filter arm,$(TEST_ARCHES)),$(Q)$(MAKE) --no-print-directory \
		ARCH=arm MUTEX=native CONF= sdcard-check)
	$(Q)$(RUNNER) -j $(TEST_JOBS) --timeout $(TEST_TIMEOUT) --accel $(ACCEL) \
		$(test_configs)

# The kernel boots from GRUB too (an ISO image, i386).
.PHONY: check-grub
check-grub:
	$(Q)$(MAKE) --no-print-directory ARCH=i386 MUTEX=native CONF= check-iso

# The runner checks itself: canned logs, then a kernel whose test cases
# fail, fault, hang and panic on purpose. Each must be reported as failed.
SELFTEST_DIR := build/i386-native-KUNIT_SELFTEST_FAIL=y
check-runner:
	$(Q)sh scripts/test-runner-selftest.sh > build/runner-selftest.log 2>&1 || \
		{ cat build/runner-selftest.log; exit 1; }
	@echo "runner self-test: ok (log: build/runner-selftest.log)"
	$(Q)$(MAKE) --no-print-directory ARCH=i386 MUTEX=native \
		CONF=CONFIG_KUNIT_SELFTEST_FAIL=y all
	$(Q)$(RUNNER) -j $(TEST_JOBS) --timeout 120 --expect-fail \
		--logdir $(SELFTEST_DIR) \
		$(foreach c,expect_fail assert_fail fault hang panic,\
		name=selftest-$(c),arch=i386,kernel=$(SELFTEST_DIR)/kernel.elf,cpus=2,append=test=selftest_fail.$(c)) \
		> build/runner-check.log 2>&1 || \
		{ cat build/runner-check.log; exit 1; }
	@echo "runner check: a failing expectation, a failed assertion, a fault, a hang and a panic are each reported (log: build/runner-check.log)"

# A long torture run of the mutex, completion and semaphore suites: the
# stress cases do TORTURE_FACTOR times the work of make test. In the debug
# build they also check that not a single debug report was made.
TORTURE_FACTOR ?= 20
TORTURE_CPUS ?= 4
.PHONY: torture
torture: test-build
	$(Q)$(RUNNER) -j $(TEST_JOBS) --timeout 3600 --accel $(ACCEL) \
		$(foreach a,$(TEST_ARCHES),$(foreach m,$(TEST_MUTEXES),\
		"name=torture-$(a)-$(m),arch=$(a),kernel=build/$(a)-$(m)/$(call image_of,$(a)),cpus=$(TORTURE_CPUS),append=stress=$(TORTURE_FACTOR) test=mutex.*$(comma)completion.*$(comma)semaphore.*"))
