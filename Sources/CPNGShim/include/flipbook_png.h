#ifndef FLIPBOOK_PNG_H
#define FLIPBOOK_PNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Receives encoded bytes; returns 0 on success, non-zero to abort the encode.
typedef int (*flipbook_png_write_fn)(void *context, const uint8_t *bytes, size_t count);

/// Encodes straight-alpha RGBA8 rows (`stride` bytes apart) as an 8-bit PNG, RGB when
/// `drop_alpha` is non-zero (every alpha must then be 255), RGBA otherwise.
/// `level` is zlib's 0...9, `filters` libpng's PNG_FILTER_* mask, `strategy` zlib's Z_* strategy.
/// Returns 0 on success; otherwise writes libpng's message (at most `message_size` bytes,
/// terminated) and returns non-zero. libpng's longjmp never leaves this function.
int flipbook_png_encode(const uint8_t *rgba, int width, int height, size_t stride, int drop_alpha,
                        int level, int filters, int strategy, flipbook_png_write_fn write,
                        void *context, char *message, size_t message_size);

/// Decodes the PNG in `bytes` (any color type and bit depth) to straight-alpha RGBA8 rows, with
/// the transforms Cairo's reader applies (palette and gray expanded, tRNS to alpha, 16 bits
/// stripped, no gamma change). Refuses images wider or taller than `max_side` or with more than
/// `max_pixels` pixels. On success returns 0 and sets `*rgba` (free it with
/// `flipbook_png_free`), `*width` and `*height`; otherwise writes libpng's message and returns
/// non-zero. libpng's longjmp never leaves this function.
int flipbook_png_decode(const uint8_t *bytes, size_t count, int max_side, uint64_t max_pixels,
                        uint8_t **rgba, int *width, int *height, char *message,
                        size_t message_size);

/// Frees pixels `flipbook_png_decode` returned.
void flipbook_png_free(uint8_t *rgba);

#ifdef __cplusplus
}
#endif

#endif
