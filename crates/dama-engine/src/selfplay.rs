//! Training data from self-play: fast games of the engine against itself, each quiet position
//! stored with the game's result and the search's score, for fitting the evaluation
//! ([`crate::train`]).
//!
//! A data file is a header line `dama-selfplay 1 <variant key>\n` followed by fixed-size
//! records ([`Record::SIZE`] bytes, little-endian). Games are appended whole, so a file that a
//! killed run left behind is still readable (an incomplete last record is reported, not
//! silently used).

use crate::engine::{Engine, EngineOptions};
use crate::limits::Limits;
use crate::score::Score;
use dama_core::{AnyMove, AnyPosition, Color, Game, Setup, SquareSet, Variant};
use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// One stored position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// White's pieces.
    pub white: SquareSet,
    /// Black's pieces.
    pub black: SquareSet,
    /// Kings of either colour.
    pub kings: SquareSet,
    /// The side to move.
    pub side: Color,
    /// The game's result for White: 1 win, 0 draw, −1 loss.
    pub result: i8,
    /// The self-play search's score of the position for White, in centi-men (forced wins
    /// clamped to ±3000).
    pub score: i16,
    /// Plies played before the position (from the start of the game).
    pub ply: u16,
    /// Number of the game in its run.
    pub game: u32,
}

/// Why a data file could not be read.
#[derive(Debug)]
pub enum DataError {
    /// Reading failed.
    Io(io::Error),
    /// The file does not start with a dama self-play header.
    BadHeader,
    /// The header names another variant.
    WrongVariant(String),
    /// A record is damaged: its index.
    BadRecord(usize),
    /// The file ends inside a record (a run was killed while writing); the complete records
    /// before it are in the count.
    Truncated(usize),
    /// More records than the caller allows.
    TooLarge(usize),
}

impl std::fmt::Display for DataError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DataError::Io(e) => write!(f, "{e}"),
            DataError::BadHeader => f.write_str("not a dama self-play data file"),
            DataError::WrongVariant(v) => write!(f, "the data is of variant {v:?}"),
            DataError::BadRecord(i) => write!(f, "record {i} is damaged"),
            DataError::Truncated(n) => {
                write!(
                    f,
                    "the file ends inside record {n} (the last game is incomplete)"
                )
            }
            DataError::TooLarge(n) => write!(f, "more than {n} records"),
        }
    }
}

impl std::error::Error for DataError {}

impl From<io::Error> for DataError {
    fn from(e: io::Error) -> Self {
        DataError::Io(e)
    }
}

/// What the records of a data file are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataKind {
    /// Positions of games, each with its game's result (and, from self-play, a search score).
    Games,
    /// Detours: positions a random move away from a game, with a search score and no result
    /// (their result field is 0 and means nothing).
    Detours,
}

/// The header line of a data file of `variant` holding `kind` records. Files written before
/// detours were marked have the games header whatever they hold.
pub fn header(variant: Variant, kind: DataKind) -> String {
    let mark = match kind {
        DataKind::Games => "",
        DataKind::Detours => DETOURS_MARK,
    };
    format!("{HEADER_START}{}{mark}\n", variant.key())
}

/// The header line's start; the variant's key follows.
const HEADER_START: &str = "dama-selfplay 1 ";

/// What follows the variant's key in the header of a detours file.
const DETOURS_MARK: &str = " detours";

/// The records of a data file and what they are.
#[derive(Clone, Debug)]
pub struct Data {
    /// What the header says the records are.
    pub kind: DataKind,
    /// The records, in file order.
    pub records: Vec<Record>,
}

/// Reads the header line of a data file (at most 64 bytes, up to its newline) and returns
/// the variant key and the kind it names.
fn read_header(input: &mut impl Read) -> Result<(String, DataKind), DataError> {
    let mut line = Vec::new();
    let mut byte = [0u8];
    loop {
        input.read_exact(&mut byte).map_err(|e| match e.kind() {
            io::ErrorKind::UnexpectedEof => DataError::BadHeader,
            _ => DataError::Io(e),
        })?;
        if byte[0] == b'\n' {
            break;
        }
        if line.len() >= 64 {
            return Err(DataError::BadHeader);
        }
        line.push(byte[0]);
    }
    let text = std::str::from_utf8(&line).map_err(|_| DataError::BadHeader)?;
    let rest = text
        .strip_prefix(HEADER_START)
        .ok_or(DataError::BadHeader)?;
    let (key, kind) = match rest.strip_suffix(DETOURS_MARK) {
        Some(key) => (key, DataKind::Detours),
        None => (rest, DataKind::Games),
    };
    if key.is_empty() || key.contains(' ') {
        return Err(DataError::BadHeader);
    }
    Ok((key.to_string(), kind))
}

