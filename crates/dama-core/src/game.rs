//! Games: move history, repetition, draw rules, draw offers, resignation and the outcome.

use crate::any::AnyPosition;
use crate::moves::AnyMove;
use crate::types::{Color, Role};
use crate::variant::Variant;
use core::fmt;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OutcomeReason {
    /// The side to move has no pieces left.
    NoPieces,
    /// The side to move has pieces but no legal move.
    NoMoves,
    /// The same position occurred for the third time with the same side to move.
    Repetition,
    /// A move-count draw rule (see [`DrawReason`]).
    MoveLimit(DrawReason),
    /// The players agreed to a draw.
    Agreement,
    /// A player resigned.
    Resignation,
    /// A player ran out of time.
    Time,
}

/// Which move-count rule drew the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// Too many moves without a capture.
    NoCapture,
    /// Too many moves with only kings moving and no capture.
    KingMovesOnly,
    /// A drawn endgame balance (e.g. three kings against one) was not won in time.
    Endgame,
}

impl OutcomeReason {
    /// A short lower-case description ("no pieces", "move limit", ...).
    pub const fn description(self) -> &'static str {
        match self {
            OutcomeReason::NoPieces => "no pieces",
            OutcomeReason::NoMoves => "no moves",
            OutcomeReason::Repetition => "repetition",
            OutcomeReason::MoveLimit(_) => "move limit",
            OutcomeReason::Agreement => "agreement",
            OutcomeReason::Resignation => "resignation",
            OutcomeReason::Time => "time",
        }
    }
}

impl fmt::Display for OutcomeReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description())
    }
}

/// The end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: OutcomeReason,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(c) => write!(f, "{c} wins ({})", self.reason),
            None => write!(f, "draw ({})", self.reason),
        }
    }
}

/// Why a game action was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The game is over.
    GameOver,
    /// The move is not legal in the current position.
    IllegalMove,
    /// It is not this player's turn (for actions that need it).
    NotYourTurn,
    /// There is no draw offer from the opponent to accept or decline.
    NoDrawOffer,
    /// There is nothing to take back (or the game did not end by a move).
    NothingToUndo,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameError::GameOver => "the game is over",
            GameError::IllegalMove => "illegal move",
            GameError::NotYourTurn => "it is not your turn",
            GameError::NoDrawOffer => "there is no draw offer from the opponent",
            GameError::NothingToUndo => "there is no move to take back",
        })
    }
}

impl std::error::Error for GameError {}

/// Optional rules a game can be played under.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct GameOptions {
    /// Russian: also apply the federation's draw rules (kings-only moves, endgame move limits).
    pub russian_official_draws: bool,
    /// English: the tournament rule — a draw after 40 moves by each side without a capture or
    /// a man move — instead of the 50-move casual rule.
    pub wcdf_forty_moves: bool,
}

/// Material of both sides: `[white men, white kings, black men, black kings]`.
type Material = [u32; 4];

/// The counters the draw rules read, as they stand after a ply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Counters {
    /// Plies since the last capture.
    no_capture: u32,
    /// Plies since the last capture or man move.
    kings_only: u32,
    /// Plies since the material last changed.
    same_material: u32,
    /// Index in `positions` of the first position after the last irreversible move.
    reversible_from: usize,
}

/// A game: its start position, the moves played, the draw-rule counters, a pending draw offer
/// and, once it is over, the outcome.
#[derive(Clone, Debug)]
pub struct Game {
    options: GameOptions,
    /// Every position of the game, the start first; one more than `moves`.
    positions: Vec<AnyPosition>,
    moves: Vec<AnyMove>,
    /// The counters after each position (same length as `positions`).
    counters: Vec<Counters>,
    draw_offer: Option<Color>,
    outcome: Option<Outcome>,
}

impl Game {
    /// A new game from the variant's start position.
    pub fn new(variant: Variant) -> Self {
        Self::from_position(AnyPosition::start(variant))
    }

    /// A new game from any position, with default options.
    pub fn from_position(start: AnyPosition) -> Self {
        Self::with_options(start, GameOptions::default())
    }

    /// A new game from a position, with options.
    pub fn with_options(start: AnyPosition, options: GameOptions) -> Self {
        let mut game = Game {
            options,
            positions: vec![start],
            moves: Vec::new(),
            counters: vec![Counters::default()],
            draw_offer: None,
            outcome: None,
        };
        game.outcome = game.judge();
        game
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.position().variant()
    }

    /// The options.
    pub fn options(&self) -> GameOptions {
        self.options
    }

    /// The current position.
    pub fn position(&self) -> &AnyPosition {
        self.positions.last().expect("a game always has a position")
    }

    /// The start position.
    pub fn start_position(&self) -> &AnyPosition {
        &self.positions[0]
    }

    /// Every position, the start first.
    pub fn positions(&self) -> &[AnyPosition] {
        &self.positions
    }

