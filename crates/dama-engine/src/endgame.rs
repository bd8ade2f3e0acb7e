//! An endgame database for the 8x8 variants (the giveaway goal included): every position with
//! up to a given number of pieces ([`DEFAULT_PIECES`], at most [`MAX_PIECES`]), solved in
//! memory the first time a search of the rule set asks for it, or read from a file written by
//! an earlier build ([`set_directory`]).
//!
//! The database holds, for each position with White to move (a position with Black to move is
//! looked up turned half-way round, colours swapped), whether the side to move wins, loses or
//! draws with best play, and for a win or a loss in how many plies: the winner's quickest win
//! against the loser's longest defence. A position where the side to move has no move is lost
//! in 0 (won in 0 with the giveaway goal); a position with a move to a position lost in `d` (and none lost sooner) is won in
//! `d + 1`; a position whose every move leads to a won position is lost in one ply more than
//! the longest of those wins; whatever is never settled is a draw.
//!
//! The build goes material class by material class: captures lead to classes with fewer
//! pieces and crownings to classes with fewer men, which are solved first, so a class only
//! waits on itself. Within a class it settles the positions level by level — those lost in 0,
//! then those won in 1, lost in 2, and so on — and looks at a position again only when one of
//! its moves leads to a position settled at the level before (the positions with a move to a
//! given one are found by taking a move back), so that the work grows with the moves of the
//! class rather than with its longest result. Distances are counted as the rules of moving
//! alone give them; the move-count draw rules are the searcher's business ([`Outcome`] is
//! exact only while no such rule can end the game first).
//!
//! Four pieces take a second or two and 7.5 MB; five take one to two minutes on two cores
//! and 187 MB (0.4–1.6 GB while building), which is why five are built only when asked for
//! and are best kept in a file.

use dama_core::position::Bb;
use dama_core::rules::Goal;
use dama_core::{with_rules, AnyMove, AnyPosition, Variant};
use dama_core::{Bitboard, Color, Geometry, Move, Position, Rules};
use std::any::TypeId;
use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU8;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex, OnceLock};

/// The most pieces (of both sides together) a database can hold.
pub const MAX_PIECES: u32 = 5;

/// The pieces of the database a search uses unless told otherwise.
pub const DEFAULT_PIECES: u32 = 4;

/// Playable squares of the boards the database covers.
const SQUARES: usize = 32;

/// The result of a position with best play, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move wins in this many plies.
    Win(u32),
    /// The side to move loses in this many plies.
    Loss(u32),
    /// Neither side can force a win.
    Draw,
}

impl Outcome {
    /// Decodes a stored value: 0 is a draw, `d + 1` a result in `d` plies. The game ends with
    /// the side to move unable to move (or without pieces), so the parity of `d` tells who
    /// wins: with the ordinary goal odd distances are wins and even ones losses, with the
    /// giveaway goal the other way round.
    fn from_value(v: u16, giveaway: bool) -> Outcome {
        match v {
            0 => Outcome::Draw,
            v if ((v - 1) % 2 == 1) != giveaway => Outcome::Win(u32::from(v - 1)),
            v => Outcome::Loss(u32::from(v - 1)),
        }
    }
}

/// Whether a rule set has a database: the 8x8 board and no Frisian king-move counters (which
/// the database's positions do not carry).
pub fn supported<R: Rules>() -> bool {
    R::G::SQUARES as usize == SQUARES && R::KING_MOVE_LIMIT == 0
}

/// How the squares are numbered inside the database.
struct Squares {
    /// The board bit of each square.
    bit: [u32; SQUARES],
    /// The square of each board bit (`u8::MAX` off the board).
    square: [u8; 128],
    /// The square half-way round the board.
    rotated: [u8; SQUARES],
    /// Per colour, the rank of each square among those a man of that colour can stand on
    /// (`u8::MAX` on its crowning row).
    man_rank: [[u8; SQUARES]; 2],
    /// Per colour, the squares a man can stand on, in order.
    man_squares: [Vec<u8>; 2],
    /// The neighbour of each square one step up-right, up-left, down-right and down-left
    /// (`u8::MAX` off the board; "up" is towards White's crowning row).
    step: [[u8; SQUARES]; 4],
}

/// The directions of [`Squares::step`] that go up.
const UP: [usize; 2] = [0, 1];

impl Squares {
    fn new<R: Rules>() -> Squares {
        let mut bit = [0; SQUARES];
        let mut square = [u8::MAX; 128];
        for (i, b) in R::G::VALID.iter().enumerate() {
            bit[i] = b;
            square[b as usize] = i as u8;
        }
        let mut rotated = [0; SQUARES];
        for (i, &b) in bit.iter().enumerate() {
            let (c, r) = R::G::coords(b).expect("a playable square has coordinates");
            let turned = R::G::square_at(R::G::WIDTH - 1 - c, R::G::HEIGHT - 1 - r)
                .expect("the board is symmetric");
            rotated[i] = square[turned as usize];
        }
        let mut step = [[u8::MAX; SQUARES]; 4];
        for (i, &b) in bit.iter().enumerate() {
            let (c, r) = R::G::coords(b).expect("a playable square has coordinates");
            for (d, (dc, dr)) in [(1, 1), (-1, 1), (1, -1), (-1, -1)].into_iter().enumerate() {
                let (c, r) = (c as i32 + dc, r as i32 + dr);
                if c >= 0 && r >= 0 {
                    if let Some(n) = R::G::square_at(c as u32, r as u32) {
                        step[d][i] = square[n as usize];
                    }
                }
            }
        }
        let crowning = [R::G::TOP_ROW, R::G::BOTTOM_ROW];
        let mut man_rank = [[u8::MAX; SQUARES]; 2];
        let mut man_squares = [Vec::new(), Vec::new()];
        for side in 0..2 {
            for (i, &b) in bit.iter().enumerate() {
                if !crowning[side].has(b) {
                    man_rank[side][i] = man_squares[side].len() as u8;
                    man_squares[side].push(i as u8);
                }
            }
        }
        Squares {
            bit,
            square,
            rotated,
            man_rank,
            man_squares,
            step,
        }
    }

    /// The squares of a board set, as a 32-bit set.
    #[inline]
    fn of<B: Bitboard>(&self, b: B) -> u32 {
        b.iter().fold(0, |s, x| s | 1 << self.square[x as usize])
    }

    /// A 32-bit set turned half-way round.
    #[inline]
    fn rotate(&self, s: u32) -> u32 {
        Bits(s).fold(0, |t, i| t | 1 << self.rotated[i as usize])
    }

    /// A 32-bit set on the board.
    #[inline]
    fn board<B: Bitboard>(&self, s: u32) -> B {
        Bits(s).fold(B::EMPTY, |b, i| b | B::single(self.bit[i as usize]))
    }
}

