//! `dama analyse`: search a position and print the progress and the best line.

use crate::position_arg::PositionArgs;
use crate::CliError;
use dama_core::{AnyMove, AnyPosition};
use dama_engine::{Engine, EngineOptions, Level, Limits, SearchInfo};
use dama_notation::write_move;
use std::time::Duration;

/// Options of `dama analyse`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
    #[command(flatten)]
    endgame: crate::endgame::EndgameOptions,
    /// Search depth in plies.
    #[arg(long, short = 'd')]
    depth: Option<u32>,
    /// Search time in seconds (default: 5 when no depth or node limit is given).
    #[arg(long, short = 't')]
    time: Option<f64>,
    /// Node limit.
    #[arg(long)]
    nodes: Option<u64>,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Playing level, 1 to 10.
    #[arg(long, default_value_t = 10)]
    level: u8,
    /// Evaluate with this file: a pattern model from `dama tune fit` or linear weights from
    /// `dama tune linear` (default: the built-in evaluation).
    #[arg(long)]
    eval: Option<std::path::PathBuf>,
    /// Print one JSON object per line instead of text.
    #[arg(long)]
    json: bool,
}

/// Writes a line of moves from `pos` in the variant's notation, stopping at the first move
/// that is not legal.
pub fn line_text(pos: &AnyPosition, moves: &[AnyMove]) -> String {
    let mut out = Vec::new();
    let mut p = *pos;
    for m in moves {
        let Ok(next) = p.play(m) else { break };
        out.push(write_move(&p, m));
        p = next;
    }
    out.join(" ")
}

/// The limits of one search from the `--depth`, `--nodes` and `--time` options; `default` is
/// the search time when none is given.
pub fn search_limits(
    depth: Option<u32>,
    nodes: Option<u64>,
    time: Option<f64>,
    default: Duration,
) -> Result<Limits, CliError> {
    if depth.is_some_and(|d| d == 0 || d > 100) {
        return Err(CliError("--depth must be between 1 and 100".into()));
    }
    let move_time = match time {
        Some(t) if !(t > 0.0 && t < 1e6) => {
            return Err(CliError(
                "--time must be a positive number of seconds".into(),
            ))
        }
        Some(t) => Some(Duration::from_secs_f64(t)),
        None if depth.is_none() && nodes.is_none() => Some(default),
        None => None,
    };
    Ok(Limits {
        depth,
        nodes,
        move_time,
        ..Limits::default()
    })
}

pub fn run(args: Args) -> Result<(), CliError> {
    let game = args.position.game()?;
    let pos = *game.position();
    let level = Level::new(args.level).ok_or_else(|| CliError("--level must be 1 to 10".into()))?;
    if args.threads == 0 || args.threads > 256 {
        return Err(CliError("--threads must be between 1 and 256".into()));
    }
    let limits = search_limits(args.depth, args.nodes, args.time, Duration::from_secs(5))?;
    let mut engine = Engine::new(EngineOptions {
        threads: args.threads,
        hash_mb: args.hash,
        level,
        endgame_pieces: args.endgame.apply(),
        ..EngineOptions::default()
    });
    if let Some(path) = &args.eval {
        crate::tune::load_eval(path, pos.variant())?.apply(&mut engine);
    }
    engine.set_game(&game);
    if args.position.play.is_some() && !args.json {
        println!("position {}", pos.fen());
    }
    let json = args.json;
    let print = |info: &SearchInfo| {
        let line = line_text(&pos, &info.pv);
        if json {
            println!(
                "{}",
                serde_json::json!({
                    "depth": info.depth, "seldepth": info.seldepth, "score": info.score.to_string(),
                    "nodes": info.nodes, "nps": info.nps, "ms": info.time.as_millis() as u64, "pv": line,
                })
            );
        } else {
            println!(
                "depth {:>2}/{:<3} score {:>10}  nodes {:>11}  nps {:>9}  time {:>8.3}  pv {}",
                info.depth,
                info.seldepth,
                info.score.to_string(),
                info.nodes,
                info.nps,
                info.time.as_secs_f64(),
                line
            );
        }
    };
    engine.wait_for_endgame_database();
    // Touch the whole table before the clock starts: its memory is mapped on first touch.
    engine.new_game();
    let result = engine.search(limits, print);
    match result.best_move {
        None => println!(
            "no legal move: the side to move has lost ({})",
            result.score
        ),
        Some(m) => {
            let best = write_move(&pos, &m);
            if json {
                println!(
                    "{}",
                    serde_json::json!({"bestmove": best, "score": result.score.to_string(), "nodes": result.nodes, "pv": line_text(&pos, &result.pv)})
                );
            } else {
                println!(
                    "best move {best}  score {}  line {}",
                    result.score,
                    line_text(&pos, &result.pv)
                );
            }
        }
    }
    Ok(())
}
