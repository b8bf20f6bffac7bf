/// A test's precondition that did not hold, or something a harness could not set up, with what the tools
/// printed: the one error the tests' helpers throw.
public struct TestFailure: Error, CustomStringConvertible {
  /// What failed, and what the tools printed.
  public let description: String
  /// A failure saying `description`.
  public init(_ description: String) { self.description = description }
}
