//! `dama-load`: how many concurrent games one `dama serve` holds.
//!
//! Against a server on this machine's loopback interface only, it plays N friend games at
//! once, each with two WebSocket players who answer every move after a think time, and
//! measures each move's round trip (sending the move until its acknowledgement, which the
//! server sends after storing and broadcasting it). It steps N up through the given counts,
//! measuring each step for a fixed time, and stops at the end of the list, when the p99 round
//! trip passes the target, or at the time limit — whichever comes first.
//!
//! ```text
//! dama serve --port 8099 --data-dir /tmp/dama-bench &
//! dama-load --url http://127.0.0.1:8099 --steps 250,500,1000,2000 --seconds 20
//! ```

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

struct Options {
    addr: SocketAddr,
    steps: Vec<usize>,
    seconds: u64,
    think_ms: u64,
    variant: String,
    target_p99_ms: f64,
    max_total_s: u64,
}

const USAGE: &str = "usage: dama-load --url http://127.0.0.1:PORT [--steps 250,500,1000] \
[--seconds 20] [--think-ms 1000] [--variant russian] [--p99-ms 50] [--max-total-s 600]";

fn parse_args() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let mut url = None;
    let mut o = Options {
        addr: "127.0.0.1:8080".parse().map_err(|_| "address")?,
        steps: vec![100, 250, 500, 1000, 2000],
        seconds: 20,
        think_ms: 1000,
        variant: "russian".into(),
        target_p99_ms: 50.0,
        max_total_s: 600,
    };
    while let Some(a) = args.next() {
        let mut value = || {
            args.next()
                .ok_or_else(|| format!("{a} needs a value\n{USAGE}"))
        };
        let num = |s: String| {
            s.parse::<u64>()
                .map_err(|_| format!("{a}: not a number: {s}"))
        };
        match a.as_str() {
            "--url" => url = Some(value()?),
            "--steps" => {
                o.steps = value()?
                    .split(',')
                    .map(|s| {
                        s.trim()
                            .parse::<usize>()
                            .map_err(|_| format!("bad step {s}"))
                    })
                    .collect::<Result<_, _>>()?
            }
            "--seconds" => o.seconds = num(value()?)?.clamp(1, 600),
            "--think-ms" => o.think_ms = num(value()?)?.min(60_000),
            "--variant" => o.variant = value()?,
            "--p99-ms" => o.target_p99_ms = num(value()?)? as f64,
            "--max-total-s" => o.max_total_s = num(value()?)?.clamp(1, 3600),
            "-h" | "--help" => return Err(USAGE.into()),
            _ => return Err(format!("unknown option {a}\n{USAGE}")),
        }
    }
    let url = url.ok_or_else(|| format!("--url is required\n{USAGE}"))?;
    let host = url
        .strip_prefix("http://")
        .ok_or("the URL must start with http://")?
        .trim_end_matches('/');
    let addr: SocketAddr = host
        .parse()
        .map_err(|_| format!("give the server as http://IP:PORT, not {url}"))?;
    // A load test only ever targets this machine.
    if !addr.ip().is_loopback() {
        return Err(format!(
            "{} is not a loopback address; dama-load only tests a server on this machine",
            addr.ip()
        ));
    }
    if o.steps.is_empty() || o.steps.iter().any(|&n| n == 0 || n > 20_000) {
        return Err("steps must be between 1 and 20000 games".into());
    }
    o.addr = addr;
    Ok(o)
}

/// A minimal HTTP/1.1 POST with a JSON body (the server's own API, on loopback).
async fn post(addr: SocketAddr, path: &str, body: &Value) -> Result<Value, String> {
    let mut stream = TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
    let body = body.to_string();
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream
        .write_all(request.as_bytes())
        .await
        .map_err(|e| e.to_string())?;
    let mut response = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), stream.read_to_end(&mut response))
        .await
        .map_err(|_| "HTTP timeout".to_string())?
        .map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&response);
    let (head, body) = text.split_once("\r\n\r\n").ok_or("bad HTTP response")?;
    if !head.starts_with("HTTP/1.1 200") {
        return Err(format!("HTTP error: {}", head.lines().next().unwrap_or("")));
    }
    serde_json::from_str(body).map_err(|e| e.to_string())
}

