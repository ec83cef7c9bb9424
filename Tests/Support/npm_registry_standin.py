#!/usr/bin/env python3
"""A strict stand-in for the npm registry's publish and install API, for relctl's tests.

Written from the registry API's documentation (github.com/npm/registry: "Package endpoints",
"Publishing"; docs.npmjs.com "package.json", "npm-publish") and from the document the npm CLI's
own publish sends (libnpmpublish). It is not the registry: it keeps packages in memory, binds
to 127.0.0.1 only and serves one process's tests.

What it enforces like the registry:
  - PUT /{escaped-name} (`@scope%2fname`): `Authorization: Bearer TOKEN` required (401 without or
    with another token), `Content-Type: application/json`. The document must have `_id` and
    `name` equal to the URL's package, one version in `versions` (its `name`, `version`,
    `_id` = name@version, `dist.tarball` ending in /{name}/-/{name}-{version}.tgz, `dist.shasum`
    the SHA-1 hex and `dist.integrity` the sha512- base64 of the attachment), `dist-tags` naming
    only that version (and never a tag that is a valid version), `_attachments` holding exactly
    `{name}-{version}.tgz` with `content_type`, base64 `data` and `length` equal to its bytes.
    The tarball must gunzip to a tar whose `package/package.json` has the same name and version.
    Every refusal is 400 with {"error": ...}.
  - A version already published: 403 "You cannot publish over the previously published versions".
  - GET /{escaped-name} (or the name with a plain `/`): the packument (`name`, `dist-tags`,
    `versions`, `time`), or 404 {"error": "Not found"}. A wrong token there is 401; none is fine.
  - GET /{name}/-/{file}.tgz: the tarball bytes (the packument's `dist.tarball` points here).

Test-only endpoints (no auth), under /_standin/:
  GET  /_standin/log      every request: method, path, status, authorization ("none", "good", "bad")
  POST /_standin/faults   replace the fault list: [{"method": "PUT", "status": 500, "count": 1,
                          "store": false}] answers the next `count` matching requests with
                          `status` (after storing the package when "store" is true)
  POST /_standin/seed     add a version as if published elsewhere: {"name", "version", "integrity"}

Usage: npm_registry_standin.py --token T
Prints "PORT <n>" on stdout once listening; stops when stdin closes.
"""

import argparse
import base64
import hashlib
import io
import json
import re
import sys
import tarfile
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.dont_write_bytecode = True

LOCK = threading.Lock()
PACKAGES = {}  # name -> packument
TARBALLS = {}  # "/name/-/file.tgz" -> bytes
LOG = []
FAULTS = []
SEMVER = re.compile(r"^v?\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$")