    /// The moves played.
    pub fn moves(&self) -> &[AnyMove] {
        &self.moves
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The side with a pending draw offer.
    pub fn draw_offer(&self) -> Option<Color> {
        self.draw_offer
    }

    /// The legal moves now (none once the game is over).
    pub fn legal_moves(&self) -> Vec<AnyMove> {
        if self.is_over() {
            Vec::new()
        } else {
            self.position().legal_moves()
        }
    }

    /// Plays a move for the side to move.
    ///
    /// # Errors
    /// [`GameError::GameOver`] or [`GameError::IllegalMove`]; the game is unchanged.
    pub fn play(&mut self, m: &AnyMove) -> Result<(), GameError> {
        if self.is_over() {
            return Err(GameError::GameOver);
        }
        let before = *self.position();
        let after = before.play(m).map_err(|_| GameError::IllegalMove)?;
        let mover = before.side_to_move();
        let man_moved = before.piece_at(m.from).is_some_and(|p| p.role == Role::Man);
        let prev = *self.counters.last().expect("counters follow positions");
        let irreversible = m.is_capture() || man_moved;
        let material_changed = material(&before) != material(&after);
        let counters = Counters {
            no_capture: if m.is_capture() {
                0
            } else {
                prev.no_capture + 1
            },
            kings_only: if irreversible { 0 } else { prev.kings_only + 1 },
            same_material: if material_changed {
                0
            } else {
                prev.same_material + 1
            },
            reversible_from: if irreversible {
                self.positions.len()
            } else {
                prev.reversible_from
            },
        };
        self.positions.push(after);
        self.moves.push(*m);
        self.counters.push(counters);
        // An offer lapses when the offerer's opponent moves without accepting it.
        if self.draw_offer == Some(!mover) {
            self.draw_offer = None;
        }
        self.outcome = self.judge();
        Ok(())
    }

    /// Takes back the last move.
    ///
    /// # Errors
    /// [`GameError::NothingToUndo`] if no move was played or the game ended other than by a
    /// move (resignation, agreement, time).
    pub fn undo(&mut self) -> Result<AnyMove, GameError> {
        if self.moves.is_empty() {
            return Err(GameError::NothingToUndo);
        }
        if let Some(o) = self.outcome {
            if matches!(
                o.reason,
                OutcomeReason::Resignation | OutcomeReason::Agreement | OutcomeReason::Time
            ) {
                return Err(GameError::NothingToUndo);
            }
        }
        self.positions.pop();
        self.counters.pop();
        self.draw_offer = None;
        self.outcome = self.judge();
        self.moves.pop().ok_or(GameError::NothingToUndo)
    }

    /// `by` offers a draw. The offer stands until the opponent accepts or declines it, or
    /// lapses when the opponent moves.
    ///
    /// # Errors
    /// [`GameError::GameOver`].
    pub fn offer_draw(&mut self, by: Color) -> Result<(), GameError> {
        if self.is_over() {
            return Err(GameError::GameOver);
        }
        self.draw_offer = Some(by);
        Ok(())
    }

    /// `by` accepts the opponent's pending offer: the game is drawn.
    ///
    /// # Errors
    /// [`GameError::GameOver`], or [`GameError::NoDrawOffer`] if the opponent has not offered.
    pub fn accept_draw(&mut self, by: Color) -> Result<(), GameError> {
        if self.is_over() {
            return Err(GameError::GameOver);
        }
        if self.draw_offer != Some(!by) {
            return Err(GameError::NoDrawOffer);
        }
        self.draw_offer = None;
        self.outcome = Some(Outcome {
            winner: None,
            reason: OutcomeReason::Agreement,
        });
        Ok(())
    }

    /// `by` declines the opponent's pending offer.
    ///
    /// # Errors
    /// [`GameError::GameOver`], or [`GameError::NoDrawOffer`].
    pub fn decline_draw(&mut self, by: Color) -> Result<(), GameError> {
        if self.is_over() {
            return Err(GameError::GameOver);
        }
        if self.draw_offer != Some(!by) {
            return Err(GameError::NoDrawOffer);
        }
        self.draw_offer = None;
        Ok(())
    }

    /// `by` resigns: the opponent wins.
    ///
    /// # Errors
    /// [`GameError::GameOver`].
    pub fn resign(&mut self, by: Color) -> Result<(), GameError> {
        self.end(Outcome {
            winner: Some(!by),
            reason: OutcomeReason::Resignation,
        })
    }

    /// `who` ran out of time: the opponent wins.
    ///
    /// # Errors
    /// [`GameError::GameOver`].
    pub fn lose_on_time(&mut self, who: Color) -> Result<(), GameError> {
        self.end(Outcome {
            winner: Some(!who),
            reason: OutcomeReason::Time,
        })
    }

    fn end(&mut self, outcome: Outcome) -> Result<(), GameError> {
        if self.is_over() {
            return Err(GameError::GameOver);
        }
        self.draw_offer = None;
        self.outcome = Some(outcome);
        Ok(())
    }

    /// How many times the current position has occurred (with the same side to move).
    pub fn repetitions(&self) -> usize {
        let current = self.position();
        let from = self.counters.last().map_or(0, |c| c.reversible_from);
        self.positions[from..]
            .iter()
            .filter(|p| p.hash() == current.hash() && *p == current)
            .count()
    }

    /// Decides whether the current position ends the game.
    fn judge(&self) -> Option<Outcome> {
        let pos = self.position();
        let side = pos.side_to_move();
        let giveaway = pos.variant().is_giveaway();
        // Without pieces or moves the side to move loses (wins, in giveaway forms).
        let loser_wins = |reason| Outcome {
            winner: Some(if giveaway { side } else { !side }),
            reason,
        };
        if pos.setup().pieces(side).is_empty() {
            return Some(loser_wins(OutcomeReason::NoPieces));
        }
        if !pos.has_legal_move() {
            return Some(loser_wins(OutcomeReason::NoMoves));
        }
        if self.repetitions() >= 3 {
            return Some(Outcome {
                winner: None,
                reason: OutcomeReason::Repetition,
            });
        }
        let c = self.counters.last().copied().unwrap_or_default();
        let rules = DrawRules::of(pos.variant(), self.options);
        let draw = |reason| {
            Some(Outcome {
                winner: None,
                reason: OutcomeReason::MoveLimit(reason),
            })
        };
        if rules.no_capture.is_some_and(|n| c.no_capture >= n) {
            return draw(DrawReason::NoCapture);
        }
        if rules.kings_only.is_some_and(|n| c.kings_only >= n) {
            return draw(DrawReason::KingMovesOnly);
        }
        if let Some(n) = (rules.endgame)(material(pos)) {
            if c.same_material >= n {
                return draw(DrawReason::Endgame);
            }
        }
        None
    }
}

fn material(pos: &AnyPosition) -> Material {
    let s = pos.setup();
    let count = |set: crate::SquareSet| set.len() as u32;
    let wk = count(s.white & s.kings);
    let bk = count(s.black & s.kings);
    [count(s.white) - wk, wk, count(s.black) - bk, bk]
}

/// The move-count draw rules of a variant, in plies (one ply = one player's move).
#[derive(Clone, Copy, Debug)]
pub struct DrawRules {
    /// Draw after this many plies without a capture.
    pub no_capture: Option<u32>,
    /// Draw after this many plies without a capture or a man move.
    pub kings_only: Option<u32>,
    /// For the material on the board, the plies after which it is drawn if unchanged.
    pub endgame: fn(Material) -> Option<u32>,
}

fn no_endgame_rule(_: Material) -> Option<u32> {
    None
}

/// FMJD rules 6.3 and 6.4: three kings, two kings and a man, or a king and two men against a
/// lone king — 16 moves each; two kings, a king and a man, or a king against a lone king — 5
/// moves each.
fn fmjd_endgame(m: Material) -> Option<u32> {
    let lone_king = |men: u32, kings: u32| men == 0 && kings == 1;
    let [wm, wk, bm, bk] = m;
    let strong = if lone_king(bm, bk) {
        (wm, wk)
    } else if lone_king(wm, wk) {
        (bm, bk)
    } else {
        return None;
    };
    match strong {
        (men, kings) if kings >= 1 && men + kings <= 2 => Some(10),
        (men, kings) if kings >= 1 && men + kings == 3 => Some(32),
        _ => None,
    }
}

/// Russian: three or more kings against a lone king must win within 15 moves.
fn russian_endgame(m: Material) -> Option<u32> {
    let [wm, wk, bm, bk] = m;
    let lone = |men: u32, kings: u32| men == 0 && kings == 1;
    if (lone(bm, bk) && wm == 0 && wk >= 3) || (lone(wm, wk) && bm == 0 && bk >= 3) {
        Some(30)
    } else {
        None
    }
}

impl DrawRules {
    /// The rules for a variant and options.
    pub fn of(variant: Variant, options: GameOptions) -> DrawRules {
        use Variant::*;
        match variant {
            International | Brazilian | Canadian => DrawRules {
                no_capture: None,
                kings_only: Some(50),
                endgame: fmjd_endgame,
            },
            Russian | DiagonalRussian | Spantsiretti => DrawRules {
                no_capture: None,
                kings_only: options.russian_official_draws.then_some(30),
                endgame: russian_endgame,
            },
            English | Circassian => DrawRules {
                no_capture: (!options.wcdf_forty_moves).then_some(100),
                kings_only: options.wcdf_forty_moves.then_some(80),
                endgame: no_endgame_rule,
            },
            _ => DrawRules {
                no_capture: None,
                kings_only: None,
                endgame: no_endgame_rule,
            },
        }
    }
}
