// The C seam between Swift and GStreamer 1.22.
//
// Swift imports GStreamer's functions directly, but not its function-like macros (casts, accessors,
// type checks) nor its variadic functions. Each `hvt_gst_*` helper below stands in for one such macro
// and says why it exists. Nothing here holds logic of its own.
#ifndef HVT_CGSTREAMER_SHIM_H
#define HVT_CGSTREAMER_SHIM_H

#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>
#include <gst/pbutils/pbutils.h>
#include <gst/video/video.h>
// GDBus, for the camera portal (org.freedesktop.portal.Camera); its file descriptors come in a GUnixFDList.
#include <gio/gio.h>
#include <gio/gunixfdlist.h>

// GST_SECOND is a macro cast expression; Swift cannot import it.
static inline GstClockTime hvt_gst_second(void) { return GST_SECOND; }

// GST_CLOCK_TIME_NONE imports but does not compile when used from Swift.
static inline GstClockTime hvt_gst_clock_time_none(void) { return GST_CLOCK_TIME_NONE; }

// GST_ELEMENT_FACTORY_TYPE_ANY is a macro cast expression.
static inline GstElementFactoryListType hvt_gst_element_factory_type_any(void) { return GST_ELEMENT_FACTORY_TYPE_ANY; }

// GST_MESSAGE_TYPE / GST_MESSAGE_SRC are field-access macros.
static inline GstMessageType hvt_gst_message_type(GstMessage *message) { return GST_MESSAGE_TYPE(message); }
static inline GstObject *hvt_gst_message_src(GstMessage *message) { return GST_MESSAGE_SRC(message); }

// GST_EVENT_TYPE is a field-access macro.
static inline GstEventType hvt_gst_event_type(GstEvent *event) { return GST_EVENT_TYPE(event); }

// GST_PAD_PROBE_INFO_* are field-access macros; the setter replaces the probed data (a writable buffer copy).
static inline GstBuffer *hvt_gst_pad_probe_info_buffer(GstPadProbeInfo *info) { return GST_PAD_PROBE_INFO_BUFFER(info); }
static inline GstEvent *hvt_gst_pad_probe_info_event(GstPadProbeInfo *info) { return GST_PAD_PROBE_INFO_EVENT(info); }
static inline void hvt_gst_pad_probe_info_set_data(GstPadProbeInfo *info, gpointer data) { GST_PAD_PROBE_INFO_DATA(info) = data; }

// GST_PAD_STREAM_LOCK / GST_PAD_STREAM_UNLOCK are macros over the pad's recursive stream mutex.
static inline void hvt_gst_pad_stream_lock(GstPad *pad) { GST_PAD_STREAM_LOCK(pad); }
static inline void hvt_gst_pad_stream_unlock(GstPad *pad) { GST_PAD_STREAM_UNLOCK(pad); }
static inline gboolean hvt_gst_pad_stream_trylock(GstPad *pad) { return GST_PAD_STREAM_TRYLOCK(pad); }

// GST_BUFFER_PTS / DTS / DURATION and GST_BUFFER_FLAG_IS_SET are field-access macros.
static inline GstClockTime hvt_gst_buffer_pts(GstBuffer *buffer) { return GST_BUFFER_PTS(buffer); }
static inline GstClockTime hvt_gst_buffer_dts(GstBuffer *buffer) { return GST_BUFFER_DTS(buffer); }
static inline GstClockTime hvt_gst_buffer_duration(GstBuffer *buffer) { return GST_BUFFER_DURATION(buffer); }
static inline guint64 hvt_gst_buffer_offset(GstBuffer *buffer) { return GST_BUFFER_OFFSET(buffer); }
static inline gboolean hvt_gst_buffer_is_delta_unit(GstBuffer *buffer) { return GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_DELTA_UNIT); }
static inline gboolean hvt_gst_buffer_is_header(GstBuffer *buffer) { return GST_BUFFER_FLAG_IS_SET(buffer, GST_BUFFER_FLAG_HEADER); }
static inline void hvt_gst_buffer_set_pts(GstBuffer *buffer, GstClockTime pts) { GST_BUFFER_PTS(buffer) = pts; }
static inline void hvt_gst_buffer_set_dts(GstBuffer *buffer, GstClockTime dts) { GST_BUFFER_DTS(buffer) = dts; }
static inline void hvt_gst_buffer_set_duration(GstBuffer *buffer, GstClockTime duration) { GST_BUFFER_DURATION(buffer) = duration; }

