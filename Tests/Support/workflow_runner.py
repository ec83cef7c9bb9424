#!/usr/bin/env python3
"""Runs a GitHub Actions workflow on this machine, as GitHub would for one tag push (or one push
to a branch, --branch), for
relctl's tests of the workflow `relctl ci generate` writes. docs/ci-local-runner.md says what it
emulates and what it does not.

Written from docs.github.com ("Workflow syntax", "Evaluate expressions in workflows and actions",
"Contexts reference", "Store information in variables" (default variables), "Workflow commands"
(GITHUB_ENV, GITHUB_OUTPUT, GITHUB_PATH, GITHUB_STEP_SUMMARY), "Running variations of jobs in a
workflow" (matrix include/exclude)) and the READMEs of actions/checkout, actions/upload-artifact
and actions/download-artifact.

Jobs run one after another in `needs` order, matrix legs one after another; jobs whose `runs-on`
is not a Linux runner are reported skipped (and so are the jobs that need them) unless named by
--run-as-linux. Anything the workflow uses that this file does not emulate (an action, a key, an
expression function, a context property that is not there) stops the run with exit 2 and a line
saying what: a generator that starts using something new cannot pass by being faked.

Usage: workflow_runner.py --workflow FILE --remote GIT_DIR (--tag TAG | --branch NAME) --work DIR
           [--repository OWNER/REPO] [--token T] [--env NAME=VALUE]... [--secret NAME=VALUE]...
           [--run-as-linux LABEL]...
           [--job ID]...
Prints one JSON report on stdout: {"result", "jobs": [{"id", "name", "matrix", "result",
"reason", "outputs", "steps": [{"name", "result"}]}]}. Exit 0 when every job succeeded, 1 when one failed,
was skipped or the tag does not trigger the workflow, 2 when the workflow uses what is not emulated.
"""

import argparse
import fnmatch
import glob
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import uuid

import yaml


class Unsupported(Exception):
    """The workflow uses something this runner does not emulate, or is not valid."""


# ---------------------------------------------------------------------------------------------
# Expressions: ${{ }} as documented ("Evaluate expressions"), for what generated workflows use.

TOKEN = re.compile(
    r"\s*(?:(?P<num>-?\d+(?:\.\d+)?)|(?P<str>'(?:[^']|'')*')|(?P<id>[A-Za-z_][A-Za-z0-9_-]*)"
    r"|(?P<op>==|!=|<=|>=|&&|\|\||[!<>()\[\].,*]))"
)
CONTEXTS = {"github", "env", "matrix", "needs", "steps", "runner", "secrets", "job", "strategy"}
# Missing properties of these are '' on GitHub too and are legitimately absent (unset secrets
# and variables); everywhere else a missing property is a typo, and fails the run.
LENIENT = {"secrets", "env"}


def tokenize(text):
    tokens, position = [], 0
    while position < len(text):
        if text[position:].strip() == "":
            break
        match = TOKEN.match(text, position)
        if not match:
            raise Unsupported(f"expression `{text}`: cannot read it at `{text[position:]}`")
        kind = match.lastgroup
        tokens.append((kind, match.group(kind)))
        position = match.end()
    return tokens


def truthy(value):
    return value not in (None, False, 0, "", 0.0)


def to_text(value):
    if value is None:
        return ""
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (dict, list)):
        return json.dumps(value)
    return str(value)


def loose_equal(left, right):
    if isinstance(left, str) and isinstance(right, str):
        return left.lower() == right.lower()
    if type(left) is type(right):
        return left == right

    def number(value):
        if value is None:
            return 0
        if isinstance(value, bool):
            return int(value)
        if isinstance(value, (int, float)):
            return value
        try:
            return float(value) if str(value).strip() else 0
        except ValueError:
            return float("nan")

    return number(left) == number(right)


