/* What SDL2's software renderer charges for each way the strip draws a cell, on a 1280x720 window.
 *
 *   cc -O2 tools/sdl-blit-costs.c $(sdl2-config --cflags --libs) $(pkg-config --cflags --libs pixman-1) \
 *      -o /tmp/sdl-blit-costs && /tmp/sdl-blit-costs
 *
 * Each case draws three 400x300 cells (a 400x267 picture, a 96x96 placeholder icon with per-pixel alpha)
 * and presents; the cases take turns, 1000 frames each, and the median and p90 are printed. The strip's
 * own drawing is in Sources/TesseraUI/Carousel/CarouselView.swift; why each case matters is in
 * docs/PERFORMANCE.md.
 *
 * Then what a cell's picture costs to get into a texture: making a 400x267 streaming texture and filling
 * it, against filling one made before (CarouselView.prepareCellTextures). The textures made are kept, as
 * the strip keeps its cells', so each is new memory, as in a fresh viewer. */
#include <SDL2/SDL.h>
#include <pixman.h>
#include <stdio.h>
#include <time.h>

enum { FRAMES = 1000, CELLS = 3 };

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static SDL_Renderer *renderer;
static SDL_Texture *picture, *icon, *icon_file, *composed;
/* The picture and the placeholder under it (cell background and icon), as the CPU holds them. */
static pixman_image_t *picture_pixels, *placeholder_pixels;
static Uint8 fade_alpha;

typedef enum {
    SHOWN,            /* faded in: margins filled, picture copied */
    FADE_ICON_FADING, /* mid-fade: cell filled, icon at 1 - alpha, picture blended at alpha */
    FADE_ICON_UNDER,  /* mid-fade: cell filled, icon at full alpha under the picture blended at alpha */
    FADE_COMPOSED,    /* mid-fade: pixman mixes placeholder and picture into a texture, which is copied */
    BLEND_AT_255,     /* an opaque texture left blending at alpha 255 */
    PLACEHOLDER,      /* cell filled, icon */
    PLACEHOLDER_FROM_FILE, /* cell filled, icon drawn from a 256x256 RGBA texture, as SDL_image loads it */
    CASES
} Case;

static const char *names[CASES] = {
    "shown (copy)", "fade, icon fading out", "fade, icon under picture", "fade, composed by pixman", "blend at alpha 255", "placeholder",
    "placeholder, icon from file",
};

static void fill(SDL_Rect r, Uint8 grey) {
    SDL_SetRenderDrawColor(renderer, grey, grey, grey + 6, 255);
    SDL_RenderFillRect(renderer, &r);
}

static void draw_cell(Case c, int i) {
    SDL_Rect cell = {16 + i * 416, 210, 400, 300}, pic = {cell.x, cell.y + 16, 400, 267};
    SDL_Rect ico = {cell.x + 152, cell.y + 102, 96, 96};
    const Uint8 half = fade_alpha;
    if (c == SHOWN || c == BLEND_AT_255 || c == FADE_COMPOSED) {
        fill((SDL_Rect){cell.x, cell.y, 400, 16}, 38);
        fill((SDL_Rect){cell.x, pic.y + pic.h, 400, 17}, 38);
    } else {
        fill(cell, 38);
    }
    switch (c) {
    case SHOWN:
        SDL_SetTextureBlendMode(picture, SDL_BLENDMODE_NONE);
        SDL_SetTextureAlphaMod(picture, 255);
        break;
    case BLEND_AT_255:
        SDL_SetTextureBlendMode(picture, SDL_BLENDMODE_BLEND);
        SDL_SetTextureAlphaMod(picture, 255);
        break;
    case FADE_ICON_FADING:
    case FADE_ICON_UNDER:
        SDL_SetTextureAlphaMod(icon, c == FADE_ICON_FADING ? 255 - half : 255);
        SDL_RenderCopy(renderer, icon, NULL, &ico);
        SDL_SetTextureBlendMode(picture, SDL_BLENDMODE_BLEND);
        SDL_SetTextureAlphaMod(picture, half);
        break;
    case FADE_COMPOSED: {
        void *target;
        int pitch;
        SDL_LockTexture(composed, NULL, &target, &pitch);
        pixman_image_t *into = pixman_image_create_bits(PIXMAN_x8r8g8b8, 400, 267, target, pitch);
        pixman_color_t alpha = {0, 0, 0, (Uint16)(half * 257)};
        pixman_image_t *mask = pixman_image_create_solid_fill(&alpha);
        pixman_image_composite32(PIXMAN_OP_SRC, placeholder_pixels, NULL, into, 0, 0, 0, 0, 0, 0, 400, 267);
        pixman_image_composite32(PIXMAN_OP_OVER, picture_pixels, mask, into, 0, 0, 0, 0, 0, 0, 400, 267);
        pixman_image_unref(mask);
        pixman_image_unref(into);
        SDL_UnlockTexture(composed);
        SDL_RenderCopy(renderer, composed, NULL, &pic);
        return;
    }
    case PLACEHOLDER:
        SDL_SetTextureAlphaMod(icon, 255);
        SDL_RenderCopy(renderer, icon, NULL, &ico);
        return;
    case PLACEHOLDER_FROM_FILE:
        SDL_RenderCopy(renderer, icon_file, NULL, &ico);
        return;
    default:
        return;
    }
    SDL_RenderCopy(renderer, picture, NULL, &pic);
}

