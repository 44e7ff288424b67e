# SPDX-License-Identifier: MIT
"""Starts `pegsol serve` on a free loopback port for the API and load tests."""
import json
import re
import socket
import subprocess
import urllib.error
import urllib.request


class Server:
    def __init__(self, pegsol, *args):
        self.proc = subprocess.Popen([pegsol, "serve", "--port", "0", *args],
                                     stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        m = re.search(r"listening on (http://\S+)/", line)
        if not m:
            self.proc.kill()
            raise RuntimeError("pegsol serve did not start: " + line)
        self.base = m.group(1)

    def request(self, method, path, body=None, raw=None, timeout=30):
        """(status, decoded JSON or None, headers)."""
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        # As the page sends them: JSON bodies say so (the server refuses other types).
        headers = {"Content-Type": "application/json"} if data is not None else {}
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                text = r.read()
                return r.status, json.loads(text) if text[:1] in (b"{", b"[") else text, r.headers
        except urllib.error.HTTPError as e:
            text = e.read()
            try:
                return e.code, json.loads(text), e.headers
            except ValueError:
                return e.code, None, e.headers

    def get(self, path):
        return self.request("GET", path)

    def post(self, path, body=None, raw=None):
        return self.request("POST", path, body, raw)

    def raw(self, data, timeout=10):
        """(status, decoded JSON body or None) of the raw bytes `data` sent on a new connection;
        (None, None) when the server closed it without an answer."""
        host, port = self.base.split("//")[1].rsplit(":", 1)
        with socket.create_connection((host, int(port)), timeout=timeout) as c:
            try:
                c.sendall(data)
            except OSError:
                pass  # the server answered and closed before reading it all
            got = b""
            try:
                while True:
                    chunk = c.recv(65536)
                    if not chunk:
                        break
                    got += chunk
                    head, sep, body = got.partition(b"\r\n\r\n")
                    m = re.search(rb"(?i)content-length: *(\d+)", head)
                    if sep and m and len(body) >= int(m.group(1)):
                        break
            except OSError:
                pass
        m = re.match(rb"HTTP/1\.[01] (\d+)", got)
        if not m:
            return None, None
        body = got.partition(b"\r\n\r\n")[2]
        try:
            return int(m.group(1)), json.loads(body)
        except ValueError:
            return int(m.group(1)), None

    def rss_kb(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def stop(self):
        """The exit status after SIGTERM; a server still running 20 s later is killed (so no
        test leaves one holding ctest's pipes) and the wait's error raised."""
        self.proc.terminate()
        try:
            return self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise
