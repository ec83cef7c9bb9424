import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlBasics

/// YAMLEmitter against two real readers (issue 39): PyYAML (YAML 1.1, as GitLab's Psych and
/// go-yaml v2 read) and ruamel.yaml (YAML 1.2). Every hostile value, written as a scalar, as a
/// literal block where one holds it, and as a mapping key, must read back as that exact string
/// in both. `RELCTL_EMITTER_SEED`/`RELCTL_EMITTER_COUNT` replay or lengthen a run (scripts/fuzz).
@Suite("YAML emitter", .timeLimit(.minutes(30)), .removesTemporaries)
struct YAMLEmitterTests {
    /// Reads the document with each reader and prints `{"1.1": doc, "1.2": doc}` as JSON (ASCII).
    static let reader = #"""
        import json, sys, yaml
        from ruamel.yaml import YAML
        text = open(sys.argv[1], encoding="utf-8").read()
        old = yaml.safe_load(text)
        new = YAML(typ="safe", pure=True).load(text)
        print(json.dumps({"1.1": old, "1.2": new}))
        """#

    static func document(_ values: [String]) throws -> String {
        var lines = ["values:"]
        lines += values.map { "  - " + YAMLEmitter.scalar($0) }
        lines.append("quoted:")
        lines += values.map { "  - " + YAMLEmitter.quoted($0) }
        lines.append("blocks:")
        for value in values {
            if let block = YAMLEmitter.literalBlock(value, parentColumn: 2) {
                lines.append("  - " + block.indicator)
                lines += block.lines
            } else {
                lines.append("  - " + YAMLEmitter.scalar(value))
            }
        }
        lines.append("keys:")
        for (index, value) in values.enumerated() {
            lines.append("  " + (try YAMLEmitter.key(value, what: "key \(index)")) + ": \(index)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func readBack(_ text: String) throws -> [String: [String: Any]] {
        try withTemporaryDirectory { directory in
            let script = try directory.write("read.py", reader)
            let file = try directory.write("doc.yaml", text)
            let result = try run("python3", [script.path, file.path])
            guard result.status == 0 else { throw TestFailure("the YAML readers refused the document: \(result)") }
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
            return try #require(object as? [String: [String: Any]])
        }
    }

    @Test("every hostile value reads back unchanged in YAML 1.1 and 1.2, as scalar, block and key")
    func roundTrip() throws {
        let values = EmitterRuns.values().filter { (try? YAMLEmitter.key($0, what: "k")) != nil }
        #expect(values.count > 300)
        let read = try Self.readBack(try Self.document(values))
        for version in ["1.1", "1.2"] {
            let document = try #require(read[version])
            for list in ["values", "quoted", "blocks"] {
                let back = try #require(document[list] as? [Any], "\(version) \(list)")
                #expect(back.count == values.count)
                for (value, got) in zip(values, back) {
                    let text = got as? String
                    #expect(
                        text.map { sameScalars($0, value) } == true,
                        "YAML \(version) \(list): \(value.debugDescription) read back as \(String(describing: got))")
                }
            }
            let keys = try #require(document["keys"] as? [String: Any], "\(version) keys")
            for (index, value) in values.enumerated() {
                #expect(keys[value] as? Int == index, "YAML \(version) key \(value.debugDescription)")
            }
        }
    }

    @Test("YAML 1.1 traps are quoted; ordinary words and commands stay plain")
    func plainRule() throws {
        for trap in [
            "12:30", "<<", "=", "yes", "No", "ON", "y", "~", "null", "0755", "1_000", ".inf", "2001-12-14", "",
        ] {
            #expect(YAMLEmitter.scalar(trap) != trap, "\(trap) must be quoted")
        }
        for plain in [
            "relctl matrix", "build:x86_64-unknown-linux-gnu", "dist/", "${{ matrix.target }}", "ubuntu-latest",
        ] {
            #expect(YAMLEmitter.scalar(plain) == plain)
        }
        #expect(YAMLEmitter.scalar("a\nb") == #""a\nb""#)
        #expect(YAMLEmitter.scalar("it's") == "it's")
        #expect(YAMLEmitter.scalar("'a") == "'''a'")
    }

    @Test("a key longer than YAML's implicit-key limit is refused, naming it")
    func longKey() {
        #expect(throws: EmitterError.self) { try YAMLEmitter.key(String(repeating: "k", count: 2000), what: "env key") }
    }
}
