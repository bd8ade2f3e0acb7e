//! One WebSocket connection: reads client messages, forwards them to the game's room, and
//! writes the room's events back.
//!
//! Untrusted input is bounded: messages over [`MAX_CLIENT_MESSAGE`] bytes close the connection
//! with code 1009, malformed messages get a `bad_message` error, a client that sends more than
//! a burst of [`BURST`] messages (refilled at [`RATE_PER_S`] a second) gets `rate_limited` for
//! each extra one and is disconnected if it keeps on, and a connection that says nothing for
//! [`IDLE_TIMEOUT`] is closed.

use crate::app::AppState;
use crate::ids;
use crate::protocol::{ClientMsg, ErrorCode, ServerMsg, MAX_CLIENT_MESSAGE};
use crate::room::{ActError, Action, Command};
use crate::state::Role;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{broadcast, mpsc, oneshot};
use tokio::time::Instant;

/// Messages a client may send at once.
pub const BURST: f64 = 40.0;
/// Sustained messages per second.
pub const RATE_PER_S: f64 = 10.0;
/// Refused messages after which the connection is closed.
const MAX_REFUSED: u32 = 200;
/// Silence after which a connection is closed (clients ping every 25 s).
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(90);
/// Time a client has to say `hello`.
const HELLO_TIMEOUT: Duration = Duration::from_secs(15);

/// `GET /ws/{id}`: upgrades to a WebSocket for the game.
pub async fn upgrade(
    ws: WebSocketUpgrade,
    Path(id): Path<String>,
    State(app): State<AppState>,
) -> Response {
    // Client messages are small: a small read buffer saves memory per connection and the
    // cost of clearing a large one on every read.
    ws.max_message_size(MAX_CLIENT_MESSAGE)
        .max_frame_size(MAX_CLIENT_MESSAGE)
        .read_buffer_size(4096)
        .on_upgrade(move |socket| connection(socket, app, id))
}

/// A token bucket.
struct RateLimit {
    tokens: f64,
    last: Instant,
}

impl RateLimit {
    fn new() -> Self {
        RateLimit {
            tokens: BURST,
            last: Instant::now(),
        }
    }

