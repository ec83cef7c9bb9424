"""What the GitLab and Gitea stand-ins share: a request log, fault injection, control endpoints.

Faults (POST /_standin/faults, a JSON array) are matched in order; each has "times" (default 1):
  {"at": N}              the N-th API request (0-based, control requests not counted), or
  {"kind": K, "name": F} a kind of request (as each stand-in classifies it) and an asset name;
and an "action":
  "status"      answer "status" (default 502) without acting; with "after": true, act on the
                request first, then answer "status" (a proxy's 502 after the upload landed)
  "retry_after" answer 429 with Retry-After: "seconds" (and the forge's rate-limit headers)
  "drop"        close the connection without an answer, after "after_bytes" of the body
                (default 0); with "after": true, act on the request first, then drop the answer
  "stall"       sleep "seconds" after "after_bytes" of the body, then go on
  "reflect"     answer "status" (default 422) with an error body echoing every request header,
                secrets included (as some proxies and misconfigured servers do); with "escape":
                "unicode" or "mixed", the body is only the headers (secret ones first), every (or
                every other) character written as a JSON \\uXXXX escape
  "endless"     answer a listing (give "kind") with a page of "items" (default 1) entries, each
                padded with "pad" bytes, that always names a next page (GitLab's X-Next-Page,
                Gitea's Link); with "times" large, the listing never ends
  "redirect"    answer 307 with Location: "to" + the request's path and query (another origin)
Not a forge: state in memory, 127.0.0.1 only, one test's lifetime.
"""

import json
import socket
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler

lock = threading.RLock()


class Store:
    """Everything a stand-in remembers; `reset()` empties it between iterations of a loop."""

    def __init__(self):
        self.reset()

    def reset(self):
        with lock:
            self.log = []
            self.faults = []
            self.requests = 0
            self.data = {}

    def take_fault(self, kind, name):
        with lock:
            index = self.requests
            self.requests += 1
            for fault in self.faults:
                if fault.get("times", 1) <= 0:
                    continue
                if "at" in fault and fault["at"] != index:
                    continue
                if fault.get("kind", "any") not in ("any", kind):
                    continue
                if fault.get("name") and fault.get("name") != name:
                    continue
                fault["times"] = fault.get("times", 1) - 1
                return dict(fault), index
        return None, index


class BaseHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in two writes; with Nagle's algorithm on, the body waits for the
    # client's delayed ACK of the headers (40 ms on Linux) on every kept-alive request.
    disable_nagle_algorithm = True
    store = None  # set by each stand-in
    pulls = None  # a pulls_standin.Pulls, for stand-ins with pull requests
    secret_headers = ("Authorization",)

    def log_message(self, *args):
        pass

    def record(self, status, **extra):
        entry = {
            "time": self.started, "end": time.time(), "method": self.command, "path": self.parsed.path,
            "query": self.parsed.query, "status": status, "index": getattr(self, "index", None),
            "user_agent": self.headers.get("User-Agent"), "content_type": self.headers.get("Content-Type"),
            "authorized": self.authorized(),
            # Which secret-carrying headers arrived (never their values).
            "secrets": sorted(h for h in self.secret_headers if self.headers.get(h)),
            # What the stand-in took the request for; an entry may say otherwise (a download).
            "kind": getattr(self, "kind", None), "name": getattr(self, "name", None),
        }
        entry.update(extra)
        with lock:
            self.store.log.append(entry)

    def send_body(self, status, data, content_type="application/json", headers=None, close=False, **extra):
        if self.dropped_after():
            # The request took effect; its answer is lost on the way back.
            self.fault = None
            fields = {"kind": self.kind, "name": self.name}
            fields.update(extra)
            return self.drop(acted=status, **fields)
        if self.fault and self.fault["action"] == "status" and self.fault.get("after"):
            # The request took effect; a proxy answers with an error instead.
            acted, self.fault = status, None
            status, data, content_type = self.fault_status, json.dumps(self.server_error_body()).encode(), "application/json"
            extra = dict(extra, fault="status-after", acted=acted)
        self.send_response(status)
        if data:
            self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        if close:
            self.send_header("Connection", "close")
            self.close_connection = True
        # Logged before the answer leaves, so a client's next request is always logged after it.
        self.record(status, **extra)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def send_json(self, status, body, headers=None, close=False, **extra):
        data = b"" if body is None else json.dumps(body).encode()
        self.send_body(status, data, headers=headers, close=close, **extra)

    def read_body(self, limit=256 << 20):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if 0 < length <= limit else b""

    def read_json(self):
        try:
            return json.loads(self.read_body() or b"{}")
        except ValueError:
            return None

    def drain(self):
        """Reads a small declared body so the connection can be reused; a large one closes it."""
        length = self.headers.get("Content-Length")
        if length and int(length) <= 1 << 20:
            self.rfile.read(int(length))
            return False
        return bool(length)

    def drop(self, **extra):
        self.record(0, fault="drop", **extra)
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def read_stream(self, length, fault, name, on_chunk):
        """Reads `length` body bytes through `on_chunk`, honouring a drop or stall fault; False when dropped."""
        received = 0
        stop_at = fault.get("after_bytes", 0) if fault and fault["action"] in ("drop", "stall") and not fault.get("after") else None
        while received < length:
            if stop_at is not None and received >= stop_at:
                if fault["action"] == "drop":
                    self.drop(kind=self.kind, name=name, bytes=received)
                    return False
                self.record(0, kind=self.kind, name=name, bytes=received, fault="stall")
                time.sleep(fault.get("seconds", 1))
                stop_at = None
            want = min(1 << 16, length - received)
            if stop_at is not None:
                want = min(want, max(1, stop_at - received))
            chunk = self.rfile.read(want)
            if not chunk:
                self.record(0, kind=self.kind, name=name, bytes=received, fault="client-gone")
                self.close_connection = True
                return False
            on_chunk(chunk)
            received += len(chunk)
        return True

    # -- dispatch ---------------------------------------------------------------------------

    def do_GET(self):
        self.dispatch()

    do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_GET

    def dispatch(self):
        self.started = time.time()
        self.parsed = urllib.parse.urlsplit(self.path)
        if self.parsed.path.startswith("/_standin/"):
            return self.control(self.parsed.path)
        self.kind, self.name = self.classify()
        fault, self.index = self.store.take_fault(self.kind, self.name)
        self.fault = fault
        self.fault_status = (fault or {}).get("status", 502)
        if fault and fault["action"] in ("status", "retry_after") and not fault.get("after"):
            close = self.drain()
            if fault["action"] == "status":
                return self.send_json(fault.get("status", 502), self.server_error_body(), close=close,
                                      kind=self.kind, name=self.name, fault="status")
            return self.send_json(429, self.rate_limit_body(), headers=self.rate_limit_headers(fault.get("seconds", 1)),
                                  close=close, kind=self.kind, name=self.name, fault="retry_after")
        if fault and fault["action"] == "reflect":
            close = self.drain()
            secret = {name.lower() for name in self.secret_headers}
            headers = sorted(self.headers.items(), key=lambda item: item[0].lower() not in secret)
            echoed = "; ".join(f"{k}: {v}" for k, v in headers)
            if fault.get("escape"):
                text = json_escaped(echoed, every_other=fault["escape"] == "mixed")
                return self.send_body(fault.get("status", 422), ('{"message": "' + text + '"}').encode(),
                                      close=close, kind=self.kind, name=self.name, fault="reflect")
            return self.send_json(fault.get("status", 422), {"message": f"rejected request with headers {echoed}"},
                                  close=close, kind=self.kind, name=self.name, fault="reflect")
        if fault and fault["action"] == "endless":
            self.drain()
            query = urllib.parse.parse_qs(self.parsed.query)
            page = int((query.get("page") or ["1"])[0])
            items = [dict(self.endless_item(page * 1000 + i), padding="x" * fault.get("pad", 0))
                     for i in range(fault.get("items", 1))]
            return self.send_json(200, items, headers=self.next_page_headers(page), kind=self.kind, fault="endless")
        if fault and fault["action"] == "redirect":
            close = self.drain()
            target = fault["to"] + self.path
            return self.send_body(307, b"", headers={"Location": target}, close=close, kind=self.kind, name=self.name,
                                  fault="redirect")
        if fault and fault["action"] == "drop" and not fault.get("after") and not self.streams_body():
            self.drain()
            return self.drop(kind=self.kind, name=self.name)
        try:
            self.route()
        except (ConnectionError, BrokenPipeError):
            self.close_connection = True

    def streams_body(self):
        return False

    def answer_pulls(self, answer, fields):
        """Sends a pulls_standin answer (status, body, headers); a fault with "after" acts first, then fails."""
        status, body, headers = answer
        if self.fault and self.fault["action"] == "status" and self.fault.get("after"):
            return self.send_json(self.fault.get("status", 502), self.server_error_body(), kind=self.kind,
                                  fault="status-after", acted=status)
        return self.send_json(status, body, headers=headers, kind=self.kind, fields=fields)

    def dropped_after(self):
        """True when the fault asks to act, then lose the answer."""
        return bool(self.fault and self.fault["action"] == "drop" and self.fault.get("after"))

    def control(self, path):
        if path == "/_standin/log":
            with lock:
                data = json.dumps(self.store.log).encode()
        elif path == "/_standin/state":
            with lock:
                data = json.dumps(self.state_json()).encode()
        elif path == "/_standin/faults" and self.command == "POST":
            faults = self.read_json() or []
            with lock:
                self.store.faults = faults
            data = b"{}"
        elif path == "/_standin/pulls" and self.pulls is not None:
            seed = self.read_json() if self.command == "POST" else {}
            data = json.dumps(self.pulls.control(seed or {})).encode()
        elif path == "/_standin/reset" and self.command == "POST":
            self.store.reset()
            if self.pulls is not None:
                self.pulls.reset()
            self.after_reset()
            data = b"{}"
        elif path == "/_standin/seed" and self.command == "POST":
            data = json.dumps(self.seed(self.read_json() or {})).encode()
        else:
            data = b'{"message":"unknown control endpoint"}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def host(self):
        return self.headers.get("Host") or f"127.0.0.1:{self.server.server_address[1]}"


