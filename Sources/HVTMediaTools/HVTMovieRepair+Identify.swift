import HVTCameraCore
import Foundation
import HVTGStreamer
import HVTSupport

extension HVTMovieRepair {
  /// Finds out what `source` holds with `filesrc ! typefind ! fakesink`: the caps `typefind` sends
  /// downstream name the container, which decides the demuxer and muxer of the repair. Ends as soon as
  /// the type is known. Throws ``HVTCameraError/notAMovie(path:found:)`` for a file of another kind or of
  /// no kind GStreamer knows.
  static func identify(_ source: URL, stallTimeout: Double, for job: Job = .repair) throws -> Container {
    let pipeline = Pipeline(named: "hvtcamera-\(job)-typefind")
    let elements = try chain(
      [
        HVTElementDescription("filesrc", name: "source", ["location": source.path]),
        HVTElementDescription("typefind", name: "typefind"),
        HVTElementDescription("fakesink", name: "sink", ["sync": "false"]),
      ], in: pipeline, for: job, of: source)
    let typefind = elements.elements[1]
    guard let typePad = typefind.staticPad("src") else {
      throw job.failed(source, .pipelineSetupFailed(.missingPad(element: typefind.path, pad: "src")))
    }
    let progress = Progress(stallTimeout: stallTimeout)
    let found = Locked<CapsStructure?>(nil)
    typePad.addProbe(.eventDownstream) { [progress, found] _, info in
      guard case .caps(let caps) = info.event, caps.count > 0 else { return .ok }
      let type = caps.structure(at: 0)
      found.withLock { $0 = type }
      progress.finish(.found)
      return .remove
    }
    let typefindPath = typefind.path
    let end = progress.run(pipeline)
    switch end {
    case .found, .endOfStream:
      guard let type = found.withLock({ $0 }) else { throw HVTCameraError.notAMovie(path: source.path, found: nil) }
      guard let container = Container(type: type) else {
        throw HVTCameraError.notAMovie(path: source.path, found: type.name)
      }
      debugLog.log(
        .info, "\(job): \(source.path) is \(container.name) (\(type)): \(container.demuxer) ! \(container.muxer)")
      return container
    case .error(let report) where report.source == typefindPath:
      throw HVTCameraError.notAMovie(path: source.path, found: nil)
    default:
      throw end.error(for: job, of: source, frames: 0)
    }
  }
}
