//! `dama perft`.

use crate::position_arg::PositionArgs;
use crate::CliError;
use dama_notation::write_move;
use std::time::Instant;

/// Options of `dama perft`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
    /// Depth in plies.
    #[arg(long, short = 'd')]
    depth: u32,
    /// Print the count below each root move.
    #[arg(long)]
    divide: bool,
    /// Worker threads.
    #[arg(long, short = 't', default_value_t = 1)]
    threads: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Deepest search accepted: the counts of every variant overflow no counter long before this,
/// and it keeps a mistyped depth from running for ever.
const MAX_DEPTH: u32 = 30;

pub fn run(args: Args) -> Result<(), CliError> {
    let pos = args.position.resolve()?;
    if args.depth > MAX_DEPTH {
        return Err(CliError(format!(
            "depth {} is too deep (at most {MAX_DEPTH})",
            args.depth
        )));
    }
    if args.threads == 0 || args.threads > 1024 {
        return Err(CliError("--threads must be between 1 and 1024".into()));
    }
    let started = Instant::now();
    let mut divided = Vec::new();
    let nodes = if args.divide {
        divided = pos.divide(args.depth);
        divided.iter().map(|(_, n)| n).sum()
    } else {
        pos.perft_parallel(args.depth, args.threads)
    };
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        let mut obj = serde_json::json!({
            "variant": pos.variant().key(),
            "depth": args.depth,
            "nodes": nodes,
            "seconds": seconds,
        });
        if args.divide {
            obj["divide"] = divided
                .iter()
                .map(|(m, n)| serde_json::json!({"move": write_move(&pos, m), "nodes": n}))
                .collect();
        }
        println!("{obj}");
    } else {
        for (m, n) in &divided {
            println!("{:<12} {n}", write_move(&pos, m));
        }
        let rate = if seconds > 0.0 {
            nodes as f64 / seconds
        } else {
            0.0
        };
        println!(
            "perft({}) = {nodes}  ({seconds:.3} s, {:.1} M leaves/s)",
            args.depth,
            rate / 1e6
        );
    }
    Ok(())
}
