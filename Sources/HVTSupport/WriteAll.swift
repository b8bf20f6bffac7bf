import Foundation

/// Writes all of `data` to the open file `descriptor` (`write(2)` until done, again after `EINTR`).
/// Returns 0, or the `errno` of the write that failed; the descriptor stays open.
package func writeAll(_ data: Data, to descriptor: Int32) -> Int32 {
  data.withUnsafeBytes { bytes in
    var offset = 0
    while offset < bytes.count {
      let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      offset += written
    }
    return 0
  }
}

/// ``writeAll(_:to:)`` while holding `stream`'s lock (`flockfile`), having flushed what the stream
/// holds: the bytes never land inside what another thread prints to that stream with the C library,
/// which holds the lock for a whole `printf` (glibc 2.37 and later write one to an unbuffered stream in
/// pieces of 128 bytes). `descriptor` is the stream's own, or any other.
package func writeAll(_ data: Data, to descriptor: Int32, holding stream: UnsafeMutablePointer<FILE>) -> Int32 {
  flockfile(stream)
  defer { funlockfile(stream) }
  fflush_unlocked(stream)
  return writeAll(data, to: descriptor)
}
