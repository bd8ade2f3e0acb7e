//! Games played over WebSockets against a real server on 127.0.0.1:0.

mod common;

use common::*;
use dama_server::store::SqliteStore;
use futures_util::SinkExt;
use serde_json::json;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[tokio::test]
async fn friend_game_moves_are_checked_stored_and_broadcast() {
    let app = app();
    let server = Server::start(app.clone()).await;
    let (id, white_token, black_token) = friend_game(&app, "russian", None).await;
    let (mut white, snap) = Client::join(server.addr, &id, Some(&white_token)).await;
    assert_eq!(snap["role"], "white");
    assert_eq!(snap["live"]["status"], "active");
    assert_eq!(snap["live"]["legal"].as_array().unwrap().len(), 7);
    let (mut black, snap) = Client::join(server.addr, &id, Some(&black_token)).await;
    assert_eq!(snap["role"], "black");
    let (mut watcher, snap) = Client::join(server.addr, &id, None).await;
    assert!(snap["role"].is_null());

    // Black cannot move for White, nor the spectator for anybody.
    let r = black.play(&["c3", "d4"]).await;
    assert_eq!(r["code"], "not_your_turn");
    let r = watcher.play(&["c3", "d4"]).await;
    assert_eq!(r["code"], "spectator");
    // An illegal move is refused with a reason.
    let r = white.play(&["c3", "c5"]).await;
    assert_eq!(r["code"], "illegal");
    assert_eq!(r["illegal"]["code"], "cannot_reach");

    let r = white.play(&["c3", "d4"]).await;
    assert_eq!(r["type"], "ack", "{r}");
    let v = r["v"].as_u64().unwrap();
    black.wait_v(v).await;
    watcher.wait_v(v).await;
    assert_eq!(watcher.events.last().unwrap()["kind"], "moved");
    assert_eq!(watcher.events.last().unwrap()["ply"]["notation"], "c3-d4");
    assert_eq!(black.live["turn"], "black");

    // A move made on an old position is stale.
    let r = black
        .act(json!({"type": "move", "v": 0, "path": ["f6", "e5"]}))
        .await;
    assert_eq!(r["code"], "stale");
    let r = black.play(&["f6", "e5"]).await;
    assert_eq!(r["type"], "ack");
    white.wait_v(r["v"].as_u64().unwrap()).await;
    // White must capture d4xf6: anything else is explained.
    assert_eq!(white.live["must_capture"], true);
    let r = white.play(&["a3", "b4"]).await;
    assert_eq!(r["illegal"]["code"], "must_capture");
    assert_eq!(r["illegal"]["pieces"], json!(["d4"]));
    let r = white.play(&["d4", "f6"]).await;
    assert_eq!(r["type"], "ack");
    let v = r["v"].as_u64().unwrap();
    watcher.wait_v(v).await;
    assert_eq!(
        watcher.events.last().unwrap()["ply"]["captured"],
        json!(["e5"])
    );

    // A reconnecting player gets the whole game back.
    drop(black);
    let (black, snap) = Client::join(server.addr, &id, Some(&black_token)).await;
    assert_eq!(snap["plies"].as_array().unwrap().len(), 3);
    assert_eq!(snap["live"]["v"], v);
    drop(black);
    server.stop().await;
}

