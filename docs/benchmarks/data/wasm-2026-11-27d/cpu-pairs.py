#!/usr/bin/env python3
"""Over perf-batch.sh's reports (<i>.txt): the first over the second parallel
run of each repetition, by CPU time and by wall span, with the first pair of
each session left out (the recording starts once the pool is up, possibly in
the middle of the warm-up sweep). Usage: cpu-pairs.py DIR"""
import glob, os, re, statistics, sys

cpu, wall = [], []
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.txt")), key=lambda p: int(re.sub(r"\D", "", os.path.basename(p)) or 0)):
    pairs = re.findall(r"first/second CPU ([\d.]+), wall ([\d.]+)", open(f).read())
    print(os.path.basename(f), " ".join(f"{c}/{w}" for c, w in pairs))
    for c, w in pairs[1:]:
        cpu.append(float(c))
        wall.append(float(w))
for name, xs in (("CPU", cpu), ("wall", wall)):
    if xs:
        print(f"{name}: {len(xs)} pairs, first/second median {statistics.median(xs):.3f} "
              f"({min(xs):.3f}-{max(xs):.3f}), first slower in {sum(x > 1 for x in xs)}")

# The pairs whose two runs went to different pool threads: there the
# switches separate the runs exactly (on one thread a sleep inside a run and
# the pause between runs look alike, which gives the wild ratios above).
clean = []
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.txt"))):
    text = open(f).read()
    if "repetitions" not in text:
        continue
    for line in text.split("repetitions")[1].splitlines()[1:]:
        runs = re.findall(r"([\d.]+) \((\d+);", line)
        if len(runs) == 2 and runs[0][1] != runs[1][1]:
            clean.append(float(runs[0][0]) / float(runs[1][0]))
            print(f"clean pair, {os.path.basename(f)}: first {runs[0][0]} ms CPU, second {runs[1][0]} ms")
if clean:
    print(f"clean pairs: {len(clean)}, first/second CPU median {statistics.median(clean):.3f} "
          f"({min(clean):.3f}-{max(clean):.3f}), first slower in {sum(x > 1 for x in clean)}")
