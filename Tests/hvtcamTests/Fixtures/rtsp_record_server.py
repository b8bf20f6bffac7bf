#!/usr/bin/python3
"""An RTSP server that takes streams pushed to it, for the RTSP push tests.

gst-rtsp-server (through its GObject bindings, not HVTCamera's) serves one RECORD mount on 127.0.0.1:
each client that ANNOUNCEs and RECORDs H.264 there is written, as MPEG-TS, to a file of its own,
OUTPUT.1.ts, OUTPUT.2.ts, ... Usage: rtsp_record_server.py PORT MOUNT OUTPUT

On stderr, one line each: "listening PORT" once it serves; "recording N FILE" when client N's
media is set up; "receiving N" once 30 of client N's frames came.
"""

import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstRtspServer", "1.0")
from gi.repository import GLib, Gst, GstRtspServer  # noqa: E402


def say(line):
    print(line, file=sys.stderr, flush=True)


def main():
    port, mount, output = sys.argv[1:4]
    Gst.init(None)
    server = GstRtspServer.RTSPServer()
    server.set_address("127.0.0.1")
    server.set_service(port)
    factory = GstRtspServer.RTSPMediaFactory()
    factory.set_transport_mode(GstRtspServer.RTSPTransportMode.RECORD)
    # The file is named on each media below, never pasted into this description.
    factory.set_launch(
        "( rtph264depay name=depay0 ! h264parse ! mpegtsmux ! filesink name=file buffer-mode=unbuffered )"
    )
    factory.set_latency(100)
    clients = [0]

    def configure(_factory, media):
        clients[0] += 1
        number = clients[0]
        path = f"{output}.{number}.ts"
        pipeline = media.get_element()
        pipeline.get_by_name("file").set_property("location", path)

        frames = [0]

        def frame(_pad, _info):
            frames[0] += 1
            if frames[0] < 30:
                return Gst.PadProbeReturn.OK
            say(f"receiving {number}")
            return Gst.PadProbeReturn.REMOVE

        pipeline.get_by_name("depay0").get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, frame)
        say(f"recording {number} {path}")

    factory.connect("media-configure", configure)
    server.get_mount_points().add_factory(mount, factory)
    if server.attach(None) == 0:
        sys.exit(f"rtsp_record_server: cannot serve on 127.0.0.1:{port}")
    say(f"listening {server.get_bound_port()}")
    GLib.MainLoop().run()


if __name__ == "__main__":
    main()
