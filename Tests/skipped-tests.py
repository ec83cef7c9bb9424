#!/usr/bin/env python3
"""Reads a Swift Testing event stream (`swift test --event-stream-output-path FILE
--event-stream-version 0`) and lists every test that did not run: skipped (a condition trait
such as `.enabled(if:)` or `.disabled()`) or cancelled (`.requires(...)` on a machine that lacks
what the test needs, or `Test.cancel`).

With CI=true, any such test is a failure (exit 1), and so is an event stream that does not show
a whole run (missing, empty, or without its end): in CI every test runs (docs/development.md,
"Tests that cannot go green by accident"). Elsewhere it prints the list and exits 0.

Usage: Tests/skipped-tests.py EVENTS.jsonl
"""
import json
import os
import sys


def main(argv):
    if len(argv) != 2:
        print("usage: skipped-tests.py EVENTS.jsonl", file=sys.stderr)
        return 64
    ci = os.environ.get("CI", "").lower() in ("true", "1")
    path = argv[1]
    problems = []
    names = {}
    not_run = {}
    started = ended = False
    try:
        with open(path, encoding="utf-8") as stream:
            for number, line in enumerate(stream, 1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except ValueError:
                    problems.append(f"{path}:{number}: not a JSON record")
                    continue
                payload = record.get("payload") or {}
                if record.get("kind") == "test":
                    location = payload.get("sourceLocation") or {}
                    names[payload.get("id")] = "{} ({}:{})".format(
                        payload.get("name"), location.get("fileID", "?"), location.get("line", "?"))
                    continue
                if record.get("kind") != "event":
                    continue
                kind = payload.get("kind")
                if kind == "runStarted":
                    started = True
                elif kind == "runEnded":
                    ended = True
                elif kind in ("testSkipped", "testCancelled", "testCaseCancelled"):
                    test = payload.get("testID") or "?"
                    text = " ".join(m.get("text", "") for m in payload.get("messages") or [])
                    what = "skipped" if kind == "testSkipped" else "cancelled"
                    # A cancelled test reports both the test and its case; one line each test.
                    not_run.setdefault(test, f"{what}: {text}".strip())
                elif kind == "testEnded" and payload.get("testID") in not_run:
                    # The end of a cancelled test carries the reason it was given.
                    text = " ".join(m.get("text", "") for m in payload.get("messages") or [])
                    if text:
                        not_run[payload["testID"]] = text
    except OSError as error:
        problems.append(f"cannot read the test run's events: {error}")
    if not problems and not (started and ended):
        problems.append(f"{path} does not hold a whole test run (no run start or end): did the run crash?")

    for test, reason in sorted(not_run.items()):
        print(f"skipped-tests: did not run: {names.get(test, test)}: {reason}", file=sys.stderr)
    if not_run:
        print(f"skipped-tests: {len(not_run)} test(s) did not run", file=sys.stderr)
    for problem in problems:
        print(f"skipped-tests: {problem}", file=sys.stderr)
    if ci and (not_run or problems):
        print(
            "skipped-tests: under CI=true every test must run: install what it needs"
            " (scripts/install-deps --test) or run as CI does (root); see docs/development.md",
            file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
