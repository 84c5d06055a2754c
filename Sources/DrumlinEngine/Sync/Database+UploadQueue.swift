import DrumlinSchema
import DrumlinStorage
import DrumlinValues

/// The sync client's durable upload queue (docs/sync.md, "The upload queue"), in the file:
///
/// - **Queued objects are the asymmetric tables themselves.** Creating an asymmetric object
///   writes its row (and its embedded objects' rows) in the caller's transaction: that row is the
///   queue entry, committed or rolled back with the write that made it. Nothing else reads them.
/// - **Batches are fixed before they are sent.** `fixUploadBatch` takes the oldest queued objects
///   (classes in schema order, each in creation order), up to a count and a byte size, has the
///   caller encode them as one frame under the next sequence number, stores the frame in
///   `_drumlin_sync_batches`, and deletes the objects, in one write transaction. The frame is
///   resent as it is, under the same number, until the service acknowledges it;
///   `dropUploadBatches(through:)` then deletes it.
/// - The client's identity (a UUID made once per file) and the next sequence number are rows of
///   `_drumlin_meta` (`sync_client_id`, `sync_next_seq`).
///
/// The engine knows nothing of the protocol: the caller's `encode` turns a sequence number and
/// the objects (Extended JSON, grouped by class) into the frame's bytes.
package enum UploadQueue {
    package static let table = "_drumlin_sync_batches"
    static let createSQL = "CREATE TABLE IF NOT EXISTS _drumlin_sync_batches (seq INTEGER PRIMARY KEY, frame BLOB NOT NULL, objects INTEGER NOT NULL)"
    package static let clientIdKey = "sync_client_id"
    package static let nextSeqKey = "sync_next_seq"
}

/// One fixed batch: its sequence number, its frame as sent, and how many objects it holds.
package struct UploadBatch: Sendable, Equatable {
    package var seq: Int64
    package var frame: [UInt8]
    package var objects: Int

    package init(seq: Int64, frame: [UInt8], objects: Int) {
        self.seq = seq
        self.frame = frame
        self.objects = objects
    }
}

/// The objects of one class in a batch, as Extended JSON (links as the target's primary key,
/// embedded objects nested).
package struct UploadGroup: Sendable {
    package var className: String
    package var objects: [JSON]
}

extension Database {
    /// The asymmetric classes of the schema: the ones Data Ingest uploads.
    package var uploadedClasses: [String] {
        schema.objectSchemas.filter { $0.kind == .asymmetric }.map(\.name)
    }

    /// The schema a session declares: every asymmetric class and every class they reach through
    /// links (embedded classes, link targets and theirs), in normalized long form, schema order.
    package var uploadSchemaJSON: JSON {
        var included = Set<String>()
        var pending = uploadedClasses
        while let name = pending.popLast() {
            guard included.insert(name).inserted, let objectSchema = schema[name] else { continue }
            for property in objectSchema.properties {
                if let target = property.objectType, !included.contains(target) { pending.append(target) }
            }
        }
        let elements = schema.normalizedJSON.arrayElements ?? []
        return .array(zip(schema.objectSchemas, elements).filter { included.contains($0.0.name) }.map(\.1))
    }

    /// The file's sync client id, made (a random UUID) and stored the first time it is asked for.
    package func uploadClientId() throws(DrumlinError) -> String {
        try serialized { (connection) throws(DrumlinError) -> String in
            if let id = try connection.scalarText("SELECT value FROM _drumlin_meta WHERE key = ?1", [UploadQueue.clientIdKey]) {
                return id
            }
            return try inOwnWrite(connection) { () throws(DrumlinError) -> String in
                // Another connection may have made it while this one waited for the write lock.
                if let id = try connection.scalarText("SELECT value FROM _drumlin_meta WHERE key = ?1", [UploadQueue.clientIdKey]) {
                    return id
                }
                let id = UUIDValue.random().string
                let insert = try connection.statement("INSERT INTO _drumlin_meta (key, value) VALUES (?1, ?2)")
                insert.bind(UploadQueue.clientIdKey, at: 1)
                insert.bind(id, at: 2)
                try insert.run()
                return id
            }
        }
    }

