//! The computer opponent: the `dama-engine` search behind the [`Computer`] trait.

use crate::computer::{Computer, ComputerRequest};
use dama_core::{AnyMove, Game, GameOptions, Variant};
use dama_engine::book::Book;
use dama_engine::{Engine, EngineOptions, Level, Limits, Score};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Longest think when the game has no clock (the strongest level has no depth or node limit
/// of its own).
pub const MAX_THINK: Duration = Duration::from_secs(2);

/// Nodes of the full-strength search that judges a draw offer (a few hundredths of a second).
pub const DRAW_NODES: u64 = 300_000;
/// The computer accepts a draw when it stands worse than this (hundredths of a man, its view)...
pub const DRAW_WHEN_WORSE: i32 = -30;
/// ...or, once [`DRAW_MIN_PLIES`] moves have been played, when it is no better than this.
pub const DRAW_WHEN_LEVEL: i32 = 10;
/// Plies before a level position is worth a draw: nobody agrees a draw in the opening.
pub const DRAW_MIN_PLIES: usize = 30;

/// Whether a computer whose position scores `score` (its own view) accepts a draw after
/// `plies` moves: never when it sees a win, always when it sees a loss or stands worse, and in
/// a level position only after the opening.
pub fn draw_is_acceptable(score: Score, plies: usize) -> bool {
    match score {
        Score::Win(_) => false,
        Score::Loss(_) => true,
        Score::Eval(e) => e <= DRAW_WHEN_WORSE || (e <= DRAW_WHEN_LEVEL && plies >= DRAW_MIN_PLIES),
    }
}

/// The dama engine at the ten levels it offers.
///
/// Engines are kept between searches, each with its transposition table: the next move of a
/// game starts from what the search of the previous one learnt (and its table's memory is
/// already mapped). An engine waits for the next search of its variant, rules and level; a
/// search with none waiting takes any idle engine and clears its table, or makes a new one.
/// At most as many engines live as searches ran at once (the [`crate::computer::ComputerPool`]'s
/// workers), each with `hash_mb` of table.
///
/// Opening books ([`EngineComputer::with_books`]) are played from at full strength only: the
/// gentle levels keep the mistakes they are made for.
#[derive(Debug)]
pub struct EngineComputer {
    hash_mb: usize,
    idle: Mutex<Vec<Seated>>,
    books: Vec<Arc<Book>>,
    endgame_pieces: u32,
}

/// An idle engine and what its table holds.
#[derive(Debug)]
struct Seated {
    engine: Engine,
    key: TableKey,
}

/// The searches whose findings an engine's table holds: positions of one variant under one
/// set of rules, judged at one level (the gentle levels judge differently).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct TableKey {
    variant: Variant,
    options: GameOptions,
    level: Level,
}

impl TableKey {
    fn of(game: &Game, level: Level) -> TableKey {
        TableKey {
            variant: game.variant(),
            options: game.options(),
            level,
        }
    }
}

impl Default for EngineComputer {
    fn default() -> Self {
        EngineComputer::new(16)
    }
}

impl EngineComputer {
    /// The engine with `hash_mb` MiB of transposition table per search.
    pub fn new(hash_mb: usize) -> Self {
        EngineComputer {
            hash_mb,
            idle: Mutex::new(Vec::new()),
            books: Vec::new(),
            endgame_pieces: EngineOptions::default().endgame_pieces,
        }
    }

    /// The same, playing its moves at level 10 from the book of the game's variant while the
    /// game follows it (one book per variant; see [`dama_engine::book::Book::choose`]).
    pub fn with_books(self, books: Vec<Arc<Book>>) -> Self {
        EngineComputer { books, ..self }
    }

    /// The same, its level 10 using the endgame database of up to `pieces` pieces on the 8x8
    /// boards ([`dama_engine::endgame`]).
    pub fn with_endgame_pieces(self, pieces: u32) -> Self {
        EngineComputer {
            endgame_pieces: pieces,
            ..self
        }
    }

    /// The book a move search of `key`'s kind plays from, if any.
    fn book_for(&self, key: TableKey) -> Option<Arc<Book>> {
        if key.level != Level::MAX {
            return None;
        }
        self.books
            .iter()
            .find(|b| b.variant() == key.variant)
            .cloned()
    }

    /// An engine for a search of `key`'s kind: the idle one that searched the same kind last,
    /// else another idle one with its table cleared, else a new one.
    fn take(&self, key: TableKey) -> Engine {
        let other = {
            let Ok(mut idle) = self.idle.lock() else {
                return self.new_engine(key);
            };
            if let Some(i) = idle.iter().position(|s| s.key == key) {
                return idle.swap_remove(i).engine;
            }
            idle.pop()
        };
        match other {
            // Cleared outside the lock: it writes the whole table.
            Some(Seated { mut engine, .. }) => {
                engine.new_game();
                engine.set_level(key.level);
                engine
            }
            None => self.new_engine(key),
        }
    }

