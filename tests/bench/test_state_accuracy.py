#!/usr/bin/env python3
"""Tests of bench/coll/state_accuracy.py (synthetic rounds with known
answers): each state's measurements are scored against the predictions of
the profiles calibrated in that state, a profile's state being the flag
handoff its calibration measured (not the state its round's runs were in)."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "bench", "coll", "state_accuracy.py")
HEADER = "impl,collective,bytes,ranks,avg_us,max_us,iters,round,probe_before_ns,probe_after_ns\n"


def write(d, name, text):
    with open(os.path.join(d, name), "w") as f:
        f.write(text)


def round_files(d, r, handoff, probe, times, predictions):
    """Round r: a profile whose calibration measured `handoff` ns, runs of
    allreduce tree at 8 and 1024 B taking `times` with state probes `probe`,
    and the model's `predictions` for them."""
    write(d, f"prof{r}.txt", f"# NUMA (beta): cores 0->1, flag handoff {handoff} ns, fit error <= 30%\nformat 13\n")
    write(d, f"round{r}.csv", HEADER + "".join(
        f"hmpi:tree,allreduce,{b},2,{t},{t},1000,0,{probe},{probe}\n" for b, t in zip((8, 1024), times)) +
        "hmpi,allreduce,8,2,9.0,9.0,1000,0,{0},{0}\n".format(probe))
    write(d, f"round{r}.model.csv", "collective,algorithm,bytes,predicted_us,chosen\n" + "".join(
        f"allreduce,tree,{b},{p},1\n" for b, p in zip((8, 1024), predictions)))


def score(d, *extra):
    r = subprocess.run([sys.executable, SCRIPT, d, *extra], capture_output=True, text=True)
    if r.returncode != 0:
        raise AssertionError(r.stderr)
    return {tuple(c.strip() for c in l.strip("|").split("|")[:4]): l for l in r.stdout.splitlines() if l.startswith("| ") and not l.startswith("| state ")}


class StateAccuracy(unittest.TestCase):
    def test_each_state_against_its_own_calibration(self):
        with tempfile.TemporaryDirectory() as d:
            # Fast: measured 1.0 and 2.0, predicted within 10%.
            round_files(d, 1, 60.0, 60, (1.0, 2.0), (1.1, 1.9))
            # Slow: measured 4.0 and 8.0; its calibration predicts 3.9, 8.5.
            round_files(d, 2, 250.0, 250, (4.0, 8.0), (3.9, 8.5))
            # Calibrated slow, measured fast: its predictions count for the
            # slow state (where they are right), its runs for the fast one.
            round_files(d, 3, 260.0, 55, (1.0, 2.0), (4.1, 8.1))
            rows = score(d)
            fast = rows[("fast", "1", "allreduce", "tree **(tree/tiled)**")]
            slow = rows[("slow", "2", "allreduce", "tree **(tree/tiled)**")]
            self.assertTrue(fast.rstrip().endswith("| 2/2 |"), fast)
            self.assertTrue(slow.rstrip().endswith("| 2/2 |"), slow)
            # Forced runs only: HMPI's own choice (impl hmpi) is not scored.
            self.assertEqual(len(rows), 2, rows)

    def test_a_wrong_prediction_is_counted_out(self):
        with tempfile.TemporaryDirectory() as d:
            round_files(d, 1, 60.0, 60, (1.0, 2.0), (1.5, 2.1))  # 8 B: 50% high
            round_files(d, 2, 250.0, 250, (4.0, 8.0), (4.0, 8.0))
            rows = score(d)
            fast = rows[("fast", "1", "allreduce", "tree **(tree/tiled)**")]
            self.assertIn("| 50% |", fast)
            self.assertTrue(fast.rstrip().endswith("| 1/2 |"), fast)

    def test_per_size_rows(self):
        with tempfile.TemporaryDirectory() as d:
            round_files(d, 1, 60.0, 60, (1.0, 2.0), (1.5, 2.1))
            round_files(d, 2, 250.0, 250, (4.0, 8.0), (4.0, 8.0))
            r = subprocess.run([sys.executable, SCRIPT, d, "--per-size"], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("| fast | allreduce | tree | 8 | 1.000 | 1.500 | +50% |", r.stdout)
            self.assertIn("| fast | allreduce | tree | 1024 | 2.000 | 2.100 | +5% |", r.stdout)
            self.assertIn("| slow | allreduce | tree | 1024 | 8.000 | 8.000 | +0% |", r.stdout)
            # Without the option, only the table.
            self.assertNotIn("| fast | allreduce | tree | 8 |", subprocess.run(
                [sys.executable, SCRIPT, d], capture_output=True, text=True).stdout)


if __name__ == "__main__":
    unittest.main()
