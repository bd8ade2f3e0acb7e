//! Tests of the engine facade on every variant.

use dama_core::{AnyMove, AnyPosition, Game, Variant};
use dama_engine::{Engine, EngineOptions, Event, Level, Limits, Score};
use std::time::{Duration, Instant};

fn engine(level: u8, seed: u64) -> Engine {
    Engine::new(EngineOptions {
        level: Level::new(level).unwrap(),
        seed: Some(seed),
        hash_mb: 4,
        ..EngineOptions::default()
    })
}

/// A small deterministic generator for random playouts.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

#[test]
fn every_variant_and_level_plays_a_legal_move() {
    for v in Variant::ALL {
        let start = AnyPosition::start(v);
        let legal = start.legal_moves();
        for level in Level::all() {
            let mut e = engine(level.number(), 7);
            e.set_position(start, &[]);
            let r = e.search(Limits::nodes(20_000), |_| {});
            let m = r
                .best_move
                .unwrap_or_else(|| panic!("{v} level {level}: no move"));
            assert!(legal.contains(&m), "{v} level {level}: illegal {m:?}");
        }
    }
}

#[test]
fn reports_progress_and_a_principal_variation() {
    let mut e = engine(10, 1);
    let start = AnyPosition::start(Variant::International);
    e.set_position(start, &[]);
    let mut infos = Vec::new();
    let r = e.search(Limits::depth(6), |i| infos.push(i.clone()));
    assert_eq!(infos.len(), 6);
    assert!(infos.windows(2).all(|w| w[0].depth < w[1].depth));
    assert_eq!(r.depth, 6);
    assert!(r.nodes > 100);
    // The principal variation is a legal line.
    let mut p = start;
    for m in &r.pv {
        p = p.play(m).expect("legal pv move");
    }
    assert_eq!(r.pv.first(), r.best_move.as_ref());
}

#[test]
fn no_move_when_the_game_is_over() {
    let pos = AnyPosition::from_fen(Variant::Russian, "W:Wa1:Bb2,c3").unwrap();
    assert!(pos.legal_moves().is_empty());
    let mut e = engine(10, 1);
    e.set_position(pos, &[]);
    let r = e.search(Limits::depth(3), |_| {});
    assert_eq!(r.best_move, None);
    assert_eq!(r.score, Score::Loss(0));
}

#[test]
fn two_threads_report_rising_depths_and_legal_lines() {
    // Lazy SMP: the main thread may adopt an iteration a helper completed first; what is
    // reported must still be a rising series of depths with legal principal variations.
    for v in [Variant::International, Variant::Russian, Variant::English] {
        for limits in [Limits::depth(11), Limits::nodes(400_000)] {
            let mut e = Engine::new(EngineOptions {
                threads: 2,
                hash_mb: 8,
                ..EngineOptions::default()
            });
            let start = AnyPosition::start(v);
            e.set_position(start, &[]);
            let mut infos = Vec::new();
            let r = e.search(limits, |i| infos.push(i.clone()));
            assert!(infos.windows(2).all(|w| w[0].depth < w[1].depth), "{v}");
            if limits.depth.is_some() {
                assert_eq!(r.depth, 11, "{v}");
            }
            for line in infos.iter().map(|i| &i.pv).chain([&r.pv]) {
                let mut p = start;
                for m in line {
                    p = p.play(m).expect("legal pv move");
                }
            }
            assert_eq!(r.pv.first(), r.best_move.as_ref(), "{v}");
        }
    }
    // A forced win is found with two threads too.
    let pos = AnyPosition::from_fen(Variant::Russian, "W:WKa1:Bc3,e5").unwrap();
    let mut e = Engine::new(EngineOptions {
        threads: 2,
        ..EngineOptions::default()
    });
    e.set_position(pos, &[]);
    assert_eq!(e.search(Limits::depth(6), |_| {}).score, Score::Win(1));
}

#[test]
fn finds_a_forced_win() {
    // White king takes both black men: the only capture wins at once.
    let pos = AnyPosition::from_fen(Variant::Russian, "W:WKa1:Bc3,e5").unwrap();
    let mut e = engine(10, 1);
    e.set_position(pos, &[]);
    let r = e.search(Limits::depth(4), |_| {});
    assert_eq!(r.score, Score::Win(1), "{r:?}");
    // English: a man two steps from crowning against nothing that can stop it still wins
    // only by material; a lone black man blocked in a corner loses.
    let pos = AnyPosition::from_fen(Variant::English, "B:W5,K9:B1").unwrap();
    let mut e = engine(10, 1);
    e.set_position(pos, &[]);
    let r = e.search(Limits::depth(8), |_| {});
    assert!(matches!(r.score, Score::Loss(_)), "{r:?}");
}