class Expression:
    """One expression evaluated against `contexts`; `status` gives success()/failure()."""

    def __init__(self, text, contexts, status):
        self.text, self.contexts, self.status = text, contexts, status
        self.tokens = tokenize(text)
        self.index = 0

    def evaluate(self):
        value = self.either()
        if self.index != len(self.tokens):
            raise Unsupported(f"expression `{self.text}`: unexpected `{self.tokens[self.index][1]}`")
        return value

    def peek(self):
        return self.tokens[self.index] if self.index < len(self.tokens) else (None, None)

    def take(self, expected=None):
        token = self.peek()
        if token[0] is None or (expected and token[1] != expected):
            raise Unsupported(f"expression `{self.text}`: expected `{expected or 'more'}`")
        self.index += 1
        return token

    def either(self):
        value = self.both()
        while self.peek()[1] == "||":
            self.take()
            right = self.both()
            value = value if truthy(value) else right
        return value

    def both(self):
        value = self.equality()
        while self.peek()[1] == "&&":
            self.take()
            right = self.equality()
            value = right if truthy(value) else value
        return value

    def equality(self):
        value = self.unary()
        while self.peek()[1] in ("==", "!=", "<", ">", "<=", ">="):
            operator = self.take()[1]
            right = self.unary()
            if operator in ("==", "!="):
                value = loose_equal(value, right) == (operator == "==")
            else:
                raise Unsupported(f"expression `{self.text}`: comparison `{operator}` is not emulated")
        return value

    def unary(self):
        if self.peek()[1] == "!":
            self.take()
            return not truthy(self.unary())
        return self.postfix()

    def postfix(self):
        value, name = self.primary()
        while self.peek()[1] in (".", "["):
            if self.take()[1] == ".":
                kind, key = self.take()
                if kind != "id":
                    raise Unsupported(f"expression `{self.text}`: `.{key}` is not a property name")
            else:
                key = to_text(self.either())
                self.take("]")
            value, name = self.member(value, key, name)
        return value

    def member(self, value, key, name):
        path = f"{name}.{key}"
        if isinstance(value, dict):
            for candidate in value:  # property names are case-insensitive
                if candidate.lower() == key.lower():
                    return value[candidate], path
        if name.split(".")[0] in LENIENT:
            return None, path
        raise Unsupported(f"expression `{self.text}`: `{path}` does not exist here")

    def primary(self):
        kind, text = self.take()
        if kind == "num":
            return float(text) if "." in text else int(text), text
        if kind == "str":
            return text[1:-1].replace("''", "'"), "string"
        if text == "(":
            value = self.either()
            self.take(")")
            return value, "(...)"
        if kind != "id":
            raise Unsupported(f"expression `{self.text}`: unexpected `{text}`")
        if text in ("true", "false", "null"):
            return {"true": True, "false": False, "null": None}[text], text
        if self.peek()[1] == "(":
            self.take()
            arguments = []
            while self.peek()[1] != ")":
                arguments.append(self.either())
                if self.peek()[1] == ",":
                    self.take()
            self.take(")")
            return self.call(text, arguments), f"{text}()"
        if text not in CONTEXTS:
            raise Unsupported(f"expression `{self.text}`: context `{text}` is not emulated")
        if text not in self.contexts:
            raise Unsupported(f"expression `{self.text}`: context `{text}` is not available here")
        return self.contexts[text], text

    def call(self, name, arguments):
        lower = name.lower()
        if lower in ("success", "failure", "always", "cancelled"):
            return {"success": self.status == "success", "failure": self.status == "failure",
                    "always": True, "cancelled": False}[lower]
        if lower == "fromjson":
            try:
                return json.loads(to_text(arguments[0]))
            except (ValueError, IndexError) as error:
                raise Unsupported(f"expression `{self.text}`: fromJSON of `{arguments[:1]}`: {error}")
        if lower == "tojson":
            return json.dumps(arguments[0], indent=2)
        if lower == "contains":
            haystack, needle = arguments
            if isinstance(haystack, list):
                return any(loose_equal(item, needle) for item in haystack)
            return to_text(needle).lower() in to_text(haystack).lower()
        if lower == "startswith":
            return to_text(arguments[0]).lower().startswith(to_text(arguments[1]).lower())
        if lower == "endswith":
            return to_text(arguments[0]).lower().endswith(to_text(arguments[1]).lower())
        if lower == "format":
            return re.sub(r"\{(\d+)\}", lambda m: to_text(arguments[int(m.group(1)) + 1]), to_text(arguments[0]))
        raise Unsupported(f"expression `{self.text}`: function `{name}` is not emulated")