#[tokio::test]
async fn bad_input_changes_nothing() {
    let app = app();
    let server = Server::start(app.clone()).await;
    let (id, white_token, _) = friend_game(&app, "russian", None).await;

    // Hello twice is refused.
    let (mut spectator, _) = Client::join(server.addr, &id, None).await;
    spectator
        .send(json!({"type": "hello", "token": "abcdefghijkmnpqrstuvwxyz23"}))
        .await;
    assert_eq!(spectator.recv_type("error").await["code"], "already_joined");
    // Actions before hello are refused; a foreign token holds no seat.
    let mut fresh = Client::connect(server.addr, &id).await;
    fresh.send(json!({"type": "resign", "id": 5})).await;
    let r = fresh.recv_type("error").await;
    assert_eq!(r["code"], "not_joined");
    assert_eq!(r["id"], 5);
    fresh
        .send(json!({"type": "hello", "token": "abcdefghijkmnpqrstuvwxyz23"}))
        .await;
    assert_eq!(fresh.recv_type("error").await["code"], "bad_token");

    let (mut white, _) = Client::join(server.addr, &id, Some(&white_token)).await;
    // Malformed messages.
    for text in [
        "not json",
        "{}",
        "{\"type\":\"move\"}",
        "{\"type\":\"fly\",\"id\":1}",
        "[1,2]",
    ] {
        white
            .ws
            .send(tokio_tungstenite::tungstenite::Message::text(text))
            .await
            .unwrap();
        let r = white.recv_type("error").await;
        assert_eq!(r["code"], "bad_message", "{text}");
    }
    // Paths that are not squares.
    let r = white.play(&["z9", "c3"]).await;
    assert_eq!(r["illegal"]["code"], "bad_path");
    let r = white.play(&["c3"]).await;
    assert_eq!(r["illegal"]["code"], "bad_path");

    // A flood: the burst passes, the rest is refused.
    for _ in 0..60 {
        white.send(json!({"type": "ping"})).await;
    }
    let mut limited = 0;
    let mut pongs = 0;
    while limited + pongs < 60 {
        let r = white.recv().await;
        match r["type"].as_str() {
            Some("pong") => pongs += 1,
            Some("error") if r["code"] == "rate_limited" => limited += 1,
            _ => {}
        }
    }
    assert!(limited >= 15, "{limited} refused");

    // An oversized frame closes the connection (1009) and changes nothing.
    let (mut big, _) = Client::join(server.addr, &id, Some(&white_token)).await;
    let path: Vec<String> = (0..5000).map(|_| "c3".to_owned()).collect();
    big.send(json!({"type": "move", "id": 1, "v": 2, "path": path}))
        .await;
    let r = big.recv().await;
    assert_eq!(r["type"], "closed", "{r}");
    assert!(
        r["frame"].as_str().unwrap().contains("1009")
            || r["frame"].as_str().unwrap().contains("Size"),
        "{r}"
    );

    let (_, snap) = Client::join(server.addr, &id, None).await;
    assert_eq!(snap["live"]["v"], 2, "nothing was recorded");
    assert!(snap["plies"].as_array().unwrap().is_empty());
    server.stop().await;
}

#[tokio::test]
async fn draw_offers_resignation_and_rematch() {
    let app = app();
    let server = Server::start(app.clone()).await;
    let (id, wt, bt) = friend_game(&app, "international", None).await;
    let (mut white, _) = Client::join(server.addr, &id, Some(&wt)).await;
    let (mut black, _) = Client::join(server.addr, &id, Some(&bt)).await;
    // Nothing to answer yet.
    assert_eq!(
        black.act(json!({"type": "accept_draw"})).await["code"],
        "no_draw_offer"
    );
    assert_eq!(
        white.act(json!({"type": "takeback"})).await["code"],
        "not_available"
    );
    let r = white.act(json!({"type": "offer_draw"})).await;
    assert_eq!(r["type"], "ack");
    black.wait_v(r["v"].as_u64().unwrap()).await;
    assert_eq!(black.live["draw_offer"], "white");
    let r = black.act(json!({"type": "decline_draw"})).await;
    white.wait_v(r["v"].as_u64().unwrap()).await;
    assert!(white.live["draw_offer"].is_null());
    assert_eq!(white.events.last().unwrap()["kind"], "draw_declined");
    // Offer, then the opponent accepts.
    let r = black.act(json!({"type": "offer_draw"})).await;
    white.wait_v(r["v"].as_u64().unwrap()).await;
    let r = white.act(json!({"type": "accept_draw"})).await;
    black.wait_v(r["v"].as_u64().unwrap()).await;
    assert_eq!(black.live["status"], "finished");
    assert_eq!(
        black.live["outcome"],
        json!({"winner": null, "reason": "agreement"})
    );
    assert_eq!(
        white.act(json!({"type": "resign"})).await["code"],
        "game_over"
    );
    // Rematch: both ask; the new game has the colours reversed and the same tokens.
    let r = white.act(json!({"type": "rematch"})).await;
    black.wait_v(r["v"].as_u64().unwrap()).await;
    assert_eq!(black.live["rematch_offer"], "white");
    let r = black.act(json!({"type": "rematch"})).await;
    white.wait_v(r["v"].as_u64().unwrap()).await;
    let new_id = white.live["rematch"].as_str().unwrap().to_owned();
    assert_eq!(white.events.last().unwrap()["kind"], "rematch");
    let (mut w2, snap) = Client::join(server.addr, &new_id, Some(&wt)).await;
    assert_eq!(snap["role"], "black");
    assert_eq!(snap["rematch_of"], id.as_str());
    let (mut b2, snap) = Client::join(server.addr, &new_id, Some(&bt)).await;
    assert_eq!(snap["role"], "white");
    assert_eq!(snap["live"]["status"], "active");
    // Resignation ends it with the reason.
    let r = b2.act(json!({"type": "resign"})).await;
    w2.wait_v(r["v"].as_u64().unwrap()).await;
    assert_eq!(
        w2.live["outcome"],
        json!({"winner": "black", "reason": "resignation"})
    );
    server.stop().await;
}

