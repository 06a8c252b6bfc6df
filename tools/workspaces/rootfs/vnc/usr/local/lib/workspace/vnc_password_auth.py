# websockify's Basic auth with the password from VNC_PW, read when websockify starts, so that it
# never appears on a command line. --auth-source names the user (kasm_user).
import hmac
import os

from websockify.auth_plugins import BasicHTTPAuth


class VncPasswordAuth(BasicHTTPAuth):
    def __init__(self, src=None):
        super().__init__(src)
        self.username = src or "kasm_user"
        self.password = os.environ.get("VNC_PW", "")
        if not self.password:
            raise ValueError("VNC_PW is empty")

    def validate_creds(self, username, password):
        # Compared in constant time: the stream is reachable by anyone who can reach port 6901.
        user_ok = hmac.compare_digest(username.encode(), self.username.encode())
        password_ok = hmac.compare_digest(password.encode(), self.password.encode())
        return user_ok and password_ok
