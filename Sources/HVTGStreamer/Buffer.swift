import CGStreamer
import Foundation

/// A borrowed view of a `GstBuffer` inside a probe callback: timestamps and flags.
public struct BufferView {
  let pointer: UnsafeMutablePointer<GstBuffer>

  /// Presentation timestamp in nanoseconds, or `ClockTime.none`. `GST_BUFFER_PTS`.
  public var presentationTime: UInt {
    get { hvt_gst_buffer_pts(pointer) }
    nonmutating set { hvt_gst_buffer_set_pts(pointer, newValue) }
  }

  /// Decoding timestamp in nanoseconds, or `ClockTime.none`. `GST_BUFFER_DTS`.
  public var decodingTime: UInt {
    get { hvt_gst_buffer_dts(pointer) }
    nonmutating set { hvt_gst_buffer_set_dts(pointer, newValue) }
  }

  /// Duration in nanoseconds, or `ClockTime.none`. `GST_BUFFER_DURATION`.
  public var duration: UInt {
    get { hvt_gst_buffer_duration(pointer) }
    nonmutating set { hvt_gst_buffer_set_duration(pointer, newValue) }
  }

  /// The number of bytes the buffer holds: `gst_buffer_get_size`.
  public var size: Int { Int(gst_buffer_get_size(pointer)) }

  /// Keeps only `size` bytes of the buffer's data, starting `offset` bytes in: `gst_buffer_resize`. Only
  /// for a writable buffer (``PadProbeInfo/writableBuffer()``); the memory itself is shared, not copied.
  public func resize(offset: Int, size: Int) {
    gst_buffer_resize(pointer, offset, size)
  }

  /// The media-specific offset, or `ClockTime.none` (`GST_BUFFER_OFFSET_NONE`) when unset:
  /// `GST_BUFFER_OFFSET`. For video from `v4l2src`, the driver's frame sequence number (`v4l2_buffer`'s
  /// `sequence`), so that a gap means frames the driver lost; `videotestsrc` numbers its frames.
  public var offset: UInt { UInt(hvt_gst_buffer_offset(pointer)) }

  /// Whether the buffer cannot be decoded on its own (`GST_BUFFER_FLAG_DELTA_UNIT`): for encoded video,
  /// a frame that is not a key frame.
  public var isDeltaUnit: Bool { hvt_gst_buffer_is_delta_unit(pointer) != 0 }

  /// Whether the buffer holds a stream's headers (`GST_BUFFER_FLAG_HEADER`), as a muxer marks the
  /// FLV header and the codec data it also puts in its caps' `streamheader`.
  public var isHeader: Bool { hvt_gst_buffer_is_header(pointer) != 0 }

  /// Takes a reference of its own to the buffer, to keep it after the callback returns.
  public func retained() -> Buffer { Buffer(retaining: pointer) }
}

/// An owned reference to a `GstBuffer`.
///
/// `@unchecked Sendable`: a counted reference to a `GstBuffer`; a buffer with more than one owner is only read
/// (GStreamer copies it before a write).
public final class Buffer: @unchecked Sendable {
  let pointer: UnsafeMutablePointer<GstBuffer>

  /// Adds a reference of its own. Wraps `gst_buffer_ref`.
  init(retaining pointer: UnsafeMutablePointer<GstBuffer>) {
    self.pointer = gst_buffer_ref(pointer)
  }

  /// Takes over a full reference.
  init(adopting pointer: UnsafeMutablePointer<GstBuffer>) {
    self.pointer = pointer
  }

  /// A new buffer holding a copy of `bytes` (for `appsrc`). Wraps `gst_buffer_new_memdup`.
  public convenience init(copying bytes: Data) {
    GStreamer.initialize()
    let pointer = bytes.withUnsafeBytes { gst_buffer_new_memdup($0.baseAddress, gsize($0.count)) }
    self.init(adopting: pointer ?? gst_buffer_new())
  }

  deinit {
    gst_buffer_unref(pointer)
  }

  /// Presentation timestamp in nanoseconds, or `ClockTime.none`. `GST_BUFFER_PTS`.
  public var presentationTime: UInt { hvt_gst_buffer_pts(pointer) }

  /// The buffer's size in bytes. Wraps `gst_buffer_get_size`.
  public var size: Int { Int(gst_buffer_get_size(pointer)) }

  /// Whether the buffer cannot be decoded on its own (not a key frame). `GST_BUFFER_FLAG_DELTA_UNIT`.
  public var isDeltaUnit: Bool { hvt_gst_buffer_is_delta_unit(pointer) != 0 }

  /// A buffer sharing this one's memory, its presentation and decoding times moved by `offset`
  /// nanoseconds (a time that is not set stays unset; none goes below 0): the same frames on another
  /// pipeline's clock. Wraps `gst_buffer_copy`.
  public func shifted(by offset: Int64) -> Buffer {
    let copy = Buffer(adopting: gst_buffer_copy(pointer))
    func moved(_ time: UInt) -> UInt {
      guard time != ClockTime.none else { return time }
      return UInt(max(0, Int64(time) + offset))
    }
    hvt_gst_buffer_set_pts(copy.pointer, moved(hvt_gst_buffer_pts(pointer)))
    hvt_gst_buffer_set_dts(copy.pointer, moved(hvt_gst_buffer_dts(pointer)))
    return copy
  }

  /// Calls `body` with the buffer's bytes mapped for reading. Wraps `gst_buffer_map` / `gst_buffer_unmap`.
  public func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
    var map = GstMapInfo()
    guard gst_buffer_map(pointer, &map, GST_MAP_READ) != 0 else {
      return try body(UnsafeRawBufferPointer(start: nil, count: 0))
    }
    defer { gst_buffer_unmap(pointer, &map) }
    return try body(UnsafeRawBufferPointer(start: map.data, count: Int(map.size)))
  }
}

/// An owned `GstSample`: a buffer with the caps that describe it.
///
/// `@unchecked Sendable`: a counted reference to a `GstSample`, which is not changed once made.
public final class Sample: @unchecked Sendable {
  let pointer: OpaquePointer

  /// Takes over a full reference.
  init(adopting pointer: OpaquePointer) {
    self.pointer = pointer
  }

  /// Pairs a buffer with its caps. Wraps `gst_sample_new`.
  public convenience init(buffer: Buffer, caps: Caps) {
    self.init(adopting: gst_sample_new(buffer.pointer, caps.pointer, nil, nil))
  }

  deinit {
    gst_sample_unref(pointer)
  }

  /// The sample's buffer. Wraps `gst_sample_get_buffer`.
  public var buffer: Buffer? { gst_sample_get_buffer(pointer).map(Buffer.init(retaining:)) }

  /// The sample's caps. Wraps `gst_sample_get_caps`.
  public var caps: Caps? { gst_sample_get_caps(pointer).map(Caps.init(retaining:)) }
}
