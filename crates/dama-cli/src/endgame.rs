//! `dama endgame`: build a variant's endgame database and look positions up in it.

use crate::analyse::line_text;
use crate::CliError;
use dama_core::{AnyPosition, Variant};
use dama_engine::endgame::{self, Outcome, MAX_PIECES};
use std::time::Instant;

/// Options of `dama endgame`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Variant key (an 8x8 variant: russian, english, pool, russian-giveaway, ...).
    #[arg(long, short = 'v', default_value = "russian")]
    variant: String,
    /// Positions to look up, in FEN (PDN 3.0), e.g. "W:W21,29:BK15,K18".
    fens: Vec<String>,
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
    let start = Instant::now();
    let table = endgame::for_variant(variant).ok_or_else(|| {
        CliError(format!(
            "{variant} has no endgame database (only the 8x8 variants have one)"
        ))
    })?;
    let [won, lost, drawn] = table.counts();
    println!(
        "{variant}: every position of up to {MAX_PIECES} pieces, built in {:.1} s ({} bytes)",
        start.elapsed().as_secs_f64(),
        table.size()
    );
    println!(
        "White to move: wins {won}, loses {lost}, draws {drawn}; the longest result takes {} plies",
        table.longest()
    );
    for (fen, pos) in args.fens.iter().zip(&positions) {
        let Some((outcome, line)) = endgame::lookup(pos, 200) else {
            println!(
                "{fen}: not in the database (more than {MAX_PIECES} pieces, or a side has none)"
            );
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
