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

/// The counters the draw rules read, as they stand after a ply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Counters {
    /// Plies since the last capture.
    no_capture: u32,
    /// Plies since the last capture or man move.
    kings_only: u32,
    /// Plies since the last capture or crowning.
    no_capture_or_crowning: u32,
    /// Identity of the endgame draw rule in force (see [`EndgameLimit::key`]).
    endgame_key: Option<u64>,
    /// Plies since that rule came into force.
    endgame_plies: u32,
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
        let rules = DrawRules::of(start.variant(), options);
        let mut game = Game {
            options,
            positions: vec![start],
            moves: Vec::new(),
            counters: vec![Counters {
                endgame_key: (rules.endgame)(&Material::of_any(&start)).map(|e| e.key),
                ..Counters::default()
            }],
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
        let rules = DrawRules::of(after.variant(), self.options);
        let endgame_key = (rules.endgame)(&Material::of_any(&after)).map(|e| e.key);
        let counters = Counters {
            no_capture: if m.is_capture() {
                0
            } else {
                prev.no_capture + 1
            },
            kings_only: if irreversible { 0 } else { prev.kings_only + 1 },
            no_capture_or_crowning: if m.is_capture() || m.promotes {
                0
            } else {
                prev.no_capture_or_crowning + 1
            },
            endgame_key,
            endgame_plies: if endgame_key.is_some() && endgame_key == prev.endgame_key {
                prev.endgame_plies + 1
            } else {
                0
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
        let reached = |limit: Option<u32>, count: u32| limit.is_some_and(|n| count >= n);
        if reached(rules.no_capture, c.no_capture)
            || reached(rules.no_capture_or_crowning, c.no_capture_or_crowning)
        {
            return draw(DrawReason::NoCapture);
        }
        if reached(rules.kings_only, c.kings_only) {
            return draw(DrawReason::KingMovesOnly);
        }
        if let Some(limit) = (rules.endgame)(&Material::of_any(pos)) {
            if Some(limit.key) == c.endgame_key && c.endgame_plies >= limit.plies {
                return draw(DrawReason::Endgame);
            }
        }
        None
    }
}

/// What the endgame draw rules look at: the material of both sides and whether each side has
/// a king on the long diagonal. Cheap to compute from any position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Material {
    /// `[white men, white kings, black men, black kings]`.
    pub counts: [u32; 4],
    /// Whether White (index 0) and Black (index 1) have a king on the long diagonal.
    pub long_diagonal_king: [bool; 2],
}

impl Material {
    /// The material of a position whose variant is known at run time.
    pub fn of_any(pos: &AnyPosition) -> Material {
        crate::with_rules!(pos.variant(), R => Material::of(&pos.to_position::<R>()))
    }

    /// The material of a typed position.
    #[inline]
    pub fn of<R: crate::Rules>(pos: &crate::Position<R>) -> Material {
        use crate::{Bitboard, Geometry};
        let kings = pos.kings();
        let side = |c: Color| {
            let all = pos.pieces(c);
            let k = all & kings;
            (
                (all & !kings).count(),
                k.count(),
                !(k & R::G::LONG_DIAGONAL).is_empty(),
            )
        };
        let (wm, wk, wd) = side(Color::White);
        let (bm, bk, bd) = side(Color::Black);
        Material {
            counts: [wm, wk, bm, bk],
            long_diagonal_king: [wd, bd],
        }
    }
}

/// An endgame draw rule in force: the game is drawn after `plies` plies (one ply = one player's
/// move) during which the rule stays in force with the same `key`. The count starts when the
/// rule comes into force and restarts whenever the key changes (for instance when a capture
/// turns one endgame into another).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndgameLimit {
    /// Plies allowed.
    pub plies: u32,
    /// What identifies this situation; a change restarts the count.
    pub key: u64,
}

/// The move-count draw rules of a variant, in plies (one ply = one player's move). Threefold
/// repetition applies to every variant and is not listed here.
#[derive(Clone, Copy, Debug)]
pub struct DrawRules {
    /// Draw after this many plies without a capture.
    pub no_capture: Option<u32>,
    /// Draw after this many plies without a capture or a man move.
    pub kings_only: Option<u32>,
    /// Draw after this many plies without a capture or a crowning.
    pub no_capture_or_crowning: Option<u32>,
    /// The endgame rule in force for the material on the board, if any.
    pub endgame: fn(&Material) -> Option<EndgameLimit>,
}

/// The (men, kings) of a side that has exactly one king and nothing else facing the other
/// side's (men, kings), if there is such a lone king.
fn against_lone_king(m: [u32; 4]) -> Option<(Color, u32, u32)> {
    let [wm, wk, bm, bk] = m;
    if bm == 0 && bk == 1 {
        Some((Color::White, wm, wk))
    } else if wm == 0 && wk == 1 {
        Some((Color::Black, bm, bk))
    } else {
        None
    }
}

fn material_key(m: [u32; 4]) -> u64 {
    m.iter().fold(0, |k, &n| k << 8 | n as u64)
}

fn no_endgame_rule(_: &Material) -> Option<EndgameLimit> {
    None
}

/// FMJD rules 6.3 and 6.4 (International, Brazilian, Canadian): three pieces including a king
/// against a lone king — 16 moves each; two pieces including a king, or one king, against a
/// lone king — 5 moves each. The count restarts only when one case turns into the other.
fn fmjd_endgame(m: &Material) -> Option<EndgameLimit> {
    let (_, men, kings) = against_lone_king(m.counts)?;
    match (men, kings) {
        (m, k) if k >= 1 && m + k <= 2 => Some(EndgameLimit { plies: 10, key: 5 }),
        (m, k) if k >= 1 && m + k == 3 => Some(EndgameLimit { plies: 32, key: 16 }),
        _ => None,
    }
}

