//! The Hub protocol, version 2: the engine side ([`serve`]) and a driver for external Hub
//! engines ([`HubClient`]).
//!
//! Every line is `<command> <arg>=<value> ...`; values with spaces are in double quotes and
//! flags have no value. A search is set up with `pos`, `level` and started with `go`; the engine
//! answers with `info` lines and one `done`. Squares are numbers in every variant; a capture is
//! written start, end and the captured pieces (`28x19x23`).

use crate::squares::{board_string, find_move, parse_board, MoveText, SquareError};
use dama_core::{AnyMove, AnyPosition, Color, Variant};
use dama_engine::book::Book;
use dama_engine::{Engine, EngineOptions, Event, Level, Limits, Score, SearchInfo, SearchResult};
use std::fmt;
use std::io::{self, BufRead, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// Longest line accepted from a peer (a long game's move list fits easily).
pub const MAX_LINE: usize = 1 << 16;

/// A malformed Hub line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HubError {
    /// The line is longer than [`MAX_LINE`].
    TooLong,
    /// A quoted value is not closed.
    UnclosedQuote,
    /// A required argument is missing.
    Missing(&'static str),
    /// An argument has a value that cannot be used.
    BadValue(String),
    /// A move or position problem.
    Square(SquareError),
}

impl fmt::Display for HubError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HubError::TooLong => write!(f, "line longer than {MAX_LINE} bytes"),
            HubError::UnclosedQuote => f.write_str("unclosed quote"),
            HubError::Missing(a) => write!(f, "missing argument {a}"),
            HubError::BadValue(v) => write!(f, "bad value {v}"),
            HubError::Square(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for HubError {}

impl From<SquareError> for HubError {
    fn from(e: SquareError) -> Self {
        HubError::Square(e)
    }
}

/// A parsed line: the command and its arguments in order (flags have `None`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The command word.
    pub command: String,
    /// Arguments, in order.
    pub args: Vec<(String, Option<String>)>,
}

impl Line {
    /// Parses a line.
    ///
    /// # Errors
    /// [`HubError::TooLong`] or [`HubError::UnclosedQuote`].
    pub fn parse(text: &str) -> Result<Line, HubError> {
        if text.len() > MAX_LINE {
            return Err(HubError::TooLong);
        }
        let mut tokens = Vec::new();
        let mut chars = text.trim().chars().peekable();
        while chars.peek().is_some() {
            while chars.peek().is_some_and(|c| c.is_whitespace()) {
                chars.next();
            }
            let mut key = String::new();
            let mut value: Option<String> = None;
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                chars.next();
                if c == '=' && value.is_none() {
                    let mut v = String::new();
                    if chars.peek() == Some(&'"') {
                        chars.next();
                        loop {
                            match chars.next() {
                                Some('"') => break,
                                Some(c) => v.push(c),
                                None => return Err(HubError::UnclosedQuote),
                            }
                        }
                    } else {
                        while let Some(&c) = chars.peek() {
                            if c.is_whitespace() {
                                break;
                            }
                            v.push(c);
                            chars.next();
                        }
                    }
                    value = Some(v);
                    break;
                }
                key.push(c);
            }
            if !key.is_empty() {
                tokens.push((key, value));
            }
        }
        let mut it = tokens.into_iter();
        let command = it.next().map(|(k, _)| k).unwrap_or_default();
        Ok(Line {
            command,
            args: it.collect(),
        })
    }

    /// The value of argument `key` (`Some("")` for a flag).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.args
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_deref().unwrap_or(""))
    }

    /// Whether argument `key` is present.
    pub fn has(&self, key: &str) -> bool {
        self.args.iter().any(|(k, _)| k == key)
    }

    fn number<T: std::str::FromStr>(&self, key: &str) -> Result<Option<T>, HubError> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => v
                .parse()
                .map(Some)
                .map_err(|_| HubError::BadValue(format!("{key}={v}"))),
        }
    }

    fn seconds(&self, key: &str) -> Result<Option<Duration>, HubError> {
        match self.number::<f64>(key)? {
            None => Ok(None),
            Some(s) if (0.0..1e7).contains(&s) => Ok(Some(Duration::from_secs_f64(s))),
            Some(s) => Err(HubError::BadValue(format!("{key}={s}"))),
        }
    }
}

