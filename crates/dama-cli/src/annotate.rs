//! `dama annotate`: searches every position of games and writes them back with the engine's
//! score after each move, marking the moves that lose ground against the best one (`?` a
//! mistake, `??` a blunder) and naming the better move.

use crate::CliError;
use dama_core::{AnyMove, AnyPosition, Color, Game as Played, Variant};
use dama_engine::{Engine, EngineOptions, Limits, Score};
use dama_notation::pdn::{self, Game, Node, ReplayOptions};
use dama_notation::write_move;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Options of `dama annotate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// PDN files, or JSON files whose string values are PDN games.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Variant of games without a GameType tag.
    #[arg(long, short = 'v', default_value = "international")]
    variant: String,
    /// Search time a position, in seconds (default: 1 when no depth or node limit is given).
    #[arg(long, short = 't')]
    time: Option<f64>,
    /// Search depth a position, in plies.
    #[arg(long, short = 'd', value_parser = clap::value_parser!(u32).range(1..=100))]
    depth: Option<u32>,
    /// Node limit a position.
    #[arg(long)]
    nodes: Option<u64>,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    #[command(flatten)]
    endgame: crate::endgame::EndgameOptions,
    /// A move that scores at least this many men below the best move is a mistake (`?`).
    #[arg(long, default_value_t = 0.5)]
    mistake: f64,
    /// A move that scores at least this many men below the best move, or that gives up a
    /// forced win or walks into a forced loss, is a blunder (`??`).
    #[arg(long, default_value_t = 1.5)]
    blunder: f64,
    /// Write the annotated games here instead of standard output.
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
}

/// What a played move cost, against the best move of the position before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// The best move, or one within the mistake margin.
    Good,
    /// At least the mistake margin worse.
    Mistake,
    /// At least the blunder margin worse, or a forced win given up, or a forced loss entered.
    Blunder,
}

impl Verdict {
    fn mark(self) -> Option<&'static str> {
        match self {
            Verdict::Good => None,
            Verdict::Mistake => Some("?"),
            Verdict::Blunder => Some("??"),
        }
    }
}

/// Judges a move from the score of the position before it (the mover's view, with the best
/// move) and of the position after it (the opponent's view). `mistake` and `blunder` are in
/// hundredths of a man.
pub(crate) fn judge(before: Score, after: Score, mistake: i32, blunder: i32) -> Verdict {
    let played = after.flip();
    let thrown = matches!(before, Score::Win(_)) && !matches!(played, Score::Win(_));
    let entered = matches!(played, Score::Loss(_)) && !matches!(before, Score::Loss(_));
    if thrown || entered {
        return Verdict::Blunder;
    }
    if before.is_decisive() || played.is_decisive() {
        // Both wins (a slower one is no mistake) or both losses (nothing better existed).
        return Verdict::Good;
    }
    let loss = before.to_internal() - played.to_internal();
    if loss >= blunder {
        Verdict::Blunder
    } else if loss >= mistake {
        Verdict::Mistake
    } else {
        Verdict::Good
    }
}

/// A score from White's side.
fn white_view(score: Score, to_move: Color) -> Score {
    match to_move {
        Color::White => score,
        Color::Black => score.flip(),
    }
}

/// The engine's view of one position of a game.
struct Judged {
    /// Score for the side to move.
    score: Score,
    /// The best move found (`None` at the end of the game).
    best: Option<AnyMove>,
    /// The position.
    pos: AnyPosition,
}

/// Moves judged and marked, of White (index 0) and Black.
#[derive(Clone, Copy, Default)]
struct Marks {
    moves: usize,
    mistakes: [usize; 2],
    blunders: [usize; 2],
}

impl Marks {
    fn add(&mut self, other: Marks) {
        self.moves += other.moves;
        for i in 0..2 {
            self.mistakes[i] += other.mistakes[i];
            self.blunders[i] += other.blunders[i];
        }
    }
}

pub fn run(args: Args) -> Result<(), CliError> {
    let variant: Variant = args.variant.parse()?;
    let limits =
        crate::analyse::search_limits(args.depth, args.nodes, args.time, Duration::from_secs(1))?;
    let margin = |men: f64, name: &str| {
        if men.is_finite() && men > 0.0 && men <= 100.0 {
            Ok((men * 100.0).round() as i32)
        } else {
            Err(CliError(format!(
                "--{name} must be more than 0 and at most 100 men"
            )))
        }
    };
    let (mistake, blunder) = (
        margin(args.mistake, "mistake")?,
        margin(args.blunder, "blunder")?,
    );
    if blunder < mistake {
        return Err(CliError("--blunder must not be below --mistake".into()));
    }
    let mut out = crate::pdn::create_output(args.output.as_deref())?;
    let mut engine = Engine::new(EngineOptions {
        threads: args.threads as usize,
        hash_mb: args.hash,
        endgame_pieces: args.endgame.apply(),
        ..EngineOptions::default()
    });
    let opts = ReplayOptions {
        default_variant: variant,
        variations: false,
        keep_moves: true,
    };
    let annotator = format!(
        "dama {} ({})",
        env!("CARGO_PKG_VERSION"),
        budget_text(&limits)
    );
    let started = Instant::now();
    let (mut games, mut skipped, mut total) = (0usize, 0usize, Marks::default());
    for path in &args.files {
        let name = path.display().to_string();
        for (index, game) in crate::shots::read_games(path)?.into_iter().enumerate() {
            let label = format!("{name} game {}", index + 1);
            let mut game = match game {
                Ok(g) if g.is_empty() => continue,
                Ok(g) => g,
                Err(e) => {
                    eprintln!("{name}:{e}: skipped");
                    skipped += 1;
                    continue;
                }
            };
            let replayed = match pdn::replay(&game, &opts) {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("{name}:{e} ({label}): written unchanged");
                    skipped += 1;
                    pdn::write_game(&mut out, &game)?;
                    continue;
                }
            };
            engine.new_game();
            let judged = judge_game(
                &mut engine,
                &limits,
                replayed.start,
                &replayed.moves,
                &label,
            );
            let marks = annotate(&mut game, &judged, &replayed.moves, mistake, blunder);
            game.set_tag("Annotator", annotator.clone());
            pdn::write_game(&mut out, &game)?;
            out.flush()?;
            games += 1;
            total.add(marks);
            eprintln!(
                "{label}: {} moves; White {} mistakes, {} blunders; Black {} mistakes, {} blunders",
                marks.moves,
                marks.mistakes[0],
                marks.blunders[0],
                marks.mistakes[1],
                marks.blunders[1],
            );
        }
    }
    eprintln!(
        "{} games annotated ({} skipped), {} moves, {} mistakes, {} blunders, {:.1} s",
        games,
        skipped,
        total.moves,
        total.mistakes.iter().sum::<usize>(),
        total.blunders.iter().sum::<usize>(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn budget_text(limits: &Limits) -> String {
    let mut parts = Vec::new();
    if let Some(d) = limits.depth {
        parts.push(format!("depth {d}"));
    }
    if let Some(n) = limits.nodes {
        parts.push(format!("{n} nodes"));
    }
    if let Some(t) = limits.move_time {
        parts.push(format!("{} s", t.as_secs_f64()));
    }
    parts.join(", ") + " a position"
}

/// Searches every position of the main line, the start first and the end last (the end is
/// scored from the game's outcome when the rules ended it). Stops early at a move the game
/// record cannot take (after the rules ended the game).
fn judge_game(
    engine: &mut Engine,
    limits: &Limits,
    start: AnyPosition,
    moves: &[AnyMove],
    label: &str,
) -> Vec<Judged> {
    let mut game = Played::from_position(start);
    let mut judged = Vec::with_capacity(moves.len() + 1);
    let progress = io::stderr().is_terminal();
    for ply in 0..=moves.len() {
        if ply > 0 && game.play(&moves[ply - 1]).is_err() {
            eprintln!("{label}: the game is over before ply {ply}; the rest is not annotated");
            break;
        }
        if progress {
            eprint!("\r{label}: ply {ply}/{}", moves.len());
        }
        let pos = *game.position();
        let to_move = pos.side_to_move();
        let entry = match game.outcome() {
            Some(o) => Judged {
                score: match o.winner {
                    None => Score::Eval(0),
                    Some(c) if c == to_move => Score::Win(0),
                    Some(_) => Score::Loss(0),
                },
                best: None,
                pos,
            },
            None => {
                engine.set_game(&game);
                engine.wait_for_endgame_database();
                let r = engine.search(*limits, |_| {});
                Judged {
                    score: r.score,
                    best: r.best_move,
                    pos,
                }
            }
        };
        judged.push(entry);
    }
    if progress {
        eprint!("\r{:70}\r", "");
    }
    judged
}

/// Writes the judgement into the game: after each main-line move a comment with the score
/// from White's side; a mistake or blunder also gets its mark (unless the move has one) and
/// the better move with its score. Returns what it marked.
fn annotate(
    game: &mut Game,
    judged: &[Judged],
    moves: &[AnyMove],
    mistake: i32,
    blunder: i32,
) -> Marks {
    let mut marks = Marks::default();
    let mut body = Vec::with_capacity(game.body.len() * 2);
    let mut ply = 0;
    for node in std::mem::take(&mut game.body) {
        let Node::Move(mut mv) = node else {
            body.push(node);
            continue;
        };
        let (Some(before), Some(after)) = (judged.get(ply), judged.get(ply + 1)) else {
            body.push(Node::Move(mv));
            ply += 1;
            continue;
        };
        let verdict = if before.best.as_ref() == moves.get(ply) {
            Verdict::Good
        } else {
            judge(before.score, after.score, mistake, blunder)
        };
        let side = usize::from(before.pos.side_to_move() == Color::Black);
        match verdict {
            Verdict::Good => {}
            Verdict::Mistake => marks.mistakes[side] += 1,
            Verdict::Blunder => marks.blunders[side] += 1,
        }
        marks.moves += 1;
        if let (Some(mark), None) = (verdict.mark(), &mv.strength) {
            mv.strength = Some(mark.into());
        }
        let mut comment = white_view(after.score, after.pos.side_to_move()).to_string();
        if let (true, Some(best)) = (verdict != Verdict::Good, &before.best) {
            comment += &format!(
                "; better {} {}",
                write_move(&before.pos, best),
                white_view(before.score, before.pos.side_to_move())
            );
        }
        body.push(Node::Move(mv));
        body.push(Node::Comment(comment));
        ply += 1;
    }
    game.body = body;
    marks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_judged_by_what_they_lose() {
        let j = |before, after| judge(before, after, 50, 150);
        // The opponent's view after the move: +0.30 for them is −0.30 for the mover.
        assert_eq!(j(Score::Eval(10), Score::Eval(30)), Verdict::Good);
        assert_eq!(j(Score::Eval(10), Score::Eval(60)), Verdict::Mistake);
        assert_eq!(j(Score::Eval(10), Score::Eval(140)), Verdict::Blunder);
        // Better than the search before it expected: no mark.
        assert_eq!(j(Score::Eval(-200), Score::Eval(-20)), Verdict::Good);
        // A win given up, a loss walked into.
        assert_eq!(j(Score::Win(9), Score::Eval(-300)), Verdict::Blunder);
        assert_eq!(j(Score::Eval(-100), Score::Win(12)), Verdict::Blunder);
        // A slower win, a quicker loss when every move loses: no mark.
        assert_eq!(j(Score::Win(5), Score::Loss(12)), Verdict::Good);
        assert_eq!(j(Score::Loss(20), Score::Win(4)), Verdict::Good);
        // A win found that the search before missed.
        assert_eq!(j(Score::Eval(30), Score::Loss(8)), Verdict::Good);
    }

    #[test]
    fn scores_are_written_from_whites_side() {
        assert_eq!(white_view(Score::Eval(25), Color::White), Score::Eval(25));
        assert_eq!(white_view(Score::Eval(25), Color::Black), Score::Eval(-25));
        assert_eq!(white_view(Score::Win(3), Color::Black), Score::Loss(3));
    }
}
