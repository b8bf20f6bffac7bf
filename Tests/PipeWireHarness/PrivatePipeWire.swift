import Foundation
import MediaInspection

/// A PipeWire of the test's own: a private session bus (`dbus-daemon` with a configuration of its own,
/// listening in a temporary folder), `pipewire` and `wireplumber` on it with their own
/// `XDG_RUNTIME_DIR`, and virtual cameras published into it with `pipewiresink mode=provide`. Nothing of
/// the machine's own session is used or touched; ``stop()`` kills every process it started and removes
/// the folder.
public final class PrivatePipeWire: @unchecked Sendable {  // Started, added to and stopped by one test, in turn.
  /// The temporary folder: the bus configuration and socket, and the runtime folder (`run/`).
  public let directory: URL
  /// The private session bus, as `DBUS_SESSION_BUS_ADDRESS` gives it.
  public private(set) var busAddress = ""
  private var daemons: [Daemon] = []

  /// The PipeWire socket (`run/pipewire-0`).
  public var socketPath: String { directory.appendingPathComponent("run/pipewire-0").path }

  /// Why the private PipeWire cannot run here (a tool or GStreamer's PipeWire plugin is missing), or `nil`.
  /// `./dev test` installs them (Debian: dbus-daemon, pipewire, pipewire-bin, wireplumber,
  /// gstreamer1.0-pipewire).
  public static let unavailableReason: String? = {
    let tools = ["dbus-daemon", "pipewire", "wireplumber", "pw-dump", "pw-cat", "gst-launch-1.0", "gdbus"]
    let missing = tools.filter { tool in
      !["/usr/bin", "/bin"].contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
    }
    if !missing.isEmpty { return "not installed: \(missing.joined(separator: ", "))" }
    let plugin = "/usr/lib/\(PrivatePipeWire.multiarch)/gstreamer-1.0/libgstpipewire.so"
    return FileManager.default.fileExists(atPath: plugin) ? nil : "GStreamer's PipeWire plugin is missing (\(plugin))"
  }()

  private static let multiarch = "x86_64-linux-gnu"

  /// Why PipeWire's PulseAudio server cannot run here (`pipewire-pulse` is missing), or `nil`. `./dev test`
  /// installs it (Debian: pipewire-pulse).
  public static let pulseUnavailableReason: String? =
    FileManager.default.isExecutableFile(atPath: "/usr/bin/pipewire-pulse") ? nil : "not installed: pipewire-pulse"

  /// The environment the private PipeWire's clients run in: this process's, with the private runtime
  /// folder and bus, and nothing that points elsewhere (`PIPEWIRE_REMOTE`, `HVT_CAMERA_SOURCE`…).
  public var environment: [String: String] {
    var environment = ProcessInfo.processInfo.environment
    for name in ["PIPEWIRE_REMOTE", "PIPEWIRE_RUNTIME_DIR", "HVT_CAMERA_SOURCE", "HVT_CAMERA_PORTAL"] {
      environment[name] = nil
    }
    environment["XDG_RUNTIME_DIR"] = directory.appendingPathComponent("run").path
    environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
    return environment
  }

  /// Starts the bus, then PipeWire (ready once it says it listens on its socket), then WirePlumber (ready
  /// once it is connected: its client shows in `pw-dump --monitor`). On any failure, stops what it started.
  public static func start() async throws -> PrivatePipeWire {
    if let reason = unavailableReason { throw TestFailure("no private PipeWire: \(reason)") }
    let pipewire = try PrivatePipeWire()
    do {
      try await pipewire.startDaemons()
      return pipewire
    } catch {
      pipewire.stop()
      throw error
    }
  }

  private init() throws {
    directory = URL(fileURLWithPath: "/tmp/hvt-pw-\(UUID().uuidString.prefix(8))", isDirectory: true)
    let run = directory.appendingPathComponent("run")
    try FileManager.default.createDirectory(at: run, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: run.path)
  }

