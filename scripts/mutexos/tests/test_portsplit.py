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

    def test_packets_to_gdb_text_to_console(self):
        self.split.from_kernel(b"kgdb: waiting for gdb\r\n$T05thread:1;#")
        self.split.from_kernel(b"9b1 CPUs - up\r\n")
        self.assertEqual(self.console.getvalue(),
                         b"kgdb: waiting for gdb\r\n1 CPUs - up\r\n")
        self.assertEqual(self.client_got(), b"$T05thread:1;#9b")

    def test_an_ack_only_for_a_packet_gdb_sent(self):
        self.client_sends(b"$c#63")
        # the ack of 'c', then console text that starts with a '-'
        self.split.from_kernel(b"+--- cut here ---\r\n-ok\r\n")
        self.assertEqual(self.kernel.data, b"$c#63")
        self.assertEqual(self.console.getvalue(), b"--- cut here ---\r\n-ok\r\n")
        self.assertEqual(self.client_got(), b"+")

    def test_a_dollar_inside_a_line_is_text(self):
        self.split.from_kernel(b"price $5#00 today\r\n")
        self.assertEqual(self.console.getvalue(), b"price $5#00 today\r\n")
        self.assertEqual(self.client_got(), b"")


if __name__ == "__main__":
    unittest.main()
