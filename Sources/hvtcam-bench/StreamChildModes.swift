import Dispatch
import Foundation
import HVTCamera
import HVTGStreamer
import HVTSupport

extension ChildMode {
  /// Streams the simulated camera from an RTSP server of the controller's own (127.0.0.1, a free port),
  /// prints `STREAMING <url>` and records `--frames` frames, silent, at once or, with
  /// `--wait-for-clients`, once `SIGUSR1` says the parent's clients read the stream; reports the frames
  /// written and those lost. Without the wait, the process's CPU time is the cost of recording and
  /// streaming (and the preview) over the recording, start-up included, as a `record` child's is of
  /// recording alone.
  static func streamRecord(_ options: BenchOptions) throws {
    let camera = try OurCamera(quality: options.quality, directory: options.directory)
    camera.controller.capturesAudio = false
    camera.controller.videoMaximumDuration = Double(options.frames) / 30
    camera.setVideoMode(true)
    _ = try camera.present()
    let (resume, source) = Self.awaitSignal(SIGUSR1)
    let url = try serveRTSP(camera.controller)
    writeLine("STREAMING \(url)")
    if options.waitsForClients { try resume.wait("the parent's clients (SIGUSR1)", seconds: 60) }
    source.cancel()
    let movie = camera.delegate.expectMovie()
    _ = try camera.startRecording()
    let delivery = try movie.wait("the movie", seconds: Double(options.frames) / 30 * 1.5 + 30)
    camera.dismiss()
    var report = ChildReport()
    report.frames = delivery.metadata.frameCount
    // The movie ends at its maximum duration on the frames' timestamps, which the simulated camera makes
    // every 1/30 s: a frame fewer than asked for is a frame lost on the way.
    report.recordingLost = [max(0, options.frames - (delivery.metadata.frameCount ?? 0))]
    try report.emit()
  }

  /// Starts an RTSP server of the controller's own on 127.0.0.1 (a free port) and returns its URL.
  private static func serveRTSP(_ controller: HVTCameraController) throws -> String {
    try blocking("the stream to start") {
      try await controller.startStreaming(to: .rtspServer(port: 0, path: "/cam", address: "127.0.0.1"))
    }
  }

  /// An awaited signal: the default action of `signal` is turned off, and the first delivery fulfils it.
  /// The source must be kept until the wait is over.
  private static func awaitSignal(_ signal: Int32) -> (Awaited<Void>, any DispatchSourceSignal) {
    Glibc.signal(signal, SIG_IGN)
    let awaited = Awaited<Void>()
    let source = DispatchSource.makeSignalSource(signal: signal, queue: .global())
    source.setEventHandler { awaited.fulfill(()) }
    source.resume()
    return (awaited, source)
  }
}

/// Runs `body` on Swift Concurrency's pool and waits for its result on this thread (the child modes are
/// synchronous), for up to `seconds`.
func blocking<Value: Sendable>(
  _ what: String, seconds: Double = 30, _ body: @escaping @Sendable () async throws -> Value
) throws -> Value {
  let awaited = Awaited<Value>()
  Task {
    do { awaited.fulfill(try await body()) } catch { awaited.fail(.failed("\(what): \(error)")) }
  }
  return try awaited.wait(what, seconds: seconds)
}

extension ChildMode {
  /// Capture-to-client latency of an RTSP stream of the simulated camera at `--quality`, served in this
  /// process by `--engine`: `ours` (an RTSP server of the controller's own) or `test-launch` (a
  /// gst-rtsp-server media of its own making, `videotestsrc ! videobalance ! x264enc ! rtph264pay`, as
  /// gst-rtsp-server's `test-launch` example serves one, with the movies' encoder settings). A client in
  /// this process reads the stream (``LumaClient``); `--toggles` times the camera's brightness is turned
  /// up or back, and the time from the change to the client's first decoded frame showing it is
  /// reported, in milliseconds (it includes the wait for the camera's next frame, up to one interval).
  static func streamLatency(_ options: BenchOptions) throws {
    let camera = try OurCamera(quality: options.quality, directory: options.directory)
    camera.controller.capturesAudio = false
    let model = try camera.controller.pipelineModel()
    let served: (url: String, setBright: (Bool) throws -> Void, stop: () -> Void)
    switch options.engine {
    case "ours":
      _ = try camera.present()
      let url = try serveRTSP(camera.controller)
      let controls = try camera.controller.cameraControls()
      served = (url, { _ = try controls.set("brightness", to: $0 ? 255 : 128, keeping: false) }, { camera.dismiss() })
    case "test-launch":
      let server = try RTSPServer(address: "127.0.0.1", port: 0)
      let light = Locked<Element?>(nil)
      server.mount(path: "/cam", launch: TestLaunchServing.launch(model)) { media in
        light.withLock { $0 = media.element(named: "light") }
      }
      served = (
        "rtsp://127.0.0.1:\(server.port)/cam",
        { bright in
          guard let element = light.withLock({ $0 }) else { throw BenchError.failed("the media has no light") }
          try element.setProperty("brightness", fromString: bright ? "0.9921875" : "0")
        },
        { server.stop() }
      )
    default:
      throw BenchError.failed("unknown engine \(options.engine)")
    }
    let client = try LumaClient(url: served.url)
    defer {
      client.stop()
      served.stop()
    }
    // The client's first frames: the stream runs and has been decoded.
    _ = try client.frame("the client's first frame", seconds: 30) { _ in true }
    waitForSchedule(until: .now + .milliseconds(500))
    var latencies: [Double] = []
    for toggle in 0..<options.toggles {
      let bright = toggle % 2 == 0
      let changed = ContinuousClock.now
      try served.setBright(bright)
      let shown = try client.frame(bright ? "a bright frame" : "a dark frame") {
        bright ? $0 > LumaClient.brightLevel : $0 < LumaClient.darkLevel
      }
      latencies.append(changed.duration(to: shown).milliseconds)
      waitForSchedule(until: .now + .milliseconds(300))
    }
    var report = ChildReport()
    report.latencies = latencies
    try report.emit()
  }
}
