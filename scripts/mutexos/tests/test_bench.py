"""make bench sums up the boots of a configuration: median, min and max."""

import contextlib
import io
import os
import tempfile
import unittest

from mutexos import bench, latency

from .common import ARCHES


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


LATENCY_LOG = """\
bench: start which=latency cpus=2
bench: latency path=up load=none cpus=2 samples=3 min_ns=8384 median_ns=8384 \
p99_ns=9000 max_ns=9000 mean_ns=8589 late=0 tick_ns=10000000
bench: latency-hist path=up load=none lo_ns=8192 hi_ns=10240 count=3
bench: latency path=up load=hog cpus=2 samples=3 min_ns=8560 median_ns=8560 \
p99_ns=12000 max_ns=12000 mean_ns=9706 late=1 tick_ns=10000000 FAILED
bench: latency-hist path=up load=hog lo_ns=8192 hi_ns=10240 count=2
bench: latency-hist path=up load=hog lo_ns=10240 hi_ns=12288 count=1
bench: end status=1
"""


class Latency(unittest.TestCase):
    """The latency lines: parsed, summed up per path and load, drawn."""

    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.rows = []
        for k in (1, 2):
            path = os.path.join(tmp.name, f"i386-cpus2-run{k}.log")
            with open(path, "w") as f:
                f.write(LATENCY_LOG)
            got, self.ok = bench.parse_log(path, "i386", 2, k)
            self.rows += got

    def test_keys_with_digits_and_a_failed_line(self):
        self.assertFalse(self.ok)
        up = bench.select(self.rows, "latency", load="none", run=1)[0]
        self.assertEqual((up["p99_ns"], up["late"], up["path"]), ("9000", "0", "up"))

    def test_summed_up_per_path_load_and_bucket(self):
        summary = bench.summarize(self.rows)
        self.assertEqual(len(bench.select(summary, "latency")), 2)
        hist = bench.select(summary, "latency-hist", load="hog")
        self.assertEqual(sorted(r["lo_ns"] for r in hist), ["10240", "8192"])
        self.assertEqual({r["runs"] for r in hist}, {2})

    def test_histograms_add_up_every_boot(self):
        hist = latency.histograms(self.rows)[("i386", 2)]["hog"]["up"]
        self.assertEqual((hist[8192], hist[10240]), (4, 2))
        self.assertEqual(latency.outline(hist),
                         [(8.192, 0), (8.192, 200 / 3), (10.24, 200 / 3),
                          (10.24, 100 / 3), (12.288, 100 / 3), (12.288, 0)])

    def test_an_empty_bucket_between_goes_down_to_zero(self):
        hist = {1000: 1, 4000: 1, "hi": {1000: 1200, 4000: 5000}}
        self.assertEqual(latency.outline(hist),
                         [(1.0, 0), (1.0, 50), (1.2, 50), (1.2, 0), (4.0, 0),
                          (4.0, 50), (5.0, 50), (5.0, 0)])


def piwalk_log(long_ns):
    return ("bench: start which=piwalk cpus=2\n"
            "bench: piwalk owners=1 rounds=5 min_ns=9000 median_ns=9896 max_ns=9990\n"
            f"bench: piwalk owners=1025 rounds=5 min_ns={long_ns} median_ns={long_ns} "
            f"max_ns={long_ns}\n"
            "bench: piwalk-owner owners=1025 ns_per_owner=1091\n"
            "bench: end status=0\n")


class PiWalk(unittest.TestCase):
    """The chain walk's rows are summed up per chain length."""

    def test_one_row_per_length_over_the_boots(self):
        rows = []
        with tempfile.TemporaryDirectory() as tmp:
            for k, ns in enumerate((1127378, 1000000, 1200000), 1):
                path = os.path.join(tmp, f"i386-cpus2-run{k}.log")
                with open(path, "w") as f:
                    f.write(piwalk_log(ns))
                got, ok = bench.parse_log(path, "i386", 2, k)
                self.assertTrue(ok)
                rows += got
        walks = bench.select(bench.summarize(rows), "piwalk")
        self.assertEqual([(w["owners"], w["median_ns"], w["runs"]) for w in walks],
                         [("1", "9896", 3), ("1025", "1127378", 3)])
        self.assertEqual(bench.spread(walks[1], "max_ns", ".0f"),
                         "1127378 (1000000-1200000)")


