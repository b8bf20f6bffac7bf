import Foundation
import MediaInspection
import Testing

@testable import HVTCamera

/// The table of which Debian package ships which element, checked against the system's own records.
@Suite("Plugin packages", .timeLimit(.minutes(1)))
struct PluginPackagesTests {
  @Test(
    "every element of the table installed here comes from the package the table names (gst-inspect-1.0, dpkg -S)",
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg")))
  func tableMatchesDpkg() async throws {
    let installed = PluginPackages.debianPackage.keys.filter { HVTElementDescription.isInstalled($0) }.sorted()
    try #require(installed.count >= 40, "too few of the table's elements are installed to check it: \(installed)")
    // The plugin file of each element, as gst-inspect-1.0 names it (/lib/… on a merged-/usr system,
    // where dpkg knows it as /usr/lib/…).
    // Two at a time, so that the rest of the suite keeps its share of the machine.
    let files = try await withThrowingTaskGroup(of: (String, String).self) { group in
      var files: [String: String] = [:]
      for (index, factory) in installed.enumerated() {
        if index >= 2, let (done, file) = try await group.next() { files[done] = file }
        group.addTask {
          let result = try await MediaInspector.run("gst-inspect-1.0", [factory])
          let line = result.output.split(separator: "\n").first { $0.contains("Filename") }
          let path = String(line?.split(separator: " ").last ?? "")
          return (factory, URL(fileURLWithPath: path).resolvingSymlinksInPath().path)
        }
      }
      for try await (done, file) in group { files[done] = file }
      return files
    }
    let owners = try await MediaInspector.run("dpkg", ["-S"] + Set(files.values).sorted())
    var packageOfFile: [String: String] = [:]
    // `gstreamer1.0-plugins-good:amd64: /usr/lib/…/libgstvpx.so`
    for line in owners.output.split(separator: "\n") {
      guard let match = line.wholeMatch(of: #/([^:]+)(?::[^:]+)?: (/.+)/#) else { continue }
      packageOfFile[String(match.2)] = String(match.1)
    }
    for factory in installed {
      let file = files[factory] ?? "?"
      #expect(packageOfFile[file] == PluginPackages.debianPackage[factory], "\(factory) is in \(file)")
    }
  }

  @Test("the install hint names each package once, in the order of the candidates")
  func installHint() {
    #expect(
      PluginPackages.installHint(for: ["v4l2h264enc", "vah264enc", "x264enc", "openh264enc", "nosuchenc"])
        == "Debian: gstreamer1.0-plugins-good or gstreamer1.0-plugins-bad or gstreamer1.0-plugins-ugly")
    #expect(PluginPackages.installHint(for: ["nosuchenc"]) == nil)
  }
}
