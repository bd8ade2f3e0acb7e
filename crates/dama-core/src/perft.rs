//! Perft: counting the leaves of the legal-move tree, the standard test of a move generator.
//!
//! Counts follow the "unique move" convention: capture paths that take the same pieces to the
//! same square are one move. The last ply is counted without playing its moves ("bulk
//! counting").

use crate::moves::Move;
use crate::position::{Bb, Position};
use crate::rules::Rules;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Reusable move lists, one per ply, so that perft allocates only at the start.
#[derive(Debug)]
pub struct PerftBuffers<B: crate::Bitboard> {
    lists: Vec<Vec<Move<B>>>,
}

impl<B: crate::Bitboard> PerftBuffers<B> {
    /// Buffers for a search of `depth` plies.
    pub fn new(depth: u32) -> Self {
        PerftBuffers {
            lists: (0..depth.max(1)).map(|_| Vec::with_capacity(128)).collect(),
        }
    }
}

/// Number of leaves `depth` plies below `pos` (1 for depth 0).
pub fn perft<R: Rules>(pos: &Position<R>, depth: u32) -> u64 {
    let mut buffers = PerftBuffers::new(depth);
    perft_with(pos, depth, &mut buffers)
}

/// [`perft`] with caller-provided buffers (at least `depth` lists).
pub fn perft_with<R: Rules>(
    pos: &Position<R>,
    depth: u32,
    buffers: &mut PerftBuffers<Bb<R>>,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    if buffers.lists.len() < depth as usize {
        *buffers = PerftBuffers::new(depth);
    }
    recurse(pos, depth, &mut buffers.lists)
}

fn recurse<R: Rules>(pos: &Position<R>, depth: u32, lists: &mut [Vec<Move<Bb<R>>>]) -> u64 {
    let Some((list, rest)) = lists.split_first_mut() else {
        return 0;
    };
    if depth == 1 {
        return pos.count_legal(list) as u64;
    }
    list.clear();
    pos.legal_moves(list);
    let mut nodes = 0;
    if depth == 2 {
        let scratch = &mut rest[0];
        for m in list.iter() {
            nodes += pos.play_unchecked(m).count_legal(scratch) as u64;
        }
    } else {
        for m in list.iter() {
            nodes += recurse(&pos.play_unchecked(m), depth - 1, rest);
        }
    }
    nodes
}

/// Perft per root move ("divide"): each legal move with the leaves below it, in generation
/// order.
pub fn divide<R: Rules>(pos: &Position<R>, depth: u32) -> Vec<(Move<Bb<R>>, u64)> {
    let moves = pos.legal_move_vec();
    let mut buffers = PerftBuffers::new(depth);
    moves
        .into_iter()
        .map(|m| {
            let n = perft_with(
                &pos.play_unchecked(&m),
                depth.saturating_sub(1),
                &mut buffers,
            );
            (m, n)
        })
        .collect()
}

/// Perft on `threads` threads. The tree is split into the positions a few plies down, which the
/// threads take one at a time from a shared counter, so that uneven subtrees balance out.
pub fn perft_parallel<R: Rules>(pos: &Position<R>, depth: u32, threads: usize) -> u64 {
    let threads = threads.max(1);
    if threads == 1 || depth < 4 {
        return perft(pos, depth);
    }
    // Enough tasks per thread to balance; each task is a subtree of depth - split plies.
    let split = if depth >= 7 { 3 } else { 2 };
    let mut tasks = vec![*pos];
    for _ in 0..split {
        let mut next = Vec::new();
        let mut list = Vec::new();
        for p in &tasks {
            list.clear();
            p.legal_moves(&mut list);
            next.extend(list.iter().map(|m| p.play_unchecked(m)));
        }
        tasks = next;
    }
    let remaining = depth - split;
    let next_task = AtomicUsize::new(0);
    let total = Mutex::new(0u64);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut buffers = PerftBuffers::new(remaining);
                let mut sum = 0;
                loop {
                    let i = next_task.fetch_add(1, Ordering::Relaxed);
                    let Some(p) = tasks.get(i) else { break };
                    sum += perft_with(p, remaining, &mut buffers);
                }
                *total.lock().unwrap_or_else(|e| e.into_inner()) += sum;
            });
        }
    });
    total.into_inner().unwrap_or_else(|e| e.into_inner())
}