  private func startDaemons() async throws {
    let configuration = directory.appendingPathComponent("bus.conf")
    try Self.busConfiguration(listeningIn: directory.path).write(to: configuration, atomically: true, encoding: .utf8)
    let bus = try start("dbus-daemon", ["--config-file=\(configuration.path)", "--nofork", "--print-address=1"])
    busAddress = try await bus.line(containing: "unix:")
    let pipewire = try start("pipewire", [], ["PIPEWIRE_DEBUG": "E,mod.protocol-native:I"])
    try await pipewire.line(containing: "Listening on 'pipewire-0'")
    let monitor = try start("pw-dump", ["--monitor", "--no-colors"])
    try start("wireplumber", [])
    try await monitor.line(containing: #""application.name": "WirePlumber [export]""#)
  }

  /// Starts `pipewire-pulse`, PipeWire's PulseAudio server, on the private PipeWire: PulseAudio clients
  /// (and GStreamer's PulseAudio device provider) reach it at `run/pulse/native`. Returns once it is
  /// listening (it says so in its log: `listening on unix:…/pulse/native`).
  public func startPulse() async throws {
    if let reason = Self.pulseUnavailableReason { throw TestFailure("no pipewire-pulse: \(reason)") }
    let pulse = try start("pipewire-pulse", [], ["PIPEWIRE_DEBUG": "E,mod.protocol-pulse:I"])
    try await pulse.line(containing: "listening on unix:")
  }

  /// Publishes a virtual microphone as a desktop makes one: a virtual source node
  /// (`support.null-audio-sink` with `media.class=Audio/Source/Virtual`, named `name`, a plain word),
  /// which PipeWire drives on its own timer, fed a sine tone of `frequency` hertz played by `pw-cat
  /// --playback` (two minutes of it, the suites' time limit, written by `audiotestsrc ! wavenc`), whose
  /// ports are linked to the node's inputs with `pw-link`, and read from the start by `pw-cat --record`
  /// into `/dev/null`, as a desktop's level meter reads it. Returns the tone's process once the links are
  /// active: the tone flows before a test's reader comes.
  ///
  /// PipeWire 1.4 needs each of these. Since 1.2 (commit 6a7d83f0, 1.1.81) `pw-link` ends only when its
  /// link is paused or active, and a link into a source that nobody reads stays `init` (nothing in its graph
  /// runs), which also left the first moments of a test's recording silent while the links were made
  /// ready. A `pipewiresink` audio stream (gstreamer1.0-pipewire 1.4.2) linked by hand into the node never
  /// finished allocating its buffers, and the node's whole graph stopped (0.3.65 ran it). And a
  /// `pipewiresink mode=provide` node as the microphone drove the graph only when its own buffers came, a
  /// few a second in 0.3.65.
  @discardableResult
  public func publishMicrophone(named name: String, frequency: Int) async throws -> Daemon {
    let ports = try start("pw-link", ["--monitor", "--output", "--input"])
    defer { ports.stop() }
    let node =
      "{ factory.name=support.null-audio-sink node.name=\(name) node.description=\(name) "
      + "media.class=Audio/Source/Virtual object.linger=true audio.position=[ FL FR ] }"
    let creation = try start("pw-cli", ["create-node", "adapter", node])
    if try await creation.exitStatus() != 0 { throw TestFailure("pw-cli create-node \(name): \(creation.output)") }
    let feed = "hvt-tone-\(name)"
    let tone = try start(
      "pw-cat",
      ["--playback", "--properties", "{ node.name=\(feed) node.autoconnect=false }", try await writeTone(frequency)])
    try await ports.line(containing: "\(name):input_FR")
    try await ports.line(containing: "\(feed):output_FR")
    try start("pw-cat", ["--record", "--target", name, "/dev/null"])
    for channel in ["FL", "FR"] {
      let link = try start("pw-link", ["\(feed):output_\(channel)", "\(name):input_\(channel)"])
      let status = try await link.exitStatus()
      if status != 0 { throw TestFailure("pw-link \(feed) → \(name) (\(channel)): \(link.output)") }
    }
    return tone
  }

  /// Writes two minutes of a sine tone of `frequency` hertz, 48 kHz stereo, into a WAV file in the folder;
  /// returns its path.
  private func writeTone(_ frequency: Int) async throws -> String {
    let path = directory.appendingPathComponent("tone-\(frequency).wav").path
    let writer = try start(
      "gst-launch-1.0",
      [
        "-q", "audiotestsrc", "wave=sine", "freq=\(frequency)", "samplesperbuffer=4800", "num-buffers=1200", "!",
        "audio/x-raw,format=S16LE,rate=48000,channels=2", "!", "wavenc", "!", "filesink", "location=\(path)",
      ])
    if try await writer.exitStatus() != 0 { throw TestFailure("gst-launch-1.0 wrote no tone: \(writer.output)") }
    return path
  }

  /// Publishes a virtual camera: `videotestsrc is-live=true ! video/x-raw,format=I420,width=…,height=…,
  /// framerate=30/1 ! pipewiresink mode=provide` with `media.class=Video/Source` and `node.description`
  /// `name` (a plain word: it is written into a `gst-launch-1.0` line). Returns once PipeWire has it (its
  /// node shows in `pw-dump --monitor`).
  @discardableResult
  public func publishCamera(named name: String, width: Int = 640, height: Int = 480) async throws -> Daemon {
    let monitor = try start("pw-dump", ["--monitor", "--no-colors"])
    defer { monitor.stop() }
    let camera = try start(
      "gst-launch-1.0",
      [
        "videotestsrc", "is-live=true", "pattern=smpte", "!",
        "video/x-raw,format=I420,width=\(width),height=\(height),framerate=30/1", "!",
        "pipewiresink", "mode=provide",
        "stream-properties=props,media.class=Video/Source,node.description=\(name)",
      ])
    try await monitor.line(containing: #""node.description": "\#(name)""#)
    return camera
  }

  /// Starts a tool in the private environment (with `extra` variables), to be stopped with the rest.
  @discardableResult
  public func start(_ tool: String, _ arguments: [String], _ extra: [String: String] = [:]) throws -> Daemon {
    let daemon = try Daemon(tool, arguments, environment: environment.merging(extra) { $1 })
    daemons.append(daemon)
    return daemon
  }

  /// Kills everything it started, newest first, and removes its folder.
  public func stop() {
    daemons.reversed().forEach { $0.stop() }
    daemons = []
    try? FileManager.default.removeItem(at: directory)
  }

  /// A session bus of its own: listening in `directory`, EXTERNAL authentication, everything allowed, no
  /// services to activate.
  static func busConfiguration(listeningIn directory: String) -> String {
    """
    <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
    <busconfig>
      <type>session</type>
      <listen>unix:dir=\(directory)</listen>
      <auth>EXTERNAL</auth>
      <policy context="default">
        <allow send_destination="*" eavesdrop="true"/>
        <allow eavesdrop="true"/>
        <allow own="*"/>
      </policy>
    </busconfig>
    """
  }
}
