//! Games: results, draw rules (RULES.md 2.1) with their exact counts, offers and resignation.

mod common;

use common::{board, fen, find};
use dama_core::{
    Color, DrawReason, Game, GameError, GameOptions, Outcome, OutcomeReason, Role, Variant,
};
use std::collections::HashSet;

const W: Color = Color::White;
const B: Color = Color::Black;

/// What a ply of a planned line may move.
#[derive(Clone, Copy, PartialEq)]
enum Mover {
    Any,
    King,
    Man,
}

/// Finds quiet moves following `plan` (what each ply may move) that reach positions not seen
/// before and never give the opponent a capture, so that only the move-count rules can end the
/// game. A depth-first search that backs out of dead ends.
fn find_line(game: &Game, plan: &[Mover]) -> Vec<dama_core::AnyMove> {
    use dama_core::{AnyMove, AnyPosition};
    fn search(
        pos: &AnyPosition,
        seen: &mut HashSet<u64>,
        plan: &[Mover],
        line: &mut Vec<AnyMove>,
        budget: &mut u32,
    ) -> bool {
        let Some((&mover, rest)) = plan.split_first() else {
            return true;
        };
        for m in pos.legal_moves() {
            let role = pos.piece_at(m.from).map(|p| p.role);
            let allowed = match mover {
                Mover::Any => true,
                Mover::King => role == Some(Role::King),
                Mover::Man => role == Some(Role::Man),
            };
            if m.is_capture() || !allowed {
                continue;
            }
            let next = pos.play(&m).unwrap();
            if next.must_capture() || seen.contains(&next.hash()) || *budget == 0 {
                continue;
            }
            *budget -= 1;
            seen.insert(next.hash());
            line.push(m);
            if search(&next, seen, rest, line, budget) {
                return true;
            }
            line.pop();
            seen.remove(&next.hash());
        }
        false
    }
    let mut seen: HashSet<u64> = game.positions().iter().map(|p| p.hash()).collect();
    let mut line = Vec::new();
    let mut budget = 500_000;
    assert!(
        search(game.position(), &mut seen, plan, &mut line, &mut budget),
        "no quiet line of {} plies from {}",
        plan.len(),
        game.position().fen()
    );
    line
}

/// Plays `line` move by move, checking that the game does not end before its last move.
fn play_line(game: &mut Game, line: &[dama_core::AnyMove]) {
    for (ply, m) in line.iter().enumerate() {
        assert!(
            game.outcome().is_none(),
            "ended early at ply {ply}: {:?}",
            game.outcome()
        );
        game.play(m).unwrap();
    }
}

fn play_plan(game: &mut Game, plan: &[Mover]) {
    let line = find_line(game, plan);
    play_line(game, &line);
}

/// Plays `plies` quiet moves (kings only, if asked); see [`play_plan`]. The search looks two
/// plies further than needed so that the next call does not start in a dead end.
fn play_quietly(game: &mut Game, plies: usize, kings_only: bool) {
    let mover = if kings_only { Mover::King } else { Mover::Any };
    let line = find_line(game, &vec![mover; plies + 2]);
    play_line(game, &line[..plies]);
}

fn draw(reason: DrawReason) -> Option<Outcome> {
    Some(Outcome {
        winner: None,
        reason: OutcomeReason::MoveLimit(reason),
    })
}

#[test]
fn threefold_repetition() {
    let v = Variant::Russian;
    let mut game = Game::from_position(board(v, W, &["Ka1"], &["Ka7"]));
    let cycle = ["a1-b2", "a7-b8", "b2-a1", "b8-a7"];
    for (i, text) in cycle.iter().chain(cycle.iter()).enumerate() {
        assert!(game.outcome().is_none(), "over before ply {i}");
        game.play(&find(game.position(), text)).unwrap();
    }
    assert_eq!(game.repetitions(), 3);
    assert_eq!(
        game.outcome(),
        Some(Outcome {
            winner: None,
            reason: OutcomeReason::Repetition
        })
    );
    assert_eq!(
        game.play(&game.position().legal_moves()[0]),
        Err(GameError::GameOver)
    );
    // Taking the last move back reopens the game.
    game.undo().unwrap();
    assert!(game.outcome().is_none());
}

#[test]
fn no_pieces_and_no_moves_lose_and_win_in_giveaway() {
    for (v, giveaway) in [(Variant::Russian, false), (Variant::RussianGiveaway, true)] {
        // White takes Black's last piece.
        let mut game = Game::from_position(board(v, W, &["c3"], &["d4"]));
        game.play(&find(game.position(), "c3xe5")).unwrap();
        let winner = if giveaway { B } else { W };
        assert_eq!(
            game.outcome(),
            Some(Outcome {
                winner: Some(winner),
                reason: OutcomeReason::NoPieces
            }),
            "{v}"
        );
        // Black's man on a3 is blocked: b2 is occupied and cannot be taken (c1 is occupied).
        let game = Game::from_position(board(v, B, &["b2", "c1"], &["a3"]));
        assert_eq!(
            game.outcome(),
            Some(Outcome {
                winner: Some(winner),
                reason: OutcomeReason::NoMoves
            }),
            "{v}"
        );
    }
}

