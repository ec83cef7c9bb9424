import Foundation

/// Human-readable sizes for reports: `512 B`, `3.4 KiB`, `81.9 MiB`, `1.20 GiB`.
package enum ByteCount {
    package static func format(_ bytes: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        if unit == 0 { return "\(bytes) B" }
        return String(format: value >= 100 ? "%.0f" : value >= 10 ? "%.1f" : "%.2f", value) + " " + units[unit]
    }
}
