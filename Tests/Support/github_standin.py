#!/usr/bin/env python3
"""A strict stand-in for GitHub's REST API for releases and release assets, for relctl's tests.

Written from docs.github.com ("REST API endpoints for releases", "... for release assets",
"Using pagination", "Rate limits", "Troubleshooting"). It is not GitHub: it keeps state in
memory, serves one process's tests, and binds to 127.0.0.1 only.

What it enforces like GitHub:
  - Authorization (Bearer or token) required: 401 without or with a wrong token.
  - User-Agent required: 403 without one.
  - X-GitHub-Api-Version, when sent, must be a known version (400 otherwise).
  - Drafts are listed by GET .../releases (the token can push) but 404 by GET .../releases/tags/TAG.
  - POST .../releases: 422 already_exists (field tag_name) when a published release has the tag;
    several drafts for one tag are allowed.
  - PATCH draft=false: 422 already_exists when another published release has the tag.
  - Uploads go to upload_url, a URI template on another path ({prefix}/uploads/...), need a
    name, a Content-Type and a Content-Length (411 without); 422 already_exists for a name already
    on the release. While the body streams the asset is in state "starter"; it becomes "uploaded"
    (with size and digest "sha256:HEX") only when every byte arrived.
  - GET .../git/ref/tags/TAG: 200 for the tags given with --tag NAME[=SHA], seeded releases' and
    those in --git-dir (the bare repository the tests push to), else 404.
  - Lists paginate with per_page (max 100, or --max-per-page) and page, with a Link header.
  - GET .../releases/assets/ID with `Accept: application/octet-stream` answers the asset's bytes
    (GitHub redirects or streams; this streams), for assets up to 64 MiB (larger ones keep no bytes).
  - GET /OWNER/REPO/releases/download/TAG/NAME (an asset's browser_download_url) needs no token,
    serves published releases only, and answers 302 to /release-assets/ID, which has the bytes.
  - Immutable releases ("About immutable releases", docs.github.com; on unless --mutable): once a
    release is published its assets cannot be added, deleted or edited and its tag cannot change.
    An upload answers 422 "Cannot upload assets to an immutable release", an asset DELETE or PATCH
    422 "Cannot delete or modify assets of an immutable release", a release PATCH naming another
    tag_name 422 "Cannot change the tag of an immutable release". Every write request addressed to
    a published release is logged with "to_published": true, refused or not (with --mutable).

Test-only endpoints (no auth), under /_standin/:
  GET  /_standin/log      every request received: method, path, query, status, time, headers...
  GET  /_standin/state    every release with its assets (drafts included)
  POST /_standin/faults   replace the fault list (JSON array, see Fault below)
  POST /_standin/seed     add a release: {"tag_name", "draft", "prerelease", "assets": [{"name", "data"}]}

Usage: github_standin.py --token T --repo OWNER/REPO [--prefix /api/v3] [--max-per-page N] [--mutable]
Prints "PORT <n>" on stdout once listening; stops on SIGTERM or when stdin closes.
"""

import argparse
import base64
import hashlib
import json
import socket
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# No __pycache__ beside the sources: SwiftPM would see files it does not handle.
sys.dont_write_bytecode = True
sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.abspath(__file__)))
import pulls_standin  # noqa: E402

DOCS = "https://docs.github.com/rest/releases"
IMMUTABLE_DOCS = "https://docs.github.com/code-security/supply-chain-security/understanding-your-software-supply-chain/immutable-releases"
API_VERSIONS = {"2022-11-28"}

lock = threading.RLock()
state = {"next_release": 1, "next_asset": 1, "releases": [], "log": [], "faults": [], "tags": {}}
options = None
pulls = pulls_standin.Pulls()


def now_iso():
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class Fault:
    """One injected failure: {"kind": "upload|create|list|assets|patch|delete|any", "name": asset,
    "action": "drop|status|retry_after|ratelimit|stall", "status": 502, "seconds": 2,
    "after_bytes": N, "times": 1}. "drop" closes the connection after after_bytes of the body;
    "stall" sleeps `seconds` after after_bytes, then goes on."""

    @staticmethod
    def take(kind, name):
        with lock:
            for fault in state["faults"]:
                if fault.get("times", 1) <= 0:
                    continue
                if fault.get("kind", "any") not in ("any", kind):
                    continue
                if fault.get("name") and fault.get("name") != name:
                    continue
                fault["times"] = fault.get("times", 1) - 1
                return dict(fault)
        return None


