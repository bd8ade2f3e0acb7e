//! `dama tune`: self-play training data and fitting the evaluation to it.

use crate::CliError;
use dama_core::Variant;
use dama_engine::eval::Weights;
use dama_engine::pattern::{Model, Windows};
use dama_engine::selfplay::{self, DataKind};
use dama_engine::tune;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Options of `dama tune`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: TuneCommand,
}

#[derive(Debug, clap::Subcommand)]
enum TuneCommand {
    /// Play fast self-play games and append their quiet positions, with the games' results,
    /// to a training data file.
    Play(PlayArgs),
    /// Fit a pattern evaluation (window configurations and linear features, by phase) to
    /// training data files, by logistic regression.
    Fit(FitArgs),
    /// Make detour positions from stored self-play data (as `play --detours` does during
    /// play): a random move away from a stored position, the captures that must follow, and
    /// the quiet position reached with its search score.
    Detours(DetoursArgs),
    /// Fit a neural-network evaluation (the pieces of the board through one hidden layer) to
    /// training data files.
    Net(NetArgs),
    /// Self-play and fit the linear feature weights alone (the first tuner).
    Linear(LinearArgs),
    /// Turn the games of PDN files (played anywhere: masters' games, archives) into training
    /// data: each quiet position with its game's result.
    Import(ImportArgs),
}

/// Options of `dama tune import`.
#[derive(Debug, clap::Args)]
struct ImportArgs {
    /// Variant (games without a `GameType` tag are read as this; others are skipped).
    #[arg(long, short = 'v', default_value = "international")]
    variant: String,
    /// PDN files of games with results (JSON files of PDN strings are read too).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// How the files' `Result` tags name the winner (`first-player`: `1-0` is a win for the
    /// side that moves first, as English archives write it).
    #[arg(long, default_value = "standard")]
    results: dama_notation::pdn::ResultOrder,
    /// Data file to write (it must not exist: imported data is kept apart from self-play).
    #[arg(long)]
    out: PathBuf,
}

