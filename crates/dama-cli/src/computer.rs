//! The computer opponent offered by `dama serve`.

use dama_server::computer::Computer;
use std::sync::Arc;

/// The engine behind the server's computer opponent, if this build has one.
pub fn opponent() -> Option<Arc<dyn Computer>> {
    None
}
