//! Opening book: the moves played in a collection of games, to play instead of searching while a
//! game follows them.
//!
//! A book is built from games (their start, moves and results) of one variant. Each position of
//! a game's first plies records the move played there, how many games played it and the points
//! the side that played it scored in them. [`Book::choose`] plays, among the moves whose players
//! scored at least half the points, the one played in most games: a move only the losers of
//! the collection played is never chosen, and a well-trodden line is preferred to a single
//! game's. Positions reached by different move orders share their entry.

use dama_core::{AnyMove, AnyPosition, Color, Variant};
use std::collections::HashMap;
use std::fmt;

/// How a game of the collection ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side with [`Color::White`] won.
    WhiteWins,
    /// The side with [`Color::Black`] won.
    BlackWins,
    /// A draw.
    Draw,
}

impl Outcome {
    /// Half-points scored by `side`: 2 for a win, 1 for a draw, 0 for a loss.
    fn half_points(self, side: Color) -> u32 {
        match (self, side) {
            (Outcome::Draw, _) => 1,
            (Outcome::WhiteWins, Color::White) | (Outcome::BlackWins, Color::Black) => 2,
            _ => 0,
        }
    }
}

/// A move of the book in one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: AnyMove,
    /// Games of the collection that played it here.
    pub games: u32,
    /// Half-points its players scored in those games (2 a win, 1 a draw).
    pub half_points: u32,
}

impl BookMove {
    /// The share of the points its players scored, 0.0 to 1.0.
    pub fn score(&self) -> f64 {
        f64::from(self.half_points) / (2.0 * f64::from(self.games.max(1)))
    }

    /// Whether its players scored at least half the points: only such moves are played.
    pub fn is_playable(&self) -> bool {
        self.half_points >= self.games
    }
}

/// Why a game cannot be added to a book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// The game is of another variant than the book.
    Variant {
        /// The book's variant.
        book: Variant,
        /// The game's.
        game: Variant,
    },
    /// A move of the game is not legal in its position.
    IllegalMove {
        /// The ply (0 is the first move).
        ply: usize,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Variant { book, game } => write!(
                f,
                "a game of {} cannot go into a book of {}",
                game.name(),
                book.name()
            ),
            BookError::IllegalMove { ply } => {
                write!(f, "move {} of the game is not legal", ply + 1)
            }
        }
    }
}

impl std::error::Error for BookError {}

/// An opening book of one variant.
#[derive(Clone, Debug)]
pub struct Book {
    variant: Variant,
    plies: usize,
    entries: HashMap<u64, Vec<BookMove>>,
    games: usize,
}

