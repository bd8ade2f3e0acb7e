//! One task owns each live game: the room.
//!
//! Everything that changes a game goes through its room's command queue, so a game's changes
//! are ordered without locks. For each change the room checks it against the rules, appends
//! the record to the store, and only then updates its state and broadcasts the event. The
//! computer's searches run on the [`crate::computer::ComputerPool`] threads; the room goes on
//! serving commands meanwhile and checks, when the move comes back, that the game has not
//! changed.

use crate::app::AppState;
use crate::computer::{ComputerRequest, JobHandle};
use crate::explain::Illegal;
use crate::ids;
use crate::protocol::{ErrorCode, EventView, ServerMsg};
use crate::state::{ApplyError, GameState, Mode, Record, Role, Settings, Side, Status};
use crate::store::{StoreError, StoredEvent, StoredGame};
use crate::view::{clock_runs, live_view, snapshot_view, PlyView};
use dama_core::{AnyMove, Color};
use std::sync::Arc;
use tokio::sync::{broadcast, mpsc, oneshot};
use tokio::time::{Duration, Instant};

/// Commands a room accepts.
#[derive(Debug)]
pub enum Command {
    /// Subscribe to the game (as a player if the token holds a seat).
    Join {
        /// Seat token.
        token: Option<String>,
        /// Answer.
        reply: oneshot::Sender<Result<Joined, ErrorCode>>,
    },
    /// An action by a player.
    Act {
        /// The seats the connection holds.
        role: Role,
        /// What to do.
        action: Action,
        /// The version that recorded it, or why not.
        reply: oneshot::Sender<Result<u64, ActError>>,
    },
    /// Take a free seat (invite link or lobby challenge).
    Claim {
        /// The invite code (friend games).
        invite: Option<String>,
        /// The name to show.
        name: String,
        /// The new seat's token and colour.
        reply: oneshot::Sender<Result<(String, Role), ActError>>,
    },
    /// A fresh snapshot (JSON of a `snapshot` message).
    Snapshot {
        /// Who asks.
        role: Option<Role>,
        /// Answer.
        reply: oneshot::Sender<String>,
    },
    /// The computer's move for the game at `version`.
    ComputerMove {
        /// The version the search started from.
        version: u64,
        /// The move (`None` if the search was stopped or failed).
        mv: Option<AnyMove>,
    },
    /// The computer's answer to a draw offer made at `version`.
    ComputerDraw {
        /// The version the offer was judged at.
        version: u64,
        /// Whether it accepts.
        accept: bool,
    },
}

/// A player's action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Play a move along a path, made on the client's version `v`.
    Move {
        /// Client's version.
        v: u64,
        /// The path.
        path: Vec<String>,
    },
    /// Resign.
    Resign,
    /// Offer a draw.
    OfferDraw,
    /// Accept a draw.
    AcceptDraw,
    /// Decline a draw.
    DeclineDraw,
    /// Take back.
    Takeback,
    /// Rematch.
    Rematch,
}

/// Why an action was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActError {
    /// The code.
    pub code: ErrorCode,
    /// English text.
    pub message: String,
    /// Why a move is illegal.
    pub illegal: Option<Illegal>,
}

impl ActError {
    fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ActError {
            code,
            message: message.into(),
            illegal: None,
        }
    }

    /// The error as a server message.
    pub fn to_msg(&self, id: Option<u64>) -> ServerMsg {
        ServerMsg::Error {
            id,
            code: self.code,
            message: self.message.clone(),
            illegal: self.illegal.clone(),
        }
    }
}

impl From<ApplyError> for ActError {
    fn from(e: ApplyError) -> Self {
        let message = e.to_string();
        let (code, illegal) = match e {
            ApplyError::GameOver => (ErrorCode::GameOver, None),
            ApplyError::NotStarted => (ErrorCode::NotStarted, None),
            ApplyError::Illegal(i) => (ErrorCode::Illegal, Some(i)),
            ApplyError::SeatTaken => (ErrorCode::NotAvailable, None),
            ApplyError::NoDrawOffer => (ErrorCode::NoDrawOffer, None),
            ApplyError::NothingToTakeBack => (ErrorCode::NothingToTakeBack, None),
            ApplyError::NotFinished => (ErrorCode::NotFinished, None),
            ApplyError::RematchExists => (ErrorCode::RematchExists, None),
        };
        ActError {
            code,
            message,
            illegal,
        }
    }
}

