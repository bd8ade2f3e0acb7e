//! `dama book`: an opening book built from PDN games, and the options that give one to the
//! engine (`dama match --first-book`, `dama hub|serve --book`, `dama dxp --book`).

use crate::position_arg::PositionArgs;
use crate::CliError;
use clap::Parser;
use dama_core::{Color, Variant};
use dama_engine::book::{Book, Outcome};
use dama_notation::move_text::write_move;
use dama_notation::pdn::{self, GameResult, ReplayOptions, Replayed, ResultOrder};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Options that build a book.
#[derive(Parser, Debug, Clone)]
pub struct BookOptions {
    /// Plies of each game kept in the book, from the game's start.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=200))]
    pub book_plies: u32,
    /// How the `Result` tags of the book's games name the winner: `standard` (`1-0` is a win
    /// for White) or `first-player` (for the side that moves first, as English archives write it).
    #[arg(long, default_value = "standard")]
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

/// Calls `each` with every game of PDN (or JSON-wrapped PDN) `files` that replays in
/// `variant` and has a result (its `Result` tag read in `order`), and counts the others.
pub fn for_each_game(
    files: &[PathBuf],
    variant: Variant,
    order: ResultOrder,
    mut each: impl FnMut(&Replayed, Outcome) -> Result<(), CliError>,
) -> Result<Report, CliError> {
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
            let winner = game
                .tag("Result")
                .and_then(GameResult::parse)
                .and_then(|r| r.winner(variant, order));
            let Some(winner) = winner else {
                report.no_result += 1;
                continue;
            };
            let outcome = match winner {
                None => Outcome::Draw,
                Some(Color::White) => Outcome::WhiteWins,
                Some(Color::Black) => Outcome::BlackWins,
            };
            each(&replayed, outcome)?;
            report.games += 1;
        }
    }
    Ok(report)
}

/// Builds a book of `variant` from the games of PDN (or JSON-wrapped PDN) files.
pub fn build(
    files: &[PathBuf],
    variant: Variant,
    options: &BookOptions,
) -> Result<(Book, Report), CliError> {
    let mut book = Book::new(variant, options.book_plies as usize);
    let report = for_each_game(files, variant, options.book_results, |game, outcome| {
        // A replayed game of the book's variant always fits it.
        book.add_game(&game.start, &game.moves, outcome)
            .map_err(|e| CliError(e.to_string()))
    })?;
    Ok((book, report))
}

impl Report {
    /// Games left out: unreadable, of another variant or without a result.
    pub fn skipped(&self) -> usize {
        self.other_variant + self.no_result + self.unreadable
    }

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
