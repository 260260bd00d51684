// JPEG decoding through libjpeg (Debian's libjpeg62-turbo), with its setjmp/longjmp error
// handling kept inside C, as CPNGShim does for libpng.
#include "flipbook_jpeg.h"

// jpeglib.h uses FILE and size_t without including their headers.
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

struct flipbook_jpeg_error {
  struct jpeg_error_mgr base;
  jmp_buf jump;
  char *message;
  size_t message_size;
};

static void flipbook_jpeg_fail(j_common_ptr info) {
  struct flipbook_jpeg_error *error = (struct flipbook_jpeg_error *)info->err;
  if (error->message && error->message_size > 0) {
    char text[JMSG_LENGTH_MAX];
    (*info->err->format_message)(info, text);
    snprintf(error->message, error->message_size, "%s", text);
  }
  longjmp(error->jump, 1);
}

// Warnings are not printed. Those that say image data is missing (the file ends early, or a
// segment does) fail the decoding: libjpeg would fill the rest with grey and report success, a
// truncated file drawn as if whole. Others (extraneous bytes between markers) are recovered
// from without loss and pass.
static void flipbook_jpeg_quiet(j_common_ptr info, int level) {
  if (level < 0 && (info->err->msg_code == JWRN_JPEG_EOF || info->err->msg_code == JWRN_HIT_MARKER)) {
    flipbook_jpeg_fail(info);
  }
}

// The most scans a JPEG may have: 100 (real files have a dozen or so; libjpeg-turbo advises at
// most 500). A progressive file repeating one tiny scan makes the decoder walk every block once
// a scan: an 8000 x 8000 picture of 5,000 scans (485 KB) took 28 s; 100 take about 0.6 s.
#define FLIPBOOK_JPEG_MAX_SCANS 100


static void flipbook_jpeg_progress(j_common_ptr info) {
  j_decompress_ptr d = (j_decompress_ptr)info;
  if (d->is_decompressor && d->input_scan_number > FLIPBOOK_JPEG_MAX_SCANS) {
    struct flipbook_jpeg_error *error = (struct flipbook_jpeg_error *)info->err;
    if (error->message && error->message_size > 0) {
      snprintf(error->message, error->message_size,
               "more than %d scans, the limit (a progressive file repeating its scans)",
               FLIPBOOK_JPEG_MAX_SCANS);
    }
    longjmp(error->jump, 1);
  }
}

int flipbook_jpeg_decode(const uint8_t *bytes, size_t count, int max_side, uint64_t max_pixels,
                         uint8_t **rgba, int *width, int *height, char *message,
                         size_t message_size) {
  struct jpeg_decompress_struct info;
  struct flipbook_jpeg_error error;
  uint8_t *volatile pixels = NULL;
  uint8_t *volatile row = NULL;
  *rgba = NULL;
  memset(&info, 0, sizeof info);
  info.err = jpeg_std_error(&error.base);
  error.base.error_exit = flipbook_jpeg_fail;
  error.base.emit_message = flipbook_jpeg_quiet;
  error.message = message;
  error.message_size = message_size;
  if (message && message_size > 0) message[0] = 0;
  if (setjmp(error.jump)) {
    jpeg_destroy_decompress(&info);
    free(pixels);
    free(row);
    return 1;
  }
  jpeg_create_decompress(&info);
  struct jpeg_progress_mgr progress;
  memset(&progress, 0, sizeof progress);
  progress.progress_monitor = flipbook_jpeg_progress;
  info.progress = &progress;
  jpeg_mem_src(&info, bytes, (unsigned long)count);
  jpeg_read_header(&info, TRUE);
  if (info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK) {
    info.out_color_space = JCS_CMYK;
  } else {
    info.out_color_space = JCS_RGB;
  }
  jpeg_calc_output_dimensions(&info);
  if (info.output_width == 0 || info.output_height == 0 || info.output_width > (unsigned)max_side ||
      info.output_height > (unsigned)max_side ||
      (uint64_t)info.output_width * info.output_height > max_pixels) {
    if (message && message_size > 0) {
      /* Worded as the PNG decoder's refusal, naming the limits. */
      snprintf(message, message_size,
               "the image is %u x %u pixels, outside the limits (1 to %d pixels a side, at most "
               "%llu pixels)",
               info.output_width, info.output_height, max_side, (unsigned long long)max_pixels);
    }
    jpeg_destroy_decompress(&info);
    return 1;
  }
  jpeg_start_decompress(&info);
  size_t w = info.output_width, h = info.output_height;
  int channels = info.output_components;
  pixels = malloc(w * h * 4);
  row = malloc(w * (size_t)channels);
  if (!pixels || !row) {
    if (message && message_size > 0) snprintf(message, message_size, "out of memory");
    jpeg_destroy_decompress(&info);
    free(pixels);
    free(row);
    return 1;
  }
  while (info.output_scanline < info.output_height) {
    size_t y = info.output_scanline;
    JSAMPROW rows[1] = {row};
    jpeg_read_scanlines(&info, rows, 1);
    uint8_t *out = pixels + y * w * 4;
    for (size_t x = 0; x < w; x++) {
      if (channels == 4) {
        // Adobe writes CMYK inverted: each channel is already 255 - ink.
        unsigned k = row[x * 4 + 3];
        out[x * 4 + 0] = (uint8_t)(row[x * 4 + 0] * k / 255);
        out[x * 4 + 1] = (uint8_t)(row[x * 4 + 1] * k / 255);
        out[x * 4 + 2] = (uint8_t)(row[x * 4 + 2] * k / 255);
      } else if (channels == 3) {
        out[x * 4 + 0] = row[x * 3 + 0];
        out[x * 4 + 1] = row[x * 3 + 1];
        out[x * 4 + 2] = row[x * 3 + 2];
      } else {
        out[x * 4 + 0] = out[x * 4 + 1] = out[x * 4 + 2] = row[x];
      }
      out[x * 4 + 3] = 255;
    }
  }
  jpeg_finish_decompress(&info);
  jpeg_destroy_decompress(&info);
  free(row);
  *rgba = pixels;
  *width = (int)w;
  *height = (int)h;
  return 0;
}

void flipbook_jpeg_free(uint8_t *rgba) { free(rgba); }
