import Foundation
import HVTSupport

/// The folder an HLS stream writes into (``HVTStreamTarget/hls(directory:segmentDuration:playlistLength:)``),
/// claimed before `hlssink2` writes a byte: a new folder (made, with its parents), an empty one, or one an
/// earlier HLS stream of the engine wrote, whose files it then removes. The engine marks each folder it
/// claims with ``markerName``; a folder holding anything it did not write is refused, so that no file of
/// the user's is ever replaced or deleted (`hlssink2` replaces its playlist and segments and deletes old
/// segments by name).
enum HLSFolder {
  /// The file that marks a folder as the engine's HLS output.
  static let markerName = ".hvtcam-hls"
  /// What the marker says.
  static let markerText =
    "HVTCamera writes an HLS stream here: playlist.m3u8 and segmentNNNNN.ts are its own, and its next stream "
    + "into this folder replaces them. It writes into no folder holding files of anyone else's.\n"
  /// The playlist's name.
  static let playlistName = "playlist.m3u8"
  /// `hlssink2`'s `location` pattern for the segments, in the folder.
  static let segmentPattern = "segment%05d.ts"

  /// Whether `name` is one of the files an HLS stream of the engine writes into its folder: the marker,
  /// the playlist, a segment (`segment` then five or more digits, `.ts`), or the temporary file GLib
  /// writes the playlist to before renaming it (`.goutputstream-XXXXXX`, left by a crash).
  static func isOwn(_ name: String) -> Bool {
    if name == markerName || name == playlistName || name.hasPrefix(".goutputstream-") { return true }
    guard name.hasPrefix("segment"), name.hasSuffix(".ts") else { return false }
    let number = name.dropFirst("segment".count).dropLast(".ts".count)
    return number.count >= 5 && number.allSatisfy(\.isASCIIDigit)
  }

  /// Makes `directory` the stream's: creates it when missing; in an existing folder, takes it when it is
  /// empty, or when it holds only what an earlier stream of the engine wrote (its marker among it), and
  /// then removes those files. Marks it. Throws, naming the folder and what is in the way, when it is not
  /// a folder or holds a file of anyone else's.
  static func claim(_ directory: URL) throws(HLSFolderError) {
    let files = FileManager.default
    var isFolder: ObjCBool = false
    if files.fileExists(atPath: directory.path, isDirectory: &isFolder) {
      guard isFolder.boolValue else { throw .notAFolder }
      let names: [String]
      do {
        names = try files.contentsOfDirectory(atPath: directory.path).sorted()
      } catch {
        throw .unreadable(SystemCallError.reason(of: error))
      }
      if !names.isEmpty {
        let foreign = names.filter { !isOwn($0) }
        guard foreign.isEmpty, names.contains(markerName) else { throw .holdsOthers(foreign.isEmpty ? names : foreign) }
        for name in names where name != markerName {
          guard unlink(directory.appendingPathComponent(name).path) == 0 || errno == ENOENT else {
            throw .unwritable("its earlier stream's \(name) cannot be removed: \(SystemCallError.reason())")
          }
        }
        return
      }
    } else {
      do {
        try CaptureFiles.makeDirectory(directory)
      } catch {
        throw .unwritable("it cannot be made: \(error)")
      }
    }
    guard files.createFile(atPath: directory.appendingPathComponent(markerName).path, contents: Data(markerText.utf8))
    else { throw .unwritable("it cannot be written in") }
  }
}

/// Why an HLS stream cannot take its folder (``HLSFolder/claim(_:)``).
enum HLSFolderError: Error, CustomStringConvertible {
  /// The path is a file, not a folder.
  case notAFolder
  /// Its contents cannot be listed.
  case unreadable(String)
  /// It holds files the engine did not write: their names (or, with no marker, every file).
  case holdsOthers([String])
  /// It cannot be made or written in, or an earlier stream's file cannot be removed.
  case unwritable(String)

  var description: String {
    switch self {
    case .notAFolder:
      "its folder is a file"
    case .unreadable(let reason):
      "its folder cannot be read: \(reason)"
    case .holdsOthers(let names):
      "its folder holds files hvtcam did not write (\(names.prefix(3).map { "'\($0)'" }.joined(separator: ", "))"
        + "\(names.count > 3 ? ", …" : "")), which it never replaces or deletes: give a new or empty folder"
    case .unwritable(let reason):
      "its folder: \(reason)"
    }
  }
}
