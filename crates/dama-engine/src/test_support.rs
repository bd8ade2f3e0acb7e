//! Helpers shared by the unit tests.

use crate::selfplay;
use dama_core::rules::Rules;
use dama_core::{AnyPosition, Position, Setup, SquareSet, Variant};

/// The position turned half a turn with the colours swapped.
pub(crate) fn flipped(p: &AnyPosition) -> AnyPosition {
    let v = p.variant();
    let b = v.board();
    let turn = |set: SquareSet| -> SquareSet {
        set.iter()
            .map(|sq| {
                let (c, r) = v.coords(sq).unwrap();
                dama_core::Square(
                    ((((b.height - 1 - r) * (b.width + 1)) + b.width - 1 - c) / 2) as u8,
                )
            })
            .collect()
    };
    let s = p.setup();
    AnyPosition::new(
        v,
        &Setup {
            white: turn(s.black),
            black: turn(s.white),
            kings: turn(s.kings),
            side_to_move: !s.side_to_move,
            ..Setup::default()
        },
    )
    .unwrap()
}

/// Positions of a pseudo-random game of `R` from the start (as many plies as it lasts,
/// at most `plies`).
pub(crate) fn random_game<R: Rules>(variant: Variant, plies: usize, seed: u64) -> Vec<Position<R>> {
    let mut pos = AnyPosition::start(variant).to_position::<R>();
    let mut s = seed;
    let mut out = vec![pos];
    let mut list = Vec::new();
    for _ in 0..plies {
        list.clear();
        if !pos.captures(&mut list) {
            pos.quiet_moves(&mut list);
        }
        if list.is_empty() {
            break;
        }
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        pos = pos.play_unchecked(&list[(s % list.len() as u64) as usize]);
        out.push(pos);
    }
    out
}

/// Self-play games played in memory with `config` (its variant), each worker's engine made by
/// [`selfplay::default_engine`] with `engine_seed`: the game positions and the detours (a
/// detours output is always given, so a run asked for none must write none to it).
pub(crate) fn selfplay_in_memory(
    config: &selfplay::Config,
    engine_seed: u64,
) -> (Vec<selfplay::Record>, Vec<selfplay::Record>) {
    use selfplay::DataKind;
    let variant = config.variant;
    let mut games = selfplay::header(variant, DataKind::Games).into_bytes();
    let mut detours = selfplay::header(variant, DataKind::Detours).into_bytes();
    let stop = std::sync::atomic::AtomicBool::new(false);
    selfplay::run(
        config,
        &|| selfplay::default_engine(engine_seed),
        &mut games,
        Some(&mut detours),
        &stop,
        &|_, _| {},
    )
    .unwrap();
    let read = |bytes: &[u8]| selfplay::read(bytes, variant, usize::MAX).unwrap().records;
    (read(&games), read(&detours))
}
