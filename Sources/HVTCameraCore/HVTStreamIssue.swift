/// Something wrong with one of the streams run together (``HVTStream/issues(in:)``): which one, what of
/// it, and why.
public struct HVTStreamIssue: Sendable, Hashable, CustomStringConvertible {
  /// What of a stream an issue is about.
  public enum Field: Sendable, Hashable {
    /// Its target (or who may reach it: credentials, ``HVTStream/allowsAnonymous``).
    case target
    /// Its encoding.
    case encoding
    /// Its tuning's element at this index.
    case tuning(Int)
  }

  /// The stream's index in the list checked.
  public var stream: Int
  /// What of it is wrong.
  public var field: Field
  /// Why, in words that name no secret.
  public var reason: String

  /// The reason.
  public var description: String { reason }

  /// Each stored property, as a memberwise initializer takes them.
  package init(stream: Int, field: Field, reason: String) {
    self.stream = stream
    self.field = field
    self.reason = reason
  }
}
