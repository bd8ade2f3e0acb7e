//! The computer opponent offered by `dama serve`.

use dama_engine::book::Book;
use dama_server::computer::Computer;
use dama_server::engine::EngineComputer;
use std::sync::Arc;

/// The engine behind the server's computer opponent, playing from `books` at full strength
/// with an endgame database of up to `endgame_pieces` pieces.
pub fn opponent(books: Vec<Arc<Book>>, endgame_pieces: u32) -> Option<Arc<dyn Computer>> {
    Some(Arc::new(
        EngineComputer::default()
            .with_books(books)
            .with_endgame_pieces(endgame_pieces),
    ))
}
