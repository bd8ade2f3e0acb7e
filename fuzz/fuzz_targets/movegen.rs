//! Move generation on arbitrary positions: whatever the pieces, generating, counting and
//! playing moves never panics, and the moves keep their invariants (the captured pieces are
//! the opponent's, the hash stays equal to one computed from scratch, every move has a path).
#![no_main]

use dama_core::{AnyPosition, Color, Setup, Square, Variant};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&head, rest)) = data.split_first() else {
        return;
    };
    let variant = Variant::ALL[head as usize % Variant::ALL.len()];
    let squares: Vec<Square> = variant.squares().collect();
    // Each square takes two bits: empty, White, Black; a third bit stream marks kings.
    let mut setup = Setup {
        side_to_move: if head & 0x80 != 0 { Color::Black } else { Color::White },
        ..Setup::default()
    };
    for (i, sq) in squares.iter().enumerate() {
        let byte = rest.get(i).copied().unwrap_or(0);
        match byte % 4 {
            1 => setup.white.insert(*sq),
            2 => setup.black.insert(*sq),
            _ => continue,
        }
        if byte & 0x10 != 0 {
            setup.kings.insert(*sq);
        }
    }
    let Ok(pos) = AnyPosition::new(variant, &setup) else {
        return;
    };
    let us = pos.side_to_move();
    let theirs = pos.setup().pieces(!us);
    let moves = pos.legal_moves();
    assert_eq!(pos.has_legal_move(), !moves.is_empty());
    for m in &moves {
        assert!(pos.setup().pieces(us).contains(m.from));
        assert_eq!(m.captured & theirs, m.captured, "only enemy pieces are captured");
        let next = pos.play(m).expect("generated moves are legal");
        assert_eq!(next.hash(), next.compute_hash());
        assert_eq!(
            next.setup().pieces(!us).len() + m.captured.len(),
            theirs.len(),
            "captured pieces leave the board"
        );
        let paths = pos.paths(m);
        assert!(!paths.is_empty());
    }
});
