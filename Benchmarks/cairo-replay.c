// The raw-Cairo floor for Flipbook's render-only benchmark: replays the Cairo calls Flipbook
// made for each frame (recorded by `flipbook-bench record`, see Canvas+Recording.swift), with
// nothing else in the loop: no layer tree, no animation evaluation, no Swift.
//
//   cc -O2 -o cairo-replay Benchmarks/cairo-replay.c $(pkg-config --cflags --libs cairo)
//   ./cairo-replay trace.txt 5      # prints the median milliseconds per frame over 5 rounds
//
// The file is parsed into memory first; only drawing is timed.
#include <cairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum kind { SAVE, RESTORE, TRANSFORM, CLEAR, MOVE, LINE, CURVE, CLOSE, NEWPATH, FILL, STROKE, CLIP, GROUP, UNGROUP, IMAGE, FRAME };
typedef struct { enum kind kind; int count; double *v; } op;
typedef struct { op *ops; int n, cap; } list;
typedef struct { cairo_surface_t *surface; } image;

static list ops;
static image images[4096];

static void push(enum kind kind, double *v, int count) {
  if (ops.n == ops.cap) {
    ops.cap = ops.cap ? ops.cap * 2 : 4096;
    ops.ops = realloc(ops.ops, sizeof(op) * (size_t)ops.cap);
  }
  double *copy = NULL;
  if (count) {
    copy = malloc(sizeof(double) * (size_t)count);
    memcpy(copy, v, sizeof(double) * (size_t)count);
  }
  ops.ops[ops.n++] = (op){kind, count, copy};
}

static int numbers(const char *s, double *v, int max) {
  int n = 0;
  char *end;
  while (n < max) {
    double x = strtod(s, &end);
    if (end == s) break;
    v[n++] = x;
    s = end;
  }
  return n;
}

