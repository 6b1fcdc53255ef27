#!/usr/bin/env python3
"""The measurements of docs/PERFORMANCE-formats.md: each format's thumbnails against libvips' for
correctness, speed and instructions, and peak memory while browsing HEIC, AVIF and JPEG XL photos.

    python3 bench/formats.py corpus DIR                    the per-format folders, made from the corpus photos
    python3 bench/formats.py correctness DIR [FORMAT...]   Tessera's cached thumbnails against `vips thumbnail`
    python3 bench/formats.py speed DIR [FORMAT...]         `tessera bench thumbs` against `vipsthumbnail`,
                                                           alternating, ROUNDS rounds (default 3)
    python3 bench/formats.py instructions DIR [FORMAT...]  callgrind, 4 files per format, one worker
    python3 bench/formats.py memory DIR [FOLDER] [OPTION...]  peak RSS browsing 100 HEIC/AVIF/JXL files
                                                           (browse100, or FOLDER of DIR) headless

Needs python3's standard library, libvips-tools, libheif-examples, libjxl-tools, liblcms2-2 and (for
`instructions`) valgrind; the corpus photos from ../shared/corpus/make-corpus.sh
(PHOTOS, default /tmp/tessera-corpus/photos); the release binary (TESSERA, default .build/release/tessera).
"""
import ctypes
import hashlib
import os
import re
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TESSERA = os.path.abspath(os.environ.get("TESSERA", os.path.join(ROOT, ".build/release/tessera")))
PHOTOS = os.environ.get("PHOTOS", "/tmp/tessera-corpus/photos")
SVG_FOLDER = "/usr/share/backgrounds/gnome"

# Twelve corpus photos: three of 5120x2880, two of 3840x2160, one 3200x2000, three 2560x1600, three upright.
SOURCES = ["Autumn-2560x1600.jpg", "Flow-5120x2880.jpg", "Honeywave-1080x1920.jpg", "ColorfulCups-2560x1600.jpg",
           "Altai-1080x1920.png", "Canopee-3840x2160.png", "Elarun-2560x1600.png", "Kay-5120x2880.png",
           "Kokkini-3840x2160.png", "PastelHills-3200x2000.jpg", "SafeLanding-1622x2880.jpg", "Volna-5120x2880.jpg"]

# Folder, extension, and whether the files carry a colour profile that is not sRGB.
FORMATS = [("jpeg", "jpg", False), ("png", "png", False), ("webp", "webp", False),
           ("heic", "heic", False), ("heic-thumb", "heic", False), ("avif", "avif", False), ("jxl", "jxl", False),
           ("tiff", "tif", False), ("gif", "gif", False), ("bmp", "bmp", False), ("svg", "svg", False),
           ("dng", "dng", False), ("p3-jpeg", "jpg", True), ("p3-png", "png", True), ("cmyk-jpeg", "jpg", True)]
TAGGED = {name for name, _, tagged in FORMATS if tagged}


def run(*args, **kwargs):
    return subprocess.run([str(a) for a in args], check=True, **kwargs)


def output(*args):
    return subprocess.run([str(a) for a in args], check=True, capture_output=True, text=True).stdout.strip()


def header(path, field):
    return int(output("vipsheader", "-f", field, path))


def files_of(folder):
    return sorted(os.path.join(folder, f) for f in os.listdir(folder) if not f.startswith("."))


# ---------------------------------------------------------------------------------------------------------
# The corpus

def display_p3_profile(path):
    """Display P3 as phones tag their photos (P3 primaries, D65, the sRGB curve), written by lcms2."""
    lcms = ctypes.CDLL("liblcms2.so.2")

    class XYY(ctypes.Structure):
        _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double), ("Y", ctypes.c_double)]

    white = XYY(0.3127, 0.3290, 1.0)
    primaries = (XYY * 3)(XYY(0.680, 0.320, 1.0), XYY(0.265, 0.690, 1.0), XYY(0.150, 0.060, 1.0))
    lcms.cmsBuildParametricToneCurve.restype = ctypes.c_void_p
    lcms.cmsBuildParametricToneCurve.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_double)]
    srgb_curve = (ctypes.c_double * 5)(2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045)
    curve = lcms.cmsBuildParametricToneCurve(None, 4, srgb_curve)
    curves = (ctypes.c_void_p * 3)(curve, curve, curve)
    lcms.cmsCreateRGBProfile.restype = ctypes.c_void_p
    lcms.cmsCreateRGBProfile.argtypes = [ctypes.POINTER(XYY), ctypes.POINTER(XYY * 3), ctypes.c_void_p]
    profile = lcms.cmsCreateRGBProfile(ctypes.byref(white), ctypes.byref(primaries), curves)
    lcms.cmsSaveProfileToFile.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    if not lcms.cmsSaveProfileToFile(ctypes.c_void_p(profile), path.encode()):
        sys.exit("lcms2 could not write " + path)


