//! Malformed input of any kind gives an error, never a panic: a short property-based version of
//! the fuzz targets in `fuzz/` (run those for long searches).

use dama_core::{AnyPosition, Variant};
use dama_notation::pdn::{self, Reader, ReplayOptions};
use dama_notation::{parse_move, write_move, GameType, MoveText};
use proptest::prelude::*;

fn variant() -> impl Strategy<Value = Variant> {
    (0..Variant::ALL.len()).prop_map(|i| Variant::ALL[i])
}

/// Text built from the pieces PDN and FEN are made of, so that the search reaches deep into
/// the grammar instead of failing on the first byte.
fn pdn_like() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("[".to_owned()),
        Just("]".to_owned()),
        Just("\"".to_owned()),
        Just("{".to_owned()),
        Just("}".to_owned()),
        Just("(".to_owned()),
        Just(")".to_owned()),
        Just(" ".to_owned()),
        Just("\n".to_owned()),
        Just("\r\n".to_owned()),
        Just("\\r".to_owned()),
        Just("%".to_owned()),
        Just("$".to_owned()),
        Just("/".to_owned()),
        Just("*".to_owned()),
        Just("!?".to_owned()),
        Just("1-0".to_owned()),
        Just("2-0".to_owned()),
        Just("1/2-1/2".to_owned()),
        Just("1. ".to_owned()),
        Just("12...".to_owned()),
        Just("- ".to_owned()),
        Just("[GameType \"25\"]".to_owned()),
        Just("[GameType \"20,W,10,10,N1,0\"]".to_owned()),
        Just("[FEN \"W:W31-50:B1-20\"]".to_owned()),
        Just("[FEN \"B:W:BK5\"]".to_owned()),
        Just("Event".to_owned()),
        Just("Ж".to_owned()),
        (
            1u32..60,
            prop::sample::select(vec!['-', 'x', ':']),
            1u32..60
        )
            .prop_map(|(a, s, b)| format!("{a}{s}{b}")),
        ("[a-l][0-9]{1,2}[-x:]?[a-l][0-9]{1,2}").prop_map(|s| s),
        "[ -~]{0,6}",
    ];
    prop::collection::vec(piece, 0..60).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn fen_never_panics(v in variant(), text in "[WBK?:,.0-9a-lHF -]{0,80}") {
        if let Ok(fen) = dama_notation::fen::parse(v, &text) {
            let again = dama_notation::fen::parse(v, &dama_notation::fen::write(v, &fen.setup));
            prop_assert_eq!(again.map(|f| f.setup.white), Ok(fen.setup.white));
            let _ = AnyPosition::new(v, &fen.setup).map(|p| p.legal_moves());
        }
    }

    #[test]
    fn move_text_never_panics(v in variant(), text in "[0-9a-lA-Lx:.!?() -]{0,24}") {
        let _ = MoveText::parse(&text);
        let pos = AnyPosition::start(v);
        if let Ok(m) = parse_move(&pos, &text) {
            prop_assert_eq!(parse_move(&pos, &write_move(&pos, &m)), Ok(m));
        }
    }

    #[test]
    fn game_type_never_panics(text in "[0-9WBANS, ]{0,24}") {
        if let Ok(gt) = GameType::parse(&text) {
            prop_assert_eq!(GameType::parse(&gt.to_string()), Ok(gt));
        }
    }

    #[test]
    fn pdn_never_panics(text in pdn_like()) {
        let opts = ReplayOptions::default();
        for game in Reader::new(text.as_bytes()).take(32).flatten() {
            if let Ok(r) = pdn::replay(&game, &opts) {
                // What replays is written and read back to the same moves.
                let written = pdn::write_games_to_string(std::slice::from_ref(&game));
                let back = Reader::new(written.as_bytes()).find_map(Result::ok);
                let back = back.expect("written game reads back");
                prop_assert_eq!(pdn::replay(&back, &opts).map(|b| b.moves).ok(), Some(r.moves));
            }
        }
    }

    #[test]
    fn pdn_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        for game in Reader::new(&bytes[..]).take(32).flatten() {
            let _ = pdn::replay(&game, &ReplayOptions::default());
        }
    }
}