impl Book {
    /// An empty book of `variant` that keeps the first `plies` moves of each game.
    pub fn new(variant: Variant, plies: usize) -> Book {
        Book {
            variant,
            plies,
            entries: HashMap::new(),
            games: 0,
        }
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// How many plies of each game are kept.
    pub fn plies(&self) -> usize {
        self.plies
    }

    /// Games added.
    pub fn games(&self) -> usize {
        self.games
    }

    /// Positions with at least one move.
    pub fn positions(&self) -> usize {
        self.entries.len()
    }

    /// Moves recorded (each game's move in each position once).
    pub fn moves_recorded(&self) -> usize {
        self.entries
            .values()
            .flatten()
            .map(|b| b.games as usize)
            .sum()
    }

    /// Adds the first [`Book::plies`] moves of a game played from `start`. Nothing is added
    /// if a move is illegal or the game is of another variant.
    ///
    /// # Errors
    /// [`BookError`] when the game does not fit the book.
    pub fn add_game(
        &mut self,
        start: &AnyPosition,
        moves: &[AnyMove],
        outcome: Outcome,
    ) -> Result<(), BookError> {
        if start.variant() != self.variant {
            return Err(BookError::Variant {
                book: self.variant,
                game: start.variant(),
            });
        }
        let mut line = Vec::with_capacity(moves.len().min(self.plies));
        let mut pos = *start;
        for (ply, m) in moves.iter().take(self.plies).enumerate() {
            let next = pos.play(m).map_err(|_| BookError::IllegalMove { ply })?;
            line.push((pos, *m));
            pos = next;
        }
        for (pos, m) in line {
            let half_points = outcome.half_points(pos.side_to_move());
            let entry = self.entries.entry(pos.hash()).or_default();
            match entry.iter_mut().find(|b| b.mv == m) {
                Some(b) => {
                    b.games += 1;
                    b.half_points += half_points;
                }
                None => entry.push(BookMove {
                    mv: m,
                    games: 1,
                    half_points,
                }),
            }
        }
        self.games += 1;
        Ok(())
    }

    /// Every move of the book in `pos` that is legal there, most played first.
    pub fn moves(&self, pos: &AnyPosition) -> Vec<BookMove> {
        if pos.variant() != self.variant {
            return Vec::new();
        }
        let Some(entry) = self.entries.get(&pos.hash()) else {
            return Vec::new();
        };
        // The hash names the position; the legality check guards against two positions
        // sharing one.
        let legal = pos.legal_moves();
        let mut moves: Vec<BookMove> = entry
            .iter()
            .filter(|b| legal.contains(&b.mv))
            .copied()
            .collect();
        moves.sort_by_key(|b| std::cmp::Reverse((b.games, b.half_points)));
        moves
    }

    /// The move to play in `pos`: of the moves whose players scored at least half the points,
    /// the one played in most games (then the one that scored most). `None` when the position
    /// is not in the book, or only losing players' moves are.
    pub fn choose(&self, pos: &AnyPosition) -> Option<BookMove> {
        self.moves(pos).into_iter().find(BookMove::is_playable)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The moves of a line given by index into each position's legal moves.
    fn line(start: &AnyPosition, picks: &[usize]) -> Vec<AnyMove> {
        let mut pos = *start;
        picks
            .iter()
            .map(|&i| {
                let moves = pos.legal_moves();
                let m = moves[i % moves.len()];
                pos = pos.play(&m).unwrap();
                m
            })
            .collect()
    }

    #[test]
    fn the_most_played_move_of_the_non_losers_is_chosen() {
        let start = AnyPosition::start(Variant::English);
        let mut book = Book::new(Variant::English, 10);
        let first = start.side_to_move();
        // Two draws and a win for the first mover with move 0; a single win with move 1; move
        // 2 played only by losers (three games).
        let win_first = if first == Color::White {
            Outcome::WhiteWins
        } else {
            Outcome::BlackWins
        };
        let loss_first = if first == Color::White {
            Outcome::BlackWins
        } else {
            Outcome::WhiteWins
        };
        book.add_game(&start, &line(&start, &[0, 0, 0]), Outcome::Draw)
            .unwrap();
        book.add_game(&start, &line(&start, &[0, 1, 0]), Outcome::Draw)
            .unwrap();
        book.add_game(&start, &line(&start, &[0, 2]), win_first)
            .unwrap();
        book.add_game(&start, &line(&start, &[1, 0]), win_first)
            .unwrap();
        for k in 0..3 {
            book.add_game(&start, &line(&start, &[2, k]), loss_first)
                .unwrap();
        }
        assert_eq!(book.games(), 7);
        let legal = start.legal_moves();
        let moves = book.moves(&start);
        assert_eq!(moves.len(), 3);
        // Most played first: move 2 (3 games, all lost), then move 0 (3 games, 4 half-points).
        assert_eq!(moves[0].mv, legal[0]);
        assert_eq!((moves[0].games, moves[0].half_points), (3, 4));
        assert_eq!(moves[1].mv, legal[2]);
        assert_eq!((moves[1].games, moves[1].half_points), (3, 0));
        assert!(!moves[1].is_playable());
        assert_eq!(book.choose(&start).unwrap().mv, legal[0]);
        // After move 0, the replies: 0 and 1 drew (one game each), 2 lost once.
        let after = start.play(&legal[0]).unwrap();
        let replies = book.moves(&after);
        assert_eq!(replies.len(), 3);
        let chosen = book.choose(&after).unwrap();
        assert_eq!((chosen.games, chosen.half_points), (1, 1));
        // After move 2 the replies are the winners': any of them (one game each) is played.
        let lost = start.play(&legal[2]).unwrap();
        assert_eq!(book.moves(&lost).len(), 3);
        assert_eq!(book.choose(&lost).map(|b| b.half_points), Some(2));
        // After move 1 the reply is the loser's: the book has no move to play.
        let won = start.play(&legal[1]).unwrap();
        assert_eq!(book.moves(&won).len(), 1);
        assert_eq!(book.choose(&won), None);
    }

    #[test]
    fn the_engine_plays_the_book_move_unless_asked_for_a_depth() {
        use crate::{Engine, EngineOptions, Limits};
        use std::sync::Arc;
        use std::time::Duration;
        let start = AnyPosition::start(Variant::Russian);
        let mut book = Book::new(Variant::Russian, 4);
        // The last legal move at the start: not what a search would pick by chance every time.
        let moves = start.legal_moves();
        let m = moves[moves.len() - 1];
        book.add_game(&start, &[m], Outcome::Draw).unwrap();
        let mut engine = Engine::new(EngineOptions {
            hash_mb: 1,
            ..EngineOptions::default()
        });
        engine.set_book(Some(Arc::new(book)));
        engine.set_position(start, &[]);
        for limits in [
            Limits::nodes(5000),
            Limits::move_time(Duration::from_secs(5)),
        ] {
            let r = engine.search(limits, |_| {});
            assert!(r.book);
            assert_eq!(r.best_move, Some(m));
            // Only the two short searches that check the move.
            assert!(r.nodes > 0 && r.nodes < 50_000, "{}", r.nodes);
        }
        let events: Vec<_> = engine.go(Limits::nodes(5000)).iter().collect();
        assert!(matches!(&events[..], [crate::Event::Done(r)] if r.book && r.best_move == Some(m)));
        // Analysis to a depth searches.
        let r = engine.search(Limits::depth(3), |_| {});
        assert!(!r.book && r.nodes > 0);
        // Out of the book: a search.
        engine.set_position(start.play(&m).unwrap(), &[start]);
        let r = engine.search(Limits::nodes(2000), |_| {});
        assert!(!r.book && r.nodes > 0);
    }

    #[test]
    fn a_book_move_that_loses_a_man_is_not_played() {
        use crate::{Engine, EngineOptions, Level, Limits};
        use std::sync::Arc;
        // Black to move: 14-18 walks into 23x14, the other moves keep the balance.
        let pos = AnyPosition::from_fen(Variant::English, "B:W23,31:B14,3").unwrap();
        let blunder = *pos
            .legal_moves()
            .iter()
            .find(|m| {
                let after = pos.play(m).unwrap();
                after.legal_moves().iter().any(|r| r.captured.len() == 1)
            })
            .expect("a move that gives a man away");
        let mut book = Book::new(Variant::English, 4);
        for _ in 0..3 {
            book.add_game(&pos, &[blunder], Outcome::Draw).unwrap();
        }
        assert_eq!(book.choose(&pos).map(|b| b.mv), Some(blunder));
        let book = Arc::new(book);
        for level in [Level::MAX, Level::MIN] {
            let mut engine = Engine::new(EngineOptions {
                hash_mb: 1,
                level,
                ..EngineOptions::default()
            });
            engine.set_book(Some(Arc::clone(&book)));
            engine.set_position(pos, &[]);
            // The check is a full-strength search at every level (a gentle level's own search
            // picks a move by chance, the blunder among them; each search draws anew).
            for _ in 0..8 {
                let r = engine.search(Limits::nodes(20_000), |_| {});
                assert!(!r.book, "{level:?}");
                if level == Level::MAX {
                    assert_ne!(r.best_move, Some(blunder));
                }
            }
        }
    }

    #[test]
    fn only_the_first_plies_are_kept_and_transpositions_meet() {
        let start = AnyPosition::start(Variant::Russian);
        let mut book = Book::new(Variant::Russian, 2);
        let moves = line(&start, &[0, 0, 0, 0, 0]);
        book.add_game(&start, &moves, Outcome::Draw).unwrap();
        assert_eq!(book.positions(), 2);
        assert_eq!(book.moves_recorded(), 2);
        let after_two = start.play(&moves[0]).unwrap().play(&moves[1]).unwrap();
        assert!(book.choose(&after_two).is_none());
        assert!(book.choose(&start).is_some());
        // Out of the book: another position, another variant.
        assert!(book
            .choose(&AnyPosition::start(Variant::Brazilian))
            .is_none());
    }

    #[test]
    fn games_that_do_not_fit_are_refused_whole() {
        let start = AnyPosition::start(Variant::English);
        let mut book = Book::new(Variant::English, 40);
        let russian = AnyPosition::start(Variant::Russian);
        assert_eq!(
            book.add_game(&russian, &[], Outcome::Draw),
            Err(BookError::Variant {
                book: Variant::English,
                game: Variant::Russian
            })
        );
        // A move legal at the start played again in the next position is not legal there.
        let mut moves = line(&start, &[0, 0]);
        moves.push(moves[0]);
        assert_eq!(
            book.add_game(&start, &moves, Outcome::Draw),
            Err(BookError::IllegalMove { ply: 2 })
        );
        assert_eq!((book.games(), book.positions()), (0, 0));
    }
}
