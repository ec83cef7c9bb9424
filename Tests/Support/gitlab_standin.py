#!/usr/bin/env python3
"""A strict stand-in for GitLab's REST API v4 as relctl's GitLab publisher uses it, for relctl's tests.

Written from docs.gitlab.com: "REST API" (https://docs.gitlab.com/api/rest/: namespaced paths as
URL-encoded ids, offset pagination with page/per_page (max 100) and X-Next-Page/X-Page/
X-Per-Page/X-Total/Link headers, status codes), "REST API authentication"
(https://docs.gitlab.com/api/rest/authentication/: PRIVATE-TOKEN and JOB-TOKEN headers, 401 for a
wrong token), "Generic packages repository" (https://docs.gitlab.com/user/packages/generic_packages/:
PUT /projects/:id/packages/generic/:package_name/:package_version/:file_name, select=package_file,
the name/version/file name rules, duplicates kept as separate package files, downloads serve the
newest), "Packages API" (https://docs.gitlab.com/api/packages/: GET /projects/:id/packages with
package_type and package_name (a partial match), GET /projects/:id/packages/:package_id/package_files
with file_sha256), "Releases API" (https://docs.gitlab.com/api/releases/: GET/POST
/projects/:id/releases[/:tag_name], 409 when the release exists, assets.links),
"Release links API" (https://docs.gitlab.com/api/releases/links/: GET/POST
/projects/:id/releases/:tag_name/assets/links, link_type other|runbook|image|package, name and url
unique per release, 400 otherwise), "Tags API" (https://docs.gitlab.com/api/tags/) and "Rate limits"
(https://docs.gitlab.com/security/rate_limits/: 429 with RateLimit-* and Retry-After).
It is not GitLab: state in memory, 127.0.0.1 only, one test's lifetime.

Test-only endpoints (no auth), under /_standin/: log, state, faults, reset, seed (forge_standin.py).
Usage: gitlab_standin.py --token T --job-token J --project GROUP/.../PROJECT [--tag NAME[=SHA]] [--git-dir DIR]
"""

import argparse
import base64
import hashlib
import os
import re
import subprocess
import sys
import time
import urllib.parse

# No __pycache__ beside the sources: SwiftPM would see files it does not handle.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from forge_standin import BaseHandler, Store, lock, parse_options, serve  # noqa: E402
import pulls_standin  # noqa: E402

# "Generic packages repository": the rules a package name, version and file name must follow.
PACKAGE_NAME = re.compile(r"\A[A-Za-z0-9._-]+\Z")
PACKAGE_VERSION = re.compile(r"\A(\.?[\w\+-]+\.?)+\Z")
FILE_NAME = re.compile(r"\A[A-Za-z0-9._~@+-]+\Z")
LINK_TYPES = ("other", "runbook", "image", "package")
PROJECT_ID = 42
store = Store()
pulls = pulls_standin.Pulls()
options = None


def now_iso():
    return time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())


def fresh():
    store.data.update({"next_id": 1, "packages": [], "releases": [], "tags": dict(options.tags)})


def next_id():
    value = store.data["next_id"]
    store.data["next_id"] += 1
    return value


def file_json(f):
    return {"id": f["id"], "package_id": f["package_id"], "created_at": f["created_at"], "file_name": f["file_name"],
            "size": f["size"], "file_md5": None, "file_sha1": None, "file_sha256": f["sha256"], "pipelines": []}


