//! The WebSocket protocol: tagged JSON messages.
//!
//! A client connects to `/ws/{game}` and sends `hello` (with its seat token, if it has one).
//! The server answers with a `snapshot` of the whole game, then sends an `event` for every
//! change. Each event carries the game's version `v` (the number of events so far) and the new
//! live state; a client that sees a gap in the versions (or reconnects) sends `sync` or a new
//! `hello` and gets a fresh snapshot. Actions carry a client-chosen `id`; the server answers
//! each with `ack` (the version that recorded it) or `error`.
//!
//! ```text
//! -> {"type":"hello","token":"…"}
//! <- {"type":"snapshot","game":{…,"live":{"v":2,…}}}
//! -> {"type":"move","id":1,"v":2,"path":["c3","d4"]}
//! <- {"type":"event","v":3,"event":{"kind":"moved","ply":{…}},"live":{…}}
//! <- {"type":"ack","id":1,"v":3}
//! ```

use crate::explain::Illegal;
use crate::state::{Record, Side};
use crate::view::{LiveView, PlyView, SnapshotView};
use serde::{Deserialize, Serialize};

/// The protocol's version, sent in every snapshot.
pub const PROTOCOL_VERSION: u32 = 1;

/// Largest message a client may send, bytes.
pub const MAX_CLIENT_MESSAGE: usize = 8 * 1024;

/// A message from a client.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// Join the game (first message). With a seat token, as that player; without, as a
    /// spectator.
    Hello {
        /// The seat token.
        #[serde(default)]
        token: Option<String>,
    },
    /// Play a move.
    Move {
        /// Client's id for the acknowledgement.
        id: u64,
        /// The version the client's board shows; a move made on a position that has changed
        /// since is refused as `stale`.
        v: u64,
        /// Start square, landing squares, end square (at least start and end).
        path: Vec<String>,
    },
    /// Resign.
    Resign {
        /// Client's id.
        id: u64,
    },
    /// Offer a draw.
    OfferDraw {
        /// Client's id.
        id: u64,
    },
    /// Accept the opponent's draw offer.
    AcceptDraw {
        /// Client's id.
        id: u64,
    },
    /// Decline the opponent's draw offer.
    DeclineDraw {
        /// Client's id.
        id: u64,
    },
    /// Take back the last own move (games against the computer and on one device).
    Takeback {
        /// Client's id.
        id: u64,
    },
    /// Ask for (or accept) a rematch with colours reversed.
    Rematch {
        /// Client's id.
        id: u64,
    },
    /// Ask for a fresh snapshot.
    Sync,
    /// Keep-alive; answered with `pong`.
    Ping {
        /// Echoed back.
        #[serde(default)]
        t: Option<u64>,
    },
}

impl ClientMsg {
    /// The action id, for messages that have one.
    pub fn id(&self) -> Option<u64> {
        match self {
            ClientMsg::Move { id, .. }
            | ClientMsg::Resign { id }
            | ClientMsg::OfferDraw { id }
            | ClientMsg::AcceptDraw { id }
            | ClientMsg::DeclineDraw { id }
            | ClientMsg::Takeback { id }
            | ClientMsg::Rematch { id } => Some(*id),
            _ => None,
        }
    }
}

/// A change as clients see it (a stored [`Record`] without secrets).
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EventView {
    /// A player sat down.
    Seated {
        /// Seat.
        color: Side,
        /// Name.
        name: String,
    },
    /// A move.
    Moved {
        /// The move.
        ply: PlyView,
    },
    /// Moves taken back.
    TookBack {
        /// How many.
        plies: u32,
    },
    /// Draw offered.
    DrawOffered {
        /// By whom.
        by: Side,
    },
    /// Draw declined.
    DrawDeclined {
        /// By whom.
        by: Side,
    },
    /// Draw agreed.
    DrawAgreed {
        /// Who accepted.
        by: Side,
    },
    /// Resigned.
    Resigned {
        /// Who.
        by: Side,
    },
    /// Out of time.
    Flagged {
        /// Whose clock fell.
        color: Side,
    },
    /// Rematch asked.
    RematchOffered {
        /// By whom.
        by: Side,
    },
    /// Rematch made.
    Rematch {
        /// The new game.
        game: String,
    },
}

