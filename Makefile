# Tessera: `make run` opens the viewer on the bundled samples, `make test` runs the whole suite headless.
# Both first install the Debian packages Tessera needs, if any is missing.

# libcurl4: what Foundation's URLSession (remote images) runs on. libssl-dev: libcrypto's MD5, which names
# cache files. liblcms2-dev: colour management. libx11-dev: the display's colour profile (a root window
# property). zlib1g-dev: a gzipped SVG is told from other gzip by its text.
# The format libraries: libheif (HEIC, AVIF), libjxl, librsvg with GLib and cairo (SVG), gdk-pixbuf (BMP),
# libtiff, giflib, libraw.
APT_PACKAGES := pkg-config libsdl2-dev libsdl2-ttf-dev \
                libturbojpeg0-dev libjpeg62-turbo-dev libpng-dev libwebp-dev libexif-dev libpixman-1-dev libssl-dev \
                liblcms2-dev libx11-dev zlib1g-dev \
                libheif-dev libjxl-dev librsvg2-dev libglib2.0-dev libcairo2-dev libgdk-pixbuf-2.0-dev libtiff-dev \
                libgif-dev libraw-dev \
                fonts-dejavu-core libcurl4
SAMPLE_TOOLS := libjpeg-turbo-progs webp
# Tools some tests use to make fixtures or check our output: cwebp and webpmux (WebP files), gio (GLib's
# view of a thumbnail's validity), Xvfb (an X server whose root window carries a colour profile),
# libgs-common (Ghostscript's ICC profiles: a real CMYK and a non-sRGB RGB profile, read as test data),
# heif-enc (HEIC and AVIF), cjxl (JPEG XL), tiffcp (TIFF compressions and tiles).
TEST_PACKAGES := webp libglib2.0-bin xvfb libgs-common libheif-examples libjxl-tools libtiff-tools
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
SWIFT_FLAGS ?=
ARGS ?=

.PHONY: deps test-deps install build debug run test samples clean

deps:
	@$(MAKE) --no-print-directory install PACKAGES="$(APT_PACKAGES)"

test-deps:
	@$(MAKE) --no-print-directory install PACKAGES="$(APT_PACKAGES) $(TEST_PACKAGES)"

install:
	@missing=""; for p in $(PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi

build: deps
	swift build -c release $(SWIFT_FLAGS)

debug: deps
	swift build $(SWIFT_FLAGS)

run: build
	.build/release/tessera $(ARGS)

# Headless: SDL's dummy video driver, no display needed.
test: test-deps
	SDL_VIDEODRIVER=dummy SDL_RENDER_VSYNC=0 swift test --disable-swift-testing $(SWIFT_FLAGS)

# Regenerates Resources/Samples (deterministic; the output is committed).
samples:
	@for p in $(SAMPLE_TOOLS); do dpkg -s $$p >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq $(SAMPLE_TOOLS); break; }; done
	python3 tools/make-samples.py Resources/Samples

clean:
	rm -rf .build