fn internal(e: impl std::fmt::Display) -> ActError {
    eprintln!("dama-server: storage error: {e}");
    ActError::new(ErrorCode::Internal, "the server could not store the change")
}

/// What a subscriber gets.
#[derive(Debug)]
pub struct Joined {
    /// The seats the token holds (`None`: spectator).
    pub role: Option<Role>,
    /// JSON of the `snapshot` message.
    pub snapshot: String,
    /// The version the snapshot shows.
    pub version: u64,
    /// Every later event, as JSON of `event` messages.
    pub events: broadcast::Receiver<Arc<str>>,
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// How long a room with nobody watching stays in memory.
const IDLE: Duration = Duration::from_secs(60);

pub(crate) struct Room {
    app: AppState,
    state: GameState,
    events: broadcast::Sender<Arc<str>>,
    /// When the side to move's turn began (for its clock).
    turn_started: Instant,
    /// The computer's search in progress: the version it started from.
    job: Option<(u64, JobHandle)>,
    /// The computer's judgement of a draw offer in progress: the version it started from.
    draw_job: Option<(u64, JobHandle)>,
    me: mpsc::WeakSender<Command>,
    last_activity: Instant,
}

/// Runs a room: loads the game, then serves commands until the room is idle.
pub(crate) async fn run(
    app: AppState,
    id: String,
    me: mpsc::WeakSender<Command>,
    mut rx: mpsc::Receiver<Command>,
) {
    let store = app.store();
    let load_id = id.clone();
    let loaded = tokio::task::spawn_blocking(move || store.load_game(&load_id)).await;
    let state = match loaded {
        Ok(Ok(Some((game, events)))) => match GameState::from_stored(&game, &events) {
            Ok(s) => Some(s),
            Err(e) => {
                eprintln!("dama-server: game {id}: {e}");
                None
            }
        },
        Ok(Ok(None)) => None,
        Ok(Err(e)) => {
            eprintln!("dama-server: game {id}: {e}");
            None
        }
        Err(e) => {
            eprintln!("dama-server: game {id}: loading failed: {e}");
            None
        }
    };
    let Some(state) = state else {
        // No such game: answer everything queued, then go.
        app.forget_room(&id, None);
        rx.close();
        while let Some(cmd) = rx.recv().await {
            refuse_not_found(cmd);
        }
        return;
    };
    let (events, _) = broadcast::channel(256);
    let mut room = Room {
        app,
        state,
        events,
        turn_started: Instant::now(),
        job: None,
        draw_job: None,
        me,
        last_activity: Instant::now(),
    };
    room.maybe_start_computer();
    room.maybe_answer_draw();
    let mut idle_check = tokio::time::interval(Duration::from_secs(5));
    loop {
        let deadline = room.flag_deadline();
        tokio::select! {
            cmd = rx.recv() => match cmd {
                Some(cmd) => {
                    room.last_activity = Instant::now();
                    room.handle(cmd).await;
                }
                None => break,
            },
            _ = sleep_until_opt(deadline) => room.flag().await,
            _ = idle_check.tick() => {
                if room.is_idle() && room.app.retire_room(&room.state.id, &rx) {
                    break;
                }
            }
        }
    }
    if let Some((_, job)) = room.job.take() {
        job.stop();
    }
}

async fn sleep_until_opt(deadline: Option<Instant>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(d).await,
        None => std::future::pending().await,
    }
}

fn refuse_not_found(cmd: Command) {
    let nf = || ActError::new(ErrorCode::NotFound, "no such game");
    match cmd {
        Command::Join { reply, .. } => {
            let _ = reply.send(Err(ErrorCode::NotFound));
        }
        Command::Act { reply, .. } => {
            let _ = reply.send(Err(nf()));
        }
        Command::Claim { reply, .. } => {
            let _ = reply.send(Err(nf()));
        }
        Command::Snapshot { .. } | Command::ComputerMove { .. } | Command::ComputerDraw { .. } => {}
    }
}

