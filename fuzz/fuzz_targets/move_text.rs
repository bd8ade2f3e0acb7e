//! Move text: reading any text in the start position and in positions reached by the moves
//! read so far never panics, and every move read is written back to text that reads back to
//! the same move.
#![no_main]
use dama_core::{AnyPosition, Variant};
use dama_notation::{parse_move, write_move, write_move_short, Layout};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let variant = Variant::ALL[selector as usize % Variant::ALL.len()];
    let text = String::from_utf8_lossy(rest);
    let layout = Layout::standard(variant);
    let mut pos = AnyPosition::start(variant);
    for token in text.split_whitespace().take(64) {
        if let Ok(m) = parse_move(&pos, token) {
            for written in [write_move(&pos, &m), write_move_short(&pos, &m, &layout)] {
                assert_eq!(parse_move(&pos, &written).as_ref(), Ok(&m), "{written}");
            }
            pos = pos.play(&m).expect("a move read is legal");
        }
    }
});