/// Options of `dama tune play`.
#[derive(Debug, clap::Args)]
struct PlayArgs {
    /// Variant.
    #[arg(long, short = 'v', default_value = "international")]
    variant: String,
    /// Games to play.
    #[arg(long, default_value_t = 1000)]
    games: u32,
    /// Nodes per move.
    #[arg(long, default_value_t = 3000)]
    nodes: u64,
    /// Random moves at the start of each game (for variety).
    #[arg(long, default_value_t = 8)]
    random_plies: u32,
    /// Keep a random opening only if a 6-ply search scores it within this many centi-men.
    #[arg(long, default_value_t = 80)]
    balance: i32,
    /// Games still running after this many plies are draws.
    #[arg(long, default_value_t = 300)]
    max_plies: u32,
    /// Adjudicate a win once the search scores beyond this for four plies (0: play out).
    #[arg(long, default_value_t = 1200)]
    resign: i32,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Seed of the random openings (use a new one for each run appended to a file).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Begin the games where the games of these PDN files went (repeatable; those of the
    /// variant with a result are read): each self-play game follows one of them, drawn at
    /// random, for a random number of its first `--start-plies` plies, then makes its random
    /// moves.
    #[arg(long)]
    starts: Vec<PathBuf>,
    /// Detours: at this share of the plies (per cent), a random move is played aside from the
    /// game (with the captures that must follow) and the quiet position reached is searched
    /// with half the nodes; such positions are written to `--detours-out`, with their search
    /// score and no result (for `dama tune net --detours`).
    #[arg(long, default_value_t = 0, requires = "detours_out")]
    detours: u32,
    /// The data file for the detours' positions (created or appended to, like `--out`).
    #[arg(long)]
    detours_out: Option<PathBuf>,
    /// Play with the evaluation of this file (a network, a pattern model or linear weights
    /// from `dama tune`) instead of the built-in one.
    #[arg(long)]
    eval: Option<PathBuf>,
    /// Plies of each `--starts` game a self-play game may follow.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=200))]
    start_plies: u32,
    /// Data file; created with a header, or appended to if it exists.
    #[arg(long)]
    out: PathBuf,
}

/// Options of `dama tune fit`.
#[derive(Debug, clap::Args)]
struct FitArgs {
    /// Variant of the data.
    #[arg(long, short = 'v', default_value = "international")]
    variant: String,
    /// Training data files from `dama tune play` (repeatable).
    #[arg(long, required = true)]
    data: Vec<PathBuf>,
    /// The variant the data's games were played in, if not `--variant`: one on the same
    /// board, whose positions the model's variant can read (Brazilian games for a Russian
    /// model: the two differ only in which capture must be chosen and in promotion during a
    /// capture). Features are still computed under `--variant`'s rules; positions it cannot
    /// hold are skipped.
    #[arg(long)]
    data_variant: Option<String>,
    /// Write the fitted model here.
    #[arg(long)]
    out: PathBuf,
    /// Epochs of full-batch gradient descent (Adam).
    #[arg(long, default_value_t = 300)]
    epochs: u32,
    /// Step size, in centi-men.
    #[arg(long, default_value_t = 2.0)]
    rate: f64,
    /// L2 penalty on the window weights.
    #[arg(long, default_value_t = 1e-6)]
    l2: f64,
    /// Weight of the game result in the target (the rest: the self-play search score).
    #[arg(long, default_value_t = 1.0)]
    result_weight: f64,
    /// Hold out every Nth game to measure the error on unseen positions (0: none).
    #[arg(long, default_value_t = 20)]
    hold_out: u32,
    /// Threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Read at most this many positions per file.
    #[arg(long, default_value_t = 50_000_000)]
    max_positions: usize,
    /// Where the windows lie. `sparse`: a window of four columns by four rows at every
    /// second column and row (8 tables on 10x10, 5 on 8x8). `dense`: at every column and row,
    /// three times the weights (25 tables on 10x10, 13 on 8x8) and a slower evaluation.
    /// `strips`: the dense windows and strips two columns wide and eight rows high, at every
    /// column and every second row (34 tables on 10x10, 17 on 8x8). `bands`: the strips' and
    /// bands eight columns wide and two rows high, at every second column and row (39 tables
    /// on 10x10, 19 on 8x8).
    #[arg(long, value_parser = windows_parser(), default_value = "sparse",
          default_value_ifs = [("dense", "true", "dense"), ("strips", "true", "strips")],
          conflicts_with_all = ["dense", "strips"])]
    windows: Windows,
    /// Short for `--windows dense` (clap sets `windows` from it).
    #[arg(long, conflicts_with = "strips")]
    #[allow(dead_code)]
    dense: bool,
    /// Short for `--windows strips` (clap sets `windows` from it).
    #[arg(long)]
    #[allow(dead_code)]
    strips: bool,
    /// Start from this model's weights instead of the linear ones (its tables must be the
    /// first of `--windows`' layout: a `strips` model can start a `strips` or a `bands` fit).
    /// A smaller `--rate` keeps more of it.
    #[arg(long)]
    init: Option<PathBuf>,
}

/// Options of `dama tune detours`.
#[derive(Debug, clap::Args)]
struct DetoursArgs {
    /// Variant of the data.
    #[arg(long, short = 'v', default_value = "international")]
    variant: String,
    /// Self-play data files to start from (repeatable).
    #[arg(long, required = true)]
    data: Vec<PathBuf>,
    /// The data file to write the detours to (created or appended to).
    #[arg(long)]
    out: PathBuf,
    /// Detours from this share of the positions, in per cent.
    #[arg(long, default_value_t = 30)]
    share: u32,
    /// Nodes of each detour's search.
    #[arg(long, default_value_t = 6000)]
    nodes: u64,
    /// Searches at the same time.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Seed of the random moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Search with the evaluation of this file instead of the built-in one.
    #[arg(long)]
    eval: Option<PathBuf>,
}

