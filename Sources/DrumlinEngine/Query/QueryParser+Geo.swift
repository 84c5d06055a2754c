import DrumlinValues

// The right-hand side of GEOWITHIN: a shape or an argument holding one.
//
//   geoBox([lon, lat], [lon, lat])          south-west and north-east corners
//   geoCircle([lon, lat], radiusInRadians)
//   geoPolygon({[lon, lat], …}, {hole…}, …)
//
// Any coordinate (and the radius) may be an argument `$n`. Ranges and closed rings are checked
// by the compiler, which knows the argument values.

extension QueryParser {
    mutating func parseGeoShape() throws(DrumlinError) -> Query.Expression {
        let token = current
        let start = token.range.start
        if case .argument(let index) = token.kind {
            advance()
            return Query.Expression(.argument(index), range: token.range)
        }
        let kind: Query.Expression.Kind
        if peek(1).isSymbol(.leftParen), token.isKeyword("geobox") {
            advance()
            advance()
            let southWest = try parseGeoPoint()
            try expect(.comma, expecting: "',' and the north-east corner")
            let northEast = try parseGeoPoint()
            kind = .geoBox(southWest: southWest, northEast: northEast)
        } else if peek(1).isSymbol(.leftParen), token.isKeyword("geocircle") {
            advance()
            advance()
            let center = try parseGeoPoint()
            try expect(.comma, expecting: "',' and the radius in radians")
            kind = .geoCircle(center: center, radius: try parseGeoCoordinate())
        } else if peek(1).isSymbol(.leftParen), token.isKeyword("geopolygon") {
            advance()
            advance()
            var rings = [try parseGeoRing()]
            while current.isSymbol(.comma) {
                advance()
                rings.append(try parseGeoRing())
            }
            kind = .geoPolygon(rings)
        } else {
            throw unexpected(expecting: "geoBox(…), geoCircle(…), geoPolygon(…) or an argument after GEOWITHIN")
        }
        try expect(.rightParen, expecting: "')'")
        return Query.Expression(kind, range: Query.SourceRange(start: start, end: previousEnd))
    }

    /// `{[lon, lat], [lon, lat], …}`.
    private mutating func parseGeoRing() throws(DrumlinError) -> [Query.GeoPoint] {
        try expect(.leftBrace, expecting: "'{' starting a ring of points")
        var points = [try parseGeoPoint()]
        while current.isSymbol(.comma) {
            advance()
            points.append(try parseGeoPoint())
        }
        try expect(.rightBrace, expecting: "',' or '}'")
        return points
    }

    /// `[lon, lat]` or `[lon, lat, altitude]`.
    private mutating func parseGeoPoint() throws(DrumlinError) -> Query.GeoPoint {
        let start = current.range.start
        try expect(.leftBracket, expecting: "'[' starting a point [longitude, latitude]")
        let longitude = try parseGeoCoordinate()
        try expect(.comma, expecting: "',' and the latitude")
        let latitude = try parseGeoCoordinate()
        var altitude: Query.GeoCoordinate?
        if current.isSymbol(.comma) {
            advance()
            altitude = try parseGeoCoordinate()
        }
        try expect(.rightBracket, expecting: "']'")
        return Query.GeoPoint(longitude: longitude, latitude: latitude, altitude: altitude,
                              range: Query.SourceRange(start: start, end: previousEnd))
    }

    private mutating func parseGeoCoordinate() throws(DrumlinError) -> Query.GeoCoordinate {
        let token = current
        if case .argument(let index) = token.kind {
            advance()
            return Query.GeoCoordinate(.argument(index), range: token.range)
        }
        let isNumeric: Bool
        switch token.kind {
        case .number, .symbol(.minus), .symbol(.plus): isNumeric = true
        case .word: isNumeric = specialDouble(token) != nil
        default: isNumeric = false
        }
        guard isNumeric, let constant = try parseConstant(), case .constant(let value, _) = constant.kind else {
            throw unexpected(expecting: "a number or an argument")
        }
        let number: Double
        switch value {
        case .int(let integer): number = Double(integer)
        case .double(let double): number = double
        case .float(let float): number = Double(float)
        default: throw error("expecting a number or an argument", at: token.range.start)
        }
        return Query.GeoCoordinate(.number(number), range: constant.range)
    }
}