def json_escaped(text, every_other=False):
    """`text` as the inside of a JSON string, with every (or every other) character as \\uXXXX."""
    out = []
    for index, char in enumerate(text):
        if every_other and index % 2:
            out.append(json.dumps(char)[1:-1])
        else:
            out.append("".join(f"\\u{unit:04x}" for unit in
                               [int.from_bytes(char.encode("utf-16-be")[i:i + 2], "big")
                                for i in range(0, len(char.encode("utf-16-be")), 2)]))
    return "".join(out)


def parse_options(parser, prefix):
    """The options every stand-in takes besides its own: --prefix, --git-dir, --tag NAME[=SHA]."""
    import hashlib
    parser.add_argument("--prefix", default=prefix)
    parser.add_argument("--git-dir", default=None, help="a (bare) repository whose tags the API reports")
    parser.add_argument("--tag", action="append", default=[], help="NAME[=SHA]: a tag the repository holds")
    options = parser.parse_args()
    options.prefix = options.prefix.rstrip("/")
    options.tags = {}
    for tag in options.tag:
        name, _, sha = tag.partition("=")
        options.tags[name] = sha or hashlib.sha1(name.encode()).hexdigest()
    return options


def serve(handler, announce=True):
    """Serves `handler` on a free loopback port until stdin closes (the test owns our lifetime)."""
    import sys
    from http.server import ThreadingHTTPServer
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    print(f"PORT {server.server_address[1]}", flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()
    server.shutdown()