/// The members of a 32-bit set, lowest first.
struct Bits(u32);

impl Iterator for Bits {
    type Item = u32;
    #[inline]
    fn next(&mut self) -> Option<u32> {
        (self.0 != 0).then(|| {
            let i = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            i
        })
    }
}

/// `C(n, k)` for `n ≤ 32`, `k ≤ MAX_PIECES`.
const BINOMIAL: [[u32; MAX_PIECES as usize + 1]; SQUARES + 1] = {
    let mut t = [[0; MAX_PIECES as usize + 1]; SQUARES + 1];
    let mut n = 0;
    while n <= SQUARES {
        t[n][0] = 1;
        let mut k = 1;
        while k <= MAX_PIECES as usize && k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// The groups of a position's pieces, in the order of the index: White's men and kings, then
/// Black's.
const GROUPS: usize = 4;

/// A material signature `[white men, white kings, black men, black kings]`.
type Signature = [u32; GROUPS];

fn signature_slot(s: Signature) -> usize {
    let n = MAX_PIECES as usize + 1;
    ((s[0] as usize * n + s[1] as usize) * n + s[2] as usize) * n + s[3] as usize
}

/// The positions of one material signature: a block of the value array.
#[derive(Clone, Copy, Debug)]
struct Block {
    offset: usize,
    /// The number of placements of each group.
    dims: [u32; GROUPS],
    signature: Signature,
}

impl Block {
    fn len(&self) -> usize {
        self.dims.iter().map(|&d| d as usize).product()
    }
}

/// A solved database for one rule set.
pub struct Table {
    squares: Squares,
    /// Per group kind (white men, kings, black men) and size, every placement as a 32-bit set,
    /// in the order of their ranks.
    placements: [Vec<Vec<u32>>; 3],
    /// The block of each signature, by [`signature_slot`].
    blocks: Vec<Option<Block>>,
    /// The value of each position ([`Outcome::from_value`]); atomic so that the threads of
    /// the build can share it.
    values: Vec<AtomicU8>,
    /// Positions per outcome: won, lost, drawn (White to move, legal placements only).
    counts: [u64; 3],
    /// The giveaway goal: a side without moves wins.
    giveaway: bool,
    /// The most pieces of its positions.
    pieces: u32,
    /// Where it came from: built, or read from a file (see [`Table::origin`]).
    origin: String,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("pieces", &self.pieces)
            .field("positions", &self.values.len())
            .field("won_lost_drawn", &self.counts)
            .finish_non_exhaustive()
    }
}

/// The group kind (placement list) of each group.
const KIND: [usize; GROUPS] = [0, 1, 2, 1];

impl Table {
    /// Solves every position of rule set `R` with up to `pieces` pieces (2 to
    /// [`MAX_PIECES`]).
    ///
    /// # Panics
    /// If `R` is not [`supported`] or `pieces` is out of range.
    pub fn build<R: Rules>(pieces: u32) -> Table {
        Table::build_reporting::<R>(pieces, &mut |_, _| {})
    }

    /// [`Table::build`], calling `progress(done, total)` after each material class with the
    /// placements solved so far and in all (the work of a class grows with its placements).
    pub fn build_reporting<R: Rules>(pieces: u32, progress: &mut dyn FnMut(usize, usize)) -> Table {
        let (mut table, len) = Table::layout::<R>(pieces);
        table.values = (0..len).map(|_| AtomicU8::new(0)).collect();
        // Classes: the same number of pieces and of men. Fewer pieces first (captures), then
        // fewer men (crownings).
        let class = |b: &Block| {
            (
                b.signature.iter().sum::<u32>(),
                b.signature[0] + b.signature[2],
            )
        };
        let all = table.blocks_in_order();
        let mut classes: Vec<(u32, u32)> = all.iter().map(class).collect();
        classes.sort_unstable();
        classes.dedup();
        let mut done = 0;
        for c in classes {
            let members: Vec<Block> = all.iter().filter(|b| class(b) == c).copied().collect();
            table.solve_class::<R>(&members);
            done += members.iter().map(Block::len).sum::<usize>();
            progress(done, len);
        }
        table
    }

    /// A table of rule set `R` for positions of up to `pieces` pieces without its values, and
    /// the number of values it needs.
    fn layout<R: Rules>(pieces: u32) -> (Table, usize) {
        assert!(supported::<R>(), "no endgame database for this rule set");
        assert!(
            (2..=MAX_PIECES).contains(&pieces),
            "an endgame database holds 2 to {MAX_PIECES} pieces"
        );
        let squares = Squares::new::<R>();
        let max_group = pieces as usize - 1;
        let universes: [Vec<u8>; 3] = [
            squares.man_squares[0].clone(),
            (0..SQUARES as u8).collect(),
            squares.man_squares[1].clone(),
        ];
        let placements: [Vec<Vec<u32>>; 3] = universes.map(|u| {
            (0..=max_group)
                .map(|k| {
                    subsets(u.len() as u32, k as u32)
                        .map(|local| Bits(local).fold(0, |s, j| s | 1 << u[j as usize]))
                        .collect()
                })
                .collect()
        });
        let mut blocks = vec![None; signature_slot([MAX_PIECES; GROUPS]) + 1];
        let mut offset = 0;
        for s in signatures(pieces) {
            let dims: [u32; GROUPS] =
                core::array::from_fn(|g| placements[KIND[g]][s[g] as usize].len() as u32);
            let block = Block {
                offset,
                dims,
                signature: s,
            };
            offset += block.len();
            blocks[signature_slot(s)] = Some(block);
        }
        let table = Table {
            squares,
            placements,
            blocks,
            values: Vec::new(),
            counts: [0; 3],
            giveaway: R::GOAL == Goal::Giveaway,
            pieces,
            origin: "built in memory".to_string(),
        };
        (table, offset)
    }

    /// The position (White to move) at index `i` of `block`, if its groups do not overlap.
    fn decode<R: Rules>(&self, block: &Block, i: usize) -> Option<Position<R>> {
        let [wm, wk, bm, bk] = self.sets(block, i);
        let all = wm | wk | bm | bk;
        if all.count_ones() != wm.count_ones() + wk.count_ones() + bm.count_ones() + bk.count_ones()
        {
            return None;
        }
        let sq = &self.squares;
        Some(Position::from_bitboards(
            sq.board(wm | wk),
            sq.board(bm | bk),
            sq.board(wk | bk),
            Color::White,
        ))
    }

    /// The groups of the placement at index `i` of `block` (which may overlap).
    fn sets(&self, block: &Block, mut i: usize) -> [u32; GROUPS] {
        let mut sets = [0u32; GROUPS];
        for g in (0..GROUPS).rev() {
            let d = block.dims[g] as usize;
            sets[g] = self.placements[KIND[g]][block.signature[g] as usize][i % d];
            i /= d;
        }
        sets
    }

    /// The index of a position with White to move, given as 32-bit sets.
    #[inline]
    fn index(&self, sets: [u32; GROUPS]) -> usize {
        let signature = sets.map(u32::count_ones);
        let block = self.blocks[signature_slot(signature)].expect("a signature of the database");
        let index = (0..GROUPS).zip(sets).fold(0, |index, (g, set)| {
            index * block.dims[g] as usize + self.rank(g, set) as usize
        });
        block.offset + index
    }

    /// The stored value of a position with White to move, given as 32-bit sets.
    #[inline]
    fn value(&self, sets: [u32; GROUPS]) -> u16 {
        u16::from(self.values[self.index(sets)].load(Relaxed))
    }

    /// The rank of a group's placement among the placements of its kind and size.
    #[inline]
    fn rank(&self, group: usize, set: u32) -> u32 {
        let map = match group {
            0 => Some(&self.squares.man_rank[0]),
            2 => Some(&self.squares.man_rank[1]),
            _ => None,
        };
        Bits(set).enumerate().fold(0, |r, (k, sq)| {
            let local = map.map_or(sq, |m| u32::from(m[sq as usize]));
            r + BINOMIAL[local as usize][k + 1]
        })
    }

    /// The stored value of any position of the database's size, from its side to move's view.
    #[inline]
    fn value_of<R: Rules>(&self, pos: &Position<R>) -> u16 {
        let sq = &self.squares;
        let kings = pos.kings();
        let (own, other) = match pos.side_to_move() {
            Color::White => (pos.pieces(Color::White), pos.pieces(Color::Black)),
            Color::Black => (pos.pieces(Color::Black), pos.pieces(Color::White)),
        };
        let mut sets = [
            sq.of(own & !kings),
            sq.of(own & kings),
            sq.of(other & !kings),
            sq.of(other & kings),
        ];
        if pos.side_to_move() == Color::Black {
            sets = sets.map(|s| sq.rotate(s));
        }
        self.value(sets)
    }

    /// Solves the positions of one class (the classes it leads to are solved), level by
    /// level: at level `v` it settles the positions whose stored value is `v` (`v − 1` plies to
    /// the end; one level holds only wins or only losses, so the positions of one level never
    /// decide each other). A position is looked at again only when a move of its class leads
    /// to a position settled at the level before (its predecessors are found by taking a move
    /// back), or at the level its value points to when it is known early: so every distance is
    /// exact, and the work grows with the moves of the class rather than with its longest
    /// distance.
    fn solve_class<R: Rules>(&mut self, members: &[Block]) {
        // Positions to look at, by level.
        let mut waiting: Vec<Vec<u32>> = vec![Vec::new(); usize::from(u8::MAX) + 1];
        // The class's indices, a part of each block for each thread (the parts of one thread
        // together, so that the threads share every block alike).
        let segments: Vec<(usize, usize, usize)> = (0..THREADS)
            .flat_map(|t| {
                members.iter().enumerate().map(move |(b, block)| {
                    let n = block.len();
                    (b, n * t / THREADS, n * (t + 1) / THREADS)
                })
            })
            .collect();
        let this = &*self;
        let size = members.iter().map(Block::len).sum();
        let scans = in_parallel(segments.len(), size, |range| {
            let mut list = Vec::new();
            let mut legal = 0u64;
            let mut found = Vec::new();
            for &(b, start, end) in &segments[range] {
                let block = &members[b];
                for i in start..end {
                    let Some(pos) = this.decode::<R>(block, i) else {
                        continue;
                    };
                    legal += 1;
                    // Only the moves that leave the class count yet (the others lead to
                    // draws for now): a capture into a lost position makes a win, and a
                    // position whose every move leaves the class is settled by them.
                    if let Some(v) = this.solve::<R>(&pos, &mut list) {
                        found.push((usize::from(v), (block.offset + i) as u32));
                    }
                }
            }
            (legal, found)
        });
        let mut legal = 0;
        for (n, found) in scans {
            legal += n;
            for (v, index) in found {
                waiting[v].push(index);
            }
        }
        let mut triggered: Vec<u32> = Vec::new();
        let mut counts = [0u64; 2];
        for level in 1..waiting.len() {
            if waiting[level..].iter().all(Vec::is_empty) && triggered.is_empty() {
                break;
            }
            let mut candidates = std::mem::take(&mut waiting[level]);
            candidates.append(&mut triggered);
            candidates.sort_unstable();
            candidates.dedup();
            // A position settled at this level cannot settle another at the same level (one
            // level holds only wins or only losses), so the threads may store as they go.
            let this = &*self;
            let parts = in_parallel(candidates.len(), candidates.len(), |range| {
                let mut list = Vec::new();
                let (mut settled, mut later, mut next) = (0u64, Vec::new(), Vec::new());
                for &index in &candidates[range] {
                    if this.values[index as usize].load(Relaxed) != 0 {
                        continue;
                    }
                    let (block, i) = Self::locate(members, index);
                    let pos = this.decode::<R>(block, i).expect("a legal placement");
                    match this.solve::<R>(&pos, &mut list).map(usize::from) {
                        Some(v) if v <= level => {
                            debug_assert_eq!(v, level, "a distance found late");
                            this.values[index as usize].store(level as u8, Relaxed);
                            settled += 1;
                            this.predecessors::<R>(this.sets(block, i), &mut next);
                        }
                        Some(v) => later.push((v, index)),
                        None => {}
                    }
                }
                (settled, later, next)
            });
            for (settled, later, mut next) in parts {
                counts[(level - 1) % 2] += settled;
                for (v, index) in later {
                    waiting
                        .get_mut(v)
                        .expect("a distance within the database's range")
                        .push(index);
                }
                triggered.append(&mut next);
            }
        }
        // counts[k]: the positions settled at distances of parity k.
        let (won, lost) = if self.giveaway {
            (counts[0], counts[1])
        } else {
            (counts[1], counts[0])
        };
        self.counts[0] += won;
        self.counts[1] += lost;
        self.counts[2] += legal - counts[0] - counts[1];
    }

    /// The blocks, in the order of their places in the value array ([`Table::locate`] needs
    /// that order).
    fn blocks_in_order(&self) -> Vec<Block> {
        let mut blocks: Vec<Block> = self.blocks.iter().flatten().copied().collect();
        blocks.sort_unstable_by_key(|b| b.offset);
        blocks
    }

    /// The block of `members` (in the order of [`Table::blocks_in_order`]) holding `index`,
    /// and the index within it.
    fn locate(members: &[Block], index: u32) -> (&Block, usize) {
        let index = index as usize;
        let b = members.partition_point(|b| b.offset + b.len() <= index);
        (&members[b], index - members[b].offset)
    }

    /// The indices of the positions of the same class (White to move) with a quiet move to the
    /// position `sets` (White to move): turned round, the position before Black's last move.
    fn predecessors<R: Rules>(&self, sets: [u32; GROUPS], out: &mut Vec<u32>) {
        let [wm, wk, bm, bk] = sets;
        let empty = !(wm | wk | bm | bk);
        let sq = &self.squares;
        let mut push = |bm: u32, bk: u32| {
            let before = [bm, bk, wm, wk].map(|s| sq.rotate(s));
            out.push(self.index(before) as u32);
        };
        // A black man came from the row above (Black's men move down).
        for s in Bits(bm) {
            for d in UP {
                let from = sq.step[d][s as usize];
                if from != u8::MAX && empty >> from & 1 != 0 {
                    push(bm ^ (1 << s) ^ (1 << from), bk);
                }
            }
        }
        for s in Bits(bk) {
            for d in 0..4 {
                let mut from = sq.step[d][s as usize];
                while from != u8::MAX && empty >> from & 1 != 0 {
                    push(bm, bk ^ (1 << s) ^ (1 << from));
                    if !R::FLYING_KINGS {
                        break;
                    }
                    from = sq.step[d][from as usize];
                }
            }
        }
    }

    /// Settles a position (White to move) from its moves, if the values known so far allow.
    fn solve<R: Rules>(&self, pos: &Position<R>, list: &mut Vec<Move<Bb<R>>>) -> Option<u16> {
        list.clear();
        pos.legal_moves(list);
        let mut quickest_win = None::<u16>;
        let mut longest_loss = 0;
        let mut all_lose = true;
        for m in list.iter() {
            let child = pos.play_unchecked(m);
            let v = self.stored(&child);
            match Outcome::from_value(v, self.giveaway) {
                Outcome::Loss(_) => quickest_win = Some(quickest_win.map_or(v, |w| w.min(v))),
                Outcome::Win(_) => longest_loss = longest_loss.max(v),
                Outcome::Draw => all_lose = false,
            }
        }
        // Without moves, `all_lose` holds and the value is 1: the end of the game.
        match quickest_win {
            // The child is lost in d (stored d + 1): this position is won in d + 1.
            Some(v) => Some(v + 1),
            None if all_lose => Some(longest_loss + 1),
            None => None,
        }
    }

    /// The result of `pos` with best play, if it has at most [`Table::pieces`] pieces and
    /// both sides have a piece.
    #[inline]
    pub fn probe<R: Rules>(&self, pos: &Position<R>) -> Option<Outcome> {
        let n = pos.occupied().count();
        if n > self.pieces
            || pos.pieces(Color::White).is_empty()
            || pos.pieces(Color::Black).is_empty()
        {
            return None;
        }
        Some(Outcome::from_value(self.value_of(pos), self.giveaway))
    }

    /// The stored value of a position of the database's size from its side to move's view;
    /// a side to move without pieces has lost (giveaway: won) at once, as one without moves.
    #[inline]
    fn stored<R: Rules>(&self, pos: &Position<R>) -> u16 {
        if pos.pieces(pos.side_to_move()).is_empty() {
            1
        } else {
            self.value_of(pos)
        }
    }

    /// The result of a position reached by a move from one of the database: [`Table::probe`],
    /// or the end of the game if the side to move has no piece left.
    fn result<R: Rules>(&self, pos: &Position<R>) -> Option<Outcome> {
        (pos.occupied().count() <= self.pieces)
            .then(|| Outcome::from_value(self.stored(pos), self.giveaway))
    }

    /// Best play from `pos` while the database knows it is won or lost, at most `max` moves:
    /// the winner's quickest way to the end and the loser's longest resistance.
    pub fn line<R: Rules>(&self, pos: &Position<R>, max: usize) -> Vec<Move<Bb<R>>> {
        let mut line = Vec::new();
        let mut pos = *pos;
        while line.len() < max {
            if !matches!(self.probe(&pos), Some(Outcome::Win(_) | Outcome::Loss(_))) {
                break;
            }
            // The value of each move from the mover's view: a child lost sooner is better,
            // and of children won, the one won later.
            let best = pos.legal_move_vec().into_iter().max_by_key(|m| {
                match self.result(&pos.play_unchecked(m)) {
                    None => i64::MIN,
                    Some(Outcome::Loss(d)) => i64::MAX - 1 - i64::from(d),
                    Some(Outcome::Draw) => 0,
                    Some(Outcome::Win(d)) => -i64::from(u32::MAX) + i64::from(d),
                }
            });
            let Some(m) = best else { break };
            pos = pos.play_unchecked(&m);
            line.push(m);
        }
        line
    }

    /// The most pieces of the database's positions.
    pub fn pieces(&self) -> u32 {
        self.pieces
    }

    /// Where the table came from: built in memory, read from a file, or built and written to
    /// one (and why an existing file was not used, or why it could not be written).
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// Positions (White to move) won, lost and drawn for the side to move.
    pub fn counts(&self) -> [u64; 3] {
        self.counts
    }

    /// The number of places in the database, a byte each (placements whose pieces overlap
    /// included).
    pub fn size(&self) -> usize {
        self.values.len()
    }

    /// The longest win or loss, in plies.
    pub fn longest(&self) -> u32 {
        self.values
            .iter()
            .map(|v| u32::from(v.load(Relaxed).saturating_sub(1)))
            .max()
            .unwrap_or(0)
    }
}

/// Threads a build uses.
const THREADS: usize = 2;

/// Runs `f` over `0..n` cut into one range per thread (on this thread alone if `work`, the
/// positions it stands for, is small), and returns the results in the order of the ranges.
fn in_parallel<T: Send>(
    n: usize,
    work: usize,
    f: impl Fn(core::ops::Range<usize>) -> T + Sync,
) -> Vec<T> {
    if work < 4096 {
        return vec![f(0..n)];
    }
    let f = &f;
    std::thread::scope(|scope| {
        let parts: Vec<_> = (0..THREADS)
            .map(|t| scope.spawn(move || f(n * t / THREADS..n * (t + 1) / THREADS)))
            .collect();
        parts
            .into_iter()
            .map(|h| h.join().expect("an endgame database thread"))
            .collect()
    })
}

/// Every `k`-member subset of `0..n` as a bit set, in increasing order (which is the order of
/// the combinatorial ranks [`Table::rank`] gives).
fn subsets(n: u32, k: u32) -> impl Iterator<Item = u32> {
    let first = if k == 0 { 0 } else { (1u64 << k) - 1 };
    let end = 1u64 << n;
    let mut next = (k <= n).then_some(first);
    core::iter::from_fn(move || {
        let x = next?;
        next = if x == 0 {
            None
        } else {
            // The next larger number with as many bits set.
            let c = x & x.wrapping_neg();
            let r = x + c;
            let y = (((r ^ x) >> 2) / c) | r;
            (y < end).then_some(y)
        };
        Some(x as u32)
    })
}

/// The material signatures of a database of up to `pieces` pieces, `[white men, white kings,
/// black men, black kings]`, fewer pieces first: every split of 2 to `pieces` pieces where
/// both sides have one.
pub(crate) fn signatures(pieces: u32) -> impl Iterator<Item = Signature> {
    (2..=pieces).flat_map(|total| {
        (0..=total)
            .flat_map(move |wm| {
                (0..=total - wm).flat_map(move |wk| {
                    (0..=total - wm - wk).map(move |bm| [wm, wk, bm, total - wm - wk - bm])
                })
            })
            .filter(|s| s[0] + s[1] > 0 && s[2] + s[3] > 0)
    })
}

/// Where the database of one rule set and size is built and kept.
#[derive(Default)]
struct Slot {
    table: OnceLock<Arc<Table>>,
    started: std::sync::atomic::AtomicBool,
}

/// The slots of the databases, by rule set and size.
type Slots = Mutex<HashMap<(TypeId, u32), Arc<Slot>>>;

fn slot<R: Rules>(pieces: u32) -> Arc<Slot> {
    static SLOTS: OnceLock<Slots> = OnceLock::new();
    let mut map = SLOTS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    Arc::clone(map.entry((TypeId::of::<R>(), pieces)).or_default())
}

/// The folder of the database files, if one is set.
fn directory() -> &'static Mutex<Option<PathBuf>> {
    static DIRECTORY: Mutex<Option<PathBuf>> = Mutex::new(None);
    &DIRECTORY
}

