internal import DrumlinEngine

// The engine's types, under names that do not collide with the Realm-shaped API of this module.
typealias EValue = DrumlinEngine.Value
typealias EObject = DrumlinEngine.Object
typealias EList = DrumlinEngine.List
typealias ESet = DrumlinEngine.MutableSet
typealias EMap = DrumlinEngine.Map
typealias EResults = DrumlinEngine.Results
typealias EDatabase = DrumlinEngine.Database
typealias EError = DrumlinEngine.DrumlinError
typealias EObjectId = DrumlinEngine.ObjectId
typealias EDecimal128 = DrumlinEngine.Decimal128
typealias ESchema = DrumlinEngine.Schema
typealias EJSON = DrumlinEngine.JSON
