# riscv: RV64GC on QEMU's virt machine, an S-mode kernel under the
# OpenSBI firmware that QEMU ships; everything the build and the tools
# know about this arch.
#
# The ARCH_* facts at the top are read by make, by scripts/check-tools.sh
# and by the Python tooling (scripts/mutexos/arches.py): keep each one a
# plain "NAME := value" line, without make functions.

# ---------------------------------------------------------------- facts
# Debian's bare-metal toolchain: it links a freestanding kernel with its
# own libgcc and no C library (docs/riscv.md says why not the Linux one)
ARCH_CROSS := riscv64-unknown-elf-
# (qemu-system-misc brings qemu-system-data, which holds QEMU's OpenSBI)
ARCH_TOOLS := riscv64-unknown-elf-gcc:gcc-riscv64-unknown-elf \
	riscv64-unknown-elf-ld:binutils-riscv64-unknown-elf \
	qemu-system-riscv64:qemu-system-misc
ARCH_QEMU := qemu-system-riscv64
# -bios default: QEMU's own OpenSBI (M-mode) starts the kernel in S-mode;
# semihosting carries the exit status out
ARCH_QEMU_OPTS := -M virt -m 256M -bios default \
	-semihosting-config enable=on,target=native
ARCH_QEMU_CPUS := smp
ARCH_MAX_CPUS := 8
ARCH_EXIT := semihosting
# where the test runner's results go besides the console, for the grader:
# semihosting's SYS_WRITE0 to the chardev of -semihosting-config (qemu.py)
ARCH_RESULTS := semihosting
ARCH_KVM := n
# cpu_relax()'s pause ends a translation block in QEMU, not a vCPU's
# turn: in one-thread TCG a spinning hart would keep the thread for
# QEMU's 100 ms slice, so riscv's CPUs always get a host thread each
ARCH_TCG_TURNS := n
ARCH_BOOT_IMAGE := kernel.elf
ARCH_SYMBOLS := kernel.elf
# QEMU boots the ELF; a board's U-Boot takes the same (docs/riscv.md)
ARCH_MEDIA := none
ARCH_MEDIA_TOOLS :=
ARCH_GDB := riscv:rv64
# the kernel's gdb stub: virt has one UART, which it shares with the
# console (Linux's kgdboc); gdb's number and bytes of the pc, and the
# kind of its Z0 breakpoints (the stub plants a 2-byte c.ebreak)
ARCH_KGDB_PORT := console
ARCH_KGDB_PC := 32:8
ARCH_KGDB_BREAK_KIND := 2
# whether the stub gives gdb hardware watchpoints and breakpoints (Z1-Z4)
ARCH_KGDB_WATCHPOINTS := n
ARCH_TEST_CPUS_NATIVE := 1 2 4
ARCH_TEST_CPUS := 1 4
ARCH_BENCH_CPUS := 1 2 4

# ---------------------------------------------------------------- build
# OpenSBI's fw_dynamic jumps to 0x80200000, 2 MiB into RAM, in S-mode.
LOAD_ADDR := 0x80200000
# medany: the kernel runs at 0x80200000, out of reach of the default
# medlow model's +-2 GiB around 0. No floating point in the kernel (the
# CPU is RV64GC; the kernel uses its IMAC part). ISA spec 2.2, where "i"
# still has the CSR and fence.i instructions: GCC 12 then picks the
# rv64imac/lp64 libgcc (with _zicsr_zifencei it falls back to the
# lp64d one, which does not link with soft-float objects). No linker
# relaxation: nothing sets up gp for it.
ARCH_CFLAGS := -misa-spec=2.2 -march=rv64imac -mabi=lp64 -mcmodel=medany \
	-mno-relax
ARCH_ASFLAGS :=
ARCH_LDFLAGS := --no-relax
ARCH_INCLUDES :=
ARCH_DIRS := arch/riscv
ARCH_POSTLINK :=
