import CGStreamer

/// A writable stand-in for a shared frame that came from a buffer pool, so that the frame goes back to its
/// pool whole once everyone is done with it.
///
/// `gst_buffer_make_writable` copies a shared buffer's struct and shares its memory; when the original
/// then goes back to its pool while the copy still reads the memory (an encoder holding the copy for a few
/// frames), `GstBufferPool` discards it ("memory not writable") and the source allocates a new frame —
/// which the kernel maps and zeroes page by page: at 3840x2160, 3,000 page faults and several
/// milliseconds of the camera's thread for every frame. The stand-in instead reads each memory of the
/// original through a read-only wrapper (`gst_memory_new_wrapped`) that keeps the original mapped and
/// referenced until the wrapper is freed; the original goes back to its pool after the stand-in, with its
/// memory its own, and is used again.
///
/// GStreamer 1.24 fixed this in `gst_buffer_copy` itself (a copy sharing memory holds its parent buffer in
/// a `GstParentBufferMeta`, and a buffer frees its memories before its metas), so the stand-in is for 1.22:
/// there a parent buffer meta would give the parent back to its pool before the copy's memory.
enum PooledFrameStandIn {
  /// Whether GStreamer's own copy would have the pool discard the frame: before 1.24.
  static let isNeeded = !GStreamer.isAtLeast(1, 24)

  /// A writable buffer with `buffer`'s flags, timestamps, offsets and metas (`gst_buffer_copy_into`) whose
  /// memories read `buffer`'s, or `nil` when `buffer` holds memory other than system memory (a V4L2
  /// driver's, say, whose pool waits for it by itself) or a memory cannot be mapped for reading. Takes
  /// over the caller's reference to `buffer`, unless it returns `nil`.
  static func make(replacing buffer: UnsafeMutablePointer<GstBuffer>) -> UnsafeMutablePointer<GstBuffer>? {
    let count = gst_buffer_n_memory(buffer)
    let memories = (0..<count).compactMap { gst_buffer_peek_memory(buffer, $0) }
    guard memories.count == Int(count), memories.allSatisfy({ gst_memory_is_type($0, GST_ALLOCATOR_SYSMEM) != 0 })
    else { return nil }
    let held = memories.compactMap { HeldMemory(reading: $0, of: buffer) }
    guard held.count == memories.count, let standIn = gst_buffer_new() else {
      held.forEach { $0.release() }
      return nil
    }
    let copied = GstBufferCopyFlags(
      rawValue: GST_BUFFER_COPY_FLAGS.rawValue | GST_BUFFER_COPY_TIMESTAMPS.rawValue | GST_BUFFER_COPY_META.rawValue)
    _ = gst_buffer_copy_into(standIn, buffer, copied, 0, gsize.max)
    for memory in held { gst_buffer_append_memory(standIn, memory.wrapper()) }
    // Each wrapper took a reference of its own; the caller's goes with the buffer it no longer holds.
    gst_buffer_unref(buffer)
    return standIn
  }
}

/// One memory of a pooled buffer, mapped for reading, and a reference to the buffer: what a wrapper
/// reading that memory holds until it is freed.
private final class HeldMemory {
  let owner: UnsafeMutablePointer<GstBuffer>
  let memory: UnsafeMutablePointer<GstMemory>
  let map = UnsafeMutablePointer<GstMapInfo>.allocate(capacity: 1)

  /// Maps `memory` for reading (`gst_memory_map`) and takes a reference to `owner`; `nil` when the memory
  /// cannot be mapped.
  init?(reading memory: UnsafeMutablePointer<GstMemory>, of owner: UnsafeMutablePointer<GstBuffer>) {
    map.initialize(to: GstMapInfo())
    guard gst_memory_map(memory, map, GST_MAP_READ) != 0 else {
      map.deallocate()
      return nil
    }
    self.owner = owner
    self.memory = memory
    _ = gst_buffer_ref(owner)
  }

  /// A read-only memory of the mapped bytes (`gst_memory_new_wrapped`) that releases this one when freed.
  func wrapper() -> UnsafeMutablePointer<GstMemory> {
    let size = map.pointee.size
    return gst_memory_new_wrapped(
      GST_MEMORY_FLAG_READONLY, map.pointee.data, size, 0, size, Unmanaged.passRetained(self).toOpaque(),
      { data in
        guard let data else { return }
        Unmanaged<HeldMemory>.fromOpaque(data).takeRetainedValue().release()
      })
  }

  /// Unmaps the memory (`gst_memory_unmap`) and drops the reference to its buffer, which may then go back
  /// to its pool.
  func release() {
    gst_memory_unmap(memory, map)
    map.deallocate()
    gst_buffer_unref(owner)
  }
}
