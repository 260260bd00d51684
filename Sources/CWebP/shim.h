// libwebp (Debian's libwebp-dev): the encoder, the animation encoder (libwebpmux) and the
// animation decoder (libwebpdemux).
#include <webp/encode.h>
#include <webp/decode.h>
#include <webp/mux.h>
#include <webp/demux.h>