class Handler(BaseHandler):
    server_version = "nginx"
    store = store
    pulls = pulls
    secret_headers = ("PRIVATE-TOKEN", "JOB-TOKEN", "Authorization")

    def authorized(self):
        return (self.headers.get("PRIVATE-TOKEN") == options.token
                or (options.job_token and self.headers.get("JOB-TOKEN") == options.job_token))

    def error(self, status, message, close=False, **extra):
        self.send_json(status, {"message": message}, close=close, kind=self.kind, name=self.name, **extra)

    def server_error_body(self):
        return {"message": "500 Internal Server Error"}

    def rate_limit_body(self):
        return {"message": "Retry later"}

    def rate_limit_headers(self, seconds):
        reset = int(time.time()) + int(seconds)
        return {"Retry-After": str(seconds), "RateLimit-Limit": "600", "RateLimit-Observed": "601",
                "RateLimit-Remaining": "0", "RateLimit-Reset": str(reset),
                "RateLimit-ResetTime": time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(reset))}

    def after_reset(self):
        with lock:
            fresh()

    def state_json(self):
        return {"packages": [{"id": p["id"], "name": p["name"], "version": p["version"],
                              "files": [file_json(f) for f in p["files"]]} for p in store.data["packages"]],
                "releases": [dict(self.release_json(r), snapshot=r.get("snapshot")) for r in store.data["releases"]]}

    def seed(self, seed):
        with lock:
            if "file" in seed:
                content = base64.b64decode(seed.get("data", ""))
                return file_json(self.store_file(seed["package"], seed["version"], seed["file"], content))
            release = {"tag_name": seed["tag_name"], "name": seed.get("name", seed["tag_name"]),
                       "description": seed.get("description", ""), "links": [], "created_at": now_iso()}
            for link in seed.get("links", []):
                release["links"].append(dict(link, id=next_id()))
            store.data["releases"].append(release)
            return self.release_json(release)

    def endless_item(self, number):
        return {"id": 100000 + number, "name": "unrelated", "version": "0.0.0", "package_type": "generic",
                "status": "default", "created_at": now_iso()}

    def next_page_headers(self, page):
        return {"X-Page": str(page), "X-Per-Page": "100", "X-Next-Page": str(page + 1)}

    # -- classification and routing -------------------------------------------------------------

    def rest(self):
        """The path after /projects/:id, when :id names our project (URL-encoded path or numeric id)."""
        path = self.parsed.path  # raw: %2F stays encoded, as GitLab needs it
        prefix = options.prefix + "/projects/"
        if not path.startswith(prefix):
            return None
        remainder = path[len(prefix):]
        raw_id, _, rest = remainder.partition("/")
        if urllib.parse.unquote(raw_id) not in (options.project, str(PROJECT_ID)):
            return None
        return [urllib.parse.unquote(p) for p in rest.split("/")] if rest else []

    def classify(self):
        rest = self.rest()
        if rest is None:
            return "other", None
        pull_kind = pulls_standin.classify(self.command, rest, "merge_requests")
        if pull_kind:
            return pull_kind, None
        if rest[:2] == ["packages", "generic"] and len(rest) == 5:
            return ("upload" if self.command == "PUT" else "download"), rest[4]
        if rest == ["packages"]:
            return "packages", None
        if len(rest) == 3 and rest[0] == "packages" and rest[2] == "package_files":
            return "package_files", None
        if rest[:2] == ["repository", "tags"]:
            return "tag", None
        if rest == ["releases"] and self.command == "POST":
            return "create", None
        if len(rest) >= 2 and rest[0] == "releases" and rest[-2:] == ["assets", "links"]:
            return ("link" if self.command == "POST" else "links"), None
        if len(rest) >= 2 and rest[0] == "releases":
            return "release", None
        return "other", None

    def streams_body(self):
        return self.kind == "upload"

    def route(self):
        if not self.headers.get("PRIVATE-TOKEN") and not self.headers.get("JOB-TOKEN"):
            close = self.drain()
            # A private project is invisible without a token.
            return self.error(404 if self.rest() is not None else 401, "404 Project Not Found" if self.rest() is not None else "401 Unauthorized", close=close)
        if not self.authorized():
            close = self.drain()
            return self.error(401, "401 Unauthorized", close=close)
        rest = self.rest()
        if rest is None:
            close = self.drain()
            return self.error(404, "404 Project Not Found", close=close)
        method = self.command
        if rest and rest[0] == "merge_requests":
            fields = self.read_json() if method in ("POST", "PUT") else None
            query = urllib.parse.parse_qs(self.parsed.query)
            answer = pulls_standin.gitlab(pulls, method, rest, query, fields, options.project, self.host())
            if answer is not None:
                return self.answer_pulls(answer, fields)
        if rest[:2] == ["packages", "generic"] and len(rest) == 5:
            if method == "PUT":
                return self.upload(*rest[2:])
            if method == "GET":
                return self.download(*rest[2:])
        if rest == ["packages"] and method == "GET":
            return self.list_packages()
        if len(rest) == 3 and rest[0] == "packages" and rest[2] == "package_files" and method == "GET":
            return self.list_files(rest[1])
        if len(rest) == 5 and rest[0] == "packages" and rest[2] == "package_files" and method == "DELETE":
            return self.delete_file(rest[1], rest[3])
        if len(rest) >= 3 and rest[:2] == ["repository", "tags"] and method == "GET":
            return self.tag("/".join(rest[2:]))
        if rest == ["releases"] and method == "POST":
            return self.create_release()
        if len(rest) >= 4 and rest[0] == "releases" and rest[-2:] == ["assets", "links"]:
            tag = "/".join(rest[1:-2])
            return self.list_links(tag) if method == "GET" else self.add_link(tag) if method == "POST" else self.error(405, "405 Method Not Allowed")
        if len(rest) >= 2 and rest[0] == "releases" and method == "GET":
            return self.get_release("/".join(rest[1:]))
        close = self.drain()
        return self.error(404, "404 Not Found", close=close)

    # -- helpers --------------------------------------------------------------------------------

    def paginate(self, items):
        query = urllib.parse.parse_qs(self.parsed.query)
        try:
            page = max(1, int((query.get("page") or ["1"])[0]))
            per_page = max(1, min(100, int((query.get("per_page") or ["20"])[0]), options.max_per_page))
        except ValueError:
            return None, None
        pages = max(1, (len(items) + per_page - 1) // per_page)
        headers = {"X-Page": str(page), "X-Per-Page": str(per_page), "X-Total": str(len(items)),
                   "X-Total-Pages": str(pages), "X-Next-Page": str(page + 1) if page < pages else "",
                   "X-Prev-Page": str(page - 1) if page > 1 else ""}
        return items[(page - 1) * per_page: page * per_page], headers

    def find_release(self, tag):
        return next((r for r in store.data["releases"] if r["tag_name"] == tag), None)

    def release_json(self, release):
        host = self.host()
        links = [{"id": l["id"], "name": l["name"], "url": l["url"], "link_type": l["link_type"],
                  "direct_asset_url": f"http://{host}/{options.project}/-/releases/{release['tag_name']}/downloads{l['direct_asset_path']}"
                  if l.get("direct_asset_path") else l["url"]} for l in release["links"]]
        return {"tag_name": release["tag_name"], "name": release["name"], "description": release["description"],
                "created_at": release["created_at"], "released_at": release["created_at"], "upcoming_release": False,
                "assets": {"count": len(links), "sources": [], "links": links},
                "_links": {"self": f"http://{host}/{options.project}/-/releases/{urllib.parse.quote(release['tag_name'], safe='')}"}}

    def store_file(self, name, version, file_name, content):
        package = next((p for p in store.data["packages"] if p["name"] == name and p["version"] == version), None)
        if package is None:
            package = {"id": next_id(), "name": name, "version": version, "files": [], "created_at": now_iso()}
            store.data["packages"].append(package)
        entry = {"id": next_id(), "package_id": package["id"], "file_name": file_name, "size": len(content),
                 "sha256": hashlib.sha256(content).hexdigest(), "content": content, "created_at": now_iso()}
        package["files"].append(entry)
        return entry

    # -- endpoints ------------------------------------------------------------------------------

    def upload(self, name, version, file_name):
        if not PACKAGE_NAME.match(name) or not PACKAGE_VERSION.match(version) or not FILE_NAME.match(file_name):
            close = self.drain()
            return self.error(400, "400 Bad request - package_name, package_version or file_name is invalid", close=close)
        length = self.headers.get("Content-Length")
        if length is None:
            return self.error(411, "411 Length Required", close=True)
        chunks = []
        if not self.read_stream(int(length), self.fault, file_name, chunks.append):
            return  # Workhorse stores nothing of a body cut short.
        content = b"".join(chunks)
        query = urllib.parse.parse_qs(self.parsed.query)
        with lock:
            entry = self.store_file(name, version, file_name, content)
        if (query.get("select") or [""])[0] == "package_file":
            return self.send_json(201, file_json(entry), bytes=len(content))
        self.send_json(201, {"message": "201 Created"}, bytes=len(content))

    def download(self, name, version, file_name):
        with lock:
            files = [f for p in store.data["packages"] if p["name"] == name and p["version"] == version
                     for f in p["files"] if f["file_name"] == file_name]
        if not files:
            return self.error(404, "404 Not Found")
        newest = max(files, key=lambda f: f["id"])
        self.send_body(200, newest["content"], content_type="application/octet-stream")

    def list_packages(self):
        query = urllib.parse.parse_qs(self.parsed.query)
        wanted_type = (query.get("package_type") or [None])[0]
        wanted_name = (query.get("package_name") or [""])[0]
        with lock:
            items = [{"id": p["id"], "name": p["name"], "version": p["version"], "package_type": "generic",
                      "status": "default", "created_at": p["created_at"]}
                     for p in store.data["packages"]
                     if (wanted_type in (None, "generic")) and wanted_name.lower() in p["name"].lower()]
        chunk, headers = self.paginate(items)
        if chunk is None:
            return self.error(400, "400 Bad request - page is invalid")
        self.send_json(200, chunk, headers=headers)

    def list_files(self, package_id):
        with lock:
            package = next((p for p in store.data["packages"] if str(p["id"]) == package_id), None)
            items = [file_json(f) for f in package["files"]] if package else None
        if items is None:
            return self.error(404, "404 Not found")
        chunk, headers = self.paginate(items)
        self.send_json(200, chunk, headers=headers)

    def delete_file(self, package_id, file_id):
        with lock:
            for package in store.data["packages"]:
                if str(package["id"]) == package_id:
                    for f in package["files"]:
                        if str(f["id"]) == file_id:
                            package["files"].remove(f)
                            return self.send_json(204, None)
        self.error(404, "404 Not found")

    def tag(self, name):
        with lock:
            sha = store.data["tags"].get(name)
        if sha is None and options.git_dir:
            found = subprocess.run(["git", "--git-dir", options.git_dir, "rev-parse", "--verify", "-q", f"refs/tags/{name}"],
                                   capture_output=True, text=True)
            sha = found.stdout.strip() if found.returncode == 0 else None
        if sha is None:
            return self.error(404, "404 Tag Not Found")
        self.send_json(200, {"name": name, "message": "", "target": sha, "commit": {"id": sha}, "release": None,
                             "protected": False, "created_at": None})

    def get_release(self, tag):
        with lock:
            release = self.find_release(tag)
            body = self.release_json(release) if release else None
        if body is None:
            return self.error(404, "404 Not Found")
        self.send_json(200, body)

    def check_link(self, link, existing):
        if not isinstance(link, dict) or not link.get("name") or not link.get("url"):
            return "name and url are required"
        if link.get("link_type", "other") not in LINK_TYPES:
            return "link_type does not have a valid value"
        if link.get("direct_asset_path") and not link["direct_asset_path"].startswith("/"):
            return "direct_asset_path is invalid"
        if any(l["name"] == link["name"] for l in existing):
            return {"name": ["has already been taken"]}
        if any(l["url"] == link["url"] for l in existing):
            return {"url": ["has already been taken"]}
        return None

    def create_release(self):
        fields = self.read_json()
        if not isinstance(fields, dict) or not fields.get("tag_name"):
            return self.error(400, "400 Bad request - tag_name is missing")
        with lock:
            if self.find_release(fields["tag_name"]):
                return self.error(409, "Release already exists")
            if fields["tag_name"] not in store.data["tags"] and not fields.get("ref") and not self.tag_in_git(fields["tag_name"]):
                return self.error(422, "Ref is not specified")
            links = []
            for link in (fields.get("assets") or {}).get("links") or []:
                problem = self.check_link(link, links)
                if problem:
                    return self.error(400, problem)
                links.append(dict(link, id=next_id(), link_type=link.get("link_type", "other")))
            newest = {}
            for package in store.data["packages"]:
                for f in package["files"]:
                    if f["file_name"] not in newest or f["id"] > newest[f["file_name"]]["id"]:
                        newest[f["file_name"]] = f
            # What a user could download through each link at the moment the release appeared.
            snapshot = [{"name": l["name"], "sha256": newest[l["name"]]["sha256"] if l["name"] in newest else None}
                        for l in links]
            release = {"tag_name": fields["tag_name"], "name": fields.get("name") or fields["tag_name"],
                       "description": fields.get("description") or "", "links": links, "created_at": now_iso(),
                       "snapshot": snapshot}
            store.data["releases"].append(release)
            body = self.release_json(release)
        self.send_json(201, body, created=True, assets_at_publish=snapshot)

    def tag_in_git(self, name):
        if not options.git_dir:
            return False
        return subprocess.run(["git", "--git-dir", options.git_dir, "rev-parse", "--verify", "-q", f"refs/tags/{name}"],
                              capture_output=True).returncode == 0

    def list_links(self, tag):
        with lock:
            release = self.find_release(tag)
            items = self.release_json(release)["assets"]["links"] if release else None
        if items is None:
            return self.error(404, "404 Not found")
        chunk, headers = self.paginate(items)
        self.send_json(200, chunk, headers=headers)

    def add_link(self, tag):
        link = self.read_json()
        with lock:
            release = self.find_release(tag)
            if release is None:
                return self.error(404, "404 Not found")
            problem = self.check_link(link, release["links"])
            if problem:
                return self.error(400, problem)
            entry = dict(link, id=next_id(), link_type=link.get("link_type", "other"))
            release["links"].append(entry)
        self.send_json(201, {"id": entry["id"], "name": entry["name"], "url": entry["url"],
                             "link_type": entry["link_type"]}, name=entry["name"])


def main():
    global options
    parser = argparse.ArgumentParser()
    parser.add_argument("--token", required=True)
    parser.add_argument("--job-token", default=None)
    parser.add_argument("--project", required=True)
    parser.add_argument("--max-per-page", type=int, default=100)
    options = parse_options(parser, "/api/v4")
    pulls.git_dir = options.git_dir
    fresh()
    serve(Handler)


if __name__ == "__main__":
    main()
