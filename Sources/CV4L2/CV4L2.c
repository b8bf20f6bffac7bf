#include "CV4L2.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int request(int fd, unsigned long code, void *argument) {
  int result;
  do {
    result = ioctl(fd, code, argument);
  } while (result < 0 && errno == EINTR);
  return result;
}

int hvt_v4l2_open(const char *path) { return open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC); }

void hvt_v4l2_close(int fd) {
  int saved = errno;
  close(fd);
  errno = saved;
}

int hvt_v4l2_query_capabilities(int fd, struct v4l2_capability *capability) {
  memset(capability, 0, sizeof *capability);
  return request(fd, VIDIOC_QUERYCAP, capability);
}

int hvt_v4l2_is_video_capture(const struct v4l2_capability *capability) {
  uint32_t caps = (capability->capabilities & V4L2_CAP_DEVICE_CAPS) ? capability->device_caps
                                                                      : capability->capabilities;
  return (caps & (V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_VIDEO_CAPTURE_MPLANE)) != 0;
}

int hvt_v4l2_query_control(int fd, uint32_t id, struct v4l2_query_ext_ctrl *control) {
  memset(control, 0, sizeof *control);
  control->id = id;
  return request(fd, VIDIOC_QUERY_EXT_CTRL, control);
}

int hvt_v4l2_query_menu(int fd, uint32_t id, uint32_t index, struct v4l2_querymenu *item) {
  memset(item, 0, sizeof *item);
  item->id = id;
  item->index = index;
  return request(fd, VIDIOC_QUERYMENU, item);
}

static int control_request(int fd, unsigned long code, uint32_t id, int64_t *value) {
  struct v4l2_ext_control control;
  struct v4l2_ext_controls controls;
  memset(&control, 0, sizeof control);
  memset(&controls, 0, sizeof controls);
  control.id = id;
  control.value64 = *value;
  controls.which = V4L2_CTRL_WHICH_CUR_VAL;
  controls.count = 1;
  controls.controls = &control;
  // The 32-bit control types travel in `value`, the 64-bit one in `value64` (they share storage).
  struct v4l2_query_ext_ctrl query;
  int wide = hvt_v4l2_query_control(fd, id, &query) == 0 && query.type == V4L2_CTRL_TYPE_INTEGER64;
  if (!wide) control.value = (int32_t)*value;
  int result = request(fd, code, &controls);
  if (result == 0) *value = wide ? control.value64 : control.value;
  return result;
}

int hvt_v4l2_get_control(int fd, uint32_t id, int64_t *value) {
  *value = 0;
  return control_request(fd, VIDIOC_G_EXT_CTRLS, id, value);
}

int hvt_v4l2_set_control(int fd, uint32_t id, int64_t value) {
  return control_request(fd, VIDIOC_S_EXT_CTRLS, id, &value);
}

int hvt_v4l2_has_control(const char *path, uint32_t id) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return -1;
  struct v4l2_query_ext_ctrl query;
  int result = hvt_v4l2_query_control(fd, id, &query);
  int saved = errno;
  close(fd);
  if (result == 0) return (query.flags & V4L2_CTRL_FLAG_DISABLED) ? 0 : 1;
  errno = saved;
  return saved == EINVAL ? 0 : -1;
}