/// Quotes a value when the protocol requires it.
pub fn quote(value: &str) -> String {
    if value.is_empty() || value.contains([' ', '=', '"', '\t']) {
        format!("\"{}\"", value.replace('"', "'"))
    } else {
        value.to_owned()
    }
}

/// The variant named by a Hub `variant` parameter: dama's keys, plus the names other Hub
/// software uses for International draughts ("normal", "standard") and antidraughts
/// ("losing").
pub fn variant_from_param(name: &str) -> Option<Variant> {
    match name.to_ascii_lowercase().as_str() {
        "normal" | "standard" | "international" => Some(Variant::International),
        "losing" | "antidraughts" => Some(Variant::Antidraughts),
        other => Variant::from_key(other),
    }
}

/// The position text of `pos`: `W` or `B` and one character per square in numeric order.
pub fn position_text(pos: &AnyPosition) -> String {
    let side = match pos.side_to_move() {
        Color::White => 'W',
        Color::Black => 'B',
    };
    format!("{side}{}", board_string(pos, 'b', 'B'))
}

/// Reads a position text (see [`position_text`]).
///
/// # Errors
/// [`HubError::Square`] if it is malformed or impossible in the variant.
pub fn parse_position(variant: Variant, text: &str) -> Result<AnyPosition, HubError> {
    let mut chars = text.chars();
    let side = match chars.next() {
        Some('W' | 'w') => Color::White,
        Some('B' | 'b') => Color::Black,
        _ => {
            return Err(HubError::Square(SquareError::BadPosition(
                "the position must start with W or B".into(),
            )))
        }
    };
    Ok(parse_board(variant, side, chars.as_str(), 'b', 'B')?)
}

/// A score as Hub engines print it: men with two decimals; a win in `n` plies as
/// `100 − n/100` (so 99.93 is a win in 7 plies), a loss as its negation.
pub fn score_text(score: Score) -> String {
    match score {
        Score::Eval(v) => format!("{:.2}", v as f64 / 100.0),
        Score::Win(n) => format!("{:.2}", 100.0 - n.min(9_000) as f64 / 100.0),
        Score::Loss(n) => format!("{:.2}", -(100.0 - n.min(9_000) as f64 / 100.0)),
    }
}

/// Writes a line of moves from `pos` in Hub format, stopping at an illegal one.
fn pv_text(pos: &AnyPosition, pv: &[AnyMove]) -> String {
    let mut p = *pos;
    let mut out = Vec::new();
    for m in pv {
        let Ok(next) = p.play(m) else { break };
        out.push(MoveText::of(p.variant(), m).hub());
        p = next;
    }
    out.join(" ")
}

/// What the server's main loop waits for.
enum Input {
    Line(String),
    Eof,
    Search(Event),
}

/// The engine's name and version as Hub reports them.
pub const ENGINE_NAME: &str = "dama";

/// Runs the engine side of Hub on `input` and `output` until `quit` or the end of the input.
/// `options` are the engine's starting options (the GUI may change them with `set-param`).
///
/// # Errors
/// Only an error writing to `output`.
pub fn serve<R, W>(input: R, output: W, options: EngineOptions) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    serve_with_books(input, output, options, Vec::new())
}