impl Room {
    fn is_idle(&self) -> bool {
        self.events.receiver_count() == 0
            && self.job.is_none()
            && !(self.state.status() == Status::Active && clock_runs(&self.state))
            && self.last_activity.elapsed() >= IDLE
    }

    /// The clocks as of now.
    fn clock_now(&self) -> Option<[u64; 2]> {
        let mut clock = self.state.clock?;
        if clock_runs(&self.state) {
            let side = self.state.position().side_to_move().index();
            let spent = self.turn_started.elapsed().as_millis() as u64;
            clock[side] = clock[side].saturating_sub(spent);
        }
        Some(clock)
    }

    fn flag_deadline(&self) -> Option<Instant> {
        if self.state.status() != Status::Active || !clock_runs(&self.state) {
            return None;
        }
        let clock = self.state.clock?;
        let side = self.state.position().side_to_move().index();
        Some(self.turn_started + Duration::from_millis(clock[side]))
    }

    async fn flag(&mut self) {
        let side = self.state.position().side_to_move();
        if let Err(e) = self.commit(Record::Flagged { color: side.into() }).await {
            eprintln!("dama-server: game {}: flag: {}", self.state.id, e.message);
        }
    }

    async fn handle(&mut self, cmd: Command) {
        match cmd {
            Command::Join { token, reply } => {
                let role = token.as_deref().and_then(|t| self.state.role_of(t));
                if token.is_some() && role.is_none() {
                    let _ = reply.send(Err(ErrorCode::BadToken));
                    return;
                }
                let events = self.events.subscribe();
                let _ = reply.send(Ok(Joined {
                    role,
                    snapshot: self.snapshot_json(role),
                    version: self.state.version,
                    events,
                }));
            }
            Command::Snapshot { role, reply } => {
                let _ = reply.send(self.snapshot_json(role));
            }
            Command::Act {
                role,
                action,
                reply,
            } => {
                let result = self.act(role, action).await;
                let _ = reply.send(result);
            }
            Command::Claim {
                invite,
                name,
                reply,
            } => {
                let result = self.claim(invite, name).await;
                let _ = reply.send(result);
            }
            Command::ComputerMove { version, mv } => self.computer_move(version, mv).await,
            Command::ComputerDraw { version, accept } => self.computer_draw(version, accept).await,
        }
    }

    fn snapshot_json(&self, role: Option<Role>) -> String {
        let live = live_view(&self.state, self.clock_now(), self.job.is_some());
        let msg = ServerMsg::Snapshot {
            game: Box::new(snapshot_view(&self.state, live, role)),
        };
        serde_json::to_string(&msg).unwrap_or_default()
    }

    /// Checks, stores, applies and broadcasts a record.
    async fn commit(&mut self, record: Record) -> Result<u64, ActError> {
        let mut next = self.state.clone();
        next.apply(&record)?;
        let status_before = self.state.status();
        let status_after = next.status();
        let event = StoredEvent {
            seq: next.version,
            at_ms: now_ms(),
            body: serde_json::to_string(&record).map_err(internal)?,
        };
        let status = (status_before != status_after).then(|| {
            (
                status_after.as_str(),
                (status_after == Status::Finished).then(|| next.result_text()),
            )
        });
        let store = self.app.store();
        let id = self.state.id.clone();
        let status_owned = status.map(|(s, r)| (s.to_owned(), r.map(str::to_owned)));
        tokio::task::spawn_blocking(move || {
            let status = status_owned
                .as_ref()
                .map(|(s, r)| (s.as_str(), r.as_deref()));
            store.append_event(&id, &event, status)
        })
        .await
        .map_err(internal)?
        .map_err(internal)?;
        // Stored: now it happened.
        self.state = next;
        if record.changes_position() || status_after == Status::Finished {
            if record.changes_position() {
                self.turn_started = Instant::now();
            }
            for (_, job) in [self.job.take(), self.draw_job.take()]
                .into_iter()
                .flatten()
            {
                job.stop();
            }
        }
        self.maybe_start_computer();
        self.broadcast(&record);
        Ok(self.state.version)
    }

