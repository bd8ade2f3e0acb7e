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
    /// Print a JSON array of moves instead of text.
    #[arg(long)]
    json: bool,
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
    let pos = args.position.resolve()?;
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
