//! `dama match`: engine against engine. Players are in-process levels or external engines
//! speaking Hub or DXP, started as subprocesses. Each opening is played twice with colours
//! reversed, by one pair of players (several pairs play at once with `--concurrency`); games
//! are written as PDN; the score, the Elo difference with its 95% error bars and the
//! likelihood of superiority are printed as the match goes ([`crate::match_stats`]), and a
//! sequential test may end it early.

use crate::analyse::line_text;
use crate::match_stats::{Pairs, Sprt, Stats, Verdict};
use crate::CliError;
use dama_core::{AnyMove, AnyPosition, Color, Game, Variant};
use dama_engine::{Engine, EngineOptions, Level, Limits};
use dama_notation::write_move;
use dama_protocol::dxp::{Connection, Message};
use dama_protocol::hub::HubClient;
use dama_protocol::squares::{board_string, find_move, MoveText};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// Options of `dama match`.
#[derive(Clone, Debug, clap::Args)]
pub struct Args {
    /// First player: `level:N` (dama at level N; `level:N@FILE` with the weights of FILE from
    /// `dama tune`), `hub:COMMAND` (a Hub engine, e.g.
    /// "hub:/opt/scan/scan hub") or `dxp:PORT:COMMAND` (a DXP follower started with COMMAND
    /// that listens on PORT).
    #[arg(long)]
    first: String,
    /// Second player, in the same form.
    #[arg(long)]
    second: String,
    /// Variant.
    #[arg(long, short = 'v', default_value = "international")]
    variant: String,
    /// Openings: a file with one FEN per line (bare or in a PDN `[FEN "..."]` tag), a JSON
    /// file whose string values are FENs, or lines of numeric moves from the start. Without
    /// it, the start position.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Number of games (each opening is played twice, colours reversed).
    #[arg(long, short = 'n', default_value_t = 2)]
    games: u32,
    /// Skip this many openings of the file first.
    #[arg(long, default_value_t = 0)]
    skip: usize,
    /// Time control "BASE+INC" in seconds per game (e.g. 10+0.1).
    #[arg(long)]
    tc: Option<String>,
    /// Seconds per move (used when no --tc is given).
    #[arg(long, default_value_t = 0.1)]
    movetime: f64,
    /// Fixed depth per move (instead of time; Hub players get `level depth=`).
    #[arg(long)]
    depth: Option<u32>,
    /// Fixed nodes per move (instead of time; Hub players get `level nodes=`).
    #[arg(long)]
    nodes: Option<u64>,
    /// Threads of each dama player.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Threads of the first player when it is dama (overrides --threads for it).
    #[arg(long)]
    first_threads: Option<usize>,
    /// Threads of the second player when it is dama (overrides --threads for it).
    #[arg(long)]
    second_threads: Option<usize>,
    /// Fixed nodes per move of the first player (overrides --nodes for it; e.g. to give a
    /// slower evaluation the node budget of its speed).
    #[arg(long)]
    first_nodes: Option<u64>,
    /// Fixed nodes per move of the second player (overrides --nodes for it).
    #[arg(long)]
    second_nodes: Option<u64>,
    /// Transposition table of each dama player, MiB.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// The endgame database of the dama players (Hub and DXP engines have their own).
    #[command(flatten)]
    endgame: crate::endgame::EndgameOptions,
    /// Plies after which a game is adjudicated a draw.
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Write the games to this PDN file.
    #[arg(long)]
    pdn: Option<PathBuf>,
    /// Hub parameters for Hub players, NAME=VALUE (repeatable).
    #[arg(long = "hub-param")]
    hub_params: Vec<String>,
    /// An opening book for the first player when it is dama: PDN games whose first moves it
    /// plays instead of searching while a game follows them (`dama book`).
    #[arg(long, value_name = "PDN")]
    first_book: Option<PathBuf>,
    /// An opening book for the second player when it is dama.
    #[arg(long, value_name = "PDN")]
    second_book: Option<PathBuf>,
    #[command(flatten)]
    book: crate::book::BookOptions,
    /// Games played at the same time, each pair of games of an opening by its own two
    /// players (Hub engines are started once for each; not with a DXP player, whose port is
    /// fixed). Give each game a core of its own when the games are timed.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Stop as soon as a sequential probability ratio test tells whether the first player is
    /// ELO0 or ELO1 Elo stronger than the second: `ELO0,ELO1[,ALPHA,BETA]` (error rates 0.05
    /// by default), e.g. `0,10`. It weighs the pairs of games of each opening; `--games`
    /// bounds the match.
    #[arg(long, value_name = "ELO0,ELO1")]
    sprt: Option<String>,
}

/// How long a move may take: a fixed time, a clock, or a depth/node budget.
#[derive(Clone, Copy, Debug)]
enum TimeControl {
    PerMove(Duration),
    Clock { base: Duration, inc: Duration },
}

/// A participant in the match.
trait Player: Send {
    fn name(&self) -> String;
    fn new_game(
        &mut self,
        start: &AnyPosition,
        color: Color,
        tc: TimeControl,
    ) -> Result<(), String>;
    /// The move for the side to move of `game`; `clock` is the remaining time and increment.
    fn think(
        &mut self,
        game: &Game,
        clock: Option<(Duration, Duration)>,
    ) -> Result<AnyMove, String>;
    fn game_over(&mut self, _game: &Game, _winner: Option<Color>, _color: Color) {}
}

