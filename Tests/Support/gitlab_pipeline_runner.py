#!/usr/bin/env python3
"""Runs a GitLab CI/CD pipeline (.gitlab-ci.yml) on this machine, as GitLab would for one tag
push, for relctl's tests of the pipeline `relctl ci generate --provider gitlab` writes.
docs/ci-gitlab.md says what it emulates and what it does not.

Written from docs.gitlab.com: "CI/CD YAML syntax reference" (workflow:rules, stages, variables,
image, tags, needs, script, artifacts:paths, resource_group), "Expressions in rules" (`$VAR`,
`=~ /regex/`, RE2), "Predefined CI/CD variables", "Job artifacts" (paths relative to the project
directory, passed to later jobs through needs; without needs, from every job of earlier
stages), "Git shallow clone" / "Git fetch extra flags" (GIT_DEPTH, GIT_FETCH_EXTRA_FLAGS, the
refspecs of a tag pipeline) and the Runner's bash shell (`set -eo pipefail`, each script item
run in one shell, echoed as written).

Jobs run one after another in stage order (file order within a stage). A job with `tags` is a
runner this machine is not (GitLab's hosted macOS/Windows runners): it is reported skipped, and
so are the jobs needing it, unless each tag is named by --run-as-linux (its script then runs in
bash here). `image` is recorded, not pulled: scripts run on this machine. Anything the pipeline
uses that this file does not emulate stops the run with exit 2 and a line saying what.

A branch push (--branch instead of --tag) runs as GitLab runs a branch pipeline: CI_COMMIT_BRANCH
and CI_DEFAULT_BRANCH set, no CI_COMMIT_TAG, the branch's refspec fetched into a clone whose
`origin` is the remote (as the Runner's CI_REPOSITORY_URL). A trigger job (`trigger: include:
- artifact: FILE, job: JOB`, "Dynamic child pipelines") runs the child pipeline that JOB left as
an artifact, its jobs reported with `"pipeline": TRIGGER_JOB`; with `strategy: depend` the trigger
job ends as the child pipeline does, without it as soon as the child was created. Each job gets
its own global git configuration (GIT_CONFIG_GLOBAL, a copy of this machine's), as each GitLab
job starts on a fresh machine: a job's `git config --global` stays in that job.

Usage: gitlab_pipeline_runner.py --pipeline FILE --remote GIT_DIR (--tag TAG | --branch BRANCH) --work DIR
           [--default-branch NAME] [--project-path GROUP/PROJECT] [--token T] [--env NAME=VALUE]...
           [--run-as-linux TAG]... [--skip-job NAME]...
Prints one JSON report on stdout: {"result", "jobs": [{"id", "stage", "result", "reason", "pipeline"}]}.
Exit 0 when every job ran and succeeded (or was skipped with --skip-job), 1 when one failed or
was skipped, or the tag does not start the pipeline, 2 when the pipeline uses what is not emulated.
"""

import argparse
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

import yaml


class Unsupported(Exception):
    """The pipeline uses something this runner does not emulate, or is not valid."""


GLOBAL_KEYS = {"workflow", "stages", "variables"}
JOB_KEYS = {"stage", "image", "tags", "needs", "variables", "script", "artifacts", "resource_group", "trigger"}
VARIABLE = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")


def log(text):
    print(text, file=sys.stderr, flush=True)


def check_keys(mapping, allowed, where):
    if not isinstance(mapping, dict):
        raise Unsupported(f"{where}: expected a mapping, found {json.dumps(mapping)}")
    unknown = sorted(set(mapping) - allowed)
    if unknown:
        raise Unsupported(f"{where}: `{unknown[0]}` is not emulated (known: {', '.join(sorted(allowed))})")


def expand_variables(text, env):
    """GitLab expands `$VAR` and `${VAR}` in variable values; an unknown one is empty."""
    return VARIABLE.sub(lambda m: env.get(m.group(1) or m.group(2), ""), str(text))


