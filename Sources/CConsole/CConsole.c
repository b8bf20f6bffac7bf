#include "CConsole.h"

#include <errno.h>
#include <unistd.h>

FILE *hvt_console_stream(int descriptor) {
  switch (descriptor) {
  case STDOUT_FILENO: return stdout;
  case STDERR_FILENO: return stderr;
  default: return NULL;
  }
}

int hvt_write_holding(FILE *stream, int descriptor, const void *bytes, size_t count) {
  int failed = 0;
  size_t offset = 0;
  if (stream != NULL) {
    flockfile(stream);
    fflush_unlocked(stream);
  }
  while (offset < count) {
    ssize_t written = write(descriptor, (const char *)bytes + offset, count - offset);
    if (written < 0) {
      if (errno == EINTR) continue;
      failed = errno;
      break;
    }
    offset += (size_t)written;
  }
  if (stream != NULL) funlockfile(stream);
  return failed;
}
