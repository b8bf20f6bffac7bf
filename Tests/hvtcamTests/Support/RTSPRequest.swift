import Foundation
import HVTSupport
import MediaInspection

/// One RTSP request to a server, written and read over a plain TCP socket (no RTSP library, no
/// GStreamer): what a server answers before any media flows.
enum RTSPRequest {
  /// The status code the server at `url` (`rtsp://HOST:PORT/PATH`, an IPv4 or bracketed IPv6 host) answers a
  /// `DESCRIBE` with, sent with basic authentication when `credentials` (`USER:PASSWORD`) are given. Waits
  /// at most 10 s for the answer.
  static func describeStatus(_ url: String, credentials: String? = nil) throws -> Int {
    guard let parsed = URLComponents(string: url), var host = parsed.host, let port = parsed.port else {
      throw TestFailure("not an rtsp://HOST:PORT/PATH URL: \(url)")
    }
    host = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    let family = host.contains(":") ? AF_INET6 : AF_INET
    let socket = Glibc.socket(family, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw SystemCallError("socket") }
    defer { close(socket) }
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let connected: Bool
    if family == AF_INET6 {
      var address = sockaddr_in6()
      address.sin6_family = sa_family_t(AF_INET6)
      address.sin6_port = in_port_t(UInt16(port).bigEndian)
      inet_pton(AF_INET6, host, &address.sin6_addr)
      connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0
        }
      }
    } else {
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = in_port_t(UInt16(port).bigEndian)
      address.sin_addr.s_addr = inet_addr(host)
      connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
      }
    }
    guard connected else { throw TestFailure("cannot connect to \(url): \(SystemCallError("connect"))") }
    var request = "DESCRIBE \(url) RTSP/1.0\r\nCSeq: 1\r\nAccept: application/sdp\r\n"
    if let credentials { request += "Authorization: Basic \(Data(credentials.utf8).base64EncodedString())\r\n" }
    request += "\r\n"
    guard Array(request.utf8).withUnsafeBytes({ write(socket, $0.baseAddress, $0.count) }) == request.utf8.count else {
      throw TestFailure("cannot send to \(url): \(SystemCallError("write"))")
    }
    var answer = [UInt8](repeating: 0, count: 4096)
    let count = read(socket, &answer, answer.count)
    let line = String(decoding: answer.prefix(max(0, count)), as: UTF8.self).prefix { $0 != "\r" }
    // "RTSP/1.0 401 Unauthorized"
    guard line.hasPrefix("RTSP/1.0 "), let status = Int(line.dropFirst(9).prefix(3)) else {
      throw TestFailure("no RTSP status line from \(url): \(line)")
    }
    return status
  }
}
