# websockify listening on a Unix socket instead of a TCP port, for the platform's socket hop:
# `python3 -m websockify_unix SOCKET [websockify options] TARGET`. websockify 0.10 has no
# --unix-listen, so its listening socket is swapped here. The socket speaks plain HTTP: it is
# reached only through the platform's own folder on this machine, never over a network.
import os
import socket
import stat
import sys

from websockify import websocketproxy, websockifyserver


class UnixConnection(socket.socket):
    def setsockopt(self, level, option, value, *args):
        # websockify sets TCP_NODELAY on each client; a Unix socket has no TCP options.
        if level != socket.IPPROTO_TCP:
            super().setsockopt(level, option, value, *args)


class UnixListener(socket.socket):
    def accept(self):
        fd, _ = self._accept()
        conn = UnixConnection(self.family, self.type, self.proto, fileno=fd)
        # websockify logs address[0] and extends a (host, port) pair with its TLS flag.
        return conn, ("unix", 0)


def listen(path):
    try:
        if stat.S_ISSOCK(os.lstat(path).st_mode):
            os.unlink(path)  # left by an earlier run of this container
    except FileNotFoundError:
        pass
    listener = UnixListener(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    # The platform's service connects as another user; the folder around it is what guards it.
    os.chmod(path, 0o666)
    listener.listen(100)
    return listener


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: python3 -m websockify_unix SOCKET [websockify options] TARGET")
    path = sys.argv[1]
    tcp_socket = websockifyserver.WebSockifyServer.socket

    def socket_for(host, port=None, connect=False, *args, **kwargs):
        # Called with connect=False for the listener only; targets are reached as before.
        if connect:
            return tcp_socket(host, port, connect, *args, **kwargs)
        return listen(path)

    websockifyserver.WebSockifyServer.socket = staticmethod(socket_for)
    # websockify's first positional argument is where it listens: a placeholder it never binds.
    sys.argv = ["websockify", "0", *sys.argv[2:]]
    websocketproxy.websockify_init()


if __name__ == "__main__":
    main()