#[derive(Default)]
struct Stats {
    recording: AtomicBool,
    rtts_us: Mutex<Vec<u32>>,
    moves: AtomicU64,
    errors: AtomicU64,
    games_finished: AtomicU64,
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// One player: answers each position where it is to move after the think time.
async fn player(
    addr: SocketAddr,
    game: String,
    token: String,
    think: Duration,
    stats: Arc<Stats>,
    stop: Arc<AtomicBool>,
    seed: u64,
) -> Result<(), String> {
    let config = tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default()
        .read_buffer_size(16 * 1024);
    let (mut ws, _) = tokio_tungstenite::connect_async_with_config(
        format!("ws://{addr}/ws/{game}"),
        Some(config),
        false,
    )
    .await
    .map_err(|e| e.to_string())?;
    ws.send(Message::text(
        json!({"type": "hello", "token": token}).to_string(),
    ))
    .await
    .map_err(|e| e.to_string())?;
    let mut rng = Rng(seed | 1);
    let mut my_colour = String::new();
    let mut live = Value::Null;
    let mut sent: Option<(u64, Instant)> = None;
    let mut next_id = 1u64;
    let mut act_at: Option<tokio::time::Instant> = None;
    loop {
        if stop.load(Ordering::Relaxed) {
            return Ok(());
        }
        let wake =
            act_at.unwrap_or_else(|| tokio::time::Instant::now() + Duration::from_secs(3600));
        tokio::select! {
            msg = ws.next() => {
                let text = match msg {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(_)) => continue,
                    _ => return Err("connection closed".into()),
                };
                let mut v: Value = serde_json::from_str(text.as_str()).map_err(|e| e.to_string())?;
                match v["type"].as_str() {
                    Some("snapshot") => {
                        my_colour = v["game"]["role"].as_str().unwrap_or("").to_owned();
                        live = v["game"]["live"].take();
                    }
                    Some("event") => live = v["live"].clone(),
                    Some("ack") => {
                        if let Some((id, at)) = sent {
                            if v["id"] == id {
                                let us = at.elapsed().as_micros().min(u32::MAX as u128) as u32;
                                if stats.recording.load(Ordering::Relaxed) {
                                    stats.rtts_us.lock().unwrap_or_else(|p| p.into_inner()).push(us);
                                    stats.moves.fetch_add(1, Ordering::Relaxed);
                                }
                                sent = None;
                            }
                        }
                        continue;
                    }
                    Some("error") => {
                        stats.errors.fetch_add(1, Ordering::Relaxed);
                        sent = None;
                        continue;
                    }
                    _ => continue,
                }
                if live["status"] == "finished" {
                    stats.games_finished.fetch_add(1, Ordering::Relaxed);
                    return Ok(());
                }
                if live["status"] == "active" && live["turn"] == my_colour.as_str() && sent.is_none() && act_at.is_none() {
                    // Think for 75% to 125% of the think time.
                    let ms = think.as_millis() as u64;
                    let jitter = if ms > 0 { rng.next() % (ms / 2 + 1) } else { 0 };
                    act_at = Some(tokio::time::Instant::now() + Duration::from_millis(ms * 3 / 4 + jitter));
                }
            }
            _ = tokio::time::sleep_until(wake), if act_at.is_some() => {
                act_at = None;
                let legal = live["legal"].as_array().cloned().unwrap_or_default();
                if legal.is_empty() {
                    continue;
                }
                let m = &legal[(rng.next() % legal.len() as u64) as usize];
                let id = next_id;
                next_id += 1;
                let msg = json!({"type": "move", "id": id, "v": live["v"], "path": m["paths"][0]});
                sent = Some((id, Instant::now()));
                ws.send(Message::text(msg.to_string())).await.map_err(|e| e.to_string())?;
            }
        }
    }
}

