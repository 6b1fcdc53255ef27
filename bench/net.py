#!/usr/bin/env python3
"""Deep zoom over the network, docs/PERFORMANCE-net.md's figures: a giant image served as an IIIF level-0
tree and as a Deep Zoom pyramid by a loopback server that adds a delay to every request.

    python3 bench/net.py [--runs N] [--delay-ms 50] TREES_DIR

TREES_DIR holds `giant/info.json` (and its tiles: `tessera tile IMG --out TREES_DIR --layout iiif3`) and
`giant.dzi` with `giant_files/` (`tessera tile IMG --out TREES_DIR`), cut from the same image. The
server (Python's threading HTTP server on 127.0.0.1) sleeps DELAY before answering each request and
counts the bytes it sends. For each layout and each run, three headless runs of the release binary
(TESSERA, default .build/release/tessera), each with `--report`:

- fit: `view URL`, waited on until idle: first frame and sharp at fit (`first_frame_ms`, `sharp_ms`);
- 100 %: `view URL --open-at 100@0.37,0.61`: sharp at 100 % at a point inside the image;
- pan: `view URL --open-at 100@0.5,0.5` with a script that pans 12 times: frames over 16 ms, the slowest,
  peak RSS, and the bytes sent against the bytes of the tiles the runs drew (the files' sizes on disk).

Prints each run and the medians. Headless runs draw with SDL's software renderer.
"""
import argparse
import http.server
import json
import os
import statistics
import subprocess
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESSERA = os.environ.get("TESSERA", os.path.join(ROOT, ".build/release/tessera"))


class Server:
    """A static file server on 127.0.0.1 that delays every answer and counts what it sends."""

    def __init__(self, folder, delay):
        counts = {"bytes": 0, "requests": 0}
        lock = threading.Lock()

        class Handler(http.server.SimpleHTTPRequestHandler):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, directory=folder, **kwargs)

            def log_message(self, *args):
                pass

            def copyfile(self, source, outputfile):
                data = source.read()
                with lock:
                    counts["bytes"] += len(data)
                    counts["requests"] += 1
                outputfile.write(data)

            def send_head(self):
                time.sleep(delay)
                return super().send_head()

        self.counts = counts
        self.lock = lock
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def take(self):
        with self.lock:
            taken = dict(self.counts)
            self.counts["bytes"] = 0
            self.counts["requests"] = 0
        return taken


def view(url, work, extra=(), script=None):
    report = os.path.join(work, "report.json")
    arguments = [TESSERA, "view", url, "--headless", "--no-config", "--window", "1280x720", "--report", report]
    if script:
        path = os.path.join(work, "script")
        with open(path, "w") as f:
            f.write(script)
        arguments += ["--script", path]
    subprocess.run(arguments + list(extra), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(report) as f:
        return json.load(f)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--delay-ms", type=float, default=50)
    parser.add_argument("trees")
    args = parser.parse_args()
    server = Server(os.path.abspath(args.trees), args.delay_ms / 1000)
    base = f"http://127.0.0.1:{server.port}"
    pan = "wait-idle\n" + "".join("pan 300 120 0.3\nwait 0.15\n" for _ in range(12)) + "wait-idle\nquit\n"
    for layout, url in (("IIIF level 0", f"{base}/giant/info.json"), ("Deep Zoom", f"{base}/giant.dzi")):
        figures = {"first": [], "fit": [], "hundred": [], "over": [], "slowest": [], "rss": [], "sent": [], "requests": []}
        for n in range(args.runs):
            with tempfile.TemporaryDirectory(dir="/tmp") as work:
                server.take()
                fit = view(url, work)
                hundred = view(url, work, ["--open-at", "100@0.37,0.61"])
                server.take()
                panned = view(url, work, ["--open-at", "100@0.5,0.5"], script=pan)
                sent = server.take()
            figures["first"].append(fit["first_frame_ms"])
            figures["fit"].append(fit["sharp_ms"])
            figures["hundred"].append(hundred["sharp_ms"])
            figures["over"].append(panned["frames_over_16ms"])
            figures["slowest"].append(panned["moving_frame_ms"]["max"] if panned.get("moving_frame_ms") else panned["frame_ms"]["max"])
            figures["rss"].append(panned["peak_rss_bytes"] / 2**20)
            figures["sent"].append(sent["bytes"] / 2**20)
            figures["requests"].append(sent["requests"])
            print(f"{layout} run {n + 1}: first frame {fit['first_frame_ms']:.0f} ms, sharp at fit {fit['sharp_ms']:.0f} ms, "
                  f"sharp at 100 % {hundred['sharp_ms']:.0f} ms; panning: {panned['frames_over_16ms']} of {panned['frames']} "
                  f"frames over 16 ms, peak RSS {panned['peak_rss_bytes'] / 2**20:.0f} MiB, "
                  f"{sent['requests']} requests, {sent['bytes'] / 2**20:.1f} MiB sent, "
                  f"{panned.get('tiles_decoded')} tiles decoded, {panned.get('tiles_failed')} failed")
        m = {k: statistics.median(v) for k, v in figures.items()}
        print(f"{layout} median: first frame {m['first']:.0f} ms, sharp at fit {m['fit']:.0f} ms, sharp at 100 % "
              f"{m['hundred']:.0f} ms; panning: {m['over']} frames over 16 ms, slowest moving frame {m['slowest']:.1f} ms, "
              f"peak RSS {m['rss']:.0f} MiB, {m['requests']:.0f} requests, {m['sent']:.1f} MiB sent")


if __name__ == "__main__":
    main()
