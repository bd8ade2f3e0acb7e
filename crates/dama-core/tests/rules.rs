//! Rule positions: for each rule of the rule book (RULES.md sections 1–2) and each variant, a
//! position and the exact set of legal moves. Squares are written in internal coordinates
//! (files from the internal board's playable bottom-left corner) unless a test says it uses the
//! variant's own notation.

mod common;

use common::{board, fen, find, legal, legal_named};
use dama_core::{Color, Variant};

const W: Color = Color::White;
const B: Color = Color::Black;

// ---------------------------------------------------------------- International (issue 2)

#[test]
fn international_examples_from_the_issue() {
    let cases = [
        ("W:WK41,49:B9,10,12,19,38", vec!["41x43"]),
        ("B:W27,28,38,39,42:BK25", vec!["25x33"]),
        // Turkish strike: the pieces taken stay on the board and block until the move ends.
        ("W:W48:B24,K31,34,K42,43", vec!["48x19"]),
        ("W:WK48:B7,8,31,34,K42,44", vec!["48x50"]),
        ("W:W26:B12,K21,31,32", vec!["26x28", "26x8"]),
        // A man passing the crowning row during a capture stays a man.
        ("W:W15:B9,10", vec!["15x13"]),
    ];
    for (f, expected) in cases {
        assert_eq!(
            legal_named(&fen(Variant::International, f)),
            expected,
            "{f}"
        );
    }
    let pos = fen(Variant::International, "W:W15:B9,10");
    assert!(
        !pos.legal_moves()[0].promotes,
        "passing through row 10 does not crown"
    );
}

#[test]
fn international_majority_counts_kings_as_one() {
    // A man can take two men, a king can take one king: the two men must be taken.
    let v = Variant::International;
    let pos = board(v, W, &["j4", "Kc1"], &["i5", "g7", "Kb2"]);
    assert_eq!(legal(&pos), ["j4xf8"]);
}

// ---------------------------------------------------------------- Section 1: common rules

#[test]
fn capture_is_compulsory_in_every_variant() {
    for v in Variant::ALL {
        // White man c3 can jump d4; the man on g3 could move quietly but may not.
        let pos = board(v, W, &["c3", "g3"], &["d4"]);
        assert_eq!(legal(&pos), ["c3xe5"], "{v}");
    }
}

#[test]
fn a_sequence_must_be_completed() {
    for v in Variant::ALL {
        let pos = board(v, W, &["a1"], &["b2", "d4", "f6"]);
        assert_eq!(legal(&pos), ["a1xg7"], "{v}");
    }
}

#[test]
fn turkish_strike_captured_pieces_block_and_cannot_be_taken_twice() {
    // The Russian king on e5 sits between d6 and f4 on one diagonal. Taking d6 it lands on c7
    // or b8; d6 stays on the board until the move ends, so the king cannot come back over it
    // to take f4 as well (and the other way round). Were pieces removed at once, e5xd6xf4
    // would be a move.
    for v in [Variant::Russian, Variant::Pool, Variant::German] {
        let pos = board(v, W, &["Ke5"], &["d6", "f4"]);
        let expected = if v == Variant::German {
            // The same diagonal runs on to a9 and i1 on the 10x10 board.
            vec!["e5xa9", "e5xb8", "e5xc7", "e5xg3", "e5xh2", "e5xi1"]
        } else {
            vec!["e5xb8", "e5xc7", "e5xg3", "e5xh2"]
        };
        assert_eq!(legal(&pos), expected, "{v}");
        assert!(pos.legal_moves().iter().all(|m| m.captured.len() == 1));
    }
}

#[test]
fn two_paths_over_the_same_pieces_are_one_move_with_both_paths() {
    // The Russian king on a1 takes b2 and may land on c3 or d4, both of which take e5 on.
    let v = Variant::Russian;
    let pos = board(v, B, &["b2", "e5"], &["Ka1"]);
    assert_eq!(legal(&pos), ["a1xf6", "a1xg7", "a1xh8"]);
    let m = find(&pos, "a1xf6");
    let paths: Vec<Vec<String>> = pos
        .paths(&m)
        .iter()
        .map(|p| p.iter().map(|&s| common::internal_name(v, s)).collect())
        .collect();
    assert_eq!(paths, [vec!["a1", "c3", "f6"], vec!["a1", "d4", "f6"]]);
}

// ---------------------------------------------------------------- Men, kings and crowning

