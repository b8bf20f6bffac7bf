// The C seam between Swift and the V4L2 API.
//
// Swift cannot call the variadic `ioctl`, so each V4L2 query HVTCamera needs is one small C function
// here. `<linux/videodev2.h>` is included so that Swift sees the control ids (`V4L2_CID_*`).
#ifndef HVT_CV4L2_H
#define HVT_CV4L2_H

#include <stdint.h>
#include <linux/videodev2.h>

/// Whether the V4L2 device node at `path` has the control `id` (e.g. `V4L2_CID_FLASH_LED_MODE`).
///
/// Opens the node `O_RDONLY | O_NONBLOCK` (which neither waits for nor disturbs a stream another process
/// runs), asks `VIDIOC_QUERYCTRL`, and closes it. Returns 1 when the control exists and is not disabled,
/// 0 when the device answers that it has no such control (or has it disabled), and -1 when the question
/// could not be asked — the node does not open, or is not a V4L2 device — with `errno` saying why.
int hvt_v4l2_has_control(const char *path, uint32_t id);

#endif
