import RelctlBasics

/// Joins raw DEFLATE streams made by separate libdeflate calls into one stream, so a zip entry can
/// be compressed in parallel chunks (a zip entry is one DEFLATE stream; unlike gzip there are no
/// members to concatenate).
///
/// libdeflate compresses whole buffers and ends each with a final block (BFINAL = 1). To let the
/// stream go on, that bit is cleared and an empty stored block (BFINAL = 0, BTYPE = 00, LEN 0,
/// NLEN 0xFFFF: what zlib's Z_SYNC_FLUSH writes, and what pigz joins its chunks with) brings the
/// stream to a byte boundary, where the next chunk's blocks start. libdeflate does not say where
/// its last block starts, so `walk` reads the block headers and decodes the Huffman codes just far
/// enough to find each block's end-of-block code, writing nothing: about 1/10 of the compression's
/// own CPU time.
///
/// One per worker thread: it owns its decoding tables.
package final class DeflateBlocks {
    /// Where a stream's last block starts and where the stream ends, in bits from its first byte.
    package struct Walk: Equatable {
        package var finalBlock: Int
        package var end: Int
    }

    private static let maximumCodeLength = 15
    private let literals: UnsafeMutablePointer<UInt16>
    private let distances: UnsafeMutablePointer<UInt16>
    private let codeLengthCodes: UnsafeMutablePointer<UInt16>
    private let fixedLiterals: UnsafeMutablePointer<UInt16>
    private let fixedDistances: UnsafeMutablePointer<UInt16>
    private let lengths: UnsafeMutablePointer<UInt8>
    /// `lengthExtraBits` and `distanceExtraBits`, where the decoding loop reads them without checks.
    private let lengthExtra: UnsafeMutablePointer<UInt8>
    private let distanceExtra: UnsafeMutablePointer<UInt8>

    private static let lengthExtraBits: [UInt8] = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    private static let distanceExtraBits: [UInt8] = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    package init() {
        let size = 1 << Self.maximumCodeLength
        literals = .allocate(capacity: size)
        distances = .allocate(capacity: size)
        codeLengthCodes = .allocate(capacity: 1 << 7)
        fixedLiterals = .allocate(capacity: 1 << 9)
        fixedDistances = .allocate(capacity: 1 << 5)
        lengths = .allocate(capacity: 288 + 32)
        lengthExtra = .allocate(capacity: Self.lengthExtraBits.count)
        lengthExtra.initialize(from: Self.lengthExtraBits, count: Self.lengthExtraBits.count)
        distanceExtra = .allocate(capacity: Self.distanceExtraBits.count)
        distanceExtra.initialize(from: Self.distanceExtraBits, count: Self.distanceExtraBits.count)
        // RFC 1951 3.2.6: the fixed codes.
        for symbol in 0..<288 { lengths[symbol] = symbol < 144 ? 8 : symbol < 256 ? 9 : symbol < 280 ? 7 : 8 }
        _ = Self.buildTable(lengths, count: 288, into: fixedLiterals)
        for symbol in 0..<32 { lengths[symbol] = 5 }
        _ = Self.buildTable(lengths, count: 32, into: fixedDistances)
    }

    deinit {
        literals.deallocate()
        distances.deallocate()
        codeLengthCodes.deallocate()
        fixedLiterals.deallocate()
        fixedDistances.deallocate()
        lengths.deallocate()
        lengthExtra.deallocate()
        distanceExtra.deallocate()
    }

    /// Clears the final-block bit of the stream in `buffer[..<count]` and appends an empty stored
    /// block, so another stream's blocks may follow. `buffer` must have room for 5 more bytes.
    /// - Returns: the new length, or nil when the bytes are not one well-formed DEFLATE stream
    ///   ending in its last byte.
    package func makeContinuable(_ buffer: UnsafeMutableRawBufferPointer, count: Int) -> Int? {
        guard let walk = walk(UnsafeRawBufferPointer(rebasing: buffer[..<count])), (walk.end + 7) / 8 == count,
            count + 5 <= buffer.count
        else { return nil }
        let bytes = buffer.bindMemory(to: UInt8.self)
        bytes[walk.finalBlock >> 3] &= ~(1 << UInt8(walk.finalBlock & 7))
        // The stored block's 3 header bits are zeros right after the end-of-block code; then the
        // stream skips to the next byte boundary, where LEN and NLEN follow.
        let headerEnd = walk.end + 3
        let aligned = (headerEnd + 7) / 8
        bytes[walk.end >> 3] &= UInt8((1 << (walk.end & 7)) - 1)
        for index in (walk.end >> 3) + 1..<aligned { bytes[index] = 0 }
        bytes[aligned] = 0
        bytes[aligned + 1] = 0
        bytes[aligned + 2] = 0xFF
        bytes[aligned + 3] = 0xFF
        return aligned + 4
    }

    /// Finds where the stream's last block starts and where it ends; nil when the bytes are not a
    /// well-formed DEFLATE stream.
    package func walk(_ stream: UnsafeRawBufferPointer) -> Walk? {
        guard let base = stream.baseAddress, stream.count > 0 else { return nil }
        var reader = BitReader(base: base.assumingMemoryBound(to: UInt8.self), count: stream.count)
        while true {
            let header = reader.position
            guard reader.has(3) else { return nil }
            let bits = reader.read(3)
            switch bits >> 1 {
            case 0:
                reader.alignToByte()
                guard reader.has(32) else { return nil }
                let length = reader.read(16), complement = reader.read(16)
                guard length == ~complement & 0xFFFF, reader.has(8 * length) else { return nil }
                reader.position += 8 * length
            case 1:
                guard decodeBlock(&reader, literals: fixedLiterals, 9, distances: fixedDistances, 5) else {
                    return nil
                }
            case 2:
                guard let (literalBits, distanceBits) = readDynamicHeader(&reader),
                    decodeBlock(&reader, literals: literals, literalBits, distances: distances, distanceBits)
                else { return nil }
            default:
                return nil
            }
            if bits & 1 == 1 { return Walk(finalBlock: header, end: reader.position) }
        }
    }

    /// Reads a dynamic block's code lengths and builds its tables; returns their index widths.
    private func readDynamicHeader(_ reader: inout BitReader) -> (Int, Int)? {
        guard reader.has(14) else { return nil }
        let literalCount = reader.read(5) + 257
        let distanceCount = reader.read(5) + 1
        let codeLengthCount = reader.read(4) + 4
        guard literalCount <= 286, distanceCount <= 30, reader.has(3 * codeLengthCount) else { return nil }
        for index in 0..<19 { lengths[index] = 0 }
        for index in 0..<codeLengthCount { lengths[Self.codeLengthOrder[index]] = UInt8(reader.read(3)) }
        guard let codeLengthBits = Self.buildTable(lengths, count: 19, into: codeLengthCodes), codeLengthBits > 0
        else { return nil }
        let total = literalCount + distanceCount
        var index = 0
        while index < total {
            guard let symbol = reader.decode(codeLengthCodes, codeLengthBits) else { return nil }
            switch symbol {
            case 0..<16:
                lengths[index] = UInt8(symbol)
                index += 1
            case 16, 17, 18:
                let (extra, base) = symbol == 16 ? (2, 3) : symbol == 17 ? (3, 3) : (7, 11)
                guard reader.has(extra), symbol != 16 || index > 0 else { return nil }
                let repeats = base + reader.read(extra)
                guard index + repeats <= total else { return nil }
                let value = symbol == 16 ? lengths[index - 1] : 0
                for _ in 0..<repeats {
                    lengths[index] = value
                    index += 1
                }
            default:
                return nil
            }
        }
        guard lengths[256] > 0,
            let literalBits = Self.buildTable(lengths, count: literalCount, into: literals), literalBits > 0,
            let distanceBits = Self.buildTable(lengths + literalCount, count: distanceCount, into: distances)
        else { return nil }
        return (literalBits, distanceBits)
    }

    /// Decodes symbols up to the end-of-block code, skipping the extra bits of lengths and distances.
    private func decodeBlock(
        _ reader: inout BitReader, literals: UnsafeMutablePointer<UInt16>, _ literalBits: Int,
        distances: UnsafeMutablePointer<UInt16>, _ distanceBits: Int
    ) -> Bool {
        // Fast path while 8 bytes can be loaded: one load holds a whole literal, or a length and its
        // distance with their extra bits (at most 15 + 5 + 15 + 13 = 48 of the 57 bits it gives).
        let base = reader.base
        let fastEnd = 8 * (reader.count - 8)
        let literalMask = (1 << literalBits) - 1, distanceMask = (1 << distanceBits) - 1
        var position = reader.position
        while position <= fastEnd {
            let word =
                UInt64(littleEndian: UnsafeRawPointer(base + (position >> 3)).loadUnaligned(as: UInt64.self))
                >> UInt64(position & 7)
            let entry = Int(literals[Int(truncatingIfNeeded: word) & literalMask])
            // 0 is no code; any code has a length of at least 1.
            guard entry != 0 else { return false }
            let symbol = entry >> 4
            if symbol < 256 {
                position += entry & 15
                continue
            }
            if symbol == 256 {
                reader.position = position + (entry & 15)
                return true
            }
            guard symbol <= 285, distanceBits > 0 else { return false }
            var used = (entry & 15) + Int(lengthExtra[symbol - 257])
            let distance = Int(distances[Int(truncatingIfNeeded: word >> UInt64(used)) & distanceMask])
            guard distance != 0, distance >> 4 < 30 else { return false }
            used += (distance & 15) + Int(distanceExtra[distance >> 4])
            position += used
        }
        reader.position = position
        while true {
            guard let symbol = reader.decode(literals, literalBits) else { return false }
            if symbol < 256 { continue }
            if symbol == 256 { return true }
            guard symbol <= 285, distanceBits > 0 else { return false }
            reader.position += Int(lengthExtra[symbol - 257])
            guard let distance = reader.decode(distances, distanceBits), distance < 30 else { return false }
            reader.position += Int(distanceExtra[distance])
        }
    }

    /// Fills a table indexed by the next `bits` bits of the stream (RFC 1951 3.2.2's canonical
    /// codes, bit-reversed as DEFLATE sends them) with `symbol << 4 | length`; unused entries are 0.
    /// - Returns: `bits` (the longest code; 0 when no symbol has a code), or nil for an
    ///   over-subscribed set of lengths.
    package static func buildTable(
        _ lengths: UnsafePointer<UInt8>, count: Int, into table: UnsafeMutablePointer<UInt16>
    )
        -> Int?
    {
        var lengthCounts = [Int](repeating: 0, count: maximumCodeLength + 1)
        var longest = 0
        for symbol in 0..<count {
            let length = Int(lengths[symbol])
            lengthCounts[length] += 1
            longest = max(longest, length)
        }
        guard longest > 0 else { return 0 }
        var nextCode = [Int](repeating: 0, count: maximumCodeLength + 2)
        var code = 0
        lengthCounts[0] = 0
        for length in 1...maximumCodeLength {
            code = (code + lengthCounts[length - 1]) << 1
            nextCode[length] = code
        }
        let size = 1 << longest
        table.update(repeating: 0, count: size)
        for symbol in 0..<count {
            let length = Int(lengths[symbol])
            guard length > 0 else { continue }
            let code = nextCode[length]
            nextCode[length] += 1
            guard code < 1 << length else { return nil }
            var reversed = 0
            for bit in 0..<length where code & (1 << bit) != 0 { reversed |= 1 << (length - 1 - bit) }
            let entry = UInt16(symbol << 4 | length)
            var index = reversed
            while index < size {
                table[index] = entry
                index += 1 << length
            }
        }
        return longest
    }
}