    fn broadcast(&self, record: &Record) {
        let variant = self.state.variant();
        let ply = match record {
            Record::Moved { .. } => self.state.plies.last().map(|p| PlyView::of(variant, p)),
            _ => None,
        };
        let Some(event) = EventView::of(record, ply) else {
            return;
        };
        let live = live_view(&self.state, self.clock_now(), self.job.is_some());
        let msg = ServerMsg::Event {
            v: self.state.version,
            event,
            live: Box::new(live),
        };
        if let Ok(json) = serde_json::to_string(&msg) {
            // No receivers is fine: nobody is watching.
            let _ = self.events.send(Arc::from(json));
        }
    }

    /// The colour a role acts for: its own, or the side to move for a shared device.
    fn actor(&self, role: Role) -> Color {
        match role {
            Role::White => Color::White,
            Role::Black => Color::Black,
            Role::Both => self.state.position().side_to_move(),
        }
    }

    async fn act(&mut self, role: Role, action: Action) -> Result<u64, ActError> {
        let mode = self.state.settings.mode;
        let by = self.actor(role);
        match action {
            Action::Move { v, path } => {
                match self.state.status() {
                    Status::Finished => {
                        return Err(ActError::new(ErrorCode::GameOver, "the game is over"))
                    }
                    Status::Waiting => {
                        return Err(ActError::new(
                            ErrorCode::NotStarted,
                            "the game has not started: a seat is free",
                        ))
                    }
                    Status::Active => {}
                }
                let side = self.state.position().side_to_move();
                if !role.plays(side) || self.state.is_computer(side) {
                    return Err(ActError::new(
                        ErrorCode::NotYourTurn,
                        "it is your opponent's move",
                    ));
                }
                if v < self.state.position_version {
                    return Err(ActError::new(
                        ErrorCode::Stale,
                        "the position has changed since your move was made",
                    ));
                }
                // Check the move before the clock, so an illegal attempt costs nothing.
                self.state.resolve_path(&path)?;
                let clock = self.clock_after_move(side).await?;
                self.commit(Record::Moved { path, clock }).await
            }
            Action::Resign => self.commit(Record::Resigned { by: by.into() }).await,
            Action::OfferDraw => match mode {
                Mode::Computer => {
                    if self.state.game.draw_offer() == Some(by) {
                        return Ok(self.state.version);
                    }
                    let v = self.commit(Record::DrawOffered { by: by.into() }).await?;
                    self.maybe_answer_draw();
                    Ok(v)
                }
                Mode::Local => self.commit(Record::DrawAgreed { by: by.into() }).await,
                Mode::Friend | Mode::Lobby => {
                    if self.state.game.draw_offer() == Some(!by) {
                        self.commit(Record::DrawAgreed { by: by.into() }).await
                    } else if self.state.game.draw_offer() == Some(by) {
                        Ok(self.state.version)
                    } else {
                        self.commit(Record::DrawOffered { by: by.into() }).await
                    }
                }
            },
            Action::AcceptDraw => self.commit(Record::DrawAgreed { by: by.into() }).await,
            Action::DeclineDraw => self.commit(Record::DrawDeclined { by: by.into() }).await,
            Action::Takeback => {
                if !matches!(mode, Mode::Computer | Mode::Local) {
                    return Err(ActError::new(
                        ErrorCode::NotAvailable,
                        "take-backs are for games against the computer or on one device",
                    ));
                }
                let plies = match mode {
                    Mode::Local if !self.state.plies.is_empty() => 1,
                    _ => self.state.takeback_plies(role).ok_or_else(|| {
                        ActError::new(
                            ErrorCode::NothingToTakeBack,
                            "there is no move to take back",
                        )
                    })?,
                };
                self.commit(Record::TookBack { plies }).await
            }
            Action::Rematch => self.rematch(role, by).await,
        }
    }

