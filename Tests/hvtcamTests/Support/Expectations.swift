import Foundation
import MediaInspection
import Testing

/// Expects a 640x480 JPEG at `path`, as `gst-discoverer-1.0` sees it.
func expectJPEG(at path: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
  #expect(FileManager.default.fileExists(atPath: path), "missing \(path)", sourceLocation: sourceLocation)
  let discovery = try await MediaInspector.discover(path)
  #expect(!discovery.failed, "\(discovery)", sourceLocation: sourceLocation)
  #expect(discovery.isJPEG, "\(discovery)", sourceLocation: sourceLocation)
  #expect(discovery.size == "640x480", "\(discovery)", sourceLocation: sourceLocation)
}

/// Expects a 640x480 H.264 movie at `path`, as `gst-discoverer-1.0` sees it, and returns what it saw.
@discardableResult
func expectH264Movie(at path: String, sourceLocation: SourceLocation = #_sourceLocation) async throws
  -> MediaInspector.Discovery
{
  #expect(FileManager.default.fileExists(atPath: path), "missing \(path)", sourceLocation: sourceLocation)
  let discovery = try await MediaInspector.discover(path)
  #expect(!discovery.failed, "\(discovery)", sourceLocation: sourceLocation)
  #expect(discovery.isH264, "\(discovery)", sourceLocation: sourceLocation)
  #expect(discovery.size == "640x480", "\(discovery)", sourceLocation: sourceLocation)
  return discovery
}