#[test]
fn go_runs_in_the_background_and_stops_on_request() {
    let mut e = engine(10, 1);
    e.set_position(AnyPosition::start(Variant::International), &[]);
    let started = Instant::now();
    let rx = e.go(Limits::default()); // infinite
    std::thread::sleep(Duration::from_millis(200));
    assert!(e.is_searching());
    e.stop();
    let mut infos = 0;
    let result = loop {
        match rx.recv_timeout(Duration::from_secs(5)).expect("an event") {
            Event::Info(_) => infos += 1,
            Event::Done(r) => break r,
        }
    };
    assert!(started.elapsed() < Duration::from_secs(3));
    assert!(infos > 0);
    assert!(AnyPosition::start(Variant::International)
        .legal_moves()
        .contains(&result.best_move.unwrap()));
    e.wait();
    assert!(!e.is_searching());
}

#[test]
fn move_time_is_respected() {
    let mut e = engine(10, 1);
    e.set_position(AnyPosition::start(Variant::Russian), &[]);
    let started = Instant::now();
    let r = e.search(Limits::move_time(Duration::from_millis(150)), |_| {});
    let spent = started.elapsed();
    assert!(spent < Duration::from_millis(400), "{spent:?}");
    assert!(r.best_move.is_some());
    // A clock with little time left gives a quick move too.
    let started = Instant::now();
    let r = e.search(
        Limits::clock(Duration::from_millis(500), Duration::ZERO, None),
        |_| {},
    );
    assert!(started.elapsed() < Duration::from_millis(300));
    assert!(r.best_move.is_some());
}

#[test]
fn ponder_waits_for_ponderhit() {
    let mut e = engine(10, 1);
    e.set_position(AnyPosition::start(Variant::English), &[]);
    let rx = e.go(Limits {
        move_time: Some(Duration::from_millis(100)),
        ponder: true,
        ..Limits::default()
    });
    // While pondering, the move time does not run.
    std::thread::sleep(Duration::from_millis(300));
    assert!(e.is_searching());
    let hit = Instant::now();
    e.ponderhit();
    let result = loop {
        if let Event::Done(r) = rx.recv_timeout(Duration::from_secs(5)).expect("an event") {
            break r;
        }
    };
    assert!(hit.elapsed() < Duration::from_millis(500));
    assert!(result.best_move.is_some());
}

#[test]
fn set_position_stops_a_running_search() {
    let mut e = engine(10, 1);
    e.set_position(AnyPosition::start(Variant::Canadian), &[]);
    let _rx = e.go(Limits::default());
    std::thread::sleep(Duration::from_millis(50));
    let started = Instant::now();
    e.set_position(AnyPosition::start(Variant::Russian), &[]);
    assert!(started.elapsed() < Duration::from_secs(2));
    assert!(!e.is_searching());
    let r = e.search(Limits::depth(3), |_| {});
    assert!(AnyPosition::start(Variant::Russian)
        .legal_moves()
        .contains(&r.best_move.unwrap()));
}

/// Plays `plies` quiet king moves from `pos`: each side moves out with its first legal move,
/// then back, so the position repeats every four plies.
fn shuffle(pos: AnyPosition, plies: usize) -> Vec<AnyPosition> {
    let mut line = vec![pos];
    let mut played: Vec<AnyMove> = Vec::new();
    let mut p = pos;
    for i in 0..plies {
        let moves = p.legal_moves();
        let m = if i % 4 < 2 {
            moves[0]
        } else {
            let out = played[i - 2];
            *moves
                .iter()
                .find(|m| m.from == out.to && m.to == out.from)
                .expect("the way back")
        };
        assert!(!m.is_capture());
        played.push(m);
        p = p.play(&m).unwrap();
        line.push(p);
    }
    line
}

