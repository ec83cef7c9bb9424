import Foundation
import RelctlBasics

/// An rpm header structure (the signature header and the main header share it): magic
/// `8e ad e8 01`, four reserved bytes, the index count and data size, the 16-byte index entries
/// sorted by tag, then the data store with each value aligned to its type. The first entry is the
/// region tag (62 signature, 63 immutable) whose trailer at the end of the store spans the whole
/// header, as rpm 4 writes it and `rpm -K` checks.
package struct RpmHeader {
    package enum Value {
        case int16([UInt16])
        case int32([UInt32])
        case string(String)
        case binary(Data)
        case stringArray([String])
        case i18nString(String)

        package var type: UInt32 {
            switch self {
            case .int16: return 3
            case .int32: return 4
            case .string: return 6
            case .binary: return 7
            case .stringArray: return 8
            case .i18nString: return 9
            }
        }

        package var alignment: Int {
            switch self {
            case .int16: return 2
            case .int32: return 4
            default: return 1
            }
        }

        package var count: Int {
            switch self {
            case .int16(let values): return values.count
            case .int32(let values): return values.count
            case .binary(let data): return data.count
            case .stringArray(let values): return values.count
            case .string, .i18nString: return 1
            }
        }

        package var bytes: Data {
            var data = Data()
            switch self {
            case .int16(let values):
                for value in values { data.append(contentsOf: [UInt8(value >> 8), UInt8(value & 0xFF)]) }
            case .int32(let values): for value in values { data.append(contentsOf: RpmHeader.bigEndian(value)) }
            case .string(let text), .i18nString(let text): data.append(contentsOf: Array(text.utf8) + [0])
            case .binary(let bytes): data.append(bytes)
            case .stringArray(let values): for value in values { data.append(contentsOf: Array(value.utf8) + [0]) }
            }
            return data
        }
    }

    /// 62 (`RPMTAG_HEADERSIGNATURES`) or 63 (`RPMTAG_HEADERIMMUTABLE`).
    package let regionTag: UInt32
    private var entries: [UInt32: Value] = [:]

    package init(regionTag: UInt32) { self.regionTag = regionTag }

    package subscript(tag: UInt32) -> Value? {
        get { entries[tag] }
        set { entries[tag] = newValue }
    }

    package static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// The header's bytes; `padded` rounds the signature header up to eight bytes, as the
    /// package layout requires before the main header.
    package func serialized(padded: Bool = false) -> Data {
        var index = Data()
        var store = Data()
        let tags = entries.keys.sorted()
        let count = UInt32(tags.count + 1)
        for tag in tags {
            let value = entries[tag]!
            while store.count % value.alignment != 0 { store.append(0) }
            index.append(contentsOf: Self.entry(tag, value.type, UInt32(store.count), UInt32(value.count)))
            store.append(value.bytes)
        }
        // The region trailer: an entry pointing back over all `count` index entries.
        let trailerOffset = UInt32(store.count)
        let back = UInt32(bitPattern: -Int32(count * 16))
        store.append(contentsOf: Self.entry(regionTag, 7, back, 16))
        var header = Data([0x8E, 0xAD, 0xE8, 0x01, 0, 0, 0, 0])
        header.append(contentsOf: Self.bigEndian(count))
        header.append(contentsOf: Self.bigEndian(UInt32(store.count)))
        header.append(contentsOf: Self.entry(regionTag, 7, trailerOffset, 16))
        header.append(index)
        header.append(store)
        if padded { while header.count % 8 != 0 { header.append(0) } }
        return header
    }

    private static func entry(_ tag: UInt32, _ type: UInt32, _ offset: UInt32, _ count: UInt32) -> [UInt8] {
        bigEndian(tag) + bigEndian(type) + bigEndian(offset) + bigEndian(count)
    }
}
