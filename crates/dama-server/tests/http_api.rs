//! The HTTP API driven through the router, without a socket.

mod common;

use axum::http::StatusCode;
use common::*;
use serde_json::json;

#[tokio::test]
async fn info_lists_every_variant_with_its_board() {
    let app = app();
    let (status, info) = request(&app, "GET", "/api/info", None).await;
    assert_eq!(status, StatusCode::OK);
    let variants = info["variants"].as_array().unwrap();
    assert_eq!(variants.len(), dama_core::Variant::ALL.len());
    let intl = variants
        .iter()
        .find(|v| v["key"] == "international")
        .unwrap();
    assert_eq!(intl["width"], 10);
    assert_eq!(intl["squares"].as_array().unwrap().len(), 50);
    assert_eq!(intl["start_fen"].as_str().unwrap().matches(',').count(), 38);
    assert_eq!(info["computer"]["levels"], 3);
    assert_eq!(info["protocol"], 1);
}

#[tokio::test]
async fn creating_games_checks_its_input() {
    let app = app();
    for (body, code) in [
        (json!({"variant": "nope", "mode": "friend"}), "bad_variant"),
        (json!({"variant": "russian", "mode": "solo"}), "bad_request"),
        (
            json!({"variant": "russian", "mode": "friend", "fen": "W:Wz1:B"}),
            "bad_fen",
        ),
        (
            json!({"variant": "russian", "mode": "computer", "level": 9}),
            "bad_level",
        ),
        (
            json!({"variant": "russian", "mode": "lobby", "time_control": {"initial_s": 0, "increment_s": 0}}),
            "bad_time_control",
        ),
        (
            json!({"variant": "russian", "mode": "friend", "extra": 1}),
            "bad_request",
        ),
        (
            json!({"variant": "russian", "mode": "friend", "fen": "W:Wa1:Bb2,c3"}),
            "no_moves",
        ),
    ] {
        let (status, v) = request(&app, "POST", "/api/games", Some(body.clone())).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(v["error"], code, "{body}: {v}");
    }
    // No computer configured: a clear refusal.
    let bare = app_with(
        std::sync::Arc::new(dama_server::store::MemoryStore::new()),
        None,
    );
    let (status, v) = request(
        &bare,
        "POST",
        "/api/games",
        Some(json!({"variant": "russian", "mode": "computer"})),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(v["error"], "no_computer");
}

#[tokio::test]
async fn games_against_the_computer_can_have_a_clock() {
    let app = app();
    let (id, _token, created) = create(
        &app,
        json!({"variant": "russian", "mode": "computer", "level": 2, "color": "white",
               "time_control": {"initial_s": 300, "increment_s": 3}}),
    )
    .await;
    assert_eq!(created["role"], "white");
    let (status, snap) = request(&app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(snap["game"]["time_control"]["initial_s"], 300);
    assert_eq!(snap["game"]["time_control"]["increment_s"], 3);
    assert_eq!(snap["game"]["mode"], "computer");
}

#[tokio::test]
async fn invite_links_give_the_free_seat_once() {
    let app = app();
    let (id, _white, created) = create(
        &app,
        json!({"variant": "international", "mode": "friend", "color": "black"}),
    )
    .await;
    assert_eq!(created["role"], "black");
    let invite = created["invite"].as_str().unwrap();
    assert!(invite.starts_with(&format!("/join/{id}/")));
    let code = invite.rsplit('/').next().unwrap();
    // A wrong code gets nothing.
    let (status, v) = request(
        &app,
        "POST",
        &format!("/api/games/{id}/join"),
        Some(json!({"invite": "wrongcode"})),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(v["error"], "bad_invite");
    let (status, v) = request(
        &app,
        "POST",
        &format!("/api/games/{id}/join"),
        Some(json!({"invite": code, "name": "Mila"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["role"], "white");
    // Twice: the seat is taken.
    let (status, v) = request(
        &app,
        "POST",
        &format!("/api/games/{id}/join"),
        Some(json!({"invite": code})),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(v["error"], "seat_taken");
    // The public view shows both seats and no secrets.
    let (status, snap) = request(&app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, StatusCode::OK);
    let text = snap.to_string();
    assert!(!text.contains(code), "the invite code is not public");
    assert_eq!(snap["game"]["live"]["status"], "active");
    assert_eq!(snap["game"]["live"]["seats"][0]["name"], "Mila");
    assert!(snap["game"]["role"].is_null());
}

#[tokio::test]
async fn lobby_lists_open_challenges_until_accepted() {
    let app = app();
    let (id, _, _) = create(
        &app,
        json!({"variant": "english", "mode": "lobby", "color": "white", "name": "Zoe",
               "time_control": {"initial_s": 300, "increment_s": 3}}),
    )
    .await;
    // Friend games are not listed.
    create(&app, json!({"variant": "russian", "mode": "friend"})).await;
    let (_, list) = request(&app, "GET", "/api/lobby", None).await;
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["id"], id.as_str());
    assert_eq!(list[0]["name"], "Zoe");
    assert_eq!(list[0]["time_control"]["initial_s"], 300);
    let (status, v) = request(
        &app,
        "POST",
        &format!("/api/games/{id}/join"),
        Some(json!({})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["role"], "black");
    let (_, list) = request(&app, "GET", "/api/lobby", None).await;
    assert!(list.as_array().unwrap().is_empty());
}

#[tokio::test]
async fn unknown_games_are_not_found() {
    let app = app();
    for uri in [
        "/api/games/zzzzzzzzzz",
        "/api/games/zzzzzzzzzz/pdn",
        "/api/games/BAD!/pdn",
    ] {
        let (status, v) = request(&app, "GET", uri, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{uri}");
        assert_eq!(v["error"], "not_found");
    }
    let (status, _) = request(
        &app,
        "POST",
        "/api/games/zzzzzzzzzz/join",
        Some(json!({"invite": "x"})),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn import_reads_pdn_and_fen() {
    let app = app();
    let (status, v) = request(
        &app,
        "POST",
        "/api/import",
        Some(json!({"text": "[GameType \"25\"]\n1.cd4 ba5 2.bc3 cb6 *"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["variant"]["key"], "russian");
    assert_eq!(v["plies"].as_array().unwrap().len(), 4);
    assert_eq!(v["plies"][0]["notation"], "c3-d4");
    assert!(v["plies"][3]["fen"].as_str().unwrap().starts_with("W:W"));
    let (status, v) = request(
        &app,
        "POST",
        "/api/import",
        Some(json!({"text": "W:W31-50:B1-20", "variant": "international"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(v["plies"].as_array().unwrap().is_empty());
    let (status, v) = request(
        &app,
        "POST",
        "/api/import",
        Some(json!({"text": "1. c3-c5", "variant": "russian"})),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(v["error"], "bad_import");
    let message = v["message"].as_str().unwrap();
    assert!(
        message.contains("1:4") && message.contains("c3-c5"),
        "{message}"
    );
    let big = "x".repeat(300 * 1024);
    let (status, _) = request(&app, "POST", "/api/import", Some(json!({"text": big}))).await;
    assert!(status.is_client_error());
}

#[tokio::test]
async fn pages_and_assets_are_served_with_types() {
    let app = app();
    for page in ["/", "/g/abcdefghij", "/join/abc/def", "/lobby", "/import"] {
        let (status, body, headers) = request_raw(&app, "GET", page, None).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        assert!(headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html"));
        assert!(headers.contains_key("content-security-policy"));
        assert!(String::from_utf8_lossy(&body).contains("<html"));
    }
    let (status, _, headers) = request_raw(&app, "GET", "/app/js/main.js", None).await;
    assert_eq!(status, StatusCode::OK);
    assert!(headers["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/javascript"));
    let (status, _, _) = request_raw(&app, "GET", "/app/nope.js", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _, _) = request_raw(&app, "GET", "/app/../Cargo.toml", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn every_ui_file_is_embedded() {
    // The binary carries web/app: every file on disk is in the embedded list, byte for byte.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/app");
    let mut stack = vec![root.clone()];
    let mut count = 0;
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let rel = path
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let embedded =
                dama_server::assets::file(&rel).unwrap_or_else(|| panic!("{rel} not embedded"));
            assert_eq!(embedded, std::fs::read(&path).unwrap().as_slice(), "{rel}");
            count += 1;
        }
    }
    assert_eq!(count, dama_server::assets::FILES.len());
}