#[test]
fn draw_offers() {
    let mut game = Game::new(Variant::International);
    assert_eq!(game.accept_draw(B), Err(GameError::NoDrawOffer));
    game.offer_draw(W).unwrap();
    // The offerer's own move does not withdraw it; the opponent's move lets it lapse.
    let m = game.legal_moves()[0];
    game.play(&m).unwrap();
    assert_eq!(game.draw_offer(), Some(W));
    assert_eq!(
        game.accept_draw(W),
        Err(GameError::NoDrawOffer),
        "one cannot accept one's own offer"
    );
    let m = game.legal_moves()[0];
    game.play(&m).unwrap();
    assert_eq!(game.draw_offer(), None);
    // Declined.
    game.offer_draw(W).unwrap();
    game.decline_draw(B).unwrap();
    assert_eq!(game.draw_offer(), None);
    assert!(game.outcome().is_none());
    // Accepted.
    game.offer_draw(B).unwrap();
    game.accept_draw(W).unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome {
            winner: None,
            reason: OutcomeReason::Agreement
        })
    );
    assert_eq!(game.undo(), Err(GameError::NothingToUndo));
}

#[test]
fn resignation_and_time() {
    let mut game = Game::new(Variant::English);
    game.resign(B).unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome {
            winner: Some(W),
            reason: OutcomeReason::Resignation
        })
    );
    assert_eq!(game.resign(W), Err(GameError::GameOver));
    let mut game = Game::new(Variant::English);
    game.lose_on_time(B).unwrap();
    assert_eq!(game.outcome().unwrap().reason, OutcomeReason::Time);
    assert_eq!(game.outcome().unwrap().winner, Some(W));
}

#[test]
fn russian_three_kings_against_one_within_fifteen_moves() {
    let v = Variant::Russian;
    let mut game = Game::from_position(board(v, W, &["Kc1", "Ke1", "Kg1"], &["Kd8"]));
    play_quietly(&mut game, 29, true);
    assert!(game.outcome().is_none());
    play_quietly(&mut game, 1, true);
    assert_eq!(game.outcome(), draw(DrawReason::Endgame));
    // Two kings against one: no such rule by default.
    let mut game = Game::from_position(board(v, W, &["Kc1", "Ke1"], &["Kd8"]));
    play_quietly(&mut game, 40, true);
    assert!(game.outcome().is_none());
}

#[test]
fn russian_federation_rules_as_an_option() {
    let v = Variant::Russian;
    let official = GameOptions {
        russian_official_draws: true,
        ..GameOptions::default()
    };
    // 7.2.5: 15 moves each of king moves only (men on the board do not move).
    let start = board(
        v,
        W,
        &["Ka1", "Kc1", "g1", "h2"],
        &["Kh8", "Kf8", "a7", "b8"],
    );
    let mut game = Game::with_options(start, official);
    play_quietly(&mut game, 29, true);
    assert!(game.outcome().is_none());
    play_quietly(&mut game, 1, true);
    assert_eq!(game.outcome(), draw(DrawReason::KingMovesOnly));
    // Without the option, the same play goes on.
    let mut game = Game::from_position(start);
    play_quietly(&mut game, 40, true);
    assert!(game.outcome().is_none());
    // 7.2.8: two kings against one, 5 moves.
    let mut game = Game::with_options(board(v, W, &["Kc1", "Ke1"], &["Kd8"]), official);
    play_quietly(&mut game, 10, true);
    assert_eq!(game.outcome(), draw(DrawReason::Endgame));
    // 7.2.6: kings on both sides, 4 pieces in all: 30 moves each. A man moves at plies 20 and
    // 40 so that the king-only rule (15 moves) does not come first.
    let start = board(v, W, &["Kc1", "a3"], &["Kd8", "h6"]);
    let mut game = Game::with_options(start, official);
    let mut plan = vec![Mover::King; 59];
    plan[20] = Mover::Man;
    plan[40] = Mover::Man;
    play_plan(&mut game, &plan);
    assert!(game.outcome().is_none());
    play_quietly(&mut game, 1, true);
    assert_eq!(game.outcome(), draw(DrawReason::Endgame));
}

#[test]
fn english_fifty_moves_without_capture_and_the_wcdf_option() {
    let v = Variant::English;
    let start = board(v, B, &["Ka1", "Kc1", "g1"], &["Kh8", "Kf8", "b8"]);
    let mut game = Game::from_position(start);
    play_quietly(&mut game, 99, false);
    assert!(game.outcome().is_none());
    play_quietly(&mut game, 1, false);
    assert_eq!(game.outcome(), draw(DrawReason::NoCapture));
    // Tournament rule: 40 moves each without a capture or a man move.
    let wcdf = GameOptions {
        wcdf_forty_moves: true,
        ..GameOptions::default()
    };
    let mut game = Game::with_options(start, wcdf);
    play_quietly(&mut game, 79, true);
    assert!(game.outcome().is_none());
    play_quietly(&mut game, 1, true);
    assert_eq!(game.outcome(), draw(DrawReason::KingMovesOnly));
}

