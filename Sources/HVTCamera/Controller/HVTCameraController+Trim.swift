import Foundation

extension HVTCameraController {
  /// Trims a delivered movie to the stretch from `start` to `end` seconds, as
  /// `UIImagePickerController`'s movie editing does with ``allowsEditing``, and returns the edited movie:
  /// a new file beside the original (`MOV_….trimmed.mp4`), whose ``HVTCapture/info`` has its
  /// `.mediaURL`. The original is kept as it was.
  ///
  /// UIKit's limit for edited movies applies: the edited movie lasts ``videoMaximumDuration`` at most
  /// (within one frame, as a recording's limit) from the frame it begins on: a longer stretch ends there,
  /// also when a key-frame start begins it before `start`. It keeps the original's ``videoQuality``: its frames are copied, and
  /// those a frame-exact trim encodes again keep the size and about the bit rate. The end is exact to the
  /// frame (a movie with B-frames, which this engine does not record, has the frames from the last key
  /// frame before the end encoded again); the start (``HVTMovieTrim/Precision``) is the last key frame at
  /// or before `start` (the default: nothing else encoded again; a short ``videoKeyFrameInterval`` brings
  /// it close) or, with `.frame`, the first frame at or after it (a smart cut). Its metadata is the original's with the
  /// duration, frames, sound, size and the capture date of its first frame of the edited movie; it has no
  /// thumbnail.
  ///
  /// Runs off the controller's queue (GStreamer's `qtdemux ! mp4mux`, about as long as reading the file);
  /// works whether or not the camera is presented. Throws ``HVTCameraError/invalidTrim(path:reason:)``
  /// for a photo or a stretch the movie does not have, and the other errors of
  /// ``HVTMovieTrim/trim(_:start:end:precision:to:replacingExisting:stallTimeout:)``.
  public func trimMovie(
    _ movie: HVTCapture, start: Double, end: Double, precision: HVTMovieTrim.Precision = .keyFrame
  ) async throws -> HVTCapture {
    guard movie.mediaType == .movie else {
      throw HVTCameraError.invalidTrim(path: movie.url.path, reason: "it is a photo, not a movie")
    }
    let trimmed = try await HVTMovieTrim.trim(
      movie.url, start: start, end: end, precision: precision, maximumDuration: videoMaximumDuration)
    return Self.trimmed(movie, trimmed)
  }

  /// The edited movie `trimmed` cut from `movie`: the original's metadata with the duration, frames,
  /// sound, size and the capture date of its first frame of the edited movie; no thumbnail.
  static func trimmed(_ movie: HVTCapture, _ trimmed: HVTMovieTrim.TrimmedMovie) -> HVTCapture {
    var metadata = movie.metadata
    metadata.captureDate = metadata.captureDate.addingTimeInterval(trimmed.start)
    metadata.duration = trimmed.duration
    metadata.frameCount = trimmed.frames
    metadata.audioDuration = trimmed.soundDuration
    metadata.fileSize = trimmed.bytes
    return HVTCapture(mediaType: .movie, url: trimmed.url, image: nil, metadata: metadata, interruption: nil)
  }
}