impl Record {
    /// Bytes per record.
    pub const SIZE: usize = 3 * 16 + 1 + 1 + 2 + 2 + 4;

    /// The record of `pos`.
    fn of(pos: &AnyPosition, result: i8, score: i16, ply: u16, game: u32) -> Record {
        let s = pos.setup();
        Record {
            white: s.white,
            black: s.black,
            kings: s.kings,
            side: s.side_to_move,
            result,
            score,
            ply,
            game,
        }
    }

    /// The position (side to move included).
    ///
    /// # Errors
    /// The position is not legal in `variant`.
    pub fn position(&self, variant: Variant) -> Result<AnyPosition, dama_core::PositionError> {
        AnyPosition::new(
            variant,
            &Setup {
                white: self.white,
                black: self.black,
                kings: self.kings,
                side_to_move: self.side,
                ..Setup::default()
            },
        )
    }

    /// The record as bytes.
    pub fn to_bytes(&self) -> [u8; Record::SIZE] {
        let mut b = [0; Record::SIZE];
        b[0..16].copy_from_slice(&self.white.0.to_le_bytes());
        b[16..32].copy_from_slice(&self.black.0.to_le_bytes());
        b[32..48].copy_from_slice(&self.kings.0.to_le_bytes());
        b[48] = self.side.index() as u8;
        b[49] = self.result as u8;
        b[50..52].copy_from_slice(&self.score.to_le_bytes());
        b[52..54].copy_from_slice(&self.ply.to_le_bytes());
        b[54..58].copy_from_slice(&self.game.to_le_bytes());
        b
    }

    /// Reads a record; `None` if a field is out of range.
    pub fn from_bytes(b: &[u8; Record::SIZE]) -> Option<Record> {
        let u128_at = |i: usize| {
            let mut x = [0; 16];
            x.copy_from_slice(&b[i..i + 16]);
            u128::from_le_bytes(x)
        };
        let side = match b[48] {
            0 => Color::White,
            1 => Color::Black,
            _ => return None,
        };
        let result = b[49] as i8;
        if !(-1..=1).contains(&result) {
            return None;
        }
        Some(Record {
            white: SquareSet(u128_at(0)),
            black: SquareSet(u128_at(16)),
            kings: SquareSet(u128_at(32)),
            side,
            result,
            score: i16::from_le_bytes([b[50], b[51]]),
            ply: u16::from_le_bytes([b[52], b[53]]),
            game: u32::from_le_bytes([b[54], b[55], b[56], b[57]]),
        })
    }
}

/// The records of a game played elsewhere (from a PDN file): each quiet position of the main
/// line (no capture pending) with the game's `result` for White (1, 0 or −1) and no search
/// score (0: fit such data on the results alone, `result_weight` 1). Stops at the first
/// illegal move.
pub fn game_records(start: &AnyPosition, moves: &[AnyMove], result: i8, game: u32) -> Vec<Record> {
    let mut out = Vec::new();
    let mut pos = *start;
    for (ply, m) in moves.iter().enumerate() {
        if !pos.must_capture() {
            let ply = ply.min(u16::MAX as usize) as u16;
            out.push(Record::of(&pos, result.clamp(-1, 1), 0, ply, game));
        }
        match pos.play(m) {
            Ok(next) => pos = next,
            Err(_) => break,
        }
    }
    out
}

