//! FEN: any text read for any variant either fails with an error or gives a set-up whose
//! canonical FEN reads back to the same position.
#![no_main]
use dama_core::{AnyPosition, Variant};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let variant = Variant::ALL[selector as usize % Variant::ALL.len()];
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    if let Ok(fen) = dama_notation::fen::parse(variant, text) {
        let written = dama_notation::fen::write(variant, &fen.setup);
        let again = dama_notation::fen::parse(variant, &written).expect("canonical FEN reads");
        assert_eq!(again.setup.white, fen.setup.white);
        assert_eq!(again.setup.black, fen.setup.black);
        assert_eq!(again.setup.kings, fen.setup.kings);
        if let Ok(pos) = AnyPosition::new(variant, &fen.setup) {
            assert_eq!(AnyPosition::from_fen(variant, &pos.fen()).unwrap(), pos);
            let _ = pos.legal_moves();
        }
    }
});
