'''python-dbusmock template: xdg-desktop-portal's Camera portal, for HVTCamera's tests.

org.freedesktop.portal.Camera at /org/freedesktop/portal/desktop of org.freedesktop.portal.Desktop on the
session bus, as the portal documents it: IsCameraPresent; AccessCamera(a{sv}) returns the request path
made of the caller's unique name and its handle_token option, then answers with the Response(u, a{sv})
signal of org.freedesktop.portal.Request on that path, after the reply; OpenPipeWireRemote(a{sv}) returns
a Unix socket connected to the PipeWire of $XDG_RUNTIME_DIR (pipewire-0).

Parameters (the -p JSON object):
  present: bool   IsCameraPresent (default true)
  answer: str     "grant" (response 0, the default), "deny" (1, the user said no), "other" (2), or
                  "never" (no Response at all)
'''

import os
import socket

import dbus
from gi.repository import GLib

BUS_NAME = 'org.freedesktop.portal.Desktop'
MAIN_OBJ = '/org/freedesktop/portal/desktop'
MAIN_IFACE = 'org.freedesktop.portal.Camera'
SYSTEM_BUS = False

REQUEST_IFACE = 'org.freedesktop.portal.Request'
RESPONSES = {'grant': 0, 'deny': 1, 'other': 2}


def load(mock, parameters):
    mock.camera_answer = parameters.get('answer', 'grant')
    if mock.camera_answer not in RESPONSES and mock.camera_answer != 'never':
        raise ValueError('answer must be grant, deny, other or never, not %r' % mock.camera_answer)
    mock.AddProperties(MAIN_IFACE, dbus.Dictionary({
        'IsCameraPresent': dbus.Boolean(parameters.get('present', True)),
        'version': dbus.UInt32(1),
    }, signature='sv'))


@dbus.service.method(MAIN_IFACE, in_signature='a{sv}', out_signature='o', sender_keyword='sender')
def AccessCamera(self, options, sender=None):
    token = str(options.get('handle_token', 'mock'))
    path = '%s/request/%s/%s' % (MAIN_OBJ, sender.lstrip(':').replace('.', '_'), token)
    if self.camera_answer != 'never':
        response = RESPONSES[self.camera_answer]

        def respond():
            self.EmitSignalDetailed(REQUEST_IFACE, 'Response', 'ua{sv}',
                                    [dbus.UInt32(response), dbus.Dictionary({}, signature='sv')],
                                    {'path': path})
            return False

        # After the reply, as the real portal answers once the user has.
        GLib.idle_add(respond)
    return dbus.ObjectPath(path)


@dbus.service.method(MAIN_IFACE, in_signature='a{sv}', out_signature='h')
def OpenPipeWireRemote(self, _options):
    remote = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    remote.connect(os.path.join(os.environ['XDG_RUNTIME_DIR'], 'pipewire-0'))
    # UnixFd duplicates the descriptor; the reply carries the duplicate.
    descriptor = dbus.types.UnixFd(remote)
    remote.close()
    return descriptor
