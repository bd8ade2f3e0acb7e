//! # dama-engine
//!
//! The dama draughts engine. An [`Engine`] holds a position (with the game history, so that it
//! knows repetitions and draw rules), searches it within [`Limits`] and reports progress and its
//! move as events; it knows no protocol. The search is an iterative-deepening principal-variation
//! alpha-beta with a lock-free transposition table, killer and history move ordering, late-move
//! reductions, shallow-search (probcut) pruning, aspiration windows, a quiescence search through
//! compulsory captures, and lazy SMP threads; on 8x8 boards an endgame database of every
//! position of up to four pieces ([`endgame`]). It is generic over the rule set, so every
//! variant gets its own compiled search.
//!
//! ```
//! use dama_core::{AnyPosition, Variant};
//! use dama_engine::{Engine, EngineOptions, Level, Limits};
//! let mut engine = Engine::new(EngineOptions { level: Level::new(3).unwrap(), ..Default::default() });
//! engine.set_position(AnyPosition::start(Variant::International), &[]);
//! let result = engine.search(Limits::default(), |_| {});
//! let m = result.best_move.unwrap();
//! assert!(AnyPosition::start(Variant::International).legal_moves().contains(&m));
//! ```

pub mod bench;
pub mod book;
pub mod endgame;
pub mod engine;
pub mod eval;
pub mod level;
pub mod limits;
pub mod net_train;
pub mod network;
pub mod pattern;
pub mod score;
mod search;
pub mod selfplay;
pub mod shots;
#[cfg(test)]
mod test_support;
pub mod train;
mod tt;
pub mod tune;

pub use engine::{Engine, EngineOptions, Event, SearchInfo, SearchResult, StopHandle};
pub use level::{Level, LevelParams};
pub use limits::{Clock, Limits};
pub use score::Score;