/// `count` or more kings and nothing else against a lone king: drawn after `plies`.
fn kings_against_king(m: &Material, count: u32, plies: u32) -> Option<EndgameLimit> {
    let m = m.counts;
    match against_lone_king(m)? {
        (_, 0, kings) if kings >= count => Some(EndgameLimit {
            plies,
            key: material_key(m),
        }),
        _ => None,
    }
}

/// Russian (FMJD-64 rule 7.2.4): three or more kings against a lone king must capture it by
/// their 15th move.
fn russian_endgame(m: &Material) -> Option<EndgameLimit> {
    kings_against_king(m, 3, 30)
}

/// The Russian federation's draw rules (FMJD-64 rules 7.2.4–7.2.8), the option
/// [`GameOptions::russian_official_draws`].
fn russian_official_endgame(material: &Material) -> Option<EndgameLimit> {
    let m = material.counts;
    if let Some((strong, men, kings)) = against_lone_king(m) {
        if kings >= 1 && men + kings <= 2 {
            // 7.2.8: two kings, a king and a man, or a king against a king: 5 moves.
            return Some(EndgameLimit { plies: 10, key: 8 });
        }
        // The long diagonal is a1-h8 of the internal board: the main road of Russian draughts.
        if kings >= 1 && men + kings == 3 && material.long_diagonal_king[(!strong).index()] {
            // 7.2.7: three pieces with a king against a king holding the main road: 5 moves.
            return Some(EndgameLimit {
                plies: 10,
                key: 7 << 40 | material_key(m),
            });
        }
        if men == 0 && kings >= 3 {
            return russian_endgame(material);
        }
    }
    // 7.2.6: both sides have kings and the balance does not change: 30 moves with 4 or 5
    // pieces, 60 moves with 6 or 7.
    let [wm, wk, bm, bk] = m;
    let total = wm + wk + bm + bk;
    if wk > 0 && bk > 0 {
        let plies = match total {
            4 | 5 => 60,
            6 | 7 => 120,
            _ => return None,
        };
        return Some(EndgameLimit {
            plies,
            key: 6 << 40 | material_key(m),
        });
    }
    None
}

/// American pool: three kings against one must win within 13 moves (the "13-count", Black and
/// Waters, rule 31).
fn pool_endgame(m: &Material) -> Option<EndgameLimit> {
    kings_against_king(m, 3, 26)
}

/// Spanish and Portuguese: three kings against one, with a king of the stronger side on the
/// long diagonal, must win within 12 moves, counted from when the diagonal is taken.
fn iberian_endgame(m: &Material) -> Option<EndgameLimit> {
    let (strong, _, _) = against_lone_king(m.counts)?;
    let limit = kings_against_king(m, 3, 24)?;
    m.long_diagonal_king[strong.index()].then_some(limit)
}

/// Frisian: two kings against one must win within 7 moves; one king against one is drawn after
/// 2 moves each (how lidraughts applies the rule that such an ending is drawn unless one king
/// can be taken at once).
fn frisian_endgame(material: &Material) -> Option<EndgameLimit> {
    let m = material.counts;
    match against_lone_king(m)? {
        (_, 0, 2) => Some(EndgameLimit {
            plies: 14,
            key: material_key(m),
        }),
        (_, 0, 1) => Some(EndgameLimit {
            plies: 4,
            key: material_key(m),
        }),
        _ => None,
    }
}

impl DrawRules {
    /// The rules for a variant and options. Sources: FMJD rules (International family),
    /// FMJD-64 rules 7.2 (Russian family), WCDF rule 1.32 (English), FID technical rules
    /// art. 10.4 (Italian: 40 moves each without capture or man move), FPD rules 3.2
    /// (Portuguese: 20 moves each without capture or crowning; three kings against one),
    /// FMJD brief Czech rules (15 moves without capture or man move), APCA practice (pool).
    pub fn of(variant: Variant, options: GameOptions) -> DrawRules {
        use Variant::*;
        let none = DrawRules {
            no_capture: None,
            kings_only: None,
            no_capture_or_crowning: None,
            endgame: no_endgame_rule,
        };
        match variant {
            International | Brazilian | Canadian | Antidraughts => DrawRules {
                kings_only: Some(50),
                endgame: fmjd_endgame,
                ..none
            },
            Russian | DiagonalRussian | Spantsiretti | RussianGiveaway => {
                if options.russian_official_draws {
                    DrawRules {
                        kings_only: Some(30),
                        endgame: russian_official_endgame,
                        ..none
                    }
                } else {
                    DrawRules {
                        endgame: russian_endgame,
                        ..none
                    }
                }
            }
            English | Circassian => {
                if options.wcdf_forty_moves {
                    DrawRules {
                        kings_only: Some(80),
                        ..none
                    }
                } else {
                    DrawRules {
                        no_capture: Some(100),
                        ..none
                    }
                }
            }
            Pool => DrawRules {
                endgame: pool_endgame,
                ..none
            },
            Italian => DrawRules {
                kings_only: Some(80),
                ..none
            },
            Spanish => DrawRules {
                endgame: iberian_endgame,
                ..none
            },
            Portuguese => DrawRules {
                no_capture_or_crowning: Some(40),
                endgame: iberian_endgame,
                ..none
            },
            Czech => DrawRules {
                kings_only: Some(30),
                ..none
            },
            Frisian => DrawRules {
                endgame: frisian_endgame,
                ..none
            },
            German => none,
        }
    }
}
