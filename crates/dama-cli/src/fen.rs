//! `dama fen`: the canonical FEN of a position and a text diagram.

use crate::CliError;
use dama_core::{AnyPosition, Color, Naming, Piece, Role, Variant};
use std::fmt::Write as _;

/// Options of `dama fen`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Variant key (russian, english, international, ...).
    #[arg(long, short = 'v', default_value = "international")]
    variant: String,
    /// The position in FEN (PDN 3.0), e.g. "W:W31-50:B1-20".
    fen: String,
}

/// A diagram of the board as White sees it: `w`/`b` men, `W`/`B` kings, `.` empty playable
/// squares; ranks and files around it, and for numeric variants the numbers of each row.
pub fn diagram(pos: &AnyPosition) -> String {
    let v: Variant = pos.variant();
    let b = v.board();
    let mut out = String::new();
    for row in (0..b.height).rev() {
        let _ = write!(out, "{:>3} ", row + 1);
        let mut numbers = Vec::new();
        for display in 0..b.width {
            let col = if b.mirrored {
                b.width - 1 - display
            } else {
                display
            };
            let c = match v.square_at(col, row) {
                None => ' ',
                Some(sq) => {
                    numbers.extend(v.square_number(sq));
                    match pos.piece_at(sq) {
                        None => '.',
                        Some(Piece { color, role }) => match (color, role) {
                            (Color::White, Role::Man) => 'w',
                            (Color::White, Role::King) => 'W',
                            (Color::Black, Role::Man) => 'b',
                            (Color::Black, Role::King) => 'B',
                        },
                    }
                }
            };
            out.push(' ');
            out.push(c);
        }
        if matches!(v.naming(), Naming::Numeric(_)) {
            numbers.sort_unstable();
            if let (Some(lo), Some(hi)) = (numbers.first(), numbers.last()) {
                let _ = write!(out, "   {lo:>3}-{hi}");
            }
        }
        out.push('\n');
    }
    out.push_str("    ");
    for display in 0..b.width {
        out.push(' ');
        out.push(char::from(b'a' + display as u8));
    }
    out.push('\n');
    let side = match pos.side_to_move() {
        Color::White => "White",
        Color::Black => "Black",
    };
    let _ = writeln!(out, "{side} to move");
    out
}

pub fn run(args: Args) -> Result<(), CliError> {
    let variant: Variant = args.variant.parse()?;
    let pos = AnyPosition::from_fen(variant, &args.fen)
        .map_err(|e| CliError(format!("bad FEN for {variant}: {e}")))?;
    println!("{}", pos.fen());
    print!("{}", diagram(&pos));
    Ok(())
}
