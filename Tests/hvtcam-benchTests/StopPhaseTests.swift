import Testing

@testable import hvtcam_bench

/// The points of a frame interval at which the record stop rows stop each engine's recordings.
@Suite("The record stop's points in a frame interval")
struct StopPhaseTests {
  @Test(
    "the rounds take the middles of equal parts of the interval, each once, spread over the rounds",
    arguments: [1, 2, 8, 14, 16, 35])
  func roundsCoverTheInterval(rounds: Int) {
    let fractions = (0..<rounds).map { StopPhase(round: $0, of: rounds).fraction }
    let middles = (0..<rounds).map { (Double($0) + 0.5) / Double(rounds) }
    #expect(fractions.sorted() == middles, "\(fractions)")
    // Neither half of the rounds has the late points: their means differ by less than a tenth.
    guard rounds >= 8 else { return }
    let half = rounds / 2
    let early = fractions[..<half].reduce(0, +) / Double(half)
    let late = fractions[half...].reduce(0, +) / Double(rounds - half)
    #expect(abs(early - late) < 0.1, "\(fractions)")
  }

  @Test("the warm-up's point is the middle of the interval")
  func warmUp() {
    #expect(StopPhase.middle.fraction == 0.5)
  }
}
