import Foundation

extension HVTCameraError: LocalizedError {
  /// The same text as ``description``, so that `localizedDescription` says what failed and where
  /// rather than Foundation's generic "The operation could not be completed".
  public var errorDescription: String? { description }
}

extension HVTPresetError: LocalizedError {
  /// The same text as ``description``: every issue with its `file:line:col`.
  public var errorDescription: String? { description }
}