/// Reads the records of a data file of `variant`, at most `limit` of them, and what the
/// header says they are.
///
/// # Errors
/// See [`DataError`]. Records are checked for range, not for legality (see
/// [`Record::position`]).
pub fn read(mut input: impl Read, variant: Variant, limit: usize) -> Result<Data, DataError> {
    let (key, kind) = read_header(&mut input)?;
    if key != variant.key() {
        return Err(DataError::WrongVariant(key));
    }
    let mut out = Vec::new();
    let mut buf = [0; Record::SIZE];
    loop {
        let mut filled = 0;
        while filled < Record::SIZE {
            let n = input.read(&mut buf[filled..])?;
            if n == 0 {
                break;
            }
            filled += n;
        }
        if filled == 0 {
            return Ok(Data { kind, records: out });
        }
        if filled < Record::SIZE {
            return Err(DataError::Truncated(out.len()));
        }
        if out.len() >= limit {
            return Err(DataError::TooLarge(limit));
        }
        out.push(Record::from_bytes(&buf).ok_or(DataError::BadRecord(out.len()))?);
    }
}

/// A line a self-play game may start from: a position and the moves played from it (the
/// first plies of a recorded game).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartLine {
    /// Where the line starts.
    pub position: AnyPosition,
    /// Its moves, each legal after the ones before.
    pub moves: Vec<AnyMove>,
}

/// Settings of a self-play run.
#[derive(Clone, Debug)]
pub struct Config {
    /// The variant.
    pub variant: Variant,
    /// Games to play.
    pub games: u32,
    /// Nodes per move.
    pub nodes: u64,
    /// Random moves at the start of each game.
    pub random_plies: u32,
    /// An opening is kept only if a short search scores it within this many centi-men.
    pub balance: i32,
    /// Games still running after this many plies are draws.
    pub max_plies: u32,
    /// A game ends as a win when the search scores it beyond this (centi-men) for four plies
    /// in a row; 0 plays every game out.
    pub resign: i32,
    /// Parallel games.
    pub threads: usize,
    /// Seed of the random opening moves.
    pub seed: u64,
    /// Lines to start from (none: the variant's start position). Each game follows a line
    /// drawn at random for a random number of its moves (none to all), then makes its random
    /// moves: games that begin where recorded games went.
    pub starts: Arc<[StartLine]>,
    /// Detours, in per cent of the plies: at such a ply a random legal move is played aside
    /// from the game (and any captures that must follow, chosen at random), and the quiet
    /// position it leads to is searched with half the nodes and kept as a detour record. The
    /// positions a search meets after a poor move seldom arise in games; detours teach the
    /// evaluation what they are worth. 0: none.
    pub detours: u32,
}

/// The positions of one self-play game: those of the game, with its result, and the detours
/// (result 0: they have a search score only).
#[derive(Clone, Debug, Default)]
pub struct GameRecords {
    /// The game's quiet positions.
    pub game: Vec<Record>,
    /// The detours' positions.
    pub detours: Vec<Record>,
}

/// Plays `config.games` games, `config.threads` at a time, and writes each finished game's
/// quiet positions (no capture pending) to `out` as records, and its detours' to `detours`
/// (dropped without it). `progress` sees the number of games and of game positions written so
/// far. `stop` ends the run early (the games in progress are dropped). Returns the number of
/// game records written.
///
/// # Errors
/// Writing failed.
pub fn run<W: Write + Send>(
    config: &Config,
    make_engine: &(dyn Fn() -> Engine + Sync),
    out: W,
    detours: Option<W>,
    stop: &AtomicBool,
    progress: &(dyn Fn(u32, u64) + Sync),
) -> io::Result<u64> {
    let out = Mutex::new((out, detours));
    let next_game = AtomicU64::new(0);
    let written = AtomicU64::new(0);
    let finished = AtomicU64::new(0);
    let error: Mutex<Option<io::Error>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..config.threads.max(1) {
            scope.spawn(|| {
                let mut engine = make_engine();
                loop {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let g = next_game.fetch_add(1, Ordering::Relaxed);
                    if g >= u64::from(config.games) {
                        return;
                    }
                    let records = play_game(config, &mut engine, g as u32, stop);
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let bytes = |records: &[Record]| -> Vec<u8> {
                        records.iter().flat_map(|r| r.to_bytes()).collect()
                    };
                    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
                    let (games_out, detours_out) = &mut *w;
                    let mut written_ok = games_out
                        .write_all(&bytes(&records.game))
                        .and_then(|()| games_out.flush());
                    if let (Ok(()), Some(d)) = (&written_ok, detours_out) {
                        written_ok = d
                            .write_all(&bytes(&records.detours))
                            .and_then(|()| d.flush());
                    }
                    if let Err(e) = written_ok {
                        *error.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                        stop.store(true, Ordering::Relaxed);
                        return;
                    }
                    let n = records.game.len() as u64;
                    let total = written.fetch_add(n, Ordering::Relaxed) + n;
                    let games = finished.fetch_add(1, Ordering::Relaxed) + 1;
                    progress(games as u32, total);
                }
            });
        }
    });
    if let Some(e) = error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    Ok(written.load(Ordering::Relaxed))
}

