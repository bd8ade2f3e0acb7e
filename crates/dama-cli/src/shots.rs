//! `dama shots`: finds the combinations in games — positions where the side to move can force
//! a gain of material ([`dama_engine::shots`]).

use crate::CliError;
use dama_core::{AnyPosition, Color, Variant};
use dama_engine::shots;
use dama_notation::pdn::{self, Game, ReplayOptions};
use dama_notation::write_move;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Options of `dama shots`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// PDN files, or JSON files whose string values are PDN games.
    #[arg(required_unless_present = "fen")]
    files: Vec<PathBuf>,
    /// Look at this one position (FEN) instead of games.
    #[arg(long, conflicts_with = "files")]
    fen: Option<String>,
    /// Variant of games without a GameType tag, and of --fen.
    #[arg(long, short = 'v', default_value = "international")]
    variant: String,
    /// Longest shot, in plies of both sides before the captures that follow (1: a move, the
    /// forced replies and captures; 3: one quiet reply more; …).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=9))]
    plies: u32,
    /// Material the shot must win (more than it gives), in men; a king counts as three men
    /// where kings fly, one and a half where they move one square.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(i32).range(1..=20))]
    gain: i32,
    /// Look for forced wins of the game instead of gains of material.
    #[arg(long, conflicts_with = "gain")]
    win: bool,
    /// Only positions without kings.
    #[arg(long)]
    men_only: bool,
    /// Only positions where neither side has more than this many pieces more than the other.
    #[arg(long)]
    even: Option<u32>,
    /// Also look at positions where the side to move must capture.
    #[arg(long)]
    captures: bool,
    /// Also report shots whose first move crowns a man (by default a crowning is not taken
    /// for a combination).
    #[arg(long)]
    crowning: bool,
    /// Only shots with at most this many winning first moves.
    #[arg(long)]
    max_moves: Option<usize>,
    /// Skip the first plies of each game (giveaway openings are full of easy gifts).
    #[arg(long, default_value_t = 0)]
    from_ply: usize,
    /// Shots reported per game (the first ones).
    #[arg(long, default_value_t = 1)]
    per_game: usize,
    /// Stop after this many shots.
    #[arg(long)]
    limit: Option<usize>,
    /// Positions a proof may look at before the position is given up as unproven.
    #[arg(long, default_value_t = 2_000_000)]
    budget: u64,
}

/// What the scan has seen so far.
#[derive(Default)]
struct Tally {
    games: usize,
    bad_games: usize,
    positions: usize,
    unproven: usize,
    shots: usize,
}

pub fn run(mut args: Args) -> Result<(), CliError> {
    let variant: Variant = args.variant.parse()?;
    if args.win {
        args.gain = shots::WIN;
    }
    let started = Instant::now();
    let mut out = io::stdout().lock();
    let mut tally = Tally::default();
    if let Some(fen) = &args.fen {
        let pos = AnyPosition::from_fen(variant, fen)
            .map_err(|e| CliError(format!("bad FEN for {variant}: {e}")))?;
        match shots::find(&pos, args.plies, args.gain, args.budget) {
            Ok(Some(shot)) => write_shot(&mut out, &pos, &shot, args.gain, "--fen")?,
            Ok(None) if args.win => eprintln!("no forced win within {} plies", args.plies),
            Ok(None) => eprintln!(
                "no shot winning {} men within {} plies",
                args.gain, args.plies
            ),
            Err(shots::Unproven) => {
                return Err(CliError(format!(
                    "the proof needs more than {} positions (--budget)",
                    args.budget
                )))
            }
        }
        return Ok(());
    }
    let mut progress = Progress::new();
    'files: for path in &args.files {
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into(),
        );
        for (index, game) in read_games(path)?.into_iter().enumerate() {
            tally.games += 1;
            let Ok(game) = game else {
                tally.bad_games += 1;
                continue;
            };
            let source = |ply: usize| describe(&name, index + 1, &game, ply);
            scan_game(&args, variant, &game, &source, &mut tally, &mut out)?;
            progress.show(&tally);
            if args.limit.is_some_and(|l| tally.shots >= l) {
                break 'files;
            }
        }
    }
    progress.clear();
    eprintln!(
        "{} games ({} unreadable), {} positions, {} shots, {} unproven (budget), {:.1} s",
        tally.games,
        tally.bad_games,
        tally.positions,
        tally.shots,
        tally.unproven,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The games of a PDN file, or of the PDN strings of a JSON file.
pub(crate) fn read_games(path: &Path) -> Result<Vec<Result<Game, pdn::PdnError>>, CliError> {
    let text = crate::matches::read_text(path)?;
    let json = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"));
    if !json && !text.trim_start().starts_with('{') {
        return Ok(pdn::read_str(&text));
    }
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| CliError(format!("{}: {e}", path.display())))?;
    let mut texts = Vec::new();
    crate::matches::json_strings(&value, &mut texts);
    Ok(texts.iter().flat_map(|t| pdn::read_str(t)).collect())
}

