#!/usr/bin/env python3
"""Peak memory of the single view on one large image: docs/RELIABILITY.md's figures.

    python3 bench/view-memory.py IMAGE [RUNS] [-- OPTION...]

Runs `tessera view IMAGE` headless (1280x720, no configuration file, an empty cache folder each run, so a
cut starts cold) RUNS times (default 3) with decodes in sandboxed helpers and RUNS times with
--decode-in-process, through a script that waits until the view is idle at fit, zooms to 100 %, pans
half a screen each way, goes back to fit and quits. While it runs, the viewer and every process under it
are sampled every 10 ms from /proc. For each run it prints:

- viewer: the viewer's own peak RSS (VmHWM, exact);
- together: the largest sum of the RSS of the viewer and its helpers seen at one sample (pages they share,
  the executable's among them, count once in each);
- shared: the largest sum of their proportional set sizes (Pss) at one sample, shared pages divided among
  the processes that map them: what they take of the machine together;
- bound: the sum of each process's own peak (VmHWM), which no moment can exceed;

and the median of each over the runs. OPTIONs go to `tessera view` (e.g. --cache-mb 64). Needs python3's
standard library and the release binary (TESSERA, default .build/release/tessera; build it as `make build`
does). A test image: tools/make-large-jpeg.c.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESSERA = os.path.abspath(os.environ.get("TESSERA", os.path.join(ROOT, ".build/release/tessera")))

SCRIPT = """wait-idle
zoom 100
wait-idle
pan 640 360 0.3
wait-idle
pan -1280 -720 0.3
wait-idle
zoom fit
wait-idle
quit
"""


def status_kb(pid, field):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def pss_kb(pid):
    try:
        with open("/proc/%d/smaps_rollup" % pid) as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def tree(pid):
    """The pid and every process under it."""
    found, queue = [], [pid]
    while queue:
        p = queue.pop()
        found.append(p)
        try:
            for task in os.listdir("/proc/%d/task" % p):
                with open("/proc/%d/task/%s/children" % (p, task)) as f:
                    queue.extend(int(c) for c in f.read().split())
        except OSError:
            pass
    return found


def run(image, extra, in_process):
    with tempfile.TemporaryDirectory() as cache, tempfile.NamedTemporaryFile("w", suffix=".txt") as script:
        script.write(SCRIPT)
        script.flush()
        env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_RENDER_VSYNC="0", XDG_CACHE_HOME=cache)
        command = [TESSERA, "view", image, "--headless", "--no-config", "--window", "1280x720",
                   "--script", script.name] + (["--decode-in-process"] if in_process else []) + extra
        viewer = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        peaks, together, shared = {}, 0, 0
        while viewer.poll() is None:
            total = proportional = 0
            for p in tree(viewer.pid):
                total += status_kb(p, "VmRSS")
                proportional += pss_kb(p)
                hwm = status_kb(p, "VmHWM")
                if hwm:
                    peaks[p] = max(peaks.get(p, 0), hwm)
            together = max(together, total)
            shared = max(shared, proportional)
            time.sleep(0.01)
        if viewer.returncode != 0:
            sys.exit("%s exited with %d" % (" ".join(command), viewer.returncode))
        return peaks.get(viewer.pid, 0) / 1024, together / 1024, shared / 1024, sum(peaks.values()) / 1024


def main():
    args = sys.argv[1:]
    extra = args[args.index("--") + 1:] if "--" in args else []
    args = args[:args.index("--")] if "--" in args else args
    if not args:
        sys.exit(__doc__)
    image, runs = args[0], int(args[1]) if len(args) > 1 else 3
    for in_process in (False, True):
        label = "in process" if in_process else "helpers"
        figures = [run(image, extra, in_process) for _ in range(runs)]
        for viewer, together, shared, bound in figures:
            print("%s %s: viewer %.0f MB, together %.0f MB, shared %.0f MB, bound %.0f MB" % (
                os.path.basename(image), label, viewer, together, shared, bound))
        print("%s %s, median of %d: viewer %.0f MB, together %.0f MB, shared %.0f MB, bound %.0f MB" % (
            os.path.basename(image), label, runs, *(statistics.median(f[i] for f in figures) for i in range(4))))


if __name__ == "__main__":
    main()
