//! Helpers for the server's integration tests: an application over a store, HTTP requests
//! through the router without a socket, a real server on 127.0.0.1:0, and WebSocket clients.
#![allow(dead_code)]

use axum::body::Body;
use axum::http::{Request, StatusCode};
use dama_core::AnyMove;
use dama_server::computer::{Computer, ComputerPool, ComputerRequest};
use dama_server::store::{MemoryStore, Store};
use dama_server::AppState;
use futures_util::{SinkExt, StreamExt};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;
use tower::ServiceExt;

/// A computer for tests: plays the legal move that comes first in the generator's order,
/// after thinking for `delay` (on its own thread, stopping early when asked); accepts a draw
/// when both sides have as many pieces, declines it otherwise.
pub struct TestComputer {
    pub delay: Duration,
}

impl Computer for TestComputer {
    fn name(&self) -> String {
        "test".into()
    }
    fn levels(&self) -> u8 {
        3
    }
    fn choose(&self, request: &ComputerRequest, stop: &AtomicBool) -> Option<AnyMove> {
        let until = std::time::Instant::now() + self.delay;
        while std::time::Instant::now() < until {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        request.game.legal_moves().into_iter().next()
    }
    fn accepts_draw(&self, request: &ComputerRequest, _: &AtomicBool) -> bool {
        let pos = request.game.position();
        let count = |c| {
            pos.variant()
                .squares()
                .filter(|&s| pos.piece_at(s).is_some_and(|p| p.color == c))
                .count()
        };
        count(dama_core::Color::White) == count(dama_core::Color::Black)
    }
}

pub fn app_with(store: Arc<dyn Store>, computer_delay: Option<Duration>) -> AppState {
    let pool = computer_delay
        .map(|delay| Arc::new(ComputerPool::new(Arc::new(TestComputer { delay }), 2)));
    AppState::new(store, pool)
}

pub fn app() -> AppState {
    app_with(Arc::new(MemoryStore::new()), Some(Duration::from_millis(5)))
}

/// Sends a request through the router (no socket). Returns status and body (JSON if it parses,
/// else a JSON string).
pub async fn request(
    app: &AppState,
    method: &str,
    uri: &str,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let (status, bytes, _) = request_raw(app, method, uri, body).await;
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    (status, value)
}

pub async fn request_raw(
    app: &AppState,
    method: &str,
    uri: &str,
    body: Option<Value>,
) -> (StatusCode, Vec<u8>, axum::http::HeaderMap) {
    let mut builder = Request::builder().method(method).uri(uri);
    let body = match body {
        Some(v) => {
            builder = builder.header("content-type", "application/json");
            Body::from(v.to_string())
        }
        None => Body::empty(),
    };
    let res = dama_server::router(app.clone())
        .oneshot(builder.body(body).unwrap())
        .await
        .unwrap();
    let status = res.status();
    let headers = res.headers().clone();
    let bytes = res.into_body().collect().await.unwrap().to_bytes().to_vec();
    (status, bytes, headers)
}

/// Creates a game; returns (id, token, body).
pub async fn create(app: &AppState, body: Value) -> (String, String, Value) {
    let (status, v) = request(app, "POST", "/api/games", Some(body)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    (
        v["id"].as_str().unwrap().to_owned(),
        v["token"].as_str().unwrap().to_owned(),
        v,
    )
}

/// A friend game with both seats taken: (id, white token, black token).
pub async fn friend_game(
    app: &AppState,
    variant: &str,
    fen: Option<&str>,
) -> (String, String, String) {
    let mut body = json!({"variant": variant, "mode": "friend", "color": "white", "name": "Asha"});
    if let Some(f) = fen {
        body["fen"] = json!(f);
    }
    let (id, white, created) = create(app, body).await;
    let invite = created["invite"].as_str().unwrap();
    let code = invite.rsplit('/').next().unwrap();
    let (status, joined) = request(
        app,
        "POST",
        &format!("/api/games/{id}/join"),
        Some(json!({"invite": code, "name": "Boris"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{joined}");
    assert_eq!(joined["role"], "black");
    (id, white, joined["token"].as_str().unwrap().to_owned())
}

/// A real server on 127.0.0.1:0 serving `app`.
pub struct Server {
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    handle: tokio::task::JoinHandle<()>,
}

impl Server {
    pub async fn start(app: AppState) -> Server {
        let bound = dama_server::bind("127.0.0.1:0".parse().unwrap(), app)
            .await
            .unwrap();
        let addr = bound.local_addr().unwrap();
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let handle = tokio::spawn(async move {
            bound
                .run(async move {
                    let _ = rx.await;
                })
                .await
                .unwrap();
        });
        Server {
            addr,
            stop: Some(tx),
            handle,
        }
    }

    pub async fn stop(mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        let _ = tokio::time::timeout(Duration::from_secs(5), &mut self.handle).await;
    }
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A WebSocket client speaking the game protocol.
pub struct Client {
    pub ws: Ws,
    next_id: u64,
    /// The latest version seen.
    pub v: u64,
    /// Events received, in order.
    pub events: Vec<Value>,
    /// The latest live state.
    pub live: Value,
}

pub const WAIT: Duration = Duration::from_secs(10);

impl Client {
    /// Connects and says hello; returns the client and the snapshot's game.
    pub async fn join(addr: SocketAddr, game: &str, token: Option<&str>) -> (Client, Value) {
        let mut c = Client::connect(addr, game).await;
        c.send(json!({"type": "hello", "token": token})).await;
        let snap = c.recv_type("snapshot").await;
        (c, snap["game"].clone())
    }

    /// Connects without saying hello.
    pub async fn connect(addr: SocketAddr, game: &str) -> Client {
        let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws/{game}"))
            .await
            .unwrap();
        Client {
            ws,
            next_id: 1,
            v: 0,
            events: Vec::new(),
            live: Value::Null,
        }
    }

    pub async fn send(&mut self, v: Value) {
        self.ws.send(Message::text(v.to_string())).await.unwrap();
    }

    /// The next message, noting versions and live state.
    pub async fn recv(&mut self) -> Value {
        loop {
            let msg = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("no message in time")
                .expect("connection ended")
                .expect("connection error");
            let text = match msg {
                Message::Text(t) => t.to_string(),
                Message::Close(f) => return json!({"type": "closed", "frame": format!("{f:?}")}),
                _ => continue,
            };
            let v: Value = serde_json::from_str(&text).unwrap();
            match v["type"].as_str() {
                Some("event") => {
                    let ver = v["v"].as_u64().unwrap();
                    assert_eq!(ver, self.v + 1, "events arrive in order without gaps");
                    self.v = ver;
                    self.live = v["live"].clone();
                    self.events.push(v["event"].clone());
                }
                Some("snapshot") => {
                    self.v = v["game"]["live"]["v"].as_u64().unwrap();
                    self.live = v["game"]["live"].clone();
                }
                _ => {}
            }
            return v;
        }
    }

    pub async fn recv_type(&mut self, ty: &str) -> Value {
        loop {
            let v = self.recv().await;
            if v["type"] == ty {
                return v;
            }
        }
    }

    /// Waits until the client has seen version `v`.
    pub async fn wait_v(&mut self, v: u64) {
        while self.v < v {
            self.recv().await;
        }
    }

    /// Sends an action with a fresh id; returns its ack or error.
    pub async fn act(&mut self, mut msg: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        msg["id"] = json!(id);
        self.send(msg).await;
        loop {
            let v = self.recv().await;
            if matches!(v["type"].as_str(), Some("ack") | Some("error")) && v["id"] == json!(id) {
                return v;
            }
        }
    }

    /// Plays a move along a path at the client's current version.
    pub async fn play(&mut self, path: &[&str]) -> Value {
        let v = self.v;
        self.act(json!({"type": "move", "v": v, "path": path}))
            .await
    }
}

/// A fresh directory under the system's temporary directory.
pub fn temp_dir(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "dama-test-{tag}-{}-{}",
        std::process::id(),
        dama_server::ids::random_token()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