/// [`serve`] with opening books (one per variant), which the engine plays from in the games of
/// their variant (see [`Engine::set_book`]); a search to a fixed depth or an analysis still
/// searches.
///
/// # Errors
/// Only an error writing to `output`.
pub fn serve_with_books<R, W>(
    input: R,
    mut output: W,
    options: EngineOptions,
    books: Vec<Arc<Book>>,
) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let (tx, rx) = mpsc::channel::<Input>();
    let reader_tx = tx.clone();
    std::thread::spawn(move || read_lines(input, reader_tx));
    let mut server = Server {
        options,
        engine: Engine::new(options),
        books,
        variant: Variant::International,
        position: None,
        limits: Limits::default(),
        searching: None,
        unbounded: false,
        tx,
    };
    let mut eof = false;
    while let Ok(input) = rx.recv() {
        match input {
            Input::Eof => {
                // The GUI is gone: finish (or stop) the search, report it, and quit.
                if server.searching.is_none() {
                    break;
                }
                eof = true;
                if server.unbounded {
                    server.engine.stop();
                }
            }
            Input::Search(Event::Info(info)) => {
                if let Some(root) = server.searching {
                    writeln!(output, "{}", info_line(&root, &info))?;
                    output.flush()?;
                }
            }
            Input::Search(Event::Done(result)) => {
                if let Some(root) = server.searching.take() {
                    for line in done_lines(&root, &result) {
                        writeln!(output, "{line}")?;
                    }
                    output.flush()?;
                }
                if eof {
                    break;
                }
            }
            Input::Line(text) => {
                let quit = server.handle(&text, &mut output)?;
                output.flush()?;
                if quit {
                    server.engine.stop();
                    break;
                }
            }
        }
    }
    Ok(())
}

/// Reads lines (at most [`MAX_LINE`] bytes each; longer ones are cut) until the end of input.
fn read_lines<R: BufRead>(mut input: R, tx: mpsc::Sender<Input>) {
    loop {
        let mut buf = Vec::new();
        let n: usize = io::Read::take(&mut input, MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)
            .unwrap_or_default();
        if n == 0 {
            let _ = tx.send(Input::Eof);
            return;
        }
        if buf.len() > MAX_LINE && !buf.ends_with(b"\n") {
            // Skip the rest of an over-long line.
            let mut rest = Vec::new();
            let _ = input.read_until(b'\n', &mut rest);
        }
        let line = String::from_utf8_lossy(&buf).trim().to_owned();
        if tx.send(Input::Line(line)).is_err() {
            return;
        }
    }
}

fn info_line(root: &AnyPosition, info: &SearchInfo) -> String {
    format!(
        "info depth={} mean-depth={} score={} nodes={} time={:.3} nps={:.2} pv={}",
        info.depth,
        info.seldepth,
        score_text(info.score),
        info.nodes,
        info.time.as_secs_f64(),
        info.nps as f64 / 1e6,
        quote(&pv_text(root, &info.pv))
    )
}

fn done_lines(root: &AnyPosition, result: &SearchResult) -> Vec<String> {
    let v = root.variant();
    match result.best_move {
        None => vec![
            "error message=\"no legal move\"".into(),
            "done move=\"\"".into(),
        ],
        Some(m) => {
            let mut line = format!("done move={}", MoveText::of(v, &m).hub());
            if let (Some(p), Ok(next)) = (result.ponder_move, root.play(&m)) {
                if next.legal_moves().contains(&p) {
                    line.push_str(&format!(" ponder={}", MoveText::of(v, &p).hub()));
                }
            }
            vec![line]
        }
    }
}

struct Server {
    options: EngineOptions,
    engine: Engine,
    /// Opening books, one per variant: the engine gets the one of the game's variant.
    books: Vec<Arc<Book>>,
    variant: Variant,
    position: Option<(AnyPosition, Vec<AnyPosition>)>,
    limits: Limits,
    /// The root of the running search.
    searching: Option<AnyPosition>,
    /// Whether the running search waits for `stop` (infinite or ponder).
    unbounded: bool,
    tx: mpsc::Sender<Input>,
}

