import CGStreamer

/// GLib's default main context: the one a GTK application's main loop runs, where GTK's GStreamer
/// elements (`gtk4paintablesink`) do their work and where the application gets what they hand it.
public enum DefaultMainContext {
  /// Whether a thread runs the default main context now: owns it, as `g_main_loop_run` and
  /// `g_application_run` do while they run (a loop of `g_main_context_iteration` owns it only while it
  /// iterates). Wraps `g_main_context_default`, `g_main_context_is_owner`, `g_main_context_acquire` and
  /// `g_main_context_release`.
  public static var isRunning: Bool {
    let context = g_main_context_default()
    if g_main_context_is_owner(context) != 0 { return true }
    guard g_main_context_acquire(context) != 0 else { return true }
    g_main_context_release(context)
    return false
  }

  /// Runs `action` once on the thread that runs the default main context, at its next iteration; at once
  /// on the caller's thread when that thread owns the context or no thread does. Returns without waiting
  /// for it otherwise. Wraps `g_main_context_invoke_full`.
  public static func invoke(_ action: @escaping @Sendable () -> Void) {
    let data = CallbackContext<@Sendable () -> Void>.retained(action)
    g_main_context_invoke_full(
      nil, G_PRIORITY_DEFAULT,
      { data in
        if let data { CallbackContext<@Sendable () -> Void>.callback(from: data)() }
        return 0  // G_SOURCE_REMOVE
      }, data, { CallbackContext<@Sendable () -> Void>.release($0) })
  }
}
