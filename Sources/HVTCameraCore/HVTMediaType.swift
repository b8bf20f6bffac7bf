/// A kind of media the camera captures, named by its uniform type identifier (`kUTTypeImage`, `kUTTypeMovie`).
public enum HVTMediaType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// Still images (`"public.image"`), encoded as JPEG.
  case image = "public.image"
  /// Movies (`"public.movie"`), encoded as H.264 in fragmented MP4.
  case movie = "public.movie"

  /// The uniform type identifier.
  public var description: String { rawValue }
}
