// The only code that calls libpng. libpng reports errors by longjmp; this file keeps every
// setjmp/longjmp pair inside C so no Swift frame is ever jumped over.
#include "flipbook_png.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

typedef struct {
  flipbook_png_write_fn write;
  void *context;
  int failed;
  char *message;
  size_t message_size;
} encoder_state;

static void on_write(png_structp png, png_bytep data, png_size_t length) {
  encoder_state *state = (encoder_state *)png_get_io_ptr(png);
  if (state->failed) return;
  if (state->write(state->context, data, length) != 0) {
    state->failed = 1;
    png_error(png, "output refused the bytes");
  }
}

static void on_flush(png_structp png) { (void)png; }

static void on_error(png_structp png, png_const_charp text) {
  encoder_state *state = (encoder_state *)png_get_error_ptr(png);
  if (state->message && state->message_size > 0) {
    strncpy(state->message, text ? text : "libpng error", state->message_size - 1);
    state->message[state->message_size - 1] = 0;
  }
  png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
  (void)png;
  (void)text;
}

int flipbook_png_encode(const uint8_t *rgba, int width, int height, size_t stride, int drop_alpha,
                        int level, int filters, int strategy, flipbook_png_write_fn write,
                        void *context, char *message, size_t message_size) {
  encoder_state state = {write, context, 0, message, message_size};
  if (message && message_size > 0) message[0] = 0;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &state, on_error, on_warning);
  if (!png) return 1;
  png_infop info = png_create_info_struct(png);
  uint8_t *volatile row = NULL;
  if (!info) {
    png_destroy_write_struct(&png, NULL);
    return 1;
  }
  if (setjmp(png_jmpbuf(png))) {
    free(row);
    png_destroy_write_struct(&png, &info);
    return 1;
  }
  png_set_write_fn(png, &state, on_write, on_flush);
  png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8,
               drop_alpha ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(png, level);
  png_set_compression_strategy(png, strategy);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
  png_write_info(png, info);
  if (drop_alpha) {
    row = (uint8_t *)malloc((size_t)width * 3);
    if (!row) png_error(png, "out of memory");
    for (int y = 0; y < height; y++) {
      const uint8_t *src = rgba + (size_t)y * stride;
      uint8_t *dst = row;
      for (int x = 0; x < width; x++, src += 4, dst += 3) {
        dst[0] = src[0];
        dst[1] = src[1];
        dst[2] = src[2];
      }
      png_write_row(png, row);
    }
  } else {
    for (int y = 0; y < height; y++) png_write_row(png, (png_const_bytep)(rgba + (size_t)y * stride));
  }
  png_write_end(png, info);
  free(row);
  png_destroy_write_struct(&png, &info);
  return 0;
}

typedef struct {
  const uint8_t *bytes;
  size_t count;
  size_t offset;
  char *message;
  size_t message_size;
} decoder_state;

static void on_read(png_structp png, png_bytep data, png_size_t length) {
  decoder_state *state = (decoder_state *)png_get_io_ptr(png);
  if (length > state->count - state->offset) png_error(png, "truncated PNG data");
  memcpy(data, state->bytes + state->offset, length);
  state->offset += length;
}

static void on_read_error(png_structp png, png_const_charp text) {
  decoder_state *state = (decoder_state *)png_get_error_ptr(png);
  if (state->message && state->message_size > 0) {
    strncpy(state->message, text ? text : "libpng error", state->message_size - 1);
    state->message[state->message_size - 1] = 0;
  }
  png_longjmp(png, 1);
}

int flipbook_png_decode(const uint8_t *bytes, size_t count, int max_side, uint64_t max_pixels,
                        uint8_t **rgba, int *width, int *height, char *message,
                        size_t message_size) {
  decoder_state state = {bytes, count, 0, message, message_size};
  if (message && message_size > 0) message[0] = 0;
  *rgba = NULL;
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &state, on_read_error, on_warning);
  if (!png) return 1;
  png_infop info = png_create_info_struct(png);
  uint8_t *volatile pixels = NULL;
  png_bytep *volatile rows = NULL;
  if (!info) {
    png_destroy_read_struct(&png, NULL, NULL);
    return 1;
  }
  if (setjmp(png_jmpbuf(png))) {
    free(pixels);
    free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    return 1;
  }
  png_set_read_fn(png, &state, on_read);
  /* Compressed text and colour profiles are skipped, not inflated: Flipbook uses neither, and
     libpng inflated each zTXt, iTXt and iCCP chunk whole (990 zTXt chunks of 8 MB of zeros in a
     7.6 MB picture of 8 x 8 pixels took 32 s). Their bytes are still read and CRC-checked. */
  static const png_byte skipped[] = {'z', 'T', 'X', 't', 0, 'i', 'T', 'X', 't', 0,
                                     't', 'E', 'X', 't', 0, 'i', 'C', 'C', 'P', 0};
  png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, skipped, 4);
  /* No chunk can be longer than what is left of the file: one that says it is (a 51-byte file
     claiming a 2 GB text chunk, which libpng would allocate before reading) is refused first. */
  for (size_t at = 8; at + 8 <= count;) {
    size_t length = ((size_t)bytes[at] << 24) | ((size_t)bytes[at + 1] << 16) |
                    ((size_t)bytes[at + 2] << 8) | (size_t)bytes[at + 3];
    if (length > count - at - 8) png_error(png, "truncated PNG data (a chunk is longer than the file)");
    if (!memcmp(bytes + at + 4, "IEND", 4)) break;
    at += length + 12;
  }
  png_read_info(png, info);
  png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
  if (w == 0 || h == 0 || w > (png_uint_32)max_side || h > (png_uint_32)max_side ||
      (uint64_t)w * (uint64_t)h > max_pixels) {
    char message[160];
    snprintf(message, sizeof message,
             "the image is %lu x %lu pixels, outside the limits (1 to %d pixels a side, at most %llu pixels)",
             (unsigned long)w, (unsigned long)h, max_side, (unsigned long long)max_pixels);
    png_error(png, message);
  }
  int depth = png_get_bit_depth(png, info);
  int type = png_get_color_type(png, info);
  // The transforms Cairo's reader applies: everything becomes 8-bit RGBA, no gamma change.
  if (type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (type == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
  if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
  if (depth == 16) png_set_strip_16(png);
  if (depth < 8) png_set_packing(png);
  if (type == PNG_COLOR_TYPE_GRAY || type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
  png_set_filler(png, 0xff, PNG_FILLER_AFTER);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  if (png_get_rowbytes(png, info) != (size_t)w * 4) png_error(png, "unsupported pixel format");
  pixels = (uint8_t *)malloc((size_t)w * h * 4);
  rows = (png_bytep *)malloc(sizeof(png_bytep) * h);
  if (!pixels || !rows) png_error(png, "out of memory");
  for (png_uint_32 y = 0; y < h; y++) rows[y] = pixels + (size_t)y * w * 4;
  png_read_image(png, rows);
  png_read_end(png, NULL);
  free(rows);
  png_destroy_read_struct(&png, &info, NULL);
  *rgba = pixels;
  *width = (int)w;
  *height = (int)h;
  return 0;
}

void flipbook_png_free(uint8_t *rgba) { free(rgba); }