/// A pseudo-random number below `n` from the state `s` (xorshift64).
fn random(s: &mut u64, n: usize) -> usize {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    (*s % n.max(1) as u64) as usize
}

/// The score for White of a search result.
fn white_score(score: Score, side: Color) -> i32 {
    let s = match score {
        Score::Eval(v) => v.clamp(-3000, 3000),
        Score::Win(_) => 3000,
        Score::Loss(_) => -3000,
    };
    if side == Color::White {
        s
    } else {
        -s
    }
}

/// The starting random state of game `number` of a run with `seed`: SplitMix64's output for a
/// state that differs for every (seed, game) pair, never zero, which xorshift cannot leave.
fn game_seed(seed: u64, number: u32) -> u64 {
    let state = seed.wrapping_add(u64::from(number).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    dama_core::zobrist::splitmix64(state).1.max(1)
}

/// One game: a balanced random opening (from one of the starting lines, if any), then the
/// engine against itself.
fn play_game(config: &Config, engine: &mut Engine, number: u32, stop: &AtomicBool) -> GameRecords {
    let mut rng = game_seed(config.seed, number);
    for _ in 0..4 {
        random(&mut rng, 2);
    }
    // A random opening that a short search does not judge lost for either side.
    let mut game = Game::new(config.variant);
    for attempt in 0..50 {
        game = match config.starts.len() {
            0 => Game::new(config.variant),
            n => {
                let line = &config.starts[random(&mut rng, n)];
                let plies = random(&mut rng, line.moves.len() + 1);
                let mut game = Game::from_position(line.position);
                for m in &line.moves[..plies] {
                    if game.play(m).is_err() {
                        break;
                    }
                }
                game
            }
        };
        for _ in 0..config.random_plies {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let _ = game.play(&moves[random(&mut rng, moves.len())]);
        }
        if game.is_over() {
            continue;
        }
        engine.new_game();
        engine.set_game(&game);
        let r = engine.search(Limits::depth(6), |_| {});
        let s = white_score(r.score, game.position().side_to_move());
        if s.abs() <= config.balance || attempt == 49 {
            break;
        }
    }
    engine.new_game();
    let mut positions: Vec<(AnyPosition, i32, u16)> = Vec::new();
    let mut detours = Vec::new();
    let mut decided = 0i32;
    let mut streak = 0;
    let mut adjudicated: Option<i8> = None;
    while !game.is_over() && (game.moves().len() as u32) < config.max_plies {
        if stop.load(Ordering::Relaxed) {
            return GameRecords::default();
        }
        if config.detours > 0 && random(&mut rng, 100) < config.detours as usize {
            let nodes = (config.nodes / 2).max(1);
            if let Some(r) = detour(engine, &game, 0, nodes, &mut rng, number) {
                detours.push(r);
            }
        }
        let pos = *game.position();
        engine.set_game(&game);
        let result = engine.search(Limits::nodes(config.nodes), |_| {});
        let Some(m) = result.best_move else {
            break;
        };
        let score = white_score(result.score, pos.side_to_move());
        if !pos.must_capture() {
            positions.push((pos, score, game.moves().len() as u16));
        }
        if config.resign > 0 && score.abs() >= config.resign {
            if score.signum() == decided {
                streak += 1;
            } else {
                decided = score.signum();
                streak = 1;
            }
            if streak >= 4 {
                adjudicated = Some(decided as i8);
                break;
            }
        } else {
            streak = 0;
            decided = 0;
        }
        if game.play(&m).is_err() {
            break;
        }
    }
    let result = adjudicated.unwrap_or_else(|| match game.outcome().and_then(|o| o.winner) {
        Some(Color::White) => 1,
        Some(Color::Black) => -1,
        None => 0,
    });
    GameRecords {
        game: positions
            .into_iter()
            .map(|(p, score, ply)| Record::of(&p, result, score as i16, ply, number))
            .collect(),
        detours,
    }
}

/// A detour from `game` ([`Config::detours`]), whose first position was `plies` plies into
/// its game: a random move, then random captures while one is due, and the quiet position
/// reached, searched with `nodes` nodes.
fn detour(
    engine: &mut Engine,
    game: &Game,
    plies: u16,
    nodes: u64,
    rng: &mut u64,
    number: u32,
) -> Option<Record> {
    let mut aside = game.clone();
    let moves = aside.legal_moves();
    aside
        .play(&moves.get(random(rng, moves.len()))?.clone())
        .ok()?;
    for _ in 0..20 {
        if aside.is_over() || !aside.position().must_capture() {
            break;
        }
        let captures = aside.legal_moves();
        aside.play(&captures[random(rng, captures.len())]).ok()?;
    }
    let pos = *aside.position();
    if aside.is_over() || pos.must_capture() {
        return None;
    }
    engine.set_game(&aside);
    let r = engine.search(Limits::nodes(nodes), |_| {});
    let score = white_score(r.score, pos.side_to_move());
    let ply = plies.saturating_add(aside.moves().len() as u16);
    Some(Record::of(&pos, 0, score as i16, ply, number))
}

/// Detours from stored positions ([`Config::detours`] for data played without them): for
/// about `share` in 100 of `records` (of `variant`), a random move and the captures that must
/// follow, and the quiet position reached searched with `nodes` nodes, on `threads` threads.
/// Each detour keeps its record's game number, so held-out games stay held out. `progress`
/// sees the records looked at and the detours written. Returns the number written.
///
/// # Errors
/// Writing failed.
#[allow(clippy::too_many_arguments)]
pub fn detours_from<W: Write + Send>(
    records: &[Record],
    variant: Variant,
    share: u32,
    nodes: u64,
    threads: usize,
    seed: u64,
    make_engine: &(dyn Fn() -> Engine + Sync),
    out: W,
    progress: &(dyn Fn(usize, u64) + Sync),
) -> io::Result<u64> {
    let out = Mutex::new(out);
    let next = AtomicU64::new(0);
    let written = AtomicU64::new(0);
    let error: Mutex<Option<io::Error>> = Mutex::new(None);
    const CHUNK: usize = 256;
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let mut engine = make_engine();
                loop {
                    let start = next.fetch_add(CHUNK as u64, Ordering::Relaxed) as usize;
                    if start >= records.len() || error.lock().map_or(true, |e| e.is_some()) {
                        return;
                    }
                    let chunk = &records[start..(start + CHUNK).min(records.len())];
                    let mut bytes = Vec::new();
                    let mut n = 0;
                    for (i, r) in chunk.iter().enumerate() {
                        let mut rng = game_seed(seed, (start + i) as u32);
                        if random(&mut rng, 100) >= share as usize {
                            continue;
                        }
                        let Ok(pos) = r.position(variant) else {
                            continue;
                        };
                        let game = Game::from_position(pos);
                        if let Some(d) = detour(&mut engine, &game, r.ply, nodes, &mut rng, r.game)
                        {
                            bytes.extend_from_slice(&d.to_bytes());
                            n += 1;
                        }
                    }
                    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
                    if let Err(e) = w.write_all(&bytes).and_then(|()| w.flush()) {
                        *error.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                        return;
                    }
                    let total = written.fetch_add(n, Ordering::Relaxed) + n;
                    progress((start + chunk.len()).min(records.len()), total);
                }
            });
        }
    });
    if let Some(e) = error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    Ok(written.load(Ordering::Relaxed))
}

