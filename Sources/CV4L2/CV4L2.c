#include "CV4L2.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int hvt_v4l2_has_control(const char *path, uint32_t id) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return -1;
  struct v4l2_queryctrl query;
  memset(&query, 0, sizeof query);
  query.id = id;
  int result;
  do {
    result = ioctl(fd, VIDIOC_QUERYCTRL, &query);
  } while (result < 0 && errno == EINTR);
  int saved = errno;
  close(fd);
  if (result == 0) return (query.flags & V4L2_CTRL_FLAG_DISABLED) ? 0 : 1;
  errno = saved;
  return saved == EINVAL ? 0 : -1;
}
