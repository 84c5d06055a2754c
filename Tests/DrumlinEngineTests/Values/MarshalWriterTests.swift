import DrumlinEngine
import Testing

/// MarshalWriter: Python's marshal format written in place into a caller's buffer.
@Suite struct MarshalWriterTests {
    @Test func marshalWriterWritesInPlaceAndCountsPastTheEnd() throws {
        let text = Array("héllo".utf8)
        func write(_ writer: inout MarshalWriter) {
            writer.beginTuple(5)
            text.withUnsafeBytes { _ = writer.put(.text($0)) }
            writer.put(.int(-70000))
            writer.put(.int(1 << 40))
            writer.put(.double(0.5))
            writer.put(.null)
        }
        // 2 header + 5+6 text + 5 int + (1+4+3*2) long + 9 double + 1 None
        let size = 2 + 11 + 5 + 11 + 9 + 1
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 1)
        defer { memory.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: 0xEE)
        var full = MarshalWriter(into: memory.baseAddress, capacity: 64)
        write(&full)
        #expect(full.count == size && full.fits)
        let bytes = Array(memory[0..<size])
        #expect(bytes[0..<2] == [UInt8(ascii: ")"), 5])
        #expect(bytes[2..<13] == [UInt8(ascii: "u"), 6, 0, 0, 0] + text[...])
        #expect(bytes[13..<18] == [UInt8(ascii: "i"), 0x90, 0xEE, 0xFE, 0xFF])  // -70000, little endian
        // 2^40 as a Python long: three 15-bit digits (0, 0, 1024), least significant first.
        #expect(bytes[18..<29] == [UInt8(ascii: "l"), 3, 0, 0, 0, 0, 0, 0, 0, 0, 4])
        #expect(bytes[29] == UInt8(ascii: "g") && bytes[38] == UInt8(ascii: "N"))
        #expect(memory[size] == 0xEE)  // nothing past the end

        // Too small: the same count, nothing written beyond the capacity.
        memory.initializeMemory(as: UInt8.self, repeating: 0xEE)
        var small = MarshalWriter(into: memory.baseAddress, capacity: 10)
        write(&small)
        #expect(small.count == size && !small.fits)
        #expect(memory[10..<64].allSatisfy { $0 == 0xEE })
        var counting = MarshalWriter(into: nil, capacity: 100)
        write(&counting)
        #expect(counting.count == size && !counting.fits)
    }
}