// gst_buffer_is_writable is a macro around gst_mini_object_is_writable.
static inline gboolean hvt_gst_buffer_is_writable(GstBuffer *buffer) { return gst_buffer_is_writable(buffer); }

// gst_buffer_make_writable is a macro around gst_mini_object_make_writable.
static inline GstBuffer *hvt_gst_buffer_make_writable(GstBuffer *buffer) { return gst_buffer_make_writable(buffer); }

// GST_OBJECT_NAME and GST_OBJECT_PARENT are field-access macros.
static inline const gchar *hvt_gst_object_name(GstObject *object) { return GST_OBJECT_NAME(object); }

// GST_ELEMENT_CAST / GST_OBJECT_CAST / G_OBJECT are casts; GST_IS_* and G_TYPE_CHECK_* are type checks.
static inline GstObject *hvt_gst_object_cast(gpointer object) { return GST_OBJECT_CAST(object); }
static inline GstElement *hvt_gst_element_cast(gpointer object) { return GST_ELEMENT_CAST(object); }
static inline GstBin *hvt_gst_bin_cast(gpointer object) { return GST_BIN_CAST(object); }
static inline gboolean hvt_gst_is_element(gpointer object) { return GST_IS_ELEMENT(object); }
static inline gboolean hvt_gst_is_bin(gpointer object) { return GST_IS_BIN(object); }

// G_OBJECT_GET_CLASS and G_PARAM_SPEC_VALUE_TYPE are macros; used to look properties up before setting them.
static inline GParamSpec *hvt_g_object_find_property(gpointer object, const gchar *name) {
  return g_object_class_find_property(G_OBJECT_GET_CLASS(object), name);
}
static inline GParamSpec **hvt_g_object_list_properties(gpointer object, guint *count) {
  return g_object_class_list_properties(G_OBJECT_GET_CLASS(object), count);
}
static inline GType hvt_g_param_spec_value_type(GParamSpec *spec) { return G_PARAM_SPEC_VALUE_TYPE(spec); }
static inline gboolean hvt_g_param_spec_is_writable(GParamSpec *spec) { return (spec->flags & G_PARAM_WRITABLE) != 0; }

// G_OBJECT_TYPE is a macro; signals are looked up by name on the instance's type (g_signal_lookup).
static inline GType hvt_g_object_type(gpointer object) { return G_OBJECT_TYPE(object); }

// GST_IS_ENCODING_CONTAINER_PROFILE is a type-check macro.
static inline gboolean hvt_gst_is_encoding_container_profile(gpointer profile) { return GST_IS_ENCODING_CONTAINER_PROFILE(profile); }

// G_TYPE_NONE is a macro; an action signal without a return value returns it.
static inline GType hvt_g_type_none(void) { return G_TYPE_NONE; }

// G_TYPE_OBJECT is a macro; object-valued properties (elements, encoding profiles) hold a GObject.
static inline gboolean hvt_g_type_is_object(GType type) { return g_type_is_a(type, G_TYPE_OBJECT); }

// G_TYPE_STRING and G_VALUE_TYPE are macros.
static inline GType hvt_g_type_string(void) { return G_TYPE_STRING; }
static inline GType hvt_g_value_type(const GValue *value) { return G_VALUE_TYPE(value); }

// G_TYPE_BOOLEAN is a macro; the RTSP server's permissions hold one.
static inline GType hvt_g_type_boolean(void) { return G_TYPE_BOOLEAN; }

// G_TYPE_INT is a macro; caps fields such as width hold one.
static inline GType hvt_g_type_int(void) { return G_TYPE_INT; }

// G_TYPE_DOUBLE is a macro; tags such as the geo location's latitude hold one.
static inline GType hvt_g_type_double(void) { return G_TYPE_DOUBLE; }

// GST_IS_TAG_SETTER and GST_TAG_SETTER are a type check and a cast: muxers that write tags implement the
// interface (gst_tag_setter_merge_tags).
static inline gboolean hvt_gst_is_tag_setter(GstElement *element) { return GST_IS_TAG_SETTER(element); }
static inline GstTagSetter *hvt_gst_tag_setter(GstElement *element) { return GST_TAG_SETTER(element); }

