//! Round trips for every variant: random games written as PDN and read back give the same
//! moves, in both notations; FEN written and read back gives the same position; every legal
//! move's text (standard and short) reads back to the same move.

use dama_core::{AnyMove, AnyPosition, Variant};
use dama_notation::pdn::{self, Game, GameResult, Reader, ReplayOptions};
use dama_notation::{parse_move, write_move, write_move_in, write_move_short, Layout, Notation};

/// A small deterministic generator (xorshift) so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn random_game(variant: Variant, rng: &mut Rng, max_plies: usize) -> (AnyPosition, Vec<AnyMove>) {
    let start = AnyPosition::start(variant);
    let mut pos = start;
    let mut moves = Vec::new();
    for _ in 0..max_plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        pos = pos.play(&m).unwrap();
        moves.push(m);
    }
    (start, moves)
}

fn read_one(text: &str) -> Game {
    let mut games: Vec<_> = Reader::new(text.as_bytes()).collect();
    assert_eq!(games.len(), 1, "{text}");
    games.remove(0).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

#[test]
fn pdn_round_trip_every_variant() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for variant in Variant::ALL {
        for _ in 0..12 {
            let (start, moves) = random_game(variant, &mut rng, 120);
            let game = Game::from_moves(variant, &start, &moves, GameResult::Draw);
            let text = pdn::write_games_to_string(std::slice::from_ref(&game));
            let back = read_one(&text);
            let replayed = pdn::replay(&back, &ReplayOptions::default())
                .unwrap_or_else(|e| panic!("{variant}: {e}\n{text}"));
            assert_eq!(replayed.variant, variant);
            assert_eq!(replayed.moves, moves, "{variant}\n{text}");
            assert!(text.contains(GameResult::Draw.text(variant)));

            // Converted to the other notation and back, the moves stay the same.
            for notation in [Notation::Numeric, Notation::Algebraic] {
                let mut converted = back.clone();
                pdn::convert(&mut converted, notation, &ReplayOptions::default())
                    .unwrap_or_else(|e| panic!("{variant} {notation:?}: {e}"));
                let text2 = pdn::write_games_to_string(std::slice::from_ref(&converted));
                let again = read_one(&text2);
                let r = pdn::replay(&again, &ReplayOptions::default())
                    .unwrap_or_else(|e| panic!("{variant} {notation:?}: {e}\n{text2}"));
                assert_eq!(r.moves, moves, "{variant} {notation:?}\n{text2}");
            }
        }
    }
}

/// The pieces and side to move (FEN does not carry Frisian's count of quiet king moves).
fn board(pos: &AnyPosition) -> (u128, u128, u128, dama_core::Color) {
    let s = pos.setup();
    (s.white.0, s.black.0, s.kings.0, s.side_to_move)
}

#[test]
fn fen_round_trip_every_variant() {
    let mut rng = Rng(12345);
    for variant in Variant::ALL {
        for _ in 0..40 {
            let (start, moves) = random_game(variant, &mut rng, 80);
            let mut pos = start;
            for m in &moves {
                pos = pos.play(m).unwrap();
                let fen = pos.fen();
                let back = AnyPosition::from_fen(variant, &fen).unwrap();
                assert_eq!(board(&back), board(&pos), "{fen}");
                if variant != Variant::Frisian {
                    assert_eq!(back, pos, "{fen}");
                }
                // In the other notation too.
                for notation in [Notation::Numeric, Notation::Algebraic] {
                    let layout = Layout::with_notation(variant, notation);
                    let other = dama_notation::fen::write_in(variant, pos.setup(), &layout);
                    let back = AnyPosition::from_fen(variant, &other)
                        .unwrap_or_else(|e| panic!("{variant} {other}: {e}"));
                    assert_eq!(board(&back), board(&pos), "{variant} {other}");
                }
            }
        }
    }
}

#[test]
fn every_move_text_reads_back() {
    let mut rng = Rng(777);
    for variant in Variant::ALL {
        for _ in 0..8 {
            let (start, moves) = random_game(variant, &mut rng, 100);
            let mut pos = start;
            for m in &moves {
                for legal in pos.legal_moves() {
                    let mut texts = vec![write_move(&pos, &legal)];
                    for notation in [Notation::Numeric, Notation::Algebraic] {
                        let layout = Layout::with_notation(variant, notation);
                        texts.push(write_move_in(&pos, &legal, &layout));
                        texts.push(write_move_short(&pos, &legal, &layout));
                    }
                    for t in texts {
                        assert_eq!(
                            parse_move(&pos, &t),
                            Ok(legal),
                            "{variant} {t} in {}",
                            pos.fen()
                        );
                    }
                }
                pos = pos.play(m).unwrap();
            }
        }
    }
}

/// A reader fed one byte at a time reads the same games, errors and places as one fed the
/// whole text: the streaming buffer never changes the result.
#[test]
fn streaming_in_small_pieces() {
    struct Trickle<'a>(&'a [u8]);
    impl std::io::Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.0.len().min(buf.len()).min(3);
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }
    let text = "[Event \"a\"]\r\n[GameType \"20\"]\r\n\r\n1. 32-28 {a\r\ncomment} 19-23 \
                (1... 18-23 2. 37-32 $1) 2. 28x19 14x23! 2-0\n\n[Event \"b\"]\n1. 33-28 \
                } 18-23 *\n[Event \"c\"]\n1. 31-26 20-25 1-1\n";
    let whole: Vec<_> = Reader::new(text.as_bytes()).collect();
    let pieces: Vec<_> = Reader::new(Trickle(text.as_bytes())).collect();
    assert_eq!(whole, pieces);
    assert_eq!(whole.len(), 3);
    let err = whole[1].as_ref().unwrap_err();
    assert_eq!((err.pos.line, err.pos.column), (8, 10));
    assert_eq!(whole[2].as_ref().unwrap().tag("Event"), Some("c"));
}
