import Foundation

/// The unplug row, on a V4L2 camera whose driver can pull its own cable (vivid's `disconnect` button,
/// after which every request on the node fails with `ENODEV`, as a pulled USB camera's does): while a
/// movie records, the cable is pulled, and the time until the app hears of it is measured. HVTCamera's
/// app hears of it from `didFailWithError` with `cameraDisconnected`; the same pipeline under
/// `gst-launch-1.0` posts its source's error on the bus, which an app hears of on its main loop. Each
/// unplug runs in a child of its own (``ChildMode/unplug(_:)``), the two engines taking turns, before
/// this process opens the node for anything else: vivid comes back only once every file open on the
/// node is closed.
struct UnplugRows {
  let resolution: String
  let node: String
  let rounds: Int
  let directory: URL

  func run(log: (String) -> Void) throws -> [Row] {
    var (ours, line) = (Series(), Series())
    for round in 1...rounds {
      log("\(resolution): unplug \(round)/\(rounds)")
      ours.add(try measure("hvtcamera"))
      line.add(try measure("gst-launch-1.0"))
    }
    return [
      Row(
        id: "unplug-noticed",
        title: "a camera unplugged while recording: until the app is told (HVTCamera: didFailWithError "
          + "cameraDisconnected)", resolution: resolution, unit: "ms", hvtcamera: ours,
        reference: ("gst-launch-1.0", "its source's error, heard on the main thread", line))
    ]
  }

  /// One unplug by `engine`'s child, in milliseconds.
  private func measure(_ engine: String) throws -> Double {
    let output = directory.appendingPathComponent("unplug-\(engine)", isDirectory: true)
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: output) }
    let child = try ChildProcess(
      ChildProcess.ownExecutable,
      [
        "--child", "unplug", "--engine", engine, "--camera", node, "--quality", resolution, "--directory",
        output.path,
      ])
    let ending = child.wait(timeout: 120)
    guard !ending.signalled, ending.status == 0, let noticed = try ChildReport(output: ending.output).unplugNoticed
    else { throw BenchError.failed("the unplug child (\(engine)) failed: \(ending.output.suffix(3))") }
    return noticed
  }
}
