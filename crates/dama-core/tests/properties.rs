//! Property tests: the generator agrees with the reference generator on random positions of
//! every variant; hashes stay consistent; play then undo restores the position.

mod common;

use common::reference;
use common::Rng;
use dama_core::{AnyPosition, Color, Game, Setup, SquareSet, Variant};
use proptest::prelude::*;
use std::collections::BTreeSet;

fn ours(pos: &AnyPosition) -> BTreeSet<(dama_core::Square, dama_core::Square, SquareSet, bool)> {
    let moves = pos.legal_moves();
    let set: BTreeSet<_> = moves
        .iter()
        .map(|m| (m.from, m.to, m.captured, m.promotes))
        .collect();
    assert_eq!(set.len(), moves.len(), "duplicate moves in {}", pos.fen());
    set
}

fn check_position(pos: &AnyPosition) {
    let expected = reference::legal_moves(pos);
    let got = ours(pos);
    if expected != got {
        let missing: Vec<_> = expected.difference(&got).collect();
        let extra: Vec<_> = got.difference(&expected).collect();
        panic!(
            "{} {}\nmissing {missing:?}\nextra {extra:?}",
            pos.variant(),
            pos.fen()
        );
    }
    assert_eq!(pos.hash(), pos.compute_hash(), "hash of {}", pos.fen());
    for m in pos.legal_moves() {
        let next = pos.play(&m).expect("generated move is legal");
        assert_eq!(
            next.hash(),
            next.compute_hash(),
            "incremental hash after {m:?} in {}",
            pos.fen()
        );
        assert_eq!(next.side_to_move(), !pos.side_to_move());
        // Every move has at least one path, each starting and ending where the move does.
        let paths = pos.paths(&m);
        assert!(!paths.is_empty(), "no path for {m:?} in {}", pos.fen());
        for p in &paths {
            assert_eq!((p[0], *p.last().unwrap()), (m.from, m.to));
            assert_eq!(
                p.len(),
                if m.is_capture() {
                    m.captured.len() + 1
                } else {
                    2
                }
            );
        }
    }
}

/// A random legal set-up: random men and kings on random squares, no man on its crowning row.
fn random_setup(variant: Variant, rng: &mut Rng, density: usize) -> Option<AnyPosition> {
    let b = variant.board();
    let per_side = ((b.height - 2) / 2 * b.width / 2) as usize;
    let mut setup = Setup {
        side_to_move: if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        },
        ..Setup::default()
    };
    let mut counts = [0usize; 2];
    for sq in variant.squares() {
        if rng.below(100) >= density {
            continue;
        }
        let color = if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        if counts[color.index()] >= per_side {
            continue;
        }
        let (_, row) = variant.coords(sq).unwrap();
        let crown_row = if color == Color::White {
            b.height - 1
        } else {
            0
        };
        let king = row == crown_row || rng.below(4) == 0;
        counts[color.index()] += 1;
        match color {
            Color::White => setup.white.insert(sq),
            Color::Black => setup.black.insert(sq),
        }
        if king {
            setup.kings.insert(sq);
        }
    }
    if variant == Variant::Frisian {
        for color in Color::BOTH {
            let kings: Vec<_> = (setup.pieces(color) & setup.kings).iter().collect();
            let i = color.index();
            setup.king_moves[i] = rng.below(4) as u8;
            if !kings.is_empty() && rng.below(3) > 0 {
                setup.moved_king[i] = Some(kings[rng.below(kings.len())]);
            }
        }
    }
    AnyPosition::new(variant, &setup).ok()
}

fn random_game(variant: Variant, seed: u64, plies: usize) {
    let mut rng = Rng(seed | 1);
    let mut game = Game::new(variant);
    for _ in 0..plies {
        let pos = *game.position();
        check_position(&pos);
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        game.play(&m).unwrap();
        // Undo restores the position (and its hash), redo gives the same result.
        let after = *game.position();
        assert_eq!(game.undo().unwrap(), m);
        assert_eq!(*game.position(), pos);
        assert_eq!(game.position().hash(), pos.hash());
        game.play(&m).unwrap();
        assert_eq!(*game.position(), after);
    }
}

#[test]
fn random_games_match_the_reference() {
    for (i, variant) in Variant::ALL.into_iter().enumerate() {
        for seed in 0..12 {
            random_game(variant, 0x9E37_79B9 * (seed + 1) + i as u64, 160);
        }
    }
}

#[test]
fn random_positions_match_the_reference() {
    for (i, variant) in Variant::ALL.into_iter().enumerate() {
        let mut rng = Rng(0xDA3A_0000 + i as u64);
        let mut checked = 0;
        while checked < 400 {
            let density = [15, 30, 50][rng.below(3)];
            if let Some(pos) = random_setup(variant, &mut rng, density) {
                check_position(&pos);
                checked += 1;
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn proptest_positions(variant_index in 0..Variant::ALL.len(), seed in any::<u64>(), density in 5usize..60) {
        let variant = Variant::ALL[variant_index];
        let mut rng = Rng(seed | 1);
        if let Some(pos) = random_setup(variant, &mut rng, density) {
            check_position(&pos);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Any text: an error or a position, never a panic.
    #[test]
    fn fen_reader_never_panics(variant_index in 0..Variant::ALL.len(), text in "[WBKwb?:,.0-9a-lHF -]{0,60}") {
        let variant = Variant::ALL[variant_index];
        let _ = AnyPosition::from_fen(variant, &text);
    }

    /// Canonical FEN reads back as the same position.
    #[test]
    fn fen_round_trip(variant_index in 0..Variant::ALL.len(), seed in any::<u64>(), density in 5usize..60) {
        let variant = Variant::ALL[variant_index];
        let mut rng = Rng(seed | 1);
        if let Some(pos) = random_setup(variant, &mut rng, density) {
            let text = pos.fen();
            let back = AnyPosition::from_fen(variant, &text).unwrap();
            // The Frisian king-move counters are not part of FEN.
            prop_assert_eq!(back.setup().white, pos.setup().white);
            prop_assert_eq!(back.setup().black, pos.setup().black);
            prop_assert_eq!(back.setup().kings, pos.setup().kings);
            prop_assert_eq!(back.side_to_move(), pos.side_to_move());
        }
    }
}
