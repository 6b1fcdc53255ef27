#!/usr/bin/env python3
"""Makes HDR test photos from an SDR JPEG: its picture placed at reference white (203 cd/m2, ITU-R BT.2408)
in BT.2020 primaries with the PQ or HLG transfer (BT.2100), as 16-bit PNG samples, then encoded by avifenc
(10-bit AVIF, CICP 9/16/9 or 9/18/9) and cjxl (JPEG XL at distance 1, tagged RGB_D65_202_Rel_PeQ or _HLG).
The untagged twins (the same SDR picture, 10-bit sRGB AVIF and JPEG XL) time the same decoders
without the HDR rendering.

    python3 bench/make-hdr.py PHOTO.jpg OUTDIR

Needs djpeg (libjpeg-turbo-progs), numpy, avifenc (libavif-bin) and cjxl (libjxl-tools)."""
import os, struct, subprocess, sys, zlib
import numpy as np

def read_ppm(path):
    data = subprocess.run(["djpeg", "-pnm", path], check=True, capture_output=True).stdout
    parts = data.split(maxsplit=4)
    assert parts[0] == b"P6", "colour JPEG expected"
    width, height = int(parts[1]), int(parts[2])
    return np.frombuffer(parts[4][: width * height * 3], np.uint8).reshape(height, width, 3)

def write_png16(path, samples):
    height, width, _ = samples.shape
    rows = samples.astype(">u2").reshape(height, width * 3)
    raw = b"".join(b"\0" + row.tobytes() for row in rows)
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    with open(path, "wb") as out:
        out.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 16, 2, 0, 0, 0))
                  + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))

def srgb_to_linear(levels):
    v = levels / 255.0
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)

BT709_TO_BT2020 = np.array([[0.6274, 0.3293, 0.0433], [0.0691, 0.9195, 0.0114], [0.0164, 0.0880, 0.8956]])

def pq_signal(nits):
    m1, m2 = 2610 / 16384, 2523 / 4096 * 128
    c1, c2, c3 = 3424 / 4096, 2413 / 4096 * 32, 2392 / 4096 * 32
    y = (np.clip(nits, 0, None) / 10000) ** m1
    return ((c1 + c2 * y) / (1 + c3 * y)) ** m2

def hlg_signal(nits):
    luminance = nits @ np.array([0.2627, 0.6780, 0.0593])
    scene_luminance = (np.clip(luminance, 1e-12, None) / 1000) ** (1 / 1.2)
    scene = nits / (1000 * scene_luminance ** 0.2)[..., None]
    a = 0.17883277
    b, c = 1 - 4 * a, 0.5 - a * np.log(4 * a)
    return np.where(scene <= 1 / 12, np.sqrt(3 * scene), a * np.log(np.clip(12 * scene - b, 1e-12, None)) + c)

def main():
    photo, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    picture = read_ppm(photo)
    nits = (srgb_to_linear(picture.astype(np.float64)) @ BT709_TO_BT2020.T) * 203
    name = os.path.splitext(os.path.basename(photo))[0]
    for transfer, code, space, signal in (("pq", 16, "RGB_D65_202_Rel_PeQ", pq_signal), ("hlg", 18, "RGB_D65_202_Rel_HLG", hlg_signal)):
        source = os.path.join(out, f"{name}-{transfer}.png")
        write_png16(source, np.round(np.clip(signal(nits), 0, 1) * 65535).astype(np.uint16))
        subprocess.run(["avifenc", "-d", "10", "-y", "444", "-r", "full", "--cicp", f"9/{code}/9", "-s", "6",
                        source, os.path.join(out, f"{name}-{transfer}.avif")], check=True, capture_output=True)
        subprocess.run(["cjxl", source, os.path.join(out, f"{name}-{transfer}.jxl"), "-d", "1", "-e", "3",
                        "-x", f"color_space={space}"], check=True, capture_output=True)
        os.remove(source)
    source = os.path.join(out, f"{name}-sdr.png")
    write_png16(source, picture.astype(np.uint16) * 257)
    subprocess.run(["avifenc", "-d", "10", "-y", "444", "-r", "full", "--cicp", "1/13/1", "-s", "6",
                    source, os.path.join(out, f"{name}-sdr.avif")], check=True, capture_output=True)
    subprocess.run(["cjxl", source, os.path.join(out, f"{name}-sdr.jxl"), "-d", "1", "-e", "3"], check=True, capture_output=True)
    os.remove(source)

if __name__ == "__main__":
    main()
