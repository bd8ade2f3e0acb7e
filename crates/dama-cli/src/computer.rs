//! The computer opponent offered by `dama serve`.

use dama_server::computer::Computer;
use dama_server::engine::EngineComputer;
use std::sync::Arc;

/// The engine behind the server's computer opponent.
pub fn opponent() -> Option<Arc<dyn Computer>> {
    Some(Arc::new(EngineComputer::default()))
}