impl Server {
    /// Handles one line; returns whether to quit.
    fn handle<W: Write>(&mut self, text: &str, out: &mut W) -> io::Result<bool> {
        let line = match Line::parse(text) {
            Ok(l) => l,
            Err(e) => {
                writeln!(out, "error message={}", quote(&e.to_string()))?;
                return Ok(false);
            }
        };
        let searching = self.searching.is_some();
        match line.command.as_str() {
            "" => {}
            "hub" => self.identify(out)?,
            "init" => {
                // The table's memory is mapped on its first touch, which would otherwise
                // fall in the first search's time (up to 0.16 s for 64 MiB). The GUI sets
                // the parameters, the table's size among them, before `init`.
                if !searching {
                    self.engine.new_game();
                }
                writeln!(out, "ready")?
            }
            "ping" => writeln!(out, "pong")?,
            "quit" => return Ok(true),
            "stop" => self.engine.stop(),
            "ponder-hit" => self.engine.ponderhit(),
            _ if searching => {
                writeln!(
                    out,
                    "error message={}",
                    quote(&format!("{} during a search", line.command))
                )?;
            }
            "set-param" => {
                if let Err(e) = self.set_param(&line) {
                    writeln!(out, "error message={}", quote(&e.to_string()))?;
                }
            }
            "new-game" => self.engine.new_game(),
            "pos" => match self.set_position(&line) {
                Ok(()) => {}
                Err(e) => {
                    self.position = None;
                    writeln!(out, "error message={}", quote(&e.to_string()))?;
                }
            },
            "level" => match parse_level(&line) {
                Ok(l) => self.limits = l,
                Err(e) => writeln!(out, "error message={}", quote(&e.to_string()))?,
            },
            "go" => self.go(&line, out)?,
            _ => {} // Unknown commands are ignored, as the protocol asks.
        }
        Ok(false)
    }

    fn identify<W: Write>(&self, out: &mut W) -> io::Result<()> {
        writeln!(
            out,
            "id name={ENGINE_NAME} version={} author=\"dama developers\" country=International",
            env!("CARGO_PKG_VERSION")
        )?;
        let variants: Vec<&str> = std::iter::once("normal")
            .chain(Variant::ALL.iter().map(|v| v.key()))
            .collect();
        writeln!(
            out,
            "param name=variant value={} type=enum values={}",
            self.variant.key(),
            quote(&variants.join(" "))
        )?;
        writeln!(
            out,
            "param name=level value={} type=int min=1 max=10",
            self.options.level
        )?;
        writeln!(
            out,
            "param name=threads value={} type=int min=1 max=64",
            self.options.threads
        )?;
        writeln!(
            out,
            "param name=hash value={} type=int min=1 max=65536",
            self.options.hash_mb
        )?;
        writeln!(
            out,
            "param name=endgame-pieces value={} type=int min=2 max={}",
            self.options.endgame_pieces,
            dama_engine::endgame::MAX_PIECES
        )?;
        writeln!(out, "wait")
    }

    fn set_param(&mut self, line: &Line) -> Result<(), HubError> {
        let name = line.get("name").ok_or(HubError::Missing("name"))?;
        let value = line.get("value").ok_or(HubError::Missing("value"))?;
        let bad = || HubError::BadValue(format!("{name}={value}"));
        match name {
            "variant" => self.variant = variant_from_param(value).ok_or_else(bad)?,
            "level" => {
                let level = value.parse().ok().and_then(Level::new).ok_or_else(bad)?;
                self.options.level = level;
                self.engine.set_level(level);
            }
            "threads" => {
                let n: usize = value.parse().map_err(|_| bad())?;
                if !(1..=64).contains(&n) {
                    return Err(bad());
                }
                self.options.threads = n;
                self.engine.set_threads(n);
            }
            "hash" => {
                let n: usize = value.parse().map_err(|_| bad())?;
                if !(1..=65536).contains(&n) {
                    return Err(bad());
                }
                self.options.hash_mb = n;
                self.engine.set_hash_mb(n);
            }
            "endgame-pieces" => {
                let n: u32 = value.parse().map_err(|_| bad())?;
                if !(2..=dama_engine::endgame::MAX_PIECES).contains(&n) {
                    return Err(bad());
                }
                self.options.endgame_pieces = n;
                self.engine.set_endgame_pieces(n);
            }
            _ => {} // Unknown parameters are ignored.
        }
        Ok(())
    }

