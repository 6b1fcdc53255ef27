#!/usr/bin/env python3
"""Culling figures, docs/PERFORMANCE-cull.md's: rating many photos, opening a folder full of sidecars,
comparing four large photos.

    python3 bench/cull.py [--runs N] rate PHOTO          # 1,000 names of PHOTO, all marked, ctrl+3
    python3 bench/cull.py [--runs N] sidecars PHOTO      # 100,000 names of PHOTO, with and without sidecars
    python3 bench/cull.py [--runs N] compare DIR         # the first four images of DIR, marked, then c

Every run is a headless run of the release binary (TESSERA, default .build/release/tessera) with
`--no-config --no-thumbnail-cache` and an input script, reading its `--report`:

- rate: the time from the first sidecar's appearance to the last's (polled every 2 ms from this script)
  and the run's frames over 16 ms and slowest frame.
- sidecars: the first frame after start (`startup_ms.first_frame`), alternating a folder without
  sidecars and the same folder with a `NAME.EXT.xmp` beside every photo.
- compare: `compare_sharp_ms`, from the key to every pane sharp.

The photos are hard links to copies of PHOTO, so 100,000 of them take little room. Prints each run and the medians.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESSERA = os.environ.get("TESSERA", os.path.join(ROOT, ".build/release/tessera"))
SIDECAR = """<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="{rating}"/>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>
"""


def linked_folder(folder, photo, count, sidecars=False):
    os.makedirs(folder, exist_ok=True)
    extension = os.path.splitext(photo)[1]
    for i in range(count):
        name = os.path.join(folder, f"IMG_{i:06d}{extension}")
        # A file system allows some 65,000 links to one file: each 50,000 names share a copy of their own.
        source = os.path.join(os.path.dirname(folder), f"{os.path.basename(folder)}-source-{i // 50_000}{extension}")
        if not os.path.exists(source):
            shutil.copyfile(photo, source)
        if not os.path.exists(name):
            os.link(source, name)
        if sidecars:
            with open(name + ".xmp", "w") as f:
                f.write(SIDECAR.format(rating=i % 6))
    return folder


def run(paths, script, folder, extra=()):
    script_path = os.path.join(folder, "script")
    report = os.path.join(folder, "report.json")
    with open(script_path, "w") as f:
        f.write(script)
    subprocess.run([TESSERA] + list(paths) + ["--headless", "--no-config", "--no-thumbnail-cache", "--script", script_path,
                                            "--report", report] + list(extra),
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(report) as f:
        return json.load(f)


def rate(photo, runs):
    times, over, slowest = [], [], []
    for n in range(runs):
        with tempfile.TemporaryDirectory(dir="/tmp") as work:
            folder = linked_folder(os.path.join(work, "photos"), photo, 1000)
            seen = {"first": None, "last": None, "stop": False}

            def poll():
                while not seen["stop"]:
                    count = sum(1 for name in os.listdir(folder) if name.endswith(".xmp"))
                    now = time.monotonic()
                    if count and seen["first"] is None:
                        seen["first"] = now
                    if count >= 1000 and seen["last"] is None:
                        seen["last"] = now
                    time.sleep(0.002)

            poller = threading.Thread(target=poll)
            poller.start()
            report = run([folder], "wait-idle\nkey M\nkey ctrl+3\nwait 0.5\nwait-idle\nquit\n", work)
            seen["stop"] = True
            poller.join()
            written = sum(1 for name in os.listdir(folder) if name.endswith(".xmp"))
            elapsed = (seen["last"] - seen["first"]) * 1000 if seen["last"] and seen["first"] else float("nan")
            times.append(elapsed)
            over.append(report["frames_over_16ms"])
            slowest.append(report["frame_ms"]["max"])
            print(f"run {n + 1}: {written} sidecars, first to last {elapsed:.0f} ms; "
                  f"frames over 16 ms {report['frames_over_16ms']} of {report['frames']}, slowest {report['frame_ms']['max']:.1f} ms")
    print(f"median: {statistics.median(times):.0f} ms to write 1000 sidecars; frames over 16 ms {statistics.median(over)}, "
          f"slowest frame {statistics.median(slowest):.1f} ms")


def sidecars(photo, runs):
    with tempfile.TemporaryDirectory(dir="/tmp") as work:
        plain = linked_folder(os.path.join(work, "plain"), photo, 100_000)
        rated = linked_folder(os.path.join(work, "rated"), photo, 100_000, sidecars=True)
        results = {"without": [], "with": []}
        for n in range(runs):
            for kind, folder in (("without", plain), ("with", rated)):
                report = run([folder], "wait-idle\nquit\n", work)
                first = report["startup_ms"]["first_frame"]
                results[kind].append(first)
                print(f"run {n + 1} {kind} sidecars: first frame {first:.0f} ms, listing {report.get('listing_ms', 0):.0f} ms")
        a, b = statistics.median(results["without"]), statistics.median(results["with"])
        print(f"median first frame: without sidecars {a:.0f} ms, with {b:.0f} ms (ratio {b / a:.2f})")


def compare(folder, runs):
    times = []
    for n in range(runs):
        with tempfile.TemporaryDirectory(dir="/tmp") as work:
            report = run([folder], "wait-idle\nkey m\nkey n\nkey m\nkey n\nkey m\nkey n\nkey m\nkey c\nwait-idle\nquit\n", work,
                         ["--window", "1920x1080"])
            times.append(report["compare_sharp_ms"])
            print(f"run {n + 1}: {report['mode']}, every pane sharp {report['compare_sharp_ms']:.0f} ms after c")
    print(f"median: {statistics.median(times):.0f} ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("case", choices=["rate", "sidecars", "compare"])
    parser.add_argument("path")
    args = parser.parse_args()
    {"rate": rate, "sidecars": sidecars, "compare": compare}[args.case](os.path.abspath(args.path), args.runs)


if __name__ == "__main__":
    main()
