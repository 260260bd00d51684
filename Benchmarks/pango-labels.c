// The floor for Flipbook's text benchmark (BENCHMARKS.md, "Text"): the 50 labels of
// Benchmarks/scenes/labels-50.json drawn by PangoCairo directly, laid out once, then each frame
// a new 640 x 480 image surface, a white background and, per label, a clip to its bounds and
// pango_cairo_show_layout. Same font options as Flipbook (gray, no hinting, hint metrics off).
//
//   cc -O2 -o pango-labels Benchmarks/pango-labels.c $(pkg-config --cflags --libs pangocairo)
//   ./pango-labels            # prints the median ms per frame
#include <pango/pangocairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define LABELS 50
static const char *aligns[5] = {"left", "center", "right", "natural", "left"};

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(void) {
  PangoFontMap *map = pango_cairo_font_map_new();
  PangoContext *context = pango_font_map_create_context(map);
  cairo_font_options_t *options = cairo_font_options_create();
  cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY);
  cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
  cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
  pango_cairo_context_set_font_options(context, options);
  pango_context_set_round_glyph_positions(context, FALSE);
  PangoFontDescription *font = pango_font_description_from_string("Liberation Sans");
  pango_font_description_set_absolute_size(font, 14 * PANGO_SCALE);

  PangoLayout *layouts[LABELS];
  double xs[LABELS], ys[LABELS];
  for (int i = 0; i < LABELS; i++) {
    int col = i % 5, row = i / 5;
    char text[64];
    snprintf(text, sizeof text, "Label %02d: %d%%\nstatic text", i, (i * 7) % 101);
    PangoLayout *layout = pango_layout_new(context);
    pango_layout_set_font_description(layout, font);
    pango_layout_set_text(layout, text, -1);
    pango_layout_set_width(layout, 120 * PANGO_SCALE);
    const char *a = aligns[col];
    pango_layout_set_alignment(layout, a[0] == 'c'   ? PANGO_ALIGN_CENTER
                                       : a[0] == 'r' ? PANGO_ALIGN_RIGHT
                                                     : PANGO_ALIGN_LEFT);
    pango_layout_get_line_count(layout);  // lay out now, not in the timed loop
    layouts[i] = layout;
    xs[i] = 8 + col * 126;
    ys[i] = 8 + row * 47;
  }

  enum { ROUNDS = 50, FRAMES = 10 };
  double samples[ROUNDS];
  for (int round = -3; round < ROUNDS; round++) {
    double start = now_ms();
    for (int f = 0; f < FRAMES; f++) {
      cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 640, 480);
      cairo_t *cr = cairo_create(surface);
      cairo_set_source_rgb(cr, 1, 1, 1);
      cairo_paint(cr);
      cairo_set_source_rgb(cr, 0x1d / 255.0, 0x24 / 255.0, 0x33 / 255.0);
      for (int i = 0; i < LABELS; i++) {
        cairo_save(cr);
        cairo_rectangle(cr, xs[i], ys[i], 120, 40);
        cairo_clip(cr);
        cairo_move_to(cr, xs[i], ys[i]);
        pango_cairo_show_layout(cr, layouts[i]);
        cairo_restore(cr);
      }
      cairo_surface_flush(surface);
      cairo_destroy(cr);
      cairo_surface_destroy(surface);
    }
    if (round >= 0) samples[round] = (now_ms() - start) / FRAMES;
  }
  qsort(samples, ROUNDS, sizeof samples[0], compare);
  printf("%.3f\n", samples[ROUNDS / 2]);
  return 0;
}
