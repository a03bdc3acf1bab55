//! The CLI transport: `openclaw agent ...` as a child of the process supervisor (own process
//! group, stdin null, minimal environment, whole-tree kill).

use tokio_util::sync::CancellationToken;

use super::transport::{ChunkSink, NoteSink, RunPlan, StartFailure, Transport, TransportEnd};
use crate::tool::BoxFuture;

pub struct CliTransport;

impl Transport for CliTransport {
    fn run(
        &self,
        _plan: RunPlan,
        _chunks: ChunkSink,
        _notes: NoteSink,
        _stop: CancellationToken,
    ) -> BoxFuture<'static, TransportEnd> {
        // Wired to crate::process as soon as the supervisor lands (issue 3).
        Box::pin(async move {
            TransportEnd {
                failure: Some(StartFailure::Spawn {
                    error: "process supervisor not built yet".into(),
                    not_found: false,
                }),
                ..TransportEnd::default()
            }
        })
    }
}
