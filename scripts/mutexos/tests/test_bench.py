"""make bench sums up the boots of a configuration: median, min and max."""

import os
import tempfile
import unittest

from mutexos import bench


def log_text(loops, ratio):
    return (f"bench: start which=vfs cpus=2\n"
            f"bench: vfs lock=sem cpus=2 tasks=16 loops_per_sec={loops} jain=0.5000 errors=0\n"
            f"bench: vfs-ratio lock=mutex base=sem cpus=2 tasks=16 throughput={ratio}\n"
            f"bench: end status=0\n")


class Summary(unittest.TestCase):
    """Three boots become one row per result, each figure with its range."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def rows(self, runs):
        rows = []
        for k, (loops, ratio) in enumerate(runs, 1):
            path = os.path.join(self.tmp.name, f"i386-cpus2-run{k}.log")
            with open(path, "w") as f:
                f.write(log_text(loops, ratio))
            got, ok = bench.parse_log(path, "i386", 2, k)
            self.assertTrue(ok)
            rows += got
        return rows

    def test_median_and_range_of_every_figure(self):
        summary = bench.summarize(self.rows([(300, "2.69"), (100, "1.16"), (200, "2.40")]))
        vfs = bench.select(summary, "vfs")[0]
        self.assertEqual((vfs["loops_per_sec"], vfs["loops_per_sec_min"],
                          vfs["loops_per_sec_max"], vfs["runs"]), ("200", "100", "300", 3))
        ratio = bench.select(summary, "vfs-ratio")[0]
        self.assertEqual((ratio["lock"], ratio["base"], ratio["throughput"],
                          ratio["throughput_min"], ratio["throughput_max"]),
                         ("mutex", "sem", "2.4", "1.16", "2.69"))
        self.assertEqual(bench.spread(ratio, "throughput", ".2f"), "2.40 (1.16-2.69)")

    def test_an_even_count_takes_the_middle_two(self):
        self.assertEqual(bench.median([4, 1, 3, 2]), 2.5)

    def test_logs_are_found_by_count_and_run(self):
        self.rows([(1, "1"), (2, "1")])
        self.assertEqual(bench.logged_counts(self.tmp.name, "i386"), [2])
        self.assertEqual(bench.logged_runs(self.tmp.name, "i386", 2), [1, 2])


if __name__ == "__main__":
    unittest.main()