struct Internal {
    engine: Engine,
    tuned: Option<String>,
    level: Level,
    threads: usize,
    fixed: Option<Limits>,
    per_move: Duration,
    /// A node budget of this player's own (`--first-nodes`, `--second-nodes`), named with it.
    own_nodes: Option<u64>,
    /// Whether it plays from an opening book (`--first-book`, `--second-book`).
    booked: bool,
}

impl Player for Internal {
    fn name(&self) -> String {
        let mut name = format!("dama level {}", self.level);
        if self.threads > 1 {
            name += &format!(" x{}", self.threads);
        }
        if let Some(f) = &self.tuned {
            name += &format!(" ({f})");
        }
        if let Some(n) = self.own_nodes {
            name += &format!(" {n} nodes");
        }
        if self.booked {
            name += " with book";
        }
        name
    }
    fn new_game(&mut self, _: &AnyPosition, _: Color, _: TimeControl) -> Result<(), String> {
        self.engine.new_game();
        Ok(())
    }
    fn think(
        &mut self,
        game: &Game,
        clock: Option<(Duration, Duration)>,
    ) -> Result<AnyMove, String> {
        self.engine.set_game(game);
        let limits = match (self.fixed, clock) {
            (Some(l), _) => l,
            (None, Some((remaining, inc))) => Limits::clock(remaining, inc, None),
            (None, None) => Limits::move_time(self.per_move),
        };
        self.engine
            .search(limits, |_| {})
            .best_move
            .ok_or_else(|| "no move".into())
    }
}

struct Hub {
    client: HubClient,
    start: AnyPosition,
    per_move: Duration,
    /// A `level` line for fixed-depth or fixed-node matches (`depth=8`, `nodes=20000`).
    fixed: Option<String>,
}

impl Player for Hub {
    fn name(&self) -> String {
        self.client.name()
    }
    fn new_game(&mut self, start: &AnyPosition, _: Color, _: TimeControl) -> Result<(), String> {
        self.start = *start;
        self.client.new_game().map_err(|e| e.to_string())
    }
    fn think(
        &mut self,
        game: &Game,
        clock: Option<(Duration, Duration)>,
    ) -> Result<AnyMove, String> {
        let level = match (&self.fixed, clock) {
            (Some(f), _) => f.clone(),
            (None, Some((remaining, inc))) => format!(
                "time={:.3} inc={:.3}",
                remaining.saturating_sub(inc).as_secs_f64(),
                inc.as_secs_f64()
            ),
            (None, None) => format!("move-time={:.3}", self.per_move.as_secs_f64()),
        };
        let timeout = clock.map_or(self.per_move * 20, |(r, _)| r * 2) + Duration::from_secs(60);
        self.client
            .best_move(&self.start, game.moves(), &level, timeout)
            .map(|(m, _)| m)
            .map_err(|e| e.to_string())
    }
}

struct Dxp {
    child: Child,
    port: u16,
    conn: Option<Connection>,
    name: String,
    /// Moves of the current game already known to the peer.
    sent: usize,
    variant: Variant,
}

impl Dxp {
    fn connect(&mut self) -> Result<&mut Connection, String> {
        if self.conn.is_none() {
            let mut last = String::new();
            for _ in 0..100 {
                match std::net::TcpStream::connect(("127.0.0.1", self.port)) {
                    Ok(s) => {
                        self.conn = Some(Connection::new(s));
                        break;
                    }
                    Err(e) => last = e.to_string(),
                }
                std::thread::sleep(Duration::from_millis(100));
            }
            if self.conn.is_none() {
                return Err(format!(
                    "cannot connect to the DXP engine on port {}: {last}",
                    self.port
                ));
            }
        }
        self.conn.as_mut().ok_or_else(|| "no connection".into())
    }
}

impl Player for Dxp {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn new_game(
        &mut self,
        start: &AnyPosition,
        color: Color,
        tc: TimeControl,
    ) -> Result<(), String> {
        let minutes = match tc {
            TimeControl::Clock { base, .. } => base.as_secs().div_ceil(60).max(1) as u32,
            TimeControl::PerMove(d) => (d.as_secs_f64() * 100.0 / 60.0).ceil().max(1.0) as u32,
        };
        let position = (*start != AnyPosition::start(self.variant))
            .then(|| (start.side_to_move(), board_string(start, 'z', 'Z')));
        self.sent = 0;
        let conn = self.connect()?;
        conn.send(&Message::GameRequest {
            name: "dama match".into(),
            follower_color: color,
            minutes,
            moves: if matches!(tc, TimeControl::PerMove(_)) {
                100
            } else {
                0
            },
            position,
        })
        .map_err(|e| e.to_string())?;
        loop {
            match conn
                .receive(Some(Duration::from_secs(30)))
                .map_err(|e| e.to_string())?
            {
                Message::GameAccept { code: 0, name } => {
                    if !name.is_empty() {
                        self.name = name;
                    }
                    return Ok(());
                }
                Message::GameAccept { code, .. } => {
                    return Err(format!("game refused (code {code})"))
                }
                _ => {}
            }
        }
    }
    fn think(
        &mut self,
        game: &Game,
        clock: Option<(Duration, Duration)>,
    ) -> Result<AnyMove, String> {
        let variant = self.variant;
        let unsent: Vec<(AnyPosition, AnyMove)> = game.moves()[self.sent..]
            .iter()
            .enumerate()
            .map(|(i, m)| (game.positions()[self.sent + i], *m))
            .collect();
        let timeout =
            clock.map_or(Duration::from_secs(600), |(r, _)| r * 3) + Duration::from_secs(30);
        self.sent = game.moves().len() + 1;
        let conn = self.connect()?;
        for (_, m) in &unsent {
            conn.send(&Message::Move {
                seconds: 0,
                text: MoveText::of(variant, m),
            })
            .map_err(|e| e.to_string())?;
        }
        loop {
            match conn.receive(Some(timeout)).map_err(|e| e.to_string())? {
                Message::Move { text, .. } => {
                    return find_move(game.position(), &text).map_err(|e| e.to_string())
                }
                Message::GameEnd { reason, .. } => {
                    return Err(format!("the engine ended the game (reason {reason})"))
                }
                _ => {}
            }
        }
    }
    fn game_over(&mut self, game: &Game, winner: Option<Color>, color: Color) {
        let unsent = self.sent < game.moves().len();
        let Ok(conn) = self.connect() else { return };
        // Tell the peer the last move if it was ours, then end the game from our side.
        if unsent {
            if let Some(m) = game.moves().last() {
                let _ = conn.send(&Message::Move {
                    seconds: 0,
                    text: MoveText::of(game.variant(), m),
                });
            }
        }
        let reason = match winner {
            None => 2,
            Some(w) if w == color => 1, // the engine won: we, its opponent, lose
            Some(_) => 3,
        };
        let _ = conn.send(&Message::GameEnd { reason, stop: 0 });
        for _ in 0..8 {
            match conn.receive(Some(Duration::from_secs(5))) {
                Ok(Message::GameEnd { .. }) | Err(_) => break,
                Ok(_) => {}
            }
        }
    }
}

