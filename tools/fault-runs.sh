#!/usr/bin/env bash
# The fault runs of docs/RELIABILITY.md: Tessera is put where a careful user would put it (odd names,
# things that are not photos, quitting in the middle, a crash, a full or read-only disk), then the folder
# is looked at. Each run prints one line: what was done, and what the folder holds afterwards.
#
#   tools/fault-runs.sh [TESSERA]        (default .build/release/tessera)
#
# Needs root (mknod, mount) and libjpeg-turbo-progs (cjpeg, djpeg), which `make samples` installs.
# Everything happens below one temporary folder, which is removed at the end.
set -u
TESSERA=$(realpath "${1:-.build/release/tessera}")
SAMPLE=$(realpath Resources/Samples/img25-small.jpg)
W=$(mktemp -d /tmp/tessera-faults-XXXXXX)
trap 'umount "$W/disk" 2>/dev/null; rm -rf "$W"' EXIT
export XDG_DATA_HOME=$W/data XDG_CACHE_HOME=$W/cache XDG_CONFIG_HOME=$W/config SDL_VIDEODRIVER=dummy
LOG=$W/log

# run FOLDER SCRIPT [ARGS...]: the viewer on FOLDER, driven by SCRIPT (printf escapes allowed).
run() {
  local folder=$1 script=$2; shift 2
  printf "$script" > "$W/script"
  "$TESSERA" "$folder" --headless --no-watch --script "$W/script" "$@" 2>>"$LOG"
}
say() { printf '%-58s %s\n' "$1" "$2"; }
fresh() { rm -rf "$W/$1" "$W/data"; mkdir -p "$W/$1"; echo "$W/$1"; }
# Trash records and trashed files, and the records whose file is missing, in the home trash.
trash_counts() {
  local files info orphans=0
  files=$(ls -A "$W/data/Trash/files" 2>/dev/null | wc -l)
  info=$(ls -A "$W/data/Trash/info" 2>/dev/null | wc -l)
  for record in "$W/data/Trash/info"/*.trashinfo; do
    [ -e "$record" ] || continue
    name=$(basename "$record" .trashinfo)
    [ -e "$W/data/Trash/files/$name" ] || orphans=$((orphans + 1))
  done
  echo "$files trashed, $info records, $orphans records without a file"
}
temporaries() { find "$1" -maxdepth 1 -name '.*tessera*' | wc -l; }
big_jpeg() {
  # 6000x4000 of noise at quality 95: a JPEG of about 30 MB, slow enough to rewrite to be caught mid-way.
  python3 -c "import os,sys; sys.stdout.buffer.write(b'P6 6000 4000 255\n' + os.urandom(6000*4000*3))" |
    cjpeg -quality 95 > "$1"
}

# 1. Two names that differ only in bytes that are not UTF-8: the first is marked, turned and trashed.
d=$(fresh lookalikes)
cp "$SAMPLE" "$d/$(printf 'x\377.jpg')"; cp "$SAMPLE" "$d/$(printf 'x\357\277\275.jpg')"
run "$d" 'wait-idle\nkey m\nkey >\nwait 1\nwait-idle\nkey Delete\nwait 1\nwait-idle\nkey q\n'
left=$(ls -A "$d" | wc -l); same=0
for f in "$d"/*; do cmp -s "$f" "$SAMPLE" && same=$((same + 1)); done
say "lookalike names: mark, turn, Delete the first" "$left left, $same untouched; $(trash_counts)"

# 2. Things with a photo's name that are not files: a device node and a FIFO. Delete on all of them.
d=$(fresh devices)
mknod "$d/zero.jpg" c 1 5; mkfifo "$d/pipe.jpg"; cp "$SAMPLE" "$d/photo.jpg"
run "$d" 'wait-idle\nkey M\nkey Delete\nwait 1\nwait-idle\nkey q\n'
kinds=""
for f in zero.jpg pipe.jpg; do
  if [ -e "$d/$f" ]; then kinds="$kinds$f in place ($(stat -c %F "$d/$f")), "; else kinds="$kinds$f MOVED, "; fi
done
say "device node and FIFO named .jpg, Delete on all" "$kinds$(trash_counts)"

# 3. A batch Delete of 300 photos, then q at once.
d=$(fresh batch)
for i in $(seq -w 1 300); do cp "$SAMPLE" "$d/p$i.jpg"; done
start=$(date +%s.%N)
run "$d" 'wait-idle\nkey M\nkey Delete\nkey q\n'
took=$(echo "$(date +%s.%N) - $start" | bc)
say "M, Delete, q on 300 photos" "$(ls -A "$d" | wc -l) left, $(trash_counts); quit after ${took%???????} s"

# 4. A turn of a 30 MB JPEG, then q at once.
d=$(fresh bigturn)
big_jpeg "$d/big.jpg"; cp "$d/big.jpg" "$W/big-original.jpg"
run "$d" 'wait-idle\nkey >\nkey q\n'
if cmp -s "$d/big.jpg" "$W/big-original.jpg"; then turned="not saved"; else turned="saved"; fi
djpeg -fast "$d/big.jpg" > /dev/null 2>&1 && valid="decodes" || valid="DOES NOT DECODE"
say "> then q on a $(($(stat -c %s "$W/big-original.jpg") / 1000000)) MB JPEG" "turn $turned, the file $valid, $(temporaries "$d") temporary files"

# 5. kill -9 in the middle of a turn; then the next run over the folder.
d=$(fresh crash)
cp "$W/big-original.jpg" "$d/big.jpg"
printf 'wait-idle\nkey >\nwait 10\nkey q\n' > "$W/script"
"$TESSERA" "$d" --headless --no-watch --script "$W/script" 2>>"$LOG" &
pid=$!
for _ in $(seq 1 2000); do [ "$(temporaries "$d")" -gt 0 ] && break; sleep 0.005; done
kill -9 $pid; wait $pid 2>/dev/null
if cmp -s "$d/big.jpg" "$W/big-original.jpg"; then valid="is as before the turn"
elif djpeg -fast "$d/big.jpg" > /dev/null 2>&1; then valid="is turned and decodes"
else valid="IS DAMAGED"; fi
after_crash=$(temporaries "$d")
run "$d" 'wait-idle\nkey q\n'
say "kill -9 during a turn of the 30 MB JPEG" "the file $valid; $after_crash temporary left, $(temporaries "$d") after the next run"

# 6. A key-handler still running at q: nsxiv waits for it.
d=$(fresh handler)
cp "$SAMPLE" "$d/photo.jpg"
mkdir -p "$W/config/tessera"
printf '#!/bin/sh\nsleep 2\ncat > "%s/handled"\n' "$W" > "$W/config/tessera/key-handler"
chmod +x "$W/config/tessera/key-handler"
start=$(date +%s.%N)
run "$d" 'wait-idle\nkey ctrl+x\nkey ctrl+r\nkey q\n'
took=$(echo "$(date +%s.%N) - $start" | bc)
alive=$(pgrep -f "$W/config/tessera/key-handler" | wc -l)
[ -s "$W/handled" ] && handled="finished its work" || handled="DID NOT FINISH"
say "Ctrl-x Ctrl-r (a 2 s key-handler), then q" "the handler $handled, $alive still running; quit after ${took%???????} s"

# 7. The longest name a file system allows (255 bytes): Delete, then undo.
d=$(fresh longname)
long=$(printf 'n%.0s' $(seq 1 251)).jpg
cp "$SAMPLE" "$d/$long"
run "$d" 'wait-idle\nkey Delete\nwait 1\nwait-idle\nkey q\n'
[ -e "$d/$long" ] && moved="STAYED" || moved="went"
say "Delete on a 255-byte name" "the file $moved; $(trash_counts)"
rm -rf "$W/data"; cp "$SAMPLE" "$d/$long" 2>/dev/null
run "$d" 'wait-idle\nkey Delete\nwait 1\nwait-idle\nkey ctrl+z\nwait 1\nwait-idle\nkey q\n'
[ -e "$d/$long" ] && back="is back under its name" || back="IS NOT BACK"
say "Delete then Ctrl-z on a 255-byte name" "the file $back; $(trash_counts)"

# 8. A full disk and a read-only one: a turn and a Delete.
mkdir -p "$W/disk"
mount -t tmpfs -o size=256k tmpfs "$W/disk"
mkdir "$W/disk/photos"; cp "$SAMPLE" "$W/disk/photos/photo.jpg"
dd if=/dev/zero of="$W/disk/filler" bs=4k 2>/dev/null
run "$W/disk/photos" 'wait-idle\nkey >\nwait 1\nwait-idle\nkey Delete\nwait 1\nwait-idle\nkey q\n'
cmp -s "$W/disk/photos/photo.jpg" "$SAMPLE" && whole="whole and in place" || whole="NOT AS IT WAS"
say "> and Delete on a full file system" "the photo $whole, $(temporaries "$W/disk/photos") temporary files, $(ls -A "$W/disk/.Trash-0/info" 2>/dev/null | wc -l) records"
umount "$W/disk"
mount -t tmpfs -o size=4m tmpfs "$W/disk"
mkdir "$W/disk/photos"; cp "$SAMPLE" "$W/disk/photos/photo.jpg"
mount -o remount,ro "$W/disk"
run "$W/disk/photos" 'wait-idle\nkey >\nwait 1\nwait-idle\nkey Delete\nwait 1\nwait-idle\nkey q\n'
cmp -s "$W/disk/photos/photo.jpg" "$SAMPLE" && whole="whole and in place" || whole="NOT AS IT WAS"
say "> and Delete on a read-only file system" "the photo $whole; $(trash_counts)"
umount "$W/disk"
