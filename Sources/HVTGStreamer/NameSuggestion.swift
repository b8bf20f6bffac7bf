/// Finds the nearest known name to a misspelt one, for "did you mean …?" hints in error messages.
public enum NameSuggestion {
  /// The candidate closest to `name` by edit distance, if it is close enough to be a plausible typo:
  /// at most `maxDistance` edits, by default a third of the name's length (at least one).
  public static func nearest(
    to name: String, among candidates: some Sequence<String>, maxDistance: Int? = nil
  ) -> String? {
    let limit = maxDistance ?? max(1, name.count / 3)
    let length = name.unicodeScalars.count
    var best: (name: String, distance: Int)?
    // The distance is at least the difference in length: a long name is compared with none it cannot match.
    for candidate in candidates where abs(candidate.unicodeScalars.count - length) <= limit {
      let distance = editDistance(name, candidate)
      if distance <= limit, distance < (best?.distance ?? .max) {
        best = (candidate, distance)
      }
    }
    return best?.name
  }

  /// Levenshtein distance between two strings, counted in Unicode scalars.
  public static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.unicodeScalars)
    let b = Array(b.unicodeScalars)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
