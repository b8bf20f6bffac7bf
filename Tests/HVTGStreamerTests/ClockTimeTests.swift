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

  @Test("seconds that do not fit never trap: NaN, infinities, 1e308 and 2e10 are clamped")
  func clampsWhatDoesNotFit() {
    #expect(ClockTime.from(seconds: .nan) == 0)
    #expect(ClockTime.from(seconds: -.infinity) == 0)
    #expect(ClockTime.from(seconds: .infinity) == ClockTime.maximum)
    #expect(ClockTime.from(seconds: 1e308) == ClockTime.maximum)
    #expect(ClockTime.from(seconds: 2e10) == ClockTime.maximum)
    #expect(ClockTime.from(seconds: 1.8e10) == 18_000_000_000_000_000_000)
    #expect(ClockTime.isValid(ClockTime.maximum))
  }

  @Test func noneIsNotValid() {
    #expect(ClockTime.none == UInt.max)
    #expect(!ClockTime.isValid(ClockTime.none))
    #expect(ClockTime.isValid(0))
  }
}
