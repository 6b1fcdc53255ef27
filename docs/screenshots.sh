#!/bin/sh
# Writes the README's screenshots: the strip, the grid and the tiled view, each as the viewer drew its last
# frame. Needs an X display (e.g. `Xvfb :55 -screen 0 1920x1080x24 & DISPLAY=:55 docs/screenshots.sh`),
# the corpus (`../shared/corpus/make-corpus.sh /tmp/tessera-corpus`) and libvips' `vips` for the JPEGs.
set -eu
TESSERA=${TESSERA:-.build/release/tessera}
CORPUS=${CORPUS:-/tmp/tessera-corpus}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT

printf 'wait-idle\nkey Right\nkey Right\nwait-idle\nwait 0.5\nquit\n' > "$OUT/strip.txt"
printf 'wait-idle\nkey Right\nkey Right\nkey Right\nkey Down\nwait-idle\nwait 0.5\nquit\n' > "$OUT/grid.txt"
printf 'wait-idle\nzoom in\nzoom in\nwait-idle\npan 200 80\nwait-idle\nwait 0.5\nquit\n' > "$OUT/tiled.txt"

"$TESSERA" browse "$CORPUS/photos" --window 1280x720 --script "$OUT/strip.txt" --screenshot "$OUT/strip.png"
"$TESSERA" browse "$CORPUS/photos" --rows 3 --cell 240x180 --window 1280x720 --script "$OUT/grid.txt" \
    --screenshot "$OUT/grid.png"
"$TESSERA" view "$CORPUS/giant/mosaic.jpg" --window 1280x720 --script "$OUT/tiled.txt" --screenshot "$OUT/tiled.png"

vips copy "$OUT/strip.png" "docs/strip.jpg[Q=85,strip]"
vips copy "$OUT/grid.png" "docs/grid.jpg[Q=85,strip]"
vips copy "$OUT/tiled.png" "docs/tiled-view.jpg[Q=85,strip]"