def rgb_bytes(png, folder):
    """The photo's 8-bit RGB samples, row by row, with its width and height."""
    raw = os.path.join(folder, "pixels.raw")
    run("vips", "rawsave", png, raw)
    data = open(raw, "rb").read()
    return data, header(png, "width"), header(png, "height")


def write_bmp(png, out, folder):
    """A 24-bit bottom-up BMP, as Windows' Paint saves one."""
    data, w, h = rgb_bytes(png, folder)
    stride = (3 * w + 3) & ~3
    pixels = bytearray()
    for y in range(h - 1, -1, -1):
        row = bytearray(data[3 * w * y:3 * w * (y + 1)])
        row[0::3], row[2::3] = row[2::3], row[0::3]  # BGR
        pixels += row + bytes(stride - 3 * w)
    info = struct.pack("<IiiHHIIiiII", 40, w, h, 1, 24, 0, len(pixels), 2835, 2835, 0, 0)
    with open(out, "wb") as f:
        f.write(b"BM" + struct.pack("<IHHI", 14 + len(info) + len(pixels), 0, 0, 14 + len(info)) + info + pixels)


def write_dng(png, out, folder):
    """A DNG as cameras write them: the full-size JPEG preview in the first directory, and in a SubIFD the
    sensor data, an RGGB mosaic of the photo's samples at 16 bits (its colours do not matter here: a
    thumbnail comes from the preview, and libvips, which has no RAW loader, reads the first directory)."""
    preview_path = os.path.join(folder, "preview.jpg")
    run("vips", "copy", png, preview_path + "[Q=90,subsample-mode=off]")  # YCbCrSubSampling 1, 1
    preview = open(preview_path, "rb").read()
    rgb, w, h = rgb_bytes(png, folder)
    sensor = bytearray(2 * w * h)
    for y in range(h):
        row = rgb[3 * w * y:3 * w * (y + 1)]
        mosaic = bytearray(w)
        if y % 2 == 0:
            mosaic[0::2], mosaic[1::2] = row[0::6], row[4::6]  # R G
        else:
            mosaic[0::2], mosaic[1::2] = row[1::6], row[5::6]  # G B
        sensor[2 * w * y + 1:2 * w * (y + 1):2] = mosaic  # the high bytes: value x 256
    le16 = lambda v: struct.pack("<H", v)
    le32 = lambda v: struct.pack("<I", v)
    model = b"Tessera Bench\0"
    xyz_to_camera = [3.2406, -1.5372, -0.4986, -0.9689, 1.8758, 0.0415, 0.0557, -0.2040, 1.0570]
    matrix = b"".join(struct.pack("<iI", round(v * 10000), 10000) for v in xyz_to_camera)
    # (tag, type, count, value bytes); 273 and 330 are patched with offsets.
    sensor_ifd = [(254, 4, 1, le32(0)), (256, 4, 1, le32(w)), (257, 4, 1, le32(h)), (258, 3, 1, le16(16)),
                  (259, 3, 1, le16(1)), (262, 3, 1, le16(32803)), (273, 4, 1, le32(0)), (277, 3, 1, le16(1)),
                  (278, 4, 1, le32(h)), (279, 4, 1, le32(len(sensor))), (284, 3, 1, le16(1)),
                  (33421, 3, 2, le16(2) + le16(2)), (33422, 1, 4, bytes([0, 1, 1, 2])), (50717, 4, 1, le32(65535))]
    first_ifd = [(254, 4, 1, le32(1)), (256, 4, 1, le32(w)), (257, 4, 1, le32(h)), (258, 3, 3, le16(8) * 3),
                 (259, 3, 1, le16(7)), (262, 3, 1, le16(6)), (271, 2, 8, b"Tessera\0"), (272, 2, len(model), model),
                 (273, 4, 1, le32(0)), (277, 3, 1, le16(3)), (278, 4, 1, le32(h)), (279, 4, 1, le32(len(preview))),
                 (284, 3, 1, le16(1)), (330, 4, 1, le32(0)), (530, 3, 2, le16(1) * 2), (50706, 1, 4, bytes([1, 4, 0, 0])),
                 (50707, 1, 4, bytes([1, 1, 0, 0])), (50708, 2, len(model), model), (50721, 10, 9, matrix),
                 (50728, 5, 3, (le32(1) + le32(1)) * 3), (50778, 3, 1, le16(21))]
    out_bytes = bytearray(b"II*\0" + le32(8))

    def write_ifd(entries, strip):
        start = len(out_bytes)
        values_at = start + 2 + 12 * len(entries) + 4
        values = bytearray()
        positions = {}
        out_bytes.extend(le16(len(entries)))
        for tag, kind, count, value in entries:
            out_bytes.extend(le16(tag) + le16(kind) + le32(count))
            if len(value) <= 4:
                positions[tag] = len(out_bytes)
                out_bytes.extend(value + bytes(4 - len(value)))
            else:
                positions[tag] = values_at + len(values)
                out_bytes.extend(le32(values_at + len(values)))
                values.extend(value + bytes(len(value) % 2))
        out_bytes.extend(le32(0))
        out_bytes.extend(values)
        out_bytes[positions[273]:positions[273] + 4] = le32(len(out_bytes))
        out_bytes.extend(strip)
        if len(out_bytes) % 2:
            out_bytes.append(0)
        return positions

    positions = write_ifd(first_ifd, preview)
    sensor_at = len(out_bytes)
    write_ifd(sensor_ifd, sensor)
    out_bytes[positions[330]:positions[330] + 4] = le32(sensor_at)
    open(out, "wb").write(out_bytes)


