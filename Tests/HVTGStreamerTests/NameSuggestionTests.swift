import Testing

@testable import HVTGStreamer

@Suite("NameSuggestion")
struct NameSuggestionTests {
  @Test(arguments: [
    ("kitten", "sitting", 3),
    ("", "abc", 3),
    ("abc", "", 3),
    ("queue", "queue", 0),
    ("x264enk", "x264enc", 1),
    ("speed-preest", "speed-preset", 2),  // a transposition is two edits
    ("café", "cafe", 1),
    ("flaw", "lawn", 2),
  ])
  func editDistance(_ a: String, _ b: String, _ expected: Int) {
    #expect(NameSuggestion.editDistance(a, b) == expected)
    #expect(NameSuggestion.editDistance(b, a) == expected)
  }

  @Test func nearestPicksTheClosestCandidate() {
    let candidates = ["x264enc", "x265enc", "vp8enc", "jpegenc"]
    #expect(NameSuggestion.nearest(to: "x264enk", among: candidates) == "x264enc")
    #expect(NameSuggestion.nearest(to: "jpgenc", among: candidates) == "jpegenc")
  }

  @Test func nearestPrefersTheFirstOfEquallyCloseCandidates() {
    #expect(NameSuggestion.nearest(to: "abcdef", among: ["abcdeX", "abcdeY"]) == "abcdeX")
  }

  @Test func noSuggestionWhenEveryCandidateIsTooFar() {
    #expect(NameSuggestion.nearest(to: "camera", among: ["fakesink", "identity"]) == nil)
    #expect(NameSuggestion.nearest(to: "abc", among: []) == nil)
  }

  @Test func theAllowedDistanceIsAThirdOfTheName() {
    // 9 characters allow 3 edits but not 4.
    #expect(NameSuggestion.nearest(to: "abcdefghi", among: ["abcdefXXX"]) == "abcdefXXX")
    #expect(NameSuggestion.nearest(to: "abcdefghi", among: ["abcdeXXXX"]) == nil)
    // Short names still allow one edit.
    #expect(NameSuggestion.nearest(to: "ab", among: ["ac"]) == "ac")
    #expect(NameSuggestion.nearest(to: "ab", among: ["cd"]) == nil)
  }
}