/// Options of `dama tune net`.
#[derive(Debug, clap::Args)]
struct NetArgs {
    /// Variant of the data.
    #[arg(long, short = 'v', default_value = "international")]
    variant: String,
    /// Training data files from `dama tune play` or `dama tune import`: positions of games,
    /// each with its game's result (repeatable).
    #[arg(long, required = true)]
    data: Vec<PathBuf>,
    /// Detour files (from `dama tune play --detours-out` or `dama tune detours`): positions a
    /// random move away from the games, which have a search score but no result. They are
    /// fitted to their score alone and take no part in choosing `k` (repeatable).
    #[arg(long)]
    detours: Vec<PathBuf>,
    /// Write the fitted network here.
    #[arg(long)]
    out: PathBuf,
    /// Size of the hidden layer (of each of the two views of the board; a multiple of 16).
    #[arg(long, default_value_t = 256)]
    hidden: usize,
    /// Output buckets (stages of the game, by the pieces left).
    #[arg(long, default_value_t = 8)]
    buckets: usize,
    /// What the output sees of each hidden value: `clipped` to [0, 1], or `squared` after the
    /// clip.
    #[arg(long, default_value = "clipped", value_parser = activation_parser())]
    activation: dama_engine::network::Activation,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 20)]
    epochs: u32,
    /// Positions per step.
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// Adam's step size at the start (it falls along a cosine to a hundredth of it).
    #[arg(long, default_value_t = 0.002)]
    rate: f32,
    /// Weight of the game result in the target (the rest: the self-play search score).
    #[arg(long, default_value_t = 1.0)]
    result_weight: f32,
    /// Blend each game position's search score with the scores of the positions played
    /// after it in its game, `g(t) = (1 − λ) · s(t) + λ · g(t + 1)` (0: its own score alone;
    /// `k` is chosen on the scores before the blend).
    #[arg(long, default_value_t = 0.0, value_parser = unit_f64)]
    lookahead: f64,
    /// The scale of the logistic curve: a search score of `s` centi-men is the target
    /// `sigmoid(k · s / 100)`, and the network's output unit is `100 / k` centi-men. By
    /// default the `k` with which the self-play search's own scores best predict the results
    /// of the games (for games imported without scores: the one with which the built-in
    /// linear weights do).
    #[arg(long, value_parser = positive_f64)]
    k: Option<f64>,
    /// Fit only the positions where neither side could capture (the side to move never can
    /// in the data): material won or lost there is settled, not the middle of an exchange.
    #[arg(long)]
    settled: bool,
    /// Decoupled weight decay: each step shrinks the weights by this share of the step size.
    #[arg(long, default_value_t = 0.0)]
    weight_decay: f32,
    /// Hold out every Nth game to measure the error on unseen positions (0: none).
    #[arg(long, default_value_t = 20)]
    hold_out: u32,
    /// Threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Read at most this many positions per file.
    #[arg(long, default_value_t = 100_000_000)]
    max_positions: usize,
    /// Seed of the starting weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Reads a positive finite number.
fn positive_f64(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err(format!("{text:?} is not a positive number")),
    }
}

/// Reads a number from 0 to 1, 1 left out.
fn unit_f64(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if (0.0..1.0).contains(&x) => Ok(x),
        _ => Err(format!("{text:?} is not a number from 0 to 1 (1 left out)")),
    }
}

/// Reads `--activation`: one of the activations' keys.
fn activation_parser(
) -> impl clap::builder::TypedValueParser<Value = dama_engine::network::Activation> {
    use clap::builder::TypedValueParser;
    use dama_engine::network::Activation;
    clap::builder::PossibleValuesParser::new(Activation::ALL.map(Activation::key))
        .map(|key| Activation::from_key(&key).expect("clap accepts only the activations' keys"))
}

/// Reads `--windows`: one of the layouts' keys.
fn windows_parser() -> impl clap::builder::TypedValueParser<Value = Windows> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(Windows::ALL.map(Windows::key))
        .map(|key| Windows::from_key(&key).expect("clap accepts only the layouts' keys"))
}

