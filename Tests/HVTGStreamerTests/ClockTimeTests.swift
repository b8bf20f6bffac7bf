import Testing

@testable import HVTGStreamer

@Suite("ClockTime")
struct ClockTimeTests {
  @Test func convertsSeconds() {
    #expect(ClockTime.second == 1_000_000_000)
    #expect(ClockTime.from(seconds: 1.5) == 1_500_000_000)
    #expect(ClockTime.from(seconds: 0.000_000_000_4) == 0)
    #expect(ClockTime.from(seconds: -3) == 0)
    #expect(ClockTime.seconds(2_500_000_000) == 2.5)
  }

  @Test func noneIsNotValid() {
    #expect(ClockTime.none == UInt.max)
    #expect(!ClockTime.isValid(ClockTime.none))
    #expect(ClockTime.isValid(0))
  }
}
