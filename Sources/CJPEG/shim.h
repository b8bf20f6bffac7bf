// libjpeg (libjpeg-turbo on Debian): jpeglib.h needs stdio.h's FILE and size_t before it.
#include <stdio.h>
#include <jpeglib.h>
