#!/bin/sh
# Cuts large images with the single view under a 10 MB disk cache limit and prints, after each run, the
# size of Tessera's cache folder and whose pyramids it holds: six cut one after another, the oldest of
# those kept opened again (reused, so it stays), a seventh cut, the newest edited and cut again (its old
# pyramid replaced). A file of the user's own in the cache folder stays.
# Usage: tools/disk-cache-check.sh [TESSERA]   (default .build/debug/tessera; needs python3 and cjpeg)
set -eu
B=${1:-.build/debug/tessera}
W=$(mktemp -d)
export XDG_CACHE_HOME="$W/cache" XDG_CONFIG_HOME="$W/config" SDL_VIDEODRIVER=dummy
LIMIT_MB=10
mkdir -p "$W/images" "$XDG_CACHE_HOME/tessera/tiles"
echo "the user's own" > "$XDG_CACHE_HOME/tessera/tiles/notes.txt"
# Noise over a gradient compresses badly: a few MB of tiles a pyramid. python3 writes the pixels, cjpeg
# (libjpeg-turbo-progs) the JPEG.
noisy() {
    python3 -c '
import random, sys
seed, w, h = int(sys.argv[1]), 2400, 1600
random.seed(seed)
noise = random.randbytes(w * h)
rows = bytearray()
for y in range(h):
    for x in range(w):
        n = noise[y * w + x] >> 2
        rows += bytes(((x * 255 // w + n) & 255, (y * 255 // h + n) & 255, (seed * 40 + n) & 255))
sys.stdout.buffer.write(b"P6 %d %d 255\n" % (w, h) + rows)
' "$1" | cjpeg -quality 90 > "$2"
}
for i in 1 2 3 4 5 6 7; do noisy "$i" "$W/images/big$i.jpg"; done
# The images whose pyramid is in the cache, by the source file each pyramid's folder keeps.
held() {
    for i in 1 2 3 4 5 6 7; do
        key=$(printf '%s' "$W/images/big$i.jpg" | md5sum | cut -c1-32)
        grep -qsx "$key" "$XDG_CACHE_HOME"/tessera/tiles/*/source && printf 'big%d ' "$i"
    done
    return 0
}
view() {
    # --pixel-limit-mp 1 makes these 3.8 MP images giant, so the view cuts them into pyramids.
    "$B" view "$1" --headless --no-config --pixel-limit-mp 1 --disk-cache-mb "$LIMIT_MB" >/dev/null
    bytes=$(du -s --block-size=1 "$XDG_CACHE_HOME/tessera" | cut -f1)
    pyramids=$(find "$XDG_CACHE_HOME/tessera/tiles" -mindepth 1 -maxdepth 1 -type d | wc -l)
    printf '%-24s cache %5.1f MB (limit %d)  %d pyramids: %s\n' "$2" "$(echo "$bytes / 1048576" | bc -l)" \
        "$LIMIT_MB" "$pyramids" "$(held)"
}
for i in 1 2 3 4 5 6; do view "$W/images/big$i.jpg" "cut big$i"; done
view "$W/images/big4.jpg" "open big4 again"
view "$W/images/big7.jpg" "cut big7"
noisy 60 "$W/images/big6.jpg"
view "$W/images/big6.jpg" "edit big6, cut again"
test -f "$XDG_CACHE_HOME/tessera/tiles/notes.txt" && echo "notes.txt in the cache folder: untouched"
rm -rf "$W"
