import Foundation
import HVTGStreamer

/// Why the camera could not do what was asked. Every case says what failed and where: GStreamer's own
/// reports keep their `GError` domain, code, text and debug string, and failures of the GStreamer wrapper
/// keep their kind (HVTGStreamer's `GStreamerError`).
public enum HVTCameraError: Error, Sendable, Hashable, CustomStringConvertible {
  /// No camera: no V4L2 device was found and the simulated camera is not enabled.
  case noCameraAvailable(reason: String)
  /// The requested camera position has no device (e.g. `.front` on a machine with one webcam).
  case cameraDeviceUnavailable(HVTCameraDevice)
  /// The camera offers no format the engine can use (raw video or MJPEG); `caps` is what it offers.
  case unsupportedCameraFormats(camera: String, caps: String)
  /// `setMediaTypes([])`.
  case emptyMediaTypes
  /// None of the requested media types can be captured from this source.
  case mediaTypesUnavailable(requested: [HVTMediaType], available: [HVTMediaType])
  /// The call needs a media type that ``HVTCameraController/mediaTypes`` does not include
  /// (`takePicture()` without `.image`, a recording without `.movie`).
  case mediaTypeNotEnabled(HVTMediaType)
  /// The call needs the other capture mode (a recording in `.photo` mode).
  case wrongCaptureMode(HVTCameraCaptureMode)
  /// The operation needs a presented camera.
  case notPresented
  /// A recording is already in progress.
  case recordingInProgress
  /// The camera did not reach PLAYING within `seconds` (a device that never delivers).
  case startTimedOut(seconds: Double)
  /// The camera in use was unplugged.
  case cameraDisconnected(name: String, path: String?)
  /// The Camera portal cannot be used: there is no session bus, no `org.freedesktop.portal.Desktop` on
  /// it, or it has no `org.freedesktop.portal.Camera` interface (an xdg-desktop-portal without camera
  /// support). `reason` says which, with the D-Bus error.
  case portalUnavailable(reason: String)
  /// The user denied the app access to the camera: the Camera portal's `AccessCamera` request answered
  /// with response 1.
  case cameraAccessDenied
  /// A call to the Camera portal failed, or its `AccessCamera` request ended without access for another
  /// reason than the user's no (response 2): the method, and what went wrong.
  case portalRequestFailed(method: String, reason: String)
  /// The Camera portal did not answer `method` within `seconds` (for `AccessCamera`, the user did not
  /// answer the dialog in time).
  case portalTimedOut(method: String, seconds: Double)
  /// The camera in use delivered no frame for `seconds` (``HVTCameraController/cameraStallTimeout``).
  case cameraStalled(name: String, seconds: Double)
  /// GStreamer reported an error on the bus.
  case gstreamer(HVTGStreamerMessage)
  /// The pipeline could not be built or changed: a missing element, a refused property or state change,
  /// a failed link. The wrapper's error says which element and what.
  case pipelineSetupFailed(GStreamerError)
  /// A photo's encoder gave no image within `seconds` (`appsink` of the photo pipeline).
  case photoEncodingTimedOut(seconds: Double)
  /// A recording's branch made no progress for `seconds` while it drained (no buffer entered its encoder
  /// or reached its file sink): the movie was not finalized. `partial` holds what was written.
  case drainStalled(partial: String, seconds: Double, frames: Int)
  /// A recording could not be finalized; its file stays under its partial name, `partial`, holding
  /// `bytes` bytes and about `duration` seconds of `frames` frames (`hvtcam repair` finishes it).
  case recordingIncomplete(partial: String, bytes: Int, duration: Double, frames: Int, reason: String)
  /// The recording that was to be written to `path` stopped before any frame was captured; no file was
  /// left.
  case recordingEmpty(path: String)
  /// A capture could not be written: the path, and the system's reason (with its `errno`).
  case fileWriteFailed(path: String, reason: String)
  /// Something is already at the capture's final name and was not replaced; `kept` is where the capture
  /// is, when it was already made.
  case fileExists(path: String, kept: String?)
  /// The final name is taken by something that is not a regular file (a folder, a symbolic link, a
  /// device node), which is never replaced, even when replacing was allowed; `kept` as for
  /// ``fileExists(path:kept:)``.
  case notARegularFile(path: String, kept: String?)
  /// Another capture is being written to the same name: its partial file `partial` exists.
  case fileInUse(path: String, partial: String)
  /// None of a slot's candidate elements is installed; `hint` names the package that has the first.
  case noInstalledCandidate(slot: String, candidates: [String], hint: String?)
  /// A window preview was asked for, and there is no display to show it on (or no sink could open it).
  case noDisplay(reason: String)
  /// ``HVTCameraController/setCameraViewTransform(_:)`` was given a transform the preview cannot show.
  case unsupportedViewTransform(HVTAffineTransform, reason: String)
  /// A ``HVTCameraOverlay`` cannot be drawn: its image file is missing or unreadable, or a value is out
  /// of range.
  case invalidOverlay(reason: String)
  /// The camera's controls cannot be read or set: it has no V4L2 node, or the node refused (the reason).
  case controlsUnavailable(camera: String, reason: String)
  /// The camera has no control by that name; `available` lists those it has.
  case unknownControl(name: String, camera: String, available: [String])
  /// The control does not take that value (out of range, off its step, not a menu item, read-only).
  case controlRejected(name: String, value: Int64, camera: String, reason: String)
  /// The preset the controller was given cannot be used here.
  case invalidPreset(HVTPresetError)
  /// An error from outside the engine (Foundation, the system) that has no case of its own; its text.
  case unexpected(String)
  /// A file could not be read: the path, and the system's reason (with its `errno`), or what it is
  /// instead of a regular file.
  case fileReadFailed(path: String, reason: String)
  /// A file given to the saved-photos album is not what it should be (a movie GStreamer can read, a
  /// JPEG): which, and why.
  case notCompatibleWithAlbum(path: String, reason: String)
  /// The file is not a movie container ``HVTMovieRepair`` and ``HVTMovieTrim`` can rebuild (MP4,
  /// QuickTime, Matroska, WebM);
  /// `found` is the media type GStreamer's `typefind` recognised, or `nil` when it recognised none.
  case notAMovie(path: String, found: String?)
  /// The movie holds no complete frame to recover (an empty file, or headers without a fragment).
  case nothingRecoverable(path: String, reason: String)
  /// Repairing the movie at `path` failed: `underlying` is GStreamer's error or the pipeline's set-up
  /// failure. Nothing was written.
  indirect case repairFailed(path: String, underlying: HVTCameraError)
  /// Repairing the movie at `path` made no progress for `seconds` (no buffer reached the muxer or the file
  /// sink), after `frames` frames; it was stopped and nothing was written.
  case repairStalled(path: String, seconds: Double, frames: Int)
  /// `present()` was called with ``HVTCameraController/sourceType`` set to a library and a preview
  /// output other than a window, where no library window can be shown. Browse
  /// ``HVTCameraController/library`` and ``HVTCameraController/pick(_:)`` instead.
  case sourceTypeNotCamera(HVTSourceType)
  /// The library window (``HVTLibraryWindow``) has nothing to show: the library of this source type holds
  /// no photo or movie GStreamer reads.
  case libraryEmpty(HVTSourceType)
  /// A trim of the movie at `path` (``HVTMovieTrim``) asked for what the movie cannot give: a start
  /// after its end, an end before the start, a negative or non-finite time. Nothing was written.
  case invalidTrim(path: String, reason: String)
  /// Trimming the movie at `path` failed: `underlying` is GStreamer's error or the pipeline's set-up
  /// failure. Nothing was written; the movie is as it was.
  indirect case trimFailed(path: String, underlying: HVTCameraError)
  /// Trimming the movie at `path` made no progress for `seconds`, after `frames` frames; it was stopped
  /// and nothing was written.
  case trimStalled(path: String, seconds: Double, frames: Int)
  /// The stream to `target` (``HVTStreamTarget``'s description) could not start or stopped: a refused
  /// connection, a server gone, a port in use, or GStreamer's error from the stream's sink. The camera,
  /// its preview and any recording go on.
  case streamFailed(target: String, reason: String)
  /// ``HVTCameraController/startStreaming(to:encoding:)`` was given a target it cannot stream to (a port out of
  /// range, a URL of another scheme), or one it streams to already.
  case invalidStreamTarget(target: String, reason: String)