#[tokio::test]
async fn games_end_automatically_with_the_reason() {
    let app = app();
    let server = Server::start(app.clone()).await;
    // No pieces left.
    let (id, wt, _) = friend_game(&app, "russian", Some("W:Wc3:Bd4")).await;
    let (mut white, _) = Client::join(server.addr, &id, Some(&wt)).await;
    let r = white.play(&["c3", "e5"]).await;
    assert_eq!(r["type"], "ack", "{r}");
    white.wait_v(r["v"].as_u64().unwrap()).await;
    assert_eq!(
        white.live["outcome"],
        json!({"winner": "white", "reason": "no_pieces"})
    );
    assert_eq!(white.live["legal"], json!([]));
    // No moves: a blocked man.
    let (id, wt, _) = friend_game(&app, "russian", Some("W:Wb4,c3,h2:Ba5")).await;
    let (mut white, _) = Client::join(server.addr, &id, Some(&wt)).await;
    let r = white.play(&["h2", "g3"]).await;
    assert_eq!(r["type"], "ack", "{r}");
    white.wait_v(r["v"].as_u64().unwrap()).await;
    assert_eq!(
        white.live["outcome"],
        json!({"winner": "white", "reason": "no_moves"})
    );
    drop(white);
    // Threefold repetition with kings.
    let (id, wt, bt) = friend_game(&app, "russian", Some("W:WKa1:BKh6")).await;
    let (mut white, _) = Client::join(server.addr, &id, Some(&wt)).await;
    let (mut black, _) = Client::join(server.addr, &id, Some(&bt)).await;
    for _ in 0..2 {
        for (mover, path) in [
            (0, ["a1", "b2"]),
            (1, ["h6", "g5"]),
            (0, ["b2", "a1"]),
            (1, ["g5", "h6"]),
        ] {
            let c = if mover == 0 { &mut white } else { &mut black };
            let r = c.play(&path).await;
            assert_eq!(r["type"], "ack", "{r}");
            let v = r["v"].as_u64().unwrap();
            white.wait_v(v).await;
            black.wait_v(v).await;
        }
    }
    assert_eq!(
        white.live["outcome"],
        json!({"winner": null, "reason": "repetition"})
    );
    // The PDN of the finished game says how it ended.
    let (_, pdn, _) = request_raw(&app, "GET", &format!("/api/games/{id}/pdn"), None).await;
    let pdn = String::from_utf8(pdn).unwrap();
    assert!(pdn.contains("[Result \"1/2-1/2\"]"), "{pdn}");
    assert!(pdn.contains("[FEN \"W:WKa1:BKh6\"]"), "{pdn}");
    assert!(pdn.contains("[Termination \"repetition\"]"), "{pdn}");
    server.stop().await;
}

#[tokio::test]
async fn clocks_run_and_time_ends_the_game() {
    let app = app();
    let server = Server::start(app.clone()).await;
    let (id, wt, created) = create(
        &app,
        json!({"variant": "russian", "mode": "lobby", "color": "white",
               "time_control": {"initial_s": 1, "increment_s": 0}}),
    )
    .await;
    assert_eq!(created["role"], "white");
    let (_, joined) = request(
        &app,
        "POST",
        &format!("/api/games/{id}/join"),
        Some(json!({})),
    )
    .await;
    let bt = joined["token"].as_str().unwrap().to_owned();
    let (mut white, snap) = Client::join(server.addr, &id, Some(&wt)).await;
    assert_eq!(snap["live"]["clock"]["white_ms"], 1000);
    assert!(
        snap["live"]["clock"]["running"].is_null(),
        "clocks start after both first moves"
    );
    let (mut black, _) = Client::join(server.addr, &id, Some(&bt)).await;
    let r = white.play(&["c3", "d4"]).await;
    black.wait_v(r["v"].as_u64().unwrap()).await;
    let r = black.play(&["f6", "g5"]).await;
    white.wait_v(r["v"].as_u64().unwrap()).await;
    assert_eq!(white.live["clock"]["running"], "white");
    // White does not move: the flag falls after a second.
    let started = Instant::now();
    loop {
        white.recv().await;
        if white.live["status"] == "finished" {
            break;
        }
    }
    assert!(started.elapsed() >= Duration::from_millis(800));
    assert_eq!(
        white.live["outcome"],
        json!({"winner": "black", "reason": "time"})
    );
    assert_eq!(white.events.last().unwrap()["kind"], "flagged");
    server.stop().await;
}

