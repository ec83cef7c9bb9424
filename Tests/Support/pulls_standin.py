"""Pull requests (GitLab: merge requests) for the forge stand-ins, each in its forge's own shape.

Written from the official REST documentation:
  GitHub  "REST API endpoints for pull requests" (https://docs.github.com/rest/pulls/pulls):
          GET /repos/{owner}/{repo}/pulls with state (open|closed|all, default open), head
          (`user:ref-name`), base, per_page (max 100), page, and a Link header; POST …/pulls with
          title, head, base (required) and body: 201, or 422 "Validation Failed" when the head is no
          branch or an open pull request already exists for the head; GET/PATCH …/pulls/{number}
          (title, body, state open|closed, base): 200.
  GitLab  "Merge requests API" (https://docs.gitlab.com/api/merge_requests/):
          GET /projects/:id/merge_requests with state (opened|closed|locked|merged|all),
          source_branch, target_branch, page, per_page (max 100) and X-Next-Page/X-Page/X-Total;
          POST /projects/:id/merge_requests with source_branch, target_branch, title (required) and
          description: 201, or 409 when an open merge request exists for the source branch;
          GET/PUT /projects/:id/merge_requests/:merge_request_iid (title, description,
          state_event close|reopen): 200.
  Gitea   swagger (https://gitea.com/api/swagger#/repository): GET /repos/{owner}/{repo}/pulls with
          state (open|closed|all), page, limit (at most MAX_RESPONSE_ITEMS, 50) and a Link header
          plus X-Total-Count, no head filter; POST …/pulls with head, base, title, body: 201, or 409
          when an open pull request exists for head and base; GET …/pulls/{index}: 200;
          PATCH …/pulls/{index} (title, body, state open|closed): 201.
A head must be a branch of the repository (the bare repository given with --git-dir, when any).
A request from a fork carries the fork's identity as each forge reports it: GitHub `head.repo`
(another `full_name` and `id`, `fork: true`) and `head.label` `OWNER:BRANCH`; GitLab
`source_project_id` other than `target_project_id`; Gitea `head.repo_id`/`head.repo` other than
`base.repo_id`/`base.repo`. A fork's branch is not a branch of the repository, and an open request
from it never blocks one from the repository's own branch of the same name.
Test control: GET /_standin/pulls lists every request; POST /_standin/pulls with
{"unrelated": N} opens N requests from other branches, {"merge": NUMBER} marks one merged,
{"fork": {"owner": O, "head": H, "base": B, "title": T, "body": D}} opens one from O's fork.
"""

import subprocess
import threading
import time
import urllib.parse

lock = threading.RLock()


def now_iso():
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class Pulls:
    def __init__(self, git_dir=None):
        self.git_dir = git_dir
        self.reset()

    def reset(self):
        with lock:
            self.items = []
            self.next_number = 1

    def branch_sha(self, branch):
        if not self.git_dir:
            return "0" * 40
        found = subprocess.run(["git", "--git-dir", self.git_dir, "rev-parse", "--verify", "-q", f"refs/heads/{branch}"],
                               capture_output=True, text=True)
        return found.stdout.strip() if found.returncode == 0 else None

    def add(self, head, base, title, body, sha, fork=None):
        with lock:
            item = {"number": self.next_number, "id": 1000 + self.next_number, "head": head, "base": base,
                    "title": title, "body": body or "", "state": "open", "merged": False, "sha": sha,
                    "created_at": now_iso(), "updated_at": now_iso(), "edits": 0, "fork": fork}
            self.next_number += 1
            self.items.append(item)
            return item

    def find(self, number):
        with lock:
            return next((p for p in self.items if str(p["number"]) == str(number)), None)

    def open_for(self, head, base=None, fork=None):
        """Open requests from `head` of the repository itself (or of the fork `fork`)."""
        with lock:
            return [p for p in self.items if p["state"] == "open" and p["head"] == head
                    and p.get("fork") == fork and (base is None or p["base"] == base)]

    def control(self, seed):
        with lock:
            for n in range(int(seed.get("unrelated", 0))):
                self.add(f"feature/unrelated-{self.next_number}", "main", f"Unrelated change {n}", "", "0" * 40)
            if "fork" in seed:
                f = seed["fork"]
                self.add(f["head"], f.get("base", "main"), f.get("title", "From a fork"), f.get("body", ""),
                         "f" * 40, fork=f.get("owner", "mallory"))
            if "merge" in seed:
                item = self.find(seed["merge"])
                if item:
                    item.update(state="closed", merged=True)
            return self.items


