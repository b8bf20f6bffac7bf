// GStreamer's RTSP server library (gst-rtsp-server 1.22), for the in-process RTSP server that streams
// the camera. It has no macros or variadic functions the engine needs, so this only includes it.
#ifndef HVT_CGSTRTSPSERVER_SHIM_H
#define HVT_CGSTRTSPSERVER_SHIM_H

#include <gst/rtsp-server/rtsp-server.h>

#endif