def release_json(release, host):
    repo = release["repo"]
    base = f"http://{host}{options.prefix}/repos/{repo}"
    tag_path = release["tag_name"] if not release["draft"] else f"untagged-{release['id']:08x}"
    return {
        "url": f"{base}/releases/{release['id']}",
        "html_url": f"http://{host}/{repo}/releases/tag/{tag_path}",
        "assets_url": f"{base}/releases/{release['id']}/assets",
        "upload_url": f"http://{host}{options.upload_prefix}/repos/{repo}/releases/{release['id']}/assets{{?name,label}}",
        "id": release["id"],
        "node_id": f"RE_{release['id']}",
        "tag_name": release["tag_name"],
        "target_commitish": release.get("target_commitish", "main"),
        "name": release.get("name"),
        "body": release.get("body"),
        "draft": release["draft"],
        "prerelease": release["prerelease"],
        "make_latest": release.get("make_latest"),
        "created_at": release["created_at"],
        "published_at": release.get("published_at"),
        "assets": [asset_json(a, release, host) for a in release["assets"]],
    }


def asset_json(asset, release, host):
    repo = release["repo"]
    return {
        "url": f"http://{host}{options.prefix}/repos/{repo}/releases/assets/{asset['id']}",
        "browser_download_url": f"http://{host}/{repo}/releases/download/{release['tag_name']}/{urllib.parse.quote(asset['name'])}",
        "id": asset["id"],
        "node_id": f"RA_{asset['id']}",
        "name": asset["name"],
        "label": asset.get("label"),
        "state": asset["state"],
        "content_type": asset["content_type"],
        "size": asset["size"],
        "digest": asset.get("digest"),
        "download_count": 0,
        "created_at": asset["created_at"],
        "updated_at": asset["created_at"],
    }


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "GitHub.com-standin"
    # Headers and body go out in two writes; with Nagle's algorithm on, the body waits for the
    # client's delayed ACK of the headers (40 ms on Linux) on every kept-alive request.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    # -- plumbing ---------------------------------------------------------------------------

    def record(self, status, **extra):
        entry = {
            "time": self.started,
            "end": time.time(),
            "method": self.command,
            "path": self.parsed.path,
            "query": self.parsed.query,
            "status": status,
            "user_agent": self.headers.get("User-Agent"),
            "accept": self.headers.get("Accept"),
            "api_version": self.headers.get("X-GitHub-Api-Version"),
            "authorized": self.authorized(),
            "content_type": self.headers.get("Content-Type"),
        }
        entry.update(extra)
        with lock:
            state["log"].append(entry)

    def send_json(self, status, body, headers=None, close=False, **extra):
        data = b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        if body is not None:
            self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("X-GitHub-Api-Version-Selected", "2022-11-28")
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        if close:
            self.send_header("Connection", "close")
            self.close_connection = True
        # Logged before the answer leaves: a client that sends its next request only once it has
        # this answer then always finds this entry earlier in the log (logged after the write, a
        # thread descheduled between the two put the next request's entry first).
        self.record(status, **extra)
        self.end_headers()
        self.wfile.write(data)

    def error(self, status, message, errors=None, headers=None, close=False, doc=DOCS, **extra):
        body = {"message": message, "documentation_url": doc, "status": str(status)}
        if errors:
            body["errors"] = errors
        self.send_json(status, body, headers=headers, close=close, **extra)

    def authorized(self):
        value = self.headers.get("Authorization", "")
        for scheme in ("Bearer ", "token "):
            if value.startswith(scheme) and value[len(scheme):] == options.token:
                return True
        return False

    def read_json(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            return json.loads(raw or b"{}")
        except ValueError:
            return None

    def drain(self):
        """Reads the declared body so the connection can be reused (or marks it for closing)."""
        length = self.headers.get("Content-Length")
        if length and int(length) <= 1 << 20:
            self.rfile.read(int(length))
            return False
        return bool(length)

    # -- dispatch ---------------------------------------------------------------------------

    def do_GET(self):
        self.dispatch()

    def do_POST(self):
        self.dispatch()

    def do_PATCH(self):
        self.dispatch()

    def do_DELETE(self):
        self.dispatch()

    def dispatch(self):
        self.started = time.time()
        self.parsed = urllib.parse.urlsplit(self.path)
        path = self.parsed.path
        if path.startswith("/_standin/"):
            return self.control(path)
        if self.command == "GET" and (path.startswith("/release-assets/") or "/releases/download/" in path):
            return self.browser_download(path)
        kind, name = self.classify(path)
        if not self.headers.get("User-Agent"):
            close = self.drain()
            return self.error(403, "Request forbidden by administrative rules. Please make sure your request has a User-Agent header "
                              "(https://docs.github.com/en/rest/overview/resources-in-the-rest-api#user-agent-required).", close=close, kind=kind)
        if not self.authorized():
            close = self.drain()
            message = "Bad credentials" if self.headers.get("Authorization") else "Requires authentication"
            return self.error(401, message, close=close, kind=kind)
        version = self.headers.get("X-GitHub-Api-Version")
        if version is not None and version not in API_VERSIONS:
            close = self.drain()
            return self.error(400, f"Unsupported 'X-GitHub-Api-Version' header: {version}", close=close, kind=kind)
        fault = Fault.take(kind, name)
        if fault and fault["action"] in ("status", "retry_after", "ratelimit") and not fault.get("after"):
            close = self.drain()
            if fault["action"] == "status":
                return self.error(fault.get("status", 502), "Server Error", close=close, kind=kind, fault="status")
            if fault["action"] == "retry_after":
                return self.error(429, "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
                                  headers={"Retry-After": str(fault.get("seconds", 1))}, close=close, kind=kind, fault="retry_after",
                                  doc="https://docs.github.com/rest/overview/rate-limits-for-the-rest-api")
            reset = int(time.time()) + int(fault.get("seconds", 1))
            return self.error(403, "API rate limit exceeded for user ID 1.",
                              headers={"x-ratelimit-limit": "5000", "x-ratelimit-remaining": "0", "x-ratelimit-used": "5000",
                                       "x-ratelimit-reset": str(reset), "x-ratelimit-resource": "core"},
                              close=close, kind=kind, fault="ratelimit", reset=reset,
                              doc="https://docs.github.com/rest/overview/rate-limits-for-the-rest-api")
        try:
            self.route(path, fault)
        except (ConnectionError, BrokenPipeError):
            self.close_connection = True

    def classify(self, path):
        if path.startswith(options.upload_prefix + "/"):
            query = urllib.parse.parse_qs(self.parsed.query)
            return "upload", (query.get("name") or [None])[0]
        parts = self.api_parts(path)
        if parts is None:
            return "other", None
        rest = parts[2:]
        pull_kind = pulls_standin.classify(self.command, rest, "pulls")
        if pull_kind:
            return pull_kind, None
        if rest == ["releases"]:
            return ("create" if self.command == "POST" else "list"), None
        if len(rest) == 3 and rest[2] == "assets":
            return "assets", None
        if self.command == "PATCH":
            return "patch", None
        if self.command == "DELETE":
            return "delete", None
        return "other", None

    def api_parts(self, path):
        if not path.startswith(options.prefix + "/repos/"):
            return None
        parts = path[len(options.prefix) + len("/repos/"):].split("/")
        return parts if len(parts) >= 3 else None

    def repo_or_404(self, owner, name):
        repo = f"{owner}/{name}"
        if repo not in options.repo:
            self.drain()
            self.error(404, "Not Found", doc="https://docs.github.com/rest/releases/releases")
            return None
        return repo

    def route(self, path, fault):
        if path.startswith(options.upload_prefix + "/repos/"):
            parts = path[len(options.upload_prefix) + len("/repos/"):].split("/")
            if self.command == "POST" and len(parts) == 5 and parts[2] == "releases" and parts[4] == "assets":
                repo = self.repo_or_404(parts[0], parts[1])
                if repo:
                    self.upload(repo, parts[3], fault)
                return
            close = self.drain()
            return self.error(404, "Not Found", close=close)
        parts = self.api_parts(path)
        if parts is None:
            close = self.drain()
            return self.error(404, "Not Found", close=close)
        repo = self.repo_or_404(parts[0], parts[1])
        if not repo:
            return
        rest = parts[2:]
        method = self.command
        if rest and rest[0] == "pulls":
            fields = self.read_json() if method in ("POST", "PATCH") else None
            query = urllib.parse.parse_qs(self.parsed.query)
            answer = pulls_standin.github(pulls, method, rest, query, fields, repo, self.host(), options.prefix)
            if answer is not None:
                status, body, headers = answer
                kind = pulls_standin.classify(method, rest, "pulls")
                if fault and fault["action"] == "status" and fault.get("after"):
                    # The request took effect; the answer is a gateway error anyway.
                    return self.error(fault.get("status", 502), "Server Error", kind=kind, fault="status-after",
                                      acted=status)
                if status >= 400:
                    return self.error(status, body.get("message", ""), errors=body.get("errors"), kind=kind,
                                      doc="https://docs.github.com/rest/pulls/pulls")
                return self.send_json(status, body, headers=headers, kind=kind, fields=fields)
        if rest == ["releases"] and method == "GET":
            return self.list_releases(repo)
        if rest == ["releases"] and method == "POST":
            return self.create_release(repo)
        if len(rest) >= 4 and rest[:3] == ["git", "ref", "tags"] and method == "GET":
            return self.tag_ref(repo, urllib.parse.unquote("/".join(rest[3:])))
        if len(rest) == 3 and rest[:2] == ["releases", "tags"] and method == "GET":
            return self.release_by_tag(repo, urllib.parse.unquote(rest[2]))
        if len(rest) == 3 and rest[:2] == ["releases", "assets"]:
            return self.asset(repo, rest[2])
        if len(rest) == 2 and rest[0] == "releases":
            return self.release(repo, rest[1])
        if len(rest) == 3 and rest[0] == "releases" and rest[2] == "assets" and method == "GET":
            return self.list_assets(repo, rest[1])
        close = self.drain()
        return self.error(404, "Not Found", close=close)

    # -- control ----------------------------------------------------------------------------

    def control(self, path):
        self.started = time.time()
        if path == "/_standin/log":
            with lock:
                data = json.dumps(state["log"]).encode()
        elif path == "/_standin/state":
            with lock:
                data = json.dumps([release_json(r, self.host()) for r in state["releases"]]).encode()
        elif path == "/_standin/faults" and self.command == "POST":
            faults = self.read_json() or []
            with lock:
                state["faults"] = faults
            data = b"{}"
        elif path == "/_standin/pulls":
            seed = self.read_json() if self.command == "POST" else {}
            data = json.dumps(pulls.control(seed or {})).encode()
        elif path == "/_standin/seed" and self.command == "POST":
            seed = self.read_json() or {}
            with lock:
                release = self.new_release(seed.get("repo", options.repo[0]), seed)
                state["tags"].setdefault(seed["tag_name"], hashlib.sha1(seed["tag_name"].encode()).hexdigest())
                for asset in seed.get("assets", []):
                    content = base64.b64decode(asset.get("data", ""))
                    release["assets"].append(self.new_asset(asset["name"], "application/octet-stream",
                                                            state_=asset.get("state", "uploaded"), content=content))
                data = json.dumps(release_json(release, self.host())).encode()
        else:
            data = b'{"message":"unknown control endpoint"}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def host(self):
        return self.headers.get("Host") or f"127.0.0.1:{self.server.server_address[1]}"

    # -- releases ---------------------------------------------------------------------------

    def new_release(self, repo, fields):
        release = {
            "id": state["next_release"], "repo": repo, "tag_name": fields["tag_name"],
            "name": fields.get("name"), "body": fields.get("body"), "draft": bool(fields.get("draft", False)),
            "prerelease": bool(fields.get("prerelease", False)), "created_at": now_iso(), "assets": [],
            "make_latest": fields.get("make_latest"),
        }
        if not release["draft"]:
            release["published_at"] = now_iso()
        state["next_release"] += 1
        state["releases"].append(release)
        return release

    def new_asset(self, name, content_type, state_, content=None):
        asset = {"id": state["next_asset"], "name": name, "state": state_, "content_type": content_type,
                 "size": 0, "digest": None, "created_at": now_iso()}
        if content is not None:
            asset["size"] = len(content)
            asset["digest"] = "sha256:" + hashlib.sha256(content).hexdigest()
            asset["content"] = content
        state["next_asset"] += 1
        return asset

    def find_release(self, repo, release_id):
        for release in state["releases"]:
            if str(release["id"]) == str(release_id) and release["repo"] == repo:
                return release
        return None

    def paginate(self, items, base_path):
        query = urllib.parse.parse_qs(self.parsed.query)
        try:
            per_page = max(1, min(100, options.max_per_page, int((query.get("per_page") or ["30"])[0])))
            page = max(1, int((query.get("page") or ["1"])[0]))
        except ValueError:
            return None, None
        last = max(1, (len(items) + per_page - 1) // per_page)
        chunk = items[(page - 1) * per_page: page * per_page]
        links = []
        url = f"http://{self.host()}{base_path}"

        def link(number, rel):
            links.append(f'<{url}?per_page={per_page}&page={number}>; rel="{rel}"')
        if page < last:
            link(page + 1, "next")
            link(last, "last")
        if page > 1:
            link(1, "first")
            link(page - 1, "prev")
        return chunk, ({"Link": ", ".join(links)} if links else {})

    def list_releases(self, repo):
        with lock:
            releases = sorted((r for r in state["releases"] if r["repo"] == repo), key=lambda r: -r["id"])
            body = [release_json(r, self.host()) for r in releases]
        chunk, headers = self.paginate(body, self.parsed.path)
        if chunk is None:
            return self.error(400, "Invalid per_page or page")
        self.send_json(200, chunk, headers=headers, kind="list")

    def tag_ref(self, repo, tag):
        with lock:
            sha = state["tags"].get(tag)
        if sha is None and options.git_dir:
            # Like GitHub, read the tag from the repository the tests push to.
            import subprocess
            found = subprocess.run(["git", "--git-dir", options.git_dir, "rev-parse", "--verify", "-q", f"refs/tags/{tag}"],
                                   capture_output=True, text=True)
            sha = found.stdout.strip() if found.returncode == 0 else None
        if sha is None:
            return self.error(404, "Not Found", doc="https://docs.github.com/rest/git/refs#get-a-reference", kind="tag")
        self.send_json(200, {"ref": f"refs/tags/{tag}", "node_id": "REF_" + sha[:8],
                             "url": f"http://{self.host()}{options.prefix}/repos/{repo}/git/refs/tags/{tag}",
                             "object": {"sha": sha, "type": "tag", "url": f"http://{self.host()}{options.prefix}/repos/{repo}/git/tags/{sha}"}},
                       kind="tag")

    def release_by_tag(self, repo, tag):
        with lock:
            found = [r for r in state["releases"] if r["repo"] == repo and r["tag_name"] == tag and not r["draft"]]
            body = release_json(found[0], self.host()) if found else None
        if body is None:
            return self.error(404, "Not Found", doc="https://docs.github.com/rest/releases/releases#get-a-release-by-tag-name")
        self.send_json(200, body)

    def create_release(self, repo):
        fields = self.read_json()
        if not isinstance(fields, dict):
            return self.error(400, "Problems parsing JSON")
        if not fields.get("tag_name"):
            return self.error(422, "Validation Failed", errors=[{"resource": "Release", "code": "missing_field", "field": "tag_name"}], kind="create")
        with lock:
            if any(r["repo"] == repo and r["tag_name"] == fields["tag_name"] and not r["draft"] for r in state["releases"]):
                return self.error(422, "Validation Failed", errors=[{"resource": "Release", "code": "already_exists", "field": "tag_name"}],
                                  doc="https://docs.github.com/rest/releases/releases#create-a-release", kind="create")
            release = self.new_release(repo, fields)
            body = release_json(release, self.host())
        self.send_json(201, body, headers={"Location": body["url"]}, kind="create", draft=release["draft"])

    def release(self, repo, release_id):
        with lock:
            release = self.find_release(repo, release_id)
        if release is None:
            close = self.drain()
            return self.error(404, "Not Found", close=close)
        if self.command == "GET":
            with lock:
                body = release_json(release, self.host())
            return self.send_json(200, body)
        if self.command == "DELETE":
            with lock:
                state["releases"].remove(release)
            return self.send_json(204, None, kind="delete_release")
        if self.command != "PATCH":
            return self.error(404, "Not Found")
        fields = self.read_json()
        if not isinstance(fields, dict):
            return self.error(400, "Problems parsing JSON")
        if "make_latest" in fields and fields["make_latest"] not in ("true", "false", "legacy"):
            return self.error(422, "Validation Failed", errors=[{"resource": "Release", "code": "invalid", "field": "make_latest"}], kind="patch")
        with lock:
            if not release["draft"] and not options.mutable and "tag_name" in fields \
                    and fields["tag_name"] != release["tag_name"]:
                return self.error(422, "Cannot change the tag of an immutable release", doc=IMMUTABLE_DOCS,
                                  kind="patch", to_published=True)
            to_published = not release["draft"]
            publishing = release["draft"] and fields.get("draft") is False
            if publishing and any(r is not release and r["repo"] == repo and r["tag_name"] == release["tag_name"] and not r["draft"]
                                  for r in state["releases"]):
                return self.error(422, "Validation Failed", errors=[{"resource": "Release", "code": "already_exists", "field": "tag_name"}], kind="patch")
            for key in ("tag_name", "name", "body", "draft", "prerelease", "make_latest"):
                if key in fields:
                    release[key] = fields[key]
            if publishing:
                release["published_at"] = now_iso()
            snapshot = [{"name": a["name"], "state": a["state"], "digest": a["digest"]} for a in release["assets"]]
            body = release_json(release, self.host())
        self.send_json(200, body, kind="patch", published=publishing, assets_at_publish=snapshot if publishing else None, fields=fields,
                       to_published=to_published)

    # -- assets -----------------------------------------------------------------------------

    def list_assets(self, repo, release_id):
        with lock:
            release = self.find_release(repo, release_id)
            body = [asset_json(a, release, self.host()) for a in release["assets"]] if release else None
        if body is None:
            return self.error(404, "Not Found")
        chunk, headers = self.paginate(body, self.parsed.path)
        self.send_json(200, chunk, headers=headers, kind="assets")

    def asset(self, repo, asset_id):
        with lock:
            for release in state["releases"]:
                if release["repo"] != repo:
                    continue
                for asset in release["assets"]:
                    if str(asset["id"]) == asset_id:
                        if self.command in ("DELETE", "PATCH") and not release["draft"] and not options.mutable:
                            return self.error(422, "Cannot delete or modify assets of an immutable release",
                                              doc=IMMUTABLE_DOCS, kind="delete" if self.command == "DELETE" else "other",
                                              name=asset["name"], to_published=True)
                        if self.command == "DELETE":
                            to_published = not release["draft"]
                            release["assets"].remove(asset)
                            name = asset["name"]
                            break
                        if self.headers.get("Accept") == "application/octet-stream" and "content" in asset:
                            return self.send_bytes(asset["content"])
                        body = asset_json(asset, release, self.host())
                        return self.send_json(200, body)
                else:
                    continue
                return self.send_json(204, None, kind="delete", name=name, to_published=to_published)
        self.error(404, "Not Found", kind="delete" if self.command == "DELETE" else "other")

    def browser_download(self, path):
        """An asset's browser_download_url (/OWNER/REPO/releases/download/TAG/NAME): no token needed
        (a public repository), the assets of published releases only, answered as GitHub does with
        a 302 to where the bytes are (here /release-assets/ID), which clients must follow."""
        with lock:
            if path.startswith("/release-assets/"):
                for release in state["releases"]:
                    for asset in release["assets"]:
                        if f"/release-assets/{asset['id']}" == path and not release["draft"] and "content" in asset:
                            return self.send_bytes(asset["content"])
                return self.error(404, "Not Found", kind="download")
            owner, repo, _, _, tag, name = (path.lstrip("/").split("/", 5) + [""] * 6)[:6]
            for release in state["releases"]:
                if release["repo"] != f"{owner}/{repo}" or release["draft"] or release["tag_name"] != tag:
                    continue
                for asset in release["assets"]:
                    if asset["name"] == urllib.parse.unquote(name) and asset["state"] == "uploaded":
                        self.send_response(302)
                        self.send_header("Location", f"http://{self.host()}/release-assets/{asset['id']}")
                        self.send_header("Content-Length", "0")
                        self.record(302, kind="download", name=asset["name"])
                        return self.end_headers()
        self.error(404, "Not Found", kind="download")

    def send_bytes(self, content):
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(content)))
        self.record(200, kind="download")
        self.end_headers()
        self.wfile.write(content)

    def upload(self, repo, release_id, fault):
        query = urllib.parse.parse_qs(self.parsed.query)
        name = (query.get("name") or [None])[0]
        length = self.headers.get("Content-Length")
        if self.headers.get("Transfer-Encoding") or length is None:
            return self.error(411, "Length Required", close=True, kind="upload", name=name)
        length = int(length)
        if not name:
            return self.error(422, "Validation Failed", errors=[{"resource": "ReleaseAsset", "code": "missing_field", "field": "name"}],
                              close=True, kind="upload")
        if not self.headers.get("Content-Type"):
            return self.error(422, "Validation Failed", errors=[{"resource": "ReleaseAsset", "code": "missing_field", "field": "content_type"}],
                              close=True, kind="upload", name=name)
        with lock:
            release = self.find_release(repo, release_id)
            if release is None:
                return self.error(404, "Not Found", close=True, kind="upload", name=name)
            if not release["draft"] and not options.mutable:
                return self.error(422, "Cannot upload assets to an immutable release", doc=IMMUTABLE_DOCS, close=True,
                                  kind="upload", name=name, to_published=True)
            to_published = not release["draft"]
            if any(a["name"] == name for a in release["assets"]):
                return self.error(422, "Validation Failed", errors=[{"resource": "ReleaseAsset", "code": "already_exists", "field": "name"}],
                                  doc="https://docs.github.com/rest/releases/assets#upload-a-release-asset", close=True, kind="upload", name=name)
            asset = self.new_asset(name, self.headers["Content-Type"], state_="starter")
            release["assets"].append(asset)
        digest = hashlib.sha256()
        received = 0
        kept = [] if length <= 64 << 20 else None
        stop_at = fault.get("after_bytes", 0) if fault else None
        while received < length:
            if stop_at is not None and received >= stop_at:
                if fault["action"] == "drop":
                    self.record(0, kind="upload", name=name, bytes=received, fault="drop")
                    self.close_connection = True
                    try:
                        self.connection.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
                    return
                if fault["action"] == "stall":
                    self.record(0, kind="upload", name=name, bytes=received, fault="stall")
                    time.sleep(fault.get("seconds", 1))
                stop_at = None
            want = min(1 << 16, length - received)
            if stop_at is not None:
                want = min(want, max(1, stop_at - received))
            chunk = self.rfile.read(want)
            if not chunk:
                self.record(0, kind="upload", name=name, bytes=received, fault="client-gone")
                self.close_connection = True
                return
            digest.update(chunk)
            received += len(chunk)
            if kept is not None:
                kept.append(chunk)
        with lock:
            if kept is not None:
                asset["content"] = b"".join(kept)
            asset["state"] = "uploaded"
            asset["size"] = received
            asset["digest"] = "sha256:" + digest.hexdigest()
            body = asset_json(asset, release, self.host())
        self.send_json(201, body, kind="upload", name=name, bytes=received, to_published=to_published)


