// The only code that calls libpng. libpng reports errors by longjmp; this file keeps every
// setjmp/longjmp pair inside C so no Swift frame is ever jumped over.
#include "flipbook_png.h"

#include <png.h>
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