#[test]
fn fmjd_king_endings_and_twenty_five_moves() {
    let v = Variant::International;
    // Three kings against one: 16 moves each.
    let mut game = Game::from_position(fen(v, "W:WK47,K48,K49:BK3"));
    play_quietly(&mut game, 31, true);
    assert!(game.outcome().is_none());
    play_quietly(&mut game, 1, true);
    assert_eq!(game.outcome(), draw(DrawReason::Endgame));
    // King and two men against one king: 16 moves each too, the men may move.
    let mut game = Game::from_position(fen(v, "W:WK47,36,40:BK3"));
    play_quietly(&mut game, 31, true);
    assert!(game.outcome().is_none());
    // Two kings against one: 5 moves each.
    let mut game = Game::from_position(fen(v, "W:WK47,K48:BK3"));
    play_quietly(&mut game, 9, true);
    assert!(game.outcome().is_none());
    play_quietly(&mut game, 1, true);
    assert_eq!(game.outcome(), draw(DrawReason::Endgame));
    // 25 moves each of king moves only, with men on the board.
    let mut game = Game::from_position(fen(v, "W:WK46,K50,36:BK1,K5,15"));
    play_quietly(&mut game, 49, true);
    assert!(game.outcome().is_none());
    play_quietly(&mut game, 1, true);
    assert_eq!(game.outcome(), draw(DrawReason::KingMovesOnly));
}

#[test]
fn other_variants_draw_counts() {
    // (variant, position, plies, kings only, reason)
    let cases = [
        (
            Variant::Czech,
            board(
                Variant::Czech,
                W,
                &["Ka1", "Kc1", "g1"],
                &["Kh8", "Kf8", "b8"],
            ),
            30,
            DrawReason::KingMovesOnly,
        ),
        (
            Variant::Italian,
            board(
                Variant::Italian,
                W,
                &["Ka1", "Kc1", "g1"],
                &["Kh8", "Kf8", "b8"],
            ),
            80,
            DrawReason::KingMovesOnly,
        ),
        (
            Variant::Pool,
            board(Variant::Pool, B, &["Kc1", "Ke1", "Kg1"], &["Kd8"]),
            26,
            DrawReason::Endgame,
        ),
        (
            Variant::Frisian,
            board(Variant::Frisian, W, &["Kc1", "Ke1"], &["Kf10"]),
            14,
            DrawReason::Endgame,
        ),
        (
            Variant::Frisian,
            board(Variant::Frisian, W, &["Kc1"], &["Kf10"]),
            4,
            DrawReason::Endgame,
        ),
        (
            Variant::Portuguese,
            board(
                Variant::Portuguese,
                W,
                &["Kb2", "Kc1", "g1"],
                &["Kh8", "Kf8", "b8"],
            ),
            40,
            DrawReason::NoCapture,
        ),
    ];
    for (v, start, plies, reason) in cases {
        let mut game = Game::from_position(start);
        play_quietly(&mut game, plies - 1, true);
        assert!(game.outcome().is_none(), "{v}");
        play_quietly(&mut game, 1, true);
        assert_eq!(game.outcome(), draw(reason), "{v}");
    }
    // Spanish: three kings against one with the long diagonal held: 12 moves each.
    let v = Variant::Spanish;
    let mut game = Game::from_position(board(v, W, &["Kd4", "Kc1", "Ke1"], &["Kh6"]));
    let mut plies = 0;
    while game.outcome().is_none() {
        assert!(plies < 24, "no draw after {plies} plies");
        let pos = *game.position();
        let seen: HashSet<u64> = game.positions().iter().map(|p| p.hash()).collect();
        // White keeps its king on the long diagonal (d4 stays put).
        let m = pos
            .legal_moves()
            .into_iter()
            .find(|m| {
                let next = pos.play(m).unwrap();
                common::internal_name(v, m.from) != "d4"
                    && !seen.contains(&next.hash())
                    && !next.must_capture()
            })
            .unwrap();
        game.play(&m).unwrap();
        plies += 1;
    }
    assert_eq!(plies, 24);
    assert_eq!(game.outcome(), draw(DrawReason::Endgame));
}

#[test]
fn undo_restores_counters() {
    let v = Variant::International;
    let mut game = Game::from_position(fen(v, "W:WK47,K48:BK3"));
    play_quietly(&mut game, 10, true);
    assert!(game.is_over());
    game.undo().unwrap();
    assert!(!game.is_over());
    play_quietly(&mut game, 1, true);
    assert_eq!(game.outcome(), draw(DrawReason::Endgame));
}