/// Options of `dama tune linear`.
#[derive(Debug, clap::Args)]
struct LinearArgs {
    /// Variant whose games are played (its family's weights are tuned).
    #[arg(long, short = 'v', default_value = "international")]
    variant: String,
    /// Self-play games.
    #[arg(long, default_value_t = 200)]
    games: u32,
    /// Nodes per move in the self-play games.
    #[arg(long, default_value_t = 3000)]
    nodes: u64,
    /// Random moves at the start of each game (for variety).
    #[arg(long, default_value_t = 6)]
    random_plies: u32,
    /// Gradient-descent epochs.
    #[arg(long, default_value_t = 300)]
    epochs: u32,
    /// Start from these weights (a file of `name value` lines) instead of the built-in ones.
    #[arg(long)]
    start: Option<PathBuf>,
    /// Write the fitted weights here (`name value` lines).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Seed of the random opening moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// The bytes of an evaluation file (a model or linear weights), refused above 64 MiB: the
/// largest model is under 1 MiB.
fn read_eval_file(path: &std::path::Path) -> Result<Vec<u8>, CliError> {
    let err = |e: &dyn std::fmt::Display| CliError(format!("{}: {e}", path.display()));
    let bytes = std::fs::read(path).map_err(|e| err(&e))?;
    if bytes.len() > 64 << 20 {
        return Err(err(&"larger than 64 MiB"));
    }
    Ok(bytes)
}

/// An evaluation read from a file.
#[derive(Clone, Debug, Default)]
pub struct EvalFile {
    weights: Option<Weights>,
    model: Option<std::sync::Arc<Model>>,
    network: Option<std::sync::Arc<dama_engine::network::Network>>,
}

impl EvalFile {
    /// Makes `engine` evaluate with it.
    pub fn apply(&self, engine: &mut dama_engine::Engine) {
        engine.set_weights(self.weights);
        engine.set_model(self.model.clone());
        engine.set_network(self.network.clone());
    }
}

/// Reads an evaluation file: a network from `dama tune net`, a pattern model from `dama tune
/// fit`, or linear weights (`name value` lines) from `dama tune linear`.
pub fn load_eval(path: &std::path::Path, variant: Variant) -> Result<EvalFile, CliError> {
    use dama_engine::network::Network;
    let err = |e: &dyn std::fmt::Display| CliError(format!("{}: {e}", path.display()));
    let fitted_to = |fitted: &str| {
        if fitted != variant.key() {
            return Err(err(&format!(
                "it was fitted to {fitted}, not {}",
                variant.key()
            )));
        }
        Ok(())
    };
    let bytes = read_eval_file(path)?;
    if bytes.starts_with(b"DAMANET") {
        let network = Network::from_bytes(&bytes).map_err(|e| err(&e))?;
        fitted_to(&network.variant)?;
        dama_core::with_rules!(variant, R => network.check::<R>()).map_err(|e| err(&e))?;
        Ok(EvalFile {
            network: Some(std::sync::Arc::new(network)),
            ..EvalFile::default()
        })
    } else if bytes.starts_with(b"DAMAPAT") {
        let model = Model::from_bytes(&bytes).map_err(|e| err(&e))?;
        fitted_to(&model.variant)?;
        dama_core::with_rules!(variant, R => model.check::<R>()).map_err(|e| err(&e))?;
        Ok(EvalFile {
            model: Some(std::sync::Arc::new(model)),
            ..EvalFile::default()
        })
    } else {
        let text = String::from_utf8(bytes).map_err(|e| err(&e))?;
        let w = tune::read_weights(&text, &Weights::for_variant(variant)).map_err(|e| err(&e))?;
        Ok(EvalFile {
            weights: Some(w),
            ..EvalFile::default()
        })
    }
}

pub fn run(args: Args) -> Result<(), CliError> {
    match args.command {
        TuneCommand::Play(a) => play(a),
        TuneCommand::Fit(a) => fit(a),
        TuneCommand::Net(a) => net(a),
        TuneCommand::Detours(a) => detours(a),
        TuneCommand::Linear(a) => linear(a),
        TuneCommand::Import(a) => import(a),
    }
}

fn import(args: ImportArgs) -> Result<(), CliError> {
    use dama_engine::book::Outcome;
    let variant: Variant = args.variant.parse()?;
    let path = &args.out;
    let err = |e: std::io::Error| CliError(format!("{}: {e}", path.display()));
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(err)?;
    let mut out = std::io::BufWriter::new(file);
    out.write_all(selfplay::header(variant, DataKind::Games).as_bytes())
        .map_err(err)?;
    let (mut games, mut positions) = (0u32, 0usize);
    let report =
        crate::book::for_each_game(&args.files, variant, args.results, |game, outcome| {
            let result = match outcome {
                Outcome::WhiteWins => 1,
                Outcome::BlackWins => -1,
                Outcome::Draw => 0,
            };
            let records = selfplay::game_records(&game.start, &game.moves, result, games);
            for r in &records {
                out.write_all(&r.to_bytes()).map_err(err)?;
            }
            positions += records.len();
            games += 1;
            Ok(())
        })?;
    out.flush().map_err(err)?;
    println!(
        "{games} games, {positions} positions written to {} ({} games skipped: unreadable, \
         of another variant or without a result)",
        path.display(),
        report.skipped()
    );
    Ok(())
}

fn play(args: PlayArgs) -> Result<(), CliError> {
    let variant: Variant = args.variant.parse()?;
    if args.games == 0 || args.nodes == 0 || args.threads == 0 || args.threads > 64 {
        return Err(CliError(
            "--games, --nodes and --threads (at most 64) must be positive".into(),
        ));
    }
    let mut starts = Vec::new();
    if !args.starts.is_empty() {
        let order = dama_notation::pdn::ResultOrder::Standard;
        let plies = args.start_plies as usize;
        let report = crate::book::for_each_game(&args.starts, variant, order, |game, _| {
            starts.push(selfplay::StartLine {
                position: game.start,
                moves: game.moves.iter().take(plies).copied().collect(),
            });
            Ok(())
        })?;
        if starts.is_empty() {
            return Err(CliError(format!(
                "--starts: no {} game with a result in the files",
                variant.name()
            )));
        }
        eprintln!(
            "starting lines: {} games ({} skipped: unreadable, of another variant or without a result)",
            starts.len(),
            report.skipped()
        );
    }
    let eval = match &args.eval {
        Some(file) => load_eval(file, variant)?,
        None => EvalFile::default(),
    };
    if args.detours > 100 {
        return Err(CliError(
            "--detours is a share in per cent (0 to 100)".into(),
        ));
    }
    let (file, existing) = open_data(&args.out, variant, DataKind::Games)?;
    let detours_file = match &args.detours_out {
        Some(path) if path == &args.out => {
            return Err(CliError(
                "--detours-out must be another file than --out".into(),
            ))
        }
        Some(path) => Some(open_data(path, variant, DataKind::Detours)?.0),
        None => None,
    };
    let err = |e: std::io::Error| CliError(format!("{}: {e}", args.out.display()));
    let config = selfplay::Config {
        variant,
        games: args.games,
        nodes: args.nodes,
        random_plies: args.random_plies,
        balance: args.balance.max(1),
        max_plies: args.max_plies.clamp(10, 10_000),
        resign: args.resign.max(0),
        threads: args.threads,
        seed: args.seed,
        starts: starts.into(),
        detours: args.detours,
    };
    let started = Instant::now();
    let stop = AtomicBool::new(false);
    let games = args.games;
    let written = selfplay::run(
        &config,
        &|| {
            let mut engine = selfplay::default_engine(args.seed);
            eval.apply(&mut engine);
            engine
        },
        std::io::BufWriter::new(file),
        detours_file.map(std::io::BufWriter::new),
        &stop,
        &|g, n| {
            if g % 10 == 0 || g == games {
                let secs = started.elapsed().as_secs_f64();
                eprint!(
                    "\rself-play: {g}/{games} games, {n} positions ({secs:.0} s, {:.1} games/s)",
                    g as f64 / secs.max(1e-3)
                );
                let _ = std::io::stderr().flush();
            }
        },
    )
    .map_err(err)?;
    eprintln!();
    println!(
        "{written} positions from {games} games appended to {} ({} in all)",
        args.out.display(),
        existing as u64 + written
    );
    Ok(())
}

/// Opens the data file `path` of `variant` to append `kind` records to: a new file gets the
/// header, an existing one must be a complete data file of the variant holding that kind.
/// Returns it and its records.
fn open_data(
    path: &std::path::Path,
    variant: Variant,
    kind: DataKind,
) -> Result<(std::fs::File, usize), CliError> {
    let err = |e: std::io::Error| CliError(format!("{}: {e}", path.display()));
    let existing = match std::fs::File::open(path) {
        Ok(f) => {
            let data = selfplay::read(std::io::BufReader::new(f), variant, usize::MAX)
                .map_err(|e| CliError(format!("{}: {e}", path.display())))?;
            if data.kind != kind {
                return Err(CliError(format!(
                    "{}: holds {}, not {}: write to another file",
                    path.display(),
                    kind_name(data.kind),
                    kind_name(kind)
                )));
            }
            data.records.len()
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::write(path, selfplay::header(variant, kind)).map_err(err)?;
            0
        }
        Err(e) => return Err(err(e)),
    };
    let file = std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(err)?;
    Ok((file, existing))
}

/// What a data file's header says its records are, in words.
fn kind_name(kind: DataKind) -> &'static str {
    match kind {
        DataKind::Games => "game positions",
        DataKind::Detours => "detours",
    }
}