/// Where a position comes from: file, game number, players and place, and the move.
fn describe(file: &str, number: usize, game: &Game, ply: usize) -> String {
    let mut s = format!("{file} game {number}");
    let players: Vec<&str> = ["White", "Black"]
        .iter()
        .filter_map(|t| game.tag(t))
        .filter(|v| !v.is_empty() && *v != "?")
        .collect();
    if players.len() == 2 {
        s += &format!(" ({} - {})", players[0], players[1]);
    }
    for tag in ["Site", "Event", "Date"] {
        if let Some(v) = game.tag(tag).filter(|v| !v.is_empty() && !v.contains('?')) {
            s += &format!(", {v}");
            break;
        }
    }
    s += &format!(", after ply {ply}");
    s.replace('|', "/")
}

/// Replays `game` and reports its shots.
fn scan_game(
    args: &Args,
    variant: Variant,
    game: &Game,
    source: &dyn Fn(usize) -> String,
    tally: &mut Tally,
    out: &mut impl Write,
) -> Result<(), CliError> {
    let opts = ReplayOptions {
        default_variant: variant,
        variations: false,
        keep_moves: true,
    };
    let Ok(replayed) = pdn::replay(game, &opts) else {
        tally.bad_games += 1;
        return Ok(());
    };
    let mut pos = replayed.start;
    let mut found = 0;
    for ply in 0..=replayed.moves.len() {
        if found >= args.per_game {
            break;
        }
        let even = args.even.is_none_or(|n| {
            let s = pos.setup();
            let (w, b) = (s.pieces(Color::White).len(), s.pieces(Color::Black).len());
            w.abs_diff(b) <= n as usize
        });
        let men_only = !args.men_only || pos.setup().kings.is_empty();
        if ply >= args.from_ply && even && men_only && (args.captures || !pos.must_capture()) {
            tally.positions += 1;
            match shots::find(&pos, args.plies, args.gain, args.budget) {
                Ok(Some(shot))
                    if args.max_moves.is_none_or(|k| shot.moves.len() <= k)
                        && (args.crowning || !shot.moves.iter().any(|m| m.promotes)) =>
                {
                    write_shot(out, &pos, &shot, args.gain, &source(ply))?;
                    tally.shots += 1;
                    found += 1;
                }
                Ok(_) => {}
                Err(shots::Unproven) => tally.unproven += 1,
            }
        }
        let Some(m) = replayed.moves.get(ply) else {
            break;
        };
        let Ok(next) = pos.play(m) else {
            break;
        };
        pos = next;
    }
    Ok(())
}

/// One line: `FEN | N plies, G men | winning moves | source` (`N plies, win` for a forced
/// win).
fn write_shot(
    out: &mut impl Write,
    pos: &AnyPosition,
    shot: &shots::Shot,
    gain: i32,
    source: &str,
) -> Result<(), CliError> {
    let moves: Vec<String> = shot.moves.iter().map(|m| write_move(pos, m)).collect();
    let what = if gain >= shots::WIN {
        "win".to_owned()
    } else {
        format!("{gain} men")
    };
    writeln!(
        out,
        "{} | {} plies, {what} | {} | {source}",
        pos.fen(),
        shot.plies,
        moves.join(" ")
    )
    .map_err(|e| CliError(format!("writing: {e}")))
}

/// A line on standard error with the games scanned, at most once a second, when it is a
/// terminal.
struct Progress {
    enabled: bool,
    last: Instant,
    shown: bool,
}

impl Progress {
    fn new() -> Progress {
        Progress {
            enabled: io::stderr().is_terminal(),
            last: Instant::now(),
            shown: false,
        }
    }

    fn show(&mut self, t: &Tally) {
        if !self.enabled || self.last.elapsed() < Duration::from_secs(1) {
            return;
        }
        self.last = Instant::now();
        self.shown = true;
        eprint!(
            "\r{} games, {} positions, {} shots",
            t.games, t.positions, t.shots
        );
    }

    fn clear(&mut self) {
        if self.shown {
            eprint!("\r{:60}\r", "");
        }
    }
}
