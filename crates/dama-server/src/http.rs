//! The HTTP API: create and join games, the lobby, game views, PDN export and import.

use crate::app::AppState;
use crate::ids;
use crate::notation_io;
use crate::room::{now_ms, Command};
use crate::state::{GameState, Mode, Record, Role, Settings, Side, Status, TimeControl};
use crate::store::{StoreError, StoredEvent, StoredGame};
use crate::view::{PlyView, VariantView};
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use dama_core::{AnyPosition, Color, Variant};
use serde::{Deserialize, Serialize};
use serde_json::json;
use tokio::sync::oneshot;

/// An error answer: `{"error": code, "message": text}` with an HTTP status.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    code: &'static str,
    message: String,
}

impl ApiError {
    /// A 400 with a code and message.
    pub fn bad(code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            code,
            message: message.into(),
        }
    }

    fn not_found() -> Self {
        ApiError {
            status: StatusCode::NOT_FOUND,
            code: "not_found",
            message: "no such game".into(),
        }
    }

    fn internal(e: impl std::fmt::Display) -> Self {
        eprintln!("dama-server: {e}");
        ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            code: "internal",
            message: "the server failed; nothing was changed".into(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(json!({"error": self.code, "message": self.message})),
        )
            .into_response()
    }
}

/// `GET /api/info`: protocol version, variants, computer levels.
pub async fn info(State(app): State<AppState>) -> Json<serde_json::Value> {
    let variants: Vec<VariantView> = Variant::ALL.into_iter().map(VariantView::of).collect();
    let computer = app
        .computer()
        .map(|c| json!({"name": c.name(), "levels": c.levels()}));
    Json(json!({
        "protocol": crate::protocol::PROTOCOL_VERSION,
        "version": env!("CARGO_PKG_VERSION"),
        "variants": variants,
        "computer": computer,
    }))
}

/// Which colour the creator wants.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    /// White.
    White,
    /// Black.
    Black,
    /// Either.
    Random,
}

/// `POST /api/games` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    variant: String,
    mode: Mode,
    #[serde(default)]
    color: Option<ColorChoice>,
    #[serde(default)]
    level: Option<u8>,
    #[serde(default)]
    time_control: Option<TimeControl>,
    /// Start from this position instead of the variant's start.
    #[serde(default)]
    fen: Option<String>,
    #[serde(default)]
    name: Option<String>,
}

/// Answer to creating or joining a game.
#[derive(Debug, Serialize)]
pub struct SeatAnswer {
    /// Game id.
    pub id: String,
    /// The seat token (keep it secret).
    pub token: String,
    /// The seats it holds.
    pub role: Role,
    /// For friend games: the invite path to send to the friend.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
}

/// A display name: trimmed, at most 24 characters, no control characters.
fn clean_name(name: Option<String>) -> String {
    name.unwrap_or_default()
        .chars()
        .filter(|c| !c.is_control())
        .take(24)
        .collect::<String>()
        .trim()
        .to_owned()
}

fn random_color() -> Color {
    let mut b = [0u8; 1];
    if getrandom::fill(&mut b).is_err() {
        return Color::White;
    }
    if b[0] & 1 == 0 {
        Color::White
    } else {
        Color::Black
    }
}

