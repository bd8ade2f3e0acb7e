//! `dama tune`: fit the evaluation weights of a variant's family to self-play games.

use crate::CliError;
use dama_core::Variant;
use dama_engine::eval::Weights;
use dama_engine::tune;
use std::path::PathBuf;
use std::time::Instant;

/// Options of `dama tune`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Variant whose games are played (its family's weights are tuned).
    #[arg(long, short = 'v', default_value = "international")]
    variant: String,
    /// Self-play games.
    #[arg(long, default_value_t = 200)]
    games: u32,
    /// Nodes per move in the self-play games.
    #[arg(long, default_value_t = 3000)]
    nodes: u64,
    /// Random moves at the start of each game (for variety).
    #[arg(long, default_value_t = 6)]
    random_plies: u32,
    /// Gradient-descent epochs.
    #[arg(long, default_value_t = 300)]
    epochs: u32,
    /// Start from these weights (a file of `name value` lines) instead of the built-in ones.
    #[arg(long)]
    start: Option<PathBuf>,
    /// Write the fitted weights here (`name value` lines).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Seed of the random opening moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn run(args: Args) -> Result<(), CliError> {
    let variant: Variant = args.variant.parse()?;
    if args.games == 0 || args.games > 1_000_000 || args.nodes == 0 {
        return Err(CliError("--games and --nodes must be positive".into()));
    }
    let built_in = Weights::for_variant(variant);
    let start = match &args.start {
        None => built_in,
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| CliError(format!("{}: {e}", path.display())))?;
            tune::read_weights(&text, &built_in)
                .map_err(|e| CliError(format!("{}: {e}", path.display())))?
        }
    };
    let started = Instant::now();
    let games = args.games;
    let samples = tune::self_play(
        variant,
        games,
        args.nodes,
        args.random_plies,
        Some(start),
        args.seed,
        |g| {
            if g % 10 == 0 || g == games {
                eprint!(
                    "\rself-play: {g}/{games} games ({:.0} s)",
                    started.elapsed().as_secs_f64()
                );
            }
        },
    );
    eprintln!();
    if samples.len() < 100 {
        return Err(CliError(format!(
            "only {} positions: play more games",
            samples.len()
        )));
    }
    let k = tune::fit_k(&samples, &start);
    let before = tune::error(&samples, &start, k);
    let fitted = tune::fit(&samples, &start, k, args.epochs.clamp(1, 100_000));
    let after = tune::error(&samples, &fitted, k);
    println!(
        "{} positions from {games} games; k = {k:.3}; mean squared error {before:.5} -> {after:.5}",
        samples.len()
    );
    let text = tune::write_weights(&fitted);
    match &args.out {
        Some(path) => {
            std::fs::write(path, &text).map_err(|e| CliError(format!("{}: {e}", path.display())))?
        }
        None => print!("{text}"),
    }
    Ok(())
}