#[test]
fn move_count_draw_rule_from_history() {
    // English: White is a king up, but 99 plies without a capture have been played, so any
    // quiet move draws by the 50-move rule. The history is made of distinct positions (a
    // king on different squares) so that no repetition is involved.
    let root = AnyPosition::from_fen(Variant::English, "W:WK29,K32:BK1").unwrap();
    let mut e = engine(10, 1);
    e.set_position(root, &[]);
    let fresh = e.search(Limits::depth(6), |_| {});
    assert!(
        matches!(fresh.score, Score::Eval(s) if s > 50) || matches!(fresh.score, Score::Win(_)),
        "{fresh:?}"
    );
    let squares = [5, 6, 7, 8, 13, 14, 15, 16, 21, 22, 23, 24];
    let history: Vec<AnyPosition> = (0..99)
        .map(|i| {
            let side = if i % 2 == 1 { "W" } else { "B" };
            let sq = squares[i % squares.len()];
            let fen = format!("{side}:WK29,K32:BK{sq}");
            AnyPosition::from_fen(Variant::English, &fen).unwrap()
        })
        .collect();
    e.set_position(root, &history);
    let r = e.search(Limits::depth(6), |_| {});
    assert_eq!(r.score, Score::Eval(0), "{r:?}");
    // 79 plies: there is room again, and White's advantage shows.
    e.set_position(root, &history[20..]);
    let r = e.search(Limits::depth(6), |_| {});
    assert_ne!(r.score, Score::Eval(0), "{r:?}");
}

#[test]
fn knows_repetitions_from_the_game() {
    // English, two kings against one: White wins, so Black welcomes a repetition. After
    // White and Black shuffle a king out and back, White moving out again lets Black repeat
    // the position; with the game history the engine sees that Black's reply draws.
    let start = AnyPosition::from_fen(Variant::English, "W:WK29,K32:BK1").unwrap();
    let line = shuffle(start, 5);
    assert_eq!(line[4], line[0]);
    // Position after White's first shuffle move, reached again.
    let again = line[5];
    assert_eq!(again, line[1]);
    let history = &line[..5];
    let mut e = engine(10, 1);
    e.set_position(again, &[]);
    let fresh = e.search(Limits::depth(5), |_| {});
    assert!(
        matches!(fresh.score, Score::Eval(s) if s < -30) || matches!(fresh.score, Score::Loss(_)),
        "{fresh:?}"
    );
    e.set_position(again, history);
    let r = e.search(Limits::depth(5), |_| {});
    assert_eq!(r.score, Score::Eval(0), "{r:?}");
    let repeat = line[1].legal_moves()[0];
    assert_eq!(line[1].play(&repeat).unwrap(), line[2]);
    assert_eq!(r.best_move, Some(repeat));
    // The same through a Game.
    let mut game = Game::from_position(start);
    for w in line.windows(2) {
        let m: AnyMove = *w[0]
            .legal_moves()
            .iter()
            .find(|m| w[0].play(m).unwrap() == w[1])
            .unwrap();
        game.play(&m).unwrap();
    }
    assert_eq!(*game.position(), again);
    e.set_game(&game);
    let r = e.search(Limits::depth(5), |_| {});
    assert_eq!(r.score, Score::Eval(0), "{r:?}");
}

#[test]
fn random_positions_of_every_variant() {
    // Random playouts; at random points the engine (at a random level) must return a legal
    // move quickly. DAMA_DEEP=1 runs many more.
    let deep = std::env::var_os("DAMA_DEEP").is_some();
    let games = if deep { 200 } else { 6 };
    let mut rng = Rng(0x5EED_1234_ABCD_0001);
    let mut checked = 0;
    for v in Variant::ALL {
        for g in 0..games {
            let mut e = engine(1 + (g % 10) as u8, g as u64 + 1);
            let mut history = Vec::new();
            let mut p = AnyPosition::start(v);
            for ply in 0..200 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    e.set_position(p, &history);
                    assert_eq!(e.search(Limits::nodes(1000), |_| {}).best_move, None);
                    break;
                }
                if ply % 7 == g % 7 {
                    let level = Level::new(1 + rng.below(10) as u8).unwrap();
                    e.set_level(level);
                    e.set_position(p, &history);
                    // A search to a node count waits for the endgame database the first
                    // time it is needed (a few seconds, once): not part of its speed.
                    e.wait_for_endgame_database();
                    let started = Instant::now();
                    let r = e.search(Limits::nodes(3000), |_| {});
                    let m = r.best_move.expect("a move");
                    assert!(moves.contains(&m), "{v} {}: illegal {m:?}", p.fen());
                    assert!(
                        started.elapsed() < Duration::from_secs(5),
                        "{v} {}",
                        p.fen()
                    );
                    checked += 1;
                }
                history.push(p);
                p = p.play(&moves[rng.below(moves.len())]).unwrap();
            }
        }
    }
    eprintln!("{checked} positions searched, every move legal");
    assert!(checked > 100);
}

