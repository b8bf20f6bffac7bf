import Foundation
import MediaInspection

/// `hvtcam run`'s window used as a person uses it, whatever shows it: keys typed in it, screenshots of it
/// (640 × 480, the picture at its own size) and hvtcam's lines on standard error. ``InteractiveCamera``
/// is one on a private X display, ``WaylandWindowTests/Camera`` one on a headless sway; the steps of the
/// review below, and the scenarios of ``MovieReview``, are the same on both.
protocol CameraWindow {
  /// The running `hvtcam run`.
  var process: Subprocess { get }
  /// The folder it writes into.
  var directory: TemporaryDirectory { get }
  /// Presses and releases keys, by X keysym name (`space`, `Return`, `Right`, `period`), in the window.
  func key(_ keys: [String]) async throws
  /// Screenshots of the window until one shows what `shows` accepts (what a key changed appears at the
  /// next frames), a bounded number of times; returns the last.
  func screenshot(showing shows: (RGBImage) -> Bool) async throws -> RGBImage
  /// Presses Escape (Cancel) and waits for hvtcam to end; returns how it ended.
  func cancel() async throws -> ProcessResult
}

extension CameraWindow {
  /// How many lines hvtcam has printed on standard error: a mark to wait for lines after.
  var mark: Int { process.standardErrorSoFar.count }

  /// Waits for a line on standard error printed after `mark`.
  @discardableResult
  func line(_ what: String, after mark: Int, where matches: @escaping @Sendable (String) -> Bool) async throws
    -> String
  {
    try await process.requireStandardErrorLine(what, from: mark, where: matches)
  }

  /// Presses and releases keys, by X keysym name, in the window.
  func key(_ keys: String...) async throws {
    try await key(keys)
  }

  /// Presses space and waits for the review screen; returns hvtcam's line about it.
  @discardableResult
  func openReview() async throws -> String {
    let mark = mark
    try await key("space")
    return try await line("the review", after: mark) { $0.hasPrefix("reviewing ") }
  }

  /// Presses Enter on the review screen and waits until the photo is used.
  func usePhoto() async throws {
    let mark = mark
    try await key("Return")
    try await line("the photo used", after: mark) { $0 == "photo used" }
  }

  /// Presses space to stop the recording and waits for its review; returns the movie's file name.
  @discardableResult
  func stopRecordingForReview() async throws -> String {
    let mark = mark
    try await key("space")
    return String(
      try await line("the movie's review", after: mark) { $0.hasPrefix("reviewing MOV_") }.dropFirst("reviewing ".count)
    )
  }

  /// Presses Enter on a movie's review screen and waits until the movie is used and kept.
  func useVideo() async throws {
    let mark = mark
    try await key("Return")
    try await line("the movie used", after: mark) { $0 == "movie used" }
    try await line("the movie kept", after: mark) { $0.hasPrefix("kept MOV_") }
  }

  /// Presses r on a movie's review screen and waits until the movie is discarded.
  func retakeVideo() async throws {
    let mark = mark
    try await key("r")
    try await line("the movie discarded", after: mark) { $0 == "movie discarded" }
  }

  /// Presses Enter on the review screen of an edited photo and waits for hvtcam's line about its crop
  /// (`crop X,Y WxH of NAME`), printed when the photo and its edited image are kept; returns it.
  func useEditedPhoto() async throws -> String {
    let mark = mark
    try await key("Return")
    return try await line("the crop", after: mark) { $0.hasPrefix("crop ") }
  }
}
