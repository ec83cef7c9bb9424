#!/usr/bin/env python3
"""A strict stand-in for Gitea's (and Forgejo's) API v1 for releases and attachments, for relctl's tests.

Written from the documentation: docs.gitea.com "API Usage" (https://docs.gitea.com/development/api-usage:
`Authorization: token ...`, MAX_RESPONSE_ITEMS 50), Gitea's swagger (https://gitea.com/api/swagger,
operations repoListReleases, repoCreateRelease, repoGetRelease, repoEditRelease,
repoListReleaseAttachments, repoCreateReleaseAttachment, repoDeleteReleaseAttachment, repoGetTag;
models Release, Attachment, Tag, APIError) and Forgejo's (https://codeberg.org/api/swagger, the same
operations). It is not Gitea: state in memory, 127.0.0.1 only, one test's lifetime.

What it enforces like Gitea:
  - Authorization: token TOKEN (or Bearer) on every API request; 401 for a wrong token; the
    repository is private, so without a token it is 404, as Gitea hides private repositories.
  - GET .../releases lists drafts (the token can write), newest first, paginated by page/limit
    (limit capped at MAX_RESPONSE_ITEMS, 50), with Link (rel="next") and X-Total-Count.
  - POST .../releases: 201; 409 Conflict when the tag already has a release (draft or not: Gitea
    keeps one release per tag); 422 without tag_name.
  - PATCH .../releases/{id}: 200; draft=false publishes (the snapshot of the attachments is logged).
  - POST .../releases/{id}/assets?name=N: multipart/form-data with the file in the field
    `attachment` (400 without it); the attachment exists only once the whole body arrived; two
    uploads of one name make two attachments (nothing in the API forbids it).
  - Attachments carry no digest (swagger model Attachment: id, name, size, download_count,
    created_at, uuid, browser_download_url); GET /attachments/{uuid} serves the bytes.
  - GET .../tags/{tag}: the tags given with --tag NAME[=SHA] or in --git-dir, else 404.

Test-only endpoints (no auth), under /_standin/: log, state, faults, reset, seed (see forge_standin.py).
Usage: gitea_standin.py --token T --repo OWNER/REPO [--tag NAME[=SHA]] [--git-dir DIR]
"""

import argparse
import hashlib
import json
import subprocess
import sys
import time
import os
import urllib.parse
import uuid

# No __pycache__ beside the sources: SwiftPM would see files it does not handle.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from forge_standin import BaseHandler, Store, lock, parse_options, serve  # noqa: E402
import pulls_standin  # noqa: E402

SWAGGER = "https://gitea.com/api/swagger"
MAX_RESPONSE_ITEMS = 50
store = Store()
pulls = pulls_standin.Pulls()
options = None


def now_iso():
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def fresh():
    store.data.update({"next_release": 1, "next_asset": 1, "releases": [], "tags": dict(options.tags)})


def attachment_json(asset, host):
    return {"id": asset["id"], "name": asset["name"], "size": asset["size"], "download_count": 0,
            "created_at": asset["created_at"], "uuid": asset["uuid"], "type": "attachment",
            "browser_download_url": f"http://{host}/attachments/{asset['uuid']}"}


def release_json(release, host):
    repo = options.repo
    base = f"http://{host}{options.prefix}/repos/{repo}"
    return {
        "id": release["id"], "tag_name": release["tag_name"], "target_commitish": "main",
        "name": release.get("name") or "", "body": release.get("body") or "",
        "url": f"{base}/releases/{release['id']}", "html_url": f"http://{host}/{repo}/releases/tag/{release['tag_name']}",
        "tarball_url": f"http://{host}/{repo}/archive/{release['tag_name']}.tar.gz",
        "zipball_url": f"http://{host}/{repo}/archive/{release['tag_name']}.zip",
        "upload_url": f"{base}/releases/{release['id']}/assets",
        "draft": release["draft"], "prerelease": release["prerelease"],
        "created_at": release["created_at"], "published_at": release.get("published_at") or release["created_at"],
        "author": {"id": 1, "login": repo.split("/")[0]},
        "assets": [attachment_json(a, host) for a in release["assets"]],
    }


