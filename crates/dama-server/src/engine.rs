//! The computer opponent: the `dama-engine` search behind the [`Computer`] trait.

use crate::computer::{Computer, ComputerRequest};
use dama_core::AnyMove;
use dama_engine::{Engine, EngineOptions, Level, Limits};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Longest think when the game has no clock (the strongest level has no depth or node limit
/// of its own).
pub const MAX_THINK: Duration = Duration::from_secs(2);

/// The dama engine at the ten levels it offers.
#[derive(Clone, Copy, Debug)]
pub struct EngineComputer {
    /// Transposition table per search, MiB.
    pub hash_mb: usize,
}

impl Default for EngineComputer {
    fn default() -> Self {
        EngineComputer { hash_mb: 16 }
    }
}

impl Computer for EngineComputer {
    fn name(&self) -> String {
        "dama engine".into()
    }

    fn levels(&self) -> u8 {
        Level::all().count() as u8
    }

    fn choose(&self, request: &ComputerRequest, stop: &AtomicBool) -> Option<AnyMove> {
        let level = Level::new(request.level)?;
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let mut engine = Engine::new(EngineOptions {
            threads: 1,
            hash_mb: self.hash_mb,
            level,
            seed: None,
            game_options: request.game.options(),
        });
        engine.set_game(&request.game);
        let limits = match request.clock_ms {
            Some(ms) => Limits::clock(
                Duration::from_millis(ms),
                Duration::from_millis(request.increment_ms),
                None,
            ),
            None => Limits::move_time(MAX_THINK),
        };
        let handle = engine.stop_handle();
        let done = AtomicBool::new(false);
        let result = std::thread::scope(|s| {
            // Passes the room's "stop" on to the search (again and again: a search that is
            // just starting clears an earlier stop).
            s.spawn(|| {
                while !done.load(Ordering::Relaxed) {
                    if stop.load(Ordering::Relaxed) {
                        handle.stop();
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
            });
            let result = engine.search(limits, |_| {});
            done.store(true, Ordering::Relaxed);
            result
        });
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let m = result.best_move?;
        // Never trust a move without checking it against the rules.
        request.game.legal_moves().contains(&m).then_some(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dama_core::{Game, Variant};
    use std::time::Instant;

    #[test]
    fn every_level_plays_a_legal_move_in_every_variant() {
        let computer = EngineComputer { hash_mb: 1 };
        let stop = AtomicBool::new(false);
        for variant in Variant::ALL {
            for level in [1, 5] {
                let game = Game::new(variant);
                let request = ComputerRequest {
                    game: game.clone(),
                    level,
                    clock_ms: Some(2_000),
                    increment_ms: 0,
                };
                let m = computer
                    .choose(&request, &stop)
                    .unwrap_or_else(|| panic!("{variant} level {level}: no move"));
                assert!(game.legal_moves().contains(&m), "{variant}");
            }
        }
        assert_eq!(computer.levels(), 10);
    }

    #[test]
    fn stop_ends_the_strongest_search_at_once() {
        let computer = EngineComputer { hash_mb: 1 };
        let stop = AtomicBool::new(false);
        let request = ComputerRequest {
            game: Game::new(Variant::International),
            level: 10,
            clock_ms: None,
            increment_ms: 0,
        };
        let started = Instant::now();
        std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(Duration::from_millis(100));
                stop.store(true, Ordering::Relaxed);
            });
            assert_eq!(computer.choose(&request, &stop), None);
        });
        // It would think for MAX_THINK (2 s) without the stop.
        assert!(
            started.elapsed() < Duration::from_millis(1000),
            "{:?}",
            started.elapsed()
        );
    }
}