impl EventView {
    /// The public view of a record; `ply` is the move it added, for `Moved`.
    pub fn of(record: &Record, ply: Option<PlyView>) -> Option<Self> {
        Some(match record {
            Record::Seated { color, name, .. } => EventView::Seated {
                color: *color,
                name: name.clone(),
            },
            Record::Moved { .. } => EventView::Moved { ply: ply? },
            Record::TookBack { plies } => EventView::TookBack { plies: *plies },
            Record::DrawOffered { by } => EventView::DrawOffered { by: *by },
            Record::DrawDeclined { by } => EventView::DrawDeclined { by: *by },
            Record::DrawAgreed { by } => EventView::DrawAgreed { by: *by },
            Record::Resigned { by } => EventView::Resigned { by: *by },
            Record::Flagged { color } => EventView::Flagged { color: *color },
            Record::RematchOffered { by } => EventView::RematchOffered { by: *by },
            Record::Rematch { game } => EventView::Rematch { game: game.clone() },
        })
    }
}

/// A message from the server.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// The whole game.
    Snapshot {
        /// The game.
        game: Box<SnapshotView>,
    },
    /// A change.
    Event {
        /// The version after the change.
        v: u64,
        /// What happened.
        event: EventView,
        /// The state after it.
        live: Box<LiveView>,
    },
    /// An action was recorded.
    Ack {
        /// The client's id.
        id: u64,
        /// The version that recorded it.
        v: u64,
    },
    /// A message was refused; nothing changed.
    Error {
        /// The action's id, if the message had one.
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<u64>,
        /// Machine-readable code (the UI's message key).
        code: ErrorCode,
        /// English text, for logs and tools.
        message: String,
        /// Why a move is illegal, for `illegal`.
        #[serde(skip_serializing_if = "Option::is_none")]
        illegal: Option<Illegal>,
    },
    /// Answer to `ping`.
    Pong {
        /// Echo.
        #[serde(skip_serializing_if = "Option::is_none")]
        t: Option<u64>,
    },
}

/// Why a client message was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Not JSON, or not a known message.
    BadMessage,
    /// An action before `hello`.
    NotJoined,
    /// `hello` twice.
    AlreadyJoined,
    /// A token that holds no seat of this game.
    BadToken,
    /// Spectators cannot act.
    Spectator,
    /// It is the other side's move.
    NotYourTurn,
    /// The move is not legal (see `illegal`).
    Illegal,
    /// The position changed since the client's version; resync.
    Stale,
    /// The game is over.
    GameOver,
    /// A seat is still free.
    NotStarted,
    /// No draw offer to answer.
    NoDrawOffer,
    /// Nothing to take back.
    NothingToTakeBack,
    /// The action is not available in this kind of game.
    NotAvailable,
    /// The game is not over yet.
    NotFinished,
    /// The rematch was already made.
    RematchExists,
    /// Too many messages.
    RateLimited,
    /// No such game.
    NotFound,
    /// The server failed (storage); nothing changed.
    Internal,
}

impl ErrorCode {
    /// Every code (the UI has a message for each).
    pub const ALL: [ErrorCode; 18] = [
        ErrorCode::BadMessage,
        ErrorCode::NotJoined,
        ErrorCode::AlreadyJoined,
        ErrorCode::BadToken,
        ErrorCode::Spectator,
        ErrorCode::NotYourTurn,
        ErrorCode::Illegal,
        ErrorCode::Stale,
        ErrorCode::GameOver,
        ErrorCode::NotStarted,
        ErrorCode::NoDrawOffer,
        ErrorCode::NothingToTakeBack,
        ErrorCode::NotAvailable,
        ErrorCode::NotFinished,
        ErrorCode::RematchExists,
        ErrorCode::RateLimited,
        ErrorCode::NotFound,
        ErrorCode::Internal,
    ];
}