/// The records of data files of `variant` (at most `max_positions` a file), their games
/// numbered apart across the files (the held-out split is by game). `want` is what the
/// caller reads them as: game positions must come from files of games; detours may also
/// come from files written before detours were marked, whose header says games.
fn read_records(
    paths: &[PathBuf],
    variant: Variant,
    max_positions: usize,
    want: DataKind,
) -> Result<Vec<selfplay::Record>, CliError> {
    let mut records = Vec::new();
    for path in paths {
        let f =
            std::fs::File::open(path).map_err(|e| CliError(format!("{}: {e}", path.display())))?;
        let data = selfplay::read(std::io::BufReader::new(f), variant, max_positions)
            .map_err(|e| CliError(format!("{}: {e}", path.display())))?;
        if want == DataKind::Games && data.kind == DataKind::Detours {
            return Err(CliError(format!(
                "{}: holds detours, positions without a game result; `dama tune net` takes \
                 them with --detours",
                path.display()
            )));
        }
        let mut r = data.records;
        // Game numbers restart in every file: keep them apart for the held-out split.
        let offset = records.last().map_or(0, |x: &selfplay::Record| x.game + 1);
        for x in &mut r {
            x.game = x.game.wrapping_add(offset);
        }
        records.append(&mut r);
    }
    Ok(records)
}

