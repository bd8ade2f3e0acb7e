//! `dama book`: an opening book built from PDN games, and the options that give one to the
//! engine (`dama match --first-book`, `dama hub|serve --book`, `dama dxp --book`).

use crate::position_arg::PositionArgs;
use crate::CliError;
use clap::{Parser, ValueEnum};
use dama_core::{Color, Variant};
use dama_engine::book::{Book, Outcome};
use dama_notation::move_text::write_move;
use dama_notation::pdn::{self, GameResult, ReplayOptions};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How a file's `Result` tags name the winner.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ResultOrder {
    /// `1-0` is a win for White, as the PDN standard writes it (and dama does).
    #[default]
    Standard,
    /// `1-0` is a win for the side that moves first: Black in English and the other variants
    /// where Black starts, as CheckerBoard and the English game archives write it.
    FirstPlayer,
}

/// Options that build a book.
#[derive(Parser, Debug, Clone)]
pub struct BookOptions {
    /// Plies of each game kept in the book, from the game's start.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=200))]
    pub book_plies: u32,
    /// How the `Result` tags of the book's games name the winner.
    #[arg(long, value_enum, default_value_t = ResultOrder::Standard)]
    pub book_results: ResultOrder,
}

/// What building a book read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Games added.
    pub games: usize,
    /// Games of another variant.
    pub other_variant: usize,
    /// Games without a result (`*` or none).
    pub no_result: usize,
    /// Games that could not be read or replayed.
    pub unreadable: usize,
}

/// How a game ended, its `Result` tag read in `order`; `None` without a result.
pub(crate) fn outcome(
    result: Option<GameResult>,
    order: ResultOrder,
    variant: Variant,
) -> Option<Outcome> {
    let first_won = match result? {
        GameResult::Draw => return Some(Outcome::Draw),
        GameResult::WhiteWins => true,
        GameResult::BlackWins => false,
        GameResult::DoubleForfeit | GameResult::Unknown => return None,
    };
    let white_won = match order {
        ResultOrder::Standard => first_won,
        ResultOrder::FirstPlayer => first_won == (variant.first_player() == Color::White),
    };
    Some(if white_won {
        Outcome::WhiteWins
    } else {
        Outcome::BlackWins
    })
}

/// Builds a book of `variant` from the games of PDN (or JSON-wrapped PDN) files.
pub fn build(
    files: &[PathBuf],
    variant: Variant,
    options: &BookOptions,
) -> Result<(Book, Report), CliError> {
    let mut book = Book::new(variant, options.book_plies as usize);
    let mut report = Report::default();
    let opts = ReplayOptions {
        default_variant: variant,
        variations: false,
        keep_moves: true,
    };
    for path in files {
        for game in crate::shots::read_games(path)? {
            let Ok(game) = game else {
                report.unreadable += 1;
                continue;
            };
            if game.is_empty() {
                continue;
            }
            let Ok(replayed) = pdn::replay(&game, &opts) else {
                report.unreadable += 1;
                continue;
            };
            if replayed.variant != variant {
                report.other_variant += 1;
                continue;
            }
            let result = game.tag("Result").and_then(GameResult::parse);
            let Some(outcome) = outcome(result, options.book_results, variant) else {
                report.no_result += 1;
                continue;
            };
            match book.add_game(&replayed.start, &replayed.moves, outcome) {
                Ok(()) => report.games += 1,
                Err(_) => report.unreadable += 1,
            }
        }
    }
    Ok((book, report))
}

impl Report {
    /// One line: what was read.
    pub fn summary(&self, book: &Book, files: &[PathBuf]) -> String {
        let names: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
        format!(
            "book of {}: {} games ({} of another variant, {} without a result, {} unreadable), \
             {} positions from their first {} plies ({})",
            book.variant().name(),
            self.games,
            self.other_variant,
            self.no_result,
            self.unreadable,
            book.positions(),
            book.plies(),
            names.join(", ")
        )
    }
}

/// Builds a book of `variant` from one file and says what was read on standard error; an
/// error when the file holds no game of the variant with a result.
pub fn load_for(path: &Path, variant: Variant, options: &BookOptions) -> Result<Book, CliError> {
    let files = [path.to_path_buf()];
    let (book, report) = build(&files, variant, options)?;
    if report.games == 0 {
        return Err(CliError(format!(
            "{}: no game of {} with a result to build a book from",
            path.display(),
            variant.name()
        )));
    }
    eprintln!("{}", report.summary(&book, &files));
    Ok(book)
}

/// Builds the books named `VARIANT=PDN` (`--book english=games.pdn`), one per variant.
pub fn load_books(specs: &[String], options: &BookOptions) -> Result<Vec<Arc<Book>>, CliError> {
    let mut books: Vec<Arc<Book>> = Vec::new();
    for spec in specs {
        let (variant, path) = spec
            .split_once('=')
            .ok_or_else(|| CliError(format!("--book {spec:?} is not VARIANT=PDN")))?;
        let variant: Variant = variant.parse()?;
        if books.iter().any(|b| b.variant() == variant) {
            return Err(CliError(format!("two books for {}", variant.name())));
        }
        books.push(Arc::new(load_for(Path::new(path), variant, options)?));
    }
    Ok(books)
}

#[derive(Parser, Debug)]
pub struct Args {
    /// PDN files of games (JSON files of PDN strings are read too).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    position: PositionArgs,
    #[command(flatten)]
    options: BookOptions,
}

pub fn run(args: Args) -> Result<(), CliError> {
    let pos = args.position.resolve()?;
    let (book, report) = build(&args.files, pos.variant(), &args.options)?;
    println!("{}", report.summary(&book, &args.files));
    let moves = book.moves(&pos);
    if moves.is_empty() {
        println!("position not in the book");
        return Ok(());
    }
    let chosen = book.choose(&pos);
    for m in &moves {
        let mark = if chosen.is_some_and(|c| c.mv == m.mv) {
            "  <- played"
        } else if !m.is_playable() {
            "  (its players scored less than half)"
        } else {
            ""
        };
        println!(
            "{:<10} games {:>5}  score {:>5.1}%{mark}",
            write_move(&pos, &m.mv),
            m.games,
            100.0 * m.score()
        );
    }
    if chosen.is_none() {
        println!("no move to play: only moves of losing players are known here");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_order_names_the_winner() {
        let e = Variant::English;
        let r = Variant::Russian;
        let std = ResultOrder::Standard;
        let first = ResultOrder::FirstPlayer;
        let w = Some(GameResult::WhiteWins);
        let b = Some(GameResult::BlackWins);
        assert_eq!(outcome(w, std, e), Some(Outcome::WhiteWins));
        assert_eq!(outcome(w, first, e), Some(Outcome::BlackWins));
        assert_eq!(outcome(b, first, e), Some(Outcome::WhiteWins));
        assert_eq!(outcome(w, first, r), Some(Outcome::WhiteWins));
        assert_eq!(outcome(b, std, r), Some(Outcome::BlackWins));
        let d = Some(GameResult::Draw);
        assert_eq!(outcome(d, first, e), Some(Outcome::Draw));
        assert_eq!(outcome(Some(GameResult::Unknown), std, e), None);
        assert_eq!(outcome(None, std, e), None);
    }
}
