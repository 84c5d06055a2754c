import Glibc
import Synchronization

/// A 12-byte BSON ObjectId: 4-byte big-endian creation time in seconds, 5
/// bytes fixed per process, 3-byte big-endian counter.
///
/// Ids are generated without coordination, yet sort roughly by creation
/// time, which keeps freshly inserted keys at the right edge of an index.
/// The bytes live in three big-endian words instead of an array so that ids
/// are plain values: no heap allocation, cheap to copy, hash and compare.
public struct ObjectId: Sendable, Hashable, Comparable, CustomStringConvertible {
    // Word n holds bytes 4n...4n+3 with byte 4n most significant, so integer
    // order on (w0, w1, w2) is exactly bytewise order.
    private var w0: UInt32
    private var w1: UInt32
    private var w2: UInt32

    /// Generates a new id. Thread-safe; ids from one process are unique as
    /// long as fewer than 2^24 are made within one second.
    ///
    /// The per-process bytes are chosen once at first use; a child created with
    /// `fork()` after that shares them, so it should not generate ids without
    /// an `exec`.
    public init() {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let count = ObjectIdState.counter.wrappingAdd(1, ordering: .relaxed).oldValue & 0xFF_FFFF
        let unique = ObjectIdState.processUnique
        w0 = UInt32(truncatingIfNeeded: now.tv_sec)
        w1 = UInt32(truncatingIfNeeded: unique >> 8)
        w2 = UInt32(truncatingIfNeeded: unique & 0xFF) << 24 | count
    }

    /// Accepts exactly 12 bytes, the only length BSON allows.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 12 else { return nil }
        self.init(packed: bytes.reduce(UInt128(0)) { $0 << 8 | UInt128($1) })
    }

    /// Accepts exactly 24 hex digits in either case, the usual textual form.
    public init?(hex: String) {
        var text = hex
        let packed: UInt128? = text.withUTF8 { utf8 in
            guard utf8.count == 24 else { return nil }
            var value: UInt128 = 0
            for char in utf8 {
                guard let nibble = hexNibble(char) else { return nil }
                value = value << 4 | UInt128(nibble)
            }
            return value
        }
        guard let packed else { return nil }
        self.init(packed: packed)
    }

    /// The 96 bits as one integer, byte 0 most significant.
    private init(packed: UInt128) {
        w0 = UInt32(truncatingIfNeeded: packed >> 64)
        w1 = UInt32(truncatingIfNeeded: packed >> 32)
        w2 = UInt32(truncatingIfNeeded: packed)
    }

    private var packed: UInt128 {
        UInt128(w0) << 64 | UInt128(w1) << 32 | UInt128(w2)
    }

    /// The 12 bytes in storage order.
    public var bytes: [UInt8] {
        let value = packed
        return (0..<12).map { UInt8(truncatingIfNeeded: value >> (88 - 8 * $0)) }
    }

    /// Lowercase hex, the canonical form used by MongoDB tools.
    public var hex: String {
        let value = packed
        return String(unsafeUninitializedCapacity: 24) { buffer in
            for index in 0..<24 {
                buffer[index] = hexDigit(UInt8(truncatingIfNeeded: value >> (92 - 4 * index)) & 0xF)
            }
            return 24
        }
    }

    public var description: String { hex }

    /// Creation time in whole seconds since the Unix epoch (wraps in 2106).
    public var timestampSeconds: UInt32 { w0 }

    public static func < (lhs: ObjectId, rhs: ObjectId) -> Bool {
        (lhs.w0, lhs.w1, lhs.w2) < (rhs.w0, rhs.w1, rhs.w2)
    }
}

/// Process-wide generator state; Swift initialises globals lazily and
/// exactly once, so no extra locking is needed.
private enum ObjectIdState {
    static let processUnique: UInt64 = {
        var generator = SystemRandomNumberGenerator()
        return generator.next() & 0xFF_FFFF_FFFF
    }()
    /// Starts at a random value so restarts of the same process do not replay
    /// the same low bytes within one second.
    static let counter = Atomic<UInt32>(UInt32.random(in: 0...0xFF_FFFF))
}

private func hexNibble(_ char: UInt8) -> UInt8? {
    switch char {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return char - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return char - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return char - UInt8(ascii: "A") + 10
    default: return nil
    }
}

private func hexDigit(_ nibble: UInt8) -> UInt8 {
    nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
}