class Handler(BaseHandler):
    server_version = "Gitea-standin"
    store = store
    pulls = pulls

    def authorized(self):
        value = self.headers.get("Authorization", "")
        return any(value == f"{scheme} {options.token}" for scheme in ("token", "Bearer"))

    def error(self, status, message, close=False, **extra):
        # swagger APIError: {"message", "url"}
        self.send_json(status, {"message": message, "url": SWAGGER}, close=close, kind=self.kind, name=self.name, **extra)

    def server_error_body(self):
        return {"message": "Internal Server Error", "url": SWAGGER}

    def rate_limit_body(self):
        return {"message": "Too Many Requests"}

    def rate_limit_headers(self, seconds):
        return {"Retry-After": str(seconds)}

    def after_reset(self):
        with lock:
            fresh()

    def state_json(self):
        return [dict(release_json(r, self.host()), assets=[
            {"id": a["id"], "name": a["name"], "size": a["size"], "sha256": a["sha256"]} for a in r["assets"]])
            for r in store.data["releases"]]

    def seed(self, seed):
        with lock:
            release = self.new_release(seed)
            for asset in seed.get("assets", []):
                import base64
                release["assets"].append(self.new_asset(asset["name"], base64.b64decode(asset.get("data", ""))))
            return release_json(release, self.host())

    def new_release(self, fields):
        data = store.data
        release = {"id": data["next_release"], "tag_name": fields["tag_name"], "name": fields.get("name"),
                   "body": fields.get("body"), "draft": bool(fields.get("draft", False)),
                   "prerelease": bool(fields.get("prerelease", False)), "created_at": now_iso(), "assets": []}
        data["next_release"] += 1
        data["releases"].append(release)
        return release

    def new_asset(self, name, content):
        data = store.data
        asset = {"id": data["next_asset"], "name": name, "size": len(content), "uuid": str(uuid.uuid4()),
                 "sha256": hashlib.sha256(content).hexdigest(), "content": content, "created_at": now_iso()}
        data["next_asset"] += 1
        return asset

    def endless_item(self, number):
        return release_json({"id": 100000 + number, "tag_name": f"unrelated-{number}", "draft": False,
                             "prerelease": False, "created_at": now_iso(), "assets": []}, self.host())

    def next_page_headers(self, page):
        url = f"http://{self.host()}{self.parsed.path}"
        return {"Link": f'<{url}?limit=50&page={page + 1}>; rel="next"'}

    # -- classification and routing -----------------------------------------------------------

    def parts(self):
        path = self.parsed.path
        prefix = options.prefix + "/repos/"
        if not path.startswith(prefix):
            return None
        return [urllib.parse.unquote(p) for p in path[len(prefix):].split("/")]

    def classify(self):
        if self.parsed.path.startswith("/attachments/"):
            return "download", None
        parts = self.parts()
        if not parts or len(parts) < 3:
            return "other", None
        rest = parts[2:]
        query = urllib.parse.parse_qs(self.parsed.query)
        pull_kind = pulls_standin.classify(self.command, rest, "pulls")
        if pull_kind:
            return pull_kind, None
        if rest[0] == "tags":
            return "tag", None
        if rest == ["releases"]:
            return ("create" if self.command == "POST" else "list"), None
        if len(rest) == 3 and rest[2] == "assets":
            return ("upload" if self.command == "POST" else "assets"), (query.get("name") or [None])[0]
        if len(rest) == 4 and rest[2] == "assets" and self.command == "DELETE":
            return "delete", None
        if len(rest) == 2 and self.command == "PATCH":
            return "patch", None
        return "other", None

    def streams_body(self):
        return self.kind == "upload"

    def route(self):
        if self.kind == "download":
            return self.download()
        parts = self.parts()
        if parts is None or len(parts) < 3:
            close = self.drain()
            return self.error(404, "Not Found", close=close)
        if not self.authorized():
            close = self.drain()
            if self.headers.get("Authorization"):
                return self.error(401, "user does not exist [uid: 0, name: ]", close=close)
            return self.error(404, "The target couldn't be found.", close=close)
        if "/".join(parts[:2]) != options.repo:
            close = self.drain()
            return self.error(404, "The target couldn't be found.", close=close)
        rest = parts[2:]
        method = self.command
        if rest[0] == "pulls":
            fields = self.read_json() if method in ("POST", "PATCH") else None
            query = urllib.parse.parse_qs(self.parsed.query)
            answer = pulls_standin.gitea(pulls, method, rest, query, fields, options.repo, self.host(), options.prefix)
            if answer is not None:
                return self.answer_pulls(answer, fields)
        if rest[0] == "tags" and len(rest) >= 2 and method == "GET":
            return self.tag("/".join(rest[1:]))
        if rest == ["releases"] and method == "GET":
            return self.list_releases()
        if rest == ["releases"] and method == "POST":
            return self.create_release()
        if len(rest) == 2 and rest[0] == "releases" and method in ("GET", "PATCH", "DELETE"):
            return self.release(rest[1])
        if len(rest) == 3 and rest[0] == "releases" and rest[2] == "assets":
            if method == "GET":
                return self.list_assets(rest[1])
            if method == "POST":
                return self.upload(rest[1])
        if len(rest) == 4 and rest[0] == "releases" and rest[2] == "assets" and method == "DELETE":
            return self.delete_asset(rest[1], rest[3])
        close = self.drain()
        return self.error(404, "Not Found", close=close)

    # -- endpoints ------------------------------------------------------------------------------

    def tag(self, name):
        with lock:
            sha = store.data["tags"].get(name)
        if sha is None and options.git_dir:
            found = subprocess.run(["git", "--git-dir", options.git_dir, "rev-parse", "--verify", "-q", f"refs/tags/{name}"],
                                   capture_output=True, text=True)
            sha = found.stdout.strip() if found.returncode == 0 else None
        if sha is None:
            return self.error(404, "The target couldn't be found.")
        self.send_json(200, {"name": name, "message": "", "id": sha, "commit": {"sha": sha, "url": ""},
                             "zipball_url": "", "tarball_url": ""}, kind="tag")

    def find(self, release_id):
        for release in store.data["releases"]:
            if str(release["id"]) == str(release_id):
                return release
        return None

    def list_releases(self):
        query = urllib.parse.parse_qs(self.parsed.query)
        try:
            page = max(1, int((query.get("page") or ["1"])[0]))
            limit = int((query.get("limit") or [str(MAX_RESPONSE_ITEMS)])[0])
        except ValueError:
            return self.error(422, "invalid page or limit")
        limit = MAX_RESPONSE_ITEMS if limit <= 0 else min(limit, MAX_RESPONSE_ITEMS)
        with lock:
            releases = sorted(store.data["releases"], key=lambda r: -r["id"])
            body = [release_json(r, self.host()) for r in releases]
        chunk = body[(page - 1) * limit: page * limit]
        headers = {"X-Total-Count": str(len(body))}
        if page * limit < len(body):
            url = f"http://{self.host()}{self.parsed.path}"
            headers["Link"] = f'<{url}?limit={limit}&page={page + 1}>; rel="next"'
        self.send_json(200, chunk, headers=headers)

    def create_release(self):
        fields = self.read_json()
        if not isinstance(fields, dict) or not fields.get("tag_name"):
            return self.error(422, "[TagName]: Required")
        with lock:
            if any(r["tag_name"] == fields["tag_name"] for r in store.data["releases"]):
                return self.error(409, "Release is has no Tag")
            release = self.new_release(fields)
            body = release_json(release, self.host())
        self.send_json(201, body, draft=release["draft"])

    def release(self, release_id):
        with lock:
            release = self.find(release_id)
        if release is None:
            close = self.drain()
            return self.error(404, "The target couldn't be found.", close=close)
        if self.command == "GET":
            return self.send_json(200, release_json(release, self.host()))
        if self.command == "DELETE":
            with lock:
                store.data["releases"].remove(release)
            return self.send_json(204, None)
        fields = self.read_json()
        if not isinstance(fields, dict):
            return self.error(422, "invalid JSON")
        with lock:
            publishing = release["draft"] and fields.get("draft") is False
            for key in ("tag_name", "name", "body", "draft", "prerelease"):
                if key in fields:
                    release[key] = fields[key]
            if publishing:
                release["published_at"] = now_iso()
            snapshot = [{"name": a["name"], "size": a["size"], "sha256": a["sha256"]} for a in release["assets"]]
            body = release_json(release, self.host())
        self.send_json(200, body, published=publishing, assets_at_publish=snapshot if publishing else None)

    def list_assets(self, release_id):
        with lock:
            release = self.find(release_id)
            body = [attachment_json(a, self.host()) for a in release["assets"]] if release else None
        if body is None:
            return self.error(404, "The target couldn't be found.")
        self.send_json(200, body)

    def delete_asset(self, release_id, asset_id):
        with lock:
            release = self.find(release_id)
            asset = next((a for a in (release or {}).get("assets", []) if str(a["id"]) == asset_id), None)
            if asset is None:
                return self.error(404, "The target couldn't be found.")
            release["assets"].remove(asset)
        self.send_json(204, None, name=asset["name"])

    def upload(self, release_id):
        name = self.name
        length = self.headers.get("Content-Length")
        if length is None:
            return self.error(411, "Length Required", close=True)
        content_type = self.headers.get("Content-Type", "")
        if not content_type.startswith("multipart/form-data") or "boundary=" not in content_type:
            close = self.drain()
            return self.error(400, "attachment is required", close=close)
        boundary = content_type.split("boundary=", 1)[1].strip().strip('"').encode()
        with lock:
            release = self.find(release_id)
        if release is None:
            close = self.drain()
            return self.error(404, "The target couldn't be found.", close=close)
        chunks = []
        if not self.read_stream(int(length), self.fault, name, chunks.append):
            return
        body = b"".join(chunks)
        content, filename = self.parse_multipart(body, boundary)
        if content is None:
            return self.error(400, "attachment is required")
        with lock:
            asset = self.new_asset(name or filename, content)
            release["assets"].append(asset)
            answer = attachment_json(asset, self.host())
        self.send_json(201, answer, bytes=len(content))

    @staticmethod
    def parse_multipart(body, boundary):
        """The `attachment` part's bytes and file name (RFC 7578), or (None, None)."""
        delimiter = b"--" + boundary
        for part in body.split(delimiter)[1:]:
            if part.startswith(b"--"):
                break
            head, _, rest = part.partition(b"\r\n\r\n")
            headers = head.decode("utf-8", "replace").lower()
            if 'name="attachment"' not in headers:
                continue
            if not rest.endswith(b"\r\n"):
                return None, None
            filename = None
            for line in head.decode("utf-8", "replace").split("\r\n"):
                if "filename=" in line:
                    filename = line.split("filename=", 1)[1].strip().strip('"')
            return rest[:-2], filename
        return None, None

    def download(self):
        wanted = self.parsed.path[len("/attachments/"):]
        with lock:
            for release in store.data["releases"]:
                for asset in release["assets"]:
                    if asset["uuid"] == wanted:
                        return self.send_body(200, asset["content"], content_type="application/octet-stream",
                                              kind="download", name=asset["name"])
        self.error(404, "The target couldn't be found.")


def main():
    global options
    parser = argparse.ArgumentParser()
    parser.add_argument("--token", required=True)
    parser.add_argument("--repo", required=True)
    options = parse_options(parser, "/api/v1")
    pulls.git_dir = options.git_dir
    fresh()
    serve(Handler)


if __name__ == "__main__":
    main()
