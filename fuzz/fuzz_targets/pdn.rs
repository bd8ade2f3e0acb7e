//! PDN: any bytes read as a file give games or errors (never a panic), every game replays or
//! fails with an error, and a game that replays is written and read back to the same moves.
#![no_main]
use dama_notation::pdn::{self, Reader, ReplayOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let opts = ReplayOptions::default();
    for game in Reader::new(data).take(64) {
        let Ok(game) = game else { continue };
        if let Ok(replayed) = pdn::replay(&game, &opts) {
            let mut out = Vec::new();
            pdn::write_game(&mut out, &game).unwrap();
            let again: Vec<_> = Reader::new(&out[..]).collect();
            let back = again
                .iter()
                .find_map(|g| g.as_ref().ok())
                .expect("a written game reads back");
            let replayed_again = pdn::replay(back, &opts).expect("a written game replays");
            assert_eq!(replayed_again.moves, replayed.moves);
        }
    }
});
