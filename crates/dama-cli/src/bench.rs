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

/// CPU time used by this process so far (user + system), where the platform tells it. On a
/// shared machine it measures the work done even when other processes hold the cores.
fn cpu_time() -> Option<Duration> {
    #[cfg(target_os = "linux")]
    {
        let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
        // SAFETY: getrusage writes a `rusage` into the pointer, which is valid for writes.
        let rc = unsafe { libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) };
        if rc != 0 {
            return None;
        }
        // SAFETY: getrusage succeeded, so the struct is initialised (it was zeroed anyway).
        let usage = unsafe { usage.assume_init() };
        let tv = |t: libc::timeval| {
            Duration::from_secs(t.tv_sec.max(0) as u64)
                + Duration::from_micros(t.tv_usec.max(0) as u64)
        };
        Some(tv(usage.ru_utime) + tv(usage.ru_stime))
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

pub fn run(args: Args) -> Result<(), CliError> {
    let cpu_start = cpu_time();
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
    let cpu = match (cpu_start, cpu_time()) {
        (Some(a), Some(b)) => Some(b.saturating_sub(a)),
        _ => None,
    };
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
            serde_json::json!({"nodes": nodes, "seconds": time.as_secs_f64(), "nps": rate(nodes, time) as u64,
                "cpu_seconds": cpu.map(|c| c.as_secs_f64()), "cpu_nps": cpu.map(|c| rate(nodes, c) as u64), "positions": per})
        );
    } else {
        println!("total nodes {nodes}");
        println!("time        {:.3} s", time.as_secs_f64());
        println!("nps         {}", rate(nodes, time) as u64);
        if let Some(c) = cpu {
            println!("cpu time    {:.3} s", c.as_secs_f64());
            println!("nps (cpu)   {}", rate(nodes, c) as u64);
        }
    }
    Ok(())
}

fn rate(nodes: u64, time: Duration) -> f64 {
    nodes as f64 / time.as_secs_f64().max(1e-9)
}
