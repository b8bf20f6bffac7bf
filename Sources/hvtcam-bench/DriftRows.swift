import Foundation

/// How far a long recording's sound drifts from its picture: one movie of ``BenchPlan/driftFrames``
/// frames (ten minutes in the full run) with the simulated microphone, read by ffprobe (``AVSync``). The
/// issue's goal: its two streams end less than a frame apart.
struct DriftRows {
  let resolution: String
  let plan: BenchPlan
  let directory: URL

  func run(log: (String) -> Void) throws -> [Row] {
    guard let frames = plan.driftFrames, frames > 0 else { return [] }
    log("\(resolution): a recording of \(frames) frames with sound, for the drift")
    var (start, end) = (Series(), Series())
    _ = try CPURows(resolution: resolution, plan: plan, directory: directory).hvtcamera(
      quality: BenchPlan.quality(resolution), frames: frames
    ) { sync in
      start.add(sync.startOffset)
      end.add(sync.endDifference)
    }
    let minutes = String(format: "%g", Double(frames) / 30 / 60)
    return [
      Row(
        id: "av-long-start-offset",
        title: "A/V: how far apart the first video and sound packets are, in a \(minutes)-minute movie",
        resolution: resolution, unit: "ms", hvtcamera: start, hasRatio: false),
      Row(
        id: "av-long-end-difference",
        title:
          "A/V: how far apart the ends of picture and sound are, in a \(minutes)-minute movie (ffprobe): the drift",
        resolution: resolution, unit: "ms", hvtcamera: end, hasRatio: false),
    ]
  }
}