impl Drop for Dxp {
    fn drop(&mut self) {
        if let Some(conn) = &mut self.conn {
            let _ = conn.send(&Message::GameEnd { reason: 0, stop: 1 });
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Splits a command line on spaces (no quoting).
fn split_command(text: &str) -> Result<(String, Vec<String>), CliError> {
    let mut parts = text.split_whitespace().map(str::to_owned);
    let program = parts
        .next()
        .ok_or_else(|| CliError("empty engine command".into()))?;
    Ok((program, parts.collect()))
}

/// Runs external engines in their own directory (where their data files are).
fn program_dir(program: &str) -> Option<PathBuf> {
    Path::new(program)
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map(Path::to_path_buf)
}

/// The fixed budget of a dama player on `side`: the depth, else its own or the common node
/// count; `None` plays on time.
fn fixed_limits(args: &Args, side: Side) -> Option<Limits> {
    match (args.depth, side.nodes.or(args.nodes)) {
        (Some(d), _) => Some(Limits::depth(d)),
        (None, Some(n)) => Some(Limits::nodes(n)),
        _ => None,
    }
}

/// The Hub `level` line of a fixed budget (`depth=8`, `nodes=20000`); `None` for limits with
/// neither.
fn level_line(limits: Limits) -> Option<String> {
    match (limits.depth, limits.nodes) {
        (Some(d), _) => Some(format!("depth={d}")),
        (None, Some(n)) => Some(format!("nodes={n}")),
        (None, None) => None,
    }
}

/// What one side of the match overrides of the common options.
#[derive(Clone, Copy, Debug)]
struct Side<'a> {
    threads: Option<usize>,
    nodes: Option<u64>,
    book: Option<&'a Path>,
}

impl Args {
    fn first_side(&self) -> Side<'_> {
        Side {
            threads: self.first_threads,
            nodes: self.first_nodes,
            book: self.first_book.as_deref(),
        }
    }

    fn second_side(&self) -> Side<'_> {
        Side {
            threads: self.second_threads,
            nodes: self.second_nodes,
            book: self.second_book.as_deref(),
        }
    }
}

fn make_player(
    spec: &str,
    args: &Args,
    side: Side,
    variant: Variant,
    seed: u64,
) -> Result<Box<dyn Player>, CliError> {
    let per_move = Duration::from_secs_f64(args.movetime);
    if let Some(n) = spec.strip_prefix("level:") {
        // `level:N@FILE` plays with the evaluation weights of FILE (see `dama tune`).
        let (n, weights_file) = match n.split_once('@') {
            Some((n, f)) => (n, Some(f)),
            None => (n, None),
        };
        let eval = match weights_file {
            None => crate::tune::EvalFile::default(),
            Some(f) => crate::tune::load_eval(Path::new(f), variant)?,
        };
        let level = n
            .parse()
            .ok()
            .and_then(Level::new)
            .ok_or_else(|| CliError(format!("bad level in {spec:?} (1 to 10)")))?;
        let fixed = fixed_limits(args, side);
        let threads = side.threads.unwrap_or(args.threads).clamp(1, 64);
        let mut engine = Engine::new(EngineOptions {
            threads,
            hash_mb: args.hash.clamp(1, 65536),
            level,
            seed: Some(seed),
            endgame_pieces: args.endgame.endgame_pieces,
            ..EngineOptions::default()
        });
        eval.apply(&mut engine);
        let book = side
            .book
            .map(|path| crate::book::load_for(path, variant, &args.book))
            .transpose()?;
        let booked = book.is_some();
        engine.set_book(book.map(Arc::new));
        return Ok(Box::new(Internal {
            engine,
            tuned: weights_file.map(str::to_owned),
            level,
            threads,
            fixed,
            per_move,
            own_nodes: side.nodes.filter(|_| args.depth.is_none()),
            booked,
        }));
    }
    if let Some(cmd) = spec.strip_prefix("hub:") {
        let (program, rest) = split_command(cmd)?;
        let mut params: Vec<(String, String)> = Vec::new();
        if variant != Variant::International {
            params.push(("variant".into(), variant.key().into()));
        }
        for p in &args.hub_params {
            let (k, v) = p
                .split_once('=')
                .ok_or_else(|| CliError(format!("--hub-param {p:?} is not NAME=VALUE")))?;
            params.push((k.into(), v.into()));
        }
        let client = HubClient::start(
            &program,
            &rest,
            program_dir(&program).as_deref(),
            &params,
            Duration::from_secs(60),
        )
        .map_err(|e| CliError(format!("{program}: {e}")))?;
        let fixed = fixed_limits(args, side).and_then(level_line);
        return Ok(Box::new(Hub {
            client,
            start: AnyPosition::start(variant),
            per_move,
            fixed,
        }));
    }
    if let Some(rest) = spec.strip_prefix("dxp:") {
        let (port, cmd) = rest
            .split_once(':')
            .ok_or_else(|| CliError("dxp player: dxp:PORT:COMMAND".into()))?;
        let port: u16 = port
            .parse()
            .map_err(|_| CliError(format!("bad port {port:?}")))?;
        let (program, rest) = split_command(cmd)?;
        let mut command = Command::new(&program);
        command
            .args(&rest)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        if let Some(d) = program_dir(&program) {
            command.current_dir(d);
        }
        let child = command
            .spawn()
            .map_err(|e| CliError(format!("cannot start {program}: {e}")))?;
        return Ok(Box::new(Dxp {
            child,
            port,
            conn: None,
            name: program,
            sent: 0,
            variant,
        }));
    }
    Err(CliError(format!(
        "unknown player {spec:?}: use level:N, hub:COMMAND or dxp:PORT:COMMAND"
    )))
}

