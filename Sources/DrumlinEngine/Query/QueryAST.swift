import DrumlinValues

/// A parsed Realm Query Language (RQL) query: a predicate followed by SORT, DISTINCT and LIMIT
/// clauses in the order they were written.
///
/// The tree is purely syntactic: names are not resolved against a schema and constants are not
/// converted to property types. That is the query compiler's job, which can point at the
/// offending source text through the `range` that every node carries.
///
/// Node types are nested here (`Query.Predicate`, `Query.KeyPath`, ...) so that short names such
/// as `KeyPath` and `Expression` never collide with the standard library or other engine types.
/// Each node is a struct holding a `kind` enum plus its `range`, so that compiler code can
/// `switch node.kind` and still report positions. `description` prints a canonical, fully
/// parenthesized form that parses back to the same tree.
public struct Query: Sendable, Equatable {
    public var predicate: Predicate
    /// SORT / DISTINCT / LIMIT clauses, in written order (each applies to the result of the
    /// previous one, as in Realm).
    public var postfix: [PostfixClause]

    public init(predicate: Predicate, postfix: [PostfixClause] = []) {
        self.predicate = predicate
        self.postfix = postfix
    }
}

extension Query {
    /// A half-open range of UTF-8 byte offsets into the query text: `start..<end`.
    public struct SourceRange: Hashable, Sendable {
        public var start: Int
        public var end: Int
        public init(start: Int, end: Int) {
            self.start = start
            self.end = end
        }

        /// The smallest range covering both.
        public func union(_ other: SourceRange) -> SourceRange {
            SourceRange(start: min(start, other.start), end: max(end, other.end))
        }
    }

    // MARK: Predicates

    public struct Predicate: Sendable, Equatable {
        public indirect enum Kind: Sendable, Equatable {
            /// `a && b && c`: one node for a chain written without parentheses, two or more parts.
            case and([Predicate])
            /// `a || b || c`: likewise.
            case or([Predicate])
            /// `!p`, `NOT p`.
            case not(Predicate)
            /// `TRUEPREDICATE`: matches every object.
            case truePredicate
            /// `FALSEPREDICATE`: matches nothing.
            case falsePredicate
            case comparison(Comparison)
        }

        public var kind: Kind
        /// Includes the parentheses when the predicate was written inside some.
        public var range: SourceRange

        public init(_ kind: Kind, range: SourceRange) {
            self.kind = kind
            self.range = range
        }
    }

    /// `lhs op[c] rhs`.
    ///
    /// Shapes the parser guarantees: for `.between` the right side is a `.list` of exactly two
    /// elements (constants or arguments) without a quantifier; for `.geoWithin` the left side is a
    /// `.keyPath` and the right side is `.geoBox`, `.geoCircle`, `.geoPolygon` or `.argument`.
    /// `caseInsensitive` is only ever set for `== != IN BEGINSWITH ENDSWITH CONTAINS LIKE`.
    public struct Comparison: Sendable, Equatable {
        public var lhs: Expression
        public var op: ComparisonOperator
        public var rhs: Expression
        /// Written with `[c]` after the operator.
        public var caseInsensitive: Bool
        public var range: SourceRange
        /// Where the operator (and its `[c]`, if any) was written.
        public var operatorRange: SourceRange

        public init(lhs: Expression, op: ComparisonOperator, rhs: Expression, caseInsensitive: Bool = false,
                    range: SourceRange, operatorRange: SourceRange) {
            self.lhs = lhs
            self.op = op
            self.rhs = rhs
            self.caseInsensitive = caseInsensitive
            self.range = range
            self.operatorRange = operatorRange
        }
    }

    public enum ComparisonOperator: String, Sendable, CaseIterable {
        case equal = "=="                       // also written `=`
        case notEqual = "!="                    // also written `<>`
        case less = "<"
        case lessOrEqual = "<="                 // also written `=<`
        case greater = ">"
        case greaterOrEqual = ">="              // also written `=>`
        case beginsWith = "BEGINSWITH"
        case endsWith = "ENDSWITH"
        case contains = "CONTAINS"
        case like = "LIKE"
        case `in` = "IN"
        case text = "TEXT"
        case between = "BETWEEN"
        case geoWithin = "GEOWITHIN"