    /// The clock after `side` moves now, or a flag if its time is up.
    async fn clock_after_move(&mut self, side: Color) -> Result<Option<[u64; 2]>, ActError> {
        let Some(mut clock) = self.state.clock else {
            return Ok(None);
        };
        let tc = self.state.settings.time_control;
        if clock_runs(&self.state) {
            let spent = self.turn_started.elapsed().as_millis() as u64;
            let left = clock[side.index()];
            if spent >= left {
                self.commit(Record::Flagged { color: side.into() }).await?;
                return Err(ActError::new(ErrorCode::GameOver, "your time ran out"));
            }
            clock[side.index()] = left - spent + tc.map_or(0, |t| t.increment_s as u64 * 1000);
        }
        Ok(Some(clock))
    }

    async fn claim(
        &mut self,
        invite: Option<String>,
        name: String,
    ) -> Result<(String, Role), ActError> {
        let settings = &self.state.settings;
        match settings.mode {
            Mode::Friend => {
                let ok = match (&settings.invite, &invite) {
                    (Some(code), Some(given)) => ids::secrets_equal(code, given),
                    _ => false,
                };
                if !ok {
                    return Err(ActError::new(
                        ErrorCode::NotFound,
                        "this invitation is not valid",
                    ));
                }
            }
            Mode::Lobby => {}
            Mode::Computer | Mode::Local => {
                return Err(ActError::new(
                    ErrorCode::NotAvailable,
                    "this game has no free seat",
                ))
            }
        }
        let free = Color::BOTH
            .into_iter()
            .find(|&c| !self.state.seat_filled(c))
            .ok_or_else(|| ActError::new(ErrorCode::NotAvailable, "both seats are taken"))?;
        let token = ids::random_token();
        self.commit(Record::Seated {
            color: free.into(),
            token: token.clone(),
            name,
        })
        .await?;
        let role = if free == Color::White {
            Role::White
        } else {
            Role::Black
        };
        Ok((token, role))
    }

    async fn rematch(&mut self, role: Role, by: Color) -> Result<u64, ActError> {
        if !self.state.game.is_over() {
            return Err(ActError::new(
                ErrorCode::NotFinished,
                "the game is not over",
            ));
        }
        if self.state.rematch.is_some() {
            return Err(ActError::new(
                ErrorCode::RematchExists,
                "the rematch has already been made",
            ));
        }
        let both_agree = match self.state.settings.mode {
            Mode::Computer | Mode::Local => true,
            Mode::Friend | Mode::Lobby => {
                role != Role::Both && self.state.rematch_offer == Some(!by)
            }
        };
        if !both_agree {
            if self.state.rematch_offer == Some(by) {
                return Ok(self.state.version);
            }
            return self.commit(Record::RematchOffered { by: by.into() }).await;
        }
        // The same seats, colours reversed: each player's token now holds the other colour.
        let old = &self.state;
        let new_id = ids::game_id();
        let settings = Settings {
            mode: old.settings.mode,
            level: old.settings.level,
            computer: old.settings.computer.map(|s| Side::from(!Color::from(s))),
            time_control: old.settings.time_control,
            invite: None,
            rematch_of: Some(old.id.clone()),
            creator: old.settings.creator.map(|s| Side::from(!Color::from(s))),
            creator_name: None,
        };
        let start = *old.game.start_position();
        let mut records = Vec::new();
        for color in Color::BOTH {
            if let Some(seat) = &old.seats[color.index()] {
                records.push(Record::Seated {
                    color: (!color).into(),
                    token: seat.token.clone(),
                    name: seat.name.clone(),
                });
            }
        }
        let created = now_ms();
        let mut fresh = GameState::new(new_id.clone(), created, start, settings);
        let mut events = Vec::new();
        for r in &records {
            fresh.apply(r)?;
            events.push(StoredEvent {
                seq: fresh.version,
                at_ms: created,
                body: serde_json::to_string(r).map_err(internal)?,
            });
        }
        let stored = StoredGame {
            id: new_id.clone(),
            created_ms: created,
            variant: start.variant().key().to_owned(),
            start_fen: start.fen(),
            settings: serde_json::to_string(&fresh.settings).map_err(internal)?,
            status: fresh.status().as_str().to_owned(),
        };
        let store = self.app.store();
        tokio::task::spawn_blocking(move || store.create_game(&stored, &events))
            .await
            .map_err(internal)?
            .map_err(|e| match e {
                StoreError::Conflict { .. } => {
                    ActError::new(ErrorCode::Internal, "could not make the rematch; try again")
                }
                e => internal(e),
            })?;
        self.commit(Record::Rematch { game: new_id }).await
    }

