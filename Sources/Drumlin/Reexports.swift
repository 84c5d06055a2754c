// Transitional: the engine's dynamic API is re-exported until the Realm-shaped face replaces it.
@_exported public import DrumlinEngine
