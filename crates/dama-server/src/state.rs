//! The state of one game as the server keeps it: the rules' [`Game`] plus seats, clocks, paths
//! and rematch offers. The state changes only by applying a [`Record`]; the same records are
//! stored, so replaying a game's stored records rebuilds it exactly.

use crate::explain::{explain_illegal, Illegal};
use crate::store::{StoredEvent, StoredGame};
use dama_core::{AnyMove, AnyPosition, Color, Game, Square, Variant};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A colour as JSON (`"white"`, `"black"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// White.
    White,
    /// Black.
    Black,
}

impl From<Color> for Side {
    fn from(c: Color) -> Self {
        match c {
            Color::White => Side::White,
            Color::Black => Side::Black,
        }
    }
}

impl From<Side> for Color {
    fn from(s: Side) -> Self {
        match s {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

/// How a game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Against the computer.
    Computer,
    /// Against a friend who opens the invite link.
    Friend,
    /// Two people on one device.
    Local,
    /// An open challenge in the lobby.
    Lobby,
}

/// A clock setting: minutes and an increment per move (Fischer).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeControl {
    /// Time for the whole game, seconds.
    pub initial_s: u32,
    /// Added after each move, seconds.
    pub increment_s: u32,
}

impl TimeControl {
    /// Longest game time accepted (3 hours).
    pub const MAX_INITIAL_S: u32 = 3 * 3600;
    /// Largest increment accepted.
    pub const MAX_INCREMENT_S: u32 = 180;

    /// Whether the setting is playable.
    pub fn is_valid(&self) -> bool {
        (1..=Self::MAX_INITIAL_S).contains(&self.initial_s)
            && self.increment_s <= Self::MAX_INCREMENT_S
    }

    /// Text such as `5+3`.
    pub fn label(&self) -> String {
        if self.initial_s % 60 == 0 {
            format!("{}+{}", self.initial_s / 60, self.increment_s)
        } else {
            format!("{}s+{}", self.initial_s, self.increment_s)
        }
    }
}

/// What is fixed when a game is created.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// How it is played.
    pub mode: Mode,
    /// The computer's level (computer games).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    /// The computer's colour (computer games).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub computer: Option<Side>,
    /// The clock, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_control: Option<TimeControl>,
    /// The secret invite code of a friend game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
    /// The game this one is a rematch of.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch_of: Option<String>,
    /// The colour the creator took (lobby listing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creator: Option<Side>,
    /// The creator's name (lobby listing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creator_name: Option<String>,
}

impl Settings {
    /// Settings of a mode with nothing else chosen (no clock, no computer, no invite).
    pub fn of_mode(mode: Mode) -> Self {
        Settings {
            mode,
            level: None,
            computer: None,
            time_control: None,
            invite: None,
            rematch_of: None,
            creator: None,
            creator_name: None,
        }
    }
}

/// A change to a game, as stored and replayed. Squares are written as the variant names them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Record {
    /// A person took a seat.
    Seated {
        /// The seat.
        color: Side,
        /// The secret that lets its holder act for the seat.
        token: String,
        /// The name shown (may be empty).
        name: String,
    },
    /// A move, by the path the player chose.
    Moved {
        /// Start square, landing squares, end square.
        path: Vec<String>,
        /// Remaining time of White and Black after the move, milliseconds.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clock: Option<[u64; 2]>,
    },
    /// Moves taken back.
    TookBack {
        /// How many plies.
        plies: u32,
    },
    /// A draw was offered.
    DrawOffered {
        /// By whom.
        by: Side,
    },
    /// A draw offer was declined.
    DrawDeclined {
        /// By whom.
        by: Side,
    },
    /// A draw offer was accepted: the game is drawn.
    DrawAgreed {
        /// Who accepted.
        by: Side,
    },
    /// A player resigned.
    Resigned {
        /// Who.
        by: Side,
    },
    /// A player ran out of time.
    Flagged {
        /// Whose clock fell.
        color: Side,
    },
    /// A player asked for a rematch.
    RematchOffered {
        /// Who.
        by: Side,
    },
    /// The rematch game was created.
    Rematch {
        /// Its id.
        game: String,
    },
}

/// Whether a record changes the position (and so makes older client views stale).
impl Record {
    /// Moves and take-backs change the position; other records do not.
    pub fn changes_position(&self) -> bool {
        matches!(self, Record::Moved { .. } | Record::TookBack { .. })
    }
}

/// Who holds a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    /// The secret.
    pub token: String,
    /// The name shown.
    pub name: String,
}

/// Which seats a connection controls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The white pieces.
    White,
    /// The black pieces.
    Black,
    /// Both (a game on one device).
    Both,
}

impl Role {
    /// Whether the role may act for a colour.
    pub fn plays(self, color: Color) -> bool {
        match self {
            Role::Both => true,
            Role::White => color == Color::White,
            Role::Black => color == Color::Black,
        }
    }
}

/// One move played, with what the UI shows of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The move.
    pub m: AnyMove,
    /// The path chosen.
    pub path: Vec<Square>,
    /// Its text in the variant's notation.
    pub notation: String,
    /// Who played it.
    pub color: Color,
    /// The position after it (FEN).
    pub fen_after: String,
}

/// Whether a game can be played yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A seat is still free.
    Waiting,
    /// Being played.
    Active,
    /// Over.
    Finished,
}

impl Status {
    /// The word stored in the database.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::Active => "active",
            Status::Finished => "finished",
        }
    }
}

/// Why a record could not be applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApplyError {
    /// The game is over.
    GameOver,
    /// The game has not started (a seat is free).
    NotStarted,
    /// The move is not legal; the reason says why in terms a player understands.
    Illegal(Illegal),
    /// A seat is already taken.
    SeatTaken,
    /// There is no draw offer to answer.
    NoDrawOffer,
    /// Nothing to take back.
    NothingToTakeBack,
    /// The action needs a finished game.
    NotFinished,
    /// A rematch was already made.
    RematchExists,
}

impl fmt::Display for ApplyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApplyError::GameOver => f.write_str("the game is over"),
            ApplyError::NotStarted => f.write_str("the game has not started: a seat is free"),
            ApplyError::Illegal(i) => write!(f, "illegal move: {i}"),
            ApplyError::SeatTaken => f.write_str("that seat is taken"),
            ApplyError::NoDrawOffer => f.write_str("there is no draw offer to answer"),
            ApplyError::NothingToTakeBack => f.write_str("there is no move to take back"),
            ApplyError::NotFinished => f.write_str("the game is not over"),
            ApplyError::RematchExists => f.write_str("the rematch has already been made"),
        }
    }
}

/// Why a stored game could not be rebuilt.
#[derive(Debug)]
pub struct LoadError(pub String);

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "stored game is damaged: {}", self.0)
    }
}

impl std::error::Error for LoadError {}

/// One game's whole state.
#[derive(Clone, Debug)]
pub struct GameState {
    /// Public id.
    pub id: String,
    /// Creation time (ms since the epoch).
    pub created_ms: i64,
    /// The settings.
    pub settings: Settings,
    /// The rules' view: positions, draw counters, outcome.
    pub game: Game,
    /// The moves played, with paths and notation.
    pub plies: Vec<Ply>,
    /// The seats of White and Black (a computer seat stays `None`).
    pub seats: [Option<Seat>; 2],
    /// Remaining time of White and Black as of the last move, milliseconds.
    pub clock: Option<[u64; 2]>,
    /// A pending rematch request.
    pub rematch_offer: Option<Color>,
    /// The rematch game, once made.
    pub rematch: Option<String>,
    /// Number of records applied: the version clients see.
    pub version: u64,
    /// The version at which the position last changed.
    pub position_version: u64,
}

impl GameState {
    /// A new game with no records.
    pub fn new(id: String, created_ms: i64, start: AnyPosition, settings: Settings) -> Self {
        let clock = settings
            .time_control
            .map(|tc| [tc.initial_s as u64 * 1000; 2]);
        GameState {
            id,
            created_ms,
            settings,
            game: Game::from_position(start),
            plies: Vec::new(),
            seats: [None, None],
            clock,
            rematch_offer: None,
            rematch: None,
            version: 0,
            position_version: 0,
        }
    }

    /// Rebuilds a stored game.
    ///
    /// # Errors
    /// [`LoadError`] if the stored data does not replay (unknown variant, bad FEN, an event
    /// that is not legal, a gap in the sequence).
    pub fn from_stored(stored: &StoredGame, events: &[StoredEvent]) -> Result<Self, LoadError> {
        let variant = Variant::from_key(&stored.variant)
            .ok_or_else(|| LoadError(format!("unknown variant {}", stored.variant)))?;
        let start = AnyPosition::from_fen(variant, &stored.start_fen)
            .map_err(|e| LoadError(format!("start position: {e}")))?;
        let settings: Settings = serde_json::from_str(&stored.settings)
            .map_err(|e| LoadError(format!("settings: {e}")))?;
        let mut state = GameState::new(stored.id.clone(), stored.created_ms, start, settings);
        for event in events {
            if event.seq != state.version + 1 {
                return Err(LoadError(format!(
                    "event {} follows event {}",
                    event.seq, state.version
                )));
            }
            let record: Record = serde_json::from_str(&event.body)
                .map_err(|e| LoadError(format!("event {}: {e}", event.seq)))?;
            state
                .apply(&record)
                .map_err(|e| LoadError(format!("event {}: {e}", event.seq)))?;
        }
        Ok(state)
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.game.variant()
    }

    /// The current position.
    pub fn position(&self) -> &AnyPosition {
        self.game.position()
    }

    /// Whether `color` is played by the computer.
    pub fn is_computer(&self, color: Color) -> bool {
        self.settings.computer.map(Color::from) == Some(color)
    }

    /// Whether a seat is filled (by a person or the computer).
    pub fn seat_filled(&self, color: Color) -> bool {
        self.is_computer(color) || self.seats[color.index()].is_some()
    }

    /// Waiting, active or finished.
    pub fn status(&self) -> Status {
        if self.game.is_over() {
            Status::Finished
        } else if Color::BOTH.iter().all(|&c| self.seat_filled(c)) {
            Status::Active
        } else {
            Status::Waiting
        }
    }

    /// The seats a token controls.
    pub fn role_of(&self, token: &str) -> Option<Role> {
        let holds = |c: Color| {
            self.seats[c.index()]
                .as_ref()
                .is_some_and(|s| crate::ids::secrets_equal(&s.token, token))
        };
        match (holds(Color::White), holds(Color::Black)) {
            (true, true) => Some(Role::Both),
            (true, false) => Some(Role::White),
            (false, true) => Some(Role::Black),
            (false, false) => None,
        }
    }

    /// The result text for PDN and the database: `1-0`, `0-1`, `1/2-1/2`, or `*`.
    pub fn result_text(&self) -> &'static str {
        match self.game.outcome() {
            None => "*",
            Some(o) => match o.winner {
                Some(Color::White) => "1-0",
                Some(Color::Black) => "0-1",
                None => "1/2-1/2",
            },
        }
    }

    /// Resolves a path against the legal moves.
    ///
    /// # Errors
    /// [`ApplyError::Illegal`] with the reason.
    pub fn resolve_path(&self, path: &[String]) -> Result<(AnyMove, Vec<Square>), ApplyError> {
        let variant = self.variant();
        let pos = self.position();
        if path.len() < 2 || path.len() > 64 {
            return Err(ApplyError::Illegal(Illegal::BadPath));
        }
        let mut squares = Vec::with_capacity(path.len());
        for name in path {
            let sq = variant
                .parse_square(name)
                .ok_or(ApplyError::Illegal(Illegal::BadPath))?;
            squares.push(sq);
        }
        let (from, to) = (squares[0], squares[squares.len() - 1]);
        let legal = pos.legal_moves();
        let candidates: Vec<&AnyMove> = legal
            .iter()
            .filter(|m| m.from == from && m.to == to)
            .collect();
        if candidates.is_empty() {
            return Err(ApplyError::Illegal(explain_illegal(pos, &squares)));
        }
        if squares.len() == 2 {
            // From and to alone: enough unless two moves share them.
            if candidates.len() == 1 {
                let m = *candidates[0];
                let path = pos.paths(&m).into_iter().next().unwrap_or(squares);
                return Ok((m, path));
            }
            if !candidates[0].is_capture() {
                return Ok((*candidates[0], squares));
            }
        }
        for m in &candidates {
            if !m.is_capture() {
                if squares.len() == 2 {
                    return Ok((**m, squares));
                }
                continue;
            }
            if pos.paths(m).contains(&squares) {
                return Ok((**m, squares));
            }
        }
        if squares.len() == 2 {
            Err(ApplyError::Illegal(Illegal::Ambiguous))
        } else {
            Err(ApplyError::Illegal(explain_illegal(pos, &squares)))
        }
    }

    /// Applies a record, checking it against the rules. On error the state is unchanged.
    ///
    /// # Errors
    /// An [`ApplyError`] saying why the record does not fit the game.
    pub fn apply(&mut self, record: &Record) -> Result<(), ApplyError> {
        match record {
            Record::Seated { color, token, name } => {
                let c = Color::from(*color);
                if self.seat_filled(c) {
                    return Err(ApplyError::SeatTaken);
                }
                if self.game.is_over() {
                    return Err(ApplyError::GameOver);
                }
                self.seats[c.index()] = Some(Seat {
                    token: token.clone(),
                    name: name.clone(),
                });
            }
            Record::Moved { path, clock } => {
                self.require_active()?;
                let (m, path) = self.resolve_path(path)?;
                let before = *self.position();
                let notation = dama_notation::write_move(&before, &m);
                self.game
                    .play(&m)
                    .map_err(|_| ApplyError::Illegal(explain_illegal(&before, &[m.from, m.to])))?;
                self.plies.push(Ply {
                    m,
                    path,
                    notation,
                    color: before.side_to_move(),
                    fen_after: self.position().fen(),
                });
                if let Some(c) = clock {
                    self.clock = Some(*c);
                }
            }
            Record::TookBack { plies } => {
                if *plies == 0 || *plies as usize > self.plies.len() {
                    return Err(ApplyError::NothingToTakeBack);
                }
                let mut game = self.game.clone();
                for _ in 0..*plies {
                    game.undo().map_err(|_| ApplyError::NothingToTakeBack)?;
                }
                self.game = game;
                self.plies.truncate(self.plies.len() - *plies as usize);
            }
            Record::DrawOffered { by } => {
                self.require_active()?;
                self.game
                    .offer_draw(Color::from(*by))
                    .map_err(|_| ApplyError::GameOver)?;
            }
            Record::DrawDeclined { by } => {
                self.require_active()?;
                self.game
                    .decline_draw(Color::from(*by))
                    .map_err(|_| ApplyError::NoDrawOffer)?;
            }
            Record::DrawAgreed { by } => {
                self.require_active()?;
                let by = Color::from(*by);
                if self.settings.mode == Mode::Local && self.game.draw_offer().is_none() {
                    // On one device both players are at the board: agreeing is one step.
                    self.game
                        .offer_draw(!by)
                        .map_err(|_| ApplyError::GameOver)?;
                }
                self.game
                    .accept_draw(by)
                    .map_err(|_| ApplyError::NoDrawOffer)?;
            }
            Record::Resigned { by } => {
                if self.game.is_over() {
                    return Err(ApplyError::GameOver);
                }
                self.game
                    .resign(Color::from(*by))
                    .map_err(|_| ApplyError::GameOver)?;
            }
            Record::Flagged { color } => {
                self.require_active()?;
                let c = Color::from(*color);
                self.game
                    .lose_on_time(c)
                    .map_err(|_| ApplyError::GameOver)?;
                if let Some(clock) = &mut self.clock {
                    clock[c.index()] = 0;
                }
            }
            Record::RematchOffered { by } => {
                if !self.game.is_over() {
                    return Err(ApplyError::NotFinished);
                }
                if self.rematch.is_some() {
                    return Err(ApplyError::RematchExists);
                }
                self.rematch_offer = Some(Color::from(*by));
            }
            Record::Rematch { game } => {
                if !self.game.is_over() {
                    return Err(ApplyError::NotFinished);
                }
                if self.rematch.is_some() {
                    return Err(ApplyError::RematchExists);
                }
                self.rematch = Some(game.clone());
                self.rematch_offer = None;
            }
        }
        self.version += 1;
        if record.changes_position() {
            self.position_version = self.version;
        }
        Ok(())
    }

    fn require_active(&self) -> Result<(), ApplyError> {
        match self.status() {
            Status::Finished => Err(ApplyError::GameOver),
            Status::Waiting => Err(ApplyError::NotStarted),
            Status::Active => Ok(()),
        }
    }

    /// How many plies a take-back request undoes now, for the side `by`: back to the last
    /// position where `by` was to move before its own last move.
    pub fn takeback_plies(&self, by: Role) -> Option<u32> {
        let n = self.plies.len();
        // The last ply played by one of `by`'s colours.
        let last_own = self.plies.iter().rposition(|p| by.plays(p.color))?;
        Some((n - last_own) as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn friend_game() -> GameState {
        let mut g = GameState::new(
            "g".into(),
            0,
            AnyPosition::start(Variant::Russian),
            Settings {
                invite: Some("inv".into()),
                creator: Some(Side::White),
                ..Settings::of_mode(Mode::Friend)
            },
        );
        for (color, token) in [(Side::White, "tw"), (Side::Black, "tb")] {
            g.apply(&Record::Seated {
                color,
                token: token.into(),
                name: String::new(),
            })
            .unwrap();
        }
        g
    }

    fn mv(path: &[&str]) -> Record {
        Record::Moved {
            path: path.iter().map(|s| s.to_string()).collect(),
            clock: None,
        }
    }

    #[test]
    fn moves_need_both_seats_and_legality() {
        let mut g = GameState::new(
            "g".into(),
            0,
            AnyPosition::start(Variant::Russian),
            Settings::of_mode(Mode::Friend),
        );
        assert_eq!(g.apply(&mv(&["c3", "d4"])), Err(ApplyError::NotStarted));
        let mut g2 = friend_game();
        assert!(matches!(
            g2.apply(&mv(&["c3", "c5"])),
            Err(ApplyError::Illegal(_))
        ));
        assert_eq!(g2.version, 2);
        g2.apply(&mv(&["c3", "d4"])).unwrap();
        assert_eq!(g2.version, 3);
        assert_eq!(g2.position_version, 3);
        assert_eq!(g2.plies[0].notation, "c3-d4");
        // Seats are not taken twice.
        assert_eq!(
            g2.apply(&Record::Seated {
                color: Side::White,
                token: "x".into(),
                name: String::new()
            }),
            Err(ApplyError::SeatTaken)
        );
        g.seats = [None, None];
        assert_eq!(g.status(), Status::Waiting);
    }

    #[test]
    fn worked_example_plays_and_replays_from_records() {
        // RULES.md section 7, with full squares.
        let moves = [
            "c3-d4",
            "b6-a5",
            "b2-c3",
            "c7-b6",
            "g3-h4",
            "d6-c5",
            "h2-g3",
            "b8-c7",
            "c3-b4",
            "a5:c3:e5",
            "e3-d4",
            "c5:e3",
            "d2:f4:d6:b8",
        ];
        let mut g = friend_game();
        let mut records = Vec::new();
        for text in moves {
            let path: Vec<&str> = text.split(['-', ':']).collect();
            let r = mv(&path);
            g.apply(&r).unwrap_or_else(|e| panic!("{text}: {e}"));
            records.push(r);
        }
        assert_eq!(g.plies.len(), 13);
        assert!(
            g.position()
                .pieces_of(Color::White, dama_core::Role::King)
                .len()
                == 1
        );
        // Replaying the stored form gives the same state.
        let stored = StoredGame {
            id: "g".into(),
            created_ms: 0,
            variant: "russian".into(),
            start_fen: AnyPosition::start(Variant::Russian).fen(),
            settings: serde_json::to_string(&g.settings).unwrap(),
            status: "active".into(),
        };
        let mut events = Vec::new();
        let seats = [
            Record::Seated {
                color: Side::White,
                token: "tw".into(),
                name: String::new(),
            },
            Record::Seated {
                color: Side::Black,
                token: "tb".into(),
                name: String::new(),
            },
        ];
        for (i, r) in seats.iter().chain(records.iter()).enumerate() {
            events.push(StoredEvent {
                seq: i as u64 + 1,
                at_ms: 0,
                body: serde_json::to_string(r).unwrap(),
            });
        }
        let replayed = GameState::from_stored(&stored, &events).unwrap();
        assert_eq!(replayed.position(), g.position());
        assert_eq!(replayed.plies, g.plies);
        assert_eq!(replayed.version, g.version);
        // A gap in the sequence is damage, not silently skipped.
        events.remove(3);
        assert!(GameState::from_stored(&stored, &events).is_err());
    }

    #[test]
    fn short_path_resolves_when_unique_and_path_picks_between_two() {
        let mut g = friend_game();
        // International: a king that can take the same two pieces in two orders ends on the
        // same square with the same captured set: one move, two paths.
        let mut intl = GameState::new(
            "i".into(),
            0,
            AnyPosition::from_fen(Variant::International, "W:WK46:B37,38,28,29").unwrap(),
            g.settings.clone(),
        );
        intl.seats = g.seats.clone();
        let legal = intl.position().legal_moves();
        assert!(!legal.is_empty());
        for m in &legal {
            let paths = intl.position().paths(m);
            for p in &paths {
                let names: Vec<String> = p
                    .iter()
                    .map(|s| Variant::International.square_name(*s))
                    .collect();
                let (resolved, path) = intl.resolve_path(&names).unwrap();
                assert_eq!(resolved, *m);
                assert_eq!(&path, p);
            }
        }
        g.apply(&mv(&["c3", "d4"])).unwrap();
        assert_eq!(g.plies[0].path.len(), 2);
    }

    #[test]
    fn takeback_draw_and_rematch_rules() {
        let mut g = friend_game();
        assert_eq!(
            g.apply(&Record::TookBack { plies: 1 }),
            Err(ApplyError::NothingToTakeBack)
        );
        g.apply(&mv(&["c3", "d4"])).unwrap();
        g.apply(&mv(&["f6", "g5"])).unwrap();
        assert_eq!(g.takeback_plies(Role::White), Some(2));
        assert_eq!(g.takeback_plies(Role::Black), Some(1));
        g.apply(&Record::TookBack { plies: 2 }).unwrap();
        assert!(g.plies.is_empty());
        assert_eq!(*g.position(), AnyPosition::start(Variant::Russian));
        assert_eq!(
            g.apply(&Record::DrawDeclined { by: Side::Black }),
            Err(ApplyError::NoDrawOffer)
        );
        g.apply(&Record::DrawOffered { by: Side::White }).unwrap();
        assert_eq!(
            g.apply(&Record::RematchOffered { by: Side::White }),
            Err(ApplyError::NotFinished)
        );
        g.apply(&Record::DrawAgreed { by: Side::Black }).unwrap();
        assert_eq!(g.status(), Status::Finished);
        assert_eq!(g.result_text(), "1/2-1/2");
        assert_eq!(g.apply(&mv(&["c3", "d4"])), Err(ApplyError::GameOver));
        g.apply(&Record::RematchOffered { by: Side::Black })
            .unwrap();
        g.apply(&Record::Rematch { game: "r".into() }).unwrap();
        assert_eq!(
            g.apply(&Record::Rematch { game: "r2".into() }),
            Err(ApplyError::RematchExists)
        );
    }

    #[test]
    fn roles_from_tokens() {
        let g = friend_game();
        assert_eq!(g.role_of("tw"), Some(Role::White));
        assert_eq!(g.role_of("tb"), Some(Role::Black));
        assert_eq!(g.role_of("tx"), None);
        assert_eq!(g.role_of(""), None);
    }
}