    /// What the computer, playing `side`, is asked about the game as it stands.
    fn computer_request(&self, side: Color) -> ComputerRequest {
        ComputerRequest {
            game: self.state.game.clone(),
            level: self.state.settings.level.unwrap_or(1),
            clock_ms: self.clock_now().map(|c| c[side.index()]),
            increment_ms: self
                .state
                .settings
                .time_control
                .map_or(0, |t| t.increment_s as u64 * 1000),
        }
    }

    fn maybe_start_computer(&mut self) {
        if self.job.is_some() || self.state.status() != Status::Active {
            return;
        }
        let side = self.state.position().side_to_move();
        if !self.state.is_computer(side) {
            return;
        }
        let Some(pool) = self.app.computer() else {
            return;
        };
        let Some(tx) = self.me.upgrade() else {
            return;
        };
        let version = self.state.version;
        let handle = pool.submit(self.computer_request(side), move |mv| {
            // Runs on the computer's thread: hand the move to the room's queue.
            let _ = tx.blocking_send(Command::ComputerMove { version, mv });
        });
        self.job = Some((version, handle));
    }

    /// Asks the computer about a pending draw offer of its opponent's, if there is one and it
    /// is not being judged already.
    fn maybe_answer_draw(&mut self) {
        if self.draw_job.is_some() || self.state.status() != Status::Active {
            return;
        }
        let Some(offered_by) = self.state.game.draw_offer() else {
            return;
        };
        if !self.state.is_computer(!offered_by) {
            return;
        }
        let (Some(pool), Some(tx)) = (self.app.computer(), self.me.upgrade()) else {
            return;
        };
        let version = self.state.version;
        let handle = pool.submit_draw(self.computer_request(!offered_by), move |accept| {
            let _ = tx.blocking_send(Command::ComputerDraw { version, accept });
        });
        self.draw_job = Some((version, handle));
    }

    async fn computer_draw(&mut self, version: u64, accept: bool) {
        match &self.draw_job {
            Some((v, _)) if *v == version => {}
            _ => return, // a stale answer
        }
        self.draw_job = None;
        let Some(offered_by) = self.state.game.draw_offer() else {
            return; // the offer lapsed meanwhile (a move was played)
        };
        if self.state.status() != Status::Active || !self.state.is_computer(!offered_by) {
            return;
        }
        let by = (!offered_by).into();
        let record = if accept {
            Record::DrawAgreed { by }
        } else {
            Record::DrawDeclined { by }
        };
        if let Err(e) = self.commit(record).await {
            eprintln!(
                "dama-server: game {}: the computer's draw answer was refused: {}",
                self.state.id, e.message
            );
        }
    }

    async fn computer_move(&mut self, version: u64, mv: Option<AnyMove>) {
        match &self.job {
            Some((v, _)) if *v == version => {}
            _ => return, // a stale search: the game changed meanwhile
        }
        self.job = None;
        if self.state.version != version {
            self.maybe_start_computer();
            return;
        }
        let Some(mv) = mv else {
            eprintln!(
                "dama-server: game {}: the computer found no move",
                self.state.id
            );
            return;
        };
        let variant = self.state.variant();
        let pos = *self.state.position();
        let path = pos
            .paths(&mv)
            .into_iter()
            .next()
            .unwrap_or_else(|| vec![mv.from, mv.to]);
        let path: Vec<String> = path.into_iter().map(|s| variant.square_name(s)).collect();
        let side = pos.side_to_move();
        let clock = match self.clock_after_move(side).await {
            Ok(c) => c,
            Err(_) => return,
        };
        if let Err(e) = self.commit(Record::Moved { path, clock }).await {
            eprintln!(
                "dama-server: game {}: the computer's move was refused: {}",
                self.state.id, e.message
            );
        }
    }
}
