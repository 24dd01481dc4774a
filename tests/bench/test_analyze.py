#!/usr/bin/env python3
"""Tests of bench/coll/analyze.py (synthetic CSVs with known answers): the
comparison by machine state (the threshold that splits run.sh's state
probes, the state of a run, and the per-state speedups it writes into
metrics.md), and the large Allreduce's data-volume bound."""
import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ANALYZE = os.path.join(HERE, "..", "..", "bench", "coll", "analyze.py")

spec = importlib.util.spec_from_file_location("analyze", ANALYZE)
analyze = importlib.util.module_from_spec(spec)
spec.loader.exec_module(analyze)

HEADER = "impl,collective,bytes,ranks,avg_us,max_us,iters,round,probe_before_ns,probe_after_ns\n"


def line(impl, nbytes, us, rnd, before, after, coll="bcast"):
    return f"{impl},{coll},{nbytes},2,{us},{us},1000,{rnd},{before},{after}\n"


def metrics_of(text, model=None, extra_files=(), extra_args=()):
    """metrics.md of analyze.py on `text`; extra_files: (option, content)
    pairs, each written to a file passed with that option; extra_args:
    further arguments."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "run.csv")
        with open(path, "w") as f:
            f.write(text)
        args = [sys.executable, ANALYZE, path, "--out", os.path.join(d, "out"), "--no-plots"]
        if model:
            with open(os.path.join(d, "model.csv"), "w") as f:
                f.write(model)
            args += ["--model", os.path.join(d, "model.csv")]
        for i, (option, content) in enumerate(extra_files):
            with open(os.path.join(d, f"extra{i}.csv"), "w") as f:
                f.write(content)
            args += [option, os.path.join(d, f"extra{i}.csv")]
        args += list(extra_args)
        out = os.path.join(d, "out")
        r = subprocess.run(args, capture_output=True, text=True)
        if r.returncode != 0:
            raise AssertionError(f"analyze.py failed: {r.stderr}")
        with open(os.path.join(out, "metrics.md")) as f:
            return f.read()


class Threshold(unittest.TestCase):
    def test_one_state(self):
        self.assertIsNone(analyze.state_threshold([60, 70, 80, 100]))

    def test_two_states(self):
        t = analyze.state_threshold([60, 300, 70, 400, 65])
        self.assertAlmostEqual(t, (70 * 300) ** 0.5)

    def test_spread_without_two_groups(self):
        # Spans 2.5x, but evenly: any split's medians are less than 2x apart.
        self.assertIsNone(analyze.state_threshold([100, 130, 160, 200, 250]))

    def test_three_levels_split_where_the_gap_is(self):
        # The EPYC guest's probes in stop 33: a few at 30-40 ns, most fast
        # ones at 90-130, the slow ones at 200-650. No neighbours are 1.5x
        # apart, but the split falls between 130 and 200.
        probes = [30, 35, 40] + [90, 95, 100, 110, 130] * 3 + [200, 230, 250, 300, 400, 500, 650] * 4
        t = analyze.state_threshold(probes)
        self.assertAlmostEqual(t, (130 * 200) ** 0.5)

    def test_too_few(self):
        self.assertIsNone(analyze.state_threshold([80]))
        self.assertIsNone(analyze.state_threshold([]))


class RunState(unittest.TestCase):
    def test_states(self):
        self.assertEqual(analyze.run_state(60, 70, 150), "fast")
        self.assertEqual(analyze.run_state(300, 400, 150), "slow")
        self.assertEqual(analyze.run_state(60, 400, 150), "changed")
        self.assertEqual(analyze.run_state(400, 60, 150), "changed")


class Metrics(unittest.TestCase):
    def test_speedup_per_state(self):
        csv = HEADER
        # Round 0 fast: HMPI 1, Open MPI 3 (3x). Round 1 slow: HMPI 2, Open
        # MPI 3 (1.5x). Round 2: Open MPI changed state mid-run and took 100:
        # left out of both states.
        csv += line("hmpi", 8, 1.0, 0, 60, 65) + line("ompi", 8, 3.0, 0, 62, 70)
        csv += line("hmpi", 8, 2.0, 1, 300, 350) + line("ompi", 8, 3.0, 1, 320, 310)
        csv += line("ompi", 8, 100.0, 2, 60, 330)
        text = metrics_of(csv)
        self.assertIn("by machine state", text)
        self.assertIn("| bcast | fast | 3.00 ✓ | 3 | 1 | none | - |", text)
        self.assertIn("| bcast | slow | 1.50 ✗ | 3 | 1 | none | - |", text)
        self.assertIn("1 runs changed state", text)

    def test_slower_in_one_state(self):
        csv = HEADER
        csv += line("hmpi", 8, 1.0, 0, 60, 65, "scatter") + line("mpich", 8, 0.8, 0, 62, 70, "scatter")
        csv += line("hmpi", 8, 1.0, 1, 300, 350, "scatter") + line("mpich", 8, 4.0, 1, 320, 310, "scatter")
        text = metrics_of(csv)
        self.assertIn("| scatter | fast | 0.80 ✗ | 2 | 1 | 8 B | - |", text)
        self.assertIn("| scatter | slow | 4.00 ✓ | 2 | 1 | none | - |", text)

    def test_chosen_per_state(self):
        # The model chose `inline` at both sizes. Fast state: inline is the
        # fastest at 8 B and 1.05x the fastest at 4 KiB (both within 10%);
        # slow state: 1.5x the fastest at 8 B, the fastest at 4 KiB.
        model = "collective,algorithm,bytes,predicted_us,chosen\n"
        for b in (8, 4096):
            model += f"bcast,inline,{b},1.0,1\nbcast,split,{b},2.0,0\n"
        csv = HEADER
        for b, fast, slow in ((8, (1.0, 2.0), (3.0, 2.0)), (4096, (2.1, 2.0), (2.0, 4.0))):
            csv += line("hmpi", b, 1.0, 0, 60, 65) + line("ompi", b, 3.0, 0, 62, 70)
            csv += line("hmpi", b, 1.0, 1, 300, 350) + line("ompi", b, 3.0, 1, 320, 310)
            csv += line("hmpi:inline", b, fast[0], 0, 60, 65) + line("hmpi:split", b, fast[1], 0, 60, 65)
            csv += line("hmpi:inline", b, slow[0], 1, 300, 350) + line("hmpi:split", b, slow[1], 1, 300, 350)
        text = metrics_of(csv, model)
        self.assertIn("| bcast | fast | 3.00 ✓ | 3 | 2 | none | 2/2 (100%) |", text)
        self.assertIn("| bcast | slow | 3.00 ✓ | 3 | 2 | none | 1/2 (50%) |", text)

    def test_one_state_says_so(self):
        csv = HEADER + line("hmpi", 8, 1.0, 0, 60, 65) + line("ompi", 8, 3.0, 0, 62, 70)
        text = metrics_of(csv)
        self.assertIn("stayed in one state: 60-70 ns", text)

    def test_no_probes_no_section(self):
        csv = "impl,collective,bytes,ranks,avg_us,max_us,iters,round\n"
        csv += "hmpi,bcast,8,2,1.0,1.0,1000,0\nompi,bcast,8,2,3.0,3.0,1000,0\n"
        text = metrics_of(csv)
        self.assertNotIn("by machine state", text)
        self.assertIn("| bcast | 3.00 ✓ |", text)


class AllreduceBound(unittest.TestCase):
    """The 16 MiB Allreduce against its data access volume, 2 p m bytes."""

    RUN = ("impl,collective,bytes,ranks,avg_us,max_us,iters,round\n"
           "hmpi,allreduce,16777216,2,1200.0,1200.0,5,0\nompi,allreduce,16777216,2,3000.0,3000.0,5,0\n")

    def bound_row(self, text):
        section = text.split("large Allreduce against the data-volume bound")[1].split("###")[0]
        rows = [l for l in section.splitlines() if l.startswith("| 16 MiB |")]
        self.assertEqual(len(rows), 1, text)
        return [c.strip() for c in rows[0].split("|")[1:-1]]

    def test_threads_copying_at_once_are_the_bound(self):
        # 2 threads took 1500 us to copy 16 MiB each: bound 1500 us.
        threads = "threads,size,lat_us_median,lat_us_min,bw_MBps\n2,16777216,1500.0,1400.0,22369.62\n"
        row = self.bound_row(metrics_of(self.RUN, extra_files=[("--copy-threads", threads)]))
        self.assertEqual(row[2], "1500")
        self.assertEqual(row[4], "1.25 ✓")

    def test_a_slower_measurement_fails_the_target(self):
        threads = "2,16777216,900.0,880.0,37282.70\n"  # no header
        row = self.bound_row(metrics_of(self.RUN, extra_files=[("--copy-threads", threads)]))
        self.assertEqual(row[4], "0.75 ✗")

    def test_without_threads_one_threads_bandwidth_per_rank(self):
        # m / BW: 16777216 B / 16.777216 GB/s = 1000 us (not 2 p m / BW,
        # which took the p ranks' volume at one thread's speed: 4000 us).
        row = self.bound_row(metrics_of(self.RUN, extra_args=["--bandwidth", "16.777216"]))
        self.assertEqual(row[2], "1000")
        self.assertEqual(row[4], "0.83 ✓")

    def test_threads_of_another_count_are_not_used(self):
        threads = "4,16777216,1500.0,1400.0,44739.24\n"
        text = metrics_of(self.RUN, extra_files=[("--copy-threads", threads)], extra_args=["--bandwidth", "16.777216"])
        self.assertEqual(self.bound_row(text)[2], "1000")
        self.assertIn("no measurement of 2 threads copying 16 MiB at once", text)

    def test_the_median_of_the_rounds_measurements(self):
        threads = "2,16777216,1400.0,1,1,0,,\n2,16777216,1500.0,1,1,1,,\n2,16777216,2000.0,1,1,2,,\n"
        text = metrics_of(self.RUN, extra_files=[("--copy-threads", threads)])
        self.assertEqual(self.bound_row(text)[2], "1500")
        self.assertIn("median of 3 measurements", text)

    def test_a_bound_per_machine_state(self):
        # Round 0 fast (probes 40 ns), round 1 slow (200 ns): HMPI 1000 and
        # 700 us, the bound measured in each state 1200 and 600 us.
        run = HEADER + "".join([
            line("hmpi", 16777216, 1000.0, 0, 40, 40, "allreduce"), line("ompi", 16777216, 3000.0, 0, 40, 40, "allreduce"),
            line("hmpi", 16777216, 700.0, 1, 200, 200, "allreduce"), line("ompi", 16777216, 2800.0, 1, 200, 200, "allreduce")])
        threads = "2,16777216,1200.0,1,1,0,41,39\n2,16777216,600.0,1,1,1,210,190\n2,16777216,900.0,1,1,2,40,200\n"
        text = metrics_of(run, extra_files=[("--copy-threads", threads)])
        section = text.split("large Allreduce against the data-volume bound")[1].split("###")[0]
        fast = [l for l in section.splitlines() if l.startswith("| 16 MiB, fast state only |")]
        slow = [l for l in section.splitlines() if l.startswith("| 16 MiB, slow state only |")]
        self.assertEqual(len(fast), 1, section)
        self.assertEqual(len(slow), 1, section)
        self.assertEqual([c.strip() for c in fast[0].split("|")[2:6]], ["1000", "1200", "0.83", "1.20 ✓"])
        # The measurement whose probes disagree (round 2) counts for neither.
        self.assertEqual([c.strip() for c in slow[0].split("|")[2:6]], ["700", "600", "1.17", "0.86 ✓"])

    def test_one_state_no_rows_per_state(self):
        run = HEADER + line("hmpi", 16777216, 1000.0, 0, 40, 40, "allreduce")
        threads = "2,16777216,1200.0,1,1,0,41,39\n"
        text = metrics_of(run, extra_files=[("--copy-threads", threads)])
        self.assertNotIn("state only", text)


if __name__ == "__main__":
    unittest.main()
