// zlib (Debian's zlib1g-dev, which libpng-dev brings): deflate streams and CRC-32 for APNG.
#include <zlib.h>
