import CGStreamer

/// An owned `GstEncodingProfile`: what `encodebin` (and `camerabin`'s `video-profile`) encodes to — a
/// container with its streams, or one stream. Profiles are plain `GObject`s from `gst-pbutils`.
///
/// ```swift
/// let mp4 = try EncodingProfile.container(format: "video/quicktime,variant=iso", presetName: "mp4mux")
/// try mp4.add(EncodingProfile.video(format: "video/x-h264", presetName: "x264enc"))
/// try camerabin.set("video-profile", mp4)
/// ```
///
/// `@unchecked Sendable`: a counted reference, filled on one thread before it is handed to an element.
public final class EncodingProfile: @unchecked Sendable, CustomStringConvertible {
  /// The underlying `GstEncodingProfile`; valid as long as this object lives.
  public let pointer: OpaquePointer

  /// Takes over a full reference.
  init(adopting pointer: OpaquePointer) {
    self.pointer = pointer
  }

  deinit {
    g_object_unref(UnsafeMutableRawPointer(pointer))
  }

  /// A container profile, e.g. MP4 (`video/quicktime,variant=iso`) or Matroska (`video/x-matroska`).
  /// `presetName` names the element factory that must make it (e.g. `"mp4mux"`); `nil` lets `encodebin`
  /// pick the highest-ranked muxer for the format. Wraps `gst_encoding_container_profile_new` and
  /// `gst_encoding_profile_set_preset_name`.
  public static func container(name: String? = nil, description: String? = nil, format: String, presetName: String?)
    throws -> EncodingProfile
  {
    GStreamer.initialize()
    let caps = try Caps(format)
    guard let made = gst_encoding_container_profile_new(name, description, caps.pointer, nil) else {
      throw GStreamerError.invalidCaps(format)
    }
    let profile = EncodingProfile(adopting: made)
    if let presetName { gst_encoding_profile_set_preset_name(profile.pointer, presetName) }
    return profile
  }

  /// A video stream profile, e.g. H.264 (`video/x-h264`). `restriction` constrains the raw video fed to
  /// the encoder (e.g. `video/x-raw,format=I420`); `presetName` names the element factory that must
  /// encode it (e.g. `"x264enc"`). Wraps `gst_encoding_video_profile_new` and
  /// `gst_encoding_profile_set_preset_name`.
  public static func video(format: String, restriction: String? = nil, presetName: String?) throws
    -> EncodingProfile
  {
    GStreamer.initialize()
    let caps = try Caps(format)
    let restrictionCaps = try restriction.map { try Caps($0) }
    guard let made = gst_encoding_video_profile_new(caps.pointer, nil, restrictionCaps?.pointer, 0) else {
      throw GStreamerError.invalidCaps(format)
    }
    let profile = EncodingProfile(adopting: made)
    if let presetName { gst_encoding_profile_set_preset_name(profile.pointer, presetName) }
    return profile
  }

  /// Adds a stream profile to this container profile (which keeps a reference of its own). Throws when
  /// this is not a container profile or it refuses the stream (e.g. a second identical one). Wraps
  /// `gst_encoding_container_profile_add_profile`.
  public func add(_ stream: EncodingProfile) throws {
    g_object_ref(UnsafeMutableRawPointer(stream.pointer))
    guard gst_encoding_container_profile_add_profile(pointer, stream.pointer) != 0 else {
      g_object_unref(UnsafeMutableRawPointer(stream.pointer))
      throw GStreamerError.linkFailed(from: stream.description, to: description)
    }
  }

  /// The format the profile produces, as caps text. Wraps `gst_encoding_profile_get_format`.
  public var format: String {
    guard let caps = gst_encoding_profile_get_format(pointer) else { return "" }
    return Caps(adopting: caps).description
  }

  /// The element factory the profile insists on, if any. Wraps `gst_encoding_profile_get_preset_name`.
  public var presetName: String? {
    gst_encoding_profile_get_preset_name(pointer).map { String(cString: $0) }
  }

  /// The format and, for a container, its streams: `video/quicktime, variant=(string)iso [video/x-h264]`.
  public var description: String {
    var streams: [String] = []
    if hvt_gst_is_encoding_container_profile(UnsafeMutableRawPointer(pointer)) != 0 {
      var node = gst_encoding_container_profile_get_profiles(pointer)
      while let current = node {
        if let stream = current.pointee.data {
          let caps = gst_encoding_profile_get_format(OpaquePointer(stream))
          streams.append(caps.map { Caps(adopting: $0).description } ?? "?")
        }
        node = UnsafePointer(current.pointee.next)
      }
    }
    return format + (streams.isEmpty ? "" : " [\(streams.joined(separator: ", "))]")
  }
}

extension Element {
  /// Sets an object-valued property to an element, e.g. `camerabin`'s `viewfinder-sink` or
  /// `wrappercamerabinsrc`'s `video-source`. Wraps `g_object_class_find_property`, `g_value_set_object` and
  /// `g_object_set_property`.
  public func set(_ property: String, _ element: Element) throws {
    try setObjectProperty(property, to: UnsafeMutableRawPointer(element.pointer), typeName: element.factoryName)
  }

  /// Sets an object-valued property to an encoding profile, e.g. `camerabin`'s `video-profile`. Wraps
  /// `g_object_class_find_property`, `g_value_set_object` and `g_object_set_property`.
  public func set(_ property: String, _ profile: EncodingProfile) throws {
    try setObjectProperty(property, to: UnsafeMutableRawPointer(profile.pointer), typeName: "GstEncodingProfile")
  }

  private func setObjectProperty(_ property: String, to object: UnsafeMutableRawPointer, typeName: String?) throws {
    let spec = try writablePropertySpec(property)
    let type = hvt_g_param_spec_value_type(spec)
    guard hvt_g_type_is_object(type) != 0, g_type_is_a(hvt_g_object_type(object), type) != 0 else {
      throw GStreamerError.invalidPropertyValue(
        element: name, property: property, value: typeName ?? String(cString: hvt_g_object_type_name(object)),
        expected: "an object of type \(String(cString: g_type_name(type)))")
    }
    var value = GValue()
    g_value_init(&value, type)
    defer { g_value_unset(&value) }
    g_value_set_object(&value, object)
    g_object_set_property(UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: GObject.self), property, &value)
  }
}