int main(void) {
    SDL_setenv("SDL_VIDEODRIVER", "dummy", 1);
    if (SDL_Init(SDL_INIT_VIDEO) != 0) { fprintf(stderr, "%s\n", SDL_GetError()); return 1; }
    SDL_Window *window = SDL_CreateWindow("blit costs", 0, 0, 1280, 720, 0);
    renderer = window ? SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE) : NULL;
    if (!renderer) { fprintf(stderr, "%s\n", SDL_GetError()); return 1; }
    static Uint32 pixels[400 * 267];
    /* The strip's textures: opaque pictures without an alpha channel, the icon with one. */
    picture = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_RGB888, SDL_TEXTUREACCESS_STREAMING, 400, 267);
    for (int i = 0; i < 400 * 267; i++) pixels[i] = i * 2654435761u;
    SDL_UpdateTexture(picture, NULL, pixels, 400 * 4);
    static Uint32 picture_copy[400 * 267], placeholder[400 * 267];
    for (int i = 0; i < 400 * 267; i++) picture_copy[i] = pixels[i] | 0xff000000u;
    for (int i = 0; i < 400 * 267; i++) placeholder[i] = 0xff26262cu;
    picture_pixels = pixman_image_create_bits(PIXMAN_x8r8g8b8, 400, 267, picture_copy, 400 * 4);
    placeholder_pixels = pixman_image_create_bits(PIXMAN_x8r8g8b8, 400, 267, placeholder, 400 * 4);
    composed = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_RGB888, SDL_TEXTUREACCESS_STREAMING, 400, 267);
    icon = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_STREAMING, 96, 96);
    for (int i = 0; i < 96 * 96; i++) pixels[i] = ((i % 7) * 40u << 24) | ((i * 2654435761u) & 0xffffff);
    SDL_UpdateTexture(icon, NULL, pixels, 96 * 4);
    SDL_SetTextureBlendMode(icon, SDL_BLENDMODE_BLEND);
    static Uint32 big[256 * 256];
    icon_file = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_ABGR8888, SDL_TEXTUREACCESS_STREAMING, 256, 256);
    for (int i = 0; i < 256 * 256; i++) big[i] = ((i % 7) * 40u << 24) | ((i * 2654435761u) & 0xffffff);
    SDL_UpdateTexture(icon_file, NULL, big, 256 * 4);
    SDL_SetTextureBlendMode(icon_file, SDL_BLENDMODE_BLEND);

    static double times[CASES][FRAMES];
    for (int frame = 0; frame < FRAMES; frame++) {
        /* A fade's steps, 1 to 254; 128 is left out, for which SDL has a blitter of its own. */
        fade_alpha = (Uint8)(1 + frame * 7 % 254);
        if (fade_alpha == 128) fade_alpha = 129;
        for (int c = 0; c < CASES; c++) {
            double start = now_ms();
            SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_NONE);
            fill((SDL_Rect){0, 0, 1280, 210}, 24);
            fill((SDL_Rect){0, 510, 1280, 210}, 24);
            for (int i = 0; i < CELLS; i++) draw_cell((Case)c, i);
            SDL_RenderPresent(renderer);
            times[c][frame] = now_ms() - start;
        }
    }
    printf("%-28s %8s %8s\n", "three cells", "p50 ms", "p90 ms");
    for (int c = 0; c < CASES; c++) {
        qsort(times[c], FRAMES, sizeof(double), by_value);
        printf("%-28s %8.3f %8.3f\n", names[c], times[c][FRAMES / 2], times[c][FRAMES * 9 / 10]);
    }

    enum { MADE = 100 };
    static SDL_Texture *made[MADE];
    static double making[MADE], filling[MADE];
    for (int i = 0; i < MADE; i++) {
        double start = now_ms();
        made[i] = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_RGB888, SDL_TEXTUREACCESS_STREAMING, 400, 267);
        SDL_UpdateTexture(made[i], NULL, pixels, 400 * 4);
        double between = now_ms();
        SDL_UpdateTexture(made[i], NULL, pixels, 400 * 4);
        making[i] = between - start;
        filling[i] = now_ms() - between;
    }
    qsort(making, MADE, sizeof(double), by_value);
    qsort(filling, MADE, sizeof(double), by_value);
    printf("\n%-28s %8s %8s\n", "one 400x267 picture", "p50 ms", "p90 ms");
    printf("%-28s %8.3f %8.3f\n", "new texture, then upload", making[MADE / 2], making[MADE * 9 / 10]);
    printf("%-28s %8.3f %8.3f\n", "upload into a made texture", filling[MADE / 2], filling[MADE * 9 / 10]);
    SDL_Quit();
    return 0;
}