    fn set_position(&mut self, line: &Line) -> Result<(), HubError> {
        let text = line.get("pos").ok_or(HubError::Missing("pos"))?;
        let mut pos = parse_position(self.variant, text)?;
        let mut history = Vec::new();
        if let Some(moves) = line.get("moves") {
            for word in moves.split_whitespace() {
                let m = find_move(&pos, &MoveText::parse_hub(word)?)?;
                let next = pos
                    .play(&m)
                    .map_err(|_| SquareError::Illegal(word.into()))?;
                history.push(pos);
                pos = next;
            }
        }
        self.position = Some((pos, history));
        Ok(())
    }

    fn go<W: Write>(&mut self, line: &Line, out: &mut W) -> io::Result<()> {
        let Some((pos, history)) = self.position.clone() else {
            return writeln!(out, "error message=\"go without a position\"");
        };
        let mut limits = self.limits;
        if line.has("ponder") {
            limits.ponder = true;
        }
        if line.has("analyze") && limits == Limits::default() {
            limits.infinite = true;
        }
        let book = self.books.iter().find(|b| b.variant() == pos.variant());
        self.engine.set_book(book.cloned());
        self.engine.set_position(pos, &history);
        self.unbounded = limits.ponder || limits.is_unbounded();
        let events = self.engine.go(limits);
        self.searching = Some(pos);
        let tx = self.tx.clone();
        std::thread::spawn(move || {
            for e in events {
                if tx.send(Input::Search(e)).is_err() {
                    break;
                }
            }
        });
        Ok(())
    }
}

/// Reads a `level` line into limits.
///
/// # Errors
/// [`HubError::BadValue`] for a number that is not one or out of range.
pub fn parse_level(line: &Line) -> Result<Limits, HubError> {
    let mut limits = Limits::default();
    if line.has("infinite") {
        limits.infinite = true;
        return Ok(limits);
    }
    if let Some(d) = line.number::<u32>("depth")? {
        if !(1..=100).contains(&d) {
            return Err(HubError::BadValue(format!("depth={d}")));
        }
        limits.depth = Some(d);
    }
    limits.nodes = line.number::<u64>("nodes")?;
    limits.move_time = line.seconds("move-time")?;
    if let Some(time) = line.seconds("time")? {
        let inc = line.seconds("inc")?.unwrap_or_default();
        let moves = line.number::<u32>("moves")?.filter(|&m| m > 0);
        // Hub adds the increment before the move.
        limits.clock = Some(dama_engine::Clock {
            remaining: time + inc,
            increment: inc,
            moves_to_go: moves,
        });
    }
    Ok(limits)
}

/// Why an external engine failed.
#[derive(Debug)]
pub enum ClientError {
    /// Starting or talking to the process failed.
    Io(io::Error),
    /// The engine did not answer in time.
    Timeout(&'static str),
    /// The engine closed its output.
    Closed,
    /// The engine sent something unusable (an illegal move, a bad line).
    Protocol(String),
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Io(e) => write!(f, "engine i/o error: {e}"),
            ClientError::Timeout(what) => write!(f, "engine did not answer {what} in time"),
            ClientError::Closed => f.write_str("engine closed its output"),
            ClientError::Protocol(m) => write!(f, "engine protocol error: {m}"),
        }
    }
}

impl std::error::Error for ClientError {}

impl From<io::Error> for ClientError {
    fn from(e: io::Error) -> Self {
        ClientError::Io(e)
    }
}

/// An external Hub engine run as a subprocess.
#[derive(Debug)]
pub struct HubClient {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
    /// What the engine said about itself (`id` arguments).
    pub id: Vec<(String, String)>,
    /// The variants it declares (empty if it declares no `variant` parameter).
    pub variants: Vec<String>,
    /// Log of the lines exchanged, when enabled (for debugging matches).
    pub log: Option<Vec<String>>,
}

