import Foundation

/// Where camera control values are kept between runs: one JSON file, the values per camera ID
/// (``HVTCameraDeviceInfo/uniqueID``), written whole to a temporary file and renamed over the old one, so
/// that it is never half written. `{"version": 1, "cameras": {"v4l2:usb-0000:00:14.0-6": {"brightness":
/// 140}}}`.
public struct HVTCameraSettingsStore: Sendable, Hashable {
  /// The file.
  public var url: URL

  /// A store in the file at `url` (which need not exist yet).
  public init(url: URL) {
    self.url = url
  }

  /// `$XDG_CONFIG_HOME/hvtcam/controls.json` (`~/.config/hvtcam/controls.json` without it), beside the
  /// user's presets.
  public static var standard: HVTCameraSettingsStore {
    HVTCameraSettingsStore(
      url: HVTPreset.userDirectory.deletingLastPathComponent().appendingPathComponent("controls.json"))
  }

  /// The values kept for `camera`, by control name; empty when there are none or the file is unreadable.
  public func values(for camera: String) -> [String: Int64] {
    (try? document())?[camera] ?? [:]
  }

  /// Keeps `value` for control `name` of `camera`.
  func keep(_ value: Int64, for name: String, camera: String) throws(HVTCameraError) {
    var cameras = (try? document()) ?? [:]
    cameras[camera, default: [:]][name] = value
    try write(cameras)
  }

  /// Forgets every value kept for `camera`.
  func forget(camera: String) throws(HVTCameraError) {
    var cameras = (try? document()) ?? [:]
    guard cameras.removeValue(forKey: camera) != nil else { return }
    try write(cameras)
  }

  private struct Document: Codable {
    var version = 1
    var cameras: [String: [String: Int64]]
  }

  private func document() throws -> [String: [String: Int64]] {
    try JSONDecoder().decode(Document.self, from: Data(contentsOf: url)).cameras
  }

  private func write(_ cameras: [String: [String: Int64]]) throws(HVTCameraError) {
    do {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try encoder.encode(Document(cameras: cameras)).write(to: url, options: .atomic)
    } catch {
      throw .fileWriteFailed(path: url.path, reason: error.localizedDescription)
    }
  }
}
