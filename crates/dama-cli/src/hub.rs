//! `dama hub`: the engine speaks the Hub protocol (version 2) on standard input and output.

use crate::CliError;
use dama_engine::{EngineOptions, Level};

/// Options of `dama hub`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Search threads (the GUI may change it with the `threads` parameter).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MiB (parameter `hash`).
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Playing level 1-10 (parameter `level`).
    #[arg(long, default_value_t = 10)]
    level: u8,
    /// An opening book, `VARIANT=PDN` (repeatable, one per variant): games whose first moves
    /// the engine plays instead of searching while a game of that variant follows them (see
    /// `dama book`; games without a `GameType` tag are read as the variant).
    #[arg(long, value_name = "VARIANT=PDN")]
    book: Vec<String>,
    #[command(flatten)]
    book_options: crate::book::BookOptions,
    #[command(flatten)]
    endgame: crate::endgame::EndgameOptions,
}

pub fn run(args: Args) -> Result<(), CliError> {
    let level = Level::new(args.level).ok_or_else(|| CliError("--level must be 1 to 10".into()))?;
    if !(1..=64).contains(&args.threads) {
        return Err(CliError("--threads must be between 1 and 64".into()));
    }
    let options = EngineOptions {
        threads: args.threads,
        hash_mb: args.hash.clamp(1, 65536),
        level,
        endgame_pieces: args.endgame.apply(),
        ..EngineOptions::default()
    };
    let books = crate::book::load_books(&args.book, &args.book_options)?;
    let stdin = std::io::BufReader::new(std::io::stdin());
    dama_protocol::hub::serve_with_books(stdin, std::io::stdout(), options, books)?;
    Ok(())
}