    fn allow(&mut self) -> bool {
        let now = Instant::now();
        let dt = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + dt * RATE_PER_S).min(BURST);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

fn json(msg: &ServerMsg) -> Message {
    Message::Text(Utf8Bytes::from(
        serde_json::to_string(msg).unwrap_or_default(),
    ))
}

fn error(id: Option<u64>, code: ErrorCode, message: &str) -> Message {
    json(&ServerMsg::Error {
        id,
        code,
        message: message.to_owned(),
        illegal: None,
    })
}

struct Session {
    room: mpsc::Sender<Command>,
    role: Option<Role>,
    /// Highest version sent to the client.
    sent_v: u64,
    events: broadcast::Receiver<Arc<str>>,
}

async fn connection(socket: WebSocket, app: AppState, id: String) {
    let (mut sink, mut stream) = socket.split();
    let mut limit = RateLimit::new();
    let mut refused = 0u32;
    let mut session: Option<Session> = None;
    let hello_deadline = Instant::now() + HELLO_TIMEOUT;
    let mut last_heard = Instant::now();
    loop {
        let idle_deadline = if session.is_none() {
            hello_deadline
        } else {
            last_heard + IDLE_TIMEOUT
        };
        let out: Option<Message> = tokio::select! {
            incoming = stream.next() => {
                let msg = match incoming {
                    None => break,
                    Some(Err(e)) => {
                        // Too large, or a protocol violation: say why and close.
                        let text = e.to_string();
                        let (code, reason) = if text.contains("too long") || text.contains("too big") || text.contains("Space limit") {
                            (1009, "message too big")
                        } else {
                            (1002, "protocol error")
                        };
                        let _ = sink.send(Message::Close(Some(CloseFrame {
                            code,
                            reason: Utf8Bytes::from_static(reason),
                        }))).await;
                        break;
                    }
                    Some(Ok(m)) => m,
                };
                last_heard = Instant::now();
                let text = match msg {
                    Message::Text(t) => t,
                    Message::Binary(_) => {
                        if sink.send(error(None, ErrorCode::BadMessage, "messages are JSON text")).await.is_err() { break; }
                        continue;
                    }
                    Message::Ping(_) | Message::Pong(_) => continue,
                    Message::Close(_) => break,
                };
                if !limit.allow() {
                    refused += 1;
                    if refused > MAX_REFUSED {
                        let _ = sink.send(Message::Close(Some(CloseFrame {
                            code: 1008,
                            reason: Utf8Bytes::from_static("too many messages"),
                        }))).await;
                        break;
                    }
                    Some(error(None, ErrorCode::RateLimited, "too many messages; slow down"))
                } else {
                    match serde_json::from_str::<ClientMsg>(text.as_str()) {
                        Err(e) => Some(error(None, ErrorCode::BadMessage, &format!("not a valid message: {e}"))),
                        Ok(msg) => match handle(&app, &id, &mut session, msg).await {
                            Flow::Send(m) => Some(m),
                            Flow::Close(m) => {
                                let _ = sink.send(m).await;
                                break;
                            }
                        },
                    }
                }
            }
            event = next_event(&mut session) => match event {
                EventFlow::Forward(json) => Some(Message::Text(Utf8Bytes::from(json.as_ref()))),
                EventFlow::Skip => None,
                EventFlow::Resync => resync(&mut session).await,
                EventFlow::RoomGone => break,
            },
            _ = tokio::time::sleep_until(idle_deadline) => {
                let _ = sink.send(Message::Close(Some(CloseFrame {
                    code: 1001,
                    reason: Utf8Bytes::from_static("idle"),
                }))).await;
                break;
            }
        };
        if let Some(m) = out {
            if sink.send(m).await.is_err() {
                break;
            }
        }
    }
}

enum EventFlow {
    Forward(Arc<str>),
    Skip,
    Resync,
    RoomGone,
}

async fn next_event(session: &mut Option<Session>) -> EventFlow {
    let Some(s) = session.as_mut() else {
        return std::future::pending().await;
    };
    match s.events.recv().await {
        Ok(json) => {
            // Events carry their version; those the client's snapshot already includes are
            // skipped. The version sits at a fixed place: `{"type":"event","v":N,`.
            match event_version(&json) {
                Some(v) if v <= s.sent_v => EventFlow::Skip,
                Some(v) => {
                    s.sent_v = v;
                    EventFlow::Forward(json)
                }
                None => EventFlow::Forward(json),
            }
        }
        Err(broadcast::error::RecvError::Lagged(_)) => EventFlow::Resync,
        Err(broadcast::error::RecvError::Closed) => EventFlow::RoomGone,
    }
}

/// The `v` of an event message.
fn event_version(json: &str) -> Option<u64> {
    let rest = json.strip_prefix("{\"type\":\"event\",\"v\":")?;
    let end = rest.find(|c: char| !c.is_ascii_digit())?;
    rest[..end].parse().ok()
}

/// A fresh snapshot for a client that fell behind.
async fn resync(session: &mut Option<Session>) -> Option<Message> {
    let s = session.as_mut()?;
    let (reply, answer) = oneshot::channel();
    s.room
        .send(Command::Snapshot {
            role: s.role,
            reply,
        })
        .await
        .ok()?;
    let snapshot = answer.await.ok()?;
    if let Some(v) = snapshot_version(&snapshot) {
        s.sent_v = v;
    }
    Some(Message::Text(Utf8Bytes::from(snapshot)))
}

fn snapshot_version(json: &str) -> Option<u64> {
    let v: serde_json::Value = serde_json::from_str(json).ok()?;
    v["game"]["live"]["v"].as_u64()
}

enum Flow {
    Send(Message),
    Close(Message),
}

async fn handle(app: &AppState, id: &str, session: &mut Option<Session>, msg: ClientMsg) -> Flow {
    let action_id = msg.id();
    let action = match msg {
        ClientMsg::Hello { token } => {
            if session.is_some() {
                return Flow::Send(error(None, ErrorCode::AlreadyJoined, "already joined"));
            }
            if !ids::is_well_formed(id, 16) {
                return Flow::Close(error(None, ErrorCode::NotFound, "no such game"));
            }
            if let Some(t) = &token {
                if !ids::is_well_formed(t, 64) {
                    return Flow::Send(error(
                        None,
                        ErrorCode::BadToken,
                        "this seat token is not valid for this game",
                    ));
                }
            }
            let room = app.room(id);
            let (reply, answer) = oneshot::channel();
            if room.send(Command::Join { token, reply }).await.is_err() {
                return Flow::Close(error(
                    None,
                    ErrorCode::Internal,
                    "the game is not available",
                ));
            }
            return match answer.await {
                Ok(Ok(joined)) => {
                    *session = Some(Session {
                        room,
                        role: joined.role,
                        sent_v: joined.version,
                        events: joined.events,
                    });
                    Flow::Send(Message::Text(Utf8Bytes::from(joined.snapshot)))
                }
                Ok(Err(ErrorCode::BadToken)) => Flow::Send(error(
                    None,
                    ErrorCode::BadToken,
                    "this seat token is not valid for this game",
                )),
                _ => Flow::Close(error(None, ErrorCode::NotFound, "no such game")),
            };
        }
        ClientMsg::Ping { t } => return Flow::Send(json(&ServerMsg::Pong { t })),
        ClientMsg::Sync => {
            return match resync(session).await {
                Some(m) => Flow::Send(m),
                None => Flow::Send(error(None, ErrorCode::NotJoined, "say hello first")),
            }
        }
        ClientMsg::Move { v, path, .. } => Action::Move { v, path },
        ClientMsg::Resign { .. } => Action::Resign,
        ClientMsg::OfferDraw { .. } => Action::OfferDraw,
        ClientMsg::AcceptDraw { .. } => Action::AcceptDraw,
        ClientMsg::DeclineDraw { .. } => Action::DeclineDraw,
        ClientMsg::Takeback { .. } => Action::Takeback,
        ClientMsg::Rematch { .. } => Action::Rematch,
    };
    let Some(s) = session.as_mut() else {
        return Flow::Send(error(action_id, ErrorCode::NotJoined, "say hello first"));
    };
    let Some(role) = s.role else {
        return Flow::Send(error(
            action_id,
            ErrorCode::Spectator,
            "spectators cannot play",
        ));
    };
    let (reply, answer) = oneshot::channel();
    if s.room
        .send(Command::Act {
            role,
            action,
            reply,
        })
        .await
        .is_err()
    {
        return Flow::Close(error(
            action_id,
            ErrorCode::Internal,
            "the game is not available",
        ));
    }
    let result: Result<u64, ActError> = match answer.await {
        Ok(r) => r,
        Err(_) => {
            return Flow::Close(error(
                action_id,
                ErrorCode::Internal,
                "the game is not available",
            ))
        }
    };
    match result {
        Ok(v) => Flow::Send(json(&ServerMsg::Ack {
            id: action_id.unwrap_or(0),
            v,
        })),
        Err(e) => Flow::Send(json(&e.to_msg(action_id))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_read_from_event_json() {
        assert_eq!(
            event_version("{\"type\":\"event\",\"v\":17,\"event\":{}}"),
            Some(17)
        );
        assert_eq!(event_version("{\"type\":\"ack\"}"), None);
    }

    #[test]
    fn rate_limit_allows_a_burst_then_refuses() {
        let mut l = RateLimit::new();
        let allowed = (0..100).filter(|_| l.allow()).count();
        assert!((40..=41).contains(&allowed), "{allowed}");
    }
}
