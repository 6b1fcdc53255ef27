# Tessera: `make run` opens the viewer on the bundled samples, `make test` runs the whole suite headless.
# Both first install the Debian packages Tessera needs, if any is missing. `make install` puts the viewer,
# its resources, desktop entry, icon and manual page under PREFIX (DESTDIR for packaging); `make uninstall`
# removes exactly those files.

# libcurl4: what Foundation's URLSession (remote images) runs on. libssl-dev: libcrypto's MD5, which names
# cache files. liblcms2-dev: colour management. libx11-dev: the display's colour profile (a root window
# property). zlib1g-dev: a gzipped SVG is told from other gzip by its text.
# The format libraries: libheif (HEIC, AVIF), libjxl, librsvg with GLib and cairo (SVG), gdk-pixbuf (BMP),
# libtiff, giflib, libraw. libopenslide-dev: whole-slide images in the tiled view. libseccomp: the decode
# helpers' system call filter. libexempi-dev: star ratings read from and written to XMP sidecars.
APT_PACKAGES := pkg-config libsdl2-dev libsdl2-ttf-dev \
                libturbojpeg0-dev libjpeg62-turbo-dev libpng-dev libwebp-dev libexif-dev libpixman-1-dev libssl-dev \
                liblcms2-dev libx11-dev zlib1g-dev \
                libheif-dev libjxl-dev librsvg2-dev libglib2.0-dev libcairo2-dev libgdk-pixbuf-2.0-dev libtiff-dev \
                libgif-dev libraw-dev libavif-dev libopenslide-dev libseccomp-dev libexempi-dev \
                fonts-dejavu-core libcurl4
SAMPLE_TOOLS := libjpeg-turbo-progs webp
# Tools some tests use to make fixtures or check our output: cwebp and webpmux (WebP files), gio (GLib's
# view of a thumbnail's validity), Xvfb (an X server whose root window carries a colour profile),
# libgs-common (Ghostscript's ICC profiles: a real CMYK and a non-sRGB RGB profile, read as test data),
# heif-enc (HEIC and AVIF), avifenc (AVIF sequences), img2webp (animated WebP), cjxl (JPEG XL), tiffcp
# (TIFF compressions and tiles), xclip (a program pasting the picture the image clipboard offers),
# exiftool (another reader's view of the ratings in XMP sidecars), vips (the IIIF tree `vips dzsave` writes,
# which `tessera tile --layout iiif3` must match).
TEST_PACKAGES := webp libglib2.0-bin xvfb libgs-common libheif-examples libjxl-tools libtiff-tools libavif-bin xclip \
                 libimage-exiftool-perl libvips-tools
# What the install test checks the installed files with: desktop-file-validate, man and groff.
INSTALL_TEST_PACKAGES := desktop-file-utils man-db groff-base
# libcurl.so: the release binary carries the Swift runtime (RELEASE_SWIFT_FLAGS), and Foundation's
# networking in it links against libcurl.
RELEASE_PACKAGES := libcurl4-openssl-dev
# rsvg-convert renders the icon's PNG sizes from its SVG.
ICON_TOOLS := librsvg2-bin
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SWIFT_FLAGS ?=
ARGS ?=

PREFIX ?= /usr/local
DESTDIR ?=
# The binary `install-built` installs (what `make build` made); `install` builds it first.
BINARY ?= .build/release/tessera
# The Swift runtime goes into the release binary, so an installed one needs only Debian's libraries, not
# the toolchain.
RELEASE_SWIFT_FLAGS := --static-swift-stdlib
ICON_SIZES := 48 128 256

.PHONY: deps test-deps packages build debug run test samples icons install install-built uninstall refresh-caches clean \
        fuzz-build fuzz fuzz-check

deps:
	@$(MAKE) --no-print-directory packages PACKAGES="$(APT_PACKAGES)"

test-deps:
	@$(MAKE) --no-print-directory packages PACKAGES="$(APT_PACKAGES) $(TEST_PACKAGES) $(INSTALL_TEST_PACKAGES)"