def page_of(items, query, default, maximum):
    try:
        page = max(1, int((query.get("page") or ["1"])[0]))
        size = max(1, min(maximum, int((query.get("per_page") or query.get("limit") or [str(default)])[0])))
    except ValueError:
        return None, None, None, None
    pages = max(1, (len(items) + size - 1) // size)
    return items[(page - 1) * size: page * size], page, pages, size


def link_header(host, path, query, page, pages, size_key):
    def link(number, rel):
        q = dict((k, v[0]) for k, v in query.items())
        q["page"] = str(number)
        return f'<http://{host}{path}?{urllib.parse.urlencode(sorted(q.items()))}>; rel="{rel}"'
    links = []
    if page < pages:
        links += [link(page + 1, "next"), link(pages, "last")]
    if page > 1:
        links += [link(1, "first"), link(page - 1, "prev")]
    return ", ".join(links)


# -- GitHub ---------------------------------------------------------------------------------------

REPOSITORY_ID = 4242
FORK_ID = 7777


def head_owner(p, repo):
    return p.get("fork") or repo.split("/")[0]


def github_json(p, repo, host, prefix):
    owner = repo.split("/")[0]
    state = "closed" if p["state"] != "open" else "open"
    name = repo.split("/")[-1]
    base_repo = {"id": REPOSITORY_ID, "full_name": repo, "fork": False}
    head_repo = ({"id": FORK_ID, "full_name": f"{p['fork']}/{name}", "fork": True} if p.get("fork") else base_repo)
    return {"url": f"http://{host}{prefix}/repos/{repo}/pulls/{p['number']}", "id": p["id"], "number": p["number"],
            "html_url": f"http://{host}/{repo}/pull/{p['number']}", "state": state, "title": p["title"],
            "body": p["body"], "merged_at": p["updated_at"] if p["merged"] else None,
            "head": {"label": f"{head_owner(p, repo)}:{p['head']}", "ref": p["head"], "sha": p["sha"],
                     "repo": head_repo},
            "base": {"label": f"{owner}:{p['base']}", "ref": p["base"], "repo": base_repo},
            "created_at": p["created_at"], "updated_at": p["updated_at"]}


def github(pulls, method, rest, query, fields, repo, host, prefix):
    """(status, body, headers) for a /repos/{owner}/{repo}/pulls… request, or None when it is none."""
    if rest == ["pulls"] and method == "GET":
        state = (query.get("state") or ["open"])[0]
        if state not in ("open", "closed", "all"):
            return 422, {"message": "Validation Failed", "errors": [{"resource": "PullRequest", "field": "state",
                                                                     "code": "invalid"}]}, {}
        head = (query.get("head") or [None])[0]
        owner = repo.split("/")[0]
        if head is not None and ":" not in head:
            # Documented form is user:ref-name; a bare branch name matches nothing.
            return 200, [], {}
        with lock:
            items = [p for p in pulls.items if state == "all" or (p["state"] == "open") == (state == "open")]
            if head is not None:
                user, _, branch = head.partition(":")
                items = [p for p in items if user == head_owner(p, repo) and p["head"] == branch]
            base = (query.get("base") or [None])[0]
            if base is not None:
                items = [p for p in items if p["base"] == base]
            chunk, page, pages, _ = page_of(items, query, 30, 100)
            body = [github_json(p, repo, host, prefix) for p in chunk or []]
        headers = {}
        links = link_header(host, f"{prefix}/repos/{repo}/pulls", query, page or 1, pages or 1, "per_page")
        if links:
            headers["Link"] = links
        return 200, body, headers
    if rest == ["pulls"] and method == "POST":
        if not isinstance(fields, dict) or any(not isinstance(fields.get(k), str) or not fields.get(k)
                                               for k in ("title", "head", "base")):
            return 422, {"message": "Validation Failed", "errors": [{"resource": "PullRequest", "code": "missing_field",
                                                                     "field": "title, head and base"}]}, {}
        user, _, head = fields["head"].rpartition(":")
        if user and user != repo.split("/")[0]:
            return 422, {"message": "Validation Failed", "errors": [{"resource": "PullRequest", "field": "head",
                                                                     "code": "invalid"}]}, {}
        sha = pulls.branch_sha(head)
        if sha is None:
            return 422, {"message": "Validation Failed", "errors": [{"resource": "PullRequest", "field": "head",
                                                                     "code": "invalid"}]}, {}
        if pulls.branch_sha(fields["base"]) is None:
            return 422, {"message": "Validation Failed", "errors": [{"resource": "PullRequest", "field": "base",
                                                                     "code": "invalid"}]}, {}
        if pulls.open_for(head, fields["base"]):
            owner = repo.split("/")[0]
            return 422, {"message": "Validation Failed", "errors": [{"resource": "PullRequest", "code": "custom",
                         "message": f"A pull request already exists for {owner}:{head}."}]}, {}
        p = pulls.add(head, fields["base"], fields["title"], fields.get("body"), sha)
        return 201, github_json(p, repo, host, prefix), {}
    if len(rest) == 2 and rest[0] == "pulls" and method in ("GET", "PATCH"):
        p = pulls.find(rest[1])
        if p is None:
            return 404, {"message": "Not Found"}, {}
        if method == "PATCH":
            if not isinstance(fields, dict):
                return 400, {"message": "Problems parsing JSON"}, {}
            if fields.get("state") not in (None, "open", "closed"):
                return 422, {"message": "Validation Failed", "errors": [{"resource": "PullRequest", "field": "state",
                                                                         "code": "invalid"}]}, {}
            with lock:
                for key in ("title", "body"):
                    if key in fields:
                        p[key] = fields[key]
                if fields.get("state") and not p["merged"]:
                    p["state"] = fields["state"]
                p["edits"] += 1
                p["updated_at"] = now_iso()
        return 200, github_json(p, repo, host, prefix), {}
    return None


# -- GitLab ---------------------------------------------------------------------------------------

def gitlab_json(p, project, host):
    state = {"open": "opened"}.get(p["state"], "merged" if p["merged"] else "closed")
    return {"id": p["id"], "iid": p["number"], "project_id": 42, "title": p["title"], "description": p["body"],
            "state": state, "source_branch": p["head"], "target_branch": p["base"], "sha": p["sha"],
            "source_project_id": 77 if p.get("fork") else 42, "target_project_id": 42,
            "web_url": f"http://{host}/{project}/-/merge_requests/{p['number']}",
            "created_at": p["created_at"], "updated_at": p["updated_at"]}


def gitlab(pulls, method, rest, query, fields, project, host):
    if rest == ["merge_requests"] and method == "GET":
        state = (query.get("state") or ["all"])[0]
        if state not in ("opened", "closed", "locked", "merged", "all"):
            return 400, {"error": "state does not have a valid value"}, {}
        source = (query.get("source_branch") or [None])[0]
        target = (query.get("target_branch") or [None])[0]
        with lock:
            items = [p for p in pulls.items if state == "all" or gitlab_json(p, project, host)["state"] == state]
            items = [p for p in items if (source is None or p["head"] == source) and (target is None or p["base"] == target)]
            items.sort(key=lambda p: -p["number"])  # created_at desc, GitLab's default order
            chunk, page, pages, size = page_of(items, query, 20, 100)
            if chunk is None:
                return 400, {"error": "page is invalid"}, {}
            body = [gitlab_json(p, project, host) for p in chunk]
        headers = {"X-Page": str(page), "X-Per-Page": str(size), "X-Total": str(len(items)),
                   "X-Total-Pages": str(pages), "X-Next-Page": str(page + 1) if page < pages else "",
                   "X-Prev-Page": str(page - 1) if page > 1 else ""}
        return 200, body, headers
    if rest == ["merge_requests"] and method == "POST":
        if not isinstance(fields, dict) or any(not isinstance(fields.get(k), str) or not fields.get(k)
                                               for k in ("source_branch", "target_branch", "title")):
            return 400, {"error": "source_branch, target_branch, title are missing"}, {}
        sha = pulls.branch_sha(fields["source_branch"])
        if sha is None or pulls.branch_sha(fields["target_branch"]) is None:
            return 422, {"message": ["Source branch or target branch does not exist"]}, {}
        existing = pulls.open_for(fields["source_branch"], fields["target_branch"])
        if existing:
            return 409, {"message": [f"Another open merge request already exists for this source branch: !{existing[0]['number']}"]}, {}
        p = pulls.add(fields["source_branch"], fields["target_branch"], fields["title"], fields.get("description"), sha)
        return 201, gitlab_json(p, project, host), {}
    if len(rest) == 2 and rest[0] == "merge_requests" and method in ("GET", "PUT"):
        p = pulls.find(rest[1])
        if p is None:
            return 404, {"message": "404 Not found"}, {}
        if method == "PUT":
            if not isinstance(fields, dict) or not fields:
                return 400, {"error": "title, description, state_event… are missing, at least one parameter must be provided"}, {}
            if fields.get("state_event") not in (None, "close", "reopen"):
                return 400, {"error": "state_event does not have a valid value"}, {}
            with lock:
                if "title" in fields:
                    p["title"] = fields["title"]
                if "description" in fields:
                    p["body"] = fields["description"]
                if fields.get("state_event") and not p["merged"]:
                    p["state"] = "closed" if fields["state_event"] == "close" else "open"
                p["edits"] += 1
                p["updated_at"] = now_iso()
        return 200, gitlab_json(p, project, host), {}
    return None


# -- Gitea / Forgejo ------------------------------------------------------------------------------

def gitea_json(p, repo, host):
    name = repo.split("/")[-1]
    base_repo = {"id": REPOSITORY_ID, "full_name": repo, "fork": False}
    head_repo = ({"id": FORK_ID, "full_name": f"{p['fork']}/{name}", "fork": True} if p.get("fork") else base_repo)
    return {"id": p["id"], "number": p["number"], "title": p["title"], "body": p["body"],
            "state": "open" if p["state"] == "open" else "closed", "merged": p["merged"],
            "html_url": f"http://{host}/{repo}/pulls/{p['number']}",
            "head": {"label": f"{p['fork']}:{p['head']}" if p.get("fork") else p["head"], "ref": p["head"],
                     "sha": p["sha"], "repo_id": head_repo["id"], "repo": head_repo},
            "base": {"label": p["base"], "ref": p["base"], "repo_id": REPOSITORY_ID, "repo": base_repo},
            "created_at": p["created_at"], "updated_at": p["updated_at"]}


def gitea(pulls, method, rest, query, fields, repo, host, prefix):
    if rest == ["pulls"] and method == "GET":
        state = (query.get("state") or ["open"])[0]
        if state not in ("open", "closed", "all"):
            return 422, {"message": "invalid state"}, {}
        if "per_page" in query:
            # Gitea pages with `limit`; `per_page` is not one of its parameters and is ignored.
            query = {k: v for k, v in query.items() if k != "per_page"}
        with lock:
            items = [p for p in pulls.items if state == "all" or (p["state"] == "open") == (state == "open")]
            items.sort(key=lambda p: -p["number"])
            chunk, page, pages, _ = page_of(items, query, 30, 50)
            if chunk is None:
                return 422, {"message": "invalid page"}, {}
            body = [gitea_json(p, repo, host) for p in chunk]
        headers = {"X-Total-Count": str(len(items))}
        links = link_header(host, f"{prefix}/repos/{repo}/pulls", query, page, pages, "limit")
        if links:
            headers["Link"] = links
        return 200, body, headers
    if rest == ["pulls"] and method == "POST":
        if not isinstance(fields, dict) or any(not isinstance(fields.get(k), str) or not fields.get(k)
                                               for k in ("head", "base", "title")):
            return 422, {"message": "head, base and title are required"}, {}
        sha = pulls.branch_sha(fields["head"])
        if sha is None or pulls.branch_sha(fields["base"]) is None:
            return 404, {"message": "The target couldn't be found."}, {}
        if pulls.open_for(fields["head"], fields["base"]):
            return 409, {"message": "pull request already exists for these targets"}, {}
        p = pulls.add(fields["head"], fields["base"], fields["title"], fields.get("body"), sha)
        return 201, gitea_json(p, repo, host), {}
    if len(rest) == 2 and rest[0] == "pulls" and method in ("GET", "PATCH"):
        p = pulls.find(rest[1])
        if p is None:
            return 404, {"message": "The target couldn't be found."}, {}
        if method == "PATCH":
            if not isinstance(fields, dict):
                return 422, {"message": "invalid body"}, {}
            if fields.get("state") not in (None, "open", "closed"):
                return 422, {"message": "invalid state"}, {}
            with lock:
                for key in ("title", "body"):
                    if key in fields:
                        p[key] = fields[key]
                if fields.get("state") and not p["merged"]:
                    p["state"] = fields["state"]
                p["edits"] += 1
                p["updated_at"] = now_iso()
            return 201, gitea_json(p, repo, host), {}
        return 200, gitea_json(p, repo, host), {}
    return None


def classify(method, rest, collection):
    """The fault kind of a pulls request: pulls (list), pull-create, pull-update, pull; else None."""
    if rest == [collection]:
        return "pull-create" if method == "POST" else "pulls"
    if len(rest) == 2 and rest[0] == collection:
        return "pull-update" if method in ("PATCH", "PUT") else "pull"
    return None