#[tokio::test]
async fn one_device_plays_both_sides_and_takes_back() {
    let app = app();
    let server = Server::start(app.clone()).await;
    let (id, token, created) = create(&app, json!({"variant": "english", "mode": "local"})).await;
    assert_eq!(created["role"], "both");
    let (mut c, snap) = Client::join(server.addr, &id, Some(&token)).await;
    assert_eq!(snap["role"], "both");
    assert_eq!(
        snap["live"]["turn"], "black",
        "Black moves first in English draughts"
    );
    for path in [["11", "15"], ["23", "19"]] {
        let r = c.play(&path).await;
        assert_eq!(r["type"], "ack", "{r}");
        c.wait_v(r["v"].as_u64().unwrap()).await;
    }
    let r = c.act(json!({"type": "takeback"})).await;
    c.wait_v(r["v"].as_u64().unwrap()).await;
    assert_eq!(c.live["ply"], 1);
    assert_eq!(c.live["turn"], "white");
    // A draw on one device is agreed at once.
    let r = c.act(json!({"type": "offer_draw"})).await;
    c.wait_v(r["v"].as_u64().unwrap()).await;
    assert_eq!(c.live["outcome"]["reason"], "agreement");
    server.stop().await;
}

#[tokio::test]
async fn computer_replies_takes_back_and_does_not_block_other_games() {
    // A computer that thinks for 1.5 s per move on its own threads.
    let app = app_with(
        Arc::new(dama_server::store::MemoryStore::new()),
        Some(Duration::from_millis(1500)),
    );
    let server = Server::start(app.clone()).await;
    let (id, token, created) = create(
        &app,
        json!({"variant": "russian", "mode": "computer", "color": "white", "level": 2}),
    )
    .await;
    assert_eq!(created["role"], "white");
    let (mut human, snap) = Client::join(server.addr, &id, Some(&token)).await;
    assert_eq!(snap["live"]["seats"][1]["computer"], true);
    assert_eq!(snap["live"]["seats"][1]["level"], 2);
    let r = human.play(&["c3", "d4"]).await;
    assert_eq!(r["type"], "ack");
    human.wait_v(r["v"].as_u64().unwrap()).await;
    assert_eq!(human.live["thinking"], true);
    // While the computer thinks, another game's moves go through at once.
    let (other, ot, _) = friend_game(&app, "russian", None).await;
    let (mut other_white, _) = Client::join(server.addr, &other, Some(&ot)).await;
    let started = Instant::now();
    let r = other_white.play(&["c3", "d4"]).await;
    assert_eq!(r["type"], "ack");
    assert!(
        started.elapsed() < Duration::from_millis(500),
        "{:?}",
        started.elapsed()
    );
    // The computer's reply arrives.
    human
        .wait_v(r["v"].as_u64().unwrap().max(human.v + 1))
        .await;
    while human.live["ply"] != 2 {
        human.recv().await;
    }
    assert_eq!(human.events.last().unwrap()["ply"]["color"], "black");
    assert_eq!(human.live["thinking"], false);
    // Take back: both the reply and the own move go.
    let r = human.act(json!({"type": "takeback"})).await;
    assert_eq!(r["type"], "ack", "{r}");
    human.wait_v(r["v"].as_u64().unwrap()).await;
    assert_eq!(human.live["ply"], 0);
    assert_eq!(
        human.events.last().unwrap(),
        &json!({"kind": "took_back", "plies": 2})
    );
    // The computer judges a draw offer on its own thread (this one accepts with equal
    // material); rematch swaps colours at once.
    let r = human.act(json!({"type": "offer_draw"})).await;
    assert_eq!(r["type"], "ack", "{r}");
    while human.live["status"] != "finished" {
        human.recv().await;
    }
    assert_eq!(human.live["outcome"]["reason"], "agreement");
    assert_eq!(
        human.events.last().unwrap(),
        &json!({"kind": "draw_agreed", "by": "black"})
    );
    let r = human.act(json!({"type": "rematch"})).await;
    human.wait_v(r["v"].as_u64().unwrap()).await;
    let new_id = human.live["rematch"].as_str().unwrap().to_owned();
    let (mut again, snap) = Client::join(server.addr, &new_id, Some(&token)).await;
    assert_eq!(snap["role"], "black");
    // The computer has White now and opens.
    while again.live["ply"] != 1 {
        again.recv().await;
    }
    server.stop().await;
}

