//! What clients see of a game: JSON views of variants, positions, legal moves and history.
//!
//! Squares are always named as the variant names them (`"c3"` or `"22"`); each variant's view
//! lists its squares with display coordinates, so the browser can draw any board without
//! knowing the rules.

use crate::state::{GameState, Mode, Ply, Role, Side, Status, TimeControl};
use dama_core::{AnyMove, AnyPosition, Color, Naming, OutcomeReason, Square, Variant};
use serde::Serialize;

/// A playable square and where to draw it.
#[derive(Clone, Debug, Serialize)]
pub struct SquareView {
    /// Its name.
    pub name: String,
    /// Column from White's left, 0-based.
    pub x: u32,
    /// Row from White's side, 0-based.
    pub y: u32,
}

/// A variant as the UI needs it.
#[derive(Clone, Debug, Serialize)]
pub struct VariantView {
    /// Key (`russian`).
    pub key: &'static str,
    /// English name (the UI shows its own translated name from the message files).
    pub name: &'static str,
    /// Board width.
    pub width: u32,
    /// Board height.
    pub height: u32,
    /// `algebraic` or `numeric`.
    pub naming: &'static str,
    /// Who moves first.
    pub first: Side,
    /// PDN GameType.
    pub game_type: u8,
    /// Whether the player who cannot move wins.
    pub giveaway: bool,
    /// The playable squares.
    pub squares: Vec<SquareView>,
    /// The start position.
    pub start_fen: String,
}

impl VariantView {
    /// The view of a variant.
    pub fn of(variant: Variant) -> Self {
        let board = variant.board();
        let squares = variant
            .squares()
            .filter_map(|sq| {
                let (col, row) = variant.coords(sq)?;
                let x = if board.mirrored {
                    board.width - 1 - col
                } else {
                    col
                };
                Some(SquareView {
                    name: variant.square_name(sq),
                    x,
                    y: row,
                })
            })
            .collect();
        VariantView {
            key: variant.key(),
            name: variant.name(),
            width: board.width,
            height: board.height,
            naming: match variant.naming() {
                Naming::Algebraic => "algebraic",
                Naming::Numeric(_) => "numeric",
            },
            first: variant.first_player().into(),
            game_type: variant.game_type(),
            giveaway: variant.is_giveaway(),
            squares,
            start_fen: AnyPosition::start(variant).fen(),
        }
    }
}

/// A legal move with every path by which it can be made.
#[derive(Clone, Debug, Serialize)]
pub struct LegalView {
    /// Start square.
    pub from: String,
    /// End square.
    pub to: String,
    /// Captured pieces.
    pub captured: Vec<String>,
    /// Each path: start, landing squares, end.
    pub paths: Vec<Vec<String>>,
    /// The move's text.
    pub notation: String,
}

/// Names of a list of squares.
pub fn names(variant: Variant, squares: impl IntoIterator<Item = Square>) -> Vec<String> {
    squares
        .into_iter()
        .map(|s| variant.square_name(s))
        .collect()
}

/// The legal moves of a position, each with its paths.
pub fn legal_views(pos: &AnyPosition, legal: &[AnyMove]) -> Vec<LegalView> {
    let variant = pos.variant();
    legal
        .iter()
        .map(|m| {
            let paths = if m.is_capture() {
                pos.paths(m)
            } else {
                vec![vec![m.from, m.to]]
            };
            LegalView {
                from: variant.square_name(m.from),
                to: variant.square_name(m.to),
                captured: names(variant, m.captured.iter()),
                paths: paths.into_iter().map(|p| names(variant, p)).collect(),
                notation: dama_notation::write_move(pos, m),
            }
        })
        .collect()
}

/// A move of the game's history.
#[derive(Clone, Debug, Serialize)]
pub struct PlyView {
    /// Text in the variant's notation.
    pub notation: String,
    /// Path chosen.
    pub path: Vec<String>,
    /// Pieces taken.
    pub captured: Vec<String>,
    /// Who moved.
    pub color: Side,
    /// Position after the move.
    pub fen: String,
}

impl PlyView {
    /// The view of a ply.
    pub fn of(variant: Variant, ply: &Ply) -> Self {
        PlyView {
            notation: ply.notation.clone(),
            path: names(variant, ply.path.iter().copied()),
            captured: names(variant, ply.m.captured.iter()),
            color: ply.color.into(),
            fen: ply.fen_after.clone(),
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, Serialize)]
pub struct OutcomeView {
    /// The winner, `null` for a draw.
    pub winner: Option<Side>,
    /// Reason code: `no_pieces`, `no_moves`, `repetition`, `no_capture_limit`,
    /// `kings_only_limit`, `endgame_limit`, `agreement`, `resignation`, `time`.
    pub reason: &'static str,
}

/// The reason code of an outcome.
pub fn reason_code(reason: OutcomeReason) -> &'static str {
    use dama_core::DrawReason;
    match reason {
        OutcomeReason::NoPieces => "no_pieces",
        OutcomeReason::NoMoves => "no_moves",
        OutcomeReason::Repetition => "repetition",
        OutcomeReason::MoveLimit(DrawReason::NoCapture) => "no_capture_limit",
        OutcomeReason::MoveLimit(DrawReason::KingMovesOnly) => "kings_only_limit",
        OutcomeReason::MoveLimit(DrawReason::Endgame) => "endgame_limit",
        OutcomeReason::Agreement => "agreement",
        OutcomeReason::Resignation => "resignation",
        OutcomeReason::Time => "time",
    }
}

