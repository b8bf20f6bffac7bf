// The C seam between the command line's output and the C library's standard streams: Swift 6 cannot
// name `stdout` and `stderr` (they are mutable globals). The command line writes its lines holding the
// stream's lock (HVTSupport's `writeAll(_:to:holding:)`), so that none lands inside a line GStreamer or
// GLib is printing there (`GST_DEBUG`, warnings), which glibc 2.37 and later write in pieces of 128 bytes.
#ifndef HVT_CCONSOLE_H
#define HVT_CCONSOLE_H

#include <stdio.h>

/// The C library's stream for `descriptor`: `stdout` for 1, `stderr` for 2, NULL for any other.
FILE *hvt_console_stream(int descriptor);

#endif