/// An engine for self-play: one thread, a small table, a fixed seed.
pub fn default_engine(seed: u64) -> Engine {
    Engine::new(EngineOptions {
        threads: 1,
        hash_mb: 16,
        seed: Some(seed),
        ..EngineOptions::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Neighbouring seeds once shared their games (the state was `(seed ^ …) | 1`, so 12 and
    /// 13 played the same openings): every seed and game now starts differently.
    #[test]
    fn each_seed_and_game_has_its_own_random_state() {
        let mut seen = std::collections::HashSet::new();
        for seed in 0..64 {
            for game in 0..64 {
                let s = game_seed(seed, game);
                assert_ne!(s, 0);
                assert!(seen.insert(s), "seed {seed}, game {game}");
            }
        }
    }

    #[test]
    fn games_begin_on_the_starting_lines() {
        // A line of quiet moves, so that every position along it is stored when a game
        // begins there.
        let mut positions = vec![AnyPosition::start(Variant::Russian)];
        let mut moves = Vec::new();
        for _ in 0..6 {
            let pos = positions[positions.len() - 1];
            let m = *pos
                .legal_moves()
                .iter()
                .find(|m| !pos.play(m).unwrap().must_capture())
                .unwrap();
            moves.push(m);
            positions.push(pos.play(&m).unwrap());
        }
        let config = Config {
            variant: Variant::Russian,
            games: 12,
            nodes: 200,
            random_plies: 0,
            balance: 10_000,
            max_plies: 40,
            resign: 1500,
            threads: 2,
            seed: 9,
            starts: Arc::new([StartLine {
                position: positions[0],
                moves,
            }]),
            detours: 0,
        };
        let (records, _) = crate::test_support::selfplay_in_memory(&config, 1);
        let mut first = std::collections::HashMap::new();
        for r in &records {
            let e = first.entry(r.game).or_insert(*r);
            if r.ply < e.ply {
                *e = *r;
            }
        }
        assert_eq!(first.len(), 12);
        let mut plies = std::collections::HashSet::new();
        for r in first.values() {
            let k = r.ply as usize;
            assert!(k < positions.len(), "{k}");
            assert_eq!(r.position(Variant::Russian).unwrap(), positions[k]);
            plies.insert(k);
        }
        // The games begin at different points of the line.
        assert!(plies.len() > 2, "{plies:?}");
    }

    /// Detours are quiet positions off the games' lines, with a search score and no result;
    /// the games are the same with or without them.
    #[test]
    fn detours_are_quiet_positions_off_the_game() {
        let mut config = Config {
            variant: Variant::Russian,
            games: 4,
            nodes: 300,
            random_plies: 4,
            balance: 300,
            max_plies: 120,
            resign: 1500,
            threads: 1,
            seed: 8,
            starts: Arc::new([]),
            detours: 0,
        };
        let play = |config: &Config| crate::test_support::selfplay_in_memory(config, 1);
        let (plain, none) = play(&config);
        assert!(none.is_empty());
        config.detours = 40;
        let (games, detours) = play(&config);
        // The detours draw from the games' random state, so the games differ; there is one at
        // about 40 in 100 of the plies (captures included, so more than 40 in 100 of the
        // quiet positions kept).
        let plies = games.len();
        assert!(
            detours.len() > plies / 4 && detours.len() < plies,
            "{} of {plies}",
            detours.len()
        );
        assert!(!plain.is_empty());
        let on_line: std::collections::HashSet<_> = games
            .iter()
            .map(|r| r.position(Variant::Russian).unwrap())
            .collect();
        let mut off = 0;
        for r in &detours {
            let p = r.position(Variant::Russian).unwrap();
            assert!(!p.must_capture());
            assert_eq!(r.result, 0);
            off += usize::from(!on_line.contains(&p));
        }
        // Some random moves are the game's own (Russian has few moves a position).
        assert!(off * 2 > detours.len(), "{off} of {}", detours.len());
    }

    /// Detours made afterwards from stored positions: about the share asked for, each a quiet
    /// position with the record's game number and no result.
    #[test]
    fn detours_from_stored_positions() {
        let config = Config {
            variant: Variant::Russian,
            games: 3,
            nodes: 300,
            random_plies: 4,
            balance: 300,
            max_plies: 150,
            resign: 1500,
            threads: 2,
            seed: 6,
            starts: Arc::new([]),
            detours: 0,
        };
        let (records, _) = crate::test_support::selfplay_in_memory(&config, 1);
        let mut out = header(Variant::Russian, DataKind::Detours).into_bytes();
        let n = detours_from(
            &records,
            Variant::Russian,
            50,
            200,
            2,
            3,
            &|| default_engine(1),
            &mut out,
            &|_, _| {},
        )
        .unwrap();
        let detours = read(&out[..], Variant::Russian, usize::MAX).unwrap();
        assert_eq!(detours.kind, DataKind::Detours);
        let detours = detours.records;
        assert_eq!(detours.len() as u64, n);
        assert!(
            n as usize > records.len() / 4 && (n as usize) < records.len() * 3 / 4,
            "{n} of {}",
            records.len()
        );
        let games: std::collections::HashSet<u32> = records.iter().map(|r| r.game).collect();
        for d in &detours {
            assert!(!d.position(Variant::Russian).unwrap().must_capture());
            assert_eq!(d.result, 0);
            assert!(games.contains(&d.game));
        }
        // None asked for, none made.
        let mut none = Vec::new();
        let n = detours_from(
            &records,
            Variant::Russian,
            0,
            200,
            1,
            3,
            &|| default_engine(1),
            &mut none,
            &|_, _| {},
        )
        .unwrap();
        assert_eq!((n, none.len()), (0, 0));
    }

    #[test]
    fn records_round_trip_and_bad_input_is_rejected() {
        let config = Config {
            variant: Variant::Russian,
            games: 3,
            nodes: 300,
            random_plies: 4,
            balance: 200,
            max_plies: 200,
            resign: 1500,
            threads: 2,
            seed: 5,
            starts: Arc::new([]),
            detours: 0,
        };
        let mut data = header(Variant::Russian, DataKind::Games).into_bytes();
        let stop = AtomicBool::new(false);
        let n = run(
            &config,
            &|| default_engine(1),
            &mut data,
            None,
            &stop,
            &|_, _| {},
        )
        .unwrap();
        assert!(n > 20, "{n}");
        let read_back = read(&data[..], Variant::Russian, usize::MAX).unwrap();
        assert_eq!(read_back.kind, DataKind::Games);
        let records = read_back.records;
        assert_eq!(records.len() as u64, n);
        for r in &records {
            let p = r.position(Variant::Russian).unwrap();
            assert!(!p.must_capture());
            assert_eq!(Record::from_bytes(&r.to_bytes()), Some(*r));
        }
        // Every game's positions carry that game's result.
        for w in records.windows(2) {
            if w[0].game == w[1].game {
                assert_eq!(w[0].result, w[1].result);
            }
        }
        assert!(matches!(
            read(&data[..], Variant::English, usize::MAX),
            Err(DataError::WrongVariant(v)) if v == "russian"
        ));
        for bad_header in [
            &b"hello"[..],
            b"hello\n",
            b"dama-selfplay 1 \n",
            b"dama-selfplay 1 russian games\n",
            b"dama-selfplay 1 russian detours extra\n",
            b"dama-selfplay 2 russian\n",
            &[b'x'; 100],
        ] {
            assert!(
                matches!(
                    read(bad_header, Variant::Russian, 10),
                    Err(DataError::BadHeader)
                ),
                "{}",
                String::from_utf8_lossy(bad_header)
            );
        }
        // The same records under the detours header read back as detours.
        let mut marked = header(Variant::Russian, DataKind::Detours).into_bytes();
        marked.extend_from_slice(&data[header(Variant::Russian, DataKind::Games).len()..]);
        let as_detours = read(&marked[..], Variant::Russian, usize::MAX).unwrap();
        assert_eq!(as_detours.kind, DataKind::Detours);
        assert_eq!(as_detours.records, records);
        assert!(matches!(
            read(&marked[..], Variant::English, usize::MAX),
            Err(DataError::WrongVariant(v)) if v == "russian"
        ));
        assert!(matches!(
            read(&data[..data.len() - 3], Variant::Russian, usize::MAX),
            Err(DataError::Truncated(_))
        ));
        assert!(matches!(
            read(&data[..], Variant::Russian, 5),
            Err(DataError::TooLarge(5))
        ));
        let mut bad = data.clone();
        let at = header(Variant::Russian, DataKind::Games).len() + 48;
        bad[at] = 7;
        assert!(matches!(
            read(&bad[..], Variant::Russian, usize::MAX),
            Err(DataError::BadRecord(0))
        ));
    }
}