fn detours(args: DetoursArgs) -> Result<(), CliError> {
    let variant: Variant = args.variant.parse()?;
    if args.share > 100 || args.nodes == 0 || args.threads == 0 || args.threads > 64 {
        return Err(CliError(
            "--share is in per cent (0 to 100); --nodes and --threads (at most 64) must be \
             positive"
                .into(),
        ));
    }
    if args.data.contains(&args.out) {
        return Err(CliError(
            "--out must be another file than the --data files".into(),
        ));
    }
    let eval = match &args.eval {
        Some(file) => load_eval(file, variant)?,
        None => EvalFile::default(),
    };
    let records = read_records(&args.data, variant, usize::MAX, DataKind::Games)?;
    let (file, existing) = open_data(&args.out, variant, DataKind::Detours)?;
    let started = Instant::now();
    let total = records.len();
    let written = selfplay::detours_from(
        &records,
        variant,
        args.share,
        args.nodes,
        args.threads,
        args.seed,
        &|| {
            let mut engine = selfplay::default_engine(args.seed);
            eval.apply(&mut engine);
            engine
        },
        std::io::BufWriter::new(file),
        &|done, n| {
            if done % 25_600 < 256 || done == total {
                eprint!(
                    "\rdetours: {done}/{total} positions looked at, {n} written ({:.0} s)",
                    started.elapsed().as_secs_f64()
                );
                let _ = std::io::stderr().flush();
            }
        },
    )
    .map_err(|e| CliError(format!("{}: {e}", args.out.display())))?;
    eprintln!();
    println!(
        "{written} detours from {total} positions appended to {} ({} in all)",
        args.out.display(),
        existing as u64 + written
    );
    Ok(())
}