    fn new_engine(&self, key: TableKey) -> Engine {
        Engine::new(EngineOptions {
            threads: 1,
            hash_mb: self.hash_mb,
            level: key.level,
            seed: None,
            game_options: key.options,
            endgame_pieces: self.endgame_pieces,
        })
    }

    /// Returns an engine after its search, for the next one of `key`'s kind.
    fn put_back(&self, engine: Engine, key: TableKey) {
        if let Ok(mut idle) = self.idle.lock() {
            idle.push(Seated { engine, key });
        }
    }

    /// Runs a search of `game` at `level` on a kept engine; a move search (`book`) may play
    /// from the opening book instead.
    fn search(
        &self,
        game: &Game,
        level: Level,
        limits: Limits,
        stop: &AtomicBool,
        book: bool,
    ) -> dama_engine::SearchResult {
        let key = TableKey::of(game, level);
        let mut engine = self.take(key);
        engine.set_book(if book { self.book_for(key) } else { None });
        engine.set_game(game);
        let result = search_stoppable(&mut engine, limits, stop);
        self.put_back(engine, key);
        result
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
        let limits = match request.clock_ms {
            Some(ms) => Limits::clock(
                Duration::from_millis(ms),
                Duration::from_millis(request.increment_ms),
                None,
            ),
            None => Limits::move_time(MAX_THINK),
        };
        let result = self.search(&request.game, level, limits, stop, true);
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let m = result.best_move?;
        // Never trust a move without checking it against the rules.
        request.game.legal_moves().contains(&m).then_some(m)
    }

    fn accepts_draw(&self, request: &ComputerRequest, stop: &AtomicBool) -> bool {
        let game = &request.game;
        let Some(offered_by) = game.draw_offer() else {
            return false;
        };
        if game.is_over() || stop.load(Ordering::Relaxed) {
            return false;
        }
        // A node count, and a time cap as for a move: with a time limit the search takes the
        // 8x8 endgame database only if it is built, instead of waiting for its first build.
        let limits = Limits {
            move_time: Some(MAX_THINK),
            ..Limits::nodes(DRAW_NODES)
        };
        // The judgement is the computer's best, whatever level it plays at: a gentle
        // computer still knows when it is winning.
        // Never from the book: a book move comes without a score.
        let result = self.search(game, Level::MAX, limits, stop, false);
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        // The search scores for the side to move; the computer is the side that did not offer.
        let mine = if game.position().side_to_move() == offered_by {
            result.score.flip()
        } else {
            result.score
        };
        draw_is_acceptable(mine, game.moves().len())
    }
}