def rule_matches(expression, env):
    """The forms of `rules:if` the generators write: `$VAR` (set and not empty),
    `$VAR =~ /RE2/` (an unset variable matches nothing) and `$VAR == $OTHER` or `$VAR == "text"`."""
    expression = expression.strip()
    match = re.fullmatch(r'\$([A-Za-z_][A-Za-z0-9_]*)\s*==\s*(?:\$([A-Za-z_][A-Za-z0-9_]*)|"([^"$]*)")', expression)
    if match:
        other = env.get(match.group(2)) if match.group(2) else match.group(3)
        return env.get(match.group(1)) == other
    match = re.fullmatch(r"\$([A-Za-z_][A-Za-z0-9_]*)\s*=~\s*/(.*)/", expression)
    if match:
        value = env.get(match.group(1))
        # The RE2 subset a generated rule uses (\xHH, classes, anchors) reads the same in Python.
        return value is not None and re.search(match.group(2), value) is not None
    match = re.fullmatch(r"\$([A-Za-z_][A-Za-z0-9_]*)", expression)
    if match:
        return bool(env.get(match.group(1)))
    raise Unsupported(f"rules:if `{expression}`: only `$VAR`, `$VAR =~ /regex/` and `$VAR == $VAR|\"text\"` are emulated")


def variables_of(mapping, where, env):
    result = {}
    for name, value in (mapping or {}).items():
        if isinstance(value, dict):
            check_keys(value, {"value", "expand", "description"}, f"{where}.{name}")
            raw = str(value.get("value", ""))
            result[name] = expand_variables(raw, {**env, **result}) if value.get("expand", True) else raw
        elif isinstance(value, (str, int, float)):
            result[name] = expand_variables(value, {**env, **result})
        else:
            raise Unsupported(f"{where}.{name}: a variable is a string or a mapping")
    return result