fn net(args: NetArgs) -> Result<(), CliError> {
    use dama_engine::{net_train, network};
    let variant: Variant = args.variant.parse()?;
    if args.epochs == 0 || args.threads == 0 || args.threads > 64 || args.batch == 0 {
        return Err(CliError(
            "--epochs, --batch and --threads (at most 64) must be positive".into(),
        ));
    }
    if args.hidden == 0 || args.hidden % 16 != 0 || args.hidden > network::MAX_HIDDEN {
        return Err(CliError(format!(
            "--hidden must be a positive multiple of 16, at most {}",
            network::MAX_HIDDEN
        )));
    }
    if args.buckets == 0 || args.buckets > network::MAX_BUCKETS {
        return Err(CliError(format!(
            "--buckets must be from 1 to {}",
            network::MAX_BUCKETS
        )));
    }
    if !(0.0..=1.0).contains(&args.result_weight) || args.rate.is_nan() || args.rate <= 0.0 {
        return Err(CliError(
            "--result-weight must be in [0, 1] and --rate positive".into(),
        ));
    }
    let started = Instant::now();
    let mut games = read_records(&args.data, variant, args.max_positions, DataKind::Games)?;
    let detours = read_records(
        &args.detours,
        variant,
        args.max_positions,
        DataKind::Detours,
    )?;
    let k = args
        .k
        .or_else(|| net_train::score_k(&games))
        .unwrap_or_else(|| linear_k(variant, &games));
    net_train::lookahead_scores(&mut games, args.lookahead);
    let (data, skipped) =
        net_train::dataset(variant, &games, &detours, args.hold_out, args.settled);
    let check: Vec<selfplay::Record> = games
        .iter()
        .chain(&detours)
        .step_by(((games.len() + detours.len()) / 5000).max(1))
        .copied()
        .collect();
    drop((games, detours));
    if data.len() < 1000 {
        return Err(CliError(format!(
            "only {} positions: play more games",
            data.len()
        )));
    }
    eprintln!(
        "{} positions ({} held out, {skipped} skipped); k = {k:.3}; read in {:.0} s",
        data.len(),
        data.held_out(),
        started.elapsed().as_secs_f64()
    );
    let config = net_train::NetConfig {
        k,
        result_weight: args.result_weight,
        epochs: args.epochs,
        batch: args.batch,
        rate: args.rate,
        weight_decay: args.weight_decay.max(0.0),
        threads: args.threads,
        seed: args.seed,
    };
    let start = net_train::FloatNet::random(
        data.squares,
        args.hidden,
        args.buckets,
        args.activation,
        args.seed,
    );
    let before = net_train::held_out_loss(&data, &config, &start);
    eprintln!("held-out loss before the fit {before:.5}");
    let net = net_train::fit(&data, start, &config, |p| {
        eprintln!(
            "epoch {:3}: loss {:.5} (held out {:.5}) {:.0} s",
            p.epoch,
            p.train,
            p.validation,
            started.elapsed().as_secs_f64()
        );
    });
    let cp_per_unit = (100.0 / k) as f32;
    let network = net.quantize(variant, cp_per_unit);
    let (mean, max) = net_train::quantization_error(variant, &check, &net, &network, cp_per_unit);
    eprintln!(
        "integer network: {mean:.2} centi-men from the fitted one on average, {max:.1} at most \
         ({} positions)",
        check.len()
    );
    std::fs::write(&args.out, network.to_bytes())
        .map_err(|e| CliError(format!("{}: {e}", args.out.display())))?;
    println!("network written to {}", args.out.display());
    Ok(())
}

/// The `k` with which the built-in linear weights best predict the results of a sample of
/// `games` (1 if none is a legal position): the scale of a network fit for games without
/// search scores.
fn linear_k(variant: Variant, games: &[selfplay::Record]) -> f64 {
    use dama_engine::train;
    let sample: Vec<selfplay::Record> = games
        .iter()
        .step_by((games.len() / 200_000).max(1))
        .copied()
        .collect();
    let (sample, _) = train::dataset(variant, &sample, 0, Windows::Sparse);
    if sample.is_empty() {
        1.0
    } else {
        train::fit_k(&sample, &Weights::for_variant(variant))
    }
}

