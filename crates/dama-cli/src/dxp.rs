//! `dama dxp`: play over the DamExchange Protocol, as follower (listening) or initiator.

use crate::analyse::line_text;
use crate::CliError;
use dama_core::{AnyPosition, Color, Variant};
use dama_engine::{Engine, EngineOptions, Level, Limits};
use dama_protocol::dxp::{self, Connection, GameRecord, Player, DEFAULT_PORT};
use std::net::{TcpListener, TcpStream};
use std::time::Duration;

/// Options of `dama dxp`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Connect to a follower at HOST:PORT and propose games (initiator). Without it, dama
    /// listens and answers game requests (follower).
    #[arg(long, value_name = "HOST:PORT")]
    connect: Option<String>,
    /// Address to listen on as follower.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Port to listen on as follower.
    #[arg(long, default_value_t = DEFAULT_PORT)]
    port: u16,
    /// Variant (DXP is International draughts; others use the same messages).
    #[arg(long, short = 'v', default_value = "international")]
    variant: String,
    /// Initiator: our colour, white or black.
    #[arg(long, default_value = "white")]
    color: String,
    /// Initiator: minutes per player (0: a fixed search per move, see --movetime).
    #[arg(long, default_value_t = 5)]
    minutes: u32,
    /// Initiator: moves per time control (0: the whole game).
    #[arg(long, default_value_t = 0)]
    moves: u32,
    /// Initiator: number of games (colours alternate).
    #[arg(long, default_value_t = 1)]
    games: u32,
    /// Seconds per move when the game has no clock.
    #[arg(long, default_value_t = 1.0)]
    movetime: f64,
    /// Playing level 1-10.
    #[arg(long, default_value_t = 10)]
    level: u8,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Follower: stop after this many games (default: until the peer stops).
    #[arg(long)]
    max_games: Option<u32>,
    /// An opening book: PDN games of the variant whose first moves dama plays instead of
    /// searching while a game follows them (see `dama book`).
    #[arg(long, value_name = "PDN")]
    book: Option<std::path::PathBuf>,
    #[command(flatten)]
    book_options: crate::book::BookOptions,
    #[command(flatten)]
    endgame: crate::endgame::EndgameOptions,
}

fn report(r: &GameRecord) {
    let result = match r.winner {
        None => "draw".to_owned(),
        Some(c) if c == r.color => "dama wins".to_owned(),
        Some(_) => "dama loses".to_owned(),
    };
    println!(
        "game over: {result} ({}) after {} plies; dama played {}",
        r.reason,
        r.moves.len(),
        r.color
    );
    println!("moves: {}", line_text(&r.start, &r.moves));
}

pub fn run(args: Args) -> Result<(), CliError> {
    let variant: Variant = args.variant.parse()?;
    let level = Level::new(args.level).ok_or_else(|| CliError("--level must be 1 to 10".into()))?;
    if !(args.movetime > 0.0 && args.movetime < 1e5) {
        return Err(CliError(
            "--movetime must be a positive number of seconds".into(),
        ));
    }
    let book = args
        .book
        .as_deref()
        .map(|path| crate::book::load_for(path, variant, &args.book_options))
        .transpose()?;
    let mut engine = Engine::new(EngineOptions {
        threads: args.threads.clamp(1, 64),
        hash_mb: args.hash.clamp(1, 65536),
        level,
        endgame_pieces: args.endgame.apply(),
        ..EngineOptions::default()
    });
    engine.set_book(book.map(std::sync::Arc::new));
    let mut player = Player {
        engine: &mut engine,
        variant,
        name: format!("dama {}", env!("CARGO_PKG_VERSION")),
        fixed: Limits::move_time(Duration::from_secs_f64(args.movetime)),
        peer_timeout: Some(Duration::from_secs(3600)),
    };
    match &args.connect {
        Some(address) => {
            let mut color = match args.color.as_str() {
                "white" | "w" => Color::White,
                "black" | "b" | "z" => Color::Black,
                other => {
                    return Err(CliError(format!(
                        "--color must be white or black, not {other}"
                    )))
                }
            };
            let stream = TcpStream::connect(address)
                .map_err(|e| CliError(format!("cannot connect to {address}: {e}")))?;
            let mut conn = Connection::new(stream);
            for _ in 0..args.games.max(1) {
                let start = AnyPosition::start(variant);
                let r = dxp::initiate(
                    &mut conn,
                    &mut player,
                    color,
                    args.minutes,
                    args.moves,
                    Some(start).filter(|_| variant != Variant::International),
                )?;
                report(&r);
                color = !color;
            }
            let _ = conn.send(&dxp::Message::GameEnd { reason: 0, stop: 1 });
            let _ = conn.receive(Some(Duration::from_secs(5)));
        }
        None => {
            let listener = TcpListener::bind((args.host.as_str(), args.port)).map_err(|e| {
                CliError(format!("cannot listen on {}:{}: {e}", args.host, args.port))
            })?;
            eprintln!("dama: DXP follower listening on {}", listener.local_addr()?);
            let mut played = 0u32;
            for stream in listener.incoming() {
                let stream = stream?;
                eprintln!("dama: connection from {}", stream.peer_addr()?);
                let mut conn = Connection::new(stream);
                let outcome = dxp::follow(&mut conn, &mut player, |r| {
                    report(r);
                    played += 1;
                });
                if let Err(e) = outcome {
                    eprintln!("dama: session ended: {e}");
                }
                if args.max_games.is_some_and(|m| played >= m) {
                    break;
                }
            }
        }
    }
    Ok(())
}
