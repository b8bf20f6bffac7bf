import Dispatch
import Foundation
import HVTGStreamer

extension HVTCameraController {
  /// Whether a photo is on the review screen of the default controls.
  public var isReviewingPhoto: Bool { read(\.reviewing) == .image }

  /// Whether a movie is on the review screen of the default controls: a ``startVideoCapture()`` movie
  /// stopped with the controls on a window, until **Use Video** delivers it or **Retake** removes it.
  public var isReviewingMovie: Bool { read(\.reviewing) == .movie }

  // MARK: - Effects

  /// Decodes the frame of the reviewed movie at `url` shown `seconds` after its first frame on the
  /// editing queue, converted to the frames of session `id` (their format and size) so that the preview
  /// can hold it still; ``ControllerMachine/Input/movieFrameDecoded(request:_:)`` follows. A request
  /// overtaken by a newer one before its turn is dropped: the machine shows only the newest.
  func decodeMovieFrame(on id: UInt64, url: URL, at seconds: Double, request: UInt64) {
    let shown = session(id)?.tap.latest.map { $0.caps.structure(at: 0) }
    guard let shown, let format = shown.string("format"), let width = shown.int("width"),
      let height = shown.int("height")
    else {
      send(.movieFrameDecoded(request: request, nil))
      return
    }
    let target = "video/x-raw,format=\(format),width=\(width),height=\(height),pixel-aspect-ratio=1/1"
    editingQueue.async {
      guard self.read(\.movieFrameRequest) == request else { return }
      var decoded: Buffer?
      do {
        let (frame, frameCaps) = try FileThumbnail.decodedFrame(of: url, at: seconds)
        decoded = try Self.converted(frame, caps: frameCaps, to: target)
      } catch {
        debugLog.log(.warning, "no frame of \(url.lastPathComponent) at \(seconds) s for the review: \(error)")
      }
      self.post(.movieFrameDecoded(request: request, decoded))
    }
  }

  /// `buffer` (raw video of `caps`) scaled and converted to `target` (raw video caps with a format and a
  /// size), its aspect ratio kept (with borders): `appsrc ! videoscale ! videoconvert ! target ! appsink`.
  static func converted(_ buffer: Buffer, caps: Caps, to target: String) throws -> Buffer {
    let converter = try PhotoEncoder(
      chain: HVTPipelineModel.stillPipeline([
        HVTElementDescription("videoscale", name: "review-scale"),
        HVTElementDescription("videoconvert", name: "review-convert"),
        .capsFilter(target, name: "review-size"),
      ]), name: "hvtcamera-review-frame")
    defer { converter.stop() }
    return Buffer(copying: try converter.encode(buffer, caps: caps))
  }

  /// Cuts a reviewed movie at `span` (the timeline's ``CameraControls/Timeline/cut``) on the editing
  /// queue — a frame-exact trim (``HVTMovieTrim/Precision/frame``), at most `limit` seconds —, removes
  /// the uncut file and delivers the cut movie. When the cut fails, the error is reported
  /// (``HVTCameraEvent/error(_:)``, `didFailWithError`) and the uncut movie delivered.
  func deliverTrimmed(
    _ movie: HVTCapture, span: ClosedRange<Double>, limit: Double, to destination: ControllerMachine.Destination
  ) {
    editingQueue.async {
      let result = Result {
        try HVTMovieTrim.trimBlocking(
          movie.url, start: span.lowerBound, end: span.upperBound, precision: .frame, maximumDuration: limit)
      }
      self.queue.async {
        switch result {
        case .success(let trimmed):
          try? FileManager.default.removeItem(at: movie.url)
          self.deliver(.success(Self.trimmed(movie, trimmed)), to: destination, handingOver: nil)
        case .failure(let error):
          self.fail(HVTCameraError(error))
          self.deliver(.success(movie), to: destination, handingOver: nil)
        }
        self.send(.cutMovieDelivered)
      }
    }
  }
}
