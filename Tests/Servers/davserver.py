#!/usr/bin/python3
"""CalDAV servers for remconv's tests, on 127.0.0.1 and a free port, started and stopped by a test.

    davserver.py radicale DIR USER PASSWORD [LOG]
                                              Radicale (Debian's) with htpasswd authentication;
                                              with LOG, every request is logged there (benchmarks)
    davserver.py xandikos DIR USER            Xandikos (Debian's), no authentication of its own
    davserver.py proxy UPSTREAM RULES LOG [--require-auth USER:PASSWORD] [--tls]
                                              the fault-injecting proxy in front of a server;
                                              with --tls, over https with a self-signed
                                              certificate (which a client must refuse)

Each prints one line, `READY <base URL>`, once it accepts connections, and runs until its
standard input closes (the test ended, or was killed), then stops what it started.

The proxy forwards every request to UPSTREAM unless a rule of the JSON file RULES (read again at
each request, so a test changes the faults between steps) matches it first:
    [{"method": "PUT", "path": "part of the path", "times": 1, "action": "...", ...}]
actions: "status" (answer `status`, `headers`, `body` itself), "redirect" (307 to `location`
plus the request's path), "delay" (wait `seconds`, then forward), "truncate" (forward, then
send half the body under the full Content-Length and close), "truncate-xml" (forward, send half
the body as if whole), "close" (close the connection without an answer), "no-sync-tokens"
(a server without RFC 6578: forward with every `sync-token` element cut from the answer, and
refuse a `sync-collection` report with 403). `times` counts down
(absent: every time). Each request is appended to LOG as a JSON line: method, path, whether it
carried an Authorization header, the rule that answered it, and its body.
"""
import http.client
import http.server
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.parse


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until_listening(port, child):
    """Connects until the child accepts (it prints nothing reliable to wait for)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if child is not None and child.poll() is not None:
            sys.exit("the server exited with status %d before listening" % child.returncode)
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)
    sys.exit("the server did not listen within 60 s")


def run_until_stdin_closes(child, url):
    print("READY " + url, flush=True)
    try:
        sys.stdin.read()
    finally:
        if child is not None:
            # Radicale lingers some ten seconds after SIGTERM; its storage is a scratch folder.
            child.kill()
            child.wait()


def radicale(folder, user, password, log=None):
    port = free_port()
    users = os.path.join(folder, "users")
    with open(users, "w") as handle:
        handle.write("%s:%s\n" % (user, password))
    config = os.path.join(folder, "config")
    with open(config, "w") as handle:
        handle.write(
            "[server]\nhosts = 127.0.0.1:%d\n"
            "[auth]\ntype = htpasswd\nhtpasswd_filename = %s\nhtpasswd_encryption = plain\ndelay = 0\n"
            "[rights]\ntype = owner_only\n"
            "[storage]\nfilesystem_folder = %s\n"
            "[logging]\nlevel = %s\n" % (port, users, os.path.join(folder, "collections"),
                                          "info" if log else "warning"))
    child = subprocess.Popen(
        ["/usr/bin/python3", "-m", "radicale", "--config", config], stdin=subprocess.DEVNULL,
        stderr=open(log, "a") if log else None)
    wait_until_listening(port, child)
    run_until_stdin_closes(child, "http://127.0.0.1:%d/" % port)


def xandikos(folder, user):
    port = free_port()
    child = subprocess.Popen(
        ["/usr/bin/python3", "-m", "xandikos.web", "-d", folder, "-l", "127.0.0.1", "-p", str(port),
         "--current-user-principal", "/%s/" % user, "--defaults"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_until_listening(port, child)
    run_until_stdin_closes(child, "http://127.0.0.1:%d/" % port)


class Proxy(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    upstream = None
    rules_path = None
    log_path = None
    required_auth = None
    lock = threading.Lock()
    used = {}  # (rules file contents, rule index) -> times used

    def log_message(self, *arguments):
        pass

    def handle_one(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        rule = self.matching_rule()
        with self.lock, open(self.log_path, "a") as log:
            log.write(json.dumps({
                "method": self.command, "path": self.path,
                "authorization": self.headers.get("Authorization") is not None,
                "rule": rule.get("action") if rule else None,
                "body": body.decode("utf-8", "replace")}) + "\n")
        action = rule.get("action") if rule else None
        if action == "status":
            return self.answer(rule["status"], rule.get("headers", {}), rule.get("body", "").encode())
        if action == "redirect":
            return self.answer(307, {"Location": rule["location"] + self.path}, b"")
        if action == "close":
            self.close_connection = True
            return
        if action == "drip":
            # An answer whose bytes come one at a time, every `seconds`, never complete.
            self.send_response(207)
            self.send_header("Content-Type", "application/xml; charset=utf-8")
            self.send_header("Content-Length", "1000000")
            self.end_headers()
            try:
                for _ in range(int(rule.get("count", 600))):
                    self.wfile.write(b" ")
                    self.wfile.flush()
                    time.sleep(rule["seconds"])
            except (BrokenPipeError, ConnectionResetError):
                pass
            self.close_connection = True
            return
        if self.required_auth is not None and self.headers.get("Authorization") != self.required_auth:
            return self.answer(401, {"WWW-Authenticate": 'Basic realm="test"'}, b"")
        if action == "delay":
            time.sleep(rule["seconds"])
        if action == "no-sync-tokens" and b"sync-collection" in body:
            return self.answer(403, {"Content-Type": "application/xml; charset=utf-8"},
                               b'<?xml version="1.0"?><error xmlns="DAV:"><valid-sync-token/></error>')
        # The answer is edited as text: the server must not compress it.
        status, headers, answer = self.forward(body, plain=action == "no-sync-tokens")
        if action == "no-sync-tokens":
            answer = re.sub(rb"<(?:[\w-]+:)?sync-token\b[^>]*?(?:/>|>.*?</(?:[\w-]+:)?sync-token>)", b"", answer,
                            flags=re.S)
        if action == "truncate":
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(answer)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(answer[: len(answer) // 2])
            self.close_connection = True
            return
        if action == "truncate-xml":
            answer = answer[: len(answer) // 2]
        self.answer(status, dict(headers), answer)

    do_GET = do_PUT = do_DELETE = do_PROPFIND = do_REPORT = do_MKCALENDAR = do_PROPPATCH = do_OPTIONS = do_POST = handle_one

    def matching_rule(self):
        try:
            with open(self.rules_path) as handle:
                text = handle.read()
        except FileNotFoundError:
            return None
        with self.lock:
            for index, rule in enumerate(json.loads(text or "[]")):
                if rule.get("method") not in (None, self.command):
                    continue
                if rule.get("path") is not None and rule["path"] not in urllib.parse.unquote(self.path):
                    continue
                key = (text, index)
                if "times" in rule and self.used.get(key, 0) >= rule["times"]:
                    continue
                self.used[key] = self.used.get(key, 0) + 1
                return rule
        return None

    def forward(self, body, plain=False):
        target = urllib.parse.urlsplit(self.upstream)
        connection = http.client.HTTPConnection(target.hostname, target.port, timeout=120)
        dropped = ("host", "connection", "keep-alive", "proxy-connection") + (("accept-encoding",) if plain else ())
        headers = {name: value for name, value in self.headers.items() if name.lower() not in dropped}
        headers["Host"] = "%s:%d" % (target.hostname, target.port)
        connection.request(self.command, self.path, body=body or None, headers=headers)
        response = connection.getresponse()
        answer = response.read()
        kept = [(name, value) for name, value in response.getheaders()
                if name.lower() not in ("transfer-encoding", "connection", "content-length", "keep-alive")]
        connection.close()
        return response.status, kept, answer

    def answer(self, status, headers, body):
        self.send_response(status)
        for name, value in headers.items():
            if name.lower() != "content-length":
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def proxy(upstream, rules, log, required_auth, tls=False):
    import base64
    Proxy.upstream = upstream
    Proxy.rules_path = rules
    Proxy.log_path = log
    if required_auth is not None:
        Proxy.required_auth = "Basic " + base64.b64encode(required_auth.encode()).decode()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
    server.daemon_threads = True
    scheme = "http"
    if tls:
        import ssl
        folder = os.path.dirname(log)
        key, certificate = os.path.join(folder, "key.pem"), os.path.join(folder, "certificate.pem")
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
             "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", certificate],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(certificate, key)
        server.socket = context.wrap_socket(server.socket, server_side=True)
        scheme = "https"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    run_until_stdin_closes(None, "%s://127.0.0.1:%d/" % (scheme, server.server_address[1]))
    server.shutdown()


if __name__ == "__main__":
    kind, arguments = sys.argv[1], sys.argv[2:]
    if kind == "radicale":
        radicale(*arguments)
    elif kind == "xandikos":
        xandikos(*arguments)
    elif kind == "proxy":
        auth = None
        tls = "--tls" in arguments
        if tls:
            arguments.remove("--tls")
        if "--require-auth" in arguments:
            at = arguments.index("--require-auth")
            auth = arguments[at + 1]
            del arguments[at:at + 2]
        proxy(*arguments, auth, tls)
    else:
        sys.exit("unknown server kind " + kind)
