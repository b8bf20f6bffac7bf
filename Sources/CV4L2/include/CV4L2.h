// The C seam between Swift and the V4L2 API.
//
// Swift cannot call the variadic `ioctl`, so each V4L2 request HVTCamera makes is one small C function
// here. `<linux/videodev2.h>` is included so that Swift sees the structures and the control ids
// (`V4L2_CID_*`). Every function retries on EINTR; a failure returns -1 with `errno` saying why.
#ifndef HVT_CV4L2_H
#define HVT_CV4L2_H

#include <stdint.h>
#include <linux/videodev2.h>

/// Opens the V4L2 device node at `path` for `VIDIOC_*` requests: `O_RDWR | O_NONBLOCK | O_CLOEXEC`, which
/// neither waits for nor disturbs a stream another process or element runs (controls are shared by every
/// open file of a node). Returns the file descriptor, or -1 with `errno`.
int hvt_v4l2_open(const char *path);

/// Closes a descriptor from `hvt_v4l2_open`.
void hvt_v4l2_close(int fd);

/// `VIDIOC_QUERYCAP`: the driver, card name, bus info and capabilities of an open node. Returns 0 or -1.
int hvt_v4l2_query_capabilities(int fd, struct v4l2_capability *capability);

/// Whether the node's own capabilities (`device_caps` when the driver sets `V4L2_CAP_DEVICE_CAPS`, else
/// `capabilities`) include video capture (`V4L2_CAP_VIDEO_CAPTURE` or `_MPLANE`): a camera, not a
/// metadata, output or radio node.
int hvt_v4l2_is_video_capture(const struct v4l2_capability *capability);

/// `VIDIOC_QUERY_EXT_CTRL`: the control `id`, or with `id | V4L2_CTRL_FLAG_NEXT_CTRL` the next one after
/// it (the way to walk every control). Returns 0, or -1 with `errno` EINVAL after the last control.
int hvt_v4l2_query_control(int fd, uint32_t id, struct v4l2_query_ext_ctrl *control);

/// `VIDIOC_QUERYMENU`: the name (menu) or value (integer menu) of item `index` of control `id`.
int hvt_v4l2_query_menu(int fd, uint32_t id, uint32_t index, struct v4l2_querymenu *item);

/// `VIDIOC_G_EXT_CTRLS` for one 64-bit-or-smaller integer control (integer, boolean, menu, bitmask,
/// 64-bit integer). Returns 0 and stores the value, or -1.
int hvt_v4l2_get_control(int fd, uint32_t id, int64_t *value);

/// `VIDIOC_S_EXT_CTRLS` for one such control (also a button: any value presses it). Returns 0 or -1
/// (`errno` ERANGE for a value out of range, EBUSY for a control the stream holds, EACCES for a
/// read-only or inactive one).
int hvt_v4l2_set_control(int fd, uint32_t id, int64_t value);

/// Whether the node at `path` has the control `id` (e.g. `V4L2_CID_FLASH_LED_MODE`): 1 when it exists
/// and is not disabled, 0 when the device has no such control (or has it disabled), -1 when the question
/// could not be asked — the node does not open, or is not a V4L2 device — with `errno` saying why.
int hvt_v4l2_has_control(const char *path, uint32_t id);

#endif
