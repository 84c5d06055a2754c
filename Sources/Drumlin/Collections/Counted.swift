internal import DrumlinEngine

/// The result of an engine read that can fail only on a bug or a closed database: such a failure
/// stops the program with the engine's message, as Realm raises there.
func _counted<R>(_ body: () throws(EError) -> R) -> R {
    do {
        return try body()
    } catch {
        _fatal(Realm.Error(error))
    }
}
