import Foundation
import MediaInspection

/// A Wayland compositor of the test's own: a headless sway (wlroots, software rendering, one output of
/// the size asked, windows without borders, the pointer's arrow hidden while it is still) in a runtime
/// folder of its own, read back by `grim`, typed into by `wtype` and clicked by `virtual_pointer.py` (a
/// virtual mouse of this harness), as a person uses a desktop. sway refuses to run as root ("Unable to
/// drop root"): under root it runs as `hvtcam-wl`, a system user made when missing, and clients running
/// as root reach it through its folder. A virtual keyboard and mouse stay plugged in while it runs, so
/// that a window sees both when it binds the seat (a headless compositor has neither; one plugged in
/// later can be missed). ``stop()`` kills every process it started and removes the folder.
public final class PrivateCompositor: @unchecked Sendable {  // Set up in start(); then read only.
  /// The compositor's runtime folder: its sockets, its configuration.
  public let directory: URL
  /// The output's width in pixels: every window fills the output (sway tiles the only window).
  public let width: Int
  /// The output's height in pixels.
  public let height: Int
  /// The Wayland socket's name in the folder (`WAYLAND_DISPLAY`) and sway's IPC socket (`SWAYSOCK`).
  public private(set) var display = ""
  private var ipc = ""
  private var daemons: [Daemon] = []

  /// The user sway runs as under root.
  public static let user = "hvtcam-wl"

  /// Why the compositor cannot run here (a tool is missing), or `nil`. `./dev test` installs them
  /// (Debian: sway, grim, wtype).
  public static let unavailableReason: String? = {
    let missing = ["sway", "swaymsg", "grim", "wtype", "python3"].filter {
      !FileManager.default.isExecutableFile(atPath: "/usr/bin/\($0)")
    }
    return missing.isEmpty ? nil : "not installed: \(missing.joined(separator: ", "))"
  }()

  /// The environment a client of the compositor runs in: this process's, with the compositor's folder,
  /// display and IPC socket, and no X display (a client that falls back to X11 would not be tested).
  public var environment: [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["DISPLAY"] = nil
    environment["XDG_RUNTIME_DIR"] = directory.path
    environment["WAYLAND_DISPLAY"] = display
    environment["SWAYSOCK"] = ipc
    environment["HVT_OUTPUT_WIDTH"] = String(width)
    environment["HVT_OUTPUT_HEIGHT"] = String(height)
    return environment
  }

  /// Starts sway with one output of `width` × `height` and waits until it has run its configuration (its
  /// `exec` line prints the display and IPC socket it gives its children), then plugs in the virtual
  /// keyboard and mouse. On any failure, stops what it started.
  public static func start(width: Int = 640, height: Int = 480) async throws -> PrivateCompositor {
    if let reason = unavailableReason { throw TestFailure("no Wayland compositor: \(reason)") }
    let compositor = try PrivateCompositor(width: width, height: height)
    do {
      try await compositor.startSway()
      return compositor
    } catch {
      compositor.stop()
      throw error
    }
  }

  private init(width: Int, height: Int) throws {
    self.width = width
    self.height = height
    directory = URL(fileURLWithPath: "/tmp/hvt-wl-\(UUID().uuidString.prefix(8))", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
  }

  /// Starts sway. Its pointer's arrow is hidden 100 ms after the pointer last moved (sway's least):
  /// without a cursor plane, the software renderer draws the arrow into the output, and `grim` would read
  /// its white pixels back as part of the window. No `swaybg` (it has nothing to draw, and its complaint
  /// about that, written in pieces to the same output as the ready line, landed around it) and no
  /// Xwayland (not installed; sway logs two errors for it).
  private func startSway() async throws {
    let configuration = directory.appendingPathComponent("sway.config")
    try """
    output HEADLESS-1 resolution \(width)x\(height)
    default_border none
    default_floating_border none
    seat * hide_cursor 100
    swaybg_command -
    xwayland disable
    exec echo "hvt-ready $WAYLAND_DISPLAY $SWAYSOCK"
    """.write(to: configuration, atomically: true, encoding: .utf8)
    let environment = [
      "PATH": "/usr/bin:/bin", "HOME": directory.path, "XDG_RUNTIME_DIR": directory.path,
      "WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman",
    ]
    let command = ["sway", "-c", configuration.path]
    let sway: Daemon
    if getuid() == 0 {
      try await Self.ensureUser()
      for path in [directory.path, configuration.path] {
        try FileManager.default.setAttributes([.ownerAccountName: Self.user], ofItemAtPath: path)
      }
      // setpriv runs sway in its own place (no child left behind when it is killed, unlike runuser).
      sway = try start(
        "setpriv", ["--reuid", Self.user, "--regid", Self.user, "--init-groups"] + command, environment: environment)
    } else {
      sway = try start(command[0], Array(command.dropFirst()), environment: environment)
    }
    // The echo writes its line at once, but a log line of the sway family (`common/log.c`) comes in three
    // writes, the time first, on the same pipe: the ready words are what follows the marker, to the end
    // of the line.
    let line = try await sway.line(containing: "hvt-ready ")
    let ready = line[line.range(of: "hvt-ready ")!.upperBound...].split(separator: " ")
    guard ready.count == 2 else {
      throw TestFailure("sway's ready line is not 'hvt-ready DISPLAY SOCKET': \(line)\n\(sway.output)")
    }
    display = String(ready[0])
    ipc = String(ready[1])
    try start("wtype", ["-s", "3600000"], environment: self.environment)
    try await start("python3", [Self.pointerScript, "hold"], environment: self.environment).line(containing: "holding")
  }

  /// Makes ``user`` when it is missing (another test process may be making it at the same time).
  private static func ensureUser() async throws {
    let known = try Daemon("id", ["-u", user], environment: ProcessInfo.processInfo.environment)
    guard try await known.exitStatus() != 0 else { return }
    let made = try Daemon(
      "useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", user],
      environment: ProcessInfo.processInfo.environment)
    let status = try await made.exitStatus()
    guard status == 0 || status == 9 else { throw TestFailure("useradd \(user): \(made.output)") }
  }