  /// What went wrong, in one sentence (GStreamer's message and debug string for `.gstreamer`).
  public var description: String {
    switch self {
    case .noCameraAvailable(let reason):
      "no camera available: \(reason)"
    case .cameraDeviceUnavailable(let device):
      "no \(device.rawValue) camera on this machine"
    case .unsupportedCameraFormats(let camera, let caps):
      "\(camera) offers no raw or MJPEG video (it offers: \(caps))"
    case .emptyMediaTypes:
      "mediaTypes must not be empty"
    case .mediaTypesUnavailable(let requested, let available):
      "media types \(requested.map(\.rawValue)) are not available from this source (available: \(available.map(\.rawValue)))"
    case .mediaTypeNotEnabled(let type):
      "mediaTypes does not include \(type.rawValue); add it with setMediaTypes(_:)"
    case .wrongCaptureMode(let mode):
      "this needs cameraCaptureMode = .\(mode.rawValue)"
    case .notPresented:
      "the camera is not presented; call present() first"
    case .recordingInProgress:
      "a recording is already in progress"
    case .startTimedOut(let seconds):
      "the camera did not start within \(Self.format(seconds)) s"
    case .cameraDisconnected(let name, let path):
      "the camera in use was disconnected: \(name)\(path.map { " (\($0))" } ?? "")"
    case .portalUnavailable(let reason):
      "the camera portal (org.freedesktop.portal.Camera) is not available: \(reason)"
    case .cameraAccessDenied:
      "access to the camera was denied (the camera portal's AccessCamera request answered 1: "
        + "the user said no; it can be allowed again in the desktop's privacy settings)"
    case .portalRequestFailed(let method, let reason):
      "the camera portal's \(method) failed: \(reason)"
    case .portalTimedOut(let method, let seconds):
      "the camera portal did not answer \(method) within \(Self.format(seconds)) s"
    case .cameraStalled(let name, let seconds):
      "the camera in use delivered no frame for \(Self.format(seconds)) s: \(name)"
    case .gstreamer(let message):
      message.description
    case .pipelineSetupFailed(let error):
      "could not set up the camera pipeline: \(error)"
    case .photoEncodingTimedOut(let seconds):
      "the photo encoder produced no image within \(Self.format(seconds)) s"
    case .drainStalled(let partial, let seconds, let frames):
      "the recording made no progress for \(Self.format(seconds)) s while finishing; \(partial) holds what was "
        + "written of its \(frames) frames (hvtcam repair can finish it)"
    case .recordingIncomplete(let partial, let bytes, let duration, let frames, let reason):
      "the movie could not be finalized (\(reason)); \(partial) holds \(bytes) bytes, about "
        + "\(Self.format(duration)) s of \(frames) frames (hvtcam repair can finish it)"
    case .fileWriteFailed(let path, let reason):
      "could not write \(path): \(reason)"
    case .recordingEmpty(let path):
      "the recording to \(path) stopped before any frame was captured; no file was written"
    case .fileExists(let path, let kept):
      "\(path) already exists and was not replaced" + (kept.map { "; the capture is kept as \($0)" } ?? "")
        + (kept == nil ? " (choose another name, or allow replacing it)" : "")
    case .notARegularFile(let path, let kept):
      "\(path) exists and is not a regular file; it is never replaced"
        + (kept.map { "; the capture is kept as \($0)" } ?? "")
    case .fileInUse(let path, let partial):
      "\(path) is being written by another capture (\(partial) exists)"
    case .noInstalledCandidate(let slot, let candidates, let hint):
      "\(slot): none of \(candidates.joined(separator: ", ")) is installed" + (hint.map { " (\($0))" } ?? "")
    case .noDisplay(let reason):
      "cannot show the preview in a window: \(reason)"
    case .unsupportedViewTransform(let transform, let reason):
      "the view transform \(transform) cannot be shown: \(reason)"
    case .invalidOverlay(let reason):
      "invalid camera overlay: \(reason)"
    case .controlsUnavailable(let camera, let reason):
      "the controls of \(camera) cannot be used: \(reason)"
    case .unknownControl(let name, let camera, let available):
      "\(camera) has no control \(name); it has: \(available.joined(separator: ", "))"
    case .controlRejected(let name, let value, let camera, let reason):
      "\(camera) does not take \(name)=\(value): \(reason)"
    case .invalidPreset(let error):
      "invalid preset: \(error)"
    case .unexpected(let text):
      text
    case .fileReadFailed(let path, let reason):
      "could not read \(path): \(reason)"
    case .notCompatibleWithAlbum(let path, let reason):
      "\(path) cannot go in the saved-photos album: \(reason)"
    case .notAMovie(let path, let found):
      "\(path) is not a movie that can be repaired or trimmed: "
        + (found.map { "it holds \($0), not MP4, QuickTime, Matroska or WebM" }
          ?? "GStreamer does not recognise what it holds")
    case .nothingRecoverable(let path, let reason):
      "\(path) holds no frame that can be recovered: \(reason)"
    case .repairFailed(let path, let underlying):
      "could not repair \(path): \(underlying)"
    case .repairStalled(let path, let seconds, let frames):
      "repairing \(path) made no progress for \(Self.format(seconds)) s (after \(frames) frames); "
        + "it was stopped and nothing was written"
    case .sourceTypeNotCamera(let type):
      "present() shows a library (source type .\(type)) in a window only, and the preview output is not one: browse library.items and pick(_:) instead"
    case .libraryEmpty(let type):
      "the \(type == .savedPhotosAlbum ? "saved-photos album" : "photo library") has no photo or movie to show"
    case .invalidTrim(let path, let reason):
      "cannot trim \(path): \(reason)"
    case .trimFailed(let path, let underlying):
      "could not trim \(path): \(underlying)"
    case .trimStalled(let path, let seconds, let frames):
      "trimming \(path) made no progress for \(Self.format(seconds)) s (after \(frames) frames); "
        + "it was stopped and nothing was written"
    case .streamFailed(let target, let reason):
      "the stream to \(target) failed: \(reason); the camera and any recording go on"
    case .invalidStreamTarget(let target, let reason):
      "cannot stream to \(target): \(reason)"
    }
  }

