#ifndef FLIPBOOK_JPEG_H
#define FLIPBOOK_JPEG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Decodes the baseline or progressive JPEG in `bytes` (gray, YCbCr, or CMYK/YCCK as Adobe
/// writes them) to opaque RGBA8 rows. Refuses images wider or taller than `max_side` or with
/// more than `max_pixels` pixels. On success returns 0 and sets `*rgba` (free it with
/// `flipbook_jpeg_free`), `*width` and `*height`; otherwise writes libjpeg's message (at most
/// `message_size` bytes, terminated) and returns non-zero. libjpeg's errors never longjmp out of
/// this function.
int flipbook_jpeg_decode(const uint8_t *bytes, size_t count, int max_side, uint64_t max_pixels,
                         uint8_t **rgba, int *width, int *height, char *message,
                         size_t message_size);

/// Frees pixels `flipbook_jpeg_decode` returned.
void flipbook_jpeg_free(uint8_t *rgba);

#ifdef __cplusplus
}
#endif

#endif
