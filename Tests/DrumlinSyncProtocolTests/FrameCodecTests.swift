import DrumlinSyncProtocol
import DrumlinValues
import Testing

@Suite struct FrameCodecTests {
    @Test func clientFramesRoundTrip() throws {
        let hello = ClientFrame.hello(Hello(token: "t", clientId: "c-1",
                                            schema: .array([.object([("name", .string("Reading"))])])))
        let upload = ClientFrame.upload(Upload(seq: 7, inserts: [
            InsertGroup(className: "Reading", objects: [.object([("_id", .int(1))]), .object([("_id", .int(2))])]),
        ]))
        #expect(try FrameCodec.decodeClientFrame(FrameCodec.encode(hello)) == hello)
        #expect(try FrameCodec.decodeClientFrame(FrameCodec.encode(upload)) == upload)
        #expect(FrameCodec.encode(upload) == #"{"type":"upload","seq":7,"inserts":[{"class":"Reading","objects":[{"_id":1},{"_id":2}]}]}"#)
    }

    @Test func serverFramesRoundTrip() throws {
        let frames: [ServerFrame] = [
            .welcome(Welcome(sessionId: "s", userId: "ann", lastSeq: 41, limits: SyncLimits(maxFrameBytes: 1024, maxObjectsPerBatch: 5))),
            .ack(Ack(seq: 42, inserted: 3, existing: [.object([("$oid", .string("65f1c0ffee0123456789abcd"))])])),
            .ack(Ack(seq: 42, duplicate: true)),
            .error(SyncError(.badClientVersion, "upload 3 arrived after 1", seq: 3)),
        ]
        for frame in frames {
            #expect(try FrameCodec.decodeServerFrame(FrameCodec.encode(frame)) == frame)
        }
        #expect(FrameCodec.encode(.error(SyncError(.tokenExpired, "expired"))) ==
                #"{"type":"error","code":202,"name":"token_expired","action":"RefreshUser","tryAgain":true,"message":"expired"}"#)
    }

    @Test func malformedFramesAreBadSyntaxNamingTheField() {
        let cases: [(String, SyncError)] = [
            ("{", SyncError(.badSyntax, "the frame is not JSON: Invalid JSON at byte 1: expected a string key")),
            ("3", SyncError(.badSyntax, #"a frame must be a JSON object with a "type", got a number"#)),
            (#"{"seq": 1}"#, SyncError(.badSyntax, "frame: 'type' must be a string")),
            (#"{"type": "hello", "token": "t", "clientId": "c"}"#,
             SyncError(.badSyntax, "hello frame: 'schema' must be an array of object schemas")),
            (#"{"type": "hello", "token": 5, "clientId": "c", "schema": []}"#,
             SyncError(.badSyntax, "hello frame: 'token' must be a string")),
            (#"{"type": "upload", "seq": 1.5, "inserts": []}"#, SyncError(.badSyntax, "upload frame: 'seq' must be an integer")),
            (#"{"type": "upload", "seq": 2, "inserts": [{"class": "A", "objects": [], "x": 1}]}"#,
             SyncError(.badSyntax, #"upload 2: inserts[0] must be {"class": <name>, "objects": [...]}"#, seq: 2)),
            (#"{"type": "bind"}"#, SyncError(.unknownMessage, "unknown frame type 'bind' (protocol 1 has hello and upload)")),
        ]
        for (text, expected) in cases {
            #expect(throws: expected) { try FrameCodec.decodeClientFrame(text) }
        }
    }

    @Test func errorCodesCarryRealmsNamesAndCloseCodes() {
        #expect(SyncErrorCode.badAuthentication.name == "bad_authentication")
        #expect(SyncErrorCode.badAuthentication.closeCode == 4203)
        #expect(SyncErrorCode(name: "invalid_schema_change") == .invalidSchemaChange)
        #expect(SyncErrorCode(name: "no_such_error") == nil)
        #expect(Set(SyncErrorCode.allCases.map(\.name)).count == SyncErrorCode.allCases.count)
    }
}