    /// Fixes the next batch: up to `maxObjects` of the oldest queued objects whose frame stays
    /// within `maxBytes`, encoded by `encode` under the next sequence number, stored, and deleted
    /// from their tables, in one write transaction. nil when nothing is queued. A single object
    /// whose frame is over `maxBytes` still makes a batch of its own (the service refuses it and
    /// says why); nothing else would ever send it.
    package func fixUploadBatch(maxObjects: Int, maxBytes: Int,
                                encode: (Int64, [UploadGroup]) -> [UInt8]) throws(DrumlinError) -> UploadBatch? {
        guard maxObjects >= 1, maxBytes >= 1 else {
            throw DrumlinError(.invalidArgument, "A batch needs room for one object (maxObjects \(maxObjects), maxBytes \(maxBytes)).")
        }
        return try serialized { (connection) throws(DrumlinError) -> UploadBatch? in
            try inOwnWrite(connection) { () throws(DrumlinError) -> UploadBatch? in
                try connection.execute(UploadQueue.createSQL)
                // The oldest objects, class by class, with their Extended JSON; `budget` keeps the
                // frame's size in bounds before encoding (the frame adds little around them).
                var picked: [(info: ClassInfo, keys: [Int64], objects: [JSON])] = []
                var count = 0
                var bytes = 256
                collecting: for info in classes where info.schema.kind == .asymmetric {
                    let select = try connection.statement("SELECT t0.\(info.keyColumn) FROM \(info.table) AS t0 ORDER BY \(info.creationOrderT0) LIMIT ?1")
                    select.bind(Int64(maxObjects - count), at: 1)
                    var keys: [Int64] = []
                    while try select.step() { keys.append(select.int64(0)) }
                    select.reset()
                    guard !keys.isEmpty else { continue }
                    var entry: (info: ClassInfo, keys: [Int64], objects: [JSON]) = (info, [], [])
                    var writer = JSONWriter(reservingCapacity: 512)
                    for key in keys {
                        writer.removeAll()
                        try writeJSON(info, key, depth: 0, connection, to: &writer)
                        if count > 0 && bytes + writer.bytes.count + 1 > maxBytes {
                            if !entry.keys.isEmpty { picked.append(entry) }
                            break collecting
                        }
                        let object: JSON
                        do throws(JSONParseError) {
                            object = try JSON.parse(writer.string)
                        } catch {
                            throw DrumlinError(.internal, "An object of '\(info.name)' did not read back as JSON: \(error.description)")
                        }
                        entry.keys.append(key)
                        entry.objects.append(object)
                        bytes += writer.bytes.count + 1
                        count += 1
                    }
                    picked.append(entry)
                    if count >= maxObjects { break }
                }
                guard count > 0 else { return nil }
                let seq = try nextUploadSeq(connection)
                var groups = picked.map { UploadGroup(className: $0.info.name, objects: $0.objects) }
                var frame = encode(seq, groups)
                // The encoder's text may differ from the estimate: halve until the frame fits.
                while frame.count > maxBytes && count > 1 {
                    var keep = count / 2
                    var trimmed: [(info: ClassInfo, keys: [Int64], objects: [JSON])] = []
                    for entry in picked where keep > 0 {
                        let n = min(keep, entry.keys.count)
                        trimmed.append((entry.info, Array(entry.keys.prefix(n)), Array(entry.objects.prefix(n))))
                        keep -= n
                    }
                    picked = trimmed
                    count = picked.reduce(0) { $0 + $1.keys.count }
                    groups = picked.map { UploadGroup(className: $0.info.name, objects: $0.objects) }
                    frame = encode(seq, groups)
                }
                for entry in picked {
                    for key in entry.keys { try deleteObject(entry.info, key, connection, heldByMixedValues: false) }
                }
                let insert = try connection.statement("INSERT INTO _drumlin_sync_batches (seq, frame, objects) VALUES (?1, ?2, ?3)")
                insert.bind(seq, at: 1)
                insert.bind(frame, at: 2)
                insert.bind(Int64(count), at: 3)
                try insert.run()
                let next = try connection.statement("INSERT INTO _drumlin_meta (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
                next.bind(UploadQueue.nextSeqKey, at: 1)
                next.bind(seq + 1, at: 2)
                try next.run()
                return UploadBatch(seq: seq, frame: frame, objects: count)
            }
        }
    }

    /// The fixed batches numbered above `seq`, oldest first, at most `limit`.
    package func uploadBatches(after seq: Int64, limit: Int) throws(DrumlinError) -> [UploadBatch] {
        try serialized { (connection) throws(DrumlinError) -> [UploadBatch] in
            guard try hasUploadBatchTable(connection) else { return [] }
            let select = try connection.statement("SELECT seq, frame, objects FROM _drumlin_sync_batches WHERE seq > ?1 ORDER BY seq LIMIT ?2")
            defer { select.reset() }
            select.bind(seq, at: 1)
            select.bind(Int64(max(0, limit)), at: 2)
            var batches: [UploadBatch] = []
            while try select.step() {
                batches.append(UploadBatch(seq: select.int64(0), frame: select.withBytes(1) { Array($0) }, objects: Int(select.int64(2))))
            }
            return batches
        }
    }

    /// Deletes the batches numbered `seq` and below (acknowledged by the service); the number of
    /// objects they held.
    @discardableResult
    package func dropUploadBatches(through seq: Int64) throws(DrumlinError) -> Int {
        try serialized { (connection) throws(DrumlinError) -> Int in
            guard try hasUploadBatchTable(connection) else { return 0 }
            return try inOwnWrite(connection) { () throws(DrumlinError) -> Int in
                let sum = try connection.statement("SELECT coalesce(sum(objects), 0) FROM _drumlin_sync_batches WHERE seq <= ?1")
                sum.bind(seq, at: 1)
                _ = try sum.step()
                let objects = Int(sum.int64(0))
                sum.reset()
                let delete = try connection.statement("DELETE FROM _drumlin_sync_batches WHERE seq <= ?1")
                delete.bind(seq, at: 1)
                try delete.run()
                return objects
            }
        }
    }

    /// What waits to be uploaded: objects still in their tables, and objects in fixed batches.
    package func uploadQueueCounts() throws(DrumlinError) -> (queued: Int, batched: Int) {
        try serializedRead { (connection) throws(DrumlinError) -> (queued: Int, batched: Int) in
            var queued = 0
            for info in classes where info.schema.kind == .asymmetric { queued += try storedCount(info, connection) }
            guard try hasUploadBatchTable(connection) else { return (queued, 0) }
            let sum = try connection.statement("SELECT coalesce(sum(objects), 0) FROM _drumlin_sync_batches")
            defer { sum.reset() }
            _ = try sum.step()
            return (queued, Int(sum.int64(0)))
        }
    }

    /// Called after every commit through this handle, on the committing thread with the handle's
    /// call lock held: it must only signal (the sync session wakes on it). nil removes it.
    package func setCommitObserver(_ observer: (@Sendable () -> Void)?) {
        commitObserver.withLock { $0 = observer }
    }

    func notifyCommitObserver() {
        if let observer = commitObserver.withLock({ $0 }) { observer() }
    }

    private func nextUploadSeq(_ connection: Connection) throws(DrumlinError) -> Int64 {
        let stored = try connection.scalarText("SELECT value FROM _drumlin_meta WHERE key = ?1", [UploadQueue.nextSeqKey])
        return stored.flatMap { Int64($0) } ?? 1
    }

    private func hasUploadBatchTable(_ connection: Connection) throws(DrumlinError) -> Bool {
        try connection.scalarText("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1", [UploadQueue.table]) != nil
    }

    /// Runs `body` in a write transaction of its own on this handle, committed when it returns.
    private func inOwnWrite<R>(_ connection: Connection, _ body: () throws(DrumlinError) -> R) throws(DrumlinError) -> R {
        try beginWriteLocked(connection)
        do throws(DrumlinError) {
            let result = try body()
            try commitLocked(connection)
            return result
        } catch {
            try? rollbackLocked(connection)
            throw error
        }
    }
}
