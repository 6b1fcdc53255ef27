#!/usr/bin/env python3
"""From exec to pixels: Tessera against nsxiv and feh on one X display, docs/PERFORMANCE-open.md's figures.

    python3 bench/open.py [--runs N] [--geometry WxH] [--only NAMES] CASE...

CASE is `photo:FILE` (one photo opened as from a file manager, `tessera FILE` and `tessera view FILE`, with
tools/bare-sdl.c, a window with a GL renderer and one clear, as the floor) or `folder:DIR` (the thumbnail screen of
a folder: `tessera DIR --window WxH --rows 6 --cell 180x135` against `nsxiv -t`), with `folder-cold:DIR`
emptying both viewers' thumbnail caches before every run. For each case every viewer runs once to settle
and leave its reference picture, then the viewers run in turn, N times each (default 5), alternating,
under tools/firstpaint.c on $DISPLAY (an X server with no window manager, e.g. `Xvfb :77 -screen 0
1280x800x24`). Every window is WxH (default: the screen's size) at the top left. It prints each run's
"first" (the screen changed) and "shown" (within 3 levels of the settled picture) and the medians, in ms.

Needs python3, cc, libx11-dev, nsxiv and feh, and the release binary (TESSERA, default
.build/release/tessera). With TESSERA_B set to another build's binary, it runs as "tessera-b" beside the first,
so two builds are compared in one sitting.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESSERA = os.environ.get("TESSERA", os.path.join(ROOT, ".build/release/tessera"))


def build_tools(folder):
    firstpaint = os.path.join(folder, "firstpaint")
    subprocess.run(["cc", "-O2", "-o", firstpaint, os.path.join(ROOT, "tools/firstpaint.c"), "-lX11"], check=True)
    bare = os.path.join(folder, "bare-sdl")
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "sdl2"], capture_output=True, text=True, check=True).stdout.split()
    subprocess.run(["cc", "-O2", "-o", bare, os.path.join(ROOT, "tools/bare-sdl.c")] + flags, check=True)
    return firstpaint, bare


def screen_size():
    out = subprocess.run(["xdpyinfo"], capture_output=True, text=True).stdout if shutil.which("xdpyinfo") else ""
    for line in out.splitlines():
        if "dimensions:" in line:
            w, h = line.split()[1].split("x")
            return int(w), int(h)
    return 1280, 800


def commands(case, target, width, height, bare):
    geometry = f"{width}x{height}+0+0"
    builds = {"tessera": TESSERA}
    if os.environ.get("TESSERA_B"):
        builds["tessera-b"] = os.environ["TESSERA_B"]
    viewers = {}
    if case == "photo":
        viewers["bare-sdl"] = [bare, f"{width}x{height}"]
        for name, binary in builds.items():
            viewers[name] = [binary, "--no-config", "--window", f"{width}x{height}", target]
        viewers["tessera-view"] = [TESSERA, "view", "--no-config", "--window", f"{width}x{height}", target]
        viewers["nsxiv"] = ["nsxiv", "-g", geometry, target]
        viewers["feh"] = ["feh", "-g", geometry, target]
        return viewers
    for name, binary in builds.items():
        viewers[name] = [binary, "--no-config", "--window", f"{width}x{height}", "--rows", "6", "--cell", "180x135", target]
    viewers["nsxiv"] = ["nsxiv", "-g", geometry, "-t", "-r", target]
    return viewers


def run_once(firstpaint, ref, width, height, command, env, timeout):
    for attempt in range(3):
        out = subprocess.run([firstpaint, ref, "0", "0", str(width), str(height), str(timeout), "--"] + command,
                             capture_output=True, env=env)
        # Xvfb now and then refuses a connection right after a client went: try again after a pause.
        if b"no display" not in out.stderr:
            break
        time.sleep(1)
    if out.returncode != 0:
        raise SystemExit(f"firstpaint failed ({out.stderr.decode().strip()}): {' '.join(command)}")
    if ref == "-":
        return out.stdout
    words = out.stdout.decode().split()
    return float(words[1]), float(words[3])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--geometry")
    parser.add_argument("--only", help="comma-separated viewers: bare-sdl,tessera,tessera-view,nsxiv,feh")
    parser.add_argument("--settle", type=float, default=6, help="seconds a reference run waits")
    parser.add_argument("cases", nargs="+")
    args = parser.parse_args()
    width, height = map(int, args.geometry.split("x")) if args.geometry else screen_size()
    work = tempfile.mkdtemp(prefix="tessera-open-")
    firstpaint, bare = build_tools(work)
    for spec in args.cases:
        kind, target = spec.split(":", 1)
        cold = kind == "folder-cold"
        cache_home = os.path.join(work, "cache")
        env = dict(os.environ, XDG_CACHE_HOME=cache_home)
        viewers = commands("photo" if kind == "photo" else "folder", os.path.abspath(target), width, height, bare)
        if args.only:
            viewers = {k: v for k, v in viewers.items() if k in args.only.split(",")}
        timeout = 60 if kind != "photo" else 10
        refs = {}
        # Each viewer's thumbnail cache is its own folder in it: the reference runs leave them warm.
        shutil.rmtree(cache_home, ignore_errors=True)
        for name, command in viewers.items():
            refs[name] = os.path.join(work, f"{name}.ppm")
            with open(refs[name], "wb") as f:
                f.write(run_once(firstpaint, "-", width, height, command, env, args.settle if kind == "photo" else 40))
        results = {name: [] for name in viewers}
        for run in range(args.runs):
            for name, command in viewers.items():
                if cold:
                    shutil.rmtree(cache_home, ignore_errors=True)
                first, shown = run_once(firstpaint, refs[name], width, height, command, env, timeout)
                results[name].append((first, shown))
                print(f"{spec} {name} run {run + 1}: first {first:.0f} shown {shown:.0f}", file=sys.stderr)
        print(f"{spec} ({width}x{height}, {args.runs} runs, medians in ms)")
        for name, pairs in results.items():
            print(f"  {name:13} first {statistics.median(p[0] for p in pairs):7.0f}   shown {statistics.median(p[1] for p in pairs):7.0f}")
    if not os.environ.get("KEEP"): shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
