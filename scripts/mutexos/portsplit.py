"""One serial line, two users: the console and gdb, for an arch whose
kernel gdb stub shares the console's UART (ARCH_KGDB_PORT console;
RISC-V's virt has one UART).  docs/gdb.md describes it.

    python3 portsplit.py PORT -- QEMU ARGV...

runs QEMU with its console on this program's stdin and stdout (-serial
stdio in ARGV) and listens on 127.0.0.1:PORT for gdb (one client at a
time).  What the client sends goes to the serial line as it is.  What
the kernel sends is split: the stub marks each packet ($...#cc) and
each ack ('+' or '-') it sends with a DLE byte (0x10) before it, which
the console never sends (arch/riscv/serial.c); a marked packet or ack
goes to the client, without its mark, and everything else is console
text, to stdout.  So a packet reaches gdb wherever it falls: after the
prompt, which ends no line, or in a line that a breakpoint on the
console's code stopped half-way.  QEMU's exit status is this program's.
"""

import os
import socket
import subprocess
import sys
import termios
import threading
import tty


MARK = 0x10    # DLE: the stub's packet or ack follows


class Splitter:
    """The kernel's bytes to the console or the client; the client's to
    the kernel."""

    def __init__(self, qemu_in, console):
        self.qemu_in = qemu_in
        self.console = console
        self.lock = threading.Lock()
        self.client = None
        self.marked = False         # the last byte was the mark
        self.packet = None          # a packet from the kernel, so far
        self.tail = 0               # its checksum digits still to come

    def attach(self, client):
        with self.lock:
            self.client = client

    def detach(self, client):
        with self.lock:
            if self.client is client:
                self.client = None

    def _to_client(self, data):
        with self.lock:
            client = self.client
        if client is not None:
            try:
                client.sendall(data)
            except OSError:
                self.detach(client)

    def from_kernel(self, data):
        """Split a chunk of the kernel's output."""
        text = bytearray()
        for b in data:
            c = bytes([b])
            if self.packet is not None:
                self.packet += c
                if self.tail:
                    self.tail -= 1
                    if not self.tail:
                        self._to_client(bytes(self.packet))
                        self.packet = None
                elif c == b"#":
                    self.tail = 2
            elif self.marked:
                self.marked = False
                if c == b"$":
                    self.packet = bytearray(c)
                else:
                    self._to_client(c)
            elif b == MARK:
                self.marked = True
            else:
                text += c
        if text:
            self.console.write(bytes(text))
            self.console.flush()

    def from_client(self, client):
        """The client's bytes to the kernel, until it leaves."""
        while True:
            try:
                data = client.recv(4096)
            except OSError:
                data = b""
            if not data:
                break
            self.to_kernel(data)
        self.detach(client)
        client.close()

    def to_kernel(self, data):
        try:
            self.qemu_in.write(data)
            self.qemu_in.flush()
        except (OSError, ValueError):
            pass                    # QEMU has ended


def serve(listener, splitter):
    while True:
        client, _ = listener.accept()
        client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        splitter.attach(client)
        threading.Thread(target=splitter.from_client, args=(client,),
                         daemon=True).start()


def forward_stdin(splitter):
    """The terminal's (or the runner's) input to the console."""
    fd = sys.stdin.fileno()
    while data := os.read(fd, 4096):
        splitter.to_kernel(data)


def main(argv):
    if len(argv) < 3 or argv[1] != "--" or not argv[0].isdigit():
        print("usage: portsplit.py PORT -- QEMU ARGV...", file=sys.stderr)
        return 2
    listener = socket.create_server(("127.0.0.1", int(argv[0])))
    proc = subprocess.Popen(argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    splitter = Splitter(proc.stdin, sys.stdout.buffer)
    threading.Thread(target=serve, args=(listener, splitter), daemon=True).start()
    saved = None
    if sys.stdin.isatty():
        saved = termios.tcgetattr(sys.stdin.fileno())
        tty.setraw(sys.stdin.fileno())     # QEMU's Ctrl-A x, Ctrl-C to the kernel
    threading.Thread(target=forward_stdin, args=(splitter,), daemon=True).start()
    try:
        while data := os.read(proc.stdout.fileno(), 4096):
            splitter.from_kernel(data)
    finally:
        if saved is not None:
            termios.tcsetattr(sys.stdin.fileno(), termios.TCSADRAIN, saved)
    code = proc.wait()
    return code if code >= 0 else 128 - code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