fn fit(args: FitArgs) -> Result<(), CliError> {
    use dama_engine::train;
    let variant: Variant = args.variant.parse()?;
    if args.epochs == 0 || args.threads == 0 || args.threads > 64 {
        return Err(CliError(
            "--epochs and --threads (at most 64) must be positive".into(),
        ));
    }
    if !(0.0..=1.0).contains(&args.result_weight) || args.rate <= 0.0 || args.l2 < 0.0 {
        return Err(CliError(
            "--result-weight must be in [0, 1], --rate positive, --l2 not negative".into(),
        ));
    }
    let played_in: Variant = match &args.data_variant {
        Some(v) => v.parse()?,
        None => variant,
    };
    if played_in.board() != variant.board() {
        return Err(CliError(format!(
            "--data-variant {} is played on another board than {}",
            played_in.key(),
            variant.key()
        )));
    }
    let init = match &args.init {
        None => None,
        Some(path) => {
            let model = Model::from_bytes(&read_eval_file(path)?)
                .map_err(|e| CliError(format!("{}: {e}", path.display())))?;
            if !train::can_start_from(variant, &model, args.windows) {
                return Err(CliError(format!(
                    "{}: its windows are not the first of the {} layout on {}'s board",
                    path.display(),
                    args.windows.key(),
                    variant.key()
                )));
            }
            Some(model)
        }
    };
    let started = Instant::now();
    let records = read_records(&args.data, played_in, args.max_positions, DataKind::Games)?;
    let (data, skipped) = train::dataset(variant, &records, args.hold_out, args.windows);
    drop(records);
    if data.len() < 1000 {
        return Err(CliError(format!(
            "only {} positions: play more games",
            data.len()
        )));
    }
    eprintln!(
        "{} positions ({} held out, {skipped} skipped), {} window tables; read in {:.0} s",
        data.len(),
        data.held_out(),
        data.tables,
        started.elapsed().as_secs_f64()
    );
    let start = Weights::for_variant(variant);
    let k = train::fit_k(&data, &start);
    let (lt, lv) = train::linear_loss(&data, &start, k);
    eprintln!("k = {k:.3}; built-in linear weights: loss {lt:.5} (held out {lv:.5})");
    let config = train::FitConfig {
        k,
        result_weight: args.result_weight,
        epochs: args.epochs,
        rate: args.rate,
        l2: args.l2,
        threads: args.threads,
    };
    let from = match &init {
        Some(model) => train::Start::Model(model),
        None => train::Start::Linear(&start),
    };
    let model = train::fit(&data, variant, from, &config, |p| {
        eprintln!(
            "epoch {:4}: loss {:.5} (held out {:.5}) {:.0} s",
            p.epoch,
            p.train,
            p.validation,
            started.elapsed().as_secs_f64()
        );
    });
    std::fs::write(&args.out, model.to_bytes())
        .map_err(|e| CliError(format!("{}: {e}", args.out.display())))?;
    println!("model written to {}", args.out.display());
    Ok(())
}

fn linear(args: LinearArgs) -> Result<(), CliError> {
    let variant: Variant = args.variant.parse()?;
    if args.games == 0 || args.games > 1_000_000 || args.nodes == 0 {
        return Err(CliError("--games and --nodes must be positive".into()));
    }
    let built_in = Weights::for_variant(variant);
    let start = match &args.start {
        None => built_in,
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| CliError(format!("{}: {e}", path.display())))?;
            tune::read_weights(&text, &built_in)
                .map_err(|e| CliError(format!("{}: {e}", path.display())))?
        }
    };
    let started = Instant::now();
    let games = args.games;
    let samples = tune::self_play(
        variant,
        games,
        args.nodes,
        args.random_plies,
        Some(start),
        args.seed,
        |g| {
            if g % 10 == 0 || g == games {
                eprint!(
                    "\rself-play: {g}/{games} games ({:.0} s)",
                    started.elapsed().as_secs_f64()
                );
            }
        },
    );
    eprintln!();
    if samples.len() < 100 {
        return Err(CliError(format!(
            "only {} positions: play more games",
            samples.len()
        )));
    }
    let k = tune::fit_k(&samples, &start);
    let before = tune::error(&samples, &start, k);
    let fitted = tune::fit(&samples, &start, k, args.epochs.clamp(1, 100_000));
    let after = tune::error(&samples, &fitted, k);
    println!(
        "{} positions from {games} games; k = {k:.3}; mean squared error {before:.5} -> {after:.5}",
        samples.len()
    );
    let text = tune::write_weights(&fitted);
    match &args.out {
        Some(path) => {
            std::fs::write(path, &text).map_err(|e| CliError(format!("{}: {e}", path.display())))?
        }
        None => print!("{text}"),
    }
    Ok(())
}
