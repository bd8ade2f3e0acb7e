//! `dama bench`: the engine's deterministic benchmark.

use crate::CliError;
use dama_engine::bench;
use std::time::Duration;

/// Options of `dama bench`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Added to every position's depth (negative for a quick run).
    #[arg(long, default_value_t = 0, allow_hyphen_values = true)]
    depth_change: i32,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<(), CliError> {
    if !(-20..=10).contains(&args.depth_change) {
        return Err(CliError("--depth-change must be between -20 and 10".into()));
    }
    let json = args.json;
    let lines = bench::run(args.depth_change, |line| {
        if !json {
            let fen = line.position.fen.map_or("start", |_| "fen");
            println!(
                "{:<16} {:<5} depth {:>2}  {:>11} nodes  {:>8.3} s  {:>6.2} Mnps",
                line.position.variant.key(),
                fen,
                line.position.depth,
                line.nodes,
                line.time.as_secs_f64(),
                rate(line.nodes, line.time) / 1e6
            );
        }
    });
    let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
    let time: Duration = lines.iter().map(|l| l.time).sum();
    if json {
        let per: Vec<_> = lines
            .iter()
            .map(|l| {
                serde_json::json!({
                    "variant": l.position.variant.key(),
                    "fen": l.position.fen,
                    "depth": l.position.depth,
                    "nodes": l.nodes,
                    "seconds": l.time.as_secs_f64(),
                })
            })
            .collect();
        println!(
            "{}",
            serde_json::json!({"nodes": nodes, "seconds": time.as_secs_f64(), "nps": rate(nodes, time) as u64, "positions": per})
        );
    } else {
        println!("total nodes {nodes}");
        println!("time        {:.3} s", time.as_secs_f64());
        println!("nps         {}", rate(nodes, time) as u64);
    }
    Ok(())
}

fn rate(nodes: u64, time: Duration) -> f64 {
    nodes as f64 / time.as_secs_f64().max(1e-9)
}