/// The search evaluates with the windows the model was fitted with: a depth-1 search from a
/// position where no capture follows any move scores the best child by the model's own layout
/// (a search that read a dense model through the sparse windows would score differently).
#[test]
fn the_search_evaluates_a_model_through_its_own_windows() {
    use dama_core::rules::Russian;
    use dama_engine::eval::Tables;
    use dama_engine::pattern::{self, Layout, Model, Windows};
    use std::sync::Arc;

    type B = dama_core::position::Bb<Russian>;
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    for windows in Windows::ALL {
        let layout = Layout::<B>::with::<Russian>(windows);
        let mut model = Model::zero(Variant::Russian, layout.tables());
        for w in model.base.iter_mut() {
            *w = [1600 + rng.below(400) as i32, 1600 + rng.below(400) as i32];
        }
        for w in model.tables.iter_mut() {
            *w = [rng.below(801) as i16 - 400, rng.below(801) as i16 - 400];
        }
        let start = AnyPosition::start(Variant::Russian);
        let t = Tables::<B>::new::<Russian>();
        let best = start
            .legal_moves()
            .iter()
            .map(|m| {
                let child = start.play(m).unwrap();
                assert!(!child.must_capture());
                -pattern::evaluate(&child.to_position::<Russian>(), &t, &layout, &model)
            })
            .max()
            .unwrap();
        let mut e = engine(10, 1);
        e.set_model(Some(Arc::new(model)));
        e.set_position(start, &[]);
        let r = e.search(Limits::depth(1), |_| {});
        assert_eq!(r.score, Score::Eval(best), "{windows:?}");
    }
}

/// A network set on the engine is what the search evaluates with, at every level, on every
/// board: a depth-1 search from the start position scores the best child by the network's
/// own evaluation, and deeper searches (whose test build checks that the accumulators brought
/// up to date along the line are the summed ones) play legal moves.
#[test]
fn the_search_evaluates_with_a_network() {
    use dama_engine::eval::Tables;
    use dama_engine::network::{self, Network};
    use std::sync::Arc;

    fn check<R: dama_core::rules::Rules>(variant: Variant, rng: &mut Rng) {
        type B<R> = dama_core::position::Bb<R>;
        let activation = network::Activation::ALL[rng.below(2)];
        let mut net = Network::zero(variant, 32, 4, activation);
        for w in net.input_weights.iter_mut().chain(&mut net.input_bias) {
            *w = rng.below(601) as i16 - 300;
        }
        for w in &mut net.output_weights {
            *w = rng.below(4001) as i16 - 2000;
        }
        let start = AnyPosition::start(variant);
        let t = Tables::<B<R>>::new::<R>();
        let best = start
            .legal_moves()
            .iter()
            .filter_map(|m| {
                let child = start.play(m).unwrap();
                (!child.must_capture())
                    .then(|| -network::evaluate(&child.to_position::<R>(), &t, &net))
            })
            .max()
            .unwrap();
        let net = Arc::new(net);
        for level in [3, 10] {
            let mut e = engine(level, 1);
            e.set_network(Some(Arc::clone(&net)));
            e.set_position(start, &[]);
            if level == 10 {
                let r = e.search(Limits::depth(1), |_| {});
                assert_eq!(r.score, Score::Eval(best), "{variant}");
            }
            let mut p = start;
            for _ in 0..30 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                e.set_position(p, &[]);
                let r = e.search(Limits::depth(6), |_| {});
                let m = r.best_move.expect("a move");
                assert!(moves.contains(&m), "{variant} {}", p.fen());
                p = p.play(&moves[rng.below(moves.len())]).unwrap();
            }
        }
    }

    let mut rng = Rng(0x5eed_1234_abcd_0002);
    check::<dama_core::rules::International>(Variant::International, &mut rng);
    check::<dama_core::rules::Russian>(Variant::Russian, &mut rng);
    check::<dama_core::rules::English>(Variant::English, &mut rng);
    check::<dama_core::rules::Frisian>(Variant::Frisian, &mut rng);
}