        /// Whether `[c]` may follow the operator.
        public var allowsCaseInsensitive: Bool {
            switch self {
            case .equal, .notEqual, .in, .beginsWith, .endsWith, .contains, .like: true
            default: false
            }
        }
    }

    // MARK: Expressions

    public struct Expression: Sendable, Equatable {
        public indirect enum Kind: Sendable, Equatable {
            /// A scalar literal. `literal` is the exact source text (with a `-` sign folded in,
            /// e.g. `-0.10`; a `+` is dropped), so that a number compared with a decimal128 property can be converted
            /// exactly with `Decimal128(string:)` instead of going through `Double`.
            ///
            /// Values produced: `.null` (`null`, `nil`), `.bool`, `.int` (decimal or `0x` hex;
            /// integers beyond Int64 become `.double`), `.double` (`1.5`, `1e5`, `inf`, `nan`),
            /// `.float` (`2.5f`), `.string`, `.data` (`B64"…"`, `bin('…')`, `binary(…)`),
            /// `.date`, `.objectId`, `.uuid`, and `.link` for a typed link `L<table>:<key>`.
            /// Realm types a `B64"…"` constant by what it is compared with: against a string
            /// property its bytes are the UTF-8 of the string.
            case constant(Value, literal: String)
            /// `$0`, `$1`, …: a scalar or list supplied by the caller.
            case argument(Int)
            /// A property path. `quantifier` is the written `ANY`/`SOME`/`ALL`/`NONE`, nil when
            /// none was written (a to-many path then means ANY).
            case keyPath(KeyPath, quantifier: Quantifier?)
            /// `{1, 2}`, `ANY {…}`, `ALL {…}`, `NONE {…}`. Elements are constants or arguments;
            /// the list may be empty.
            case list([Expression], quantifier: Quantifier?)
            /// `path.@count`, `path.@size`, `path[SIZE]`, `path.@sum`, `path.@avg.prop`, ….
            /// `property` is the name after a `@sum/@avg/@min/@max` over a link list
            /// (`items.@sum.price`); always nil for `.count`.
            case aggregate(KeyPath, AggregateOperator, property: String?, quantifier: Quantifier?)
            /// `path.@type`: the type name of a mixed value, compared with strings.
            case typeOf(KeyPath, quantifier: Quantifier?)
            /// `SUBQUERY(collection, $x, predicate).@count`: the number of elements of
            /// `collection` for which `predicate` holds, with `$x` naming the element.
            /// `variable` is stored without its `$`.
            case subquery(collection: KeyPath, variable: String, predicate: Predicate)
            /// `lhs op rhs` with `* /` binding tighter than `+ -`, all left-associative.
            case arithmetic(Expression, ArithmeticOperator, Expression)
            /// `O<key>`: an object of the compared link property's target class, by object key.
            case objectKey(Int64)
            /// `obj('Class', primaryKey)`: an object by class name and primary key.
            case objectReference(className: String, primaryKey: Value)
            /// `obj('Class', $0)`: an object by class name and a primary key given as an argument.
            case objectArgumentReference(className: String, argument: Int)
            /// `geoBox([lon, lat], [lon, lat])`: south-west and north-east corners.
            case geoBox(southWest: GeoPoint, northEast: GeoPoint)
            /// `geoCircle([lon, lat], radius)` with the radius in radians.
            case geoCircle(center: GeoPoint, radius: GeoCoordinate)
            /// `geoPolygon({outer ring}, {hole}, …)`: each ring as written (the compiler checks
            /// that rings are closed and coordinates in range).
            case geoPolygon([[GeoPoint]])
        }

        public var kind: Kind
        /// Includes parentheses and quantifiers written around or before the expression.
        public var range: SourceRange

        public init(_ kind: Kind, range: SourceRange) {
            self.kind = kind
            self.range = range
        }
    }

