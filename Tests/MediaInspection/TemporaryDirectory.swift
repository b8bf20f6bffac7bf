import Foundation

/// A fresh, empty directory for one test, removed by ``remove()``.
public struct TemporaryDirectory: Sendable {
  /// The directory to use.
  public let url: URL
  /// The directory made for this test (`url` or its parent).
  private let root: URL

  /// Creates `…/hvtcamera-tests-<random>/`, or `…/hvtcamera-tests-<random>/<subdirectory>/` when given.
  public init(_ subdirectory: String? = nil) throws {
    var url = FileManager.default.temporaryDirectory
      .appendingPathComponent("hvtcamera-tests-\(UUID().uuidString.prefix(8))", isDirectory: true)
    root = url
    if let subdirectory { url.appendPathComponent(subdirectory, isDirectory: true) }
    self.url = url
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  /// Runs `body` with a fresh directory, and removes the directory afterwards, however `body` ends.
  public static func with<T>(_ body: (TemporaryDirectory) async throws -> T) async throws -> T {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    return try await body(directory)
  }

  /// The path of `name` in this directory.
  public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  /// The URL of `name` in this directory.
  public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

  /// The names of the files in this directory, sorted (hidden ones included).
  public func contents() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
  }

  /// Deletes the directory and everything in it.
  public func remove() {
    try? FileManager.default.removeItem(at: root)
  }
}
