#include "CScaledJPEG.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

/// libjpeg's error manager, with where to return to on an error.
struct hvt_jpeg_error {
  struct jpeg_error_mgr manager;
  jmp_buf back;
};

static void hvt_jpeg_error_exit(j_common_ptr info) {
  struct hvt_jpeg_error *error = (struct hvt_jpeg_error *)info->err;
  longjmp(error->back, 1);
}

/// Warnings (a corrupt but decodable stream) are not printed on stderr.
static void hvt_jpeg_output_message(j_common_ptr info) { (void)info; }

int hvt_jpeg_decode_scaled(const char *path, int min_longer_side, unsigned char **pixels, int *width, int *height,
                           char *error, size_t error_size) {
  FILE *file = fopen(path, "rb");
  if (file == NULL) {
    snprintf(error, error_size, "%s (errno %d)", strerror(errno), errno);
    return -1;
  }
  struct jpeg_decompress_struct info;
  struct hvt_jpeg_error handler;
  // Volatile: read after a longjmp.
  unsigned char *volatile output = NULL;
  info.err = jpeg_std_error(&handler.manager);
  handler.manager.error_exit = hvt_jpeg_error_exit;
  handler.manager.output_message = hvt_jpeg_output_message;
  if (setjmp(handler.back)) {
    char message[JMSG_LENGTH_MAX];
    handler.manager.format_message((j_common_ptr)&info, message);
    snprintf(error, error_size, "%s", message);
    jpeg_destroy_decompress(&info);
    fclose(file);
    free((void *)output);
    return -1;
  }
  jpeg_create_decompress(&info);
  jpeg_stdio_src(&info, file);
  jpeg_read_header(&info, TRUE);
  // A progressive (or any multi-scan) JPEG is decoded through coefficient buffers of the whole image,
  // whatever the scale: 16000x12000 needs 549 MiB of them. Such a file is refused before they are made,
  // and libjpeg's own limit stops any other buffer past the same bound (it has no backing store).
  info.mem->max_memory_to_use = HVT_JPEG_MAX_MEMORY;
  if (jpeg_has_multiple_scans(&info)) {
    size_t coefficients = 0;
    for (int index = 0; index < info.num_components; index++) {
      jpeg_component_info *component = &info.comp_info[index];
      coefficients += (size_t)component->width_in_blocks * component->height_in_blocks * DCTSIZE2 * sizeof(JCOEF);
    }
    if (coefficients > HVT_JPEG_MAX_MEMORY) {
      snprintf(error, error_size, "a progressive JPEG of %ux%u needs %zu MiB to decode at any size, more than %d MiB",
               info.image_width, info.image_height, coefficients >> 20, HVT_JPEG_MAX_MEMORY >> 20);
      jpeg_destroy_decompress(&info);
      fclose(file);
      return -1;
    }
  }
  unsigned int longer = info.image_width > info.image_height ? info.image_width : info.image_height;
  unsigned int denominator = 1;
  while (denominator < 8 && longer / (denominator * 2) >= (unsigned int)(min_longer_side > 0 ? min_longer_side : 1)) {
    denominator *= 2;
  }
  info.scale_num = 1;
  info.scale_denom = denominator;
  info.out_color_space = JCS_EXT_RGBX;
  jpeg_start_decompress(&info);
  size_t stride = (size_t)info.output_width * 4;
  output = malloc(stride * info.output_height);
  if (output == NULL) {
    snprintf(error, error_size, "out of memory for %ux%u pixels", info.output_width, info.output_height);
    jpeg_destroy_decompress(&info);
    fclose(file);
    return -1;
  }
  while (info.output_scanline < info.output_height) {
    JSAMPROW row = output + stride * info.output_scanline;
    jpeg_read_scanlines(&info, &row, 1);
  }
  jpeg_finish_decompress(&info);
  *width = (int)info.output_width;
  *height = (int)info.output_height;
  *pixels = output;
  jpeg_destroy_decompress(&info);
  fclose(file);
  return 0;
}

void hvt_jpeg_free(unsigned char *pixels) { free(pixels); }