    /// Named so that no case reads as `Optional.none` where a `Quantifier?` is expected.
    public enum Quantifier: String, Sendable, CaseIterable {
        case anyElement = "ANY"     // also written SOME
        case allElements = "ALL"
        case noElement = "NONE"
    }

    public enum AggregateOperator: String, Sendable, CaseIterable {
        case count = "@count"  // also written @size and [SIZE]
        case sum = "@sum"
        case avg = "@avg"
        case min = "@min"
        case max = "@max"
    }

    public enum ArithmeticOperator: String, Sendable, CaseIterable {
        case add = "+"
        case subtract = "-"
        case multiply = "*"
        case divide = "/"
    }

    /// `[lon, lat]` or `[lon, lat, altitude]` inside a geo shape.
    public struct GeoPoint: Sendable, Equatable {
        public var longitude: GeoCoordinate
        public var latitude: GeoCoordinate
        public var altitude: GeoCoordinate?
        public var range: SourceRange

        public init(longitude: GeoCoordinate, latitude: GeoCoordinate, altitude: GeoCoordinate? = nil,
                    range: SourceRange) {
            self.longitude = longitude
            self.latitude = latitude
            self.altitude = altitude
            self.range = range
        }
    }

    /// A number or an argument standing for one.
    public struct GeoCoordinate: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            case number(Double)
            case argument(Int)
        }

        public var kind: Kind
        public var range: SourceRange

        public init(_ kind: Kind, range: SourceRange) {
            self.kind = kind
            self.range = range
        }
    }

    // MARK: Key paths

    /// A property path such as `dogs[0].name`, `@links.Person.dogs`, `dict['key']` or `$x.price`.
    /// Collection operators that end a path (`@count`, `@type`, …) are not components: they
    /// turn the path into an `.aggregate` or `.typeOf` expression.
    public struct KeyPath: Sendable, Equatable {
        public var components: [PathComponent]
        public var range: SourceRange

        public init(_ components: [PathComponent], range: SourceRange) {
            self.components = components
            self.range = range
        }
    }

    public struct PathComponent: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// A property name (or dictionary key written as `dict.key`), with `\ ` escapes
            /// already decoded to spaces. Keywords such as `sort` or `in` are valid names.
            case property(String)
            /// `@links.Class.property`: objects of `Class` linking here through `property`.
            case backlinks(className: String, property: String)
            /// `@links` on its own, only ever directly before `@count`: all incoming links.
            case allBacklinks
            /// `@keys` of a dictionary.
            case keys
            /// `@values` of a dictionary.
            case values
            /// `[3]`: a position in a list (also in a list inside a mixed value).
            case index(Int)
            /// `[FIRST]`.
            case first
            /// `[LAST]`.
            case last
            /// `[*]`: every element (of a list or dictionary inside a mixed value).
            case all
            /// `['key']`: a dictionary key.
            case key(String)
            /// `[$0]`: a dictionary key or list index supplied as an argument.
            case argument(Int)
            /// `$x` at the start of a path inside `SUBQUERY(…, $x, …)`; stored without `$`.
            case variable(String)
            /// `$K0` at the start of a path: a key path supplied as an argument.
            case keyPathArgument(Int)
        }

        public var kind: Kind
        public var range: SourceRange

        public init(_ kind: Kind, range: SourceRange) {
            self.kind = kind
            self.range = range
        }
    }

    // MARK: Postfix clauses

    public struct SortKey: Sendable, Equatable {
        public var path: KeyPath
        public var ascending: Bool

        public init(path: KeyPath, ascending: Bool) {
            self.path = path
            self.ascending = ascending
        }
    }

    public struct PostfixClause: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// `SORT(a ASC, b.c DESC)`.
            case sort([SortKey])
            /// `DISTINCT(a, b)`.
            case distinct([KeyPath])
            /// `LIMIT(n)` with n ≥ 0.
            case limit(Int)
        }

        public var kind: Kind
        public var range: SourceRange

        public init(_ kind: Kind, range: SourceRange) {
            self.kind = kind
            self.range = range
        }
    }
}