impl HubClient {
    /// Starts `program` with `args` (for example `scan hub`), sends `hub`, sets `params` and
    /// waits for `ready`.
    ///
    /// # Errors
    /// A [`ClientError`] if the process cannot start or does not complete the handshake within
    /// `timeout`.
    pub fn start(
        program: &str,
        args: &[String],
        dir: Option<&std::path::Path>,
        params: &[(String, String)],
        timeout: Duration,
    ) -> Result<HubClient, ClientError> {
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(d) = dir {
            cmd.current_dir(d);
        }
        let mut child = cmd.spawn()?;
        let stdin = child.stdin.take().ok_or(ClientError::Closed)?;
        let stdout = child.stdout.take().ok_or(ClientError::Closed)?;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = io::BufReader::new(stdout);
            loop {
                let mut buf = Vec::new();
                match io::Read::take(&mut reader, MAX_LINE as u64).read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim().to_owned();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let mut client = HubClient {
            child,
            stdin,
            lines: rx,
            id: Vec::new(),
            variants: Vec::new(),
            log: None,
        };
        client.send("hub")?;
        loop {
            let line = client.recv(timeout, "hub")?;
            let Ok(parsed) = Line::parse(&line) else {
                continue;
            };
            match parsed.command.as_str() {
                "wait" => break,
                "id" => {
                    client.id = parsed
                        .args
                        .iter()
                        .map(|(k, v)| (k.clone(), v.clone().unwrap_or_default()))
                        .collect()
                }
                "param" if parsed.get("name") == Some("variant") => {
                    client.variants = parsed
                        .get("values")
                        .unwrap_or_default()
                        .split_whitespace()
                        .map(str::to_owned)
                        .collect();
                }
                _ => {}
            }
        }
        for (name, value) in params {
            client.send(&format!(
                "set-param name={} value={}",
                quote(name),
                quote(value)
            ))?;
        }
        client.send("init")?;
        loop {
            let line = client.recv(timeout, "init")?;
            if line.split_whitespace().next() == Some("ready") {
                break;
            }
        }
        Ok(client)
    }

    /// The engine's name from its `id` line.
    pub fn name(&self) -> String {
        self.id
            .iter()
            .find(|(k, _)| k == "name")
            .map_or_else(|| "hub engine".into(), |(_, v)| v.clone())
    }

    /// Sends one line.
    ///
    /// # Errors
    /// [`ClientError::Io`] if the engine's input is closed.
    pub fn send(&mut self, line: &str) -> Result<(), ClientError> {
        if let Some(log) = &mut self.log {
            log.push(format!("> {line}"));
        }
        writeln!(self.stdin, "{line}")?;
        self.stdin.flush()?;
        Ok(())
    }

    fn recv(&mut self, timeout: Duration, what: &'static str) -> Result<String, ClientError> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                if let Some(log) = &mut self.log {
                    log.push(format!("< {line}"));
                }
                Ok(line)
            }
            Err(mpsc::RecvTimeoutError::Timeout) => Err(ClientError::Timeout(what)),
            Err(mpsc::RecvTimeoutError::Disconnected) => Err(ClientError::Closed),
        }
    }

    /// Tells the engine a new game starts.
    ///
    /// # Errors
    /// [`ClientError::Io`].
    pub fn new_game(&mut self) -> Result<(), ClientError> {
        self.send("new-game")
    }

    /// Asks for a move in the position reached from `start` by `moves`, with the `level` line
    /// arguments (for example `time=60 inc=1`). Waits at most `timeout`.
    ///
    /// # Errors
    /// A [`ClientError`] on timeout, a closed engine or an illegal move.
    pub fn best_move(
        &mut self,
        start: &AnyPosition,
        moves: &[AnyMove],
        level: &str,
        timeout: Duration,
    ) -> Result<(AnyMove, Option<Score>), ClientError> {
        let mut pos = *start;
        let mut texts = Vec::new();
        for m in moves {
            texts.push(MoveText::of(pos.variant(), m).hub());
            pos = pos
                .play(m)
                .map_err(|_| ClientError::Protocol("illegal move in the game".into()))?;
        }
        let mut cmd = format!("pos pos={}", position_text(start));
        if !texts.is_empty() {
            cmd.push_str(&format!(" moves={}", quote(&texts.join(" "))));
        }
        self.send(&cmd)?;
        self.send(&format!("level {level}"))?;
        self.send("go think")?;
        let mut score = None;
        loop {
            let line = self.recv(timeout, "go")?;
            let Ok(parsed) = Line::parse(&line) else {
                continue;
            };
            match parsed.command.as_str() {
                "info" => {
                    if let Some(s) = parsed.get("score").and_then(|s| s.parse::<f64>().ok()) {
                        score = Some(if s.abs() > 90.0 {
                            let plies = ((100.0 - s.abs()) * 100.0).round().max(0.0) as u32;
                            if s > 0.0 {
                                Score::Win(plies)
                            } else {
                                Score::Loss(plies)
                            }
                        } else {
                            Score::Eval((s * 100.0).round() as i32)
                        });
                    }
                }
                "done" => {
                    let text = parsed.get("move").ok_or_else(|| {
                        ClientError::Protocol(format!("done without a move: {line}"))
                    })?;
                    let mt = MoveText::parse_hub(text)
                        .map_err(|e| ClientError::Protocol(e.to_string()))?;
                    let m =
                        find_move(&pos, &mt).map_err(|e| ClientError::Protocol(e.to_string()))?;
                    return Ok((m, score));
                }
                _ => {}
            }
        }
    }

    /// Asks the engine to quit and waits briefly for it; kills it if it does not.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        for _ in 0..50 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for HubClient {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines() {
        let l = Line::parse(r#"pos pos=Wbbe moves="32-28 17-22" flag"#).unwrap();
        assert_eq!(l.command, "pos");
        assert_eq!(l.get("pos"), Some("Wbbe"));
        assert_eq!(l.get("moves"), Some("32-28 17-22"));
        assert!(l.has("flag"));
        assert_eq!(l.get("flag"), Some(""));
        assert_eq!(l.get("nothing"), None);
        assert_eq!(
            Line::parse("id name=x author=\"unclosed"),
            Err(HubError::UnclosedQuote)
        );
        assert_eq!(Line::parse("").unwrap().command, "");
        assert_eq!(
            Line::parse("x".repeat(MAX_LINE + 1).as_str()),
            Err(HubError::TooLong)
        );
        let l = Line::parse("set-param name=variant value=\"\"").unwrap();
        assert_eq!(l.get("value"), Some(""));
    }

    #[test]
    fn levels() {
        let l = parse_level(&Line::parse("level moves=9 time=291.5 inc=1").unwrap()).unwrap();
        let c = l.clock.unwrap();
        assert_eq!(c.moves_to_go, Some(9));
        assert_eq!(c.remaining, Duration::from_secs_f64(292.5));
        assert_eq!(
            parse_level(&Line::parse("level depth=7").unwrap())
                .unwrap()
                .depth,
            Some(7)
        );
        assert!(
            parse_level(&Line::parse("level infinite").unwrap())
                .unwrap()
                .infinite
        );
        assert!(parse_level(&Line::parse("level depth=x").unwrap()).is_err());
        assert!(parse_level(&Line::parse("level move-time=-1").unwrap()).is_err());
        assert!(parse_level(&Line::parse("level time=nan").unwrap()).is_err());
    }

    #[test]
    fn scores() {
        assert_eq!(score_text(Score::Eval(-125)), "-1.25");
        assert_eq!(score_text(Score::Win(7)), "99.93");
        assert_eq!(score_text(Score::Loss(4)), "-99.96");
    }

    #[test]
    fn positions() {
        let start = AnyPosition::start(Variant::International);
        let text = position_text(&start);
        assert_eq!(text.len(), 51);
        assert!(text.starts_with("Wbbbb"));
        assert_eq!(
            parse_position(Variant::International, &text).unwrap(),
            start
        );
        assert!(parse_position(Variant::International, "Xbbb").is_err());
    }

    fn session(input: &str) -> String {
        let mut out = Vec::new();
        serve(
            io::Cursor::new(input.to_owned().into_bytes()),
            &mut out,
            EngineOptions::default(),
        )
        .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn serves_a_search() {
        let start = position_text(&AnyPosition::start(Variant::International));
        let out = session(&format!(
            "hub\ninit\nping\npos pos={start} moves=\"32-28 19-23\"\nlevel depth=4\ngo think\n"
        ));
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].starts_with("id name=dama"), "{out}");
        assert!(lines.contains(&"wait") && lines.contains(&"ready") && lines.contains(&"pong"));
        assert!(lines.iter().any(|l| l.starts_with("info depth=4")), "{out}");
        let done = lines
            .iter()
            .find(|l| l.starts_with("done move="))
            .expect(&out);
        // After 32-28 19-23 White must capture 28x19.
        assert!(done.starts_with("done move=28x19x23"), "{out}");
    }

    #[test]
    fn reports_errors_and_keeps_going() {
        let out = session(
            "pos pos=Wxyz\ngo think\npos pos=\"unclosed\nlevel depth=zero\nset-param name=level value=11\nping\n",
        );
        let errors = out.lines().filter(|l| l.starts_with("error")).count();
        assert_eq!(errors, 5, "{out}");
        assert!(out.ends_with("pong\n"));
    }

    #[test]
    fn the_endgame_database_size_is_a_parameter() {
        let pos = AnyPosition::from_fen(Variant::English, "W:W21,29:BK15,K18").unwrap();
        let run = |pieces: &str| {
            session(&format!(
                "hub\nset-param name=endgame-pieces value={pieces}\nset-param name=variant value=english\n\
                 pos pos={}\nlevel depth=1\ngo think\n",
                position_text(&pos)
            ))
        };
        // Four pieces (the default) know this ending is lost in 14 plies; three do not.
        let four = run("4");
        assert!(
            four.contains("param name=endgame-pieces value=4 type=int min=2 max=5"),
            "{four}"
        );
        assert!(four.contains("score=-99.86"), "{four}");
        let three = run("3");
        assert!(!three.contains("score=-99"), "{three}");
        assert!(
            three.lines().any(|l| l.starts_with("done move=")),
            "{three}"
        );
        // Six is more than a database holds.
        assert!(
            run("6").lines().any(|l| l.starts_with("error")),
            "{}",
            run("6")
        );
    }

    #[test]
    fn other_variants_by_parameter() {
        let start = position_text(&AnyPosition::start(Variant::Russian));
        assert_eq!(start.len(), 33);
        let out = session(&format!(
            "set-param name=variant value=russian\npos pos={start}\nlevel depth=3\ngo think\n"
        ));
        let done = out.lines().find(|l| l.starts_with("done")).expect(&out);
        let m = Line::parse(done).unwrap();
        let mt = MoveText::parse_hub(m.get("move").unwrap()).unwrap();
        assert!(find_move(&AnyPosition::start(Variant::Russian), &mt).is_ok());
    }

    #[test]
    fn plays_from_a_book_in_its_variant_only() {
        use dama_engine::book::Outcome;
        let start = AnyPosition::start(Variant::Russian);
        let moves = start.legal_moves();
        let m = moves[moves.len() - 1];
        let mut book = Book::new(Variant::Russian, 2);
        book.add_game(&start, &[m], Outcome::Draw).unwrap();
        let run = |variant: &str, level: &str| {
            let pos = position_text(&AnyPosition::start(variant.parse().unwrap()));
            let mut out = Vec::new();
            let input = format!(
                "set-param name=variant value={variant}\npos pos={pos}\nlevel {level}\ngo think\n"
            );
            serve_with_books(
                io::Cursor::new(input.into_bytes()),
                &mut out,
                EngineOptions::default(),
                vec![Arc::new(book.clone())],
            )
            .unwrap();
            String::from_utf8(out).unwrap()
        };
        // On a move time the book's move comes after its short check, without progress lines.
        let out = run("russian", "move-time=5");
        let done = out.lines().find(|l| l.starts_with("done")).expect(&out);
        let played = MoveText::parse_hub(Line::parse(done).unwrap().get("move").unwrap()).unwrap();
        assert_eq!(find_move(&start, &played).unwrap(), m, "{out}");
        assert!(!out.contains("info"), "{out}");
        // A fixed depth searches; a game of another variant searches.
        assert!(run("russian", "depth=3").contains("info depth=3"));
        assert!(run("brazilian", "nodes=3000").contains("info depth="));
    }
}
