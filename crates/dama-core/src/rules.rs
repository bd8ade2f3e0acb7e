//! Rule sets of the diagonal family.
//!
//! A rule set is a zero-sized type implementing [`Rules`]: its associated constants describe how
//! pieces move and capture, and the move generator is generic over it, so every rule check is
//! resolved at compile time. Several variants can share a rule set (English and Circassian, for
//! instance, differ only in their names); what differs between them — start position, naming,
//! draw rules — lives in [`crate::Variant`].

use crate::geometry::{Board10x10, Board10x8, Board12x12, Board8x8, Geometry};
use core::fmt::Debug;

/// What a player must choose when several captures are available.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureChoice {
    /// Any capture may be chosen (Russian, English, Pool, ...).
    Free,
    /// The capture taking the most pieces; a king counts as one piece (International, Brazilian).
    MostPieces,
    /// The most pieces, then among those the most kings (Spanish, Portuguese).
    MostPiecesThenKings,
    /// A capture by a king must be preferred to one by a man; otherwise free (Czech).
    KingFirst,
    /// The Italian cascade: most pieces, then capturing with a king, then most kings, then the
    /// sequence that meets a king earliest.
    Italian,
    /// Frisian: the highest value — a king is worth more than a man and less than two men
    /// (counted as 199 against 100) — then capturing with a king.
    HighestValue,
}

/// What happens when a man reaches the crowning row in the middle of a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Crowning {
    /// It is crowned at once and continues the capture as a king (Russian).
    ContinueAsKing,
    /// It is crowned and the move ends there (English, Italian, Czech).
    EndsMove,
    /// It continues as a man if it can; it is crowned only if the move ends on the crowning row
    /// (International).
    OnlyAtEnd,
}

/// Whether the ordinary goal or the giveaway goal applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// A player without pieces or without moves loses.
    Normal,
    /// A player without pieces or without moves wins.
    Giveaway,
}

/// The rules that decide legal moves in one family of variants.
pub trait Rules: 'static + Copy + Default + Debug + Send + Sync {
    /// The board shape.
    type G: Geometry;
    /// Men may capture backwards.
    const MEN_CAPTURE_BACKWARD: bool;
    /// Kings move and capture along whole free lines ("flying"); otherwise one square.
    const FLYING_KINGS: bool;
    /// Which capture must be chosen.
    const CHOICE: CaptureChoice;
    /// Crowning in the middle of a capture.
    const CROWNING: Crowning;
    /// Men may capture kings (not in Italian).
    const MEN_CAPTURE_KINGS: bool = true;
    /// Men and kings also capture along files and ranks (Frisian).
    const ORTHOGONAL_CAPTURES: bool = false;
    /// Quiet king moves in a row allowed while the side still has men (Frisian: 3); 0 = no limit.
    const KING_MOVE_LIMIT: u8 = 0;
    /// The goal of the game.
    const GOAL: Goal = Goal::Normal;
}