/// A game slot: plays friend games one after another until told to stop.
async fn slot(o: Arc<Options>, stats: Arc<Stats>, stop: Arc<AtomicBool>, seed: u64) {
    let mut round = 0u64;
    while !stop.load(Ordering::Relaxed) {
        round += 1;
        let result: Result<(), String> = async {
            let created = post(
                o.addr,
                "/api/games",
                &json!({"variant": o.variant, "mode": "friend", "color": "white"}),
            )
            .await?;
            let id = created["id"].as_str().ok_or("no id")?.to_owned();
            let code = created["invite"]
                .as_str()
                .and_then(|s| s.rsplit('/').next())
                .ok_or("no invite")?
                .to_owned();
            let joined = post(
                o.addr,
                &format!("/api/games/{id}/join"),
                &json!({"invite": code}),
            )
            .await?;
            let white = created["token"].as_str().ok_or("no token")?.to_owned();
            let black = joined["token"].as_str().ok_or("no token")?.to_owned();
            let think = Duration::from_millis(o.think_ms);
            let (a, b) = tokio::join!(
                player(
                    o.addr,
                    id.clone(),
                    white,
                    think,
                    stats.clone(),
                    stop.clone(),
                    seed ^ round
                ),
                player(
                    o.addr,
                    id,
                    black,
                    think,
                    stats.clone(),
                    stop.clone(),
                    seed.rotate_left(17) ^ round
                ),
            );
            a.and(b)
        }
        .await;
        if let Err(e) = result {
            stats.errors.fetch_add(1, Ordering::Relaxed);
            if stats.errors.load(Ordering::Relaxed) < 5 {
                eprintln!("dama-load: {e}");
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    }
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

#[tokio::main]
async fn main() {
    let o = match parse_args() {
        Ok(o) => Arc::new(o),
        Err(e) => {
            eprintln!("dama-load: {e}");
            std::process::exit(2);
        }
    };
    let started = Instant::now();
    let stats = Arc::new(Stats::default());
    let stop = Arc::new(AtomicBool::new(false));
    let mut slots = Vec::new();
    let mut best: Option<usize> = None;
    println!(
        "dama-load: {} games of {} per step, think {} ms, {} s per step, target p99 < {} ms",
        o.steps
            .iter()
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join("/"),
        o.variant,
        o.think_ms,
        o.seconds,
        o.target_p99_ms
    );
    println!(
        "{:>7} {:>9} {:>9} {:>9} {:>9} {:>9} {:>7} {:>7}",
        "games", "moves/s", "p50 ms", "p90 ms", "p99 ms", "max ms", "errors", "ended"
    );
    for &n in &o.steps {
        if started.elapsed() > Duration::from_secs(o.max_total_s) {
            println!("dama-load: time limit reached");
            break;
        }
        // Ramp up to n games, a few at a time so connection set-up does not skew the step.
        while slots.len() < n {
            let seed = 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(slots.len() as u64 + 1);
            slots.push(tokio::spawn(slot(
                o.clone(),
                stats.clone(),
                stop.clone(),
                seed,
            )));
            if slots.len() % 50 == 0 {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
        // Let every game reach its rhythm, then measure.
        tokio::time::sleep(Duration::from_millis(o.think_ms * 2 + 2000)).await;
        stats
            .rtts_us
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clear();
        stats.moves.store(0, Ordering::Relaxed);
        let errors_before = stats.errors.load(Ordering::Relaxed);
        let ended_before = stats.games_finished.load(Ordering::Relaxed);
        stats.recording.store(true, Ordering::Relaxed);
        let t0 = Instant::now();
        tokio::time::sleep(Duration::from_secs(o.seconds)).await;
        stats.recording.store(false, Ordering::Relaxed);
        let elapsed = t0.elapsed().as_secs_f64();
        let mut rtts =
            std::mem::take(&mut *stats.rtts_us.lock().unwrap_or_else(|p| p.into_inner()));
        rtts.sort_unstable();
        let p99 = percentile(&rtts, 0.99);
        println!(
            "{:>7} {:>9.0} {:>9.2} {:>9.2} {:>9.2} {:>9.2} {:>7} {:>7}",
            n,
            rtts.len() as f64 / elapsed,
            percentile(&rtts, 0.5),
            percentile(&rtts, 0.9),
            p99,
            rtts.last().map_or(f64::NAN, |&m| m as f64 / 1000.0),
            stats.errors.load(Ordering::Relaxed) - errors_before,
            stats.games_finished.load(Ordering::Relaxed) - ended_before,
        );
        if !rtts.is_empty() && p99 < o.target_p99_ms {
            best = Some(n);
        } else {
            println!("dama-load: p99 {p99:.2} ms is over the target at {n} games; stopping");
            break;
        }
    }
    stop.store(true, Ordering::Relaxed);
    for s in slots {
        s.abort();
    }
    match best {
        Some(n) => println!(
            "dama-load: held {n} concurrent games with move round-trip p99 < {} ms",
            o.target_p99_ms
        ),
        None => println!("dama-load: no step met p99 < {} ms", o.target_p99_ms),
    }
}
