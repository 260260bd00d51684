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

#ifdef __cplusplus
}
#endif

#endif
