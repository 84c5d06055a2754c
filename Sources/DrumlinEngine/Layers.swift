// The engine is four targets, each depending only on those before it (Package.swift):
// DrumlinValues <- DrumlinSchema <- DrumlinStorage <- DrumlinEngine. The C exports and the Swift
// face import DrumlinEngine alone; the public types of the lower layers (Value, Schema,
// DrumlinError, ...) are part of its API.
@_exported import DrumlinSchema
@_exported import DrumlinStorage
@_exported import DrumlinValues
