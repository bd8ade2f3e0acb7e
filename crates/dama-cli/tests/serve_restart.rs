//! `dama serve` killed with SIGKILL mid-game and started again: both players reconnect and the
//! game continues with no move lost.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(data_dir: &std::path::Path, port: u16) -> Server {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let mut child = Command::new(env!("CARGO_BIN_EXE_dama"))
            .args(["serve", "--port", &port.to_string(), "--data-dir"])
            .arg(data_dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("dama starts");
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        out.read_line(&mut line).unwrap();
        if let Some(rest) = line.split("http://127.0.0.1:").nth(1) {
            let port: u16 = rest.trim_end().trim_end_matches('/').parse().unwrap();
            // Keep reading stdout so the server never blocks on a full pipe.
            std::thread::spawn(move || {
                let mut sink = String::new();
                let _ = out.read_to_string(&mut sink);
            });
            return Server { child, port };
        }
        let mut err = String::new();
        let _ = child.stderr.take().unwrap().read_to_string(&mut err);
        let _ = child.wait();
        // The old process's port may take a moment to be free.
        assert!(
            Instant::now() < deadline,
            "dama serve did not start: {line}{err}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn post(port: u16, path: &str, body: Value) -> Value {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    let body = body.to_string();
    write!(
        s,
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 200"), "{head}\n{body}");
    serde_json::from_str(body).unwrap()
}

struct Player {
    ws: WebSocket<MaybeTlsStream<TcpStream>>,
    live: Value,
    plies: usize,
    next_id: u64,
}

impl Player {
    fn join(port: u16, game: &str, token: &str) -> (Player, Value) {
        let (mut ws, _) = tungstenite::connect(format!("ws://127.0.0.1:{port}/ws/{game}")).unwrap();
        if let MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        }
        ws.send(Message::text(
            json!({"type": "hello", "token": token}).to_string(),
        ))
        .unwrap();
        let mut p = Player {
            ws,
            live: Value::Null,
            plies: 0,
            next_id: 1,
        };
        loop {
            let v = p.recv();
            if v["type"] == "snapshot" {
                p.plies = v["game"]["plies"].as_array().unwrap().len();
                return (p, v["game"].clone());
            }
        }
    }

    fn recv(&mut self) -> Value {
        loop {
            match self.ws.read().expect("a message in time") {
                Message::Text(t) => {
                    let v: Value = serde_json::from_str(t.as_str()).unwrap();
                    match v["type"].as_str() {
                        Some("snapshot") => self.live = v["game"]["live"].clone(),
                        Some("event") => {
                            self.live = v["live"].clone();
                            if v["event"]["kind"] == "moved" {
                                self.plies += 1;
                            }
                        }
                        _ => {}
                    }
                    return v;
                }
                _ => continue,
            }
        }
    }

    fn wait_v(&mut self, v: u64) {
        while self.live["v"].as_u64().unwrap() < v {
            self.recv();
        }
    }

    /// Plays the first legal move; returns the version that recorded it.
    fn play_first(&mut self) -> u64 {
        let path = self.live["legal"][0]["paths"][0].clone();
        let id = self.next_id;
        self.next_id += 1;
        let msg = json!({"type": "move", "id": id, "v": self.live["v"], "path": path});
        self.ws.send(Message::text(msg.to_string())).unwrap();
        loop {
            let v = self.recv();
            if v["id"] == id {
                assert_eq!(v["type"], "ack", "{v}");
                return v["v"].as_u64().unwrap();
            }
        }
    }
}

#[test]
fn sigkill_mid_game_loses_no_move() {
    let dir = std::env::temp_dir().join(format!("dama-sigkill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut server = start(&dir, 0);
    let port = server.port;
    let created = post(
        port,
        "/api/games",
        json!({"variant": "russian", "mode": "friend", "color": "white"}),
    );
    let id = created["id"].as_str().unwrap().to_owned();
    let code = created["invite"]
        .as_str()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap()
        .to_owned();
    let joined = post(
        port,
        &format!("/api/games/{id}/join"),
        json!({"invite": code}),
    );
    let white_token = created["token"].as_str().unwrap().to_owned();
    let black_token = joined["token"].as_str().unwrap().to_owned();
    let (mut white, _) = Player::join(port, &id, &white_token);
    let (mut black, _) = Player::join(port, &id, &black_token);

    let mut last_v = 0;
    for ply in 0..6 {
        let (mover, other) = if ply % 2 == 0 {
            (&mut white, &mut black)
        } else {
            (&mut black, &mut white)
        };
        last_v = mover.play_first();
        other.wait_v(last_v);
    }
    let fen_before = white.live["fen"].clone();
    assert_eq!(white.plies, 6);

    // SIGKILL: no chance to flush or shut down.
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    assert!(
        white.ws.read().is_err(),
        "the connection dropped with the server"
    );

    let _server = start(&dir, port);
    let (mut white, snap_w) = Player::join(port, &id, &white_token);
    let (mut black, snap_b) = Player::join(port, &id, &black_token);
    for snap in [&snap_w, &snap_b] {
        assert_eq!(snap["plies"].as_array().unwrap().len(), 6, "no move lost");
        assert_eq!(snap["live"]["v"], last_v);
        assert_eq!(snap["live"]["fen"], fen_before);
    }
    assert_eq!(snap_w["role"], "white");
    assert_eq!(snap_b["role"], "black");
    // The game goes on.
    let v = white.play_first();
    black.wait_v(v);
    assert_eq!(black.plies, 7);
    let v = black.play_first();
    white.wait_v(v);
    drop(white);
    drop(black);
    let _ = std::fs::remove_dir_all(&dir);
}