/// Reads openings: FEN lines (bare or PDN tags), JSON string values that are FENs, or lines of
/// moves from the start position (numeric, or algebraic where the variant names squares so).
pub fn read_openings(path: &Path, variant: Variant) -> Result<Vec<AnyPosition>, CliError> {
    let text = read_text(path)?;
    let mut out = Vec::new();
    let mut candidates: Vec<String> = Vec::new();
    let head = text.trim_start();
    // A JSON file begins with `{` or `[`; so does a PDN file of `[FEN "..."]` tags, which is
    // read line by line when it is not JSON.
    let json = match head.chars().next() {
        Some('{') => Some(
            serde_json::from_str::<serde_json::Value>(&text)
                .map_err(|e| CliError(format!("{}: {e}", path.display())))?,
        ),
        Some('[') => serde_json::from_str::<serde_json::Value>(&text).ok(),
        _ => None,
    };
    if let Some(value) = json {
        json_strings(&value, &mut candidates);
    } else {
        for line in text.lines() {
            let line = line.trim();
            if let Some(i) = line.find("[FEN \"") {
                let rest = &line[i + 6..];
                if let Some(j) = rest.find('"') {
                    candidates.push(rest[..j].to_owned());
                }
            } else if !line.is_empty() && !line.starts_with('[') && !line.starts_with('#') {
                candidates.push(line.to_owned());
            }
        }
    }
    for c in candidates {
        if let Ok(p) = AnyPosition::from_fen(variant, &c) {
            out.push(p);
            continue;
        }
        // A line of numeric moves from the start.
        let mut p = AnyPosition::start(variant);
        let mut ok = true;
        for word in c.split_whitespace() {
            let word =
                word.trim_start_matches(|ch: char| ch.is_ascii_digit() && word.contains('.'));
            let word = word.trim_start_matches('.');
            if word.is_empty() {
                // A move number standing alone (`1. c3-d4`).
                continue;
            }
            // Hub's numeric form first, then the variant's own notation (algebraic names
            // such as `c3-d4` in Russian or Czech).
            let found = MoveText::parse_hub(word)
                .ok()
                .and_then(|mt| find_move(&p, &mt).ok())
                .or_else(|| dama_notation::parse_move(&p, word).ok());
            match found.and_then(|m| p.play(&m).ok()) {
                Some(next) => p = next,
                None => {
                    ok = false;
                    break;
                }
            }
        }
        if ok && p != AnyPosition::start(variant) {
            out.push(p);
        }
    }
    if out.is_empty() {
        return Err(CliError(format!(
            "{}: no opening of {variant} found",
            path.display()
        )));
    }
    Ok(out)
}

/// One finished game.
struct Played {
    game: Game,
    white: String,
    black: String,
    winner: Option<Color>,
    reason: String,
    /// Time left on White's and Black's clocks at the end (clock matches only).
    clocks: Option<[Duration; 2]>,
}

