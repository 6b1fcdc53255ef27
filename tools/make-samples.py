#!/usr/bin/env python3
"""Deterministic sample-image and UI-asset generator for Tessera.

Usage:
    python3 tools/make-samples.py Resources/Samples                  # sample images only
    python3 tools/make-samples.py Resources/Samples --ui Resources/UI  # samples + UI assets
    python3 tools/make-samples.py --ui Resources/UI                  # UI assets only

Sample images: img1-... .. img26-... (JPEG baseline/progressive/grayscale, PNG
RGB/RGBA/palette, WebP lossy/lossless+alpha, GIF, BMP), sizes from 64x48 up to a
6000x1000 panorama.  Every image shows its own number large in the centre and a
small caption (number, size, format) in the bottom-left corner.  Names are not
zero-padded on purpose, so natural sort (img2 < img10) differs from lexical sort.

UI assets: placeholder.png and error.png, 256x256 RGBA, anti-aliased (4x4
supersampling).

Only the python3 standard library is used, plus the Debian tools `cjpeg`
(libjpeg-turbo-progs) and `cwebp` (webp).  PNG, GIF and BMP are written here.
Output is byte-for-byte identical on every run (fixed seeds, no timestamps, no
metadata).  Stale generated files (img<N>-*.ext) in the samples folder are removed
before writing.
"""

import colorsys
import math
import os
import random
import re
import struct
import subprocess
import sys
import tempfile
import zlib

# ---------------------------------------------------------------------------
# Canvas: bytearray of w*h*ch bytes, painted one horizontal span at a time.
# ---------------------------------------------------------------------------

_TABLES = {}