/// Runs `engine`'s search, passing the room's `stop` on to it.
fn search_stoppable(
    engine: &mut Engine,
    limits: Limits,
    stop: &AtomicBool,
) -> dama_engine::SearchResult {
    let handle = engine.stop_handle();
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
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
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    impl EngineComputer {
        fn idle_engines(&self) -> usize {
            self.idle.lock().unwrap().len()
        }
    }

    #[test]
    fn every_level_plays_a_legal_move_in_every_variant() {
        let computer = EngineComputer::new(1);
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
    fn full_strength_plays_from_the_book_of_its_variant() {
        use dama_engine::book::Outcome;
        let start = dama_core::AnyPosition::start(Variant::Russian);
        let moves = start.legal_moves();
        let m = moves[moves.len() - 1];
        let mut book = Book::new(Variant::Russian, 2);
        book.add_game(&start, &[m], Outcome::Draw).unwrap();
        let computer = EngineComputer::new(1).with_books(vec![Arc::new(book)]);
        let key = |variant, level| TableKey {
            variant,
            options: GameOptions::default(),
            level: Level::new(level).unwrap(),
        };
        assert!(computer.book_for(key(Variant::Russian, 10)).is_some());
        assert!(computer.book_for(key(Variant::Russian, 9)).is_none());
        assert!(computer.book_for(key(Variant::English, 10)).is_none());
        let request = ComputerRequest {
            game: Game::new(Variant::Russian),
            level: 10,
            clock_ms: Some(600_000),
            increment_ms: 0,
        };
        let stop = AtomicBool::new(false);
        assert_eq!(computer.choose(&request, &stop), Some(m));
        // The move came from the book (a search might have found it too).
        let limits = Limits::clock(Duration::from_secs(600), Duration::ZERO, None);
        let game = &request.game;
        let level = Level::MAX;
        let result = computer.search(game, level, limits, &stop, true);
        assert!(result.book && result.best_move == Some(m));
        // The computer's judgement of a draw offer never plays from the book.
        let nodes = Limits::nodes(1000);
        assert!(!computer.search(game, level, nodes, &stop, false).book);
    }

    fn offered(variant: Variant, fen: &str, by: dama_core::Color) -> ComputerRequest {
        let mut game = Game::from_position(dama_core::AnyPosition::from_fen(variant, fen).unwrap());
        game.offer_draw(by).unwrap();
        ComputerRequest {
            game,
            level: 1,
            clock_ms: None,
            increment_ms: 0,
        }
    }

    #[test]
    fn draw_offers_are_judged_by_the_position() {
        use dama_core::Color::{Black, White};
        let computer = EngineComputer::new(1);
        let stop = AtomicBool::new(false);
        let ask = |r: &ComputerRequest| computer.accepts_draw(r, &stop);
        // No draw in the opening, even at the gentlest level.
        let start = Game::new(Variant::Russian).position().fen();
        assert!(!ask(&offered(Variant::Russian, &start, White)));
        // The computer (White) is two men up: it plays on, whoever is to move.
        let up = "W:Wa1,c1,e1,g1,b2:Bh8,f8,d8";
        assert!(!ask(&offered(Variant::Russian, up, Black)));
        let up = "B:Wa1,c1,e1,g1,b2:Bh8,f8,d8";
        assert!(!ask(&offered(Variant::Russian, up, Black)));
        // The computer (Black) is two men down: it takes the draw.
        assert!(ask(&offered(Variant::Russian, up, White)));
        // A stopped judgement declines.
        stop.store(true, Ordering::Relaxed);
        assert!(!ask(&offered(Variant::Russian, up, White)));
        // The rule itself.
        assert!(draw_is_acceptable(Score::Loss(3), 0));
        assert!(!draw_is_acceptable(Score::Win(9), 200));
        assert!(draw_is_acceptable(Score::Eval(DRAW_WHEN_WORSE), 0));
        assert!(!draw_is_acceptable(Score::Eval(0), DRAW_MIN_PLIES - 1));
        assert!(draw_is_acceptable(Score::Eval(0), DRAW_MIN_PLIES));
        assert!(!draw_is_acceptable(Score::Eval(DRAW_WHEN_LEVEL + 1), 500));
    }

    fn request(game: &Game, level: u8) -> ComputerRequest {
        ComputerRequest {
            game: game.clone(),
            level,
            clock_ms: Some(1_000),
            increment_ms: 0,
        }
    }

    #[test]
    fn engines_are_kept_for_the_next_search_of_their_kind() {
        let computer = EngineComputer::new(1);
        let stop = AtomicBool::new(false);
        assert_eq!(computer.idle_engines(), 0);
        // A game: every move is searched by the same kept engine.
        let mut game = Game::new(Variant::Russian);
        for _ in 0..4 {
            let m = computer.choose(&request(&game, 3), &stop).unwrap();
            game.play(&m).unwrap();
            assert_eq!(computer.idle_engines(), 1);
        }
        let kept = TableKey::of(&game, Level::new(3).unwrap());
        let key_of = |c: &EngineComputer| c.idle.lock().unwrap()[0].key;
        assert_eq!(key_of(&computer), kept);
        // Another kind of search takes the idle engine over (there is no second search at
        // the same time, so no second engine).
        let english = Game::new(Variant::English);
        computer.choose(&request(&english, 3), &stop).unwrap();
        assert_eq!(computer.idle_engines(), 1);
        assert_eq!(
            key_of(&computer),
            TableKey::of(&english, Level::new(3).unwrap())
        );
        // Searches at the same time each have their own engine; both are kept, and each
        // later search finds the one of its kind.
        // The first search holds the idle engine (it searches, without a book, until it is
        // stopped) while the second runs, so the second one needs an engine of its own. The
        // first is stopped before anything is checked, so a failure cannot leave it running.
        let long = AtomicBool::new(false);
        let (held, second) = std::thread::scope(|s| {
            s.spawn(|| {
                let endless = Limits {
                    infinite: true,
                    ..Limits::default()
                };
                computer.search(&game, Level::MAX, endless, &long, false)
            });
            let deadline = Instant::now() + Duration::from_secs(10);
            while computer.idle_engines() > 0 && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(1));
            }
            let held = computer.idle_engines() == 0;
            let second = held.then(|| computer.choose(&request(&english, 3), &stop));
            long.store(true, Ordering::Relaxed);
            (held, second)
        });
        assert!(held, "the first search never took the idle engine");
        assert!(second.flatten().is_some());
        assert_eq!(computer.idle_engines(), 2);
        let keys: Vec<TableKey> = computer
            .idle
            .lock()
            .unwrap()
            .iter()
            .map(|s| s.key)
            .collect();
        assert!(keys.contains(&TableKey::of(&game, Level::MAX)), "{keys:?}");
        assert!(
            keys.contains(&TableKey::of(&english, Level::new(3).unwrap())),
            "{keys:?}"
        );
        let taken = computer.take(TableKey::of(&game, Level::MAX));
        assert_eq!(taken.options().level, Level::MAX);
        assert_eq!(computer.idle_engines(), 1);
        assert_eq!(
            key_of(&computer),
            TableKey::of(&english, Level::new(3).unwrap())
        );
        // An engine taken over for another kind plays at that kind's level.
        let retaken = computer.take(TableKey::of(&game, Level::new(1).unwrap()));
        assert_eq!(retaken.options().level, Level::new(1).unwrap());
        assert_eq!(computer.idle_engines(), 0);
    }

    #[test]
    fn stop_ends_the_strongest_search_at_once() {
        let computer = EngineComputer::new(1);
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
