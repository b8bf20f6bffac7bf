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
