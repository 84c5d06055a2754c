import DrumlinValues
import Glibc
import Logging

/// Structured logs: one JSON object per line on standard error
/// (`{"ts":"…","level":"info","msg":"…","client":"…",…}`), for journald or a log shipper.
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let (level, message, extra) = (event.level, event.message, event.metadata)
        var members: [(key: String, value: JSON)] = [
            ("ts", .string(Self.now())), ("level", .string(level.rawValue)), ("msg", .string(message.description)),
        ]
        let merged = metadata.merging(extra ?? [:]) { _, new in new }
        for key in merged.keys.sorted() { members.append((key, .string(merged[key]!.description))) }
        if let error = event.error { members.append(("error", .string("\(error)"))) }
        if label != "drumlin-sync" { members.append(("logger", .string(label))) }
        var writer = JSONWriter()
        writer.write(.object(members))
        writer.writeByte(UInt8(ascii: "\n"))
        // One write(2) per record: lines from concurrent sessions never interleave.
        writer.bytes.withUnsafeBufferPointer { buffer in
            _ = Glibc.write(2, buffer.baseAddress, buffer.count)
        }
    }

    private static func now() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Timestamp(seconds: Int64(spec.tv_sec), nanoseconds: Int32(spec.tv_nsec / 1000 * 1000)).iso8601
    }
}
