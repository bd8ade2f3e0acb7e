//! `dama endgame`: build a variant's endgame database and look positions up in it.

use crate::analyse::line_text;
use crate::CliError;
use dama_core::{AnyPosition, Variant};
use dama_engine::endgame::{self, Outcome, DEFAULT_PIECES, MAX_PIECES};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

/// Options of `dama endgame`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Variant key (an 8x8 variant: russian, english, pool, russian-giveaway, ...).
    #[arg(long, short = 'v', default_value = "russian")]
    variant: String,
    #[command(flatten)]
    endgame: EndgameOptions,
    /// Positions to look up, in FEN (PDN 3.0), e.g. "W:W21,29:BK15,K18".
    fens: Vec<String>,
}

/// The endgame database of the commands that search (level 10 on the 8x8 boards).
#[derive(Clone, Debug, clap::Args)]
pub struct EndgameOptions {
    /// The most pieces of the endgame database (2 to 5). Four are built in a second or two;
    /// five take one to two minutes on two cores and 190 MB (up to 1.6 GB while building),
    /// so keep them in a folder with --endgame-dir.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_PIECES,
        value_parser = clap::value_parser!(u32).range(2..=MAX_PIECES as i64))]
    pub endgame_pieces: u32,
    /// A folder for endgame database files: a database is read from there when its file is
    /// there and sound, and otherwise built and written there for the next run.
    #[arg(long, value_name = "DIR")]
    pub endgame_dir: Option<PathBuf>,
}

impl EndgameOptions {
    /// Sets the database folder for this process and returns the database's size. Five
    /// pieces without a folder are built anew by every run: says so on the error stream.
    pub fn apply(&self) -> u32 {
        endgame::set_directory(self.endgame_dir.clone());
        if self.endgame_pieces > DEFAULT_PIECES && self.endgame_dir.is_none() {
            eprintln!(
                "note: the {}-piece endgame database is built anew by every run (a minute or \
                 two); --endgame-dir DIR keeps it in a file",
                self.endgame_pieces
            );
        }
        self.endgame_pieces
    }
}

pub fn run(args: Args) -> Result<(), CliError> {
    let variant: Variant = args.variant.parse()?;
    let positions = args
        .fens
        .iter()
        .map(|fen| {
            AnyPosition::from_fen(variant, fen)
                .map_err(|e| CliError(format!("bad FEN for {variant}: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let pieces = args.endgame.apply();
    let start = Instant::now();
    // A build of five pieces takes a minute or two: show how far it is.
    let terminal = std::io::stderr().is_terminal();
    let mut shown = 0;
    let mut progress = |done: usize, total: usize| {
        let percent = done * 100 / total.max(1);
        if percent >= shown + 5 || done == total {
            shown = percent;
            let text = format!(
                "building the {pieces}-piece database of {variant}: {percent}% ({:.0} s)",
                start.elapsed().as_secs_f64()
            );
            if terminal {
                eprint!("\r{text}");
                if done == total {
                    eprintln!();
                }
            } else {
                eprintln!("{text}");
            }
        }
    };
    let table = endgame::for_variant(variant, pieces, &mut progress).ok_or_else(|| {
        CliError(format!(
            "{variant} has no endgame database (only the 8x8 variants have one)"
        ))
    })?;
    let [won, lost, drawn] = table.counts();
    println!(
        "{variant}: every position of up to {pieces} pieces, {} in {:.1} s ({} bytes)",
        table.origin(),
        start.elapsed().as_secs_f64(),
        table.size()
    );
    println!(
        "White to move: wins {won}, loses {lost}, draws {drawn}; the longest result takes {} plies",
        table.longest()
    );
    for (fen, pos) in args.fens.iter().zip(&positions) {
        let Some((outcome, line)) = endgame::lookup(pos, pieces, 200) else {
            println!("{fen}: not in the database (more than {pieces} pieces, or a side has none)");
            continue;
        };
        let plies = |d: u32| format!("{d} {}", if d == 1 { "ply" } else { "plies" });
        let text = match outcome {
            Outcome::Win(d) => format!("the side to move wins in {}", plies(d)),
            Outcome::Loss(d) => format!("the side to move loses in {}", plies(d)),
            Outcome::Draw => "a draw".to_string(),
        };
        println!("{fen}: {text}");
        if !line.is_empty() {
            println!("  {}", line_text(pos, &line));
        }
    }
    Ok(())
}