#[tokio::test]
async fn the_computer_declines_a_draw_it_should_not_take_and_play_goes_on() {
    let app = app();
    let server = Server::start(app.clone()).await;
    // White (the human) is a man down: the test computer declines.
    let (id, token, _) = create(
        &app,
        json!({"variant": "russian", "mode": "computer", "color": "white", "level": 1,
               "fen": "W:Wc3,e3:Bb6,d6,f6"}),
    )
    .await;
    let (mut human, _) = Client::join(server.addr, &id, Some(&token)).await;
    let r = human.act(json!({"type": "offer_draw"})).await;
    assert_eq!(r["type"], "ack", "{r}");
    while human.events.last().map(|e| e["kind"].clone()) != Some(json!("draw_declined")) {
        human.recv().await;
    }
    assert_eq!(human.events.last().unwrap()["by"], "black");
    assert!(human.live["draw_offer"].is_null());
    assert_eq!(human.live["status"], "active");
    // The game goes on: the human moves and the computer answers.
    let r = human.play(&["c3", "d4"]).await;
    assert_eq!(r["type"], "ack", "{r}");
    while human.live["ply"] != 2 {
        human.recv().await;
    }
    server.stop().await;
}

#[tokio::test]
async fn a_restarted_server_resumes_from_sqlite() {
    let dir = temp_dir("resume");
    let db = dama_server::database_path(&dir);
    let (id, wt, bt);
    {
        let app = app_with(Arc::new(SqliteStore::open(&db).unwrap()), None);
        let server = Server::start(app.clone()).await;
        (id, wt, bt) = friend_game(&app, "russian", None).await;
        let (mut white, _) = Client::join(server.addr, &id, Some(&wt)).await;
        let (mut black, _) = Client::join(server.addr, &id, Some(&bt)).await;
        for (i, path) in [["c3", "d4"], ["f6", "g5"], ["g3", "f4"]]
            .iter()
            .enumerate()
        {
            let c = if i % 2 == 0 { &mut white } else { &mut black };
            let r = c.play(path).await;
            assert_eq!(r["type"], "ack");
            let v = r["v"].as_u64().unwrap();
            white.wait_v(v).await;
            black.wait_v(v).await;
        }
        server.stop().await;
    }
    let app = app_with(Arc::new(SqliteStore::open(&db).unwrap()), None);
    let server = Server::start(app.clone()).await;
    let (mut black, snap) = Client::join(server.addr, &id, Some(&bt)).await;
    assert_eq!(snap["plies"].as_array().unwrap().len(), 3);
    assert_eq!(snap["live"]["turn"], "black");
    let r = black.play(&["g5", "h4"]).await;
    assert_eq!(r["type"], "ack", "{r}");
    server.stop().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn move_count_draws_end_the_game() {
    // International: two kings against one must win within 5 moves each (FMJD).
    use dama_core::{AnyPosition, Game, Variant};
    let app = app();
    let server = Server::start(app.clone()).await;
    let fen = "W:WK1,K2:BK28";
    let (id, wt, bt) = friend_game(&app, "international", Some(fen)).await;
    let (mut white, _) = Client::join(server.addr, &id, Some(&wt)).await;
    let (mut black, _) = Client::join(server.addr, &id, Some(&bt)).await;
    // Plan (depth-first) ten quiet moves that never repeat a position and never allow a
    // capture, then play them through the server.
    let v = Variant::International;
    fn plan(game: &Game, line: &mut Vec<dama_core::AnyMove>) -> bool {
        if game.is_over() {
            return line.len() == 10;
        }
        for m in game.legal_moves() {
            let mut next = game.clone();
            next.play(&m).unwrap();
            if m.is_capture() || next.repetitions() > 1 || next.position().must_capture() {
                continue;
            }
            line.push(m);
            if plan(&next, line) {
                return true;
            }
            line.pop();
        }
        false
    }
    let start = Game::from_position(AnyPosition::from_fen(v, fen).unwrap());
    let mut line = Vec::new();
    assert!(plan(&start, &mut line), "a quiet line exists");
    let mut plies = 0;
    for (i, m) in line.iter().enumerate() {
        let path: Vec<String> = vec![v.square_name(m.from), v.square_name(m.to)];
        let path: Vec<&str> = path.iter().map(String::as_str).collect();
        let mover = if i % 2 == 0 { &mut white } else { &mut black };
        let r = mover.play(&path).await;
        assert_eq!(r["type"], "ack", "{r}");
        let v = r["v"].as_u64().unwrap();
        white.wait_v(v).await;
        black.wait_v(v).await;
        plies += 1;
    }
    assert_eq!(plies, 10);
    assert_eq!(
        white.live["outcome"],
        json!({"winner": null, "reason": "endgame_limit"})
    );
    server.stop().await;
}