def main():
    global options
    parser = argparse.ArgumentParser()
    parser.add_argument("--token", required=True)
    parser.add_argument("--repo", action="append", required=True)
    parser.add_argument("--prefix", default="")
    parser.add_argument("--upload-prefix", default=None)
    parser.add_argument("--max-per-page", type=int, default=100)
    parser.add_argument("--mutable", action="store_true", help="published releases take new assets (no immutability)")
    parser.add_argument("--git-dir", default=None, help="a (bare) repository whose tags the API reports")
    parser.add_argument("--tag", action="append", default=[], help="NAME[=SHA]: a tag the repository holds (repeatable)")
    options = parser.parse_args()
    for tag in options.tag:
        name, _, sha = tag.partition("=")
        state["tags"][name] = sha or hashlib.sha1(name.encode()).hexdigest()
    options.prefix = options.prefix.rstrip("/")
    pulls.git_dir = options.git_dir
    if options.upload_prefix is None:
        # GitHub: uploads.github.com; GitHub Enterprise Server: https://HOST/api/uploads.
        options.upload_prefix = "/api/uploads" if options.prefix == "/api/v3" else options.prefix + "/uploads"
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(f"PORT {server.server_address[1]}", flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    # The test that started us owns our lifetime: stop when it closes our stdin (or dies).
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