/// One position shows four rules at once: men capturing backwards, crowning during a capture,
/// flying kings and the capture choice. White's man b6 takes c7 and reaches the crowning row on
/// d8; a black man on e7 could be taken backwards from there, and f4 is reachable after that.
/// White's man g3 can take f4 alone.
#[test]
fn crowning_during_a_capture_by_variant() {
    let cases: &[(Variant, &[&str])] = &[
        // Crowned at once, continues as a flying king, and must land on g5 to go on to f4.
        (Variant::Russian, &["b6xc1", "b6xd2", "b6xe3", "g3xe5"]),
        // Continues as a man backwards over e7 and is not crowned; the most pieces must be taken.
        (Variant::Brazilian, &["b6xf6"]),
        // As Brazilian, but the choice is free.
        (Variant::Pool, &["b6xf6", "g3xe5"]),
        // Men never capture backwards: crowned on d8, the move ends.
        (Variant::English, &["b6xd8", "g3xe5"]),
        (Variant::Circassian, &["b6xd8", "g3xe5"]),
        (Variant::Czech, &["b6xd8", "g3xe5"]),
        (Variant::Spanish, &["b6xd8", "g3xe5"]),
        (Variant::Portuguese, &["b6xd8", "g3xe5"]),
        (Variant::Italian, &["b6xd8", "g3xe5"]),
    ];
    for (v, expected) in cases {
        let pos = board(*v, W, &["b6", "g3"], &["c7", "e7", "f4"]);
        assert_eq!(legal(&pos), *expected, "{v}");
        let crowned = find(&pos, expected[0]).promotes;
        assert_eq!(
            crowned,
            *v != Variant::Brazilian && *v != Variant::Pool,
            "{v}"
        );
    }
}

#[test]
fn russian_king_must_land_where_the_capture_goes_on() {
    let v = Variant::Russian;
    // From a1 the king takes c3 and could land on d4..h8, but only e5 lets it take f4 next.
    let pos = board(v, W, &["Ka1"], &["c3", "f4"]);
    assert_eq!(legal(&pos), ["a1xg3", "a1xh2"]);
    // Without a continuation every square beyond is allowed.
    let pos = board(v, W, &["Ka1"], &["c3"]);
    assert_eq!(legal(&pos), ["a1xd4", "a1xe5", "a1xf6", "a1xg7", "a1xh8"]);
}

#[test]
fn flying_and_short_kings() {
    // A flying king moves along whole free diagonals: 3 + 3 + 3 + 3 squares from d4.
    for v in [
        Variant::Russian,
        Variant::Pool,
        Variant::Czech,
        Variant::Spanish,
        Variant::Brazilian,
    ] {
        assert_eq!(
            board(v, W, &["Kd4"], &["h8"]).legal_moves().len(),
            12,
            "{v}"
        );
    }
    // A short king steps one square in any of the four directions...
    for v in [Variant::English, Variant::Italian, Variant::Circassian] {
        assert_eq!(
            legal(&board(v, W, &["Kd4"], &["h8"])),
            ["d4-c3", "d4-c5", "d4-e3", "d4-e5"],
            "{v}"
        );
        // ...and captures forwards and backwards, one square.
        assert_eq!(
            legal(&board(v, W, &["Kd4"], &["c3", "e5"])),
            ["d4xb2", "d4xf6"],
            "{v}"
        );
    }
}

#[test]
fn men_capture_backwards_only_where_allowed() {
    for v in Variant::ALL {
        // A black man behind a White man (from White's side) on d4, with b2 free.
        let pos = board(v, W, &["d4"], &["c3"]);
        let backwards = [
            Variant::English,
            Variant::Circassian,
            Variant::Italian,
            Variant::Spanish,
            Variant::Portuguese,
            Variant::Czech,
        ];
        if backwards.contains(&v) {
            assert_eq!(legal(&pos), ["d4-c5", "d4-e5"], "{v}");
        } else {
            assert_eq!(legal(&pos), ["d4xb2"], "{v}");
        }
    }
}

#[test]
fn black_men_move_down_the_board() {
    for v in [Variant::English, Variant::Russian] {
        let pos = board(v, B, &["a1"], &["d4"]);
        assert_eq!(legal(&pos), ["d4-c3", "d4-e3"], "{v}");
        let pos = board(v, B, &["a1"], &["d2"]);
        assert!(
            pos.legal_moves().iter().all(|m| m.promotes),
            "{v}: reaching row 1 crowns"
        );
    }
}

// ---------------------------------------------------------------- Capture choice

#[test]
fn english_choice_is_free() {
    // Black's man d6 can take one piece (f4) or two (b4 then d2); either is legal.
    let v = Variant::English;
    let pos = board(v, B, &["c5", "e5", "c3"], &["d6"]);
    assert_eq!(legal(&pos), ["d6xd2", "d6xf4"]);
}

