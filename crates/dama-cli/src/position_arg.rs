//! The `--variant` and `--fen` options shared by several commands.

use crate::CliError;
use dama_core::{AnyPosition, Variant};

/// Picks a variant and a position.
#[derive(Debug, clap::Args)]
pub struct PositionArgs {
    /// Variant key (russian, english, international, brazilian, ...).
    #[arg(long, short = 'v', default_value = "russian")]
    pub variant: String,
    /// Position in FEN (PDN 3.0), e.g. "W:W31-50:B1-20"; the start position if omitted.
    #[arg(long)]
    pub fen: Option<String>,
}

impl PositionArgs {
    /// The variant and position named by the options.
    pub fn resolve(&self) -> Result<AnyPosition, CliError> {
        let variant: Variant = self.variant.parse()?;
        match &self.fen {
            None => Ok(AnyPosition::start(variant)),
            Some(fen) => AnyPosition::from_fen(variant, fen)
                .map_err(|e| CliError(format!("bad FEN for {variant}: {e}"))),
        }
    }
}

/// The game that plays `moves` (text separated by spaces, in the variant's notation) from
/// `start`; no moves give the game at `start`.
pub fn play_moves(start: AnyPosition, moves: Option<&str>) -> Result<dama_core::Game, CliError> {
    let mut game = dama_core::Game::from_position(start);
    for (i, text) in moves.unwrap_or("").split_whitespace().enumerate() {
        let m = dama_notation::move_text::parse_move(game.position(), text)
            .map_err(|e| CliError(format!("--play move {} '{text}': {e}", i + 1)))?;
        game.play(&m)
            .map_err(|e| CliError(format!("--play move {} '{text}': {e}", i + 1)))?;
    }
    Ok(game)
}
