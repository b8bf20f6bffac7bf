import Foundation

/// A library of thousands of photos as a user meets it: `hvtcam library list` over 3,000 and 10,000
/// small JPEGs against `gst-discoverer-1.0` run on each file (what listing cost before it read headers),
/// and the memory `hvtcam library pick` of one 16000×12000 JPEG takes beyond an empty library's.
struct LibraryRows {
  let plan: BenchPlan
  let directory: URL

  /// The photos listed, and how many of them the reference reads (its time is scaled up to all).
  static let counts = [3_000, 10_000]
  static let referenceSample = 100

  func run(log: (String) -> Void) throws -> [Row] {
    let hvtcam = URL(fileURLWithPath: ChildProcess.ownExecutable).deletingLastPathComponent()
      .appendingPathComponent("hvtcam").path
    guard FileManager.default.isExecutableFile(atPath: hvtcam) else {
      throw BenchError.failed("no hvtcam beside the benchmark (\(hvtcam)); build it (swift build)")
    }
    let photo = directory.appendingPathComponent("library-photo.jpg").path
    try encode("video/x-raw,width=320,height=240", to: photo)
    var rows: [Row] = []
    var library = try makeLibrary(named: "library-list")
    var made = 0
    for count in Self.counts {
      for index in made..<count {
        try FileManager.default.copyItem(atPath: photo, toPath: "\(library.pictures)/photo-\(index).jpg")
      }
      made = count
      log("library: hvtcam library list over \(count) photos")
      var ours = Series()
      for _ in 0..<max(1, plan.rounds / 3) {
        ours.add(try timed(hvtcam, ["library", "--source", "photo-library", "list"], library).seconds)
      }
      log("library: gst-discoverer-1.0 on \(Self.referenceSample) of them")
      var theirs = Series()
      let names = try FileManager.default.contentsOfDirectory(atPath: library.pictures).prefix(Self.referenceSample)
      guard let discoverer = ChildProcess.which("gst-discoverer-1.0") else {
        throw BenchError.failed("no gst-discoverer-1.0 (Debian: gstreamer1.0-plugins-base-apps)")
      }
      let began = ContinuousClock.now
      for name in names { _ = try timed(discoverer, ["\(library.pictures)/\(name)"], library) }
      theirs.add(began.duration(to: .now).seconds * Double(count) / Double(names.count))
      rows.append(
        Row(
          id: "library-list", title: "library: hvtcam library list of small JPEGs, until its last line",
          resolution: "\(count) photos", unit: "s", hvtcamera: ours,
          reference: (
            "gst-discoverer-1.0", "gst-discoverer-1.0 on each file (\(Self.referenceSample) timed, scaled to \(count))",
            theirs
          )))
    }
    try? FileManager.default.removeItem(atPath: library.home)
    log("library: hvtcam library pick of a 16000x12000 JPEG")
    library = try makeLibrary(named: "library-huge")
    let empty = try peakResidentMiB(hvtcam, ["library", "--source", "photo-library", "list"], library)
    try encode("video/x-raw,format=I420,width=16000,height=12000", to: "\(library.pictures)/huge.jpg")
    let huge = try peakResidentMiB(hvtcam, ["library", "--source", "photo-library", "pick", "1"], library)
    try? FileManager.default.removeItem(atPath: library.home)
    rows.append(
      Row(
        id: "library-huge-photo", title: "library: peak RSS of hvtcam library pick above an empty library's",
        resolution: "16000x12000", unit: "MiB", hvtcamera: Series(values: [huge - empty]), hasRatio: false))
    return rows
  }

  /// A library of its own: its Pictures and Videos folders, for `XDG_PICTURES_DIR` and `XDG_VIDEOS_DIR`.
  private struct Library {
    let home: String
    var pictures: String { "\(home)/Pictures" }
    var environment: [String: String] { ["XDG_PICTURES_DIR": pictures, "XDG_VIDEOS_DIR": "\(home)/Videos"] }
  }

  private func makeLibrary(named name: String) throws -> Library {
    let library = Library(home: directory.appendingPathComponent(name).path)
    try FileManager.default.createDirectory(atPath: library.pictures, withIntermediateDirectories: true)
    return library
  }

  /// One frame of `videotestsrc` in `caps`, as a JPEG at `path` (`gst-launch-1.0`).
  private func encode(_ caps: String, to path: String) throws {
    guard let launch = ChildProcess.which("gst-launch-1.0") else { throw BenchError.failed("no gst-launch-1.0") }
    let ending = try ChildProcess(
      launch, ["-q", "videotestsrc", "num-buffers=1", "!", caps, "!", "jpegenc", "!", "filesink", "location=\(path)"]
    ).wait()
    guard ending.status == 0, !ending.signalled else { throw BenchError.failed("gst-launch-1.0: \(ending.output)") }
  }

  /// How long `executable` takes, run to its end on `library`.
  private func timed(_ executable: String, _ arguments: [String], _ library: Library) throws -> Duration {
    let began = ContinuousClock.now
    _ = try run(executable, arguments, library)
    return began.duration(to: .now)
  }

  /// The peak resident memory of `executable` run to its end on `library`.
  private func peakResidentMiB(_ executable: String, _ arguments: [String], _ library: Library) throws -> Double {
    try run(executable, arguments, library).maxResidentMiB
  }

  /// Runs `executable` to its end on `library`; fails when it does.
  private func run(_ executable: String, _ arguments: [String], _ library: Library) throws -> ChildProcess.Ending {
    let ending = try ChildProcess(executable, arguments, environment: library.environment, quiet: true).wait()
    guard ending.status == 0, !ending.signalled else {
      throw BenchError.failed("\(executable) \(arguments.joined(separator: " ")): \(ending.output.suffix(3))")
    }
    return ending
  }
}
