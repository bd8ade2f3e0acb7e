//! `dama pdn check` and `dama pdn convert`.

use crate::CliError;
use dama_core::Variant;
use dama_notation::pdn::{self, Game, Reader, ReplayOptions};
use dama_notation::Notation;
use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Options of `dama pdn`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Replay every game of PDN files and report the first illegal or ambiguous move of each
    /// game (exit status 1 if any game fails).
    Check(CheckArgs),
    /// Rewrite a PDN file with squares in numeric or algebraic notation.
    Convert(ConvertArgs),
}

/// Options of `dama pdn check`.
#[derive(Debug, clap::Args)]
struct CheckArgs {
    /// PDN files ("-" reads standard input).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Variant of games without a GameType tag (PDN's default is international).
    #[arg(long, short = 'v', default_value = "international")]
    variant: String,
    /// Check the main lines only, not the variations.
    #[arg(long)]
    no_variations: bool,
    /// Print only the summary and the errors.
    #[arg(long, short = 'q')]
    quiet: bool,
    /// Never show a progress bar.
    #[arg(long)]
    no_progress: bool,
    /// Only read the files (syntax), do not replay the moves.
    #[arg(long)]
    syntax_only: bool,
}

/// Options of `dama pdn convert`.
#[derive(Debug, clap::Args)]
struct ConvertArgs {
    /// The PDN file ("-" reads standard input).
    file: PathBuf,
    /// Square names to write.
    #[arg(long, value_enum)]
    notation: NotationArg,
    /// Variant of games without a GameType tag.
    #[arg(long, short = 'v', default_value = "international")]
    variant: String,
    /// Write here instead of standard output.
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum NotationArg {
    Numeric,
    Algebraic,
}

pub fn run(args: Args) -> Result<(), CliError> {
    match args.command {
        Command::Check(a) => check(a),
        Command::Convert(a) => convert(a),
    }
}

fn open(path: &PathBuf) -> Result<(Box<dyn Read>, Option<u64>), CliError> {
    if path.as_os_str() == "-" {
        return Ok((Box::new(io::stdin().lock()), None));
    }
    let file =
        File::open(path).map_err(|e| CliError(format!("cannot open {}: {e}", path.display())))?;
    let len = file.metadata().ok().map(|m| m.len());
    Ok((Box::new(file), len))
}

/// A progress bar on standard error, drawn at most ten times a second.
struct Progress {
    total: u64,
    shown: bool,
    last: Instant,
    enabled: bool,
}

impl Progress {
    /// Files this large get a bar (when standard error is a terminal).
    const MIN_BYTES: u64 = 4 << 20;

    fn new(total: Option<u64>, allowed: bool) -> Progress {
        let total = total.unwrap_or(0);
        Progress {
            total,
            shown: false,
            last: Instant::now(),
            enabled: allowed && total >= Self::MIN_BYTES && io::stderr().is_terminal(),
        }
    }

    fn update(&mut self, done: u64, games: usize) {
        if !self.enabled || self.last.elapsed() < Duration::from_millis(100) {
            return;
        }
        self.last = Instant::now();
        let frac = (done as f64 / self.total as f64).min(1.0);
        let width = 30;
        let filled = (frac * width as f64) as usize;
        eprint!(
            "\r[{}{}] {:>3}%  {games} games",
            "#".repeat(filled),
            " ".repeat(width - filled),
            (frac * 100.0) as u32
        );
        self.shown = true;
    }