/// `POST /api/games`: a new game; the creator gets a seat token.
pub async fn create_game(
    State(app): State<AppState>,
    body: Result<Json<CreateGame>, axum::extract::rejection::JsonRejection>,
) -> Result<Json<SeatAnswer>, ApiError> {
    let Json(req) = body.map_err(|e| ApiError::bad("bad_request", e.body_text()))?;
    let variant: Variant =
        req.variant
            .parse()
            .map_err(|e: dama_core::variant::UnknownVariant| {
                ApiError::bad("bad_variant", e.to_string())
            })?;
    let start = match req.fen.as_deref().map(str::trim) {
        None | Some("") => AnyPosition::start(variant),
        Some(fen) => AnyPosition::from_fen(variant, fen)
            .map_err(|e| ApiError::bad("bad_fen", e.to_string()))?,
    };
    if let Some(tc) = req.time_control {
        if !tc.is_valid() {
            return Err(ApiError::bad(
                "bad_time_control",
                "time control: 1 s to 3 h, increment up to 180 s",
            ));
        }
    }
    let creator = match req.color.unwrap_or(ColorChoice::Random) {
        ColorChoice::White => Color::White,
        ColorChoice::Black => Color::Black,
        ColorChoice::Random => random_color(),
    };
    let mut settings = Settings {
        time_control: req.time_control,
        creator: Some(creator.into()),
        ..Settings::of_mode(req.mode)
    };
    match req.mode {
        Mode::Computer => {
            let pool = app.computer().ok_or_else(|| {
                ApiError::bad("no_computer", "this server has no computer opponent")
            })?;
            let level = req.level.unwrap_or(1);
            if level == 0 || level > pool.levels() {
                return Err(ApiError::bad(
                    "bad_level",
                    format!("level must be 1 to {}", pool.levels()),
                ));
            }
            settings.level = Some(level);
            settings.computer = Some((!creator).into());
        }
        Mode::Friend => settings.invite = Some(ids::random_token()),
        Mode::Local => settings.creator = None,
        Mode::Lobby => {}
    }
    let id = ids::game_id();
    let token = ids::random_token();
    let name = clean_name(req.name);
    if req.mode == Mode::Lobby && !name.is_empty() {
        settings.creator_name = Some(name.clone());
    }
    let seats: Vec<Color> = if req.mode == Mode::Local {
        vec![Color::White, Color::Black]
    } else {
        vec![creator]
    };
    let created = now_ms();
    let mut state = GameState::new(id.clone(), created, start, settings);
    if state.game.is_over() {
        return Err(ApiError::bad(
            "no_moves",
            "the side to move has no moves in this position",
        ));
    }
    let mut events = Vec::new();
    for color in seats {
        let record = Record::Seated {
            color: color.into(),
            token: token.clone(),
            name: name.clone(),
        };
        state
            .apply(&record)
            .map_err(|e| ApiError::bad("bad_request", e.to_string()))?;
        events.push(StoredEvent {
            seq: state.version,
            at_ms: created,
            body: serde_json::to_string(&record).map_err(ApiError::internal)?,
        });
    }
    let role = match req.mode {
        Mode::Local => Role::Both,
        _ if creator == Color::White => Role::White,
        _ => Role::Black,
    };
    let stored = StoredGame {
        id: id.clone(),
        created_ms: created,
        variant: variant.key().to_owned(),
        start_fen: start.fen(),
        settings: serde_json::to_string(&state.settings).map_err(ApiError::internal)?,
        status: state.status().as_str().to_owned(),
    };
    let store = app.store();
    tokio::task::spawn_blocking(move || store.create_game(&stored, &events))
        .await
        .map_err(ApiError::internal)?
        .map_err(|e| match e {
            StoreError::Conflict { .. } => ApiError::internal("game id collision"),
            e => ApiError::internal(e),
        })?;
    let invite = state
        .settings
        .invite
        .as_ref()
        .map(|code| format!("/join/{id}/{code}"));
    Ok(Json(SeatAnswer {
        id,
        token,
        role,
        invite,
    }))
}

/// `POST /api/games/{id}/join` body.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JoinGame {
    #[serde(default)]
    invite: Option<String>,
    #[serde(default)]
    name: Option<String>,
}

fn check_id(id: &str) -> Result<(), ApiError> {
    if ids::is_well_formed(id, 16) {
        Ok(())
    } else {
        Err(ApiError::not_found())
    }
}

/// `POST /api/games/{id}/join`: take the free seat of a friend game (with the invite code) or
/// of a lobby challenge.
pub async fn join_game(
    State(app): State<AppState>,
    Path(id): Path<String>,
    body: Result<Json<JoinGame>, axum::extract::rejection::JsonRejection>,
) -> Result<Json<SeatAnswer>, ApiError> {
    check_id(&id)?;
    let Json(req) = body.map_err(|e| ApiError::bad("bad_request", e.body_text()))?;
    let (reply, answer) = oneshot::channel();
    app.room(&id)
        .send(Command::Claim {
            invite: req.invite,
            name: clean_name(req.name),
            reply,
        })
        .await
        .map_err(|_| ApiError::internal("room stopped"))?;
    let result = answer.await.map_err(|_| ApiError::not_found())?;
    match result {
        Ok((token, role)) => Ok(Json(SeatAnswer {
            id,
            token,
            role,
            invite: None,
        })),
        Err(e) if e.code == crate::protocol::ErrorCode::NotFound => Err(ApiError {
            status: StatusCode::NOT_FOUND,
            code: "bad_invite",
            message: e.message,
        }),
        Err(e) => Err(ApiError {
            status: StatusCode::CONFLICT,
            code: "seat_taken",
            message: e.message,
        }),
    }
}

