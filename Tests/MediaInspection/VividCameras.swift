import Foundation

/// Whether this machine has V4L2 device nodes (`/dev/video*`): real cameras, or vivid's in the VM.
public let hasVideoDevices = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []).contains {
  $0.hasPrefix("video")
}

/// The real V4L2 cameras of the real-camera tier: the kernel's `vivid` driver in the VM that
/// `Tests/VM/tier` boots, where these tests run. On the host (no `HVTCAM_REAL_CAMERAS`) the tier's suites
/// are disabled.
public enum VividCameras {
  /// The VM the tests run in, from `HVTCAM_REAL_CAMERAS`: `udev` (udevd runs, as on a desktop) or
  /// `no-udev` (as in a container); `nil` outside the VM.
  public static var tier: String? { ProcessInfo.processInfo.environment["HVTCAM_REAL_CAMERAS"] }

  /// Whether the tests run in the VM with udev.
  public static var withUdev: Bool { tier == "udev" }
  /// Whether the tests run in the VM without udev.
  public static var withoutUdev: Bool { tier == "no-udev" }

  /// The first vivid camera: the rear.
  public static let rear = "/dev/video0"
  /// The second vivid camera: the front.
  public static let front = "/dev/video1"

  /// Sets a control of a camera with `v4l2-ctl -d NODE -c NAME=VALUE` (vivid's own controls included:
  /// `percentage_of_dropped_buffers`, `disconnect`…).
  public static func setControl(_ name: String, to value: Int, on node: String) async throws {
    let (status, output) = try await MediaInspector.run("v4l2-ctl", ["-d", node, "-c", "\(name)=\(value)"])
    guard status == 0 else { throw InspectionError("v4l2-ctl -d \(node) -c \(name)=\(value): \(output)") }
  }

  /// The current value of a control, read with `v4l2-ctl -d NODE -C NAME`.
  public static func control(_ name: String, on node: String) async throws -> Int {
    let (status, output) = try await MediaInspector.run("v4l2-ctl", ["-d", node, "-C", name])
    guard status == 0,
      let value = output.split(separator: ":").last.flatMap({ Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
    else { throw InspectionError("v4l2-ctl -d \(node) -C \(name): \(output)") }
    return value
  }

  /// Pulls the camera's cable: vivid's `disconnect` button, after which every request on the node fails
  /// with `ENODEV` until the last file open on it is closed; then the camera is back.
  /// v4l2-ctl opens the node again after setting the control, which then fails with "No such device":
  /// the sign that the cable is out, not an error.
  public static func pullCable(of node: String) async throws {
    let (status, output) = try await MediaInspector.run("v4l2-ctl", ["-d", node, "-c", "disconnect=1"])
    guard status == 0 || output.contains("No such device") else {
      throw InspectionError("v4l2-ctl -d \(node) -c disconnect=1: \(output)")
    }
  }

  /// Removes every vivid camera (`rmmod vivid`): their nodes vanish from `/dev`. No node may be open.
  public static func unplugAll() async throws {
    let (status, output) = try await MediaInspector.run("rmmod", ["vivid"])
    guard status == 0 else { throw InspectionError("rmmod vivid: \(output); open nodes: \(openNodes())") }
  }

  /// Which processes hold which `/dev/video*` or `/dev/media*` nodes open, from `/proc/*/fd`.
  public static func openNodes() -> [String] {
    let files = FileManager.default
    var found: [String] = []
    for pid in (try? files.contentsOfDirectory(atPath: "/proc")) ?? [] where Int(pid) != nil {
      let folder = "/proc/\(pid)/fd"
      for fd in (try? files.contentsOfDirectory(atPath: folder)) ?? [] {
        guard let target = try? files.destinationOfSymbolicLink(atPath: "\(folder)/\(fd)"),
          target.hasPrefix("/dev/video") || target.hasPrefix("/dev/media")
        else { continue }
        let command = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? "?"
        found.append("\(pid) \(command.trimmingCharacters(in: .whitespacesAndNewlines)): \(target)")
      }
    }
    return found
  }

  /// Plugs the two cameras back in: loads the vivid module the VM booted with (its path under
  /// `VM_KERNEL_MODULES`), with the tier's options.
  public static func plugIn() async throws {
    guard let modules = ProcessInfo.processInfo.environment["VM_KERNEL_MODULES"] else {
      throw InspectionError("VM_KERNEL_MODULES is not set: not in the tier's VM")
    }
    let module = "\(modules)/kernel/drivers/media/test-drivers/vivid/vivid.ko"
    let options = ["n_devs=2", "node_types=0x1,0x1", "input_types=0x0,0x0"]
    let (status, output) = try await MediaInspector.run("insmod", [module] + options)
    guard status == 0 else { throw InspectionError("insmod \(module): \(output)") }
  }
}