/// A seat as everybody sees it.
#[derive(Clone, Debug, Serialize)]
pub struct SeatView {
    /// Display name (empty if none given).
    pub name: String,
    /// Played by the computer.
    pub computer: bool,
    /// The computer's level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
}

/// Clock state.
#[derive(Clone, Debug, Serialize)]
pub struct ClockView {
    /// White's remaining time, ms.
    pub white_ms: u64,
    /// Black's remaining time, ms.
    pub black_ms: u64,
    /// Whose clock is running (its figure is as of the moment this was sent).
    pub running: Option<Side>,
}

/// Everything that changes as the game goes on; sent with every event.
#[derive(Clone, Debug, Serialize)]
pub struct LiveView {
    /// Version: number of events so far.
    pub v: u64,
    /// Version at which the position last changed.
    pub pv: u64,
    /// Number of moves played.
    pub ply: usize,
    /// Current position.
    pub fen: String,
    /// Side to move.
    pub turn: Side,
    /// `waiting`, `active` or `finished`.
    pub status: Status,
    /// Legal moves (empty unless active).
    pub legal: Vec<LegalView>,
    /// Whether a capture is compulsory now.
    pub must_capture: bool,
    /// The outcome, once over.
    pub outcome: Option<OutcomeView>,
    /// Who offers a draw.
    pub draw_offer: Option<Side>,
    /// Who asks for a rematch.
    pub rematch_offer: Option<Side>,
    /// The rematch game's id.
    pub rematch: Option<String>,
    /// Clocks, when the game has a time control.
    pub clock: Option<ClockView>,
    /// White's and Black's seats (`null` while free).
    pub seats: [Option<SeatView>; 2],
    /// The computer is thinking.
    pub thinking: bool,
}

/// The live view of a game. `clock_now` is the clock as of now (running side's time already
/// reduced by the time it has been thinking).
pub fn live_view(state: &GameState, clock_now: Option<[u64; 2]>, thinking: bool) -> LiveView {
    let pos = state.position();
    let status = state.status();
    let legal = if status == Status::Active {
        state.game.legal_moves()
    } else {
        Vec::new()
    };
    let seat = |c: Color| -> Option<SeatView> {
        if state.is_computer(c) {
            Some(SeatView {
                name: String::new(),
                computer: true,
                level: state.settings.level,
            })
        } else {
            state.seats[c.index()].as_ref().map(|s| SeatView {
                name: s.name.clone(),
                computer: false,
                level: None,
            })
        }
    };
    let running = (status == Status::Active && clock_runs(state)).then(|| pos.side_to_move());
    LiveView {
        v: state.version,
        pv: state.position_version,
        ply: state.plies.len(),
        fen: pos.fen(),
        turn: pos.side_to_move().into(),
        status,
        must_capture: legal.iter().any(|m| m.is_capture()),
        legal: legal_views(pos, &legal),
        outcome: state.game.outcome().map(|o| OutcomeView {
            winner: o.winner.map(Side::from),
            reason: reason_code(o.reason),
        }),
        draw_offer: state.game.draw_offer().map(Side::from),
        rematch_offer: state.rematch_offer.map(Side::from),
        rematch: state.rematch.clone(),
        clock: clock_now.map(|c| ClockView {
            white_ms: c[0],
            black_ms: c[1],
            running: running.map(Side::from),
        }),
        seats: [seat(Color::White), seat(Color::Black)],
        thinking,
    }
}

/// Whether the side to move's clock is running: clocks start once each side has moved.
pub fn clock_runs(state: &GameState) -> bool {
    state.clock.is_some() && state.plies.len() >= 2 && !state.game.is_over()
}

/// Everything about a game: sent when a client joins or resyncs.
#[derive(Clone, Debug, Serialize)]
pub struct SnapshotView {
    /// Protocol version.
    pub protocol: u32,
    /// Game id.
    pub id: String,
    /// The variant.
    pub variant: VariantView,
    /// How it is played.
    pub mode: Mode,
    /// Time control.
    pub time_control: Option<TimeControl>,
    /// Start position.
    pub start_fen: String,
    /// The moves played.
    pub plies: Vec<PlyView>,
    /// The current state.
    pub live: LiveView,
    /// The seats this connection plays, `null` for a spectator.
    pub role: Option<Role>,
    /// The game this is a rematch of.
    pub rematch_of: Option<String>,
    /// Creation time (ms since the epoch).
    pub created_ms: i64,
}

/// The full view of a game for a connection with `role`.
pub fn snapshot_view(state: &GameState, live: LiveView, role: Option<Role>) -> SnapshotView {
    let variant = state.variant();
    SnapshotView {
        protocol: crate::protocol::PROTOCOL_VERSION,
        id: state.id.clone(),
        variant: VariantView::of(variant),
        mode: state.settings.mode,
        time_control: state.settings.time_control,
        start_fen: state.game.start_position().fen(),
        plies: state
            .plies
            .iter()
            .map(|p| PlyView::of(variant, p))
            .collect(),
        live,
        role,
        rematch_of: state.settings.rematch_of.clone(),
        created_ms: state.created_ms,
    }
}
