#!/usr/bin/env bash
# replay.sh - scores the current build's model on recorded runs: for each
# run kept under docs/results (its measured CSV, the profile it was
# calibrated with, its notes), recomputes `hmpi-info --model` on that run's
# machine shape and prints how often the algorithm hmpi-info chooses is
# within 10% of the best forced algorithm (analyze.py's "chosen (hmpi-info)
# within 10%" column), in all and per collective, and at how many sizes the
# tree and tiled algorithms' predictions are within 15% of their measured
# times (the prediction error table's column), then both summed over the
# runs. A model change is judged by these totals before and after
# (docs/model.md).
#
# usage: bench/coll/replay.sh [--out DIR] [RUN...]
#   RUN   names from the list below (default: all)
#   --out where the per-run model CSVs and metrics.md go (default: a temporary folder)
# environment: HMPI_BUILD (default build), PYTHON (default python3)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=${HMPI_BUILD:-$repo/build}
python=${PYTHON:-python3}
out=""
if [[ ${1:-} == --out ]]; then out=$2; shift 2; fi
[[ -n $out ]] || out=$(mktemp -d)
mkdir -p "$out"
R=$repo/docs/results
# name | measured CSV | profile | notes | ranks | --machine (empty: this machine's topology)
# (...f19: the run's profile as format 19, made from its calibration's log
# by profile19.py; ...f18: the run's profile as format 18, made from its calibration's log
# by profile18.py; s50np2s and s51np2f17: format 17 profiles of the same
# calibrations as s50np2f18 and s51np2, to compare the two models;
# s55np2r and s55np2sr: s55np2 and s55np2s with the split at the L2 that
# hmpi-calibrate makes of the same log since stop 56, profile-split.txt;
# s57np2b: run with run3's profile less nt_copy_ratio, replayed with it;
# s59np2, s59np2b: a profile of two machine states, whose predictions, scored here,
# are the first state's (fast) while most of its runs were slow; s60np2c: the
# same profile, a library with shorter tiny calls; s61np2b, s61np2: the same
# profile again, stop 61's library; s62np2: the same profile, stop 62's
# library; s62np2r ... s59np2br: those runs with the same calibrations'
# profile as hmpi-calibrate 22 makes it, stop62/profiles/both.txt (the
# copy-in's one slope, by profile22.py); s62np2b, s62np2c: run with
# 03a57ba's, stop62/profiles/run2-both.txt (a knee at 32 lines,
# the slope past it); s62np2d: run with both.txt; s63np2, s63np2b: run with
# stop63/profiles/both.txt, the same calibrations with hmpi-calibrate 23's
# in-L1 costs (by profile23.py); s62np2dl ... s59np2bl: this guest's runs of
# stops 59-62 with it, beside s62np2d, s62np2r ... s59np2br)
runs=(
  "s63np2b|$R/collectives-np2/stop63/run2/s63np2b.csv.gz|$R/collectives-np2/stop63/profiles/both.txt|$R/collectives-np2/stop63/run2/s63np2b.notes|2|1x2,l1=48K,l2=1M,l3=32M"
  "s63np2|$R/collectives-np2/stop63/run/s63np2.csv.gz|$R/collectives-np2/stop63/profiles/both.txt|$R/collectives-np2/stop63/run/s63np2.notes|2|1x2,l1=48K,l2=1M,l3=32M"
  "s62np2dl|$R/collectives-np2/stop62/run4/s62np2d.csv.gz|$R/collectives-np2/stop63/profiles/both.txt|$R/collectives-np2/stop62/run4/s62np2d.notes|2|1x2,l1=48K,l2=1M,l3=32M"
  "s62np2l|$R/collectives-np2/stop62/run/s62np2.csv.gz|$R/collectives-np2/stop63/profiles/both.txt|$R/collectives-np2/stop62/run/s62np2.notes|2|1x2,l1=48K,l2=1M,l3=32M"
  "s61np2bl|$R/collectives-np2/stop61/run2/s61np2b.csv.gz|$R/collectives-np2/stop63/profiles/both.txt|$R/collectives-np2/stop61/run2/s61np2b.notes|2|1x2,l1=48K,l2=1M,l3=32M"
  "s61np2l|$R/collectives-np2/stop61/run/s61np2.csv.gz|$R/collectives-np2/stop63/profiles/both.txt|$R/collectives-np2/stop61/run/s61np2.notes|2|1x2,l1=48K,l2=1M,l3=32M"
  "s60np2cl|$R/collectives-np2/stop60/run3/s60np2c.csv.gz|$R/collectives-np2/stop63/profiles/both.txt|$R/collectives-np2/stop60/run3/s60np2c.notes|2|1x2,l1=48K,l2=1M,l3=32M"
  "s59np2l|$R/collectives-np2/stop59/run/s59np2.csv.gz|$R/collectives-np2/stop63/profiles/both.txt|$R/collectives-np2/stop59/run/s59np2.notes|2|1x2,l1=48K,l2=1M,l3=32M"
  "s59np2bl|$R/collectives-np2/stop59/run2/s59np2b.csv.gz|$R/collectives-np2/stop63/profiles/both.txt|$R/collectives-np2/stop59/run2/s59np2b.notes|2|1x2,l1=48K,l2=1M,l3=32M"
  "s62np2d|$R/collectives-np2/stop62/run4/s62np2d.csv.gz|$R/collectives-np2/stop62/profiles/both.txt|$R/collectives-np2/stop62/run4/s62np2d.notes|2|1x2,l2=1M,l3=32M"
  "s62np2b|$R/collectives-np2/stop62/run2/s62np2b.csv.gz|$R/collectives-np2/stop62/profiles/run2-both.txt|$R/collectives-np2/stop62/run2/s62np2b.notes|2|1x2,l2=1M,l3=32M"
  "s62np2c|$R/collectives-np2/stop62/run3/s62np2c.csv.gz|$R/collectives-np2/stop62/profiles/run2-both.txt|$R/collectives-np2/stop62/run3/s62np2c.notes|2|1x2,l2=1M,l3=32M"
  "s62np2r|$R/collectives-np2/stop62/run/s62np2.csv.gz|$R/collectives-np2/stop62/profiles/both.txt|$R/collectives-np2/stop62/run/s62np2.notes|2|1x2,l2=1M,l3=32M"
  "s61np2br|$R/collectives-np2/stop61/run2/s61np2b.csv.gz|$R/collectives-np2/stop62/profiles/both.txt|$R/collectives-np2/stop61/run2/s61np2b.notes|2|1x2,l2=1M,l3=32M"
  "s61np2r|$R/collectives-np2/stop61/run/s61np2.csv.gz|$R/collectives-np2/stop62/profiles/both.txt|$R/collectives-np2/stop61/run/s61np2.notes|2|1x2,l2=1M,l3=32M"
  "s60np2cr|$R/collectives-np2/stop60/run3/s60np2c.csv.gz|$R/collectives-np2/stop62/profiles/both.txt|$R/collectives-np2/stop60/run3/s60np2c.notes|2|1x2,l2=1M,l3=32M"
  "s59np2r|$R/collectives-np2/stop59/run/s59np2.csv.gz|$R/collectives-np2/stop62/profiles/both.txt|$R/collectives-np2/stop59/run/s59np2.notes|2|1x2,l2=1M,l3=32M"
  "s59np2br|$R/collectives-np2/stop59/run2/s59np2b.csv.gz|$R/collectives-np2/stop62/profiles/both.txt|$R/collectives-np2/stop59/run2/s59np2b.notes|2|1x2,l2=1M,l3=32M"
  "s62np2|$R/collectives-np2/stop62/run/s62np2.csv.gz|$R/collectives-np2/stop59/profiles/both.txt|$R/collectives-np2/stop62/run/s62np2.notes|2|1x2,l2=1M,l3=32M"
  "s61np2b|$R/collectives-np2/stop61/run2/s61np2b.csv.gz|$R/collectives-np2/stop59/profiles/both.txt|$R/collectives-np2/stop61/run2/s61np2b.notes|2|1x2,l2=1M,l3=32M"
  "s61np2|$R/collectives-np2/stop61/run/s61np2.csv.gz|$R/collectives-np2/stop59/profiles/both.txt|$R/collectives-np2/stop61/run/s61np2.notes|2|1x2,l2=1M,l3=32M"
  "s60np2c|$R/collectives-np2/stop60/run3/s60np2c.csv.gz|$R/collectives-np2/stop59/profiles/both.txt|$R/collectives-np2/stop60/run3/s60np2c.notes|2|1x2,l2=1M,l3=32M"
  "s58np2b|$R/collectives-np2/stop58/run2/s58np2b.csv.gz|$R/collectives-np2/stop58/run2/profile.txt|$R/collectives-np2/stop58/run2/s58np2b.notes|2|1x2,l2=1M,l3=32M"
  "s59np2|$R/collectives-np2/stop59/run/s59np2.csv.gz|$R/collectives-np2/stop59/profiles/both.txt|$R/collectives-np2/stop59/run/s59np2.notes|2|1x2,l2=1M,l3=32M"
  "s59np2b|$R/collectives-np2/stop59/run2/s59np2b.csv.gz|$R/collectives-np2/stop59/profiles/both.txt|$R/collectives-np2/stop59/run2/s59np2b.notes|2|1x2,l2=1M,l3=32M"
  "s58np2|$R/collectives-np2/stop58/run1/s58np2.csv.gz|$R/collectives-np2/stop58/run1/profile.txt|$R/collectives-np2/stop58/run1/s58np2.notes|2|1x2,l2=1M,l3=32M"
  "s57np2e|$R/collectives-np2/stop57/run5/s57np2e.csv.gz|$R/collectives-np2/stop57/run5/profile.txt|$R/collectives-np2/stop57/run5/s57np2e.notes|2|1x2,l2=2M,l3=260M"
  "s57np2d|$R/collectives-np2/stop57/run4/s57np2d.csv.gz|$R/collectives-np2/stop57/run4/profile.txt|$R/collectives-np2/stop57/run4/s57np2d.notes|2|1x2,l2=2M,l3=260M"
  "s57np2c|$R/collectives-np2/stop57/run3/s57np2c.csv.gz|$R/collectives-np2/stop57/run3/profile.txt|$R/collectives-np2/stop57/run3/s57np2c.notes|2|1x2,l2=2M,l3=260M"
  "s57np2b|$R/collectives-np2/stop57/run2/s57np2b.csv.gz|$R/collectives-np2/stop57/run3/profile.txt|$R/collectives-np2/stop57/run2/s57np2b.notes|2|1x2,l2=2M,l3=260M"
  "s57np2|$R/collectives-np2/stop57/run1/s57np2.csv.gz|$R/collectives-np2/stop57/run1/profile.txt|$R/collectives-np2/stop57/run1/s57np2.notes|2|1x2,l2=2M,l3=260M"
  "s56np2b|$R/collectives-np2/stop56/run2/s56np2b.csv.gz|$R/collectives-np2/stop56/run2/profile.txt|$R/collectives-np2/stop56/run2/s56np2b.notes|2|1x2,l2=2M,l3=260M"
  "s56np2|$R/collectives-np2/stop56/run1/s56np2.csv.gz|$R/collectives-np2/stop56/run1/profile.txt|$R/collectives-np2/stop56/run1/s56np2.notes|2|1x2,l2=2M,l3=260M"
  "s55np2|$R/collectives-np2/stop55/barrier/s55np2.csv.gz|$R/collectives-np2/stop55/barrier/profile.txt|$R/collectives-np2/stop55/barrier/s55np2.notes|2|1x2,l2=2M,l3=260M"
  "s55np2s|$R/collectives-np2/stop55/scheduled/s55np2s.csv.gz|$R/collectives-np2/stop55/barrier/profile.txt|$R/collectives-np2/stop55/scheduled/s55np2s.notes|2|1x2,l2=2M,l3=260M"
  "s55np2r|$R/collectives-np2/stop55/barrier/s55np2.csv.gz|$R/collectives-np2/stop55/barrier/profile-split.txt|$R/collectives-np2/stop55/barrier/s55np2.notes|2|1x2,l2=2M,l3=260M"
  "s55np2sr|$R/collectives-np2/stop55/scheduled/s55np2s.csv.gz|$R/collectives-np2/stop55/barrier/profile-split.txt|$R/collectives-np2/stop55/scheduled/s55np2s.notes|2|1x2,l2=2M,l3=260M"
  "s54np2|$R/collectives-np2/stop54/s54np2.csv.gz|$R/collectives-np2/stop54/profile.txt|$R/collectives-np2/stop54/s54np2.notes|2|1x2,l2=2M,l3=260M"
  "s54np2b|$R/collectives-np2/stop54/run2/s54np2b.csv.gz|$R/collectives-np2/stop54/run2/profile.txt|$R/collectives-np2/stop54/run2/s54np2b.notes|2|1x2,l2=2M,l3=260M"
  "s53np2d|$R/collectives-np2/stop53/full/s53np2d.csv.gz|$R/collectives-np2/stop53/full/profile.txt|$R/collectives-np2/stop53/full/s53np2d.notes|2|1x2,l2=2M,l3=260M"
  "s53np2c|$R/collectives-np2/stop53/format19/s53np2c.csv.gz|$R/collectives-np2/stop53/format19/profile.txt|$R/collectives-np2/stop53/format19/s53np2c.notes|2|1x2,l2=2M,l3=260M"
  "s53np2f19|$R/collectives-np2/stop53/s53np2.csv.gz|$R/collectives-np2/stop53/profile-format19.txt|$R/collectives-np2/stop53/s53np2.notes|2|1x2,l2=2M,l3=260M"
  "s52np2f19|$R/collectives-np2/stop52/s52np2.csv.gz|$R/collectives-np2/stop52/profile-format19.txt|$R/collectives-np2/stop52/s52np2.notes|2|1x2,l2=2M,l3=260M"
  "s51np2f19|$R/collectives-np2/stop51/s51np2.csv.gz|$R/collectives-np2/stop51/profile-format19.txt|$R/collectives-np2/stop51/s51np2.notes|2|1x2,l2=2M,l3=260M"
  "s50np2f19|$R/collectives-np2/stop50/forced/s50np2.csv.gz|$R/collectives-np2/stop50/profile-second-format19.txt|$R/collectives-np2/stop50/forced/s50np2.notes|2|1x2,l2=2M,l3=260M"
  "s53np2|$R/collectives-np2/stop53/s53np2.csv.gz|$R/collectives-np2/stop53/profile.txt|$R/collectives-np2/stop53/s53np2.notes|2|1x2,l2=2M,l3=260M"
  "s52np2|$R/collectives-np2/stop52/s52np2.csv.gz|$R/collectives-np2/stop52/profile.txt|$R/collectives-np2/stop52/s52np2.notes|2|1x2,l2=2M,l3=260M"
  "s51np2|$R/collectives-np2/stop51/s51np2.csv.gz|$R/collectives-np2/stop51/profile.txt|$R/collectives-np2/stop51/s51np2.notes|2|1x2,l2=2M,l3=260M"
  "s51np2f17|$R/collectives-np2/stop51/s51np2.csv.gz|$R/collectives-np2/stop51/profile-format17.txt|$R/collectives-np2/stop51/s51np2.notes|2|1x2,l2=2M,l3=260M"
  "s50np2f18|$R/collectives-np2/stop50/forced/s50np2.csv.gz|$R/collectives-np2/stop50/profile-second-format18.txt|$R/collectives-np2/stop50/forced/s50np2.notes|2|1x2,l2=2M,l3=260M"
  "s50np2s|$R/collectives-np2/stop50/forced/s50np2.csv.gz|$R/collectives-np2/stop50/profile-second.txt|$R/collectives-np2/stop50/forced/s50np2.notes|2|1x2,l2=2M,l3=260M"
  "s48np16bf18|$R/collectives-np16/stop48/call2/np16-all.csv.gz|$R/collectives-np16/stop48/call2/profile-format18.txt|$R/collectives-np16/stop48/call2/np16.notes|16|1x16,l2=2M,l3=300M"
  "s48np16f18|$R/collectives-np16/stop48/np16-all.csv.gz|$R/collectives-np16/stop48/profile-format18.txt|$R/collectives-np16/stop48/np16.notes|16|1x16,l2=2M,l3=300M"
  "s47np16af18|$R/collectives-np16/stop47/call1/np16-all.csv.gz|$R/collectives-np16/stop47/call1/profile-format18.txt|$R/collectives-np16/stop47/call1/np16.notes|16|1x16,l2=2M,l3=300M"
  "s47np16bf18|$R/collectives-np16/stop47/call2/np16-all.csv.gz|$R/collectives-np16/stop47/call2/profile-format18.txt|$R/collectives-np16/stop47/call2/np16.notes|16|1x16,l2=2M,l3=300M"
  "s50np2|$R/collectives-np2/stop50/forced/s50np2.csv.gz|$R/collectives-np2/stop50/forced/profile.txt|$R/collectives-np2/stop50/forced/s50np2.notes|2|1x2,l2=2M,l3=260M"
  "s48np16b|$R/collectives-np16/stop48/call2/np16-all.csv.gz|$R/collectives-np16/stop48/call2/profile.txt|$R/collectives-np16/stop48/call2/np16.notes|16|1x16,l2=2M,l3=300M"
  "s48np16|$R/collectives-np16/stop48/np16-all.csv.gz|$R/collectives-np16/stop48/profile.txt|$R/collectives-np16/stop48/np16.notes|16|1x16,l2=2M,l3=300M"
  "s47np16a|$R/collectives-np16/stop47/call1/np16-all.csv.gz|$R/collectives-np16/stop47/call1/profile.txt|$R/collectives-np16/stop47/call1/np16.notes|16|1x16,l2=2M,l3=300M"
  "s47np16b|$R/collectives-np16/stop47/call2/np16-all.csv.gz|$R/collectives-np16/stop47/call2/profile.txt|$R/collectives-np16/stop47/call2/np16.notes|16|1x16,l2=2M,l3=300M"
  "s47np16c|$R/collectives-np16/stop47/call3/np16c.csv.gz|$R/collectives-np16/stop47/call2/profile.txt|$R/collectives-np16/stop47/call3/np16c.notes|16|1x16,l2=2M,l3=300M"
  "s25np16|$R/collectives-np16/stop25/call1/np16.csv.gz|$R/collectives-np16/stop25/call1/profile.txt|$R/collectives-np16/stop25/call1/np16.notes|16|1x16,l2=2M,l3=300M"
  "s17np16|$R/collectives-np16/stop17/np16.csv.gz|$R/collectives-np16/stop17/profile.txt|$R/collectives-np16/stop17/np16.notes|16|1x16,l2=2M,l3=300M"
  "s24np2A|$R/collectives-np2/stop24/runA/s24np2.csv.gz|$R/collectives-np2/stop24/runA/profile.txt|$R/collectives-np2/stop24/runA/s24np2.notes|2|1x2,l2=1280K,l3=48M"
  "s24np2B|$R/collectives-np2/stop24/runB/s24np2.csv.gz|$R/collectives-np2/stop24/runB/profile.txt|$R/collectives-np2/stop24/runB/s24np2.notes|2|1x2,l2=1280K,l3=48M"
  "s21np2|$R/collectives-np2/stop21/s21np2.csv.gz|$R/collectives-np2/stop21/profile.txt|$R/collectives-np2/stop21/s21np2.notes|2|2x1,l2=1M,l3=508M"
  "s20np2|$R/collectives-np2/stop20/s20np2.csv.gz|$R/collectives-np2/stop20/profile.txt|$R/collectives-np2/stop20/s20np2.notes|2|2x1,l2=1M,l3=508M"
  "s27np2|$R/collectives-np2/stop27/s27np2.csv.gz|$R/collectives-np2/stop27/profile.txt|$R/collectives-np2/stop27/s27np2.notes|2|1x2,l2=1280K,l3=48M"
  "s27np2c|$R/collectives-np2/stop27/runC/s27np2c.csv.gz|$R/collectives-np2/stop27/runC/profile.txt|$R/collectives-np2/stop27/runC/s27np2c.notes|2|1x2,l2=1280K,l3=48M"
  "s28np2|$R/collectives-np2/stop28/combined/s28np2ab.csv.gz|$R/collectives-np2/stop28/profile.txt|$R/collectives-np2/stop28/combined/s28np2ab.notes|2|1x2,l2=1M,l3=32M"
  "s28np2k|$R/collectives-np2/stop28/combined/s28np2ab.csv.gz|$R/collectives-np2/stop29/profile-knee.txt|$R/collectives-np2/stop28/combined/s28np2ab.notes|2|1x2,l2=1M,l3=32M"
  "s29np2|$R/collectives-np2/stop29/run/s29np2.csv.gz|$R/collectives-np2/stop29/run/profile.txt|$R/collectives-np2/stop29/run/s29np2.notes|2|1x2,l2=1M,l3=32M"
  "s30np2|$R/collectives-np2/stop30/run/s30np2.csv.gz|$R/collectives-np2/stop30/run/profile.txt|$R/collectives-np2/stop30/run/s30np2.notes|2|2x1,l2=1M,l3=508M"
  "s30np2slow|$R/collectives-np2/stop30/run/s30np2.csv.gz|$R/collectives-np2/stop30/run/profile-slow.txt|$R/collectives-np2/stop30/run/s30np2.notes|2|2x1,l2=1M,l3=508M"
  "s31np2|$R/collectives-np2/stop31/s31red.csv.gz|$R/collectives-np2/stop31/profile.txt|$R/collectives-np2/stop31/s31red.notes|2|2x1,l2=1M,l3=508M"
  "s31np2s|$R/collectives-np2/stop31/s31red.csv.gz|$R/collectives-np2/stop31/profile-slices.txt|$R/collectives-np2/stop31/s31red.notes|2|2x1,l2=1M,l3=508M"
  "s31np2b|$R/collectives-np2/stop31/run2/s31b.csv.gz|$R/collectives-np2/stop31/run2/profile.txt|$R/collectives-np2/stop31/run2/s31b.notes|2|2x1,l2=1M,l3=508M"
  "s31np2b9|$R/collectives-np2/stop31/run2/s31b.csv.gz|$R/collectives-np2/stop31/run2/profile-format9.txt|$R/collectives-np2/stop31/run2/s31b.notes|2|2x1,l2=1M,l3=508M"
  "s32np2|$R/collectives-np2/stop32/s32ar.csv.gz|$R/collectives-np2/stop32/profile.txt|$R/collectives-np2/stop32/s32ar.notes|2|2x1,l2=1M,l3=508M"
  "s32np2f10|$R/collectives-np2/stop32/s32ar.csv.gz|$R/collectives-np2/stop32/profile-format10.txt|$R/collectives-np2/stop32/s32ar.notes|2|2x1,l2=1M,l3=508M"
  "s32np2c|$R/collectives-np2/stop32/run2/s32c.csv.gz|$R/collectives-np2/stop32/run2/profile.txt|$R/collectives-np2/stop32/run2/s32c.notes|2|2x1,l2=1M,l3=508M"
  "s32np2c10|$R/collectives-np2/stop32/run2/s32c.csv.gz|$R/collectives-np2/stop32/run2/profile-format10.txt|$R/collectives-np2/stop32/run2/s32c.notes|2|2x1,l2=1M,l3=508M"
  "s32np2ca|$R/collectives-np2/stop32/run2/s32c.csv.gz|$R/collectives-np2/stop32/run2/profile-after.txt|$R/collectives-np2/stop32/run2/s32c.notes|2|2x1,l2=1M,l3=508M"
  "s33np2|$R/collectives-np2/stop33/s33np2.csv.gz|$R/collectives-np2/stop33/profile.txt|$R/collectives-np2/stop33/s33np2.notes|2|2x1,l2=1M,l3=508M"
  "s33np2a|$R/collectives-np2/stop33/s33np2.csv.gz|$R/collectives-np2/stop33/profile-after.txt|$R/collectives-np2/stop33/s33np2.notes|2|2x1,l2=1M,l3=508M"
  "s33np2b|$R/collectives-np2/stop33/run2/s33b.csv.gz|$R/collectives-np2/stop33/run2/profile.txt|$R/collectives-np2/stop33/run2/s33b.notes|2|2x1,l2=1M,l3=508M"
  "s33np2ba|$R/collectives-np2/stop33/run2/s33b.csv.gz|$R/collectives-np2/stop33/run2/profile-after.txt|$R/collectives-np2/stop33/run2/s33b.notes|2|2x1,l2=1M,l3=508M"
  "s35ar4|$R/collectives-np2/stop35/s35ar4.csv.gz|$R/collectives-np2/stop35/profile.txt|$R/collectives-np2/stop35/s35ar4.notes|2|2x1,l2=1M,l3=508M"
  "s35ag4|$R/collectives-np2/stop35/s35ag4.csv.gz|$R/collectives-np2/stop35/profile.txt|$R/collectives-np2/stop35/s35ag4.notes|2|2x1,l2=1M,l3=508M"
  "s35np2|$R/collectives-np2/stop35/full/s35np2.csv.gz|$R/collectives-np2/stop35/full/profile.txt|$R/collectives-np2/stop35/full/s35np2.notes|2|2x1,l2=1M,l3=508M"
  "s38a|$R/collectives-np2/stop38/s38a.csv.gz|$R/collectives-np2/stop38/profile.txt|$R/collectives-np2/stop38/s38a.notes|2|2x1,l2=1M,l3=508M"
  "s38np2|$R/collectives-np2/stop38/full/s38np2.csv.gz|$R/collectives-np2/stop38/full/profile.txt|$R/collectives-np2/stop38/full/s38np2.notes|2|2x1,l2=1M,l3=508M"
  "s39a|$R/collectives-np2/stop39/s39a.csv.gz|$R/collectives-np2/stop39/profile.txt|$R/collectives-np2/stop39/s39a.notes|2|2x1,l2=1M,l3=508M"
  "s40np2|$R/collectives-np2/stop40/full/s40np2.csv.gz|$R/collectives-np2/stop40/full/profile.txt|$R/collectives-np2/stop40/full/s40np2.notes|2|2x1,l2=1M,l3=508M"
  "s43np2|$R/collectives-np2/stop43/full/s43np2.csv.gz|$R/collectives-np2/stop43/full/profile.txt|$R/collectives-np2/stop43/full/s43np2.notes|2|2x1,l2=1M,l3=508M"
  "s45a2a|$R/collectives-np2/stop45/a2a/s45a2a.csv.gz|$R/collectives-np2/stop45/a2a/s45a2a.profile.txt|$R/collectives-np2/stop45/a2a/s45a2a.notes|2|2x1,l2=1M,l3=508M"
  "s45np2|$R/collectives-np2/stop45/full/s45np2.csv.gz|$R/collectives-np2/stop45/full/s45np2.profile.txt|$R/collectives-np2/stop45/full/s45np2.notes|2|2x1,l2=1M,l3=508M"
  "s45np2slow|$R/collectives-np2/stop45/full/s45np2.csv.gz|$R/collectives-np2/stop45/ring/string-move-ring.profile.txt|$R/collectives-np2/stop45/full/s45np2.notes|2|2x1,l2=1M,l3=508M"
)
colls="barrier bcast reduce allreduce reduce_scatter_block reduce_scatter allgather gather scatter alltoall scan exscan"
# A collective whose algorithms changed is scored only on runs from the stop
# that changed it on (a run's stop: the digits after its name's "s"); older
# runs measured code that no longer exists. scan: stop 30's chained scan
# (one pass per rank, no copy first). allreduce, allgather: stop 35's
# tiled_push and push (the model chooses them from 32 and 16 KiB at 2
# ranks; earlier runs never forced them).
declare -A measured_since=([scan]=30 [allreduce]=35 [allgather]=35)
sizes=0,8,16,32,64,128,256,512,1K,2K,4K,8K,16K,32K,64K,128K,256K,512K,1M,2M,4M,8M,16M
for spec in "${runs[@]}"; do
    IFS='|' read -r name csv profile notes np machine <<<"$spec"
    if (($#)) && [[ " $* " != *" $name "* ]]; then continue; fi
    d=$out/$name
    mkdir -p "$d"
    stop=${name#s}
    stop=${stop%%[!0-9]*}
    run_colls=""
    for c in $colls; do
        if ((stop >= ${measured_since[$c]:-0})); then run_colls+=" $c"; fi
    done
    # A run of only collectives measured before their algorithms changed
    # has nothing left to score (stop 32's Allreduce runs).
    if ! zcat "$csv" | awk -F, -v keep="$run_colls" 'BEGIN { n = split(keep, k, " "); for (i = 1; i <= n; ++i) ok[k[i]] = 1 }
        NR > 1 && ($2 in ok) { found = 1 } END { exit !found }'; then
        printf '%-9s (nothing to score: its collectives were measured before their algorithms changed)\n' "$name"
        continue
    fi
    zcat "$csv" | awk -F, -v keep="$run_colls" 'BEGIN { n = split(keep, k, " "); for (i = 1; i <= n; ++i) ok[k[i]] = 1 }
        NR == 1 || ($2 in ok)' >"$d/run.csv"
    for c in $run_colls; do
        "$build/bin/hmpi-info" --model "$c" -n "$np" --machine "$machine" --csv --profile "$profile" --sizes "$sizes" 2>/dev/null
    done | awk 'NR == 1 || !/^collective/' >"$d/model.csv"
    "$python" "$here/analyze.py" "$d/run.csv" --model "$d/model.csv" --notes "$notes" --no-plots --out "$d" >"$d/analyze.log" 2>&1
    "$python" - "$d/metrics.md" "$name" <<'PY'
import re, sys
ok = total = 0
close = tt = 0  # tree and tiled predictions within 15% of the measurement
per = []
summary = errors = False  # the summary and error tables (not the per-state ones)
for line in open(sys.argv[1]):
    if line.startswith('### '):
        summary = line.rstrip().endswith(': summary')
        errors = line.rstrip().endswith('model prediction error per algorithm')
    cells = [c.strip() for c in line.split('|')]
    if summary and len(cells) > 8 and re.match(r'\d+/\d+', cells[7]):
        a, b = map(int, re.match(r'(\d+)/(\d+)', cells[7]).groups())
        ok += a
        total += b
        per.append(f"{cells[1]} {a}/{b}")
    if errors and len(cells) > 7 and '(tree/tiled)' in cells[2] and re.match(r'\d+/\d+', cells[6]):
        a, b = map(int, re.match(r'(\d+)/(\d+)', cells[6]).groups())
        close += a
        tt += b
print(f"{sys.argv[2]:9s} {ok}/{total} ({100 * ok / max(total, 1):.1f}%)   " + ", ".join(per) +
      f"   tree/tiled within 15%: {close}/{tt}")
PY
done | tee "$out/summary.txt"
awk '{ for (i = 1; i <= NF; ++i) if ($i ~ /^[0-9]+\/[0-9]+$/) { split($i, f, "/"); if (!seen++) { c += f[1]; n += f[2] } }
       if (match($0, /within 15%: [0-9]+\/[0-9]+/)) { split(substr($0, RSTART + 12, RLENGTH - 12), g, "/"); t += g[1]; m += g[2] }
       seen = 0 }
     END { printf "all runs: chosen within 10%% of the best %d/%d; tree/tiled within 15%% %d/%d\n", c, n, t, m }' \
    "$out/summary.txt"
echo "(per-run model CSVs and metrics.md in $out)"
