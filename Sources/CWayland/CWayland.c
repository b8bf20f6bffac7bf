#define _GNU_SOURCE
#include <sys/mman.h>
#include <unistd.h>
#include "CWayland.h"

int hvt_wl_shared_memory(const char *name, size_t size) {
  int fd = memfd_create(name, MFD_CLOEXEC);
  if (fd < 0) return -1;
  if (ftruncate(fd, (off_t)size) < 0) {
    close(fd);
    return -1;
  }
  return fd;
}
