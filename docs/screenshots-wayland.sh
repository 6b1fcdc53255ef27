#!/bin/sh
# Writes the README's Wayland screenshots: the strip and the single view at scale 2, as sway's output shows
# them (grim), not as the viewer drew them. Run with sway running, e.g. headless as an unprivileged user:
#   WLR_BACKENDS=headless WLR_RENDERER=pixman sway &
#   SWAYSOCK=$(ls $XDG_RUNTIME_DIR/sway-ipc.*.sock) WAYLAND_DISPLAY=wayland-1 docs/screenshots-wayland.sh
# Needs grim and the corpus (`../shared/corpus/make-corpus.sh /tmp/tessera-corpus`).
set -eu
TESSERA=${TESSERA:-.build/release/tessera}
CORPUS=${CORPUS:-/tmp/tessera-corpus}
OUTPUT=${OUTPUT:-HEADLESS-1}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

swaymsg output "$OUTPUT" resolution 1600x800 scale 2 > /dev/null
swaymsg focus output "$OUTPUT" > /dev/null

# Runs the viewer with a script that ends waiting, shoots the output once it has settled, then ends it.
shoot() {
    png=$1 settle=$2
    shift 2
    "$TESSERA" "$@" --no-config &
    viewer=$!
    sleep "$settle"
    grim -o "$OUTPUT" "$png"
    kill "$viewer"
    wait "$viewer" || true
}

printf 'wait-idle\nkey Right\nwait-idle\nwait 60\n' > "$OUT/strip.txt"
printf 'wait-idle\nkey enter\nwait 0.5\nwait-idle\nwait 60\n' > "$OUT/view.txt"
shoot docs/images/strip-wayland-scale2.png 20 "$CORPUS/photos" --script "$OUT/strip.txt"
shoot docs/images/view-wayland-scale2.png 15 Resources/Samples --script "$OUT/view.txt"
