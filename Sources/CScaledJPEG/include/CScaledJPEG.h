// The C seam for decoding a JPEG at a fraction of its size with libjpeg's DCT scaling: libjpeg reports
// errors by calling `error_exit`, which must not return, so the `setjmp` that catches them lives in C.
#ifndef HVT_CSCALEDJPEG_H
#define HVT_CSCALEDJPEG_H

#include <stddef.h>

/// The most memory a decode may take besides its output: a progressive JPEG whose coefficients need more
/// is refused with a message saying so (libjpeg keeps the coefficients of a multi-scan image whole: 72 MiB
/// for 24 megapixels in 4:2:0, so 32 megapixels at most).
#define HVT_JPEG_MAX_MEMORY (96 * 1024 * 1024)

/// Decodes the JPEG at `path` to RGBx (4 bytes a pixel, rows of `width * 4` bytes) at the smallest of
/// 1/1, 1/2, 1/4 and 1/8 of its size whose longer side is still at least `min_longer_side` pixels, so
/// that a huge photo costs the memory of its thumbnail, not of its pixels. On success returns 0 and sets
/// `pixels` (free it with `hvt_jpeg_free`), `width` and `height`; on failure returns -1 and writes
/// libjpeg's message (or the system's, for a file that cannot be opened; or the refusal of a progressive
/// JPEG past `HVT_JPEG_MAX_MEMORY`) into `error`.
int hvt_jpeg_decode_scaled(const char *path, int min_longer_side, unsigned char **pixels, int *width, int *height,
                           char *error, size_t error_size);

/// Frees pixels that `hvt_jpeg_decode_scaled` returned.
void hvt_jpeg_free(unsigned char *pixels);

#endif