/// DEFLATE's bit order: least significant bit of each byte first.
private struct BitReader {
    let base: UnsafePointer<UInt8>
    let count: Int
    var position = 0

    init(base: UnsafePointer<UInt8>, count: Int) {
        self.base = base
        self.count = count
    }

    @inline(__always) func has(_ bits: Int) -> Bool { position + bits <= 8 * count }

    /// The next `bits` (at most 56) bits, zeros past the end.
    @inline(__always) func peek(_ bits: Int) -> Int {
        let byte = position >> 3
        var word: UInt64
        if byte + 8 <= count {
            word = UInt64(littleEndian: UnsafeRawPointer(base + byte).loadUnaligned(as: UInt64.self))
        } else {
            word = 0
            var index = byte
            while index < count {
                word |= UInt64(base[index]) << UInt64(8 * (index - byte))
                index += 1
            }
        }
        return Int(truncatingIfNeeded: (word >> UInt64(position & 7)) & ((1 << UInt64(bits)) - 1))
    }

    @inline(__always) mutating func read(_ bits: Int) -> Int {
        defer { position += bits }
        return peek(bits)
    }

    mutating func alignToByte() { position = (position + 7) & ~7 }

    /// The next symbol of the code in `table`; nil for bits that are no code or past the end.
    @inline(__always) mutating func decode(_ table: UnsafeMutablePointer<UInt16>, _ bits: Int) -> Int? {
        let entry = Int(table[peek(bits)])
        let length = entry & 15
        guard length > 0, position + length <= 8 * count else { return nil }
        position += length
        return entry >> 4
    }
}