/// Sets the folder where databases are kept between runs: a database is read from its file
/// there if the file is sound, and otherwise built and written there. `None` (the default)
/// builds every database in memory. Applies to the databases built after the call.
pub fn set_directory(dir: Option<PathBuf>) {
    *directory().lock().unwrap_or_else(|e| e.into_inner()) = dir;
}

/// The file of rule set `R`'s database of `pieces` pieces in folder `dir`.
pub fn file_in<R: Rules>(dir: &Path, pieces: u32) -> PathBuf {
    let name = std::any::type_name::<R>()
        .rsplit("::")
        .next()
        .unwrap_or("rules")
        .to_ascii_lowercase();
    dir.join(format!("{name}-{pieces}.egdb"))
}

/// The database of rule set `R`, read from its file in `dir` or built (and written there).
fn obtain<R: Rules>(
    pieces: u32,
    dir: Option<&Path>,
    progress: &mut dyn FnMut(usize, usize),
) -> Table {
    let Some(dir) = dir else {
        return Table::build_reporting::<R>(pieces, progress);
    };
    let path = file_in::<R>(dir, pieces);
    let not_read = match Table::load::<R>(&path, pieces) {
        Ok(table) => return table,
        Err(FileError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => Some(e),
    };
    let mut table = Table::build_reporting::<R>(pieces, progress);
    let written = std::fs::create_dir_all(dir)
        .map_err(FileError::Io)
        .and_then(|()| table.save::<R>(&path));
    table.origin = match (not_read, written) {
        (None, Ok(())) => format!("built and written to {}", path.display()),
        (Some(e), Ok(())) => format!(
            "built and written to {} (the file there was not used: {e})",
            path.display()
        ),
        (_, Err(e)) => format!("built in memory (could not write {}: {e})", path.display()),
    };
    table
}

/// The database of rule set `R` with up to `pieces` pieces (clamped to 2 to [`MAX_PIECES`]),
/// read or built on first use (a build already under way is waited for) and shared after;
/// `None` for rule sets without one.
pub fn table<R: Rules>(pieces: u32) -> Option<Arc<Table>> {
    table_reporting::<R>(pieces, &mut |_, _| {})
}

/// [`table`], reporting the progress of a build this call makes (see
/// [`Table::build_reporting`]).
pub fn table_reporting<R: Rules>(
    pieces: u32,
    progress: &mut dyn FnMut(usize, usize),
) -> Option<Arc<Table>> {
    if !supported::<R>() {
        return None;
    }
    let pieces = pieces.clamp(2, MAX_PIECES);
    let slot = slot::<R>(pieces);
    slot.started.store(true, Relaxed);
    Some(Arc::clone(slot.table.get_or_init(|| {
        let dir = directory()
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        Arc::new(obtain::<R>(pieces, dir.as_deref(), progress))
    })))
}

/// The database of rule set `R` if it is ready; if not, starts making it (see [`prepare`]).
pub fn ready<R: Rules>(pieces: u32) -> Option<Arc<Table>> {
    prepare::<R>(pieces);
    if !supported::<R>() {
        return None;
    }
    slot::<R>(pieces.clamp(2, MAX_PIECES)).table.get().cloned()
}

/// The database of a variant's rule set (made on first use, reporting the progress of a
/// build this call makes: see [`Table::build_reporting`]), if it has one.
pub fn for_variant(
    variant: Variant,
    pieces: u32,
    progress: &mut dyn FnMut(usize, usize),
) -> Option<Arc<Table>> {
    with_rules!(variant, R => table_reporting::<R>(pieces, progress))
}

/// The result of a position of any variant with best play and the line of it (at most
/// `max_line` moves), if the position is one of its database's; makes the database if needed.
pub fn lookup(pos: &AnyPosition, pieces: u32, max_line: usize) -> Option<(Outcome, Vec<AnyMove>)> {
    with_rules!(pos.variant(), R => {
        let table = table::<R>(pieces)?;
        let p = pos.to_position::<R>();
        let outcome = table.probe(&p)?;
        Some((outcome, table.line(&p, max_line).iter().map(|m| m.to_any()).collect()))
    })
}

/// Starts making the database of rule set `R` on a thread of its own, unless it is made or
/// being made (or `R` has none).
pub fn prepare<R: Rules>(pieces: u32) {
    if supported::<R>()
        && !slot::<R>(pieces.clamp(2, MAX_PIECES))
            .started
            .swap(true, Relaxed)
    {
        std::thread::spawn(move || table::<R>(pieces));
    }
}

/// Why a database file was not read.
#[derive(Debug)]
pub enum FileError {
    /// The file could not be read or written.
    Io(std::io::Error),
    /// It is not a database file of this program, or of another version of its layout.
    Format(String),
    /// It is the database of other rules or another size.
    Mismatch(String),
    /// Its values are damaged (checksum, or values that disagree with their moves).
    Damaged(String),
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FileError::Io(e) => write!(f, "{e}"),
            FileError::Format(m) => write!(f, "not a database file: {m}"),
            FileError::Mismatch(m) => write!(f, "another database: {m}"),
            FileError::Damaged(m) => write!(f, "damaged: {m}"),
        }
    }
}

