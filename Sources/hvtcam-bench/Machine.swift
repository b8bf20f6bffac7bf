import Foundation
import HVTCamera

/// The machine a run was made on.
struct Machine: Codable, Sendable {
  /// Processors online (`nproc`).
  var processors: Int
  /// The CPU's model name, from `/proc/cpuinfo`.
  var cpuModel: String
  /// The kernel release (`uname -r`), from `/proc/sys/kernel/osrelease`.
  var kernel: String
  /// The GStreamer library in use, e.g. `GStreamer 1.22.0`.
  var gstreamer: String
  /// The operating system's name, from `/etc/os-release`.
  var system: String

  /// This machine.
  static func current() -> Machine {
    func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
    let model =
      read("/proc/cpuinfo").split(separator: "\n").first { $0.hasPrefix("model name") }
      .flatMap { $0.split(separator: ":", maxSplits: 1).last }?.trimmingCharacters(in: .whitespaces) ?? "unknown"
    let system =
      read("/etc/os-release").split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }
      .map { $0.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) } ?? "Linux"
    return Machine(
      processors: ProcessInfo.processInfo.activeProcessorCount, cpuModel: model,
      kernel: read("/proc/sys/kernel/osrelease").trimmingCharacters(in: .whitespacesAndNewlines),
      gstreamer: HVTCameraRuntime.gstreamerVersion, system: system)
  }
}