static void load(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) { perror(path); exit(1); }
  static char line[1 << 20];
  double v[512];
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    char word[32] = {0};
    sscanf(line, "%31s", word);
    const char *rest = line + strlen(word);
    int n = numbers(rest, v, 512);
    if (!strcmp(word, "frame")) push(FRAME, v, n);
    else if (!strcmp(word, "save")) push(SAVE, v, 0);
    else if (!strcmp(word, "restore")) push(RESTORE, v, 0);
    else if (!strcmp(word, "transform")) push(TRANSFORM, v, n);
    else if (!strcmp(word, "clear")) push(CLEAR, v, n);
    else if (!strcmp(word, "path")) push(NEWPATH, v, 0);
    else if (!strcmp(word, "M")) push(MOVE, v, n);
    else if (!strcmp(word, "L")) push(LINE, v, n);
    else if (!strcmp(word, "C")) push(CURVE, v, n);
    else if (!strcmp(word, "Z")) push(CLOSE, v, 0);
    else if (!strcmp(word, "end")) continue;
    else if (!strcmp(word, "fill")) push(FILL, v, n);
    else if (!strcmp(word, "stroke")) push(STROKE, v, n);
    else if (!strcmp(word, "clip")) push(CLIP, v, n);
    else if (!strcmp(word, "group")) push(GROUP, v, 0);
    else if (!strcmp(word, "ungroup")) push(UNGROUP, v, n);
    else if (!strcmp(word, "image")) push(IMAGE, v, n);
    else if (!strcmp(word, "imagedata")) {
      int id = (int)v[0], w = (int)v[1], h = (int)v[2];
      cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
      unsigned char *data = cairo_image_surface_get_data(s);
      int stride = cairo_image_surface_get_stride(s);
      for (int y = 0; y < h; y++) {
        if (!fgets(line, sizeof line, f)) exit(1);
        for (int x = 0; x < w; x++) {
          unsigned int r, g, b, a;
          sscanf(line + x * 8, "%2x%2x%2x%2x", &r, &g, &b, &a);
          unsigned int *px = (unsigned int *)(data + y * stride) + x;
          *px = a << 24 | (r * a + 127) / 255 << 16 | (g * a + 127) / 255 << 8 | (b * a + 127) / 255;
        }
      }
      cairo_surface_mark_dirty(s);
      images[id].surface = s;
    }
  }
  fclose(f);
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc < 2) { fprintf(stderr, "usage: cairo-replay TRACE [ROUNDS]\n"); return 2; }
  load(argv[1]);
  int rounds = argc > 2 ? atoi(argv[2]) : 5;
  double times[256];
  int frames = 0;
  for (int round = 0; round < rounds && round < 256; round++) {
    double start = now_ms();
    cairo_surface_t *surface = NULL;
    cairo_t *cr = NULL;
    frames = 0;
    for (int i = 0; i < ops.n; i++) {
      op *o = &ops.ops[i];
      double *v = o->v;
      switch (o->kind) {
      case FRAME:
        // A new canvas per frame, as Flipbook's render makes one per frame.
        if (cr) { cairo_destroy(cr); cairo_surface_destroy(surface); }
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)v[0], (int)v[1]);
        cr = cairo_create(surface);
        cairo_scale(cr, v[2], v[2]);
        frames++;
        break;
      case SAVE: cairo_save(cr); break;
      case RESTORE: cairo_restore(cr); break;
      case TRANSFORM: {
        cairo_matrix_t m = {v[0], v[1], v[2], v[3], v[4], v[5]};
        cairo_transform(cr, &m);
        break;
      }
      case CLEAR:
        cairo_save(cr);
        cairo_reset_clip(cr);
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
        cairo_set_source_rgba(cr, v[0], v[1], v[2], v[3]);
        cairo_paint(cr);
        cairo_restore(cr);
        break;
      case NEWPATH: cairo_new_path(cr); break;
      case MOVE: cairo_move_to(cr, v[0], v[1]); break;
      case LINE: cairo_line_to(cr, v[0], v[1]); break;
      case CURVE: cairo_curve_to(cr, v[0], v[1], v[2], v[3], v[4], v[5]); break;
      case CLOSE: cairo_close_path(cr); break;
      case FILL:
        cairo_set_source_rgba(cr, v[0], v[1], v[2], v[3]);
        cairo_set_fill_rule(cr, v[4] ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING);
        cairo_fill(cr);
        break;
      case STROKE: {
        cairo_set_source_rgba(cr, v[0], v[1], v[2], v[3]);
        cairo_set_line_width(cr, v[4]);
        cairo_set_line_cap(cr, v[5] == 0 ? CAIRO_LINE_CAP_BUTT : v[5] == 1 ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_SQUARE);
        cairo_set_line_join(cr, v[6] == 0 ? CAIRO_LINE_JOIN_MITER : v[6] == 1 ? CAIRO_LINE_JOIN_ROUND : CAIRO_LINE_JOIN_BEVEL);
        cairo_set_miter_limit(cr, v[7]);
        int dashes = (int)v[9];
        cairo_set_dash(cr, dashes ? v + 10 : NULL, dashes, v[8]);
        cairo_stroke(cr);
        break;
      }
      case CLIP:
        cairo_set_fill_rule(cr, v[0] ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING);
        cairo_clip(cr);
        break;
      case GROUP: cairo_push_group(cr); break;
      case UNGROUP:
        cairo_pop_group_to_source(cr);
        cairo_paint_with_alpha(cr, v[0]);
        break;
      case IMAGE: {
        image *im = &images[(int)v[0]];
        int w = cairo_image_surface_get_width(im->surface), h = cairo_image_surface_get_height(im->surface);
        cairo_pattern_t *p = cairo_pattern_create_for_surface(im->surface);
        cairo_matrix_t m;
        cairo_matrix_init_scale(&m, w / v[3], h / v[4]);
        cairo_matrix_translate(&m, -v[1], -v[2]);
        cairo_pattern_set_matrix(p, &m);
        cairo_pattern_set_filter(p, CAIRO_FILTER_BILINEAR);
        cairo_pattern_set_extend(p, CAIRO_EXTEND_PAD);
        cairo_save(cr);
        cairo_set_source(cr, p);
        cairo_new_path(cr);
        cairo_rectangle(cr, v[1], v[2], v[3], v[4]);
        cairo_fill(cr);
        cairo_restore(cr);
        cairo_pattern_destroy(p);
        break;
      }
      }
    }
    if (cr) {
      cairo_surface_flush(surface);
      cairo_destroy(cr);
      cairo_surface_destroy(surface);
    }
    times[round] = (now_ms() - start) / (frames ? frames : 1);
  }
  qsort(times, (size_t)rounds, sizeof(double), compare);
  printf("%.4f\n", times[rounds / 2]);
  return 0;
}
