//! Storage of games behind a trait, so that the database can be swapped (SQLite for one
//! machine, PostgreSQL for several nodes).
//!
//! A game is stored as a [`GameRecord`] (what never changes: variant, start position, mode) and
//! an append-only log of events, each with its sequence number (1, 2, …). The room that owns a
//! live game appends each event before it tells anybody about it, so a crash loses nothing a
//! player has seen.

mod memory;
mod sqlite;

pub use memory::MemoryStore;
pub use sqlite::SqliteStore;

use core::fmt;

/// What never changes about a game, as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// Public id (in links).
    pub id: String,
    /// Creation time, milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// Variant key.
    pub variant: String,
    /// Start position (canonical FEN).
    pub start_fen: String,
    /// JSON of the game's settings (mode, level, time control, invite code, …).
    pub settings: String,
    /// `waiting`, `active`, `finished` or `cancelled`.
    pub status: String,
}

/// One stored event of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredEvent {
    /// Sequence number: the first event of a game is 1.
    pub seq: u64,
    /// When it happened, milliseconds since the Unix epoch.
    pub at_ms: i64,
    /// JSON of the event.
    pub body: String,
}

/// A game listed in the lobby or among recent games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// The game.
    pub game: StoredGame,
    /// Result text once finished.
    pub result: Option<String>,
}

/// Why the store failed.
#[derive(Debug)]
pub enum StoreError {
    /// The database reported an error.
    Database(String),
    /// An event with this sequence number already exists (two writers for one game).
    Conflict {
        /// The game.
        game: String,
        /// The sequence number that was taken.
        seq: u64,
    },
    /// No such game.
    NotFound(String),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Database(e) => write!(f, "database error: {e}"),
            StoreError::Conflict { game, seq } => {
                write!(f, "game {game} already has an event {seq}")
            }
            StoreError::NotFound(id) => write!(f, "no game {id}"),
        }
    }
}

impl std::error::Error for StoreError {}

/// Storage of games. Methods block; async code calls them through
/// `tokio::task::spawn_blocking` (see [`crate::rooms`]).
pub trait Store: Send + Sync + 'static {
    /// Stores a new game with its first events (seats taken at creation), atomically.
    ///
    /// # Errors
    /// A database error, or [`StoreError::Conflict`] if the id exists.
    fn create_game(&self, game: &StoredGame, events: &[StoredEvent]) -> Result<(), StoreError>;

    /// The game and all its events in order, or `None` if there is no such game.
    ///
    /// # Errors
    /// A database error.
    fn load_game(&self, id: &str) -> Result<Option<(StoredGame, Vec<StoredEvent>)>, StoreError>;

    /// Appends an event. `event.seq` must be one more than the last stored event's; the status
    /// and result are updated in the same transaction when given.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if the sequence number is taken, [`StoreError::NotFound`], or a
    /// database error.
    fn append_event(
        &self,
        id: &str,
        event: &StoredEvent,
        status: Option<(&str, Option<&str>)>,
    ) -> Result<(), StoreError>;

    /// Games with a status, newest first, created at or after `since_ms`, at most `limit`.
    ///
    /// # Errors
    /// A database error.
    fn list_games(
        &self,
        status: &str,
        since_ms: i64,
        limit: usize,
    ) -> Result<Vec<GameSummary>, StoreError>;
}
