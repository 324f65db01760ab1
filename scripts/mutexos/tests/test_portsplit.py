"""portsplit.py: one serial line split between the console and gdb."""

import io
import socket
import unittest

from mutexos import portsplit


class Recorder:
    """What the splitter writes to the kernel's line."""

    def __init__(self):
        self.data = b""

    def write(self, data):
        self.data += data

    def flush(self):
        pass


class TestSplit(unittest.TestCase):
    def setUp(self):
        self.kernel = Recorder()
        self.console = io.BytesIO()
        self.split = portsplit.Splitter(self.kernel, self.console)
        self.ours, self.theirs = socket.socketpair()
        self.theirs.settimeout(5)
        self.split.attach(self.ours)

    def tearDown(self):
        self.ours.close()
        self.theirs.close()

    def client_sends(self, data):
        """data from gdb, through the splitter's reader (on a connection
        of its own, which it closes at the end)."""
        inner, outer = socket.socketpair()
        outer.sendall(data)
        outer.close()
        self.split.from_client(inner)

    def client_got(self):
        self.ours.close()
        data = b""
        while chunk := self.theirs.recv(4096):
            data += chunk
        return data

    def test_marked_packets_to_gdb_text_to_console(self):
        self.split.from_kernel(b"kgdb: waiting for gdb\r\n\x10$T05thread:1;#")
        self.split.from_kernel(b"9b1 CPUs - up\r\n")
        self.assertEqual(self.console.getvalue(),
                         b"kgdb: waiting for gdb\r\n1 CPUs - up\r\n")
        self.assertEqual(self.client_got(), b"$T05thread:1;#9b")

    def test_marked_acks_in_the_middle_of_a_line(self):
        self.client_sends(b"$qSupported#37")
        # at the prompt, which ends no line: the stub's '-' asks again
        self.split.from_kernel(b"mutexos> \x10-\x10+\x10$OK#9a")
        self.assertEqual(self.kernel.data, b"$qSupported#37")
        self.assertEqual(self.console.getvalue(), b"mutexos> ")
        self.assertEqual(self.client_got(), b"-+$OK#9a")

    def test_a_packet_in_a_line_a_breakpoint_cut(self):
        self.split.from_kernel(b"smp: 2 CP\x10$T05thread:2;#9cUs online\r\n")
        self.assertEqual(self.console.getvalue(), b"smp: 2 CPUs online\r\n")
        self.assertEqual(self.client_got(), b"$T05thread:2;#9c")

    def test_unmarked_packets_and_acks_are_text(self):
        self.client_sends(b"$c#63")
        self.split.from_kernel(b"$5#00 at line start\r\n+--- cut here ---\r\n")
        self.assertEqual(self.console.getvalue(),
                         b"$5#00 at line start\r\n+--- cut here ---\r\n")
        self.assertEqual(self.client_got(), b"")

if __name__ == "__main__":
    unittest.main()