fn play_game(
    white: &mut dyn Player,
    black: &mut dyn Player,
    start: AnyPosition,
    tc: TimeControl,
    max_plies: usize,
) -> Played {
    let mut game = Game::from_position(start);
    let (mut clocks, inc) = match tc {
        TimeControl::Clock { base, inc } => (Some([base, base]), inc),
        TimeControl::PerMove(_) => (None, Duration::ZERO),
    };
    let mut failure: Option<(Color, String)> = None;
    if let Err(e) = white.new_game(&start, Color::White, tc) {
        failure = Some((Color::White, e));
    }
    if let Err(e) = black.new_game(&start, Color::Black, tc) {
        failure = Some((Color::Black, e));
    }
    // Names after the greeting: a DXP engine tells its own only when it accepts a game.
    let names = (white.name(), black.name());
    while failure.is_none() && !game.is_over() && game.moves().len() < max_plies {
        let side = game.position().side_to_move();
        let player: &mut dyn Player = if side == Color::White {
            &mut *white
        } else {
            &mut *black
        };
        let clock = clocks.map(|c| (c[side.index()] + inc, inc));
        let started = Instant::now();
        match player.think(&game, clock) {
            Ok(m) => {
                if let Some(c) = &mut clocks {
                    let c = &mut c[side.index()];
                    let spent = started.elapsed();
                    match (*c + inc).checked_sub(spent) {
                        Some(left) => *c = left,
                        None => {
                            *c = Duration::ZERO;
                            let _ = game.lose_on_time(side);
                            break;
                        }
                    }
                }
                if game.play(&m).is_err() {
                    failure = Some((side, "illegal move".into()));
                }
            }
            Err(e) => failure = Some((side, e)),
        }
    }
    let (winner, reason) = match (&failure, game.outcome()) {
        (Some((side, e)), _) => (Some(!*side), format!("{side} failed: {e}")),
        (None, Some(o)) => (o.winner, o.reason.to_string()),
        (None, None) => (None, "adjudicated: move limit".into()),
    };
    white.game_over(&game, winner, Color::White);
    black.game_over(&game, winner, Color::Black);
    Played {
        game,
        white: names.0,
        black: names.1,
        winner,
        reason,
        clocks,
    }
}

fn pdn_text(p: &Played, round: u32) -> String {
    let v = p.game.variant();
    let result = match p.winner {
        Some(Color::White) => "2-0",
        Some(Color::Black) => "0-2",
        None => "1-1",
    };
    let mut s = String::new();
    s.push_str("[Event \"dama match\"]\n");
    s.push_str(&format!("[Round \"{round}\"]\n"));
    s.push_str(&format!("[White \"{}\"]\n", p.white.replace('"', "'")));
    s.push_str(&format!("[Black \"{}\"]\n", p.black.replace('"', "'")));
    s.push_str(&format!("[Result \"{result}\"]\n"));
    s.push_str(&format!("[GameType \"{}\"]\n", v.game_type()));
    let start = p.game.start_position();
    if *start != AnyPosition::start(v) {
        s.push_str(&format!("[FEN \"{}\"]\n", start.fen()));
    }
    s.push_str(&format!(
        "[Termination \"{}\"]\n\n",
        p.reason.replace('"', "'")
    ));
    let mut words = Vec::new();
    let black_first = start.side_to_move() != Color::White;
    let positions = p.game.positions();
    for (i, m) in p.game.moves().iter().enumerate() {
        let pos = &positions[i];
        let number = (i + usize::from(black_first)) / 2 + 1;
        if i == 0 && black_first {
            words.push(format!("{number}..."));
        } else if (i + usize::from(black_first)) % 2 == 0 {
            words.push(format!("{number}."));
        }
        words.push(write_move(pos, m));
    }
    words.push(result.to_owned());
    let mut line = String::new();
    for w in words {
        if line.len() + w.len() > 78 {
            s.push_str(line.trim_end());
            s.push('\n');
            line.clear();
        }
        line.push_str(&w);
        line.push(' ');
    }
    s.push_str(line.trim_end());
    s.push_str("\n\n");
    s
}