def ww_log(per_sec, failed=""):
    head = "tasks=8 locks=64 held=4 work_us=50"
    return ("bench: start which=ww cpus=2\n"
            f"bench: ww lock=global {head} txns=2000 txn_per_sec=1000 backoffs=0 "
            "backoffs_per_txn=0.0000\n"
            f"bench: ww lock=wait-die {head} txns=4000 txn_per_sec={per_sec} backoffs=280 "
            f"backoffs_per_txn=0.0700{failed}\n"
            f"bench: ww lock=wound-wait {head} txns=1800 txn_per_sec=900 backoffs=18 "
            "backoffs_per_txn=0.0100\n"
            f"bench: ww-ratio lock=wait-die base=global throughput={per_sec / 1000:.2f}\n"
            "bench: ww-ratio lock=wound-wait base=global throughput=0.90\n"
            "bench: end status=0\n")


class WW(unittest.TestCase):
    """The ww rows: one per lock over the boots, its ratio beside it."""

    def rows(self, tmp, per_secs, failed=""):
        rows, oks = [], []
        for k, per_sec in enumerate(per_secs, 1):
            path = os.path.join(tmp, f"i386-cpus2-run{k}.log")
            with open(path, "w") as f:
                f.write(ww_log(per_sec, failed))
            got, ok = bench.parse_log(path, "i386", 2, k)
            rows += got
            oks.append(ok)
        return rows, oks

    def test_one_row_per_lock_over_the_boots(self):
        with tempfile.TemporaryDirectory() as tmp:
            rows, oks = self.rows(tmp, (2000, 1800, 2500))
        self.assertEqual(oks, [True] * 3)
        summary = bench.summarize(rows)
        ww = bench.select(summary, "ww")
        self.assertEqual([(r["lock"], r["txn_per_sec"], r["runs"]) for r in ww],
                         [("global", "1000", 3), ("wait-die", "2000", 3),
                          ("wound-wait", "900", 3)])
        self.assertEqual(ww[1]["backoffs_per_txn"], "0.07")
        ratio = bench.select(summary, "ww-ratio", lock="wait-die")[0]
        self.assertEqual(bench.spread(ratio, "throughput", ".2f"), "2.00 (1.80-2.50)")
        with contextlib.redirect_stdout(io.StringIO()) as out:
            bench.print_ww_table(summary)
        table = out.getvalue().splitlines()
        self.assertIn("8 tasks, each transaction 1 to 4 of 64 objects", table[0])
        self.assertRegex(table[3], r"^i386 +2  wait-die +2000 \(1800-2500\) +"
                                   r"0\.0700 \(0\.0700-0\.0700\) +2\.00 \(1\.80-2\.50\)$")
        self.assertRegex(table[2], r"^i386 +2  global .* 1$")

    def test_a_broken_invariant_fails_the_boot(self):
        with tempfile.TemporaryDirectory() as tmp:
            _, oks = self.rows(tmp, (2000,), failed=" FAILED")
        self.assertEqual(oks, [False])


class Settings(unittest.TestCase):
    def test_the_command_line(self):
        settings = bench.Settings(which="latency", loops=50)
        append, note = settings.append(ARCHES["i386"], "icount")
        self.assertEqual(append, "bench=latency synchro.secs=5 vfs.secs=10 vfs.tasks=16 "
                                 "latency.loops=50")
        self.assertIsNone(note)
        self.assertEqual(settings.guest_secs(), 1.0)

    def test_no_hog_under_icount_where_a_pause_ends_no_turn(self):
        append, note = bench.Settings().append(ARCHES["riscv"], "icount")
        self.assertTrue(append.endswith(" latency.hog=0"))
        self.assertIn("riscv: no latency run beside a hog under icount", note)
        self.assertNotIn("latency.hog", bench.Settings().append(ARCHES["riscv"], "tcg")[0])

    def test_all_times_every_benchmark(self):
        self.assertEqual(bench.Settings(vfs_secs=1, synchro_secs=1).guest_secs(),
                         1 + 8 + bench.OVERHEAD_SECS + 4.0 + bench.PIWALK_SECS
                         + bench.WW_SECS)


if __name__ == "__main__":
    unittest.main()