  private static func format(_ seconds: Double) -> String { String(format: "%.3g", seconds) }
}

/// An error of a part of HVTCamera that says what it is in ``HVTCameraError``'s terms (a V4L2 device's
/// failure, in the engine).
package protocol HVTCameraErrorConvertible: Error {
  /// The same error as an ``HVTCameraError``.
  var cameraError: HVTCameraError { get }
}

extension HVTCameraError {
  /// Any error in HVTCamera's terms: GStreamer's reports keep their domain, code and debug string, and
  /// other wrapper failures keep their kind in ``pipelineSetupFailed(_:)``.
  package init(_ error: any Error) {
    switch error {
    case let error as HVTCameraError: self = error
    case GStreamerError.reported(let report): self = .gstreamer(HVTGStreamerMessage(report))
    case let error as GStreamerError: self = .pipelineSetupFailed(error)
    case let error as HVTPresetError: self = .invalidPreset(error)
    case let error as any HVTCameraErrorConvertible: self = error.cameraError
    default: self = .unexpected(String(describing: error))
    }
  }
}

extension HVTGStreamerMessage {
  /// The same report, in HVTCamera's terms.
  package init(_ report: MessageReport) {
    self.init(
      domain: report.domain, code: report.code, message: report.message, debug: report.debug, element: report.source)
  }
}
