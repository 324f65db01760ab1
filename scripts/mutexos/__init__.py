"""MutexOS's host tools: boot, test, debug and measure the kernel in QEMU.

Run as PYTHONPATH=scripts python3 -m mutexos COMMAND (see __main__.py).
The arches describe themselves in arch/<arch>/arch.mk (arches.py).
"""
