//! The `--variant`, `--fen` and `--play` options shared by several commands.

use crate::CliError;
use dama_core::{AnyPosition, Game, Variant};

/// Picks a variant and a position.
#[derive(Debug, clap::Args)]
pub struct PositionArgs {
    /// Variant key (russian, english, international, brazilian, ...).
    #[arg(long, short = 'v', default_value = "russian")]
    pub variant: String,
    /// Position in FEN (PDN 3.0), e.g. "W:W31-50:B1-20"; the start position if omitted.
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves to play first, separated by spaces (e.g. "c3-d4 f6-g5"); the command works on the
    /// position after them. Playing them through a game keeps what a FEN does not hold: the
    /// history for repetitions and Frisian's king-move counts.
    #[arg(long, value_name = "MOVES")]
    pub play: Option<String>,
}

impl PositionArgs {
    /// The game from the named start position through the `--play` moves.
    pub fn game(&self) -> Result<Game, CliError> {
        let variant: Variant = self.variant.parse()?;
        let start = match &self.fen {
            None => AnyPosition::start(variant),
            Some(fen) => AnyPosition::from_fen(variant, fen)
                .map_err(|e| CliError(format!("bad FEN for {variant}: {e}")))?,
        };
        let mut game = Game::from_position(start);
        for (i, text) in self
            .play
            .as_deref()
            .unwrap_or("")
            .split_whitespace()
            .enumerate()
        {
            let illegal = |e: &dyn std::fmt::Display| {
                CliError(format!("--play move {} '{text}': {e}", i + 1))
            };
            let m = dama_notation::move_text::parse_move(game.position(), text)
                .map_err(|e| illegal(&e))?;
            game.play(&m).map_err(|e| illegal(&e))?;
        }
        Ok(game)
    }

    /// The position named by the options (after the `--play` moves).
    pub fn resolve(&self) -> Result<AnyPosition, CliError> {
        Ok(*self.game()?.position())
    }
}