pub fn run(args: Args) -> Result<(), CliError> {
    let variant: Variant = args.variant.parse()?;
    args.endgame.apply();
    if args.games == 0 || args.games > 1_000_000 {
        return Err(CliError("--games must be between 1 and 1000000".into()));
    }
    if !(args.movetime > 0.0 && args.movetime < 1e5) {
        return Err(CliError(
            "--movetime must be a positive number of seconds".into(),
        ));
    }
    let tc = match &args.tc {
        None => TimeControl::PerMove(Duration::from_secs_f64(args.movetime)),
        Some(text) => {
            let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
            let parse = |s: &str| {
                s.trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|x| (0.0..1e6).contains(x))
                    .ok_or_else(|| CliError(format!("bad --tc {text:?}: use BASE+INC in seconds")))
            };
            TimeControl::Clock {
                base: Duration::from_secs_f64(parse(base)?),
                inc: Duration::from_secs_f64(parse(inc)?),
            }
        }
    };
    let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
    if !(1..=256).contains(&args.concurrency) {
        return Err(CliError("--concurrency must be between 1 and 256".into()));
    }
    // One pair of players for each game played at a time, but no more than there are pairs.
    let concurrency = args.concurrency.min(args.games.div_ceil(2) as usize);
    if concurrency > 1
        && [&args.first, &args.second]
            .iter()
            .any(|p| p.starts_with("dxp:"))
    {
        return Err(CliError(
            "--concurrency: a DXP player listens on one port, so its games are played one at \
             a time"
                .into(),
        ));
    }
    let openings = match &args.openings {
        None => vec![AnyPosition::start(variant)],
        Some(path) => read_openings(path, variant)?,
    };
    let mut seats = Vec::with_capacity(concurrency);
    for _ in 0..concurrency {
        seats.push((
            make_player(&args.first, &args, args.first_side(), variant, 1)?,
            make_player(&args.second, &args, args.second_side(), variant, 2)?,
        ));
    }
    let mut pdn = match &args.pdn {
        None => None,
        Some(path) => Some(
            std::fs::File::create(path)
                .map_err(|e| CliError(format!("{}: {e}", path.display())))?,
        ),
    };
    let (name1, name2) = (seats[0].0.name(), seats[0].1.name());
    eprintln!(
        "match {name1} vs {name2}: {} games of {variant}, {} openings{}",
        args.games,
        openings.len(),
        if concurrency > 1 {
            format!(", {concurrency} at a time")
        } else {
            String::new()
        }
    );
    let mut stats = Stats::default();
    let mut pairs = Pairs::default();
    // The first player's half points in the first game of each pair still being played.
    let mut open_pairs: HashMap<u32, u32> = HashMap::new();
    let mut verdict = Verdict::Open;
    let mut failure: Option<CliError> = None;
    let started = Instant::now();
    let next_pair = AtomicU32::new(0);
    let stop = AtomicBool::new(false);
    let pair_count = args.games.div_ceil(2);
    let (sender, receiver) = mpsc::channel::<(u32, Played)>();
    let seats = std::thread::scope(|scope| {
        let workers: Vec<_> = seats
            .into_iter()
            .map(|(mut first, mut second)| {
                let sender = sender.clone();
                let (next_pair, stop, openings) = (&next_pair, &stop, &openings);
                let skip = args.skip;
                let (games, max_plies) = (args.games, args.max_plies);
                scope.spawn(move || {
                    'pairs: while !stop.load(Ordering::Relaxed) {
                        let pair = next_pair.fetch_add(1, Ordering::Relaxed);
                        if pair >= pair_count {
                            break;
                        }
                        let opening = openings[(skip + pair as usize) % openings.len()];
                        for g in [2 * pair, 2 * pair + 1] {
                            if g >= games {
                                break;
                            }
                            let played = if g % 2 == 0 {
                                play_game(first.as_mut(), second.as_mut(), opening, tc, max_plies)
                            } else {
                                play_game(second.as_mut(), first.as_mut(), opening, tc, max_plies)
                            };
                            if sender.send((g, played)).is_err() {
                                break 'pairs;
                            }
                        }
                    }
                    (first, second)
                })
            })
            .collect();
        drop(sender);
        let mut finished = 0;
        for (g, played) in receiver {
            finished += 1;
            let first_color = if g % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            let half_points = match played.winner {
                None => {
                    stats.draws += 1;
                    1
                }
                Some(c) if c == first_color => {
                    stats.wins += 1;
                    2
                }
                Some(_) => {
                    stats.losses += 1;
                    0
                }
            };
            // Both games of a pair are played by one pair of players, in order.
            if g % 2 == 0 {
                open_pairs.insert(g / 2, half_points);
            } else if let Some(h) = open_pairs.remove(&(g / 2)) {
                pairs.add(h + half_points);
            }
            if let Some(f) = &mut pdn {
                if let Err(e) = f.write_all(pdn_text(&played, g + 1).as_bytes()) {
                    failure = Some(CliError(format!("writing PDN: {e}")));
                    stop.store(true, Ordering::Relaxed);
                    break;
                }
            }
            let result = match played.winner {
                Some(Color::White) => "2-0",
                Some(Color::Black) => "0-2",
                None => "1-1",
            };
            let clocks = match played.clocks {
                Some([w, b]) => format!(
                    ", left: White {:.1} s, Black {:.1} s",
                    w.as_secs_f64(),
                    b.as_secs_f64()
                ),
                None => String::new(),
            };
            let round = if concurrency > 1 {
                format!(" (round {})", g + 1)
            } else {
                String::new()
            };
            let test = match &sprt {
                Some(t) => {
                    let llr = pairs.llr(t);
                    let (lower, upper) = t.bounds();
                    if verdict == Verdict::Open {
                        verdict = t.verdict(llr);
                        if verdict != Verdict::Open {
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                    format!("  LLR {llr:.2} ({lower:.2}, {upper:.2})")
                }
                None => String::new(),
            };
            eprintln!(
                "game {finished:>4}/{}{round}: {} - {} {result} ({}, {} plies{clocks})  {}{test}  [{:.0} s]",
                args.games,
                played.white,
                played.black,
                played.reason,
                played.game.moves().len(),
                stats.summary(),
                started.elapsed().as_secs_f64()
            );
            if played.reason.contains("failed") {
                eprintln!(
                    "  moves: {}",
                    line_text(played.game.start_position(), played.game.moves())
                );
            }
        }
        workers
            .into_iter()
            .map(|w| w.join().expect("a match worker panicked"))
            .collect::<Vec<_>>()
    });
    if let Some(e) = failure {
        return Err(e);
    }
    // External engines may have told their names only once a game started.
    let (name1, name2) = (seats[0].0.name(), seats[0].1.name());
    println!("{name1} vs {name2} ({variant}): {}", stats.summary());
    if pairs.pairs() > 0 {
        println!("{}", pairs.summary());
    }
    if let Some(t) = &sprt {
        let conclusion = match verdict {
            Verdict::H1 => format!("H1 accepted: the first player is {} Elo stronger", t.elo1),
            Verdict::H0 => format!(
                "H0 accepted: the first player is not {} Elo stronger",
                t.elo1
            ),
            Verdict::Open => "neither hypothesis accepted before the last game".to_owned(),
        };
        println!(
            "SPRT [{}, {}] (alpha {}, beta {}): LLR {:.2}, {conclusion}",
            t.elo0,
            t.elo1,
            t.alpha,
            t.beta,
            pairs.llr(t)
        );
    }
    Ok(())
}