/// `GET /api/games/{id}`: the game as a spectator sees it (a `snapshot` message).
pub async fn get_game(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    check_id(&id)?;
    let (reply, answer) = oneshot::channel();
    app.room(&id)
        .send(Command::Snapshot { role: None, reply })
        .await
        .map_err(|_| ApiError::internal("room stopped"))?;
    let json = answer.await.map_err(|_| ApiError::not_found())?;
    Ok(([(header::CONTENT_TYPE, "application/json")], json).into_response())
}

async fn load_state(app: &AppState, id: &str) -> Result<GameState, ApiError> {
    check_id(id)?;
    let store = app.store();
    let id = id.to_owned();
    let loaded = tokio::task::spawn_blocking(move || store.load_game(&id))
        .await
        .map_err(ApiError::internal)?
        .map_err(ApiError::internal)?;
    let (game, events) = loaded.ok_or_else(ApiError::not_found)?;
    GameState::from_stored(&game, &events).map_err(ApiError::internal)
}

/// `GET /api/games/{id}/pdn`: the game as a PDN file.
pub async fn get_pdn(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let state = load_state(&app, &id).await?;
    let pdn = notation_io::game_to_pdn(&state);
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/x-draughts-pdn; charset=utf-8".to_owned(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"dama-{id}.pdn\""),
            ),
        ],
        pdn,
    )
        .into_response())
}

/// An open challenge in the lobby.
#[derive(Debug, Serialize)]
pub struct Challenge {
    id: String,
    variant: String,
    time_control: Option<TimeControl>,
    /// The colour the challenger plays.
    color: Option<Side>,
    name: String,
    created_ms: i64,
}

/// How long a challenge stays in the lobby.
const CHALLENGE_LIFETIME_MS: i64 = 60 * 60 * 1000;

/// `GET /api/lobby`: open challenges, newest first.
pub async fn lobby(State(app): State<AppState>) -> Result<Json<Vec<Challenge>>, ApiError> {
    let store = app.store();
    let since = now_ms() - CHALLENGE_LIFETIME_MS;
    let games = tokio::task::spawn_blocking(move || -> Result<Vec<_>, StoreError> {
        let list = store.list_games(Status::Waiting.as_str(), since, 200)?;
        let mut out = Vec::new();
        for summary in list {
            let Ok(settings) = serde_json::from_str::<Settings>(&summary.game.settings) else {
                continue;
            };
            if settings.mode != Mode::Lobby {
                continue;
            }
            out.push(Challenge {
                id: summary.game.id,
                variant: summary.game.variant,
                time_control: settings.time_control,
                color: settings.creator,
                name: settings.creator_name.unwrap_or_default(),
                created_ms: summary.game.created_ms,
            });
            if out.len() >= 50 {
                break;
            }
        }
        Ok(out)
    })
    .await
    .map_err(ApiError::internal)?
    .map_err(ApiError::internal)?;
    Ok(Json(games))
}

/// `POST /api/import` body: PDN or FEN text.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImportText {
    text: String,
    /// The variant to assume when the text does not say (PDN without `GameType`, or FEN).
    #[serde(default)]
    variant: Option<String>,
}

/// Largest PDN or FEN text accepted.
pub const MAX_IMPORT_BYTES: usize = 256 * 1024;

/// `POST /api/import`: reads PDN or FEN and returns the game for replay (nothing is stored).
pub async fn import(
    body: Result<Json<ImportText>, axum::extract::rejection::JsonRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let Json(req) = body.map_err(|e| ApiError::bad("bad_request", e.body_text()))?;
    if req.text.len() > MAX_IMPORT_BYTES {
        return Err(ApiError::bad(
            "too_large",
            "the text is longer than 256 KiB",
        ));
    }
    let fallback = match req.variant.as_deref() {
        None | Some("") => None,
        Some(key) => Some(
            key.parse::<Variant>()
                .map_err(|e| ApiError::bad("bad_variant", e.to_string()))?,
        ),
    };
    let imported = tokio::task::spawn_blocking(move || notation_io::import(&req.text, fallback))
        .await
        .map_err(ApiError::internal)?
        .map_err(|e| ApiError::bad("bad_import", e.to_string()))?;
    let variant = imported.start.variant();
    let plies: Vec<PlyView> = imported
        .plies
        .iter()
        .map(|p| PlyView::of(variant, p))
        .collect();
    Ok(Json(json!({
        "variant": VariantView::of(variant),
        "start_fen": imported.start.fen(),
        "plies": plies,
        "tags": imported.tags,
        "result": imported.result,
    })))
}
