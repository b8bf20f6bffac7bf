// A small GTK 4 program, compiled by the test (clang) into a shared library and loaded into the test's
// process (a GdkPaintable cannot leave its process): a window on a Wayland compositor, titled, grey,
// holding one GtkPicture, with GTK's main loop on the thread that calls hvt_gtk4_run.
// Gtk4PictureWindow.swift compiles and loads it.
#include <gtk/gtk.h>

static GtkWidget *window;
static GtkWidget *picture;
static GMainLoop *loop;

// Initializes GTK on the calling thread, opens the compositor at `socket` (a path) as GTK's default display
// and shows the window titled `title`. 0 on success, -1 when the display cannot be opened.
int hvt_gtk4_open(const char *socket, const char *title) {
  // GL and Vulkan off: GTK draws with cairo, and the sink makes plain memory textures, whatever drivers
  // the machine has (and nothing of GL outlives the display, which the test closes). Set before any other
  // thread reads it: the test's process sets no other variable meanwhile.
  g_setenv("GDK_DISABLE", "gl,vulkan", TRUE);
  gdk_set_allowed_backends("wayland");
  // The test's environment names no display (sway's is private): GTK initializes, fails to open a default
  // one, and takes the one opened below.
  gtk_init_check();
  GdkDisplay *display = gdk_display_open(socket);
  if (display == NULL) return -1;
  gdk_display_manager_set_default_display(gdk_display_manager_get(), display);
  GtkCssProvider *css = gtk_css_provider_new();
  gtk_css_provider_load_from_string(css, "window { background: #808080; }");
  gtk_style_context_add_provider_for_display(display, GTK_STYLE_PROVIDER(css), GTK_STYLE_PROVIDER_PRIORITY_USER);
  g_object_unref(css);
  window = gtk_window_new();
  gtk_window_set_title(GTK_WINDOW(window), title);
  gtk_window_set_decorated(GTK_WINDOW(window), FALSE);
  picture = gtk_picture_new();
  gtk_picture_set_content_fit(GTK_PICTURE(picture), GTK_CONTENT_FIT_CONTAIN);
  gtk_window_set_child(GTK_WINDOW(window), picture);
  gtk_window_present(GTK_WINDOW(window));
  return 0;
}

// Runs GTK's main loop (GLib's default main context) on the calling thread, the one that opened the
// display, until hvt_gtk4_close.
void hvt_gtk4_run(void) {
  loop = g_main_loop_new(NULL, FALSE);
  g_main_loop_run(loop);
}

// Shows `paintable` (a GdkPaintable *) in the picture; the picture takes its own reference. On GTK's thread.
void hvt_gtk4_show(void *paintable) { gtk_picture_set_paintable(GTK_PICTURE(picture), GDK_PAINTABLE(paintable)); }

// Whether the calling thread runs GTK's main loop.
int hvt_gtk4_is_gtk_thread(void) { return g_main_context_is_owner(NULL); }

static GMutex lock;
static GCond closed_changed;
static gboolean closed;

static gboolean close_display(gpointer unused) {
  GdkDisplay *display = gdk_display_get_default();
  gtk_window_destroy(GTK_WINDOW(window));
  window = picture = NULL;
  gdk_display_close(display);
  g_mutex_lock(&lock);
  closed = TRUE;
  g_cond_signal(&closed_changed);
  g_mutex_unlock(&lock);
  return G_SOURCE_REMOVE;
}

// Destroys the window and closes the display on GTK's thread (GDK ends the process when its compositor
// goes away under it) and waits for it, 10 s at most: 0 once closed, -1 when GTK's thread did not get to
// it. The main loop goes on, for what a sink's paintable still hands it.
int hvt_gtk4_close(void) {
  g_main_context_invoke(NULL, close_display, NULL);
  gint64 end = g_get_monotonic_time() + 10 * G_TIME_SPAN_SECOND;
  g_mutex_lock(&lock);
  while (!closed && g_cond_wait_until(&closed_changed, &lock, end)) {}
  int result = closed ? 0 : -1;
  g_mutex_unlock(&lock);
  return result;
}
