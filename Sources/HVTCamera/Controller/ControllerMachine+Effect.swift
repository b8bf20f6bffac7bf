import Foundation
import HVTGStreamer

extension ControllerMachine {
  /// What the interpreter does after a step (``HVTCameraController/run(_:)``), in order, on the
  /// controller's queue: GStreamer work goes on to the worker or photo queue, reports to the delegate and
  /// the event streams. The outcome of work that matters to the machine comes back as an ``Input``.
  enum Effect: Sendable {
    /// The answer to the call that sent the input: returned to it at once, never queued.
    case reply(Reply)

    // MARK: Reporting

    /// Sends an event to the event streams and the delegate.
    case publish(HVTCameraEvent)
    /// Reports an error: ``HVTCameraEvent/error(_:)``, then `didFailWithError`.
    case fail(HVTCameraError)
    /// A line in the `hvtcamera` debug category, about `session`'s pipeline when one is named.
    case log(DebugCategory.Level, String, session: UInt64?)
    /// Writes the last pipeline's DOT graph to `GST_DEBUG_DUMP_DOT_DIR`, named after the controller and
    /// this suffix.
    case dumpGraph(String)
    /// Calls the delegate's `cameraControllerDidCancel`.
    case delegateCancelled
    /// Hands a capture (or why there is none) to its destination; the delegate or caller receiving
    /// `takePicture()` photo `handingOver` is reported back (``Input/photoHandedOver(id:)``).
    case deliver(Result<HVTCapture, HVTCameraError>, to: Destination, handingOver: UInt64?)
    /// Makes a photo's edited image (``HVTInfoKey/editedImage``) of `crop` on the photo queue, then delivers
    /// it as ``deliver(_:to:handingOver:)`` does.
    case deliverEdited(HVTCapture, frame: FrameTap.Frame?, crop: HVTRect, to: Destination, handingOver: UInt64?)
    /// Answers `presentAndWait()` callers.
    case resumeReady([@Sendable (Result<Void, HVTCameraError>) -> Void], Result<Void, HVTCameraError>)
    /// Answers a `startStreaming(_:)` caller.
    case answerStream(@Sendable (Result<String, HVTCameraError>) -> Void, Result<String, HVTCameraError>)
    /// Runs each on the main actor, after the delegate callbacks queued before it.
    case afterCallbacks([@Sendable () -> Void])

    // MARK: Timers and files

    /// Starts a one-shot timer (replacing one of the same name); ``Input/timer(_:at:)`` follows.
    case schedule(TimerID, after: Double)
    case cancelTimer(TimerID)
    /// Removes a reserved file that will not be written.
    case discard(CaptureFiles.Reservation)
    /// Removes a written file (a photo retaken on the review screen).
    case removeFile(URL)
    /// Does what a default control asks for through the public API (the shutter reserves a file and
    /// takes the frame of the moment, as a call does).
    case perform(CameraControls.Action)

    // MARK: Sessions

    /// Builds a session from `settings` on the worker; ``Input/built(_:version:)`` follows.
    case buildSession(HVTCameraController.Settings, version: UInt64, environment: [String: String])
    /// Applies the camera's kept control values and asks the pipeline to play, on the worker;
    /// ``Input/playingRequested(session:_:)`` follows, and the preview's first frame is reported.
    case startSession(Session)
    /// Sets the pipeline to NULL on the worker; ``Input/stopped(session:)`` follows.
    case stopSession(UInt64)
    /// Stops a session that will not be used (built for settings since changed, or replaced).
    case discardSession(UInt64)
    /// Checks every `interval` that the session still delivers frames (``Input/watchdog(session:now:aliveAt:)``).
    case watchFrames(UInt64, interval: Double)
    case stopWatchingFrames
    /// Reports cameras coming and going (``Input/deviceChanged(_:)``).
    case watchDevices(Session)
    case stopWatchingDevices
    /// Starts the pre-roll's microphone on the worker.
    case startPreRollSound(UInt64)
    /// Takes out the pre-roll's microphone, which failed, ending the sound of `recording` where it is.
    case stopPreRollSound(UInt64, recording: UInt64?)
    /// Answers the frame tap's waiters with no frame: the camera stops.
    case cancelFrameWaiters(UInt64)
    /// Changes the session's running preview on the worker.
    case updatePreview(UInt64, PreviewUpdate)
    /// Holds a frame still on the preview (the review screen), or lets the live preview back (`nil`).
    case showStillFrame(UInt64, Buffer?)
    /// Decodes the frame of the movie at `url` shown `at` seconds from its first frame, converted to the
    /// session's frames, off the queue; ``Input/movieFrameDecoded(request:_:)`` follows.
    case decodeMovieFrame(UInt64, url: URL, at: Double, request: UInt64)
    /// Lights the simulated torch when the flash mode says so for the newest frame
    /// (``Input/torchLit(session:)`` follows).
    case lightTorch(UInt64, HVTCameraController.CameraFlashMode)
    case turnTorchOff(UInt64)
    /// Closes the library window on the worker.
    case closeLibraryWindow

    // MARK: Captures