packages:
	@missing=""; for p in $(PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

build: deps
	@$(MAKE) --no-print-directory packages PACKAGES="$(RELEASE_PACKAGES)"
	swift build -c release $(RELEASE_SWIFT_FLAGS) $(SWIFT_FLAGS)

debug: deps
	swift build $(SWIFT_FLAGS)

run: build
	.build/release/tessera $(ARGS)

# Headless: SDL's dummy video driver, no display needed. Then the fuzzer's short fixed run.
test: test-deps
	SDL_VIDEODRIVER=dummy SDL_RENDER_VSYNC=0 swift test --disable-swift-testing $(SWIFT_FLAGS)
	@$(MAKE) --no-print-directory fuzz-check

# The fuzz target (Tests/Fuzz) built with libFuzzer and AddressSanitizer, in a build folder of its own.
# Leak detection is off: the Swift runtime's caches live as long as the process, which ASan calls leaks.
FUZZ_BUILD := .build/fuzz
FUZZ_BINARY := $(FUZZ_BUILD)/debug/TesseraFuzz
FUZZ_SECONDS ?= 60
FUZZ_ENV := ASAN_OPTIONS=detect_leaks=0
FUZZ_FLAGS := -rss_limit_mb=4096 -timeout=20
# What every run starts from: tiny images of each format, the samples, every input that once crashed.
FUZZ_SEEDS := Tests/Fuzz/seeds Resources/Samples Tests/Fuzz/regressions

fuzz-build: deps
	swift build --scratch-path $(FUZZ_BUILD) --product TesseraFuzz --sanitize fuzzer --sanitize address -Xswiftc -DFUZZING

# `make fuzz FUZZ_SECONDS=N`: fuzzes for N seconds; what it learns stays in $(FUZZ_BUILD)/corpus, a crash's
# input is written to $(FUZZ_BUILD)/crash-*. A crash becomes a fixed bug and a file in Tests/Fuzz/regressions.
fuzz: fuzz-build
	mkdir -p $(FUZZ_BUILD)/corpus
	$(FUZZ_ENV) $(FUZZ_BINARY) $(FUZZ_FLAGS) -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	  -artifact_prefix=$(FUZZ_BUILD)/crash- $(FUZZ_BUILD)/corpus $(FUZZ_SEEDS)

# The short fixed run of `make test`: a fixed seed and number of runs from the seeds alone, into a fresh
# corpus folder, so it is the same run every time.
fuzz-check: fuzz-build
	rm -rf $(FUZZ_BUILD)/check-corpus && mkdir -p $(FUZZ_BUILD)/check-corpus
	$(FUZZ_ENV) $(FUZZ_BINARY) $(FUZZ_FLAGS) -seed=1 -runs=2000 -artifact_prefix=$(FUZZ_BUILD)/check-crash- \
	  $(FUZZ_BUILD)/check-corpus $(FUZZ_SEEDS)

# Every file `install-built` writes, relative to PREFIX; `uninstall` removes exactly these, then the folders
# under share/tessera, which are Tessera's alone.
RESOURCE_FILES = $(shell cd Resources && find UI Samples -type f | LC_ALL=C sort)
RESOURCE_FOLDERS = $(shell cd Resources && find UI Samples -depth -type d)
INSTALLED_FILES = bin/tessera \
	share/applications/tessera.desktop \
	share/man/man1/tessera.1 \
	share/icons/hicolor/scalable/apps/tessera.svg \
	$(foreach size,$(ICON_SIZES),share/icons/hicolor/$(size)x$(size)/apps/tessera.png) \
	$(addprefix share/tessera/,$(RESOURCE_FILES))

install: build
	@$(MAKE) --no-print-directory install-built BINARY=.build/release/tessera

# Installs BINARY as it is built, with what it needs beside it: its resources under share/tessera, the
# desktop entry and the manual page (both written by the binary, so they describe it), the icon.
install-built:
	@test -x "$(BINARY)" || { echo "no binary at $(BINARY): run make install (or make build)" >&2; exit 1; }
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/applications" "$(DESTDIR)$(PREFIX)/share/man/man1"
	install -s -m 755 "$(BINARY)" "$(DESTDIR)$(PREFIX)/bin/tessera"
	for f in $(RESOURCE_FILES); do install -D -m 644 "Resources/$$f" "$(DESTDIR)$(PREFIX)/share/tessera/$$f" || exit 1; done
	"$(BINARY)" generate desktop-entry > "$(DESTDIR)$(PREFIX)/share/applications/tessera.desktop"
	"$(BINARY)" generate man-page > "$(DESTDIR)$(PREFIX)/share/man/man1/tessera.1"
	install -D -m 644 Resources/Icons/tessera.svg "$(DESTDIR)$(PREFIX)/share/icons/hicolor/scalable/apps/tessera.svg"
	for size in $(ICON_SIZES); do \
	  install -D -m 644 "Resources/Icons/tessera-$$size.png" \
	    "$(DESTDIR)$(PREFIX)/share/icons/hicolor/$${size}x$${size}/apps/tessera.png" || exit 1; done
	@$(MAKE) --no-print-directory refresh-caches

uninstall:
	cd "$(DESTDIR)$(PREFIX)" && rm -f $(INSTALLED_FILES)
	cd "$(DESTDIR)$(PREFIX)/share/tessera" 2>/dev/null && rmdir $(RESOURCE_FOLDERS) 2>/dev/null; \
	  rmdir "$(DESTDIR)$(PREFIX)/share/tessera" 2>/dev/null; true
	@$(MAKE) --no-print-directory refresh-caches

# The desktop's caches of applications and icons, for a real prefix only: under DESTDIR the package
# manager runs them on the target system.
refresh-caches:
	@:
ifeq ($(DESTDIR),)
	@if command -v update-desktop-database >/dev/null; then update-desktop-database -q "$(PREFIX)/share/applications"; fi
	@if command -v gtk-update-icon-cache >/dev/null; then gtk-update-icon-cache -q -t "$(PREFIX)/share/icons/hicolor"; fi
endif

# Renders the icon's PNG sizes from its SVG (the output is committed).
icons:
	@dpkg -s $(ICON_TOOLS) >/dev/null 2>&1 || $(MAKE) --no-print-directory packages PACKAGES="$(ICON_TOOLS)"
	for size in $(ICON_SIZES); do rsvg-convert -w $$size -h $$size Resources/Icons/tessera.svg -o Resources/Icons/tessera-$$size.png; done

# Regenerates Resources/Samples (deterministic; the output is committed).
samples:
	@for p in $(SAMPLE_TOOLS); do dpkg -s $$p >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq $(SAMPLE_TOOLS); break; }; done
	python3 tools/make-samples.py Resources/Samples

clean:
	rm -rf .build
