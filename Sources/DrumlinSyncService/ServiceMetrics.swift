import CoreMetrics
import DrumlinSyncProtocol
import Metrics

/// The service's metrics (swift-metrics, exported by `/metrics` in Prometheus's text format).
struct ServiceMetrics: Sendable {
    let sessionsActive = Meter(label: "drumlin_sync_sessions_active")
    let sessionsTotal = Counter(label: "drumlin_sync_sessions_total")
    let objectsInserted = Counter(label: "drumlin_sync_objects_inserted_total")
    let connectionErrors = Counter(label: "drumlin_sync_connection_errors_total")
    let batchTime = Metrics.Timer(label: "drumlin_sync_batch_seconds")

    func batches(_ result: String) -> Counter {
        Counter(label: "drumlin_sync_batches_total", dimensions: [("result", result)])
    }

    func errors(_ code: SyncErrorCode) -> Counter {
        Counter(label: "drumlin_sync_errors_total", dimensions: [("name", code.name)])
    }
}