#[test]
fn italian_men_never_capture_kings() {
    let v = Variant::Italian;
    let pos = board(v, W, &["c3"], &["Kd4", "a7"]);
    assert_eq!(legal(&pos), ["c3-b4"]);
    // A king may.
    let pos = board(v, W, &["Kc3"], &["Kd4", "a7"]);
    assert_eq!(legal(&pos), ["c3xe5"]);
}

#[test]
fn italian_cascade() {
    let v = Variant::Italian;
    // (1) the most pieces: a3 takes two, g3 one.
    assert_eq!(
        legal(&board(v, W, &["a3", "e3"], &["b4", "d6", "f4"])),
        ["a3xe7"]
    );
    // (2) equal count: capture with the king.
    assert_eq!(
        legal(&board(v, W, &["a3", "Kg3"], &["b4", "f4"])),
        ["g3xe5"]
    );
    // (3) equal count, both with a king: take the most kings.
    assert_eq!(legal(&board(v, W, &["Kd4"], &["c5", "Ke5"])), ["d4xf6"]);
    // (4) equal kings: the sequence that meets the king first (e3 is a king, c5 a king, but
    // d2xh6 meets it on the first jump and d2xd6 on the second).
    assert_eq!(
        legal(&board(v, W, &["Kd2"], &["Ke3", "g5", "c3", "Kc5"])),
        ["d2xh6"]
    );
    // (4), continued: both sequences take a king first and two kings in all; d2xb8 meets the
    // second king on its second jump, d2xf8 only on its third.
    assert_eq!(
        legal(&board(v, W, &["Kd2"], &["Ke3", "Ke5", "c7", "g5", "Kg7"])),
        ["d2xb8"]
    );
}

#[test]
fn spanish_and_portuguese_take_the_most_then_the_most_kings() {
    for v in [Variant::Spanish, Variant::Portuguese] {
        // One man or one king: the king; the flying king may land on b6 or a7.
        assert_eq!(
            legal(&board(v, W, &["Kd4"], &["e5", "Kc5"])),
            ["d4xa7", "d4xb6"],
            "{v}"
        );
        // Two men beat one king.
        assert_eq!(
            legal(&board(v, W, &["a1", "Kh6"], &["b2", "d4", "Kg7"])),
            ["a1xe5"],
            "{v}"
        );
    }
}

#[test]
fn czech_king_captures_come_first() {
    let v = Variant::Czech;
    // The man a3 could take two pieces, the king h2 also two; only the king may capture.
    let pos = board(v, W, &["a3", "Kh2"], &["b4", "d6", "g3"]);
    assert_eq!(legal(&pos), ["h2xb8", "h2xc7"]);
    // Without a king's capture the men capture as usual.
    let pos = board(v, W, &["a3", "Kh8"], &["b4", "d6"]);
    assert_eq!(legal(&pos), ["a3xe7"]);
}

// ---------------------------------------------------------------- Frisian

#[test]
fn frisian_men_capture_along_files_and_ranks() {
    let v = Variant::Frisian;
    let pos = board(v, W, &["e5"], &["g5", "e7"]);
    assert_eq!(legal(&pos), ["e5xe9", "e5xi5"]);
    // Kings move only diagonally.
    let pos = board(v, W, &["Ke5", "a1"], &["j10"]);
    assert!(pos.legal_moves().iter().all(|m| {
        let (c0, r0) = v.coords(m.from).unwrap();
        let (c1, r1) = v.coords(m.to).unwrap();
        c0.abs_diff(c1) == r0.abs_diff(r1)
    }));
}

#[test]
fn frisian_highest_value_then_king() {
    let v = Variant::Frisian;
    // Two men (200) are worth more than one king (199).
    assert_eq!(
        legal(&board(v, W, &["e5"], &["Kg5", "d6", "b8"])),
        ["e5xa9"]
    );
    // Equal value, and a king can capture: the king must. Its landing squares: h8 to c3.
    assert_eq!(
        legal(&board(v, W, &["a1", "Kj10"], &["b2", "i9"])),
        ["j10xc3", "j10xd4", "j10xe5", "j10xf6", "j10xg7", "j10xh8"]
    );
    // A king taking along a file: from h2 over g3 it must land on b8 to go on over b4 to b2.
    assert_eq!(
        legal(&board(v, W, &["a3", "Kh2"], &["b4", "g3"])),
        ["h2xb2"]
    );
}

