import Foundation

/// Where a capture was made, as the app knows it (from a GPS receiver, GeoClue, or the user): written
/// into photos as EXIF GPS and XMP, and into MP4 movies as XMP. Set it with
/// ``HVTCameraController/location``.
public struct HVTLocation: Sendable, Hashable, CustomStringConvertible {
  /// Degrees north of the equator (negative south), WGS 84: −90 to 90.
  public var latitude: Double
  /// Degrees east of Greenwich (negative west), WGS 84: −180 to 180.
  public var longitude: Double
  /// Metres above sea level (negative below), or `nil` when not known.
  public var altitude: Double?
  /// The way the camera faces, in degrees clockwise from true north (0 up to 360), or `nil`.
  public var direction: Double?
  /// How far off the position may be, in metres, or `nil`.
  public var horizontalAccuracy: Double?

  /// A location; `altitude`, `direction` and `horizontalAccuracy` are optional.
  public init(
    latitude: Double, longitude: Double, altitude: Double? = nil, direction: Double? = nil,
    horizontalAccuracy: Double? = nil
  ) {
    self.latitude = latitude
    self.longitude = longitude
    self.altitude = altitude
    self.direction = direction
    self.horizontalAccuracy = horizontalAccuracy
  }

  /// Whether the position is one on Earth (finite, latitude and longitude in range) and the optional
  /// values are finite and in range; an invalid location is not written.
  public var isValid: Bool {
    latitude.isFinite && longitude.isFinite && (-90...90).contains(latitude) && (-180...180).contains(longitude)
      && (altitude?.isFinite ?? true) && (direction.map { $0.isFinite && (0..<360).contains($0) } ?? true)
      && (horizontalAccuracy.map { $0.isFinite && $0 >= 0 } ?? true)
  }

  /// The point in ISO 6709 notation, e.g. `+48.858300+002.294500+35.5/` (altitude when known).
  public var iso6709: String {
    let altitude = altitude.map { String(format: "%+.1f", $0) } ?? ""
    return String(format: "%+010.6f%+011.6f", latitude, longitude) + altitude + "/"
  }

  /// The ISO 6709 point (``iso6709``).
  public var description: String { iso6709 }
}
