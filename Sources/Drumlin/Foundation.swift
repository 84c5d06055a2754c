// `import Drumlin` gives `Date`, `Data`, `UUID` and `URL`, as `import RealmSwift` does. The engine
// and libdrumlin.so stay free of Foundation: only this Swift face links it.
@_exported import Foundation