// G_OBJECT_TYPE_NAME is a macro; a device's type names its provider (GstV4l2Device, GstPipeWireDevice…).
static inline const gchar *hvt_g_object_type_name(gpointer object) { return G_OBJECT_TYPE_NAME(object); }

// G_TYPE_IS_ENUM is a macro; enum properties list their nicks in error messages.
static inline gboolean hvt_g_type_is_enum(GType type) { return G_TYPE_IS_ENUM(type); }

// GST_STATE / GST_STATE_PENDING are field-access macros.
static inline GstState hvt_gst_element_current_state(GstElement *element) { return GST_STATE(element); }

// GST_VIDEO_FRAME_COMP_* are macros; they locate one colour component (0 is luma for YUV formats).
static inline const guint8 *hvt_gst_video_frame_comp_data(GstVideoFrame *frame, guint comp) {
  return (const guint8 *)GST_VIDEO_FRAME_COMP_DATA(frame, comp);  // already includes the pixel offset
}
static inline gint hvt_gst_video_frame_comp_stride(GstVideoFrame *frame, guint comp) { return GST_VIDEO_FRAME_COMP_STRIDE(frame, comp); }
static inline gint hvt_gst_video_frame_comp_pstride(GstVideoFrame *frame, guint comp) { return GST_VIDEO_FRAME_COMP_PSTRIDE(frame, comp); }
static inline gint hvt_gst_video_frame_comp_width(GstVideoFrame *frame, guint comp) { return GST_VIDEO_FRAME_COMP_WIDTH(frame, comp); }
static inline gint hvt_gst_video_frame_comp_height(GstVideoFrame *frame, guint comp) { return GST_VIDEO_FRAME_COMP_HEIGHT(frame, comp); }
static inline gint hvt_gst_video_frame_comp_depth(GstVideoFrame *frame, guint comp) { return GST_VIDEO_FRAME_COMP_DEPTH(frame, comp); }

// gst_structure_set is variadic: a GstContext of `type` holding a `display` pointer, as waylandsink takes
// the application's wl_display.
static inline GstContext *hvt_gst_display_pointer_context_new(const gchar *type, gpointer display) {
  GstContext *context = gst_context_new(type, TRUE);
  gst_structure_set(gst_context_writable_structure(context), "display", G_TYPE_POINTER, display, NULL);
  return context;
}

// GST_VIDEO_OVERLAY is a cast macro, GST_IS_VIDEO_OVERLAY a type check; the overlay interface of a sink.
static inline gboolean hvt_gst_is_video_overlay(GstElement *element) { return GST_IS_VIDEO_OVERLAY(element); }
static inline GstVideoOverlay *hvt_gst_video_overlay(GstElement *element) { return GST_VIDEO_OVERLAY(element); }

// GST_VIDEO_OVERLAY_COMPOSITION_FORMAT_RGB is a macro that picks BGRA or ARGB by byte order: the 32-bit ARGB
// pixels of overlay rectangles (cairo's ARGB32).
static inline GstVideoFormat hvt_gst_video_overlay_composition_format_rgb(void) { return GST_VIDEO_OVERLAY_COMPOSITION_FORMAT_RGB; }

// A buffer sharing `content`'s memory, with `timing`'s timestamps and duration: a still frame shown in place
// of a live one.
static inline GstBuffer *hvt_gst_buffer_copy_timed(GstBuffer *content, GstBuffer *timing) {
  GstBuffer *copy = gst_buffer_copy(content);
  GST_BUFFER_PTS(copy) = GST_BUFFER_PTS(timing);
  GST_BUFFER_DTS(copy) = GST_BUFFER_DTS(timing);
  GST_BUFFER_DURATION(copy) = GST_BUFFER_DURATION(timing);
  return copy;
}


// A GList's data is a gpointer: the discoverer's video stream infos, cast.
static inline gboolean hvt_gst_discoverer_video_info_is_image(void *info) {
  return gst_discoverer_video_info_is_image((const GstDiscovererVideoInfo *)info);
}
static inline guint hvt_gst_discoverer_video_info_get_width(void *info) {
  return gst_discoverer_video_info_get_width((const GstDiscovererVideoInfo *)info);
}
static inline guint hvt_gst_discoverer_video_info_get_height(void *info) {
  return gst_discoverer_video_info_get_height((const GstDiscovererVideoInfo *)info);
}

#endif
