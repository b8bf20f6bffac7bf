import CGStreamer
import CGstRTSPServer
import Foundation
import Synchronization

/// An RTSP server in the process (`GstRTSPServer`, gst-rtsp-server), serving live streams that the
/// process feeds itself: each mount's media is a pipeline of its own that starts with an `appsrc` named
/// `src`, shared by every client of that mount (`gst_rtsp_media_factory_set_shared`), over TCP and UDP.
/// The server runs on a GLib main loop of its own, on a thread of its own; ``stop()`` disconnects the
/// clients and ends it.
///
/// `@unchecked Sendable`: its GLib objects are made in `init`, then used only through calls gst-rtsp-server and GLib
/// make thread-safe (the client filter, a source attached to the loop's context); ``stop()`` runs once (an atomic
/// flag).
public final class RTSPServer: @unchecked Sendable {
  /// Called when a mount's media is made (for its first client), with the media's bin (the elements of
  /// the launch description, found by their names), on the server's thread.
  public typealias MediaHandler = @Sendable (_ media: Bin) -> Void

  private let server: UnsafeMutablePointer<GstRTSPServer>
  private let context: OpaquePointer
  private let loop: OpaquePointer
  private let sourceID: guint
  private let finished = DispatchSemaphore(value: 0)
  private let stopped = Atomic(false)

  /// Starts a server listening on `address` (e.g. `127.0.0.1`, or `0.0.0.0` for every interface) and
  /// `port` (0: a free one, then read ``port``). Throws when it cannot listen there. Wraps
  /// `gst_rtsp_server_new`, `gst_rtsp_server_set_address`, `gst_rtsp_server_set_service` and
  /// `gst_rtsp_server_attach`.
  public init(address: String, port: Int) throws {
    GStreamer.initialize()
    server = gst_rtsp_server_new()
    gst_rtsp_server_set_address(server, address)
    gst_rtsp_server_set_service(server, String(port))
    context = g_main_context_new()
    loop = g_main_loop_new(context, 0)
    // Binding the socket here, not in the loop, is what makes a port in use an error of this call.
    var error: UnsafeMutablePointer<GError>?
    guard let socket = gst_rtsp_server_create_source(server, nil, &error) else {
      let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
      g_clear_error(&error)
      g_main_loop_unref(loop)
      g_main_context_unref(context)
      g_object_unref(server)
      throw GStreamerError.reported(
        MessageReport(
          domain: "gst-resource-error-quark", code: 0,
          message: "the RTSP server cannot listen on \(address):\(port): \(message)", debug: nil, source: "rtsp-server"
        ))
    }
    sourceID = g_source_attach(socket, context)
    g_source_unref(socket)
    // The loop is GLib's, safe to run from any one thread.
    nonisolated(unsafe) let loop = loop
    let finished = finished
    let thread = Thread {
      g_main_loop_run(loop)
      finished.signal()
    }
    thread.name = "rtsp-server"
    thread.start()
  }

  deinit {
    stop()
    g_main_loop_unref(loop)
    g_main_context_unref(context)
    g_object_unref(server)
  }

  /// Called, on the server's thread, each time a client asks to play (its RTSP `PLAY`).
  public typealias PlayRequestHandler = @Sendable () -> Void

  /// Calls `handler` each time a client asks to play: the moment a live stream should send a key frame,
  /// for the client to start from. Wraps the server's `client-connected` and each client's
  /// `play-request` signals.
  public func onPlayRequest(_ handler: @escaping PlayRequestHandler) {
    g_signal_connect_data(
      server, "client-connected", unsafeBitCast(clientConnected, to: GCallback.self), CallbackContext.retained(handler),
      { data, _ in releaseCallbackContext(data) }, GConnectFlags(rawValue: 0))
  }

  /// The port the server listens on. Wraps `gst_rtsp_server_get_bound_port`.
  public var port: Int { Int(gst_rtsp_server_get_bound_port(server)) }

  /// Serves `launch` at `path` (e.g. `/cam`): a `gst-launch-1.0` description in brackets that ends in
  /// payloaders named `pay0`, `pay1`… (a live source, or an `appsrc` the process feeds), one media shared
  /// by every client; `onMedia` is called with the bin of each media made (`gst_rtsp_media_get_element`). With `user` and `password`, clients must
  /// give them (HTTP basic authentication); without, anyone may watch. Wraps
  /// `gst_rtsp_media_factory_set_launch`, `gst_rtsp_media_factory_set_shared`,
  /// `gst_rtsp_mount_points_add_factory`, the factory's `media-configure` signal and `GstRTSPAuth`.
  public func mount(
    path: String, launch: String, credentials: (user: String, password: String)? = nil,
    onMedia: @escaping MediaHandler
  ) {
    let factory = gst_rtsp_media_factory_new()!
    gst_rtsp_media_factory_set_launch(factory, launch)
    gst_rtsp_media_factory_set_shared(factory, 1)
    if let credentials { protect(factory, credentials) }
    typealias Callback =
      @convention(c) (
        UnsafeMutablePointer<GstRTSPMediaFactory>?, UnsafeMutablePointer<GstRTSPMedia>?, UnsafeMutableRawPointer?
      ) -> Void
    let callback: Callback = { _, media, data in
      guard let media, let data, let element = gst_rtsp_media_get_element(media) else { return }
      CallbackContext<MediaHandler>.callback(from: data)(Bin(adopting: element))
    }
    g_signal_connect_data(
      factory, "media-configure", unsafeBitCast(callback, to: GCallback.self), CallbackContext.retained(onMedia),
      { data, _ in releaseCallbackContext(data) }, GConnectFlags(rawValue: 0))
    let mounts = gst_rtsp_server_get_mount_points(server)!
    // The mount points take the factory's reference.
    gst_rtsp_mount_points_add_factory(mounts, path, factory)
    g_object_unref(mounts)
  }