  /// The harness's virtual mouse.
  private static var pointerScript: String {
    Bundle.module.url(forResource: "virtual_pointer", withExtension: "py")!.path
  }

  /// Starts a tool with `environment`, to be stopped with the rest.
  @discardableResult
  private func start(_ tool: String, _ arguments: [String], environment: [String: String]) throws -> Daemon {
    let daemon = try Daemon(tool, arguments, environment: environment)
    daemons.append(daemon)
    return daemon
  }

  /// Runs a client tool to its end, bounded; throws with what it printed when it fails.
  private func run(_ tool: String, _ arguments: [String]) async throws -> String {
    let client = try Daemon(tool, arguments, environment: environment)
    let status = try await client.exitStatus()
    guard status == 0 else { throw TestFailure("\(tool) \(arguments.joined(separator: " ")): \(client.output)") }
    return client.output
  }

  /// The whole output, read back by `grim` (the compositor's screencopy) and decoded by FFmpeg.
  public func screenshot() async throws -> RGBImage {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("grim-\(UUID().uuidString).png").path
    defer { unlink(path) }
    _ = try await run("grim", [path])
    return try await RGBImage.decode(path, width: width, height: height)
  }

  /// Screenshots until one shows what `shows` accepts (a change appears at the windows' next frames), at
  /// most `tries`; returns the last.
  public func screenshot(tries: Int = 30, showing shows: (RGBImage) -> Bool) async throws -> RGBImage {
    var image = try await screenshot()
    for _ in 1..<tries where !shows(image) { image = try await screenshot() }
    return image
  }

  /// Presses and releases each key, by its XKB keysym name (`space`, `Escape`, `Return`, `f`), in the
  /// focused window (`wtype -k`).
  public func press(_ keys: String...) async throws {
    try await press(keys)
  }

  /// Presses and releases each key, by its XKB keysym name, in the focused window (`wtype -k`), in one
  /// `wtype`.
  public func press(_ keys: [String]) async throws {
    _ = try await run("wtype", keys.flatMap { ["-k", $0] })
  }

  /// Clicks the left button at (`x`, `y`) of the output; returns once the compositor has read the click.
  public func click(_ x: Int, _ y: Int) async throws {
    _ = try await run("python3", [Self.pointerScript, "click", String(x), String(y)])
  }

  /// A window as sway lists it: its title, its app id, and where it is on the output.
  public struct Window: Sendable {
    /// Its title (`xdg_toplevel.set_title`), if it has one.
    public var title: String?
    /// Its app id (`xdg_toplevel.set_app_id`), if it has one.
    public var appID: String?
    /// Where it is, and its size, in the output's pixels.
    public var x: Int, y: Int, width: Int, height: Int
  }

  /// The windows on the output, as `swaymsg -t get_tree` lists them.
  public func windows() async throws -> [Window] {
    let tree = try JSONSerialization.jsonObject(with: Data(try await run("swaymsg", ["-t", "get_tree"]).utf8))
    func collect(_ node: Any) -> [Window] {
      guard let node = node as? [String: Any] else { return [] }
      let children = ((node["nodes"] as? [Any]) ?? []) + ((node["floating_nodes"] as? [Any]) ?? [])
      let own: [Window] =
        node["pid"] == nil
        ? []
        : [
          Window(
            title: node["name"] as? String, appID: node["app_id"] as? String,
            x: (node["rect"] as? [String: Int])?["x"] ?? 0, y: (node["rect"] as? [String: Int])?["y"] ?? 0,
            width: (node["rect"] as? [String: Int])?["width"] ?? 0,
            height: (node["rect"] as? [String: Int])?["height"] ?? 0)
        ]
      return own + children.flatMap(collect)
    }
    return collect(tree)
  }

  /// Kills everything it started, newest first, and removes its folder.
  public func stop() {
    daemons.reversed().forEach { $0.stop() }
    daemons = []
    try? FileManager.default.removeItem(at: directory)
  }
}