def make_corpus(base):
    scratch = tempfile.mkdtemp(prefix="tessera-formats-")
    src = os.path.join(base, "src")
    os.makedirs(src, exist_ok=True)
    p3 = os.path.join(base, "display-p3.icc")
    display_p3_profile(p3)
    for name in SOURCES:
        png = os.path.join(src, os.path.splitext(name)[0] + ".png")
        if not os.path.exists(png):
            run("vips", "copy", os.path.join(PHOTOS, name), png)
    makers = {
        "jpeg": lambda i, o: run("vips", "copy", i, o + "[Q=90]"),
        "png": lambda i, o: shutil.copyfile(i, o),
        "webp": lambda i, o: run("vips", "copy", i, o + "[Q=80]"),
        "heic": lambda i, o: run("heif-enc", "-q", "60", i, "-o", o, stdout=subprocess.DEVNULL),
        "heic-thumb": lambda i, o: run("heif-enc", "-q", "60", "-t", "320", i, "-o", o, stdout=subprocess.DEVNULL),
        "avif": lambda i, o: run("heif-enc", "-A", "-q", "60", i, "-o", o, stdout=subprocess.DEVNULL),
        "jxl": lambda i, o: run("cjxl", "-d", "1", i, o, stderr=subprocess.DEVNULL),
        "tiff": lambda i, o: run("vips", "copy", i, o + "[compression=lzw,predictor=horizontal]"),
        "gif": lambda i, o: run("vips", "copy", i, o),
        "bmp": lambda i, o: write_bmp(i, o, scratch),
        "dng": lambda i, o: write_dng(i, o, scratch),
        "p3-jpeg": lambda i, o: run("vips", "icc_transform", i, o + "[Q=90]", p3, "--input-profile", "srgb"),
        "p3-png": lambda i, o: run("vips", "icc_transform", i, o, p3, "--input-profile", "srgb"),
        "cmyk-jpeg": lambda i, o: run("vips", "icc_transform", i, o + "[Q=90]", "cmyk", "--input-profile", "srgb"),
    }
    for folder, ext, _ in FORMATS:
        out = os.path.join(base, folder)
        os.makedirs(out, exist_ok=True)
        if folder == "svg":
            for svg in sorted(f for f in os.listdir(SVG_FOLDER) if f.endswith(".svg")):
                shutil.copyfile(os.path.join(SVG_FOLDER, svg), os.path.join(out, svg))
            continue
        for png in files_of(src):
            target = os.path.join(out, os.path.splitext(os.path.basename(png))[0] + "." + ext)
            if not os.path.exists(target):
                print("making", target, flush=True)
                makers[folder](png, target)
    # 100 photos to browse: the HEIC, AVIF and JPEG XL files in turn, each copy under a name of its own;
    # and 100 of HEIC and AVIF alone.
    for name, formats in (("browse100", ("heic", "avif", "jxl")), ("browse-heif", ("heic", "avif"))):
        browse = os.path.join(base, name)
        os.makedirs(browse, exist_ok=True)
        pool = [files_of(os.path.join(base, f)) for f in formats]
        for i in range(100):
            origin = pool[i % len(pool)][(i // len(pool)) % 12]
            target = os.path.join(browse, "%03d-%s" % (i, os.path.basename(origin)))
            if not os.path.exists(target):
                shutil.copyfile(origin, target)
    shutil.rmtree(scratch)


# ---------------------------------------------------------------------------------------------------------
# Correctness

def cached_thumbnail(cache, path):
    """Where the freedesktop cache keeps the 256 px thumbnail of `path` (its URI's MD5)."""
    uri = "file://" + urllib.parse.quote(os.path.abspath(path), safe="/!$&'()*+,;=:@-._~")
    return os.path.join(cache, "thumbnails", "large", hashlib.md5(uri.encode()).hexdigest() + ".png")


def write_thumbnails(folder, cache):
    """Opens the folder in the viewer, headless, as a grid whose cells are all on screen and at most
    256 px, so each file's thumbnail is decoded and saved (in `cache`, as XDG_CACHE_HOME) by the viewer's
    own path; then quits once nothing is loading."""
    script = os.path.join(cache, "idle.txt")
    # wait-idle gives up after 20 s; a busy machine may need longer for twelve large photos.
    open(script, "w").write("wait 0.5\n" + "wait-idle\n" * 6 + "quit\n")
    env = dict(os.environ, XDG_CACHE_HOME=cache, SDL_VIDEODRIVER="dummy")
    run(TESSERA, "browse", folder, "--headless", "--no-config", "--no-watch", "--window", "1280x1000",
        "--rows", "4", "--cell", "240x240", "--pixel-scale", "1", "--script", script, env=env)


def shrunk(image, width, height, folder, name):
    """`image` flattened over white to three bands and resized to width x height by one filter (lanczos3)."""
    flat = os.path.join(folder, name + "-flat.v")
    bands = header(image, "bands")
    if bands in (2, 4):
        run("vips", "flatten", image, flat, "--background", "255")
    else:
        run("vips", "copy", image, flat)
    if bands in (1, 2):
        grey = flat
        flat = os.path.join(folder, name + "-rgb.v")
        run("vips", "bandjoin", " ".join([grey] * 3), flat)
    w, h = header(flat, "width"), header(flat, "height")
    out = os.path.join(folder, name + "-small.v")
    run("vips", "resize", flat, out, width / w, "--vscale", height / h)
    cropped = os.path.join(folder, name + "-crop.v")
    run("vips", "crop", out, cropped, 0, 0, width, height)
    return cropped


def difference(a, b, folder):
    """Mean and largest absolute difference of two images of one size, in levels of 255."""
    diff, magnitude = os.path.join(folder, "diff.v"), os.path.join(folder, "abs.v")
    run("vips", "subtract", a, b, diff)
    run("vips", "abs", diff, magnitude)
    return float(output("vips", "avg", magnitude)), float(output("vips", "max", magnitude))


def chosen(wanted):
    """The formats named on the command line, all when none is."""
    return [f for f in FORMATS if not wanted or f[0] in wanted]


def correctness(base, wanted):
    """Each thumbnail against `vips thumbnail` of the file; for tagged files also against libvips' conversion
    of the whole image to sRGB, shrunk after (`vips thumbnail` shrinks CMYK before converting it)."""
    print("| format | files | mean abs diff, mean of files | worst file's mean | largest single difference "
          "| tagged: against whole-image conversion, mean / worst |")
    print("| --- | --- | --- | --- | --- | --- |")
    for folder, _, _ in chosen(wanted):
        files = files_of(os.path.join(base, folder))
        work = tempfile.mkdtemp(prefix="tessera-correct-")
        write_thumbnails(os.path.join(base, folder), work)
        means, converted_first, largest, missing = [], [], 0.0, []
        for path in files:
            ours = cached_thumbnail(work, path)
            if not os.path.exists(ours):
                missing.append(os.path.basename(path))
                continue
            reference = os.path.join(work, "reference.png")
            profile = ["--export-profile", "srgb"] if folder in TAGGED else []
            run("vips", "thumbnail", path, reference, 256, *profile)
            rw, rh = header(reference, "width"), header(reference, "height")
            width, height = (64, max(1, round(64 * rh / rw))) if rw >= rh else (max(1, round(64 * rw / rh)), 64)
            small = shrunk(ours, width, height, work, "ours")
            mean, peak = difference(small, shrunk(reference, width, height, work, "ref"), work)
            means.append((mean, os.path.basename(path)))
            largest = max(largest, peak)
            if folder in TAGGED:
                whole = os.path.join(work, "whole.v")
                run("vips", "icc_transform", path, whole, "srgb", "--embedded")
                run("vips", "thumbnail", whole, reference, 256)
                converted_first.append(difference(small, shrunk(reference, width, height, work, "ref"), work)[0])
        shutil.rmtree(work)
        worst = max(means)
        first = "%.2f / %.2f" % (statistics.mean(converted_first), max(converted_first)) if converted_first else ""
        note = " (no thumbnail: %s)" % ", ".join(missing) if missing else ""
        print("| %s | %d | %.2f | %.2f (%s) | %d | %s |%s" % (
            folder, len(means), statistics.mean(m for m, _ in means), worst[0], worst[1], largest, first, note),
            flush=True)


# ---------------------------------------------------------------------------------------------------------
# Speed

def timed(args):
    """Wall and CPU (user + system) seconds of one run, from /usr/bin/time."""
    log = tempfile.mktemp(prefix="tessera-time-")
    subprocess.run(["/usr/bin/time", "-f", "%e %U %S", "-o", log] + [str(a) for a in args], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall, user, system = map(float, open(log).read().split()[-3:])
    os.remove(log)
    return wall, user + system


def vipsthumbnail_args(folder, files, out):
    profile = ["--export-profile", "srgb"] if os.path.basename(folder) in TAGGED else []
    return ["vipsthumbnail", "-s", "256", *profile, "-o", os.path.join(out, "%s.jpg")] + files


def speed(base, rounds, wanted):
    print("| format | files | Tessera wall / CPU s | vipsthumbnail wall / CPU s | ratio wall / CPU | load average |")
    print("| --- | --- | --- | --- | --- | --- |")
    for folder, _, _ in chosen(wanted):
        path = os.path.join(base, folder)
        files = files_of(path)
        ours, theirs, loads = [], [], []
        for _ in range(rounds):
            loads.append(float(open("/proc/loadavg").read().split()[0]))
            out = tempfile.mkdtemp(prefix="tessera-vt-")
            theirs.append(timed(vipsthumbnail_args(path, files, out)))
            shutil.rmtree(out)
            ours.append(timed([TESSERA, "bench", "thumbs", path, "--size", 256, "--cache", "save"]))
        ow, oc = statistics.median(w for w, _ in ours), statistics.median(c for _, c in ours)
        tw, tc = statistics.median(w for w, _ in theirs), statistics.median(c for _, c in theirs)
        print("| %s | %d | %.2f / %.2f | %.2f / %.2f | %.2f / %.2f | %.1f to %.1f |" % (
            folder, len(files), ow, oc, tw, tc, ow / tw, oc / tc, min(loads), max(loads)), flush=True)


# ---------------------------------------------------------------------------------------------------------
# Instructions

INSTRUCTION_FILES = ["Autumn-2560x1600", "Flow-5120x2880", "Honeywave-1080x1920", "ColorfulCups-2560x1600"]


def instructions_of(args, folder):
    """Instructions over every thread of one run, counted by callgrind."""
    out = os.path.join(folder, "callgrind.out")
    subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out] + [str(a) for a in args],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    total = int(re.search(r"^summary: (\d+)", open(out).read(), re.M).group(1))
    os.remove(out)
    return total


def instructions(base, wanted):
    work = tempfile.mkdtemp(prefix="tessera-callgrind-")
    # valgrind 3.19 cannot read the Swift binary's debug information: count a stripped copy.
    stripped = os.path.join(work, "tessera")
    run("strip", "-o", stripped, TESSERA)
    tiny = os.path.join(work, "tiny.png")
    run("vips", "black", tiny, 8, 8, "--bands", 3)
    out = os.path.join(work, "out")
    os.makedirs(out)
    # callgrind follows no child process: decode in process, so the decodes are counted.
    ours_start = instructions_of([stripped, "bench", "thumbs", tiny, "--workers", 1, "--cache", "save",
                                  "--decode-in-process"], work)
    theirs_start = instructions_of(vipsthumbnail_args(work, [tiny], out), work)
    print("start-up and one tiny PNG: Tessera %.2f G, vipsthumbnail %.2f G" % (ours_start / 1e9, theirs_start / 1e9))
    print("| 4 files per format | Tessera, instructions | vipsthumbnail, instructions | ratio |")
    print("| --- | --- | --- | --- |")
    for folder, ext, _ in chosen(wanted):
        path = os.path.join(base, folder)
        # The SVG corpus is GNOME's wallpapers, not the photos: count all of them.
        names = (sorted(os.path.splitext(f)[0] for f in os.listdir(path) if f.endswith(".svg"))
                 if folder == "svg" else INSTRUCTION_FILES)
        files = [os.path.join(path, n + "." + ext) for n in names]
        ours = instructions_of([stripped, "bench", "thumbs", *files, "--workers", 1, "--cache", "save",
                                "--decode-in-process"], work) - ours_start
        theirs = instructions_of(vipsthumbnail_args(path, files, out), work) - theirs_start
        print("| %s | %.2f G | %.2f G | %.2f |" % (folder, ours / 1e9, theirs / 1e9, ours / theirs), flush=True)
    shutil.rmtree(work)


# ---------------------------------------------------------------------------------------------------------
# Memory

def memory(base, extra):
    """The viewer, headless, on the 100 files: steps to the next photo and waits until it and its
    neighbours are decoded, to the end of the strip; then flings back to the start. A first argument
    that is not an option names another folder of DIR (browse-heif: HEIC and AVIF only)."""
    name = extra.pop(0) if extra and not extra[0].startswith("-") else "browse100"
    folder = os.path.join(base, name)
    work = tempfile.mkdtemp(prefix="tessera-memory-")
    script = os.path.join(work, "steps.txt")
    open(script, "w").write("wait 0.5\nwait-idle\n" + "key n\nwait-idle\n" * 99 + "fling-to-start\nwait-idle\nquit\n")
    report = os.path.join(work, "report.json")
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache"), SDL_VIDEODRIVER="dummy")
    # One row of 400x300 cells, as the figures in docs/PERFORMANCE-formats.md were measured.
    run(TESSERA, "browse", folder, "--headless", "--no-config", "--no-watch", "--rows", "1", "--cell", "400x300",
        "--script", script, "--report", report, *extra, env=env)
    text = open(report).read()
    figures = {key: int(re.search(r'"%s"\s*:\s*(\d+)' % key, text).group(1))
               for key in ("peak_rss_bytes", "peak_cost_bytes", "cost_limit_bytes")}
    shutil.rmtree(work)
    mb = lambda v: v / (1 << 20)
    print("%s %s: peak RSS %.0f MB, cache limit %.0f MB, the cache's peak %.0f MB, RSS over the limit %.0f MB"
          % (name, " ".join(extra) or "(defaults)", mb(figures["peak_rss_bytes"]), mb(figures["cost_limit_bytes"]),
             mb(figures["peak_cost_bytes"]), mb(figures["peak_rss_bytes"] - figures["cost_limit_bytes"])))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    command, base = sys.argv[1], os.path.abspath(sys.argv[2])
    if command == "corpus":
        make_corpus(base)
    elif command == "correctness":
        correctness(base, sys.argv[3:])
    elif command == "speed":
        rounds = int(os.environ.get("ROUNDS", "3"))
        speed(base, rounds, sys.argv[3:])
    elif command == "instructions":
        instructions(base, sys.argv[3:])
    elif command == "memory":
        memory(base, sys.argv[3:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
