//! `dama moves`.

use crate::position_arg::PositionArgs;
use crate::CliError;
use dama_core::{AnyPosition, Naming, Square};
use dama_notation::write_move;
use serde_json::{json, Value};

/// Options of `dama moves`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
    /// Moves to play first, separated by spaces (e.g. "c3-d4 f6-g5"); the legal moves are
    /// listed after them. Playing them through a game keeps state that FEN does not hold,
    /// such as Frisian's king-move counts.
    #[arg(long, value_name = "MOVES")]
    play: Option<String>,
    /// Print a JSON array of moves instead of text.
    #[arg(long)]
    json: bool,
}

/// The position after playing `moves` from `start`.
fn play_moves(start: AnyPosition, moves: &str) -> Result<AnyPosition, CliError> {
    let mut game = dama_core::Game::from_position(start);
    for (i, text) in moves.split_whitespace().enumerate() {
        let m = dama_notation::move_text::parse_move(game.position(), text)
            .map_err(|e| CliError(format!("--play move {} '{text}': {e}", i + 1)))?;
        game.play(&m)
            .map_err(|e| CliError(format!("--play move {} '{text}': {e}", i + 1)))?;
    }
    Ok(*game.position())
}

/// A square as JSON: a number for numeric variants, a name such as "c3" for algebraic ones.
fn square_json(pos: &AnyPosition, sq: Square) -> Value {
    let v = pos.variant();
    match v.naming() {
        Naming::Numeric(_) => v.square_number(sq).map_or(Value::Null, Value::from),
        Naming::Algebraic => Value::from(v.square_name(sq)),
    }
}

pub fn run(args: Args) -> Result<(), CliError> {
    let mut pos = args.position.resolve()?;
    if let Some(moves) = &args.play {
        pos = play_moves(pos, moves)?;
    }
    let mut moves: Vec<_> = pos
        .legal_moves()
        .into_iter()
        .map(|m| (write_move(&pos, &m), m))
        .collect();
    moves.sort_by(|a, b| a.0.cmp(&b.0));
    if !args.json {
        for (text, _) in &moves {
            println!("{text}");
        }
        return Ok(());
    }
    let list: Vec<Value> = moves
        .iter()
        .map(|(text, m)| {
            let paths = pos.paths(m);
            let path_json = |p: &Vec<Square>| {
                Value::from(p.iter().map(|&s| square_json(&pos, s)).collect::<Vec<_>>())
            };
            let mut obj = json!({
                "notation": text,
                "from": square_json(&pos, m.from),
                "to": square_json(&pos, m.to),
                "captured": m.captured.iter().map(|s| square_json(&pos, s)).collect::<Vec<_>>(),
                "path": paths.first().map_or(Value::Null, path_json),
            });
            if paths.len() > 1 {
                obj["paths"] = paths.iter().map(path_json).collect();
            }
            obj
        })
        .collect();
    println!("{}", Value::from(list));
    Ok(())
}
