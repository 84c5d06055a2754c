import DrumlinValues

extension Database {
    /// Makes cached query results re-evaluate after a migration wrote tables directly (a rename).
    func discardCachedResults() {
        try? serialized { (_) throws(DrumlinError) in commitCount += 1 }
    }
}