TEMPLATE = re.compile(r"\$\{\{(.*?)\}\}", re.S)


def expand(value, contexts, status="success"):
    """A workflow value with its ${{ }} evaluated: a lone expression keeps its type."""
    if isinstance(value, dict):
        return {key: expand(item, contexts, status) for key, item in value.items()}
    if isinstance(value, list):
        return [expand(item, contexts, status) for item in value]
    if not isinstance(value, str):
        return value
    lone = TEMPLATE.fullmatch(value.strip())
    if lone:
        return Expression(lone.group(1), contexts, status).evaluate()
    return TEMPLATE.sub(lambda m: to_text(Expression(m.group(1), contexts, status).evaluate()), value)


def condition(text, contexts, status):
    """`if:`: an expression with or without ${{ }}; without a status function it means success() && …"""
    if text is None:
        return status == "success"
    text = str(text).strip()
    lone = TEMPLATE.fullmatch(text)
    if lone:
        text = lone.group(1).strip()
    elif "${{" in text:
        raise Unsupported(f"`if: {text}`: mixes text and ${{{{ }}}}, which GitHub reads as always true")
    if not re.search(r"\b(success|failure|always|cancelled)\s*\(", text):
        text = f"success() && ({text})"
    return truthy(Expression(text, contexts, status).evaluate())


# ---------------------------------------------------------------------------------------------
# The workflow file and its matrix.

TOP_KEYS = {"name", "on", "permissions", "concurrency", "defaults", "env", "jobs", "run-name"}
JOB_KEYS = {"name", "needs", "if", "runs-on", "strategy", "env", "outputs", "permissions", "steps"}
STEP_KEYS = {"name", "id", "if", "run", "uses", "with", "env"}


def check_keys(mapping, allowed, where):
    unknown = sorted(set(mapping) - allowed)
    if unknown:
        raise Unsupported(f"{where}: `{unknown[0]}` is not emulated (known: {', '.join(sorted(allowed))})")


def tag_filter_matches(pattern, tag):
    """A push `tags:` filter ("Filter pattern cheat sheet"): `*`, `**` and `\\` escapes."""
    regex, index = "", 0
    while index < len(pattern):
        char = pattern[index]
        if pattern.startswith("**", index):
            regex, index = regex + ".*", index + 2
            continue
        if char == "*":
            regex += "[^/]*"
        elif char == "\\" and index + 1 < len(pattern):
            index += 1
            regex += re.escape(pattern[index])
        elif char in "?+[]!":
            raise Unsupported(f"tag filter `{pattern}`: `{char}` is not emulated")
        else:
            regex += re.escape(char)
        index += 1
    return re.fullmatch(regex, tag) is not None


def expand_matrix(matrix, where):
    if not isinstance(matrix, dict):
        raise Unsupported(f"{where}: strategy.matrix is {type(matrix).__name__}, not a mapping")
    axes = {key: value for key, value in matrix.items() if key not in ("include", "exclude")}
    for key, values in axes.items():
        if not isinstance(values, list):
            raise Unsupported(f"{where}: matrix axis `{key}` is not a list")
    legs = [dict(zip(axes, values)) for values in itertools.product(*axes.values())] if axes else []
    for excluded in matrix.get("exclude") or []:
        legs = [leg for leg in legs if any(leg.get(k) != v for k, v in excluded.items())]
    originals = [dict(leg) for leg in legs]
    for included in matrix.get("include") or []:
        matched = False
        for leg, original in zip(legs, originals):
            if all(original[k] == v for k, v in included.items() if k in original):
                leg.update({k: v for k, v in included.items() if k not in original})
                matched = True
        if not matched:
            legs.append(dict(included))
    if not legs:
        raise Unsupported(f"{where}: the matrix has no legs (GitHub: \"Matrix vector does not contain any values\")")
    return legs


def job_order(jobs):
    order, done = [], set()
    while len(order) < len(jobs):
        ready = [j for j in jobs if j not in done and all(n in done for n in needs_of(jobs[j], j, jobs))]
        if not ready:
            raise Unsupported("jobs: `needs` has a cycle")
        order.append(ready[0])
        done.add(ready[0])
    return order