/// The text of an input file of at most 64 MiB (bytes that are not UTF-8 are replaced).
pub(crate) fn read_text(path: &Path) -> Result<String, CliError> {
    const MAX_BYTES: u64 = 64 << 20;
    let err = |e: &dyn std::fmt::Display| CliError(format!("{}: {e}", path.display()));
    let meta = std::fs::metadata(path).map_err(|e| err(&e))?;
    if meta.len() > MAX_BYTES {
        return Err(err(&"larger than 64 MiB"));
    }
    let bytes = std::fs::read(path).map_err(|e| err(&e))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Every string value in `v` (at any depth), in document order: the FENs of opening files
/// and the PDN games of game files that come as JSON.
pub(crate) fn json_strings(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(a) => a.iter().for_each(|x| json_strings(x, out)),
        serde_json::Value::Object(o) => o.values().for_each(|x| json_strings(x, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_in_every_format() {
        let dir = scratch_dir("openings");
        let fen = dir.join("a.fen");
        std::fs::write(
            &fen,
            "W:W26,32-50:B1-15,17-21\n[FEN \"B:W31-50:B1-20\"] *\n",
        )
        .unwrap();
        let got = read_openings(&fen, Variant::International).unwrap();
        assert_eq!(got.len(), 2);
        // A file of PDN FEN tags begins with `[` like a JSON array, and is not one.
        let tags = dir.join("tags.pdn");
        std::fs::write(
            &tags,
            "[FEN \"W:W24,23,22,21,27,26,25,32,31,30,29:B4,3,2,1,7,6,5,11,10,9,15\"] *\n\
             [FEN \"W:W17,24,22,28,27,26,25,32,31,30,29:B4,3,2,1,7,6,5,11,10,9,15\"] *\n",
        )
        .unwrap();
        let got = read_openings(&tags, Variant::Italian).unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].side_to_move(), Color::White);
        let array = dir.join("array.json");
        std::fs::write(&array, r#"["W:W26,32-50:B1-15,17-21"]"#).unwrap();
        assert_eq!(
            read_openings(&array, Variant::International).unwrap().len(),
            1
        );
        let json = dir.join("a.json");
        std::fs::write(&json, r#"{"all": {"x": "B:Wa1,c3,e3,g3,b4,c1,e1,g1,b2,d2,f2,h2:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"}}"#).unwrap();
        assert_eq!(read_openings(&json, Variant::Russian).unwrap().len(), 1);
        let moves = dir.join("a.txt");
        std::fs::write(&moves, "09-13 21-17 05-09\n09-13 22-18 06-09\nnot a move\n").unwrap();
        let got = read_openings(&moves, Variant::English).unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].side_to_move(), Color::White);
        // Algebraic moves, as Russian and Czech openings are written; a capture too.
        let algebraic = dir.join("czech.txt");
        std::fs::write(
            &algebraic,
            "1. c3-d4 f6-g5 2. d4-e5\nc3-d4 f6-e5 d4:f6\nc3-d4 f6-e5 h2-g2\n",
        )
        .unwrap();
        let got = read_openings(&algebraic, Variant::Czech).unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].side_to_move(), Color::Black);
        assert_eq!(got[1].side_to_move(), Color::Black);
        let empty = dir.join("empty.txt");
        std::fs::write(&empty, "nothing here\n").unwrap();
        assert!(read_openings(&empty, Variant::English).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A fresh folder for one test's files (the test removes it).
    fn scratch_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("dama-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// The options of `dama match` given on a command line: `line`'s words, then `more`.
    fn args(line: &str, more: &[&str]) -> Args {
        #[derive(clap::Parser)]
        struct Line {
            #[command(flatten)]
            args: Args,
        }
        let words = line.split_whitespace().chain(more.iter().copied());
        <Line as clap::Parser>::parse_from(std::iter::once("match").chain(words)).args
    }

    #[test]
    fn book_players_follow_their_games() {
        // A drawn game of four plies whose moves the book's check (a full-strength search)
        // passes: a strong search's own.
        let start = AnyPosition::start(Variant::Russian);
        let mut pos = start;
        let mut line = Vec::new();
        let mut text = String::from("[GameType \"25\"]\n[Result \"1/2-1/2\"]\n");
        let mut engine = dama_engine::Engine::new(dama_engine::EngineOptions {
            hash_mb: 1,
            ..Default::default()
        });
        for ply in 0..4 {
            engine.set_position(pos, &[]);
            let found = engine.search(dama_engine::Limits::nodes(20_000), |_| {});
            let m = found.best_move.unwrap();
            if ply % 2 == 0 {
                text += &format!("{}. ", ply / 2 + 1);
            }
            text += &format!("{} ", write_move(&pos, &m));
            line.push(m);
            pos = pos.play(&m).unwrap();
        }
        text += "1/2-1/2\n";
        let dir = scratch_dir("book");
        let file = dir.join("book.pdn");
        std::fs::write(&file, text).unwrap();
        let file_text = file.to_str().unwrap();
        let args = args(
            "--first level:2 --second level:2 -v russian -n 2 --movetime 0.01 --nodes 500 \
             --hash 1 --max-plies 200",
            &["--first-book", file_text, "--second-book", file_text],
        );
        let mut a =
            make_player(&args.first, &args, args.first_side(), Variant::Russian, 1).unwrap();
        let mut b =
            make_player(&args.second, &args, args.second_side(), Variant::Russian, 2).unwrap();
        assert_eq!(a.name(), "dama level 2 with book");
        let p = play_game(
            a.as_mut(),
            b.as_mut(),
            start,
            TimeControl::PerMove(Duration::from_millis(10)),
            8,
        );
        assert_eq!(p.game.moves()[..4], line[..]);
        // A file with no game of the variant is an error, not an empty book.
        let other = Args {
            variant: "english".into(),
            ..args.clone()
        };
        let e = make_player(
            &other.first,
            &other,
            other.first_side(),
            Variant::English,
            1,
        );
        assert!(e.err().unwrap().0.contains("no game of"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn levels_play_a_short_match() {
        let args = args(
            "--first level:10 --second level:1 -v russian -n 2 --movetime 0.01 --nodes 2000 \
             --first-threads 2 --second-nodes 500 --hash 1 --max-plies 200",
            &[],
        );
        let mut a =
            make_player(&args.first, &args, args.first_side(), Variant::Russian, 1).unwrap();
        let mut b =
            make_player(&args.second, &args, args.second_side(), Variant::Russian, 2).unwrap();
        assert_eq!(a.name(), "dama level 10 x2");
        assert_eq!(b.name(), "dama level 1 500 nodes");
        // Each side searches its own budget; a fixed depth overrides both.
        assert_eq!(
            fixed_limits(&args, args.first_side()).and_then(|l| l.nodes),
            Some(2000)
        );
        assert_eq!(
            fixed_limits(&args, args.second_side()).and_then(|l| l.nodes),
            Some(500)
        );
        let deep = Args {
            depth: Some(3),
            ..args.clone()
        };
        let l = fixed_limits(&deep, deep.second_side()).unwrap();
        assert_eq!((l.depth, l.nodes), (Some(3), None));
        // A Hub engine is told the same budget.
        assert_eq!(level_line(l).as_deref(), Some("depth=3"));
        let l = fixed_limits(&args, args.second_side()).unwrap();
        assert_eq!(level_line(l).as_deref(), Some("nodes=500"));
        assert_eq!(level_line(Limits::move_time(Duration::from_secs(1))), None);
        let start = AnyPosition::start(Variant::Russian);
        let p = play_game(
            a.as_mut(),
            b.as_mut(),
            start,
            TimeControl::PerMove(Duration::from_millis(10)),
            200,
        );
        assert!(!p.game.moves().is_empty());
        assert_eq!(p.clocks, None);
        let text = pdn_text(&p, 1);
        assert!(text.contains("[GameType \"25\"]"));
        assert!(text.contains("1. "));
        // On a clock, the time each side has left is kept: less than it started with.
        let base = Duration::from_secs(3);
        let mut a = make_player("level:3", &args, args.first_side(), Variant::Russian, 1).unwrap();
        let p = play_game(
            a.as_mut(),
            b.as_mut(),
            start,
            TimeControl::Clock {
                base,
                inc: Duration::ZERO,
            },
            10,
        );
        assert_eq!(p.game.moves().len(), 10);
        for c in p.clocks.expect("a clock match keeps both clocks") {
            assert!(c > Duration::ZERO && c < base, "{c:?}");
        }
    }

    /// The games of a PDN file written by a match, in round order.
    fn games_by_round(path: &Path) -> Vec<String> {
        let text = std::fs::read_to_string(path).unwrap();
        let mut games: Vec<(u32, String)> = text
            .split("[Event ")
            .skip(1)
            .map(|g| {
                let round = g.split("[Round \"").nth(1).unwrap();
                let round = round[..round.find('"').unwrap()].parse().unwrap();
                (round, g.to_owned())
            })
            .collect();
        games.sort();
        games.into_iter().map(|(_, g)| g).collect()
    }

    #[test]
    fn games_played_at_the_same_time_are_the_games_played_in_turn() {
        let dir = scratch_dir("concurrency");
        // Three openings: the start and two positions a move from it.
        let start = AnyPosition::start(Variant::Russian);
        let mut fens = vec![start.fen()];
        for m in start.legal_moves().iter().take(2) {
            fens.push(start.play(m).unwrap().fen());
        }
        let openings = dir.join("openings.fen");
        std::fs::write(&openings, fens.join("\n")).unwrap();
        let play = |concurrency: &str, name: &str| {
            let pdn = dir.join(name);
            let line = format!(
                "--first level:10 --second level:9 -v russian -n 5 --nodes 300 --hash 1 \
                 --max-plies 60 --concurrency {concurrency}"
            );
            let mut a = args(&line, &[]);
            a.openings = Some(openings.clone());
            a.pdn = Some(pdn.clone());
            run(a).unwrap();
            games_by_round(&pdn)
        };
        let in_turn = play("1", "one.pdn");
        let together = play("3", "three.pdn");
        // Five games: two pairs and the first game of the third.
        assert_eq!(in_turn.len(), 5);
        assert_eq!(in_turn, together);
        // A DXP player cannot be doubled.
        let mut a = args(
            "--first level:1 --second dxp:27531:x -n 4 --concurrency 2",
            &[],
        );
        a.openings = Some(openings.clone());
        assert!(run(a).unwrap_err().0.contains("DXP"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_sequential_test_ends_the_match_when_it_is_decided() {
        let dir = scratch_dir("sprt");
        let pdn = dir.join("games.pdn");
        // Full strength against the first level: decided long before the 200 games.
        let mut a = args(
            "--first level:10 --second level:1 -v russian -n 200 --nodes 300 --hash 1 \
             --max-plies 150 --sprt 0,400 --concurrency 2",
            &[],
        );
        a.pdn = Some(pdn.clone());
        run(a).unwrap();
        let games = games_by_round(&pdn).len();
        assert!((8..=30).contains(&games), "{games} games");
        assert!(run(args("--first level:1 --second level:1 --sprt 10,0", &[])).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