    /// Takes a photo on the session: its frame of the moment, or the session's first frame when it came
    /// from another; with the flash, a lit frame. ``Input/photoTaken(_:_:frame:)`` follows.
    case takePhoto(PhotoRequest, on: UInt64)
    /// Builds recording `request.id`'s branch (``Input/recordingBuilt(id:_:)``) and attaches it
    /// (``Input/recordingAttached(id:_:)``), both on the worker.
    case attachRecording(RecordingRequest, on: UInt64, name: String, paused: Bool, onStreamEncoder: Bool)
    case pauseRecording(UInt64, Bool)
    /// Makes the next recording's encoding ready on the session, on the worker (``ArmedRecording``): its
    /// start then only adds the file sink and the sound.
    case armRecording(UInt64)
    /// Takes the session's ready encoding out (no recording comes in photo mode, or it failed).
    case disarmRecording(UInt64)
    /// Makes a recording's thumbnail on the photo queue, from its first frame or from its complete file.
    case makeThumbnail(UInt64, fromFile: Bool)
    /// Announces ``HVTCameraEvent/recordingStopped(elapsed:reason:)`` and sends the end of stream into the
    /// branch (``Input/endOfStreamSent(id:at:)`` follows).
    case sendEndOfStream(UInt64, HVTRecordingStopReason)
    /// Ends a recording's sound where it is (a drain that waits for a microphone that stopped).
    case endAudio(UInt64)
    /// A recording's microphone failed: its sound ends there, and an event says why.
    case microphoneFailed(UInt64, HVTCameraError)
    /// Gives the complete movie its final name; ``Input/movieFinished(id:_:_:)`` follows at once.
    case finishMovie(UInt64, MovieDelivery)
    /// Cuts a reviewed movie at `span` (its timeline's ``CameraControls/Timeline/cut``: half a frame
    /// before each end of the trim, in seconds from its first frame) by a frame-exact trim off the queue,
    /// at most `limit` seconds long, removes the uncut file, and delivers the cut movie (the uncut one,
    /// with the error reported, when the cut fails); ``Input/cutMovieDelivered`` follows.
    case deliverTrimmed(HVTCapture, span: ClosedRange<Double>, limit: Double, to: Destination)
    /// Delivers why a recording will not be finalized (what it holds is named).
    case abandonRecording(UInt64, Abandonment, to: Destination)
    /// Removes a recording's branch on the worker; ``Input/recordingRemoved(id:)`` follows.
    case removeRecording(UInt64)
    /// Forgets a branch that took itself out (it failed to attach).
    case forgetRecording(UInt64)

    // MARK: Streams

    /// Starts a try of a stream on the session: its server (once), the streams' encoder when
    /// `encoder` says, its branch. ``Input/streamAttached(number:name:_:at:)`` follows.
    case attachStream(number: Int, name: String, HVTStream, on: UInt64, encoder: StreamEncoderUse)
    /// Removes a try's branch on the worker.
    case removeStreamBranch(name: String)
    /// Forgets a try's branch that goes with its stopping pipeline.
    case dropStreamBranch(name: String)
    /// Stops a stream's RTSP server, after its branches.
    case stopStreamServer(number: Int)
    /// Removes the streams' encoder of an encoding, after its branches.
    case removeStreamEncoder(HVTStreamEncoding)
    /// Forgets the streams' encoders, which go with their stopping pipeline.
    case forgetStreamEncoders
  }

  /// The answer to a call.
  enum Reply: Equatable, Sendable {
    /// Done, or going ahead.
    case accepted
    /// It has no effect, which was announced (``HVTCameraEvent/callIgnored(call:reason:)``) or is
    /// answered `false`.
    case ignored
    /// It cannot be done, for this reason.
    case refused(HVTCameraError)
    /// It came too late: what it carries was made from settings that changed since (`present()` builds
    /// again).
    case outdated
  }

  /// A timer, by what it is for.
  enum TimerID: Hashable, Sendable {
    /// The camera must reach PLAYING within ``HVTCameraController/startTimeout``.
    case start(session: UInt64)
    /// The camera refused PLAYING: its error message is awaited for a second.
    case refusal(session: UInt64)
    /// A stopped recording waits at most two seconds for its first frames.
    case frames(recording: UInt64)
    /// A drain's progress is checked.
    case drain(recording: UInt64)
    /// A stream's try must run within ``HVTStreamTarget/startTimeout``.
    case streamDeadline(stream: Int, name: String)
    /// A push stream's next try.
    case streamRetry(stream: Int)
  }

  /// What changes the running preview: its settings as they should look now, and how.
  struct PreviewUpdate: Sendable {
    var preview: HVTPipelineModel.PreviewSettings
    var preset: HVTPreset
    var rectangle: HVTRect?
    /// Replaces the branch, instead of changing its adjustable elements.
    var rebuilding: Bool
    /// Announces ``HVTCameraEvent/previewChanged(_:)``.
    var announcing: Bool
  }

  /// How a stream's try gets its encoded video.
  enum StreamEncoderUse: Sendable, Equatable {
    /// From a streams' encoder made for it (the first stream of its encoding).
    case make
    /// From the streams' encoder of its encoding, which runs.
    case existing
    /// From the pre-roll's encoder (the movies' encoding with a pre-roll).
    case preRoll
  }

  /// What a complete movie is delivered with.
  struct MovieDelivery: Sendable {
    let reason: HVTRecordingStopReason
    let interruption: HVTCameraError?
    let thumbnail: HVTImage?
    let destination: Destination
    /// It goes to the review screen first (``EndingRecording/reviewed``).
    let reviewed: Bool
  }

  /// Why a recording is given up.
  enum Abandonment: Sendable {
    /// Its drain made no progress for this long.
    case drainStalled(seconds: Double)
    /// An element of its branch failed.
    case failed(HVTCameraError)
  }
}