def needs_of(job, job_id, jobs):
    needs = job.get("needs") or []
    needs = [needs] if isinstance(needs, str) else needs
    for need in needs:
        if need not in jobs:
            raise Unsupported(f"jobs.{job_id}.needs: no job `{need}`")
    return needs


# ---------------------------------------------------------------------------------------------
# Running.

def read_command_file(path):
    """GITHUB_ENV / GITHUB_OUTPUT: `NAME=value` lines and `NAME<<DELIMITER` blocks."""
    values = {}
    if not os.path.exists(path):
        return values
    lines = open(path, encoding="utf-8").read().split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if not line:
            continue
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            block = []
            while index < len(lines) and lines[index] != delimiter:
                block.append(lines[index])
                index += 1
            if index >= len(lines):
                raise RuntimeError(f"{path}: `{name}<<{delimiter}` is never closed")
            index += 1
            values[name] = "\n".join(block)
        elif "=" in line:
            name, value = line.split("=", 1)
            values[name] = value
        else:
            raise RuntimeError(f"{path}: cannot read line `{line}`")
    return values


def log(text):
    print(text, file=sys.stderr, flush=True)


class Run:
    def __init__(self, options):
        self.options = options
        self.work = os.path.abspath(options.work)
        self.artifacts = os.path.join(self.work, "artifacts")
        os.makedirs(self.artifacts, exist_ok=True)
        # A tag push, or (--branch) a push to a branch: what GitHub sets for either.
        self.kind, self.name = ("branch", options.branch) if options.branch else ("tag", options.tag)
        self.ref = f"refs/heads/{self.name}" if options.branch else f"refs/tags/{self.name}"
        found = subprocess.run(["git", "-C", options.remote, "rev-parse", "--verify", "-q",
                                f"{self.ref}^{{commit}}"], capture_output=True, text=True)
        if found.returncode != 0:
            raise Unsupported(f"{options.remote} holds no {self.ref}: push it first")
        self.sha = found.stdout.strip()
        self.run_id = str(int.from_bytes(os.urandom(4), "big"))
        self.extra_env = dict(item.split("=", 1) for item in options.env)
        # The repository's secrets: the job's token and what --secret adds (unset ones read as '').
        self.secrets = {"GITHUB_TOKEN": options.token, **dict(item.split("=", 1) for item in options.secret)}
        # The runner's own environment, without anything a real runner would set itself.
        self.host_env = {k: v for k, v in os.environ.items()
                         if not k.startswith(("GITHUB_", "RUNNER_")) and k not in ("CI",)}
        self.shims = os.path.join(self.work, "shims")
        os.makedirs(self.shims, exist_ok=True)
        if shutil.which("sudo") is None and os.geteuid() == 0:
            # GitHub's runners have passwordless sudo; as root here, sudo only needs to run the command.
            with open(os.path.join(self.shims, "sudo"), "w") as shim:
                shim.write('#!/bin/sh\nwhile [ "${1#-}" != "$1" ]; do shift; done\nexec "$@"\n')
            os.chmod(os.path.join(self.shims, "sudo"), 0o755)

    def github(self, job_id):
        repository = self.options.repository
        return {
            "ref": self.ref, "ref_name": self.name, "ref_type": self.kind, "sha": self.sha,
            "repository": repository, "repository_owner": repository.split("/")[0],
            "event_name": "push", "run_id": self.run_id, "run_number": "1", "run_attempt": "1",
            "actor": "relctl-test", "job": job_id, "token": self.options.token,
            "server_url": "https://github.com", "api_url": self.extra_env.get("GITHUB_API_URL", "https://api.github.com"),
            "workflow": self.workflow.get("name", ""), "workspace": "",
        }

    def main(self):
        self.workflow = yaml.safe_load(open(self.options.workflow, encoding="utf-8"))
        check_keys(self.workflow, TOP_KEYS | {True}, "workflow")
        trigger = self.workflow.get("on", self.workflow.get(True))
        filters = "branches" if self.kind == "branch" else "tags"
        if not isinstance(trigger, dict) or set(trigger) != {"push"} or set(trigger["push"] or {}) != {filters}:
            raise Unsupported(f"on: only `push: {filters}:` is emulated for a {self.kind} push, found {json.dumps(trigger)}")
        if not any(tag_filter_matches(p, self.name) for p in trigger["push"][filters]):
            return {"result": "not-triggered", "jobs": []}
        defaults = (self.workflow.get("defaults") or {}).get("run") or {}
        check_keys(defaults, {"shell"}, "defaults.run")
        shell = defaults.get("shell", "bash")
        if shell != "bash":
            raise Unsupported(f"defaults.run.shell `{shell}`: only bash is emulated")
        jobs = self.workflow.get("jobs") or {}
        results, reports = {}, []
        for job_id in job_order(jobs):
            job = jobs[job_id]
            check_keys(job, JOB_KEYS, f"jobs.{job_id}")
            needs = needs_of(job, job_id, jobs)
            needs_context = {n: {"result": results[n]["result"], "outputs": results[n]["outputs"]} for n in needs}
            blocked = [n for n in needs if results[n]["result"] != "success"]
            if "if" in job:
                # A job's `if:` decides with the needs' results; without a status function it means
                # success() && …, and success() is false when a needed job failed or was skipped.
                contexts = {"github": self.github(job_id), "needs": needs_context, "env": {},
                            "secrets": dict(self.secrets)}
                if condition(job["if"], contexts, "failure" if blocked else "success"):
                    blocked = []
                else:
                    results[job_id] = {"result": "skipped", "outputs": {}}
                    reports.append({"id": job_id, "name": job.get("name", job_id), "matrix": None,
                                    "result": "skipped", "reason": f"if: {job['if']} is false", "steps": []})
                    log(f"== {job_id}: skipped (its if: is false)")
                    continue
            if self.options.job and job_id not in self.options.job:
                results[job_id] = {"result": "skipped", "outputs": {}}
                reports.append({"id": job_id, "name": job.get("name", job_id), "matrix": None,
                                "result": "skipped", "reason": "not selected (--job)", "steps": []})
                log(f"== {job_id}: skipped (not selected)")
                continue
            if blocked:
                results[job_id] = {"result": "skipped", "outputs": {}}
                reason = f"needs {blocked[0]}, which ended {results[blocked[0]]['result']}"
                reports.append({"id": job_id, "name": job.get("name", job_id), "matrix": None,
                                "result": "skipped", "reason": reason, "steps": []})
                log(f"== {job_id}: skipped ({reason})")
                continue
            results[job_id] = self.run_job(job_id, job, needs_context, reports)
        # A job its own `if:` skipped is how the workflow says "nothing to do": GitHub counts the
        # run a success. Every other skip (a needed job failed, a runner not emulated) fails it.
        failed = [r for r in reports if r["result"] != "success" and not str(r.get("reason", "")).startswith("if:")]
        return {"result": "success" if not failed else failed[0]["result"], "jobs": reports}

    def run_job(self, job_id, job, needs_context, reports):
        base = {"github": self.github(job_id), "needs": needs_context, "secrets": dict(self.secrets),
                "env": {}, "runner": {"os": "Linux", "arch": "X64"}}
        strategy = job.get("strategy") or {}
        check_keys(strategy, {"matrix", "fail-fast", "max-parallel"}, f"jobs.{job_id}.strategy")
        legs = [None]
        if "matrix" in strategy:
            legs = expand_matrix(expand(strategy["matrix"], base), f"jobs.{job_id}")
        outcome, outputs = "success", {}
        for leg in legs:
            if outcome == "failure" and strategy.get("fail-fast", True):
                reports.append({"id": job_id, "name": job.get("name", job_id), "matrix": leg,
                                "result": "cancelled", "reason": "fail-fast", "steps": []})
                continue
            contexts = dict(base, matrix=leg or {}, strategy={"fail-fast": strategy.get("fail-fast", True)})
            report = self.run_leg(job_id, job, contexts)
            reports.append(report)
            if report["result"] == "failure":
                outcome = "failure"
            elif report["result"] == "skipped" and outcome == "success":
                outcome = "skipped"
            outputs.update(report.get("outputs", {}))
        return {"result": outcome, "outputs": outputs}

    def run_leg(self, job_id, job, contexts):
        name = to_text(expand(job.get("name", job_id), contexts))
        report = {"id": job_id, "name": name, "matrix": contexts["matrix"] or None, "steps": []}
        label = to_text(expand(job.get("runs-on"), contexts))
        if not (label.startswith("ubuntu-") or label in self.options.run_as_linux):
            log(f"== {name}: skipped (runs-on {label}: not a Linux runner)")
            return dict(report, result="skipped", reason=f"runs-on {label}: not a Linux runner")
        log(f"== {name} (runs-on {label})")
        root = os.path.join(self.work, "jobs", f"{job_id}-{uuid.uuid4().hex[:8]}")
        workspace, temp = os.path.join(root, "workspace"), os.path.join(root, "temp")
        os.makedirs(workspace)
        os.makedirs(temp)
        contexts["github"]["workspace"] = workspace
        contexts["runner"] = {"os": "Linux", "arch": "X64", "temp": temp, "name": "relctl-local"}
        event = os.path.join(temp, "event.json")
        json.dump({"ref": self.ref, "after": self.sha, "repository": {"full_name": self.options.repository}}, open(event, "w"))
        defaults = {
            "CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_ACTOR": "relctl-test", "GITHUB_EVENT_NAME": "push",
            "GITHUB_EVENT_PATH": event, "GITHUB_JOB": job_id, "GITHUB_REF": self.ref,
            "GITHUB_REF_NAME": self.name, "GITHUB_REF_TYPE": self.kind, "GITHUB_REF_PROTECTED": "false",
            "GITHUB_REPOSITORY": self.options.repository,
            "GITHUB_REPOSITORY_OWNER": self.options.repository.split("/")[0], "GITHUB_RUN_ID": self.run_id,
            "GITHUB_RUN_NUMBER": "1", "GITHUB_RUN_ATTEMPT": "1", "GITHUB_SERVER_URL": "https://github.com",
            "GITHUB_API_URL": contexts["github"]["api_url"], "GITHUB_GRAPHQL_URL": "https://api.github.com/graphql",
            "GITHUB_SHA": self.sha, "GITHUB_WORKSPACE": workspace,
            "GITHUB_WORKFLOW": contexts["github"]["workflow"], "GITHUB_RETENTION_DAYS": "90",
            "RUNNER_OS": "Linux", "RUNNER_ARCH": "X64", "RUNNER_NAME": "relctl-local", "RUNNER_TEMP": temp,
            "RUNNER_TOOL_CACHE": os.path.join(root, "toolcache"), "RUNNER_ENVIRONMENT": "github-hosted",
        }
        # Workflow env, then the job's, each able to read the ones before.
        env = {}
        for layer in (self.workflow.get("env") or {}, job.get("env") or {}):
            contexts["env"] = dict(env)
            env.update({k: to_text(expand(v, contexts)) for k, v in layer.items()})
        contexts["env"] = dict(env)
        added_env, added_path, steps, status = {}, [], {}, "success"
        for index, step in enumerate(job.get("steps") or []):
            check_keys(step, STEP_KEYS, f"jobs.{job_id}.steps[{index}]")
            contexts["steps"] = steps
            contexts["env"] = dict(env, **added_env)
            default_name = "Run " + (str(step.get("run") or "").strip().split("\n")[0] or str(step.get("uses")))
            step_name = to_text(expand(step.get("name") or default_name, contexts))
            if not condition(step.get("if"), contexts, status):
                report["steps"].append({"name": step_name, "result": "skipped"})
                if step.get("id"):
                    steps[step["id"]] = {"outputs": {}, "outcome": "skipped", "conclusion": "skipped"}
                continue
            step_env = dict(contexts["env"])
            step_env.update({k: to_text(expand(v, contexts)) for k, v in (step.get("env") or {}).items()})
            files = {name: os.path.join(temp, f"{name.lower()}-{index}") for name in
                     ("GITHUB_ENV", "GITHUB_OUTPUT", "GITHUB_PATH", "GITHUB_STEP_SUMMARY")}
            for path in files.values():
                open(path, "w").close()
            path = ":".join(list(reversed(added_path)) + [self.host_env.get("PATH", "/usr/bin:/bin"), self.shims])
            process_env = {**self.host_env, **defaults, **self.extra_env, **step_env, **files, "PATH": path,
                           "GITHUB_ACTION": step.get("id") or f"__run_{index}"}
            log(f"-- {step_name}")
            try:
                if "run" in step:
                    if "uses" in step:
                        raise Unsupported(f"jobs.{job_id}.steps[{index}]: both `run` and `uses`")
                    script = os.path.join(temp, f"step-{index}.sh")
                    open(script, "w").write(to_text(expand(step["run"], contexts)))
                    code = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", script],
                                          cwd=workspace, env=process_env, stdout=sys.stderr).returncode
                    ok = code == 0
                    if not ok:
                        log(f"   exit {code}")
                elif "uses" in step:
                    ok = self.action(step["uses"], expand(step.get("with") or {}, contexts), workspace, process_env)
                else:
                    raise Unsupported(f"jobs.{job_id}.steps[{index}]: neither `run` nor `uses`")
            except RuntimeError as error:
                log(f"   {error}")
                ok = False
            outputs = read_command_file(files["GITHUB_OUTPUT"])
            added_env.update(read_command_file(files["GITHUB_ENV"]))
            added_path += [line for line in open(files["GITHUB_PATH"]).read().split("\n") if line]
            result = "success" if ok else "failure"
            if step.get("id"):
                steps[step["id"]] = {"outputs": outputs, "outcome": result, "conclusion": result}
            report["steps"].append({"name": step_name, "result": result})
            if not ok:
                status = "failure"
        contexts["steps"] = steps
        outputs = {k: to_text(expand(v, contexts)) for k, v in (job.get("outputs") or {}).items()} if status == "success" else {}
        return dict(report, result=status, outputs=outputs)

    # -- actions ----------------------------------------------------------------------------------

    def action(self, uses, inputs, workspace, env):
        name = uses.split("@")[0].lower()
        emulated = {"actions/checkout": (self.checkout, {"fetch-depth", "persist-credentials"}),
                    "actions/upload-artifact": (self.upload, {"name", "path", "if-no-files-found"}),
                    "actions/download-artifact": (self.download, {"name", "path", "pattern", "merge-multiple"})}
        if name not in emulated:
            raise Unsupported(f"uses: {uses}: only {', '.join(sorted(emulated))} are emulated")
        function, known = emulated[name]
        check_keys(inputs, known, f"uses: {uses} with")
        return function(inputs, workspace, env)

    def checkout(self, inputs, workspace, env):
        """The tagged commit, detached, with the tag; fetch-depth 0 brings every branch and tag."""
        depth = int(inputs.get("fetch-depth", 1))
        url = "file://" + os.path.abspath(self.options.remote)
        commands = [["git", "init", "-q", workspace], ["git", "-C", workspace, "remote", "add", "origin", url]]
        if depth == 0:
            commands.append(["git", "-C", workspace, "fetch", "-q", "--tags", "origin",
                             "+refs/heads/*:refs/remotes/origin/*", "+refs/tags/*:refs/tags/*"])
        else:
            commands.append(["git", "-C", workspace, "fetch", "-q", "--no-tags", "--update-head-ok", f"--depth={depth}",
                             "origin", f"+{self.ref}:{self.ref}"])
        # A branch push checks out the branch itself; a tag push, the tagged commit detached.
        commands.append(["git", "-C", workspace, "checkout", "-q", "--force"]
                        + (["-B", self.name] if self.kind == "branch" else ["--detach"]) + [self.sha])
        for command in commands:
            result = subprocess.run(command, capture_output=True, text=True, env=env)
            if result.returncode != 0:
                raise RuntimeError(f"checkout: {' '.join(command)}: {result.stderr.strip()}")
        return True

    def upload(self, inputs, workspace, env):
        """Files matching `path` (lines, globs, `!` excludes) stored relative to their least common
        ancestor folder; a name already uploaded in this run is refused (overwrite: false)."""
        name = inputs.get("name", "artifact")
        target = os.path.join(self.artifacts, name)
        if os.path.exists(target):
            raise RuntimeError(f"upload-artifact: an artifact named `{name}` was already uploaded in this run")
        matched, excluded = set(), set()
        for line in [l.strip() for l in str(inputs.get("path", "")).split("\n") if l.strip()]:
            found = set()
            # @actions/glob: `*` stays within a folder, `**` crosses folders; hidden files are left out.
            for hit in glob.glob(os.path.join(workspace, line.lstrip("!")), recursive=True):
                if os.path.isdir(hit):
                    found.update(glob.glob(os.path.join(hit, "**", "*"), recursive=True))
                else:
                    found.add(hit)
            (excluded if line.startswith("!") else matched).update(f for f in found if os.path.isfile(f))
        files = sorted(set(matched) - excluded)
        if not files:
            policy = inputs.get("if-no-files-found", "warn")
            if policy == "error":
                raise RuntimeError(f"upload-artifact: no files were found with the provided path: {inputs.get('path')}")
            log(f"   upload-artifact: no files found for `{name}` ({policy})")
            return True
        # The root is the least common ancestor of the search paths (a folder given is the root;
        # a glob's root is the part before its first wildcard), as upload-artifact documents.
        roots = []
        for line in [l.strip() for l in str(inputs.get("path", "")).split("\n") if l.strip() and not l.strip().startswith("!")]:
            parts = []
            for part in line.split("/"):
                if any(c in part for c in "*?["):
                    break
                parts.append(part)
            base = os.path.join(workspace, "/".join(parts))
            roots.append(base if os.path.isdir(base) and len(parts) == len(line.split("/")) else
                         (base if len(parts) < len(line.split("/")) else os.path.dirname(base)))
        root = os.path.commonpath(roots)
        for file in files:
            destination = os.path.join(target, os.path.relpath(file, root))
            os.makedirs(os.path.dirname(destination), exist_ok=True)
            shutil.copy2(file, destination)
        log(f"   uploaded {len(files)} file(s) as `{name}`")
        return True

    def download(self, inputs, workspace, env):
        """`name`: that artifact into `path`; else every artifact matching `pattern`, each into
        `path/<name>/`, or all into `path` with merge-multiple."""
        path = os.path.join(workspace, inputs.get("path") or "")
        available = sorted(os.listdir(self.artifacts))
        if inputs.get("name"):
            if inputs["name"] not in available:
                raise RuntimeError(f"download-artifact: Artifact not found for name: {inputs['name']}")
            chosen, merge = [inputs["name"]], True
        else:
            pattern = inputs.get("pattern")
            chosen = [a for a in available if pattern is None or fnmatch.fnmatchcase(a, pattern)]
            merge = str(inputs.get("merge-multiple", "false")).lower() == "true"
        for artifact in chosen:
            shutil.copytree(os.path.join(self.artifacts, artifact), path if merge else os.path.join(path, artifact),
                            dirs_exist_ok=True)
        log(f"   downloaded {len(chosen)} artifact(s): {', '.join(chosen)}")
        return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workflow", required=True)
    parser.add_argument("--remote", required=True, help="the git repository the tag was pushed to")
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--tag", help="a tag push of TAG")
    which.add_argument("--branch", help="a push to the branch NAME")
    parser.add_argument("--work", required=True, help="a folder for workspaces and artifacts")
    parser.add_argument("--repository", default="acme/project")
    parser.add_argument("--token", default="")
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE for every step")
    parser.add_argument("--secret", action="append", default=[], help="NAME=VALUE: a repository secret")
    parser.add_argument("--run-as-linux", action="append", default=[], help="a runs-on label to run here anyway")
    parser.add_argument("--job", action="append", default=[],
                        help="run only this job (repeatable); the others, and the jobs that need them, are skipped")
    options = parser.parse_args()
    try:
        report = Run(options).main()
    except Unsupported as error:
        print(f"workflow_runner: not emulated: {error}", file=sys.stderr)
        sys.exit(2)
    print(json.dumps(report, indent=2))
    sys.exit(0 if report["result"] == "success" else 1)


if __name__ == "__main__":
    main()