#[test]
fn frisian_three_quiet_moves_with_one_king() {
    let v = Variant::Frisian;
    let start = board(v, W, &["Kc1", "Kg1", "a1"], &["Kh10", "b10"]);
    let mut game = dama_core::Game::from_position(start);
    let white = ["c1-d2", "d2-c1", "c1-d2"];
    let black = ["h10-i9", "i9-h10", "h10-i9"];
    for (w, b) in white.iter().zip(black) {
        game.play(&find(game.position(), w)).unwrap();
        game.play(&find(game.position(), b)).unwrap();
    }
    // The king on d2 has made three quiet moves in a row: it may not move quietly again, but
    // the other king and the man may.
    let moves = legal(game.position());
    assert!(moves.iter().all(|m| !m.starts_with("d2")), "{moves:?}");
    assert!(moves.iter().any(|m| m.starts_with("g1")) && moves.iter().any(|m| m.starts_with("a1")));
    // Moving the other king frees the first one; Black's king is stuck too and Black must move
    // its man.
    game.play(&find(game.position(), "g1-h2")).unwrap();
    let moves = legal(game.position());
    assert_eq!(moves, ["b10-a9", "b10-c9"]);
    game.play(&find(game.position(), "b10-a9")).unwrap();
    assert!(legal(game.position()).iter().any(|m| m.starts_with("d2")));
}

#[test]
fn frisian_kings_are_free_without_men() {
    let v = Variant::Frisian;
    let start = board(v, W, &["Kc1", "a1"], &["Kh10"]);
    let mut game = dama_core::Game::from_position(start);
    for (w, b) in [
        ("c1-d2", "h10-i9"),
        ("d2-c1", "i9-h10"),
        ("c1-d2", "h10-i9"),
    ] {
        game.play(&find(game.position(), w)).unwrap();
        game.play(&find(game.position(), b)).unwrap();
    }
    // White's king is stopped, Black's (no men) is not.
    assert!(legal(game.position()).iter().all(|m| !m.starts_with("d2")));
    game.play(&find(game.position(), "a1-b2")).unwrap();
    assert!(legal(game.position()).iter().any(|m| m.starts_with("i9")));
}

// ---------------------------------------------------------------- The other boards

#[test]
fn canadian_board_and_majority() {
    let v = Variant::Canadian;
    assert_eq!(dama_core::AnyPosition::start(v).legal_moves().len(), 11);
    // 12x12: the man on a1 takes three men up the long diagonal; the king on l12 takes one.
    let pos = board(v, W, &["a1", "Kl10"], &["b2", "d4", "f6", "k11"]);
    assert_eq!(legal(&pos), ["a1xg7"]);
}

#[test]
fn german_free_choice_and_crowning_ends_the_move() {
    let v = Variant::German;
    let pos = board(v, W, &["a1", "b8"], &["b2", "d4", "c9", "e9"]);
    // b8 takes c9 and is crowned on d10: the move ends although a king could go on over e9.
    assert_eq!(legal(&pos), ["a1xe5", "b8xd10"]);
    assert!(find(&pos, "b8xd10").promotes);
}

#[test]
fn spantsiretti_is_russian_on_ten_by_eight() {
    let v = Variant::Spantsiretti;
    assert_eq!(dama_core::AnyPosition::start(v).legal_moves().len(), 9);
    let pos = board(v, W, &["b6"], &["c7", "f6"]);
    assert_eq!(legal(&pos), ["b6xg5", "b6xh4", "b6xi3", "b6xj2"]);
    assert!(pos.legal_moves().iter().all(|m| m.promotes));
}

#[test]
fn diagonal_russian_start() {
    let v = Variant::DiagonalRussian;
    let pos = dama_core::AnyPosition::start(v);
    let names = |c: Color| {
        let mut n: Vec<String> = pos
            .setup()
            .pieces(c)
            .iter()
            .map(|s| v.square_name(s))
            .collect();
        n.sort();
        n
    };
    assert_eq!(
        names(W),
        ["c1", "d2", "e1", "e3", "f2", "f4", "g1", "g3", "g5", "h2", "h4", "h6"]
    );
    assert_eq!(
        names(B),
        ["a3", "a5", "a7", "b4", "b6", "b8", "c5", "c7", "d6", "d8", "e7", "f8"]
    );
    assert_eq!(pos.side_to_move(), W);
}

#[test]
fn giveaway_forms_move_like_their_base_game() {
    for (giveaway, base) in [
        (Variant::Antidraughts, Variant::International),
        (Variant::RussianGiveaway, Variant::Russian),
    ] {
        let a = dama_core::AnyPosition::start(giveaway);
        let b = dama_core::AnyPosition::start(base);
        assert_eq!(a.perft(4), b.perft(4));
    }
}
