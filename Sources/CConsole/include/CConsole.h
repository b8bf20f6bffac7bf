// The C seam between the command line's output and the C library's standard streams.
//
// glibc 2.37 and later write a printf to an unbuffered stream, as standard error is, in pieces of 128
// bytes, holding the stream's lock throughout. GStreamer's and GLib's lines (`GST_DEBUG`, warnings) are
// printed that way; a line written with write(2) meanwhile lands inside one of them. Swift cannot name
// `stdout` and `stderr` in Swift 6 (they are mutable globals), hence these functions.
#ifndef HVT_CCONSOLE_H
#define HVT_CCONSOLE_H

#include <stddef.h>
#include <stdio.h>

/// The C library's stream for `descriptor`: `stdout` for 1, `stderr` for 2, NULL for any other.
FILE *hvt_console_stream(int descriptor);

/// Writes all `count` bytes at `bytes` to `descriptor` with write(2), again after `EINTR`, while holding
/// `stream`'s lock (`flockfile`), having flushed what the stream holds, when `stream` is not NULL: the
/// bytes never land inside what another thread prints to that stream. Returns 0, or the `errno` of the
/// first failed write.
int hvt_write_holding(FILE *stream, int descriptor, const void *bytes, size_t count);

#endif