macro_rules! rules {
    (
        $(#[$doc:meta])*
        $name:ident: $geometry:ty {
            men_capture_backward: $back:expr,
            flying_kings: $flying:expr,
            choice: $choice:expr,
            crowning: $crowning:expr
            $(, $extra:ident : $ty:ty = $value:expr)* $(,)?
        }
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;

        impl Rules for $name {
            type G = $geometry;
            const MEN_CAPTURE_BACKWARD: bool = $back;
            const FLYING_KINGS: bool = $flying;
            const CHOICE: CaptureChoice = $choice;
            const CROWNING: Crowning = $crowning;
            $(const $extra: $ty = $value;)*
        }
    };
}

rules!(
    /// Russian draughts: men capture backwards, flying kings, free choice, a man crowned during a
    /// capture continues it as a king.
    Russian: Board8x8 {
        men_capture_backward: true,
        flying_kings: true,
        choice: CaptureChoice::Free,
        crowning: Crowning::ContinueAsKing,
    }
);

rules!(
    /// Russian giveaway (poddavki): Russian moves, reversed goal.
    RussianGiveaway: Board8x8 {
        men_capture_backward: true,
        flying_kings: true,
        choice: CaptureChoice::Free,
        crowning: Crowning::ContinueAsKing,
        GOAL: Goal = Goal::Giveaway,
    }
);

rules!(
    /// Russian rules on the 10x8 board (80-square draughts, spantsiretti).
    Russian80: Board10x8 {
        men_capture_backward: true,
        flying_kings: true,
        choice: CaptureChoice::Free,
        crowning: Crowning::ContinueAsKing,
    }
);

rules!(
    /// English / American checkers (and Circassian, whose rule-book description — men forwards
    /// only, short kings, free choice, crowning ends the move — is the same): kings move one
    /// square in all four directions.
    English: Board8x8 {
        men_capture_backward: false,
        flying_kings: false,
        choice: CaptureChoice::Free,
        crowning: Crowning::EndsMove,
    }
);

rules!(
    /// International draughts: 10x10, men capture backwards, flying kings, the most pieces must be
    /// taken, crowning only where the move ends.
    International: Board10x10 {
        men_capture_backward: true,
        flying_kings: true,
        choice: CaptureChoice::MostPieces,
        crowning: Crowning::OnlyAtEnd,
    }
);

rules!(
    /// Antidraughts: International moves, reversed goal.
    Antidraughts: Board10x10 {
        men_capture_backward: true,
        flying_kings: true,
        choice: CaptureChoice::MostPieces,
        crowning: Crowning::OnlyAtEnd,
        GOAL: Goal = Goal::Giveaway,
    }
);

rules!(
    /// Brazilian draughts: International rules on the 8x8 board.
    Brazilian: Board8x8 {
        men_capture_backward: true,
        flying_kings: true,
        choice: CaptureChoice::MostPieces,
        crowning: Crowning::OnlyAtEnd,
    }
);

rules!(
    /// Canadian draughts: International rules on the 12x12 board.
    Canadian: Board12x12 {
        men_capture_backward: true,
        flying_kings: true,
        choice: CaptureChoice::MostPieces,
        crowning: Crowning::OnlyAtEnd,
    }
);

rules!(
    /// American pool checkers (APCA rules of play): men capture backwards, flying kings, free
    /// choice; a man that reaches the king row during a capture and can jump on continues as a
    /// man and is crowned only if the capture ends there (APCA "Rules of Play", rule 5).
    Pool: Board8x8 {
        men_capture_backward: true,
        flying_kings: true,
        choice: CaptureChoice::Free,
        crowning: Crowning::OnlyAtEnd,
    }
);

rules!(
    /// Italian draughts: men forwards only and never capture kings, short kings, the Italian
    /// capture cascade, crowning ends the move.
    Italian: Board8x8 {
        men_capture_backward: false,
        flying_kings: false,
        choice: CaptureChoice::Italian,
        crowning: Crowning::EndsMove,
        MEN_CAPTURE_KINGS: bool = false,
    }
);

rules!(
    /// Spanish and Portuguese draughts: men forwards only, flying kings, most pieces then most
    /// kings.
    Spanish: Board8x8 {
        men_capture_backward: false,
        flying_kings: true,
        choice: CaptureChoice::MostPiecesThenKings,
        crowning: Crowning::OnlyAtEnd,
    }
);

rules!(
    /// Czech draughts: men forwards only, flying kings, a king's capture takes precedence.
    Czech: Board8x8 {
        men_capture_backward: false,
        flying_kings: true,
        choice: CaptureChoice::KingFirst,
        crowning: Crowning::EndsMove,
    }
);

rules!(
    /// German draughts (Damenspiel) on the board the project's rule book gives (10x10, 20 men):
    /// men capture backwards, flying kings, free choice of capture, and a man that reaches the
    /// far row during a capture is crowned and the move ends. The last two details are marked
    /// as assumptions in the rule book; published descriptions (D. Parlett, *The Oxford History
    /// of Board Games*, 1999, p. 252, as encoded in Ludii's `Damenspiel.lud`) give free choice
    /// and crowning that ends the move — they also describe an 8x8 board with 12 men.
    German: Board10x10 {
        men_capture_backward: true,
        flying_kings: true,
        choice: CaptureChoice::Free,
        crowning: Crowning::EndsMove,
    }
);

rules!(
    /// Frisian draughts (official rules of 2011; FMJD): 10x10, men and kings also capture along
    /// files and ranks (over the next playable square, i.e. two squares away), kings move only
    /// diagonally, the capture of the highest value is compulsory (a king is worth more than
    /// one man and less than two), on equal value a king must capture, a man is crowned only
    /// where its move ends, and while a side has men the same king may make at most three quiet
    /// moves in a row.
    Frisian: Board10x10 {
        men_capture_backward: true,
        flying_kings: true,
        choice: CaptureChoice::HighestValue,
        crowning: Crowning::OnlyAtEnd,
        ORTHOGONAL_CAPTURES: bool = true,
        KING_MOVE_LIMIT: u8 = 3,
    }
);
