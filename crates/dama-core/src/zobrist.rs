//! Zobrist keys for hashing positions.
//!
//! The keys depend only on the bit index, so one table serves every board. They are generated at
//! compile time from a fixed seed, so hashes are stable across runs and builds.

use crate::geometry::TABLE_LEN;

/// One step of the SplitMix64 generator: the next state and its output. Distinct states give
/// distinct outputs (the mix is a bijection), which makes it a good seed spreader too.
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let next = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = next;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (next, z ^ (z >> 31))
}

const fn build() -> ([[u64; TABLE_LEN]; 6], u64, [u64; 16]) {
    let mut keys = [[0u64; TABLE_LEN]; 6];
    let mut state = 0x6461_6d61_2064_7261; // "dama dra"
    let mut kind = 0;
    while kind < 6 {
        let mut sq = 0;
        while sq < TABLE_LEN {
            let (s, k) = splitmix64(state);
            state = s;
            keys[kind][sq] = k;
            sq += 1;
        }
        kind += 1;
    }
    let (s, side) = splitmix64(state);
    state = s;
    let mut counters = [0u64; 16];
    let mut i = 0;
    while i < 16 {
        if i % 8 == 0 {
            i += 1;
            continue;
        }
        let (s, k) = splitmix64(state);
        state = s;
        counters[i] = k;
        i += 1;
    }
    (keys, side, counters)
}

const ALL: ([[u64; TABLE_LEN]; 6], u64, [u64; 16]) = build();

/// `PIECE[kind][square]`, kind = colour * 2 + (1 if king); kinds 4 and 5 mark the square of
/// White's and Black's last-moved king (Frisian three-move rule).
pub static PIECE: [[u64; TABLE_LEN]; 6] = ALL.0;
/// Xored in when Black is to move.
pub const BLACK_TO_MOVE: u64 = ALL.1;
/// Keys for small per-side counters that change the legal moves (Frisian king moves):
/// `COUNTER[color * 8 + value]`; value 0 has key 0 so that other variants hash nothing.
pub static COUNTER: [u64; 16] = ALL.2;

/// The key of a piece of colour index `color` (0 White, 1 Black) on `square`.
#[inline(always)]
pub fn piece(color: usize, king: bool, square: u32) -> u64 {
    PIECE[color * 2 + king as usize][square as usize & (TABLE_LEN - 1)]
}

/// The key of colour `color`'s last-moved king standing on `square` (Frisian).
#[inline(always)]
pub fn moved_king(color: usize, square: u8) -> u64 {
    if square as usize >= TABLE_LEN {
        0
    } else {
        PIECE[4 + color][square as usize]
    }
}
