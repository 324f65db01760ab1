# i386: everything the build and the tools know about this arch.
#
# The ARCH_* facts at the top are read by make, by scripts/check-tools.sh
# and by the Python tooling (scripts/mutexos/arches.py): keep each one a
# plain "NAME := value" line, without make functions.

# ---------------------------------------------------------------- facts
ARCH_CROSS := i686-linux-gnu-
# command:Debian-package pairs the build and a boot need
ARCH_TOOLS := i686-linux-gnu-gcc:gcc-i686-linux-gnu \
	i686-linux-gnu-ld:binutils-i686-linux-gnu \
	qemu-system-i386:qemu-system-x86
ARCH_QEMU := qemu-system-i386
ARCH_QEMU_OPTS := -m 256M -device isa-debug-exit,iobase=0xf4,iosize=0x04
# smp: the CPU count goes to QEMU as -smp N; maxcpus: the machine has a
# fixed number of cores and the kernel gets maxcpus=N on its command line
ARCH_QEMU_CPUS := smp
ARCH_MAX_CPUS := 8
# how the kernel's exit status leaves QEMU: isa-debug-exit or semihosting
ARCH_EXIT := isa-debug-exit
# where the test runner's results go besides the console, for the grader:
# QEMU's isa-debugcon at port 0xe9 (qemu.py)
ARCH_RESULTS := debugcon
ARCH_KVM := y
# cpu_relax() (pause) ends a vCPU's turn in QEMU's one-thread TCG: make
# test's boots may run their CPUs in turns on one host thread
ARCH_TCG_TURNS := y
# what QEMU boots, and what gdb reads the symbols from (in the build folder)
ARCH_BOOT_IMAGE := kernel.elf
ARCH_SYMBOLS := kernel.elf
# boot media: a GRUB CD image (make iso) and the tools that build it
ARCH_MEDIA := iso
ARCH_MEDIA_TOOLS := grub-mkrescue:grub-common /usr/lib/grub/i386-pc:grub-pc-bin \
	xorriso:xorriso mformat:mtools
ARCH_GDB := i386
# the kernel's gdb stub: on QEMU's second -serial (COM2); gdb's number
# and bytes of the pc, and the kind of its Z0 breakpoints
ARCH_KGDB_PORT := second-serial
ARCH_KGDB_PC := 8:4
ARCH_KGDB_BREAK_KIND := 1
# whether the stub gives gdb hardware watchpoints and breakpoints (Z1-Z4)
ARCH_KGDB_WATCHPOINTS := y
# CPU counts of make test: the native build, the debug build (the others
# boot at its largest); make bench
ARCH_TEST_CPUS_NATIVE := 1 2 4 8
ARCH_TEST_CPUS := 1 4
ARCH_BENCH_CPUS := 1 2 4 8

# ---------------------------------------------------------------- build
# 32-bit protected mode, multiboot 1, loaded at 1 MiB, no paging.
LOAD_ADDR := 0x100000
ARCH_CFLAGS := -m32 -march=i686 -mno-sse -mno-mmx -mno-80387 -mregparm=0
# Options of the configuration (the tools read only ARCH_CFLAGS): the
# whole kernel passes arguments in registers with CONFIG_X86_REGPARM.
ARCH_CFLAGS_CONFIG = $(if $(CONFIG_X86_REGPARM),-mregparm=3)
ARCH_ASFLAGS :=
ARCH_LDFLAGS := -m elf_i386
ARCH_INCLUDES := -Iarch/x86/include
ARCH_DIRS := arch/i386 arch/x86
ARCH_POSTLINK :=
