import Testing
@testable import DrumlinEngine
@testable import DrumlinSchema
@testable import DrumlinStorage
@testable import DrumlinValues

/// Helpers shared by the query parser tests, namespaced so they cannot collide with other
/// test files' helpers.
enum QueryTestSupport {
    /// The canonical description of `text`, after checking that it parses back to itself and
    /// that every node's range lies inside the text. Records an issue and returns the error
    /// message (prefixed with `ERROR: `) if `text` does not parse.
    static func canonical(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        do {
            let query = try QueryParser.parse(text)
            let description = query.description
            #expect(rangesAreValid(query, byteCount: text.utf8.count), "bad range in \(text)",
                    sourceLocation: sourceLocation)
            do {
                let again = try QueryParser.parse(description).description
                #expect(again == description, "canonical form of \(text) does not reparse to itself",
                        sourceLocation: sourceLocation)
            } catch {
                Issue.record("canonical form '\(description)' of '\(text)' does not parse: \(error.message)",
                             sourceLocation: sourceLocation)
            }
            return description
        } catch {
            Issue.record("'\(text)' did not parse: \(error.message)", sourceLocation: sourceLocation)
            return "ERROR: " + error.message
        }
    }

    /// The message of the error `text` produces, or a note that it parsed.
    static func errorMessage(_ text: String) -> String {
        do {
            let query = try QueryParser.parse(text)
            return "parsed as: \(query)"
        } catch {
            #expect(error.code == .query)
            return error.message
        }
    }

    /// The right-hand side of `x == <literal>`.
    static func literal(_ literal: String, sourceLocation: SourceLocation = #_sourceLocation)
        -> (value: Value, text: String)? {
        do {
            let query = try QueryParser.parse("x == " + literal)
            guard case .comparison(let comparison) = query.predicate.kind,
                  case .constant(let value, let text) = comparison.rhs.kind else {
                Issue.record("'\(literal)' is not a constant: \(query)", sourceLocation: sourceLocation)
                return nil
            }
            return (value, text)
        } catch {
            Issue.record("'\(literal)' did not parse: \(error.message)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// The single comparison of a query.
    static func comparison(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Query.Comparison? {
        guard let query = try? QueryParser.parse(text), case .comparison(let comparison) = query.predicate.kind else {
            Issue.record("'\(text)' is not a single comparison", sourceLocation: sourceLocation)
            return nil
        }
        return comparison
    }

    /// Every node's range is ordered and inside `0...byteCount`; children lie inside parents.
    static func rangesAreValid(_ query: Query, byteCount: Int) -> Bool {
        let whole = Query.SourceRange(start: 0, end: byteCount)
        return valid(query.predicate, in: whole) && query.postfix.allSatisfy { clause in
            guard inside(clause.range, whole) else { return false }
            switch clause.kind {
            case .sort(let keys): return keys.allSatisfy { valid($0.path, in: clause.range) }
            case .distinct(let paths): return paths.allSatisfy { valid($0, in: clause.range) }
            case .limit: return true
            }
        }
    }

    private static func inside(_ range: Query.SourceRange, _ outer: Query.SourceRange) -> Bool {
        range.start <= range.end && range.start >= outer.start && range.end <= outer.end
    }

    private static func valid(_ predicate: Query.Predicate, in outer: Query.SourceRange) -> Bool {
        guard inside(predicate.range, outer) else { return false }
        let range = predicate.range
        switch predicate.kind {
        case .and(let parts), .or(let parts): return parts.allSatisfy { valid($0, in: range) }
        case .not(let inner): return valid(inner, in: range)
        case .truePredicate, .falsePredicate: return true
        case .comparison(let comparison):
            return inside(comparison.range, range) && inside(comparison.operatorRange, comparison.range)
                && valid(comparison.lhs, in: comparison.range) && valid(comparison.rhs, in: comparison.range)
        }
    }

    private static func valid(_ expression: Query.Expression, in outer: Query.SourceRange) -> Bool {
        guard inside(expression.range, outer) else { return false }
        let range = expression.range
        switch expression.kind {
        case .constant, .argument, .objectKey, .objectReference, .objectArgumentReference: return true
        case .keyPath(let path, _), .aggregate(let path, _, _, _), .typeOf(let path, _): return valid(path, in: range)
        case .list(let elements, _): return elements.allSatisfy { valid($0, in: range) }
        case .subquery(let collection, _, let predicate):
            return valid(collection, in: range) && valid(predicate, in: range)
        case .arithmetic(let lhs, _, let rhs): return valid(lhs, in: range) && valid(rhs, in: range)
        case .geoBox(let a, let b): return valid(a, in: range) && valid(b, in: range)
        case .geoCircle(let center, let radius): return valid(center, in: range) && inside(radius.range, range)
        case .geoPolygon(let rings): return rings.allSatisfy { $0.allSatisfy { valid($0, in: range) } }
        }
    }

    private static func valid(_ point: Query.GeoPoint, in outer: Query.SourceRange) -> Bool {
        inside(point.range, outer) && inside(point.longitude.range, point.range)
            && inside(point.latitude.range, point.range) && (point.altitude.map { inside($0.range, point.range) } ?? true)
    }

    private static func valid(_ path: Query.KeyPath, in outer: Query.SourceRange) -> Bool {
        inside(path.range, outer) && path.components.allSatisfy { inside($0.range, path.range) }
    }
}
