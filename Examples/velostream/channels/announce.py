#!/usr/bin/env python3
"""An example relctl channel plugin: writes the release announcement into dist and, on a real
run with ANNOUNCE_WEBHOOK_URL set, posts it to a Slack or Matrix-style incoming webhook
({"text": ...}). On a dry run it writes the file and prints the preview, posting nothing.

Protocol (docs/channels.md): one JSON document on stdin, one on stdout:
  {"files": [names written into dist], "published": [URLs]}
Anything for humans goes to stderr. A non-zero exit fails the release before the tag.
"""
import json
import os
import sys
import urllib.request


def main() -> int:
    request = json.load(sys.stdin)
    if request.get("protocol") != 1:
        print(f"announce: unsupported protocol {request.get('protocol')}", file=sys.stderr)
        return 2
    name = f"{request['project']}-{request['tag']}-announcement.md"
    lines = [f"# {request['project']} {request['version']} is out", ""]
    for archive in sorted(request["archives"], key=lambda a: a["name"]):
        where = archive["url"] or archive["name"]
        lines.append(f"- {archive['target']}: {where} (sha256 {archive['sha256']})")
    text = "\n".join(lines) + "\n"
    path = os.path.join(request["dist"], name)
    with open(path + ".tmp", "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(path + ".tmp", path)

    published = []
    webhook = os.environ.get("ANNOUNCE_WEBHOOK_URL", "")
    if request["dryRun"]:
        print("announce: preview (dry run, nothing posted):", file=sys.stderr)
        for line in lines:
            print(f"  {line}", file=sys.stderr)
    elif webhook:
        body = json.dumps({"text": text}).encode("utf-8")
        post = urllib.request.Request(webhook, data=body, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(post, timeout=30) as response:
            if response.status >= 300:
                print(f"announce: {webhook} answered {response.status}", file=sys.stderr)
                return 1
        published.append(webhook)
    json.dump({"files": [name], "published": published}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