class Run:
    def __init__(self, options, work=None, source="push"):
        self.options = options
        self.source = source
        self.work = os.path.abspath(work or options.work)
        self.artifacts = os.path.join(self.work, "artifacts")
        os.makedirs(self.artifacts, exist_ok=True)
        if options.tag:
            self.ref, shown = f"refs/tags/{options.tag}", f"tag {options.tag}"
        else:
            self.ref, shown = f"refs/heads/{options.branch}", f"branch {options.branch}"
        found = subprocess.run(["git", "-C", options.remote, "rev-parse", "--verify", "-q",
                                f"{self.ref}^{{commit}}"], capture_output=True, text=True)
        if found.returncode != 0:
            raise Unsupported(f"{options.remote} holds no {shown}: push it first")
        self.sha = found.stdout.strip()
        self.extra_env = dict(item.split("=", 1) for item in options.env)
        self.host_env = {k: v for k, v in os.environ.items() if not k.startswith(("CI_", "GITLAB_")) and k != "CI"}

    def predefined(self, job_id, stage, project_dir):
        project = self.options.project_path
        ref = {"CI_COMMIT_TAG": self.options.tag} if self.options.tag else {
            "CI_COMMIT_BRANCH": self.options.branch, "CI_DEFAULT_BRANCH": self.options.default_branch}
        return {
            **ref, "CI": "true", "GITLAB_CI": "true", "CI_SERVER": "yes", "CI_PIPELINE_SOURCE": self.source,
            "CI_COMMIT_REF_NAME": self.options.tag or self.options.branch,
            "CI_COMMIT_SHA": self.sha, "CI_COMMIT_SHORT_SHA": self.sha[:8],
            "CI_PROJECT_PATH": project, "CI_PROJECT_NAME": project.split("/")[-1],
            "CI_PROJECT_NAMESPACE": "/".join(project.split("/")[:-1]),
            "CI_PROJECT_DIR": project_dir, "CI_BUILDS_DIR": os.path.dirname(project_dir),
            "CI_JOB_NAME": job_id, "CI_JOB_STAGE": stage, "CI_JOB_TOKEN": self.options.token,
            "CI_SERVER_URL": "https://gitlab.example", "CI_API_V4_URL": "https://gitlab.example/api/v4",
        }

    def main(self, path=None):
        pipeline = yaml.safe_load(open(path or self.options.pipeline, encoding="utf-8"))
        if not isinstance(pipeline, dict):
            raise Unsupported("the pipeline is not a mapping")
        workflow = pipeline.get("workflow") or {}
        check_keys(workflow, {"name", "rules"}, "workflow")
        env = {**self.predefined("", "", ""), **self.extra_env}
        rules = workflow.get("rules")
        if rules is not None:
            started = False
            for rule in rules:
                check_keys(rule, {"if"}, "workflow.rules[]")
                if rule_matches(rule["if"], env):
                    started = True
                    break
            if not started:
                return {"result": "not-triggered", "jobs": []}
        stages = pipeline.get("stages") or ["build", "test", "deploy"]
        jobs = {k: v for k, v in pipeline.items() if k not in GLOBAL_KEYS}
        for job_id, job in jobs.items():
            if job_id.startswith(".") or job_id in {"default", "include", "image", "services", "cache",
                                                    "before_script", "after_script"}:
                raise Unsupported(f"`{job_id}`: hidden jobs and global defaults are not emulated")
            check_keys(job, JOB_KEYS, job_id)
            if job.get("stage", "test") not in stages:
                raise Unsupported(f"{job_id}: stage `{job.get('stage')}` is not in stages")
            if "trigger" in job and set(job) - {"stage", "trigger", "needs"}:
                raise Unsupported(f"{job_id}: a trigger job with {sorted(set(job) - {'stage', 'trigger', 'needs'})}"
                                  " is not emulated")
        order = sorted(jobs, key=lambda j: stages.index(jobs[j].get("stage", "test")))
        global_variables = variables_of(pipeline.get("variables"), "variables", {})
        results, reports = {}, []
        for job_id in order:
            job = jobs[job_id]
            stage = job.get("stage", "test")
            needs = self.needs_of(job_id, job, jobs, stages)
            blocked = [n for n, _ in needs if results.get(n) != "success"]
            reason = None
            if job_id in self.options.skip_job:
                reason = "skipped by --skip-job"
            elif blocked:
                reason = f"needs {blocked[0]}, which ended {results.get(blocked[0], 'not run')}"
            elif any(t not in self.options.run_as_linux for t in job.get("tags") or []):
                reason = f"runs on a runner tagged {', '.join(job['tags'])}, which this machine is not"
            if reason:
                results[job_id] = "skipped"
                reports.append({"id": job_id, "stage": stage, "result": "skipped", "reason": reason})
                log(f"== {job_id}: skipped ({reason})")
                continue
            if "trigger" in job:
                result, child = self.run_child(job_id, job, jobs)
                results[job_id] = result
                reports.append({"id": job_id, "stage": stage, "result": result, "reason": None})
                reports += [{**r, "pipeline": job_id} for r in child]
                continue
            result = self.run_job(job_id, job, stage, needs, global_variables)
            results[job_id] = result
            reports.append({"id": job_id, "stage": stage, "result": result, "reason": None})
        failed = [r for r in reports if r["result"] != "success" and r["reason"] != "skipped by --skip-job"]
        return {"result": "success" if not failed else failed[0]["result"], "jobs": reports}

    def needs_of(self, job_id, job, jobs, stages):
        """[(job, artifacts?)]: `needs` as written, else every job of the earlier stages."""
        if "needs" not in job:
            index = stages.index(job.get("stage", "test"))
            return [(j, True) for j, v in jobs.items() if stages.index(v.get("stage", "test")) < index]
        result = []
        for need in job["needs"]:
            if isinstance(need, str):
                need = {"job": need}
            check_keys(need, {"job", "artifacts"}, f"{job_id}.needs[]")
            name = need.get("job")
            if name not in jobs:
                raise Unsupported(f"{job_id}: needs `{name}`, which is not a job")
            if stages.index(jobs[name].get("stage", "test")) >= stages.index(job.get("stage", "test")):
                raise Unsupported(f"{job_id}: needs `{name}` of the same or a later stage")
            result.append((name, need.get("artifacts", True)))
        return result

    def run_child(self, job_id, job, jobs):
        """A trigger job: the child pipeline another job left as an artifact, run as GitLab runs
        a dynamic child pipeline (same commit, CI_PIPELINE_SOURCE parent_pipeline, its own jobs
        and artifacts). Returns the trigger job's result and the child's job reports."""
        trigger = job["trigger"]
        check_keys(trigger, {"include", "strategy"}, f"{job_id}.trigger")
        include = trigger.get("include")
        if not isinstance(include, list) or len(include) != 1:
            raise Unsupported(f"{job_id}.trigger.include: one `artifact` entry is emulated")
        check_keys(include[0], {"artifact", "job"}, f"{job_id}.trigger.include[]")
        source_job, artifact = include[0].get("job"), include[0].get("artifact")
        if source_job not in jobs:
            raise Unsupported(f"{job_id}.trigger.include: `{source_job}` is not a job")
        if trigger.get("strategy") not in (None, "depend"):
            raise Unsupported(f"{job_id}.trigger.strategy: only `depend` is emulated")
        path = os.path.join(self.artifacts, source_job, artifact)
        log(f"== {job_id}: child pipeline {artifact} of {source_job}")
        if not os.path.isfile(path):
            log(f"{job_id}: the artifact {artifact} of {source_job} does not exist")
            return "failed", []
        child = Run(self.options, work=os.path.join(self.work, "child", re.sub(r"[^A-Za-z0-9_.-]", "_", job_id)),
                    source="parent_pipeline")
        report = child.main(path)
        if trigger.get("strategy") != "depend":
            return "success", report["jobs"]
        return ("success" if report["result"] == "success" else "failed"), report["jobs"]

    def checkout(self, project_dir, variables):
        """A fresh clone of the tag or branch as the Runner makes it: that ref's refspec only
        (all tags with `--tags` in GIT_FETCH_EXTRA_FLAGS), GIT_DEPTH deep (20 unless set; 0 =
        whole history). A branch pipeline's clone has the remote as `origin`."""
        remote = "file://" + os.path.abspath(self.options.remote)
        depth = variables.get("GIT_DEPTH", "20")
        flags = shlex.split(variables.get("GIT_FETCH_EXTRA_FLAGS", "--prune --quiet"))
        if self.options.tag:
            source, refspec = remote, f"+refs/tags/{self.options.tag}:refs/tags/{self.options.tag}"
            origin = []
        else:
            branch = self.options.branch
            source, refspec = "origin", f"+refs/heads/{branch}:refs/remotes/origin/{branch}"
            origin = [["git", "-C", project_dir, "remote", "add", "origin", remote]]
        commands = [["git", "init", "-q", project_dir], *origin,
                    ["git", "-C", project_dir, "fetch", *flags, *(["--depth", depth] if depth != "0" else []),
                     source, refspec],
                    ["git", "-C", project_dir, "checkout", "-q", "-f", self.sha]]
        for command in commands:
            done = subprocess.run(command, capture_output=True, text=True)
            if done.returncode != 0:
                raise RuntimeError(f"checkout failed: {' '.join(command)}\n{done.stderr}")

    def run_job(self, job_id, job, stage, needs, global_variables):
        log(f"== {job_id} (stage {stage}, image {job.get('image', '-')})")
        project_dir = os.path.join(self.work, "builds", re.sub(r"[^A-Za-z0-9_.-]", "_", job_id), "project")
        env = {**self.host_env, **self.predefined(job_id, stage, project_dir), **self.extra_env}
        # A fresh machine per job: `git config --global` in one job stays there.
        env["GIT_CONFIG_GLOBAL"] = os.path.join(self.work, "builds", re.sub(r"[^A-Za-z0-9_.-]", "_", job_id) + ".gitconfig")
        os.makedirs(os.path.dirname(env["GIT_CONFIG_GLOBAL"]), exist_ok=True)
        machine = os.environ.get("GIT_CONFIG_GLOBAL") or os.path.expanduser("~/.gitconfig")
        if os.path.isfile(machine):
            shutil.copyfile(machine, env["GIT_CONFIG_GLOBAL"])
        else:
            open(env["GIT_CONFIG_GLOBAL"], "w").close()
        variables = {**global_variables, **variables_of(job.get("variables"), f"{job_id}.variables",
                                                         {**env, **global_variables})}
        try:
            self.checkout(project_dir, variables)
        except RuntimeError as error:
            log(str(error))
            return "failed"
        for name, wanted in needs:
            stored = os.path.join(self.artifacts, name)
            if wanted and os.path.isdir(stored):
                shutil.copytree(stored, project_dir, dirs_exist_ok=True)
        script = job.get("script")
        if not isinstance(script, list) or not all(isinstance(item, str) for item in script) or not script:
            raise Unsupported(f"{job_id}.script: a list of strings is emulated")
        lines = ["set -eo pipefail"]
        for item in script:
            lines.append(f"printf '%s\\n' {shlex.quote('$ ' + item)} >&2")
            lines.append(item)
        path = os.path.join(self.work, "builds", f"{re.sub(r'[^A-Za-z0-9_.-]', '_', job_id)}.sh")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")
        done = subprocess.run(["bash", path], cwd=project_dir, env={**env, **variables},
                              stdout=sys.stderr, stderr=sys.stderr)
        if done.returncode != 0:
            log(f"== {job_id}: failed (exit {done.returncode})")
            return "failed"
        self.collect(job_id, job, project_dir)
        return "success"

    def collect(self, job_id, job, project_dir):
        artifacts = job.get("artifacts")
        if artifacts is None:
            return
        check_keys(artifacts, {"paths"}, f"{job_id}.artifacts")
        stored = os.path.join(self.artifacts, job_id)
        for pattern in artifacts.get("paths") or []:
            if os.path.isabs(pattern) or ".." in pattern.split("/"):
                raise Unsupported(f"{job_id}.artifacts.paths: `{pattern}` is outside the project directory")
            matches = glob.glob(pattern.rstrip("/"), root_dir=project_dir)
            if not matches:
                # GitLab warns and uploads the rest; the job still succeeds.
                log(f"{job_id}: WARNING: {pattern}: no matching files")
            for match in matches:
                source, target = os.path.join(project_dir, match), os.path.join(stored, match)
                if os.path.isdir(source):
                    shutil.copytree(source, target, dirs_exist_ok=True)
                else:
                    os.makedirs(os.path.dirname(target), exist_ok=True)
                    shutil.copy2(source, target)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pipeline", required=True)
    parser.add_argument("--remote", required=True)
    ref = parser.add_mutually_exclusive_group(required=True)
    ref.add_argument("--tag")
    ref.add_argument("--branch")
    parser.add_argument("--default-branch", default="main")
    parser.add_argument("--work", required=True)
    parser.add_argument("--project-path", default="acme/project")
    parser.add_argument("--token", default="")
    parser.add_argument("--env", action="append", default=[])
    parser.add_argument("--run-as-linux", action="append", default=[])
    parser.add_argument("--skip-job", action="append", default=[])
    options = parser.parse_args()
    try:
        report = Run(options).main()
    except Unsupported as error:
        log(f"gitlab_pipeline_runner: not emulated: {error}")
        sys.exit(2)
    print(json.dumps(report))
    sys.exit(0 if report["result"] == "success" else 1)


if __name__ == "__main__":
    main()