impl std::error::Error for FileError {}

/// The first bytes of a database file.
const MAGIC: &[u8; 8] = b"DAMAEGDB";
/// The version of the file's layout; a change to the order of the positions in the table
/// (the placements, the signatures, the numbering of the squares) must change it.
const FILE_VERSION: u32 = 1;
/// Positions whose stored value is checked against their moves when a file is read.
const FILE_SPOT_CHECKS: usize = 4096;

/// A checksum of the values (64-bit FNV-1a over 8-byte words, the tail zero-padded).
fn checksum(bytes: &[u8]) -> u64 {
    bytes.chunks(8).fold(0xcbf2_9ce4_8422_2325, |h, c| {
        let mut word = [0u8; 8];
        word[..c.len()].copy_from_slice(c);
        (h ^ u64::from_le_bytes(word)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

impl Table {
    /// The file's header: everything but the values.
    fn header<R: Rules>(&self, len: usize, values_checksum: u64) -> Vec<u8> {
        let name = std::any::type_name::<R>();
        let mut h = Vec::with_capacity(80 + name.len());
        h.extend_from_slice(MAGIC);
        h.extend_from_slice(&FILE_VERSION.to_le_bytes());
        h.extend_from_slice(&self.pieces.to_le_bytes());
        h.extend_from_slice(&(name.len() as u32).to_le_bytes());
        h.extend_from_slice(name.as_bytes());
        h.extend_from_slice(&(len as u64).to_le_bytes());
        for c in self.counts {
            h.extend_from_slice(&c.to_le_bytes());
        }
        h.extend_from_slice(&values_checksum.to_le_bytes());
        h
    }

    /// Writes the table to `path` (through a temporary file renamed into place, so that a
    /// reader never sees half a file).
    pub fn save<R: Rules>(&self, path: &Path) -> Result<(), FileError> {
        let values: Vec<u8> = self.values.iter().map(|v| v.load(Relaxed)).collect();
        let header = self.header::<R>(values.len(), checksum(&values));
        let temporary = path.with_extension(format!("egdb.{}.part", std::process::id()));
        let write = || -> std::io::Result<()> {
            let mut file = std::io::BufWriter::new(std::fs::File::create(&temporary)?);
            file.write_all(&header)?;
            file.write_all(&values)?;
            file.into_inner().map_err(|e| e.into_error())?.sync_all()?;
            std::fs::rename(&temporary, path)
        };
        write().map_err(|e| {
            let _ = std::fs::remove_file(&temporary);
            FileError::Io(e)
        })
    }

    /// Reads rule set `R`'s database of `pieces` pieces from `path`, written by
    /// [`Table::save`]. The file is not trusted: its header must describe this very table,
    /// its values must match their checksum, and a sample of them must agree with their
    /// moves.
    pub fn load<R: Rules>(path: &Path, pieces: u32) -> Result<Table, FileError> {
        let file = std::fs::File::open(path).map_err(FileError::Io)?;
        let mut table = Table::read_from::<R>(&mut std::io::BufReader::new(file), pieces)?;
        table.origin = format!("read from {}", path.display());
        Ok(table)
    }

    /// [`Table::load`] from any reader: the bytes of a file written by [`Table::save`]. It
    /// reads no more than the table's size and one byte.
    pub fn read_from<R: Rules>(file: &mut dyn Read, pieces: u32) -> Result<Table, FileError> {
        let (mut table, len) = Table::layout::<R>(pieces);
        let expected = table.header::<R>(len, 0);
        // Everything but the counts and the checksum must be as this table's.
        let fixed = expected.len() - 32;
        let mut header = vec![0u8; expected.len()];
        file.read_exact(&mut header).map_err(|e| match e.kind() {
            std::io::ErrorKind::UnexpectedEof => FileError::Format("too short".into()),
            _ => FileError::Io(e),
        })?;
        if &header[..8] != MAGIC {
            return Err(FileError::Format("no database header".into()));
        }
        if header[..fixed] != expected[..fixed] {
            let version = u32::from_le_bytes(header[8..12].try_into().expect("4 bytes"));
            return Err(if version != FILE_VERSION {
                FileError::Format(format!("layout version {version}, not {FILE_VERSION}"))
            } else {
                FileError::Mismatch(format!(
                    "not the {}-piece database of these rules",
                    table.pieces
                ))
            });
        }
        let word = |i: usize| u64::from_le_bytes(header[i..i + 8].try_into().expect("8 bytes"));
        let counts = [word(fixed), word(fixed + 8), word(fixed + 16)];
        let stored_checksum = word(fixed + 24);
        let mut values = Vec::with_capacity(len);
        file.take(len as u64 + 1)
            .read_to_end(&mut values)
            .map_err(FileError::Io)?;
        if values.len() != len {
            return Err(FileError::Damaged(format!(
                "{} values where {len} belong",
                values.len()
            )));
        }
        if checksum(&values) != stored_checksum {
            return Err(FileError::Damaged("the checksum does not match".into()));
        }
        table.values = values.into_iter().map(AtomicU8::new).collect();
        table.counts = counts;
        table.spot_check::<R>(FILE_SPOT_CHECKS)?;
        table.origin = "read from a file".to_string();
        Ok(table)
    }

    /// Checks about `n` positions spread over the table: each stored value must be the one
    /// its moves' values make it.
    fn spot_check<R: Rules>(&self, n: usize) -> Result<(), FileError> {
        let mut list = Vec::new();
        let blocks = self.blocks_in_order();
        let step = (self.values.len() / n.max(1)).max(1);
        // An odd stride so that the sample walks across the blocks' inner dimensions too.
        for index in (0..self.values.len()).step_by(step | 1) {
            let (block, i) = Self::locate(&blocks, index as u32);
            let Some(pos) = self.decode::<R>(block, i) else {
                continue;
            };
            let stored = u16::from(self.values[index].load(Relaxed));
            let derived = self.solve::<R>(&pos, &mut list).unwrap_or(0);
            if stored != derived {
                return Err(FileError::Damaged(format!(
                    "position {index} holds {stored}, its moves make it {derived}"
                )));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Engine, EngineOptions, Limits, Score};
    use dama_core::rules::{English, International, Russian, RussianGiveaway};
    use dama_core::{AnyPosition, Variant};

    fn probe<R: Rules>(variant: Variant, fen: &str) -> Outcome {
        let pos = AnyPosition::from_fen(variant, fen).expect("a test position");
        table::<R>(DEFAULT_PIECES)
            .expect("a database")
            .probe(&pos.to_position::<R>())
            .expect("a position of the database")
    }

    #[test]
    fn only_the_8x8_boards_have_one() {
        assert!(supported::<English>() && supported::<Russian>());
        assert!(supported::<RussianGiveaway>());
        assert!(!supported::<International>());
        assert!(table::<International>(DEFAULT_PIECES).is_none());
    }

    /// Every rule set with a database builds one (the build panics if a distance does not fit
    /// its byte) with positions of every result.
    fn builds<R: Rules>(variant: Variant) {
        let t = table::<R>(DEFAULT_PIECES).expect("a database");
        let [won, lost, drawn] = t.counts();
        assert!(won > 0 && lost > 0 && drawn > 0, "{variant}");
    }

    #[test]
    fn every_8x8_rule_set_builds() {
        use dama_core::rules::{Brazilian, Czech, Italian, Pool, Spanish};
        builds::<RussianGiveaway>(Variant::RussianGiveaway);
        builds::<English>(Variant::English);
        builds::<Russian>(Variant::Russian);
        builds::<Brazilian>(Variant::Brazilian);
        builds::<Pool>(Variant::Pool);
        builds::<Italian>(Variant::Italian);
        builds::<Spanish>(Variant::Spanish);
        builds::<Czech>(Variant::Czech);
    }

    #[test]
    fn english_endings() {
        // Two kings against one win; one against one, both in double corners, is drawn.
        assert!(matches!(
            probe::<English>(Variant::English, "W:WK1,K2:BK32"),
            Outcome::Win(_)
        ));
        assert!(matches!(
            probe::<English>(Variant::English, "B:WK1,K2:BK32"),
            Outcome::Loss(_)
        ));
        assert_eq!(
            probe::<English>(Variant::English, "B:WK32:BK1"),
            Outcome::Draw
        );
        // A lone king in a single corner is trapped by the other with the opposition.
        assert_eq!(
            probe::<English>(Variant::English, "B:WK29:BK4"),
            Outcome::Win(11)
        );
        // Two men against two kings: lost in 14 plies (the search finds the same alone).
        assert_eq!(
            probe::<English>(Variant::English, "W:W21,29:BK15,K18"),
            Outcome::Loss(14)
        );
        // Black takes White's last man: won in one ply.
        assert_eq!(
            probe::<English>(Variant::English, "B:W18:B14"),
            Outcome::Win(1)
        );
    }

    #[test]
    fn russian_endings() {
        // Three kings against one win when they hold the main road (a1-h8)...
        assert!(matches!(
            probe::<Russian>(Variant::Russian, "W:WKa1,Kc1,Ke1:BKh2"),
            Outcome::Win(_)
        ));
        // ...and not when the lone king holds it.
        assert_eq!(
            probe::<Russian>(Variant::Russian, "W:WKc1,Ke1,Kg1:BKa1"),
            Outcome::Draw
        );
        assert_eq!(
            probe::<Russian>(Variant::Russian, "W:WKc1,Ke1:BKa1"),
            Outcome::Draw
        );
    }

    /// Every stored value agrees with the values of the moves: the fixed point the build
    /// looks for, checked on a sample of positions of every class.
    fn consistent<R: Rules>() {
        consistent_table::<R>(&table::<R>(DEFAULT_PIECES).expect("a database"));
    }

    fn consistent_table<R: Rules>(t: &Table) {
        let mut list = Vec::new();
        let mut checked = 0;
        for block in t.blocks.iter().flatten() {
            let step = (block.len() / 3000).max(1);
            for i in (0..block.len()).step_by(step) {
                let Some(pos) = t.decode::<R>(block, i) else {
                    continue;
                };
                let stored = Outcome::from_value(t.value_of(&pos), t.giveaway);
                list.clear();
                pos.legal_moves(&mut list);
                let children: Vec<Outcome> = list
                    .iter()
                    .map(|m| {
                        let child = pos.play_unchecked(m);
                        t.result(&child).expect("a position of the database")
                    })
                    .collect();
                let quickest = children
                    .iter()
                    .filter_map(|o| match o {
                        Outcome::Loss(d) => Some(d + 1),
                        _ => None,
                    })
                    .min();
                let expected = match quickest {
                    // No move: the end of the game, lost or (giveaway) won.
                    _ if children.is_empty() => Outcome::from_value(1, t.giveaway),
                    Some(d) => Outcome::Win(d),
                    None if children.contains(&Outcome::Draw) => Outcome::Draw,
                    None => Outcome::Loss(
                        children
                            .iter()
                            .map(|o| match o {
                                Outcome::Win(d) => d + 1,
                                _ => 0,
                            })
                            .max()
                            .expect("a move"),
                    ),
                };
                assert_eq!(stored, expected, "{pos:?}");
                checked += 1;
            }
        }
        assert!(checked > 100_000, "{checked} positions checked");
    }

    #[test]
    fn english_values_agree_with_their_moves() {
        consistent::<English>();
    }

    #[test]
    fn russian_values_agree_with_their_moves() {
        consistent::<Russian>();
    }

    #[test]
    fn russian_giveaway_values_agree_with_their_moves() {
        consistent::<RussianGiveaway>();
    }

    #[test]
    fn giveaway_endings() {
        // Black must take White's last man, which leaves White without pieces: in giveaway
        // that is White's win, Black's loss in one ply.
        assert_eq!(
            probe::<RussianGiveaway>(Variant::RussianGiveaway, "B:Wc3:Bd4"),
            Outcome::Loss(1)
        );
        // The same position is Black's win in the ordinary game.
        assert_eq!(
            probe::<Russian>(Variant::Russian, "B:Wc3:Bd4"),
            Outcome::Win(1)
        );
    }

    /// A folder of its own for a test, empty.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("dama-egdb-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        dir
    }

    fn same_values(a: &Table, b: &Table) -> bool {
        a.values.len() == b.values.len()
            && a.values
                .iter()
                .zip(&b.values)
                .all(|(x, y)| x.load(Relaxed) == y.load(Relaxed))
    }

    #[test]
    fn a_database_is_written_once_and_read_after() {
        let dir = scratch("kept");
        let built = obtain::<English>(3, Some(&dir), &mut |_, _| {});
        let path = file_in::<English>(&dir, 3);
        assert_eq!(path.file_name().unwrap(), "english-3.egdb");
        assert!(
            built.origin().starts_with("built and written to"),
            "{}",
            built.origin()
        );
        let read = obtain::<English>(3, Some(&dir), &mut |_, _| {});
        assert!(read.origin().starts_with("read from"), "{}", read.origin());
        assert!(same_values(&built, &read));
        assert_eq!(read.counts(), built.counts());
        assert_eq!(
            read.probe(
                &AnyPosition::from_fen(Variant::English, "B:WK29:BK4")
                    .unwrap()
                    .to_position::<English>()
            ),
            Some(Outcome::Win(11))
        );
        // Without a folder, nothing is written.
        assert_eq!(
            obtain::<English>(3, None, &mut |_, _| {}).origin(),
            "built in memory"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_build_reports_its_progress() {
        let mut reports = Vec::new();
        let t =
            Table::build_reporting::<English>(3, &mut |done, total| reports.push((done, total)));
        let total = t.size();
        assert!(reports.len() > 3, "{reports:?}");
        assert!(reports.windows(2).all(|w| w[0].0 < w[1].0), "{reports:?}");
        assert!(reports.iter().all(|&(_, all)| all == total));
        assert_eq!(reports.last(), Some(&(total, total)));
    }

    #[test]
    fn a_file_of_other_rules_or_size_is_refused() {
        let dir = scratch("other");
        let english = Table::build::<English>(3);
        let path = dir.join("t.egdb");
        english.save::<English>(&path).unwrap();
        assert!(Table::load::<English>(&path, 3).is_ok());
        assert!(matches!(
            Table::load::<Russian>(&path, 3),
            Err(FileError::Mismatch(_))
        ));
        assert!(matches!(
            Table::load::<English>(&path, 2),
            Err(FileError::Mismatch(_))
        ));
        std::fs::write(&path, b"not a database at all, just some words").unwrap();
        assert!(matches!(
            Table::load::<English>(&path, 3),
            Err(FileError::Format(_))
        ));
        std::fs::write(&path, b"DAMA").unwrap();
        assert!(matches!(
            Table::load::<English>(&path, 3),
            Err(FileError::Format(_))
        ));
        assert!(matches!(
            Table::load::<English>(&dir.join("absent.egdb"), 3),
            Err(FileError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Any damage to a file's bytes gives an error or (if it touched only what the checks
    /// cannot see, such as the won/lost/drawn counts) a table; never a panic.
    #[test]
    fn damaged_bytes_never_panic() {
        let t = Table::build::<English>(2);
        let dir = scratch("bytes");
        let path = dir.join("t.egdb");
        t.save::<English>(&path).unwrap();
        let good = std::fs::read(&path).unwrap();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let (mut refused, mut read) = (0, 0);
        for round in 0..400 {
            let mut bytes = good.clone();
            match round % 4 {
                // Bytes changed anywhere, most of them in the header.
                0 | 1 => {
                    for _ in 0..=next() % 4 {
                        let at = (next() as usize) % if round % 4 == 0 { 120 } else { bytes.len() };
                        let at = at % bytes.len();
                        bytes[at] = next() as u8;
                    }
                }
                // Cut short or lengthened.
                2 => bytes.truncate((next() as usize) % bytes.len()),
                _ => bytes.extend((0..=next() % 9).map(|_| next() as u8)),
            }
            match Table::read_from::<English>(&mut bytes.as_slice(), 2) {
                Ok(_) => read += 1,
                Err(_) => refused += 1,
            }
        }
        assert!(refused > 200, "{refused} refused, {read} read");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_damaged_file_is_refused_and_built_again() {
        let dir = scratch("damaged");
        let built = obtain::<English>(3, Some(&dir), &mut |_, _| {});
        let path = file_in::<English>(&dir, 3);
        let good = std::fs::read(&path).unwrap();
        let header = good.len() - built.size();
        // Cut short.
        std::fs::write(&path, &good[..good.len() - 10]).unwrap();
        assert!(matches!(
            Table::load::<English>(&path, 3),
            Err(FileError::Damaged(_))
        ));
        // One value changed: the checksum.
        let mut bad = good.clone();
        bad[header + built.size() / 2] ^= 3;
        std::fs::write(&path, &bad).unwrap();
        assert!(matches!(
            Table::load::<English>(&path, 3),
            Err(FileError::Damaged(_))
        ));
        // Every value a draw, with a checksum to match: the values disagree with their moves.
        let mut drawn = good.clone();
        drawn[header..].fill(0);
        let sum = checksum(&drawn[header..]).to_le_bytes();
        drawn[header - 8..header].copy_from_slice(&sum);
        std::fs::write(&path, &drawn).unwrap();
        match Table::load::<English>(&path, 3) {
            Err(FileError::Damaged(m)) => assert!(m.contains("its moves make it"), "{m}"),
            other => panic!("{other:?}"),
        }
        // The engine's way to a database builds it again and mends the file.
        let again = obtain::<English>(3, Some(&dir), &mut |_, _| {});
        assert!(
            again.origin().contains("was not used: damaged"),
            "{}",
            again.origin()
        );
        assert_eq!(std::fs::read(&path).unwrap(), good);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Five pieces: about a minute in a release build, so only with `DAMA_DEEP=1`.
    #[test]
    fn five_pieces_agree_with_their_moves() {
        if std::env::var_os("DAMA_DEEP").is_none() {
            return;
        }
        let t = table::<English>(5).expect("a database");
        assert_eq!(t.pieces(), 5);
        consistent_table::<English>(&t);
        // Three kings against two win (a capture into two kings against one, won).
        assert!(matches!(
            t.probe(
                &AnyPosition::from_fen(Variant::English, "W:WK1,K2,K3:BK31,K32")
                    .unwrap()
                    .to_position::<English>()
            ),
            Some(Outcome::Win(_))
        ));
    }

    #[test]
    fn the_engine_plays_and_reports_from_the_database() {
        let root = AnyPosition::from_fen(Variant::English, "W:W21,29:BK15,K18").unwrap();
        let mut engine = Engine::new(EngineOptions::default());
        engine.set_position(root, &[]);
        let result = engine.search(Limits::depth(3), |_| {});
        assert_eq!(result.score, Score::Loss(14));
        // The line goes on from the database to the end of the game.
        assert_eq!(result.pv.len(), 14);
        let end = result
            .pv
            .iter()
            .try_fold(root, |p, m| p.play(m))
            .expect("a legal line");
        assert!(end.legal_moves().is_empty());
    }

    #[test]
    fn gentler_levels_do_not_use_it() {
        let root = AnyPosition::from_fen(Variant::English, "W:W21,29:BK15,K18").unwrap();
        let mut engine = Engine::new(EngineOptions {
            level: crate::Level::new(9).unwrap(),
            ..EngineOptions::default()
        });
        engine.set_position(root, &[]);
        let result = engine.search(Limits::depth(3), |_| {});
        assert!(!result.score.is_decisive(), "{:?}", result.score);
    }
}