    fn finish(&mut self) {
        if self.shown {
            eprint!("\r{}\r", " ".repeat(60));
            self.shown = false;
        }
    }
}

/// A buffered writer to `path`, or to standard output.
pub(crate) fn create_output(path: Option<&Path>) -> Result<Box<dyn Write>, CliError> {
    Ok(match path {
        Some(p) => {
            Box::new(BufWriter::new(File::create(p).map_err(|e| {
                CliError(format!("cannot create {}: {e}", p.display()))
            })?))
        }
        None => Box::new(BufWriter::new(io::stdout().lock())),
    })
}

fn game_label(index: usize, game: &Game) -> String {
    let white = game.tag("White").or_else(|| game.tag("P1"));
    let black = game.tag("Black").or_else(|| game.tag("P2"));
    match (white, black) {
        (Some(w), Some(b)) if !w.is_empty() || !b.is_empty() => {
            format!("game {index} ({w} - {b})")
        }
        _ => format!("game {index}"),
    }
}

fn check(args: CheckArgs) -> Result<(), CliError> {
    let variant: Variant = args.variant.parse()?;
    let opts = ReplayOptions {
        default_variant: variant,
        variations: !args.no_variations,
        keep_moves: false,
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let (mut total_games, mut total_failed, mut total_plies) = (0usize, 0usize, 0usize);
    let mut total_bytes = 0u64;
    let started = Instant::now();
    for path in &args.files {
        let (src, len) = open(path)?;
        let mut reader = Reader::new(src);
        let mut progress = Progress::new(len, !args.no_progress);
        let (mut games, mut failed, mut plies) = (0usize, 0usize, 0usize);
        let name = path.display();
        while let Some(item) = reader.next_game() {
            progress.update(reader.bytes_read(), games);
            let message = match item {
                Err(e) => {
                    if let pdn::ErrorKind::Io(_) = e.kind {
                        progress.finish();
                        return Err(CliError(format!("{name}: {}", e.kind)));
                    }
                    games += 1;
                    Some(format!("{name}:{e} (game {games})"))
                }
                Ok(game) if game.is_empty() => None,
                Ok(_) if args.syntax_only => {
                    games += 1;
                    None
                }
                Ok(game) => {
                    games += 1;
                    match pdn::replay(&game, &opts) {
                        Ok(r) => {
                            plies += r.plies;
                            None
                        }
                        Err(e) => Some(format!("{name}:{e} ({})", game_label(games, &game))),
                    }
                }
            };
            if let Some(m) = message {
                failed += 1;
                progress.finish();
                writeln!(out, "{m}")?;
            }
        }
        progress.finish();
        total_bytes += reader.bytes_read();
        if !args.quiet || failed > 0 {
            let done = if args.syntax_only { "read" } else { "replayed" };
            writeln!(
                out,
                "{name}: {games} games, {} {done}, {failed} failed, {plies} moves",
                games - failed
            )?;
        }
        total_games += games;
        total_failed += failed;
        total_plies += plies;
    }
    let seconds = started.elapsed().as_secs_f64().max(1e-9);
    {
        writeln!(
            out,
            "total: {total_games} games, {} ok, {total_failed} failed, {total_plies} moves in \
             {seconds:.3} s ({:.1} MB/s, {:.0} games/s)",
            total_games - total_failed,
            total_bytes as f64 / seconds / 1e6,
            total_games as f64 / seconds
        )?;
    }
    out.flush()?;
    if total_failed > 0 {
        return Err(CliError(format!(
            "{total_failed} of {total_games} games failed"
        )));
    }
    Ok(())
}

fn convert(args: ConvertArgs) -> Result<(), CliError> {
    let variant: Variant = args.variant.parse()?;
    let notation = match args.notation {
        NotationArg::Numeric => Notation::Numeric,
        NotationArg::Algebraic => Notation::Algebraic,
    };
    let opts = ReplayOptions {
        default_variant: variant,
        variations: true,
        keep_moves: false,
    };
    let (src, _) = open(&args.file)?;
    let mut out = create_output(args.output.as_deref())?;
    let name = args.file.display();
    let (mut games, mut failed) = (0usize, 0usize);
    for item in Reader::new(src) {
        match item {
            Err(e) => {
                if let pdn::ErrorKind::Io(_) = e.kind {
                    return Err(CliError(format!("{name}: {}", e.kind)));
                }
                failed += 1;
                eprintln!("{name}:{e}: skipped");
            }
            Ok(mut game) => {
                if game.is_empty() && game.body.is_empty() {
                    continue;
                }
                games += 1;
                if let Err(e) = pdn::convert(&mut game, notation, &opts) {
                    failed += 1;
                    eprintln!("{name}:{e}: game {games} written unchanged");
                }
                pdn::write_game(&mut out, &game)?;
            }
        }
    }
    out.flush()?;
    if failed > 0 {
        return Err(CliError(format!("{failed} games could not be converted")));
    }
    Ok(())
}
