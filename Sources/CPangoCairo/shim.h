// PangoCairo, Pango's fontconfig font map and fontconfig itself, for CairoCanvas's text engine
// (Sources/CairoCanvas/TextEngine.swift). The inline functions stand in for GObject cast macros,
// which Swift does not import.
#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>

static inline void flipbook_fc_font_map_set_config(PangoFontMap *map, FcConfig *config) {
  pango_fc_font_map_set_config(PANGO_FC_FONT_MAP(map), config);
}

static inline void flipbook_fc_font_map_cache_clear(PangoFontMap *map) {
  pango_fc_font_map_cache_clear(PANGO_FC_FONT_MAP(map));
}

static inline cairo_scaled_font_t *flipbook_scaled_font(PangoFont *font) {
  return pango_cairo_font_get_scaled_font(PANGO_CAIRO_FONT(font));
}

static inline void flipbook_object_unref(void *object) { g_object_unref(object); }

static inline int flipbook_is_ellipsis(PangoGlyphItem *run) {
  return (run->item->analysis.flags & PANGO_ANALYSIS_FLAG_IS_ELLIPSIS) != 0;
}