def unscoped(name):
    return name.split("/", 1)[1] if name.startswith("@") else name


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body, content_type="application/json"):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
        with LOCK:
            LOG.append({"method": self.command, "path": self.path, "status": status, "authorization": self.auth})

    def authorization(self):
        header = self.headers.get("Authorization")
        if header is None:
            return "none"
        return "good" if header == "Bearer " + self.server.token else "bad"

    def fault(self):
        with LOCK:
            for fault in FAULTS:
                if fault.get("method", self.command) == self.command and fault.get("count", 1) > 0:
                    fault["count"] = fault.get("count", 1) - 1
                    return fault
        return None

    def package_name(self):
        path = urllib.parse.urlparse(self.path).path
        return urllib.parse.unquote(path.lstrip("/"))

    def do_GET(self):
        self.auth = self.authorization()
        path = urllib.parse.urlparse(self.path).path
        if path == "/_standin/log":
            with LOCK:
                log = list(LOG)
            return self.reply(200, log)
        if self.auth == "bad":
            return self.reply(401, {"error": "bad token"})
        fault = self.fault()
        if fault:
            return self.reply(fault["status"], {"error": "injected fault"})
        if "/-/" in path:
            with LOCK:
                data = TARBALLS.get(urllib.parse.unquote(path))
            return self.reply(200, data, "application/octet-stream") if data else self.reply(404, {"error": "Not found"})
        with LOCK:
            packument = PACKAGES.get(self.package_name())
            body = json.loads(json.dumps(packument)) if packument else None
        return self.reply(200, body) if body else self.reply(404, {"error": "Not found"})

    def do_POST(self):
        self.auth = self.authorization()
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"null")
        path = urllib.parse.urlparse(self.path).path
        if path == "/_standin/faults":
            with LOCK:
                FAULTS[:] = body
            return self.reply(200, {"ok": True})
        if path == "/_standin/seed":
            with LOCK:
                packument = PACKAGES.setdefault(body["name"], {"name": body["name"], "dist-tags": {}, "versions": {}, "time": {}})
                packument["versions"][body["version"]] = {
                    "name": body["name"], "version": body["version"], "dist": {"integrity": body["integrity"]}}
                packument["dist-tags"]["latest"] = body["version"]
            return self.reply(200, {"ok": True})
        return self.reply(405, {"error": "method not allowed"})

    def do_PUT(self):
        self.auth = self.authorization()
        raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.auth != "good":
            return self.reply(401, {"error": "unauthorized: publishing needs a bearer token"})
        if not self.headers.get("Content-Type", "").startswith("application/json"):
            return self.reply(400, {"error": "Content-Type must be application/json"})
        name = self.package_name()
        fault = self.fault()
        if fault and not fault.get("store"):
            return self.reply(fault["status"], {"error": "injected fault"})
        status, answer = self.publish(name, raw)
        if fault and status == 200:
            return self.reply(fault["status"], {"error": "injected fault after storing"})
        return self.reply(status, answer)

    def publish(self, name, raw):
        try:
            document = json.loads(raw)
        except ValueError:
            return 400, {"error": "body is not JSON"}
        def bad(reason):
            return 400, {"error": reason}
        if document.get("_id") != name or document.get("name") != name:
            return bad("_id and name must be the URL's package " + name)
        versions = document.get("versions")
        if not isinstance(versions, dict) or len(versions) != 1:
            return bad("versions must hold exactly one version")
        version, manifest = next(iter(versions.items()))
        if not SEMVER.match(version) or version.startswith("v"):
            return bad("invalid version " + version)
        if manifest.get("name") != name or manifest.get("version") != version or manifest.get("_id") != name + "@" + version:
            return bad("the version document's name, version and _id must match")
        tags = document.get("dist-tags")
        if not isinstance(tags, dict) or len(tags) != 1 or list(tags.values()) != [version]:
            return bad("dist-tags must name this version once")
        if any(SEMVER.match(tag) for tag in tags):
            return bad("a dist-tag may not be a version")
        file_name = name + "-" + version + ".tgz"
        attachments = document.get("_attachments")
        if not isinstance(attachments, dict) or list(attachments.keys()) != [file_name]:
            return bad("_attachments must hold exactly " + file_name)
        attachment = attachments[file_name]
        try:
            data = base64.b64decode(attachment["data"], validate=True)
        except Exception:
            return bad("attachment data is not base64")
        if attachment.get("length") != len(data) or not attachment.get("content_type"):
            return bad("attachment length or content_type wrong")
        dist = manifest.get("dist") or {}
        integrity = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
        if dist.get("integrity") != integrity:
            return bad("dist.integrity does not match the attachment")
        if dist.get("shasum") != hashlib.sha1(data).hexdigest():
            return bad("dist.shasum does not match the attachment")
        if not str(dist.get("tarball", "")).endswith("/" + name + "/-/" + file_name):
            return bad("dist.tarball must end with /" + name + "/-/" + file_name)
        try:
            with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
                inner = json.load(tar.extractfile("package/package.json"))
        except Exception as error:
            return bad("the tarball has no readable package/package.json: " + str(error))
        if inner.get("name") != name or inner.get("version") != version:
            return bad("package/package.json names another package or version")
        with LOCK:
            packument = PACKAGES.setdefault(name, {"name": name, "dist-tags": {}, "versions": {}, "time": {}})
            if version in packument["versions"]:
                return 403, {"error": "You cannot publish over the previously published versions: " + version + "."}
            stored = dict(manifest)
            stored["dist"] = dict(dist)
            path = "/" + name + "/-/" + unscoped(name) + "-" + version + ".tgz"
            stored["dist"]["tarball"] = "http://127.0.0.1:%d%s" % (self.server.server_address[1], path)
            TARBALLS[path] = data
            packument["versions"][version] = stored
            packument["dist-tags"].update(tags)
            packument["time"][version] = "2026-01-01T00:00:00.000Z"
        return 200, {"ok": True, "id": name}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--token", required=True)
    arguments = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.token = arguments.token
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print("PORT %d" % server.server_address[1], flush=True)
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
