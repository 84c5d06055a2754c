import DrumlinValues

/// Frames to and from their JSON text (one text WebSocket frame each). Decoding checks every
/// field's presence and type and reports the first problem as `bad_syntax` (103), an unknown
/// `type` as `unknown_message` (102).
public enum FrameCodec {
    // MARK: Client frames

    public static func decodeClientFrame(_ text: String) throws(SyncError) -> ClientFrame {
        var fields = try Fields(text)
        switch try fields.string("type") {
        case "hello":
            guard let schema = fields.object["schema"], case .array = schema else {
                throw fields.problem("'schema' must be an array of object schemas")
            }
            return .hello(Hello(token: try fields.string("token"), clientId: try fields.string("clientId"), schema: schema))
        case "upload":
            let seq = try fields.integer("seq")
            guard case .array(let groups)? = fields.object["inserts"] else {
                throw fields.problem("'inserts' must be an array of {\"class\", \"objects\"}")
            }
            var inserts: [InsertGroup] = []
            inserts.reserveCapacity(groups.count)
            for (i, group) in groups.enumerated() {
                guard case .string(let name)? = group["class"], case .array(let objects)? = group["objects"],
                      group.objectMembers?.count == 2
                else {
                    throw SyncError(.badSyntax, "upload \(seq): inserts[\(i)] must be {\"class\": <name>, \"objects\": [...]}", seq: seq)
                }
                inserts.append(InsertGroup(className: name, objects: objects))
            }
            return .upload(Upload(seq: seq, inserts: inserts))
        case let other:
            throw SyncError(.unknownMessage, "unknown frame type '\(other)' (protocol \(SyncProtocol.version) has hello and upload)")
        }
    }

    public static func encode(_ frame: ClientFrame) -> String {
        var w = JSONWriter()
        switch frame {
        case .hello(let hello):
            w.write(.object([("type", .string("hello")), ("token", .string(hello.token)),
                             ("clientId", .string(hello.clientId)), ("schema", hello.schema)]))
        case .upload(let upload):
            let groups = upload.inserts.map { JSON.object([("class", .string($0.className)), ("objects", .array($0.objects))]) }
            w.write(.object([("type", .string("upload")), ("seq", .int(upload.seq)), ("inserts", .array(groups))]))
        }
        return w.string
    }

    // MARK: Server frames

    public static func encode(_ frame: ServerFrame) -> String {
        var w = JSONWriter()
        switch frame {
        case .welcome(let welcome):
            w.write(.object([
                ("type", .string("welcome")), ("protocol", .int(Int64(SyncProtocol.version))),
                ("sessionId", .string(welcome.sessionId)), ("userId", .string(welcome.userId)),
                ("lastSeq", .int(welcome.lastSeq)),
                ("limits", .object([("maxFrameBytes", .int(Int64(welcome.limits.maxFrameBytes))),
                                    ("maxObjectsPerBatch", .int(Int64(welcome.limits.maxObjectsPerBatch)))])),
            ]))
        case .ack(let ack):
            var members: [(key: String, value: JSON)] = [("type", .string("ack")), ("seq", .int(ack.seq))]
            if ack.duplicate {
                members.append(("duplicate", .bool(true)))
            } else {
                members.append(("inserted", .int(Int64(ack.inserted))))
                members.append(("existing", .array(ack.existing)))
            }
            w.write(.object(members))
        case .error(let error):
            var members: [(key: String, value: JSON)] = [
                ("type", .string("error")), ("code", .int(Int64(error.code.rawValue))), ("name", .string(error.code.name)),
                ("action", .string(error.code.action)), ("tryAgain", .bool(error.code.tryAgain)),
                ("message", .string(error.message)),
            ]
            if let seq = error.seq { members.append(("seq", .int(seq))) }
            w.write(.object(members))
        }
        return w.string
    }

    public static func decodeServerFrame(_ text: String) throws(SyncError) -> ServerFrame {
        var fields = try Fields(text)
        switch try fields.string("type") {
        case "welcome":
            guard case .object? = fields.object["limits"] else { throw fields.problem("'limits' must be an object") }
            let limits = Fields(fields.object["limits"]!, frame: "welcome.limits")
            return .welcome(Welcome(
                sessionId: try fields.string("sessionId"), userId: try fields.string("userId"),
                lastSeq: try fields.integer("lastSeq"),
                limits: SyncLimits(maxFrameBytes: Int(try limits.integer("maxFrameBytes")),
                                   maxObjectsPerBatch: Int(try limits.integer("maxObjectsPerBatch")))))
        case "ack":
            let seq = try fields.integer("seq")
            if fields.object["duplicate"] == .bool(true) { return .ack(Ack(seq: seq, duplicate: true)) }
            guard case .array(let existing)? = fields.object["existing"] else { throw fields.problem("'existing' must be an array") }
            return .ack(Ack(seq: seq, inserted: Int(try fields.integer("inserted")), existing: existing))
        case "error":
            let code = try fields.integer("code")
            guard let known = SyncErrorCode(rawValue: Int(code)) else { throw fields.problem("unknown error code \(code)") }
            let seq: Int64? = if case .int(let s)? = fields.object["seq"] { s } else { nil }
            return .error(SyncError(known, try fields.string("message"), seq: seq))
        case let other:
            throw SyncError(.unknownMessage, "unknown frame type '\(other)'")
        }
    }
}

/// A frame's top-level object, read field by field with errors that name the field.
private struct Fields {
    let object: JSON
    var frame: String

    init(_ text: String) throws(SyncError) {
        let parsed: JSON
        do throws(JSONParseError) {
            parsed = try JSON.parse(text)
        } catch {
            throw SyncError(.badSyntax, "the frame is not JSON: \(error.description)")
        }
        guard case .object = parsed else {
            throw SyncError(.badSyntax, "a frame must be a JSON object with a \"type\", got \(parsed.javaScriptDescription)")
        }
        self.init(parsed, frame: "frame")
    }

    init(_ object: JSON, frame: String) {
        self.object = object
        self.frame = frame
    }

    func problem(_ detail: String) -> SyncError {
        SyncError(.badSyntax, "\(frame): \(detail)")
    }

    mutating func string(_ key: String) throws(SyncError) -> String {
        guard case .string(let value)? = object[key] else { throw problem("'\(key)' must be a string") }
        if key == "type" { frame = "\(value) frame" }
        return value
    }

    func integer(_ key: String) throws(SyncError) -> Int64 {
        guard case .int(let value)? = object[key] else { throw problem("'\(key)' must be an integer") }
        return value
    }
}
