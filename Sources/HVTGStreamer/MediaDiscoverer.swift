import CGStreamer
import Foundation

/// What `GstDiscoverer` found in a file: its streams and duration.
public struct DiscoveredMedia: Sendable, Hashable {
  /// The length in seconds; `nil` for a still image or when unknown.
  public var duration: Double?
  /// Video streams that are moving pictures (not still images).
  public var movingVideoStreams: Int
  /// Video streams that are still images (`gst_discoverer_video_info_is_image`: JPEG, PNG…).
  public var imageStreams: Int
  /// Sound streams.
  public var audioStreams: Int
  /// The width of the first video stream, if any.
  public var width: Int?
  /// The height of the first video stream, if any.
  public var height: Int?

  /// Whether it is a movie: at least one moving video stream, lasting more than nothing.
  public var isMovie: Bool { movingVideoStreams > 0 && (duration ?? 0) > 0 }
  /// Whether it is a still image: an image stream and no moving video.
  public var isImage: Bool { imageStreams > 0 && movingVideoStreams == 0 }
}

/// GStreamer's own reader of media files (`GstDiscoverer`, what `gst-discoverer-1.0` runs): whether a
/// file is a movie or an image that GStreamer can play, by reading it, never by its name.
public enum MediaDiscoverer {
  /// Reads the file at `url` for at most `timeout` seconds. Throws ``GStreamerError/timedOut(_:)`` when
  /// reading took longer, and ``GStreamerError/unreadableMedia(path:reason:)`` when GStreamer cannot read
  /// it (not media, a missing plugin, an error), with its reason. Blocks while it reads. Wraps `gst_discoverer_new`,
  /// `gst_discoverer_discover_uri`, `gst_discoverer_info_get_result`, `gst_discoverer_info_get_duration`,
  /// `gst_discoverer_info_get_video_streams`, `gst_discoverer_video_info_is_image` and
  /// `gst_discoverer_info_get_audio_streams`.
  public static func discover(_ url: URL, timeout: Double = 10) throws(GStreamerError) -> DiscoveredMedia {
    GStreamer.initialize()
    var error: UnsafeMutablePointer<GError>?
    guard let discoverer = gst_discoverer_new(ClockTime.from(seconds: timeout), &error) else {
      throw .unreadableMedia(path: url.path, reason: consume(&error) ?? "the discoverer could not be made")
    }
    defer { g_object_unref(discoverer) }
    guard let info = gst_discoverer_discover_uri(discoverer, url.absoluteString, &error) else {
      throw .unreadableMedia(path: url.path, reason: consume(&error) ?? "GStreamer cannot read it")
    }
    defer { g_object_unref(UnsafeMutableRawPointer(info)) }
    let reason = consume(&error)
    switch gst_discoverer_info_get_result(info) {
    case GST_DISCOVERER_OK:
      break
    case GST_DISCOVERER_TIMEOUT:
      throw .timedOut("reading \(url.path) took more than \(timeout) s")
    case GST_DISCOVERER_MISSING_PLUGINS:
      throw .unreadableMedia(path: url.path, reason: "a GStreamer plugin it needs is not installed")
    default:
      throw .unreadableMedia(path: url.path, reason: reason ?? "GStreamer cannot read it")
    }
    var media = DiscoveredMedia(movingVideoStreams: 0, imageStreams: 0, audioStreams: 0)
    let duration = gst_discoverer_info_get_duration(info)
    media.duration = ClockTime.isValid(duration) && duration > 0 ? ClockTime.seconds(duration) : nil
    if let videos = gst_discoverer_info_get_video_streams(info) {
      defer { gst_discoverer_stream_info_list_free(videos) }
      var node: UnsafeMutablePointer<GList>? = videos
      while let current = node {
        let video = current.pointee.data
        if hvt_gst_discoverer_video_info_is_image(video) != 0 {
          media.imageStreams += 1
        } else {
          media.movingVideoStreams += 1
        }
        if media.width == nil {
          media.width = Int(hvt_gst_discoverer_video_info_get_width(video))
          media.height = Int(hvt_gst_discoverer_video_info_get_height(video))
        }
        node = current.pointee.next
      }
    }
    if let audios = gst_discoverer_info_get_audio_streams(info) {
      media.audioStreams = Int(g_list_length(audios))
      gst_discoverer_stream_info_list_free(audios)
    }
    return media
  }

  /// The message of a `GError`, which is freed.
  private static func consume(_ error: inout UnsafeMutablePointer<GError>?) -> String? {
    guard let pointer = error else { return nil }
    defer {
      g_error_free(pointer)
      error = nil
    }
    return String(cString: pointer.pointee.message)
  }
}