def blend_table(c, a):
    """translate() table mapping v -> v*(1-a) + c*a, with a in 0..255."""
    key = (c, a)
    t = _TABLES.get(key)
    if t is None:
        t = bytes((v * (255 - a) + c * a + 127) // 255 for v in range(256))
        _TABLES[key] = t
    return t


def clamp8(v):
    return 0 if v < 0 else 255 if v > 255 else int(v + 0.5)


class Canvas:
    def __init__(self, w, h, ch, fill=None):
        self.w, self.h, self.ch = w, h, ch
        if fill is None:
            fill = (0,) * ch
        self.data = bytearray(bytes(fill) * (w * h))

    def span(self, y, x0, x1, color, a=255):
        """Blend `color` (tuple of ch ints) with opacity a (0..255) into [x0, x1) of row y."""
        if y < 0 or y >= self.h or a <= 0:
            return
        if x0 < 0:
            x0 = 0
        if x1 > self.w:
            x1 = self.w
        n = x1 - x0
        if n <= 0:
            return
        ch = self.ch
        d = self.data
        s = (y * self.w + x0) * ch
        e = s + n * ch
        if a >= 255:
            d[s:e] = bytes(color) * n
        elif n <= 3:
            ia = 255 - a
            for i in range(s, e, ch):
                for c in range(ch):
                    d[i + c] = (d[i + c] * ia + color[c] * a + 127) // 255
        else:
            for c in range(ch):
                d[s + c:e:ch] = d[s + c:e:ch].translate(blend_table(color[c], a))

    def rect(self, x0, y0, x1, y1, color, a=255):
        for y in range(max(0, y0), min(self.h, y1)):
            self.span(y, x0, x1, color, a)


def fill_shape(cv, spanfn, y0, y1, color, alpha=1.0, aa=True):
    """Fill a convex shape. spanfn(yf) gives (left, right) of the shape on the
    horizontal line at float y, or None.  With aa, 4 sub-scanlines per pixel
    row and exact horizontal coverage give anti-aliased edges."""
    A = alpha * 255.0
    ys = max(0, int(math.floor(y0)))
    ye = min(cv.h, int(math.ceil(y1)))
    if not aa:
        ai = clamp8(A)
        for y in range(ys, ye):
            sp = spanfn(y + 0.5)
            if sp:
                cv.span(y, int(math.ceil(sp[0] - 0.5)), int(math.floor(sp[1] - 0.5)) + 1, color, ai)
        return
    S = 4
    offs = (0.125, 0.375, 0.625, 0.875)
    w = cv.w
    for y in range(ys, ye):
        valid = []
        for o in offs:
            sp = spanfn(y + o)
            if sp and sp[1] > sp[0]:
                valid.append(sp)
        if not valid:
            continue
        k = len(valid)
        maxl = max(s[0] for s in valid)
        minr = min(s[1] for s in valid)
        minl = min(s[0] for s in valid)
        maxr = max(s[1] for s in valid)
        ia = int(math.ceil(maxl))
        ib = int(math.floor(minr))
        if ia < ib:
            cv.span(y, ia, ib, color, clamp8(A * k / S))
            edges = ((int(math.floor(minl)), ia), (ib, int(math.ceil(maxr))))
        else:
            edges = ((int(math.floor(minl)), int(math.ceil(maxr))),)
        for ex0, ex1 in edges:
            for x in range(max(ex0, 0), min(ex1, w)):
                cov = 0.0
                for l, r in valid:
                    ov = (r if r < x + 1 else x + 1) - (l if l > x else x)
                    if ov > 0:
                        cov += ov
                if cov > 0:
                    cv.span(y, x, x + 1, color, clamp8(A * cov / S))


# Shape span functions -------------------------------------------------------

def disc_fn(cx, cy, r):
    r2 = r * r

    def f(yf):
        dy = yf - cy
        q = r2 - dy * dy
        if q <= 0:
            return None
        dx = math.sqrt(q)
        return (cx - dx, cx + dx)
    return f


def ellipse_fn(cx, cy, rx, ry):
    def f(yf):
        t = (yf - cy) / ry
        q = 1.0 - t * t
        if q <= 0:
            return None
        dx = rx * math.sqrt(q)
        return (cx - dx, cx + dx)
    return f


def poly_fn(pts):
    edges = []
    n = len(pts)
    for i in range(n):
        x1, y1 = pts[i]
        x2, y2 = pts[(i + 1) % n]
        if y1 != y2:
            edges.append((x1, y1, x2, y2, (x2 - x1) / (y2 - y1)))

    def f(yf):
        lo = hi = None
        for x1, y1, x2, y2, k in edges:
            if (y1 <= yf < y2) or (y2 <= yf < y1):
                x = x1 + (yf - y1) * k
                if lo is None:
                    lo = hi = x
                elif x < lo:
                    lo = x
                elif x > hi:
                    hi = x
        if lo is None or hi <= lo:
            return None
        return (lo, hi)
    return f


def rrect_fn(x0, y0, x1, y1, rad):
    rad = max(0.0, min(rad, (x1 - x0) / 2, (y1 - y0) / 2))

    def f(yf):
        if yf < y0 or yf >= y1:
            return None
        dy = max(y0 + rad - yf, yf - (y1 - rad), 0.0)
        inset = rad - math.sqrt(max(rad * rad - dy * dy, 0.0)) if dy > 0 else 0.0
        return (x0 + inset, x1 - inset)
    return f


def disc(cv, cx, cy, r, color, alpha=1.0, aa=True):
    fill_shape(cv, disc_fn(cx, cy, r), cy - r, cy + r, color, alpha, aa)


def ellipse(cv, cx, cy, rx, ry, color, alpha=1.0, aa=True):
    fill_shape(cv, ellipse_fn(cx, cy, rx, ry), cy - ry, cy + ry, color, alpha, aa)


def poly(cv, pts, color, alpha=1.0, aa=True):
    ys = [p[1] for p in pts]
    fill_shape(cv, poly_fn(pts), min(ys), max(ys), color, alpha, aa)


def rrect(cv, x0, y0, x1, y1, rad, color, alpha=1.0, aa=True):
    fill_shape(cv, rrect_fn(x0, y0, x1, y1, rad), y0, y1, color, alpha, aa)


def thick_line(cv, x0, y0, x1, y1, width, color, alpha=1.0, aa=True):
    dx, dy = x1 - x0, y1 - y0
    ln = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / ln * width / 2, dx / ln * width / 2
    poly(cv, [(x0 + nx, y0 + ny), (x1 + nx, y1 + ny), (x1 - nx, y1 - ny), (x0 - nx, y0 - ny)],
         color, alpha, aa)


# ---------------------------------------------------------------------------
# Seven-segment numbers and a 5x7 caption font.
# ---------------------------------------------------------------------------

SEGMENTS = {
    '0': 'abcdef', '1': 'bc', '2': 'abdeg', '3': 'abcdg', '4': 'bcfg',
    '5': 'acdfg', '6': 'acdefg', '7': 'abc', '8': 'abcdefg', '9': 'abcdfg',
}


def number_size(text, H):
    W = 0.56 * H
    gap = 0.22 * H
    return len(text) * W + (len(text) - 1) * gap, W, gap


def segment_polys(ch, x0, y0, W, H):
    t = 0.15 * H
    g = 0.012 * H + 0.5          # gap between segments
    L, R = x0 + t / 2, x0 + W - t / 2
    T, M, B = y0 + t / 2, y0 + H / 2, y0 + H - t / 2
    h2 = t / 2

    def hseg(y):
        xa, xb = L + g, R - g
        return [(xa, y), (xa + h2, y - h2), (xb - h2, y - h2), (xb, y), (xb - h2, y + h2), (xa + h2, y + h2)]

    def vseg(x, ya, yb):
        ya, yb = ya + g, yb - g
        return [(x, ya), (x + h2, ya + h2), (x + h2, yb - h2), (x, yb), (x - h2, yb - h2), (x - h2, ya + h2)]

    segs = {
        'a': hseg(T), 'g': hseg(M), 'd': hseg(B),
        'f': vseg(L, T, M), 'e': vseg(L, M, B),
        'b': vseg(R, T, M), 'c': vseg(R, M, B),
    }
    return [segs[s] for s in SEGMENTS[ch]]


def draw_number(cv, n, cx, cy, H, color=(255, 255, 255), plate=(0, 0, 0), plate_alpha=0.62,
                aa=True, alpha_cv=None):
    """Draw n in seven-segment digits of height H centred on (cx, cy), on a
    rounded translucent plate.  If alpha_cv is given, the plate area is made
    opaque there too (for RGBA outputs)."""
    text = str(n)
    tw, W, gap = number_size(text, H)
    pad = 0.2 * H
    px0, py0, px1, py1 = cx - tw / 2 - pad, cy - H / 2 - pad, cx + tw / 2 + pad, cy + H / 2 + pad
    if plate is not None:
        rrect(cv, px0, py0, px1, py1, pad * 1.2, plate, plate_alpha, aa)
        if alpha_cv is not None:
            rrect(alpha_cv, px0, py0, px1, py1, pad * 1.2, (255,), 1.0, aa)
    x = cx - tw / 2
    for ch in text:
        for p in segment_polys(ch, x, cy - H / 2, W, H):
            poly(cv, p, color, 1.0, aa)
        x += W + gap


FONT = {
    '0': "01110 10001 10011 10101 11001 10001 01110",
    '1': "00100 01100 00100 00100 00100 00100 01110",
    '2': "01110 10001 00001 00010 00100 01000 11111",
    '3': "11111 00010 00100 00010 00001 10001 01110",
    '4': "00010 00110 01010 10010 11111 00010 00010",
    '5': "11111 10000 11110 00001 00001 10001 01110",
    '6': "00110 01000 10000 11110 10001 10001 01110",
    '7': "11111 00001 00010 00100 01000 01000 01000",
    '8': "01110 10001 10001 01110 10001 10001 01110",
    '9': "01110 10001 10001 01111 00001 00010 01100",
    'A': "01110 10001 10001 11111 10001 10001 10001",
    'B': "11110 10001 10001 11110 10001 10001 11110",
    'C': "01110 10001 10000 10000 10000 10001 01110",
    'D': "11100 10010 10001 10001 10001 10010 11100",
    'E': "11111 10000 10000 11110 10000 10000 11111",
    'F': "11111 10000 10000 11110 10000 10000 10000",
    'G': "01110 10001 10000 10111 10001 10001 01111",
    'H': "10001 10001 10001 11111 10001 10001 10001",
    'I': "01110 00100 00100 00100 00100 00100 01110",
    'J': "00111 00010 00010 00010 00010 10010 01100",
    'K': "10001 10010 10100 11000 10100 10010 10001",
    'L': "10000 10000 10000 10000 10000 10000 11111",
    'M': "10001 11011 10101 10101 10001 10001 10001",
    'N': "10001 10001 11001 10101 10011 10001 10001",
    'O': "01110 10001 10001 10001 10001 10001 01110",
    'P': "11110 10001 10001 11110 10000 10000 10000",
    'Q': "01110 10001 10001 10001 10101 10010 01101",
    'R': "11110 10001 10001 11110 10100 10010 10001",
    'S': "01111 10000 10000 01110 00001 00001 11110",
    'T': "11111 00100 00100 00100 00100 00100 00100",
    'U': "10001 10001 10001 10001 10001 10001 01110",
    'V': "10001 10001 10001 10001 10001 01010 00100",
    'W': "10001 10001 10001 10101 10101 10101 01010",
    'X': "10001 10001 01010 00100 01010 10001 10001",
    'Y': "10001 10001 10001 01010 00100 00100 00100",
    'Z': "11111 00001 00010 00100 01000 10000 11111",
    'x': "00000 00000 10001 01010 00100 01010 10001",
    '-': "00000 00000 00000 11111 00000 00000 00000",
    '#': "01010 01010 11111 01010 11111 01010 01010",
    '.': "00000 00000 00000 00000 00000 01100 01100",
    '/': "00001 00010 00010 00100 01000 01000 10000",
    ' ': "00000 00000 00000 00000 00000 00000 00000",
}


def draw_text(cv, text, x0, y0, s, color):
    """5x7 bitmap text, each font pixel an s x s block."""
    x = x0
    for ch in text:
        rows = FONT[ch].split()
        for ry, row in enumerate(rows):
            for rx, bit in enumerate(row):
                if bit == '1':
                    cv.rect(x + rx * s, y0 + ry * s, x + (rx + 1) * s, y0 + (ry + 1) * s, color)
        x += 6 * s


def draw_caption(cv, text, alpha_cv=None):
    if cv.w < 200 or cv.h < 120:
        return
    s = max(1, int(round(min(cv.w, cv.h) / 260)))
    tw, th = (6 * len(text) - 1) * s, 7 * s
    m = 3 * s
    x0, y0 = 2 * m, cv.h - 2 * m - th
    rrect(cv, x0 - m, y0 - m, x0 + tw + m, y0 + th + m, m, (0, 0, 0), 0.55)
    if alpha_cv is not None:
        rrect(alpha_cv, x0 - m, y0 - m, x0 + tw + m, y0 + th + m, m, (255,), 1.0)
    draw_text(cv, text, x0, y0, s, (255, 255, 255))


# ---------------------------------------------------------------------------
# Backgrounds and row overlays (all per-row byte operations, so fast).
# ---------------------------------------------------------------------------

def hsv(h, s, v):
    r, g, b = colorsys.hsv_to_rgb(h % 1.0, s, v)
    return (int(r * 255 + 0.5), int(g * 255 + 0.5), int(b * 255 + 0.5))


def lerp(a, b, t):
    return a + (b - a) * t


class Overlay:
    """Per-row pattern: where mask(y) is set, the row is replaced by its
    translate()d version (tables per channel)."""

    def __init__(self, maskfn, tables):
        self.maskfn = maskfn
        self.tables = tables


def mix_rows(a, b, m):
    n = len(a)
    ia = int.from_bytes(a, 'little')
    ib = int.from_bytes(b, 'little')
    im = int.from_bytes(m, 'little')
    return bytearray(((ia & ~im) | (ib & im)).to_bytes(n, 'little'))


def apply_tables(row, tables, ch):
    if len(tables) == 1 or all(t == tables[0] for t in tables):
        return row.translate(tables[0])
    out = bytearray(len(row))
    for c in range(ch):
        out[c::ch] = row[c::ch].translate(tables[c])
    return out


def paint_background(cv, c1, c2, c3, mix=0.5, diag=0.3, ripple=0.0, ripple_period=400.0,
                     overlays=()):
    """Gradient c1 -> c2 along a slanted axis, blended towards c3 at the bottom
    (amount `mix`), optional sine ripple; then the row overlays."""
    w, h, ch = cv.w, cv.h, cv.ch
    L = w + int(diag * h) + 2
    bases = []
    for c in range(3):
        vals = bytearray(L)
        for u in range(L):
            t = u / (L - 1)
            t = t * t * (3 - 2 * t)
            v = lerp(c1[c], c2[c], t)
            if ripple:
                v += ripple * math.sin(2 * math.pi * u / ripple_period + c)
            vals[u] = clamp8(v)
        bases.append(bytes(vals))
    d = cv.data
    stride = w * ch
    for y in range(h):
        off = int(diag * (h - 1 - y))
        ty = y / max(1, h - 1)
        a = clamp8(255 * mix * ty ** 1.3)
        row = bytearray(stride)
        for c in range(3):
            row[c::ch] = bases[c][off:off + w].translate(blend_table(c3[c], a))
        for ov in overlays:
            m = ov.maskfn(y)
            if m is not None:
                row = mix_rows(row, apply_tables(row, ov.tables, ch), m)
        d[y * stride:(y + 1) * stride] = row


def expand_mask(bits, ch):
    """bits: bytes of 0/1 per pixel -> bytes of 0x00/0xFF per channel byte."""
    b = bytes(bits).translate(bytes([0, 255]) + bytes(254))
    if ch == 1:
        return b
    out = bytearray(len(b) * ch)
    for c in range(ch):
        out[c::ch] = b
    return bytes(out)


def checker_mask(w, ch, cell, x0=0, x1=None, y0=0, y1=None, phase=0):
    """Checkerboard of `cell`-px squares inside the given rectangle."""
    x1 = w if x1 is None else x1
    rows = []
    for p in range(2):
        bits = bytearray(w)
        for x in range(x0, x1):
            bits[x] = ((x - x0) // cell + p) & 1
        rows.append(expand_mask(bits, ch))

    def f(y):
        if y < y0 or (y1 is not None and y >= y1):
            return None
        return rows[((y - y0) // cell + phase) & 1]
    return f


def stripe_mask(w, h, ch, period, duty=0.5, slope=1.0, x0=0, x1=None, y0=0, y1=None):
    """Diagonal stripes (slope = horizontal shift per row), restricted to a rectangle."""
    x1 = w if x1 is None else x1
    y1 = h if y1 is None else y1
    L = w + int(abs(slope) * h) + 2
    bits = bytearray(L)
    for u in range(L):
        bits[u] = 1 if (u % period) < period * duty else 0
    clip = bytearray(w)
    for x in range(x0, x1):
        clip[x] = 1
    pat = expand_mask(bits, ch)
    clipm = int.from_bytes(expand_mask(clip, ch), 'little')
    n = w * ch

    def f(y):
        if y < y0 or y >= y1:
            return None
        off = int(slope * y) if slope >= 0 else int(-slope * (h - 1 - y))
        m = int.from_bytes(pat[off * ch:(off + w) * ch], 'little') & clipm
        return m.to_bytes(n, 'little')
    return f


def chirp_mask(w, ch, p0, p1, y0, y1, x0=0, x1=None):
    """Vertical stripes whose period goes from p0 to p1 px (left to right)."""
    x1 = w if x1 is None else x1
    bits = bytearray(w)
    phase = 0.0
    for x in range(x0, x1):
        t = (x - x0) / max(1, x1 - x0 - 1)
        p = p0 * (p1 / p0) ** t
        bits[x] = 1 if (phase % 1.0) < 0.5 else 0
        phase += 1.0 / p
    m = expand_mask(bits, ch)

    def f(y):
        return m if y0 <= y < y1 else None
    return f


def wave_mask(w, ch, period, amp, wavelength, y0=0, y1=None, x0=0, x1=None):
    """Wavy vertical stripes."""
    x1 = w if x1 is None else x1
    L = w + 2 * int(amp) + 4
    bits = bytearray(L)
    for u in range(L):
        bits[u] = 1 if (u % period) < period / 2 else 0
    pat = expand_mask(bits, ch)
    clip = bytearray(w)
    for x in range(x0, x1):
        clip[x] = 1
    clipm = int.from_bytes(expand_mask(clip, ch), 'little')
    n = w * ch

    def f(y):
        if y < y0 or (y1 is not None and y >= y1):
            return None
        off = int(amp + amp * math.sin(2 * math.pi * y / wavelength))
        m = int.from_bytes(pat[off * ch:(off + w) * ch], 'little') & clipm
        return m.to_bytes(n, 'little')
    return f


T_INVERT = bytes(255 - v for v in range(256))
T_DARK = bytes(int(v * 0.62) for v in range(256))
T_LIGHT = bytes(int(v + (255 - v) * 0.45) for v in range(256))
T_SOFTDARK = bytes(int(v * 0.82) for v in range(256))


def tint_tables(color, a):
    return tuple(blend_table(c, a) for c in color)


# ---------------------------------------------------------------------------
# Scenes.
# ---------------------------------------------------------------------------

def rand_palette(rng):
    h = rng.random()
    c1 = hsv(h, 0.55 + 0.3 * rng.random(), 0.85 + 0.15 * rng.random())
    c2 = hsv(h + 0.18 + 0.25 * rng.random(), 0.6 + 0.3 * rng.random(), 0.75 + 0.2 * rng.random())
    c3 = hsv(h + 0.5 + 0.2 * rng.random(), 0.5 + 0.4 * rng.random(), 0.35 + 0.3 * rng.random())
    return h, c1, c2, c3


def scene_bubbles(cv, rng, count=26, alpha_range=(0.25, 0.6), overlays_fn=None):
    w, h = cv.w, cv.h
    hue, c1, c2, c3 = rand_palette(rng)
    ovs = overlays_fn(cv, rng) if overlays_fn else ()
    paint_background(cv, c1, c2, c3, mix=0.55, diag=0.4, ripple=10, ripple_period=w / 3, overlays=ovs)
    m = min(w, h)
    for i in range(count):
        r = m * (0.03 + 0.22 * rng.random() ** 1.7)
        cx, cy = rng.random() * w, rng.random() * h
        col = hsv(hue + rng.random() * 0.6 - 0.3, 0.4 + 0.5 * rng.random(), 0.6 + 0.4 * rng.random())
        disc(cv, cx, cy, r, col, lerp(*alpha_range, rng.random()))
        if rng.random() < 0.3:
            disc(cv, cx - r * 0.3, cy - r * 0.3, r * 0.35, (255, 255, 255), 0.25)


def scene_rings(cv, rng, cx=None, cy=None, rmax=None, overlays_fn=None, chirp=True):
    w, h = cv.w, cv.h
    hue, c1, c2, c3 = rand_palette(rng)
    ovs = overlays_fn(cv, rng) if overlays_fn else ()
    paint_background(cv, c1, c2, c3, mix=0.6, diag=0.2, overlays=ovs)
    m = min(w, h)
    cx = w * (0.3 + 0.4 * rng.random()) if cx is None else cx
    cy = h * (0.35 + 0.3 * rng.random()) if cy is None else cy
    rmax = m * 0.46 if rmax is None else rmax
    ca = hsv(hue + 0.5, 0.7, 0.95)
    cb = hsv(hue + 0.62, 0.5, 0.3)
    # ring width shrinks outwards (down to ~1.5 px): moire shows bad downscaling
    r = rmax
    i = 0
    wmin = max(1.5, m / 1200)
    while r > m * 0.02:
        t = r / rmax
        width = wmin + (m * 0.05) * (1 - t) ** 2 if chirp else m * 0.025
        disc(cv, cx, cy, r, ca if i % 2 == 0 else cb, 1.0)
        r -= width
        i += 1
    # a few satellites
    for k in range(6):
        ang = 2 * math.pi * k / 6 + rng.random()
        rr = rmax * (1.08 + 0.1 * rng.random())
        disc(cv, cx + rr * math.cos(ang), cy + rr * math.sin(ang), m * (0.02 + 0.04 * rng.random()),
             hsv(hue + k / 6, 0.6, 1.0), 0.8)


def scene_mosaic(cv, rng, cols=8, rows=5, overlays_fn=None, alpha_cv=None, bg_alpha_tiles=False):
    w, h = cv.w, cv.h
    hue, c1, c2, c3 = rand_palette(rng)
    ovs = overlays_fn(cv, rng) if overlays_fn else ()
    paint_background(cv, c1, c2, c3, mix=0.7, diag=0.5, overlays=ovs)
    tw, th = w / cols, h / rows
    gap = min(tw, th) * 0.08
    for j in range(rows):
        for i in range(cols):
            x0, y0 = i * tw + gap, j * th + gap
            x1, y1 = (i + 1) * tw - gap, (j + 1) * th - gap
            col = hsv(hue + 0.35 * math.sin(i * 0.7 + j * 0.4) + 0.1 * rng.random(),
                      0.35 + 0.5 * rng.random(), 0.55 + 0.45 * rng.random())
            a = 0.92 if rng.random() < 0.8 else 0.55
            rrect(cv, x0, y0, x1, y1, min(tw, th) * 0.15, col, a)
            if alpha_cv is not None:
                rrect(alpha_cv, x0, y0, x1, y1, min(tw, th) * 0.15, (255 if a > 0.9 else 150,), 1.0)
            kind = rng.random()
            ccx, ccy = (x0 + x1) / 2, (y0 + y1) / 2
            rr = min(x1 - x0, y1 - y0) * 0.32
            if kind < 0.35:
                disc(cv, ccx, ccy, rr, hsv(hue + 0.5 + rng.random() * 0.2, 0.6, 0.95), 0.9)
            elif kind < 0.6:
                poly(cv, [(ccx, ccy - rr), (ccx + rr, ccy + rr * 0.8), (ccx - rr, ccy + rr * 0.8)],
                     hsv(hue + 0.3, 0.2, 1.0), 0.85)
            elif kind < 0.8:
                for q in range(4):
                    disc(cv, ccx, ccy, rr * (1 - q * 0.22), (255, 255, 255) if q % 2 == 0 else col, 0.9)


def scene_landscape(cv, rng, layers=4):
    w, h = cv.w, cv.h
    sky_top = hsv(0.6 + 0.05 * rng.random(), 0.65, 0.55)
    horizon = hsv(0.06 + 0.04 * rng.random(), 0.65, 1.0)
    water_y = int(h * 0.78)
    ovs = [Overlay(stripe_mask(w, h, 3, max(6, h // 60), 0.2, slope=0.0, y0=water_y),
                   (T_LIGHT,))]
    paint_background(cv, sky_top, sky_top, horizon, mix=1.0, diag=0.0, overlays=ovs)
    # make water darker
    for y in range(water_y, h):
        cv.span(y, 0, w, (20, 40, 90), 110 + int(100 * (y - water_y) / (h - water_y)))
    sx, sy, sr = w * (0.25 + 0.5 * rng.random()), h * 0.45, h * 0.12
    for k in range(5, 0, -1):
        disc(cv, sx, sy, sr * (1 + k * 0.35), (255, 230, 160), 0.08)
    disc(cv, sx, sy, sr, (255, 246, 214), 1.0)
    for li in range(layers):
        t = li / max(1, layers - 1)
        col = tuple(int(lerp(a, b, t)) for a, b in zip((150, 120, 160), (25, 20, 45)))
        base = water_y + 1
        top = h * (0.25 + 0.12 * li)
        x = -w * 0.05
        while x < w * 1.05:
            bw = h * (0.4 + 0.7 * rng.random())
            peak = top + (base - top) * (0.15 + 0.6 * rng.random())
            px = x + bw * (0.3 + 0.4 * rng.random())
            poly(cv, [(x, base), (px, peak), (x + bw, base)], col, 1.0)
            x += bw * (0.45 + 0.3 * rng.random())


def scene_checker(cv, rng, cells=(2, 4, 8, 16, 32, 64), tables=None):
    w, h = cv.w, cv.h
    hue, c1, c2, c3 = rand_palette(rng)
    n = len(cells)
    ovs = []
    for i, c in enumerate(cells):
        x0, x1 = w * i // n, w * (i + 1) // n
        ovs.append(Overlay(checker_mask(w, 3, c, x0, x1, 0, h), tables or (T_DARK,)))
    paint_background(cv, c1, c2, c3, mix=0.4, diag=0.3, overlays=ovs)
    m = min(w, h)
    for k in range(5):
        disc(cv, w * (0.1 + 0.8 * k / 4), h * 0.82, m * 0.07, hsv(hue + k / 5, 0.7, 1.0), 0.85)


# ---------------------------------------------------------------------------
# Encoders.
# ---------------------------------------------------------------------------

def png_chunk(kind, data):
    c = struct.pack('>I', len(data)) + kind + data
    return c + struct.pack('>I', zlib.crc32(kind + data) & 0xffffffff)


_R256 = range(256)


def write_png(path, w, h, data, color_type, palette=None, trns=None, level=9):
    """color_type: 0 grey, 2 RGB, 3 palette, 6 RGBA.  Rows use the Up filter
    (palette images: no filter)."""
    bpp = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color_type]
    stride = w * bpp
    raw = bytearray()
    prev = bytes(stride)
    import operator
    sub = operator.sub
    for y in range(h):
        row = bytes(data[y * stride:(y + 1) * stride])
        if color_type == 3:
            raw += b'\x00' + row
        else:
            raw += b'\x02' + bytes(map(_R256.__getitem__, map(sub, row, prev)))
        prev = row
    out = b'\x89PNG\r\n\x1a\n'
    out += png_chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, color_type, 0, 0, 0))
    if palette is not None:
        out += png_chunk(b'PLTE', b''.join(bytes(c[:3]) for c in palette))
    if trns is not None:
        out += png_chunk(b'tRNS', bytes(trns))
    out += png_chunk(b'IDAT', zlib.compress(bytes(raw), level))
    out += png_chunk(b'IEND', b'')
    write_file(path, out)


def write_bmp(path, w, h, rgb):
    stride = (w * 3 + 3) & ~3
    pad = bytes(stride - w * 3)
    bgr = bytearray(len(rgb))
    bgr[0::3] = rgb[2::3]
    bgr[1::3] = rgb[1::3]
    bgr[2::3] = rgb[0::3]
    pix = bytearray()
    for y in range(h - 1, -1, -1):
        pix += bgr[y * w * 3:(y + 1) * w * 3] + pad
    hdr = struct.pack('<2sIHHI', b'BM', 14 + 40 + len(pix), 0, 0, 14 + 40)
    info = struct.pack('<IiiHHIIiiII', 40, w, h, 1, 24, 0, len(pix), 2835, 2835, 0, 0)
    write_file(path, hdr + info + bytes(pix))


def lzw_gif(indices, min_size=8):
    clear, eoi = 1 << min_size, (1 << min_size) + 1
    out = bytearray()
    acc = 0
    nbits = 0
    size = min_size + 1

    def reset():
        return {bytes([i]): i for i in range(clear)}, eoi + 1

    table, nxt = reset()
    codes = [clear]
    sizes = [size]
    w = b''
    for b in indices:
        k = bytes((b,))
        wk = w + k
        if wk in table:
            w = wk
            continue
        codes.append(table[w])
        sizes.append(size)
        if nxt < 4096:
            table[wk] = nxt
            nxt += 1
            if nxt > (1 << size) and size < 12:
                size += 1
        else:
            codes.append(clear)
            sizes.append(size)
            table, nxt = reset()
            size = min_size + 1
        w = k
    if w:
        codes.append(table[w])
        sizes.append(size)
    codes.append(eoi)
    sizes.append(size)
    for c, s in zip(codes, sizes):
        acc |= c << nbits
        nbits += s
        while nbits >= 8:
            out.append(acc & 0xff)
            acc >>= 8
            nbits -= 8
    if nbits:
        out.append(acc & 0xff)
    return bytes(out)


def write_gif(path, w, h, indices, palette):
    pal = list(palette) + [(0, 0, 0)] * (256 - len(palette))
    out = bytearray(b'GIF89a')
    out += struct.pack('<HHBBB', w, h, 0xF7, 0, 0)
    out += b''.join(bytes(c) for c in pal)
    out += b'\x2c' + struct.pack('<HHHHB', 0, 0, w, h, 0)
    out += b'\x08'
    lz = lzw_gif(indices, 8)
    for i in range(0, len(lz), 255):
        blk = lz[i:i + 255]
        out += bytes((len(blk),)) + blk
    out += b'\x00\x3b'
    write_file(path, bytes(out))


def ppm_bytes(cv):
    return b'P6\n%d %d\n255\n' % (cv.w, cv.h) + bytes(cv.data)


def pam_rgba(w, h, rgba):
    return (b'P7\nWIDTH %d\nHEIGHT %d\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n' % (w, h)
            + bytes(rgba))


def interleave_rgba(rgb_cv, a_cv):
    n = rgb_cv.w * rgb_cv.h
    out = bytearray(n * 4)
    for c in range(3):
        out[c::4] = rgb_cv.data[c::3]
    out[3::4] = a_cv.data
    return out


def write_file(path, data):
    tmp = path + '.tmp'
    with open(tmp, 'wb') as f:
        f.write(data)
    os.replace(tmp, path)


def write_jpeg(path, cv, quality, progressive=False, gray=False):
    args = ['cjpeg', '-quality', str(quality), '-optimize']
    if progressive:
        args.append('-progressive')
    if gray:
        args.append('-grayscale')
    args += ['-outfile', path + '.tmp']
    subprocess.run(args, input=ppm_bytes(cv), check=True)
    os.replace(path + '.tmp', path)


def write_webp(path, payload, quality=None, lossless=False, suffix='.ppm'):
    with tempfile.TemporaryDirectory() as td:
        src = os.path.join(td, 'in' + suffix)
        with open(src, 'wb') as f:
            f.write(payload)
        args = ['cwebp', '-quiet', '-metadata', 'none']
        if lossless:
            args += ['-lossless', '-z', '6']
        else:
            args += ['-q', str(quality), '-m', '5']
        args += [src, '-o', path + '.tmp']
        subprocess.run(args, check=True)
    os.replace(path + '.tmp', path)


# ---------------------------------------------------------------------------
# The samples.
# ---------------------------------------------------------------------------

def finish(cv, n, text, alpha_cv=None, H=None):
    m = min(cv.w, cv.h)
    H = H or m * 0.42
    draw_number(cv, n, cv.w / 2, cv.h / 2, H, alpha_cv=alpha_cv)
    draw_caption(cv, text, alpha_cv)


def cap(n, w, h, kind):
    return '#%d %dx%d %s' % (n, w, h, kind)


def make_samples(outdir):
    os.makedirs(outdir, exist_ok=True)
    jobs = []

    def job(n, name, fn):
        jobs.append((n, name, fn))

    # 1: baseline JPEG, bubbles
    def s1(path, n=1, w=1600, h=1067):
        cv = Canvas(w, h, 3)
        scene_bubbles(cv, random.Random(n))
        finish(cv, n, cap(n, w, h, 'JPEG BASELINE Q88'))
        write_jpeg(path, cv, 88)
    job(1, 'img1-baseline.jpg', s1)

    # 2: portrait baseline JPEG, wavy stripes
    def s2(path, n=2, w=1200, h=1800):
        cv = Canvas(w, h, 3)
        ovf = lambda cv, rng: [Overlay(wave_mask(w, 3, 48, 30, 420), (T_SOFTDARK,))]
        scene_bubbles(cv, random.Random(n), count=14, overlays_fn=ovf)
        finish(cv, n, cap(n, w, h, 'JPEG PORTRAIT'))
        write_jpeg(path, cv, 85)
    job(2, 'img2-portrait.jpg', s2)

    # 3: big progressive JPEG, rings + checker band
    def s3(path, n=3, w=3200, h=1800):
        cv = Canvas(w, h, 3)
        ovf = lambda cv, rng: [Overlay(checker_mask(w, 3, 24, 0, w, int(h * 0.85), h), (T_DARK,))]
        scene_rings(cv, random.Random(n), overlays_fn=ovf)
        finish(cv, n, cap(n, w, h, 'JPEG PROGRESSIVE'))
        write_jpeg(path, cv, 82, progressive=True)
    job(3, 'img3-progressive.jpg', s3)

    # 4: PNG RGB, checkerboards at six scales
    def s4(path, n=4, w=800, h=600):
        cv = Canvas(w, h, 3)
        scene_checker(cv, random.Random(n), cells=(1, 2, 3, 4, 8, 16))
        finish(cv, n, cap(n, w, h, 'PNG RGB'))
        write_png(path, w, h, cv.data, 2)
    job(4, 'img4-checker.png', s4)

    # 5: PNG RGBA: flower silhouette with a see-through ring
    def s5(path, n=5, w=1024, h=1024):
        rng = random.Random(n)
        cv = Canvas(w, h, 3)
        al = Canvas(w, h, 1)
        ovf = lambda cv, rng: [Overlay(stripe_mask(w, h, 3, 40, 0.5, 1.0), (T_LIGHT,))]
        scene_rings(cv, rng, cx=w / 2, cy=h / 2, rmax=w * 0.5, overlays_fn=ovf, chirp=False)
        cx, cy = w / 2, h / 2
        for k in range(6):
            ang = 2 * math.pi * k / 6
            disc(al, cx + 0.27 * w * math.cos(ang), cy + 0.27 * w * math.sin(ang), 0.2 * w, (255,))
        disc(al, cx, cy, 0.3 * w, (255,))
        disc(al, cx, cy, 0.3 * w, (0,))
        disc(al, cx, cy, 0.26 * w, (255,))
        finish(cv, n, cap(n, w, h, 'PNG RGBA'), alpha_cv=al, H=0.2 * w)
        write_png(path, w, h, interleave_rgba(cv, al), 6)
    job(5, 'img5-alpha.png', s5)

    # 6: palette PNG with a transparent index (rounded corners), no anti-aliasing
    def s6(path, n=6, w=640, h=480):
        rng = random.Random(n)
        pal = [(0, 0, 0), (40, 44, 70)]
        hue = rng.random()
        for k in range(14):
            pal.append(hsv(hue + k / 14, 0.55, 0.95))
        pal += [(255, 255, 255), (15, 15, 20)]      # 16: white, 17: plate
        cv = Canvas(w, h, 1)
        rrect(cv, 0, 0, w, h, 90, (1,), aa=False)
        for j in range(6):
            for i in range(8):
                idx = 2 + (i + 2 * j) % 14
                x0, y0 = 30 + i * 73, 30 + j * 72
                if (i + j) % 3 == 0:
                    disc(cv, x0 + 30, y0 + 30, 28, (idx,), aa=False)
                else:
                    rrect(cv, x0, y0, x0 + 62, y0 + 60, 10, (idx,), aa=False)
        draw_number(cv, n, w / 2, h / 2, 0.42 * h, color=(16,), plate=(17,), plate_alpha=1.0, aa=False)
        s = 2
        text = cap(n, w, h, 'PNG PALETTE')
        rrect(cv, 16, h - 40, 16 + 6 * s * len(text) + 12, h - 14, 6, (17,), aa=False)
        draw_text(cv, text, 24, h - 34, s, (16,))
        trns = [0] + [255] * (len(pal) - 1)
        write_png(path, w, h, cv.data, 3, palette=pal, trns=trns)
    job(6, 'img6-palette.png', s6)

    # 7: 4000x2250 progressive JPEG, chirp stripes + bubbles
    def s7(path, n=7, w=4000, h=2250):
        cv = Canvas(w, h, 3)
        ovf = lambda cv, rng: [Overlay(chirp_mask(w, 3, 2.2, 120, 0, int(h * 0.16)), (T_INVERT,)),
                               Overlay(stripe_mask(w, h, 3, 90, 0.5, 1.0, y0=int(h * 0.16)), (T_SOFTDARK,))]
        scene_bubbles(cv, random.Random(n), count=30, overlays_fn=ovf)
        finish(cv, n, cap(n, w, h, 'JPEG PROGRESSIVE'))
        write_jpeg(path, cv, 80, progressive=True)
    job(7, 'img7-progressive.jpg', s7)

    # 8: WebP lossy, mosaic
    def s8(path, n=8, w=1920, h=1080):
        cv = Canvas(w, h, 3)
        scene_mosaic(cv, random.Random(n), cols=8, rows=5)
        finish(cv, n, cap(n, w, h, 'WEBP LOSSY'))
        write_webp(path, ppm_bytes(cv), quality=82)
    job(8, 'img8-lossy.webp', s8)

    # 9: WebP lossless with alpha: tiles on transparent background
    def s9(path, n=9, w=900, h=900):
        cv = Canvas(w, h, 3)
        al = Canvas(w, h, 1)
        scene_mosaic(cv, random.Random(n), cols=5, rows=5, alpha_cv=al)
        finish(cv, n, cap(n, w, h, 'WEBP LOSSLESS ALPHA'), alpha_cv=al)
        write_webp(path, pam_rgba(w, h, interleave_rgba(cv, al)), lossless=True, suffix='.pam')
    job(9, 'img9-lossless-alpha.webp', s9)

    # 10: 6000x1000 panorama
    def s10(path, n=10, w=6000, h=1000):
        cv = Canvas(w, h, 3)
        scene_landscape(cv, random.Random(n))
        finish(cv, n, cap(n, w, h, 'JPEG PANORAMA'))
        write_jpeg(path, cv, 85)
    job(10, 'img10-panorama.jpg', s10)

    # 11: portrait progressive JPEG, checker + bubbles
    def s11(path, n=11, w=1000, h=1500):
        cv = Canvas(w, h, 3)
        ovf = lambda cv, rng: [Overlay(checker_mask(w, 3, 50), (T_SOFTDARK,))]
        scene_bubbles(cv, random.Random(n), count=18, overlays_fn=ovf)
        finish(cv, n, cap(n, w, h, 'JPEG PROGRESSIVE'))
        write_jpeg(path, cv, 85, progressive=True)
    job(11, 'img11-portrait-progressive.jpg', s11)

    # 12: grayscale JPEG
    def s12(path, n=12, w=1280, h=960):
        cv = Canvas(w, h, 3)
        ovf = lambda cv, rng: [Overlay(stripe_mask(w, h, 3, 16, 0.5, -1.0, 0, w // 3), (T_DARK,))]
        scene_rings(cv, random.Random(n), cx=w * 0.62, overlays_fn=ovf)
        finish(cv, n, cap(n, w, h, 'JPEG GRAYSCALE'))
        write_jpeg(path, cv, 88, gray=True)
    job(12, 'img12-gray.jpg', s12)

    # 13: tiny PNG
    def s13(path, n=13, w=64, h=48):
        rng = random.Random(n)
        cv = Canvas(w, h, 3)
        hue, c1, c2, c3 = rand_palette(rng)
        paint_background(cv, c1, c2, c3, overlays=[Overlay(checker_mask(w, 3, 4, 0, w, 0, 6), (T_DARK,)),
                                                   Overlay(checker_mask(w, 3, 4, 0, w, 42, 48), (T_DARK,))])
        draw_number(cv, n, w / 2, h / 2, 22, plate_alpha=0.55)
        write_png(path, w, h, cv.data, 2)
    job(13, 'img13-tiny.png', s13)

    # 14: 3000x3000 WebP lossy, rings
    def s14(path, n=14, w=3000, h=3000):
        cv = Canvas(w, h, 3)
        ovf = lambda cv, rng: [Overlay(stripe_mask(w, h, 3, 120, 0.5, -1.0), (T_SOFTDARK,))]
        scene_rings(cv, random.Random(n), cx=w / 2, cy=h / 2, overlays_fn=ovf)
        finish(cv, n, cap(n, w, h, 'WEBP LOSSY'))
        write_webp(path, ppm_bytes(cv), quality=78)
    job(14, 'img14-square.webp', s14)

    # 15: GIF (palette, rings and checkers, no dithering)
    def s15(path, n=15, w=500, h=400):
        rng = random.Random(n)
        hue = rng.random()
        pal = [hsv(hue + k / 12, 0.6, 0.9) for k in range(12)] + [(255, 255, 255), (20, 20, 30), (60, 60, 80)]
        cv = Canvas(w, h, 1, fill=(14,))
        for y in range(h):
            for i in range(0, w, 20):
                if ((i // 20) + (y // 20)) % 2 == 0:
                    cv.span(y, i, i + 20, (13,))
        r = 190
        k = 0
        while r > 10:
            disc(cv, w / 2, h / 2, r, (k % 12,), aa=False)
            r -= 14
            k += 1
        draw_number(cv, n, w / 2, h / 2, 0.42 * h, color=(12,), plate=(13,), plate_alpha=1.0, aa=False)
        text = cap(n, w, h, 'GIF')
        rrect(cv, 8, h - 30, 8 + 12 * len(text) + 10, h - 6, 5, (13,), aa=False)
        draw_text(cv, text, 14, h - 25, 2, (12,))
        write_gif(path, w, h, cv.data, pal)
    job(15, 'img15.gif', s15)

    # 16: BMP
    def s16(path, n=16, w=640, h=400):
        cv = Canvas(w, h, 3)
        ovf = lambda cv, rng: [Overlay(stripe_mask(w, h, 3, 24, 0.5, 0.5), (T_LIGHT,))]
        scene_bubbles(cv, random.Random(n), count=10, overlays_fn=ovf)
        finish(cv, n, cap(n, w, h, 'BMP 24BIT'))
        write_bmp(path, w, h, cv.data)
    job(16, 'img16.bmp', s16)

    # 17: fine stripes / moire test
    def s17(path, n=17, w=2048, h=1536):
        cv = Canvas(w, h, 3)
        ovf = lambda cv, rng: [
            Overlay(chirp_mask(w, 3, 2.0, 64, 0, int(h * 0.2)), (T_DARK,)),
            Overlay(stripe_mask(w, h, 3, 3, 0.5, 1.0, 0, w // 4, int(h * 0.2), h), (T_DARK,)),
            Overlay(stripe_mask(w, h, 3, 5, 0.5, -1.0, w * 3 // 4, w, int(h * 0.2), h), (T_DARK,)),
        ]
        scene_rings(cv, random.Random(n), cx=w / 2, cy=h * 0.58, rmax=h * 0.4, overlays_fn=ovf)
        finish(cv, n, cap(n, w, h, 'JPEG FINE DETAIL Q92'), H=h * 0.3)
        write_jpeg(path, cv, 92)
    job(17, 'img17-fine-stripes.jpg', s17)

    # 18: phone-shaped WebP lossy
    def s18(path, n=18, w=1080, h=1920):
        cv = Canvas(w, h, 3)
        ovf = lambda cv, rng: [Overlay(wave_mask(w, 3, 90, 60, 700), tint_tables((255, 255, 255), 60))]
        scene_mosaic(cv, random.Random(n), cols=4, rows=7, overlays_fn=ovf)
        finish(cv, n, cap(n, w, h, 'WEBP PORTRAIT'))
        write_webp(path, ppm_bytes(cv), quality=80)
    job(18, 'img18-phone.webp', s18)

    # 19: progressive mosaic
    def s19(path, n=19, w=1500, h=1000):
        cv = Canvas(w, h, 3)
        scene_mosaic(cv, random.Random(n), cols=6, rows=4)
        finish(cv, n, cap(n, w, h, 'JPEG PROGRESSIVE'))
        write_jpeg(path, cv, 85, progressive=True)
    job(19, 'img19-progressive.jpg', s19)

    # 20: PNG RGB landscape-ish bubbles
    def s20(path, n=20, w=1400, h=900):
        cv = Canvas(w, h, 3)
        scene_bubbles(cv, random.Random(n), count=20, alpha_range=(0.7, 1.0))
        finish(cv, n, cap(n, w, h, 'PNG RGB'))
        write_png(path, w, h, cv.data, 2)
    job(20, 'img20-rgb.png', s20)

    # 21: WebP lossy 2560x1440, checker + rings
    def s21(path, n=21, w=2560, h=1440):
        cv = Canvas(w, h, 3)
        ovf = lambda cv, rng: [Overlay(checker_mask(w, 3, 80), tint_tables((0, 0, 40), 50))]
        scene_rings(cv, random.Random(n), overlays_fn=ovf)
        finish(cv, n, cap(n, w, h, 'WEBP LOSSY'))
        write_webp(path, ppm_bytes(cv), quality=80)
    job(21, 'img21-wide.webp', s21)

    # 22: 3840x2160 baseline JPEG, landscape
    def s22(path, n=22, w=3840, h=2160):
        cv = Canvas(w, h, 3)
        scene_landscape(cv, random.Random(n), layers=5)
        finish(cv, n, cap(n, w, h, 'JPEG BASELINE UHD'))
        write_jpeg(path, cv, 84)
    job(22, 'img22-uhd.jpg', s22)

    # 23: PNG RGBA with soft (feathered) alpha edges
    def s23(path, n=23, w=800, h=800):
        cv = Canvas(w, h, 3)
        scene_bubbles(cv, random.Random(n), count=16, alpha_range=(0.5, 0.9))
        al = Canvas(w, h, 1)
        feather = 0.3

        def fade(t):
            t = min(t, 1 - t) / feather
            t = max(0.0, min(1.0, t))
            return t * t * (3 - 2 * t)
        fx = bytes(clamp8(255 * fade(x / (w - 1))) for x in range(w))
        for y in range(h):
            al.data[y * w:(y + 1) * w] = fx.translate(blend_table(0, clamp8(255 * (1 - fade(y / (h - 1))))))
        finish(cv, n, cap(n, w, h, 'PNG SOFT ALPHA'), alpha_cv=al)
        write_png(path, w, h, interleave_rgba(cv, al), 6)
    job(23, 'img23-soft-alpha.png', s23)

    # 24: portrait progressive 720x1280
    def s24(path, n=24, w=720, h=1280):
        cv = Canvas(w, h, 3)
        ovf = lambda cv, rng: [Overlay(stripe_mask(w, h, 3, 36, 0.35, 0.0), (T_SOFTDARK,))]
        scene_rings(cv, random.Random(n), overlays_fn=ovf)
        finish(cv, n, cap(n, w, h, 'JPEG PROG'))
        write_jpeg(path, cv, 85, progressive=True)
    job(24, 'img24-portrait-progressive.jpg', s24)

    # 25: small baseline JPEG
    def s25(path, n=25, w=320, h=240):
        cv = Canvas(w, h, 3)
        scene_checker(cv, random.Random(n), cells=(4, 8, 16, 32))
        finish(cv, n, cap(n, w, h, 'JPEG'))
        write_jpeg(path, cv, 90)
    job(25, 'img25-small.jpg', s25)

    # 26: WebP lossless, no alpha
    def s26(path, n=26, w=1200, h=800):
        cv = Canvas(w, h, 3)
        scene_checker(cv, random.Random(n), cells=(6, 12, 24, 48), tables=(T_LIGHT,))
        finish(cv, n, cap(n, w, h, 'WEBP LOSSLESS'))
        write_webp(path, ppm_bytes(cv), lossless=True)
    job(26, 'img26-lossless.webp', s26)

    names = {name for _, name, _ in jobs}
    stale = re.compile(r'^img\d+([-.].*)?\.(jpe?g|png|webp|gif|bmp)$', re.I)
    for f in sorted(os.listdir(outdir)):
        if stale.match(f) and f not in names:
            os.remove(os.path.join(outdir, f))
    for n, name, fn in jobs:
        path = os.path.join(outdir, name)
        fn(path)
        print('%-34s %9d bytes' % (name, os.path.getsize(path)))


# ---------------------------------------------------------------------------
# UI assets: 4x supersampled coverage masks, composited per pixel.
# ---------------------------------------------------------------------------

SS = 4


def mask_canvas(size):
    return Canvas(size * SS, size * SS, 1)


def union(a, b):
    n = len(a.data)
    r = int.from_bytes(a.data, 'little') | int.from_bytes(b.data, 'little')
    a.data = bytearray(r.to_bytes(n, 'little'))
    return a


def downsample(mask, size):
    """1-byte 0/255 mask at SS x -> list of coverage floats 0..1."""
    W = mask.w
    d = mask.data
    out = []
    for oy in range(size):
        rows = [d[(oy * SS + k) * W:(oy * SS + k + 1) * W] for k in range(SS)]
        colsum = [sum(t) for t in zip(*rows)]
        for ox in range(size):
            out.append(sum(colsum[ox * SS:(ox + 1) * SS]) / (255.0 * SS * SS))
    return out


def composite(size, layers):
    """layers: list of (coverage list, (r,g,b), alpha or per-pixel colour fn). Straight-alpha over."""
    out = bytearray(size * size * 4)
    for i in range(size * size):
        r = g = b = 0.0
        a = 0.0
        for cov, color, la in layers:
            sa = cov[i] * la
            if sa <= 0:
                continue
            c = color(i) if callable(color) else color
            na = sa + a * (1 - sa)
            r = (c[0] * sa + r * a * (1 - sa)) / na
            g = (c[1] * sa + g * a * (1 - sa)) / na
            b = (c[2] * sa + b * a * (1 - sa)) / na
            a = na
        if a > 0:
            out[i * 4:i * 4 + 4] = bytes((clamp8(r), clamp8(g), clamp8(b), clamp8(a * 255)))
    return out


def stroke_polyline(m, pts, width):
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        thick_line(m, x0, y0, x1, y1, width, (255,), aa=False)
    for x, y in pts:
        disc(m, x, y, width / 2, (255,), aa=False)


def make_placeholder(path, size=256):
    k = SS * size / 256.0
    # plate: subtle rounded rect
    plate = mask_canvas(size)
    rrect(plate, 16 * k, 16 * k, 240 * k, 240 * k, 28 * k, (255,), aa=False)
    # glyph: picture frame outline, mountains outline, sun outline
    frame = mask_canvas(size)
    rrect(frame, 60 * k, 72 * k, 196 * k, 184 * k, 14 * k, (255,), aa=False)
    rrect(frame, 70 * k, 82 * k, 186 * k, 174 * k, 6 * k, (0,), aa=False)
    mount = mask_canvas(size)
    stroke_polyline(mount, [(70 * k, 160 * k), (108 * k, 116 * k), (132 * k, 142 * k),
                            (150 * k, 124 * k), (186 * k, 160 * k)], 9 * k)
    sun = mask_canvas(size)
    disc(sun, 156 * k, 106 * k, 13 * k, (255,), aa=False)
    disc(sun, 156 * k, 106 * k, 8.5 * k, (0,), aa=False)
    glyph = union(union(frame, mount), sun)
    layers = [(downsample(plate, size), (128, 128, 128), 0.22),
              (downsample(glyph, size), (150, 150, 150), 0.75)]
    write_png(path, size, size, composite(size, layers), 6)


def make_error(path, size=256):
    k = SS * size / 256.0
    tri = mask_canvas(size)
    # rounded triangle = inner triangle grown by radius rr
    p = [(128 * k, 40 * k), (222 * k, 206 * k), (34 * k, 206 * k)]
    rr = 16 * k
    poly(tri, p, (255,), aa=False)
    for i in range(3):
        (x0, y0), (x1, y1) = p[i], p[(i + 1) % 3]
        disc(tri, x0, y0, rr, (255,), aa=False)
        thick_line(tri, x0, y0, x1, y1, 2 * rr, (255,), aa=False)
    # inner outline ring for a little depth: slightly smaller triangle
    mark = mask_canvas(size)
    # tapered bar with round ends
    poly(mark, [(117 * k, 92 * k), (139 * k, 92 * k), (133 * k, 160 * k), (123 * k, 160 * k)], (255,), aa=False)
    disc(mark, 128 * k, 92 * k, 11 * k, (255,), aa=False)
    disc(mark, 128 * k, 160 * k, 5 * k, (255,), aa=False)
    disc(mark, 128 * k, 188 * k, 11 * k, (255,), aa=False)

    top, bot = (255, 122, 48), (222, 52, 30)

    def tri_color(i):
        t = (i // size) / (size - 1)
        return tuple(lerp(a, b, t) for a, b in zip(top, bot))
    layers = [(downsample(tri, size), tri_color, 1.0),
              (downsample(mark, size), (255, 255, 255), 1.0)]
    write_png(path, size, size, composite(size, layers), 6)


def make_ui(outdir):
    os.makedirs(outdir, exist_ok=True)
    for name, fn in (('placeholder.png', make_placeholder), ('error.png', make_error)):
        path = os.path.join(outdir, name)
        fn(path)
        print('%-34s %9d bytes' % (name, os.path.getsize(path)))


def main(argv):
    samples = None
    ui = None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == '--ui' and i + 1 < len(argv):
            ui = argv[i + 1]
            i += 2
        elif a in ('-h', '--help'):
            print(__doc__)
            return 0
        elif a.startswith('-') or samples is not None:
            print(__doc__, file=sys.stderr)
            return 2
        else:
            samples = a
            i += 1
    if samples is None and ui is None:
        print(__doc__, file=sys.stderr)
        return 2
    if samples:
        make_samples(samples)
    if ui:
        make_ui(ui)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