  /// Lets only `credentials` watch what `factory` serves: a basic-auth token with a role of its own that
  /// the factory lets access and construct its media. Wraps `gst_rtsp_auth_add_basic` and
  /// `gst_rtsp_media_factory_add_role_from_structure`.
  private func protect(
    _ factory: UnsafeMutablePointer<GstRTSPMediaFactory>, _ credentials: (user: String, password: String)
  ) {
    let role = "viewer"
    let auth = gst_rtsp_auth_new()!
    let token = gst_rtsp_token_new_empty()!
    var value = GValue()
    g_value_init(&value, hvt_g_type_string())
    g_value_set_string(&value, role)
    gst_structure_set_value(gst_rtsp_token_writable_structure(token), GST_RTSP_TOKEN_MEDIA_FACTORY_ROLE, &value)
    g_value_unset(&value)
    let basic = gst_rtsp_auth_make_basic(credentials.user, credentials.password)
    gst_rtsp_auth_add_basic(auth, basic, token)
    g_free(basic)
    gst_rtsp_token_unref(token)
    gst_rtsp_server_set_auth(server, auth)
    g_object_unref(auth)
    let permissions = gst_structure_new_empty(role)!
    var allowed = GValue()
    g_value_init(&allowed, hvt_g_type_boolean())
    g_value_set_boolean(&allowed, 1)
    gst_structure_set_value(permissions, GST_RTSP_PERM_MEDIA_FACTORY_ACCESS, &allowed)
    gst_structure_set_value(permissions, GST_RTSP_PERM_MEDIA_FACTORY_CONSTRUCT, &allowed)
    g_value_unset(&allowed)
    gst_rtsp_media_factory_add_role_from_structure(factory, permissions)
    gst_structure_free(permissions)
  }

  /// Disconnects every client, stops listening and ends the server's loop (waiting for its thread). Safe
  /// to call more than once. Wraps `gst_rtsp_server_client_filter` and `g_source_destroy`.
  public func stop() {
    guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
    typealias Filter =
      @convention(c) (
        UnsafeMutablePointer<GstRTSPServer>?, UnsafeMutablePointer<GstRTSPClient>?, UnsafeMutableRawPointer?
      ) -> GstRTSPFilterResult
    let remove: Filter = { _, _, _ in GST_RTSP_FILTER_REMOVE }
    g_list_free_full(gst_rtsp_server_client_filter(server, remove, nil)) { g_object_unref($0) }
    if let source = g_main_context_find_source_by_id(context, sourceID) { g_source_destroy(source) }
    // Quit from inside the loop: a quit before its thread got to run it would be lost.
    let idle = g_idle_source_new()!
    g_source_set_callback(
      idle,
      { loop in
        g_main_loop_quit(OpaquePointer(loop))
        return 0
      }, UnsafeMutableRawPointer(loop), nil)
    g_source_attach(idle, context)
    g_source_unref(idle)
    finished.wait()
  }
}

/// `client-connected`: connects the client's `play-request` to the same handler.
private let clientConnected:
  @convention(c) (
    UnsafeMutablePointer<GstRTSPServer>?, UnsafeMutablePointer<GstRTSPClient>?, UnsafeMutableRawPointer?
  ) -> Void = { _, client, data in
    guard let client, let data else { return }
    let handler = CallbackContext<RTSPServer.PlayRequestHandler>.callback(from: data)
    g_signal_connect_data(
      client, "play-request", unsafeBitCast(playRequested, to: GCallback.self), CallbackContext.retained(handler),
      { data, _ in releaseCallbackContext(data) }, GConnectFlags(rawValue: 0))
  }

/// A client's `play-request`: calls the handler.
private let playRequested:
  @convention(c) (
    UnsafeMutablePointer<GstRTSPClient>?, UnsafeMutablePointer<GstRTSPContext>?, UnsafeMutableRawPointer?
  ) -> Void = { _, _, data in
    guard let data else { return }
    CallbackContext<RTSPServer.PlayRequestHandler>.callback(from: data)()
  }
