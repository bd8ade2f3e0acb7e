//! Legal move generation.
//!
//! Quiet moves of men are generated for the whole board at once with shifts of the padded
//! bitboard; kings use per-square ray tables. Captures are found by a depth-first search per
//! capturing piece that keeps the captured pieces on the board until the sequence ends (the
//! Turkish-strike rule: they block, and cannot be jumped twice). Completed sequences go to a
//! sink, which applies the variant's capture-choice rule and merges sequences that make the
//! same move.

use crate::bitboard::Bitboard;
use crate::geometry::{dir, Geometry};
use crate::moves::Move;
use crate::position::{Bb, Position};
use crate::rules::{CaptureChoice, Crowning, Rules};
use crate::types::{Color, Square};

/// Longest capture path (squares visited, start included) the search can record. A side never
/// has more pieces than it starts with (at most 30, on 12x12), so a path is at most 31 squares.
pub(crate) const MAX_PATH: usize = 64;

/// The Italian king-order pattern of a sequence that has taken no king yet.
const NO_KING: u16 = 0;

/// Receives completed capture sequences.
pub(crate) trait Sink<B: Bitboard> {
    /// A sequence from `from` to `to` taking `captured`, with the choice-rule `key` (higher is
    /// preferred) and the visited squares `path` (start first).
    fn capture(&mut self, from: u32, to: u32, captured: B, promotes: bool, key: u32, path: &[u8]);
}

/// Collects legal capture moves into a list: keeps only the sequences with the best key and
/// merges sequences that make the same move.
pub(crate) struct MoveSink<'a, B> {
    list: &'a mut Vec<Move<B>>,
    start: usize,
    best: u32,
    /// Minimum number of captured pieces for which two paths can make the same move.
    dedup_from: u32,
}

impl<'a, B: Bitboard> MoveSink<'a, B> {
    pub(crate) fn new(list: &'a mut Vec<Move<B>>, dedup_from: u32) -> Self {
        let start = list.len();
        MoveSink {
            list,
            start,
            best: 0,
            dedup_from,
        }
    }
}

impl<B: Bitboard> Sink<B> for MoveSink<'_, B> {
    #[inline]
    fn capture(&mut self, from: u32, to: u32, captured: B, promotes: bool, key: u32, _: &[u8]) {
        if key < self.best {
            return;
        }
        if key > self.best {
            self.list.truncate(self.start);
            self.best = key;
        }
        let m = Move {
            from: from as u8,
            to: to as u8,
            promotes,
            captured,
        };
        if captured.count() >= self.dedup_from && self.list[self.start..].contains(&m) {
            return;
        }
        self.list.push(m);
    }
}

/// The state of one piece's capture search.
struct Search<'s, R: Rules, S> {
    sink: &'s mut S,
    /// Squares a capturing piece may land on: empty, plus the capturing piece's start square.
    empty: Bb<R>,
    /// Pieces that block the capturing piece (everything but itself; captured pieces stay).
    occupied: Bb<R>,
    /// Enemy pieces a king may capture.
    enemies: Bb<R>,
    /// Enemy pieces a man may capture.
    enemies_for_men: Bb<R>,
    enemy_kings: Bb<R>,
    crowning_row: Bb<R>,
    side: Color,
    from: u32,
    mover_is_king: bool,
    path: [u8; MAX_PATH],
    path_len: usize,
}

impl<R: Rules, S: Sink<Bb<R>>> Search<'_, R, S> {
    #[inline(always)]
    fn push(&mut self, sq: u32) {
        // The path is bounded by the number of enemy pieces (see MAX_PATH); the check keeps a
        // corrupt position from writing out of bounds.
        if self.path_len < MAX_PATH {
            self.path[self.path_len] = sq as u8;
        }
        self.path_len += 1;
    }

    #[inline(always)]
    fn pop(&mut self) {
        self.path_len -= 1;
    }

    /// Reports a completed sequence ending on `to`.
    #[inline]
    fn finish(&mut self, to: u32, captured: Bb<R>, promotes: bool, king_order: u16) {
        let count = captured.count();
        let key = match R::CHOICE {
            CaptureChoice::Free => 0,
            CaptureChoice::MostPieces => count,
            CaptureChoice::MostPiecesThenKings => {
                count << 8 | (captured & self.enemy_kings).count()
            }
            CaptureChoice::KingFirst => self.mover_is_king as u32,
            CaptureChoice::Italian => {
                count << 24
                    | (self.mover_is_king as u32) << 23
                    | (captured & self.enemy_kings).count() << 16
                    | king_order as u32
            }
            CaptureChoice::HighestValue => {
                // A man is worth 100 and a king 199: more than a man, less than two men, and
                // no number of men on a board equals a number of kings.
                let kings = (captured & self.enemy_kings).count();
                (100 * (count - kings) + 199 * kings) << 1 | self.mover_is_king as u32
            }
        };
        let len = self.path_len.min(MAX_PATH);
        self.sink
            .capture(self.from, to, captured, promotes, key, &self.path[..len]);
    }

    /// Italian rule 4 (meet the kings earliest): the pattern of where kings were taken in the
    /// sequence, bit `15 - i` for the `i`-th piece taken, updated for taking `over` as piece
    /// number `index`. Between sequences taking as many kings, the higher pattern met a king
    /// first (or, on a tie, the next king first). Other rules keep it at zero.
    #[inline(always)]
    fn note_king(&self, king_order: u16, over: u32, index: u32) -> u16 {
        if R::CHOICE == CaptureChoice::Italian && self.enemy_kings.has(over) && index < 16 {
            king_order | 1 << (15 - index)
        } else {
            king_order
        }
    }

    /// Follows a man's jump over `over` onto `land`: goes on capturing if it can, otherwise
    /// reports the sequence (crowning as the variant says).
    #[inline(always)]
    fn man_jumped(&mut self, over: u32, land: u32, captured: Bb<R>, king_order: u16) {
        let taken = captured | <Bb<R>>::single(over);
        let king_order = self.note_king(king_order, over, captured.count());
        self.push(land);
        if self.crowning_row.has(land) {
            match R::CROWNING {
                Crowning::ContinueAsKing => {
                    if !self.king(land, taken, king_order, true) {
                        self.finish(land, taken, true, king_order);
                    }
                }
                Crowning::EndsMove => self.finish(land, taken, true, king_order),
                Crowning::OnlyAtEnd => {
                    if !self.man(land, taken, king_order) {
                        self.finish(land, taken, true, king_order);
                    }
                }
            }
        } else if !(self.man_may_jump(land, taken) && self.man(land, taken, king_order)) {
            self.finish(land, taken, false, king_order);
        }
        self.pop();
    }

    /// A quick test, without recursion, of whether a man on `sq` may have a diagonal jump; a
    /// `true` is confirmed by [`Search::man`]. Most first jumps end at once, and this keeps them
    /// from paying for a recursive call.
    #[inline(always)]
    fn man_may_jump(&self, sq: u32, captured: Bb<R>) -> bool {
        if R::ORTHOGONAL_CAPTURES {
            return true;
        }
        let bit = <Bb<R>>::single(sq);
        let enemies = self.enemies_for_men & !captured;
        let jump = |d: usize| R::G::shift(R::G::shift(bit, d) & enemies, d);
        let found = if R::MEN_CAPTURE_BACKWARD {
            jump(dir::NE) | jump(dir::NW) | jump(dir::SE) | jump(dir::SW)
        } else if self.side == Color::White {
            jump(dir::NE) | jump(dir::NW)
        } else {
            jump(dir::SE) | jump(dir::SW)
        };
        !(found & self.empty).is_empty()
    }

    /// Continues a man's capture from `sq`; returns whether it could jump at all.
    fn man(&mut self, sq: u32, captured: Bb<R>, king_order: u16) -> bool {
        let mut jumped = false;
        if R::ORTHOGONAL_CAPTURES {
            for d in dir::ALL {
                let Some(over) = R::G::next(d, sq) else {
                    continue;
                };
                if !(self.enemies_for_men & !captured).has(over) {
                    continue;
                }
                match R::G::next(d, over) {
                    Some(land) if self.empty.has(land) => {
                        jumped = true;
                        self.man_jumped(over, land, captured, king_order);
                    }
                    _ => {}
                }
            }
            return jumped;
        }
        // Diagonal jumps with single-bit shifts; each direction written out so that every
        // shift is a constant.
        let bit = <Bb<R>>::single(sq);
        let enemies = self.enemies_for_men & !captured;
        let white = self.side == Color::White;
        macro_rules! try_dir {
            ($d:expr, $forward:expr) => {
                if R::MEN_CAPTURE_BACKWARD || $forward {
                    let over = R::G::shift(bit, $d) & enemies;
                    if !over.is_empty() {
                        let land = R::G::shift(over, $d) & self.empty;
                        if !land.is_empty() {
                            jumped = true;
                            self.man_jumped(over.lowest(), land.lowest(), captured, king_order);
                        }
                    }
                }
            };
        }
        try_dir!(dir::NE, white);
        try_dir!(dir::NW, white);
        try_dir!(dir::SE, !white);
        try_dir!(dir::SW, !white);
        jumped
    }

    /// Continues a king's capture from `sq`; returns whether it could jump at all.
    /// `promotes` is set when the king is a man crowned during this capture.
    fn king(&mut self, sq: u32, captured: Bb<R>, king_order: u16, promotes: bool) -> bool {
        if R::ORTHOGONAL_CAPTURES || !R::FLYING_KINGS {
            return self.king_any(sq, captured, king_order, promotes);
        }
        // Flying kings on the diagonals: each direction written out, with the two directions
        // across it, so that every ray lookup and blocker scan has a constant direction.
        let enemies = self.enemies & !captured;
        let mut jumped = false;
        macro_rules! along {
            ($d:expr, $across_a:expr, $across_b:expr) => {
                let blockers = R::G::ray($d, sq) & self.occupied;
                if !blockers.is_empty() {
                    let over = first_along(blockers, $d);
                    if enemies.has(over) {
                        let landings = free_run::<R>(over, $d, self.occupied);
                        if !landings.is_empty() {
                            jumped = true;
                            // Going back is blocked by the piece just taken: only onwards and
                            // across can the capture go on.
                            let dirs = [$d, $across_a, $across_b];
                            self.king_took(
                                over,
                                landings,
                                captured,
                                king_order,
                                promotes,
                                |search, land, enemies| {
                                    dirs.iter().any(|&d| search.king_can_take(land, d, enemies))
                                },
                            );
                        }
                    }
                }
            };
        }
        along!(dir::NE, dir::NW, dir::SE);
        along!(dir::NW, dir::NE, dir::SW);
        along!(dir::SE, dir::NE, dir::SW);
        along!(dir::SW, dir::NW, dir::SE);
        jumped
    }

    /// A king took `over` and may land on `landings`. Landing squares from which the capture
    /// goes on are searched further; the others end the sequence, but only if no landing
    /// square goes on. `may_go_on` is a quick test that lets a landing square skip the
    /// recursive search (it must not say `false` where a capture exists).
    #[inline(always)]
    fn king_took(
        &mut self,
        over: u32,
        landings: Bb<R>,
        captured: Bb<R>,
        king_order: u16,
        promotes: bool,
        may_go_on: impl Fn(&Self, u32, Bb<R>) -> bool,
    ) {
        let taken = captured | <Bb<R>>::single(over);
        let king_order = self.note_king(king_order, over, captured.count());
        let enemies = self.enemies & !taken;
        let mut continued = false;
        for land in landings.iter() {
            if may_go_on(self, land, enemies) {
                self.push(land);
                continued |= self.king(land, taken, king_order, promotes);
                self.pop();
            }
        }
        if !continued {
            for land in landings.iter() {
                self.push(land);
                self.finish(land, taken, promotes, king_order);
                self.pop();
            }
        }
    }

    /// Whether a flying king on `sq` can take one of `enemies` in direction `d`.
    #[inline(always)]
    fn king_can_take(&self, sq: u32, d: usize, enemies: Bb<R>) -> bool {
        let blockers = R::G::ray(d, sq) & self.occupied;
        if blockers.is_empty() {
            return false;
        }
        let over = first_along(blockers, d);
        enemies.has(over) && R::G::next(d, over).is_some_and(|land| self.empty.has(land))
    }

    /// The king capture search for any king kind (short kings, Frisian's eight directions).
    fn king_any(&mut self, sq: u32, captured: Bb<R>, king_order: u16, promotes: bool) -> bool {
        let dirs: &[usize] = if R::ORTHOGONAL_CAPTURES {
            &dir::ALL
        } else {
            &dir::DIAGONAL
        };
        let mut jumped = false;
        for &d in dirs {
            let (over, landings) = if R::FLYING_KINGS {
                let blockers = R::G::ray(d, sq) & self.occupied;
                if blockers.is_empty() {
                    continue;
                }
                let over = first_along(blockers, d);
                if (self.enemies & !captured).has(over) {
                    (over, free_run::<R>(over, d, self.occupied))
                } else {
                    continue;
                }
            } else {
                let Some(over) = R::G::next(d, sq) else {
                    continue;
                };
                if !(self.enemies & !captured).has(over) {
                    continue;
                }
                match R::G::next(d, over) {
                    Some(land) if self.empty.has(land) => (over, <Bb<R>>::single(land)),
                    _ => continue,
                }
            };
            if landings.is_empty() {
                continue;
            }
            jumped = true;
            self.king_took(over, landings, captured, king_order, promotes, |_, _, _| {
                true
            });
        }
        jumped
    }
}

/// The first member of `blockers` seen walking from a square in direction `d`.
#[inline(always)]
fn first_along<B: Bitboard>(blockers: B, d: usize) -> u32 {
    if dir::is_positive(d) {
        blockers.lowest()
    } else {
        blockers.highest()
    }
}

/// The free squares beyond `sq` in direction `d`, up to the first occupied one.
#[inline(always)]
fn free_run<R: Rules>(sq: u32, d: usize, occupied: Bb<R>) -> Bb<R> {
    let ray = R::G::ray(d, sq);
    let blockers = ray & occupied;
    if blockers.is_empty() {
        ray
    } else {
        let stop = first_along(blockers, d);
        ray & !(R::G::ray(d, stop) | <Bb<R>>::single(stop))
    }
}

/// Signed bit offset of a diagonal step.
#[inline(always)]
fn step<G: Geometry>(d: usize) -> i32 {
    match d {
        dir::NE => (G::HALF + 1) as i32,
        dir::NW => G::HALF as i32,
        dir::SE => -(G::HALF as i32),
        _ => -((G::HALF + 1) as i32),
    }
}

impl<R: Rules> Position<R> {
    /// The landing squares of the men's first jumps, per diagonal direction (NE, NW, SE, SW),
    /// found for the whole board at once; `None` if the side to move certainly cannot capture.
    /// This is the cheap test that most positions stop at.
    #[inline(always)]
    fn capture_candidates(&self) -> Option<[Bb<R>; 4]> {
        let us = self.side;
        let own = self.pieces[us.index()];
        let enemies = self.pieces[us.index() ^ 1];
        let empty = R::G::VALID & !(own | enemies);
        let enemies_for_men = if R::MEN_CAPTURE_KINGS {
            enemies
        } else {
            enemies & !self.kings
        };
        let men = own & !self.kings;
        let white = us == Color::White;
        let first_jumps = |d: usize, forward: bool| {
            if R::ORTHOGONAL_CAPTURES || !(R::MEN_CAPTURE_BACKWARD || forward) {
                <Bb<R>>::EMPTY
            } else {
                R::G::shift(R::G::shift(men, d) & enemies_for_men, d) & empty
            }
        };
        let landings = [
            first_jumps(dir::NE, white),
            first_jumps(dir::NW, white),
            first_jumps(dir::SE, !white),
            first_jumps(dir::SW, !white),
        ];
        let any_man_jump = !(landings[0] | landings[1] | landings[2] | landings[3]).is_empty();
        let orthogonal_men = R::ORTHOGONAL_CAPTURES && !men.is_empty();
        let kings = own & self.kings;
        (any_man_jump || !kings.is_empty() || orthogonal_men).then_some(landings)
    }

    /// Runs the capture search for every piece of the side to move that may capture.
    #[inline]
    pub(crate) fn search_captures<S: Sink<Bb<R>>>(&self, sink: &mut S) {
        if let Some(landings) = self.capture_candidates() {
            self.search_captures_from(landings, sink);
        }
    }

    /// The capture search proper, given [`Position::capture_candidates`]; kept out of line so
    /// that the common no-capture case stays small.
    #[inline(never)]
    fn search_captures_from<S: Sink<Bb<R>>>(&self, landings: [Bb<R>; 4], sink: &mut S) {
        let us = self.side;
        let own = self.pieces[us.index()];
        let enemies = self.pieces[us.index() ^ 1];
        let occupied = own | enemies;
        let empty = R::G::VALID & !occupied;
        let enemies_for_men = if R::MEN_CAPTURE_KINGS {
            enemies
        } else {
            enemies & !self.kings
        };
        let men = own & !self.kings;
        let kings = own & self.kings;
        let any_man_jump = !(landings[0] | landings[1] | landings[2] | landings[3]).is_empty();
        let mut search = Search::<R, S> {
            sink,
            empty,
            occupied,
            enemies,
            enemies_for_men,
            enemy_kings: enemies & self.kings,
            crowning_row: Self::crowning_row(us),
            side: us,
            from: 0,
            mover_is_king: false,
            path: [0; MAX_PATH],
            path_len: 0,
        };
        let start = |search: &mut Search<R, S>, from: u32| {
            let bit = <Bb<R>>::single(from);
            search.from = from;
            search.empty = empty | bit;
            search.occupied = occupied & !bit;
            search.path_len = 0;
            search.push(from);
        };
        if R::ORTHOGONAL_CAPTURES {
            for from in men.iter() {
                start(&mut search, from);
                search.man(from, <Bb<R>>::EMPTY, NO_KING);
            }
        } else if any_man_jump {
            // One loop per direction, so that the step is a constant.
            macro_rules! first_jumps_along {
                ($i:expr, $d:expr) => {
                    let delta = step::<R::G>($d);
                    for land in landings[$i].iter() {
                        let over = (land as i32 - delta) as u32;
                        start(&mut search, (over as i32 - delta) as u32);
                        search.man_jumped(over, land, <Bb<R>>::EMPTY, NO_KING);
                    }
                };
            }
            first_jumps_along!(0, dir::NE);
            first_jumps_along!(1, dir::NW);
            first_jumps_along!(2, dir::SE);
            first_jumps_along!(3, dir::SW);
        }
        search.mover_is_king = true;
        for from in kings.iter() {
            start(&mut search, from);
            search.king(from, <Bb<R>>::EMPTY, NO_KING, false);
        }
    }

    /// Minimum captured count for which two different paths can make the same move. A flying
    /// king can already take two pieces on one line by two paths (landing on either square
    /// between them); short jumps over two pieces cannot meet again (`s + 2u + 2v` is reached
    /// only in the order u, v), so for them duplicates start at three pieces.
    const DEDUP_FROM: u32 = if R::FLYING_KINGS || R::ORTHOGONAL_CAPTURES {
        2
    } else {
        3
    };

    /// Appends the legal captures to `list`; returns whether there were any.
    #[inline]
    pub fn captures(&self, list: &mut Vec<Move<Bb<R>>>) -> bool {
        let Some(landings) = self.capture_candidates() else {
            return false;
        };
        let before = list.len();
        self.search_captures_from(landings, &mut MoveSink::new(list, Self::DEDUP_FROM));
        list.len() > before
    }

    /// Appends the quiet moves to `list` (legal only when there is no capture).
    pub fn quiet_moves(&self, list: &mut Vec<Move<Bb<R>>>) {
        let us = self.side;
        let own = self.pieces[us.index()];
        let empty = R::G::VALID & !self.occupied();
        let men = own & !self.kings;
        let crown = Self::crowning_row(us);
        // Steps of a whole set in one constant direction.
        macro_rules! steps {
            ($pieces:expr, $d:expr, $crown:expr) => {
                let delta = step::<R::G>($d);
                for to in (R::G::shift($pieces, $d) & empty).iter() {
                    list.push(Move {
                        from: (to as i32 - delta) as u8,
                        to: to as u8,
                        promotes: $crown.has(to),
                        captured: <Bb<R>>::EMPTY,
                    });
                }
            };
        }
        match us {
            Color::White => {
                steps!(men, dir::NE, crown);
                steps!(men, dir::NW, crown);
            }
            Color::Black => {
                steps!(men, dir::SE, crown);
                steps!(men, dir::SW, crown);
            }
        }
        let kings = own & self.kings & !self.blocked_kings();
        if kings.is_empty() {
            return;
        }
        if R::FLYING_KINGS {
            for from in kings.iter() {
                macro_rules! slides {
                    ($d:expr) => {
                        for to in free_run::<R>(from, $d, !empty).iter() {
                            list.push(Move {
                                from: from as u8,
                                to: to as u8,
                                promotes: false,
                                captured: <Bb<R>>::EMPTY,
                            });
                        }
                    };
                }
                slides!(dir::NE);
                slides!(dir::NW);
                slides!(dir::SE);
                slides!(dir::SW);
            }
        } else {
            let no_crown = <Bb<R>>::EMPTY;
            steps!(kings, dir::NE, no_crown);
            steps!(kings, dir::NW, no_crown);
            steps!(kings, dir::SE, no_crown);
            steps!(kings, dir::SW, no_crown);
        }
    }

    /// Number of quiet moves (the legal move count when there is no capture).
    #[inline]
    pub fn count_quiet_moves(&self) -> usize {
        let us = self.side;
        let own = self.pieces[us.index()];
        let occupied = self.occupied();
        let empty = R::G::VALID & !occupied;
        let men = own & !self.kings;
        let count = |d: usize, pieces: Bb<R>| (R::G::shift(pieces, d) & empty).count();
        let mut n = match us {
            Color::White => count(dir::NE, men) + count(dir::NW, men),
            Color::Black => count(dir::SE, men) + count(dir::SW, men),
        };
        let kings = own & self.kings;
        if !kings.is_empty() {
            let kings = kings & !self.blocked_kings();
            if R::FLYING_KINGS {
                for from in kings.iter() {
                    n += free_run::<R>(from, dir::NE, occupied).count()
                        + free_run::<R>(from, dir::NW, occupied).count()
                        + free_run::<R>(from, dir::SE, occupied).count()
                        + free_run::<R>(from, dir::SW, occupied).count();
                }
            } else {
                n += count(dir::NE, kings)
                    + count(dir::NW, kings)
                    + count(dir::SE, kings)
                    + count(dir::SW, kings);
            }
        }
        n as usize
    }

    /// Appends the legal moves to `list`: the captures the rules allow if there are any,
    /// otherwise the quiet moves.
    #[inline]
    pub fn legal_moves(&self, list: &mut Vec<Move<Bb<R>>>) {
        if !self.captures(list) {
            self.quiet_moves(list);
        }
    }

    /// The legal moves in a new vector.
    pub fn legal_move_vec(&self) -> Vec<Move<Bb<R>>> {
        let mut list = Vec::new();
        self.legal_moves(&mut list);
        list
    }

    /// Number of legal moves. `scratch` is working space (its contents are replaced).
    #[inline]
    pub fn count_legal(&self, scratch: &mut Vec<Move<Bb<R>>>) -> usize {
        scratch.clear();
        if self.captures(scratch) {
            scratch.len()
        } else {
            self.count_quiet_moves()
        }
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        if self.count_quiet_moves() > 0 {
            return true;
        }
        let mut list = Vec::new();
        self.captures(&mut list)
    }

    /// Every distinct path (squares visited, start and end included) by which the legal move `m`
    /// can be made. Quiet moves have the one path `[from, to]`; the result is empty if `m` is
    /// not legal here.
    pub fn capture_paths(&self, m: &Move<Bb<R>>) -> Vec<Vec<Square>> {
        if !m.is_capture() {
            let mut list = Vec::new();
            self.legal_moves(&mut list);
            return if list.contains(m) {
                vec![vec![m.from(), m.to()]]
            } else {
                Vec::new()
            };
        }
        let mut sink = PathSink::<Bb<R>> {
            target: *m,
            best: 0,
            paths: Vec::new(),
        };
        self.search_captures(&mut sink);
        let mut paths: Vec<Vec<Square>> = sink
            .paths
            .into_iter()
            .filter(|(key, _)| *key == sink.best)
            .map(|(_, path)| path)
            .collect();
        paths.sort();
        paths.dedup();
        paths
    }
}

/// Collects the paths of one move, with the best key over all sequences (so that paths losing
/// to another sequence under the choice rule can be dropped).
struct PathSink<B> {
    target: Move<B>,
    best: u32,
    paths: Vec<(u32, Vec<Square>)>,
}

impl<B: Bitboard> Sink<B> for PathSink<B> {
    fn capture(&mut self, from: u32, to: u32, captured: B, promotes: bool, key: u32, path: &[u8]) {
        self.best = self.best.max(key);
        let t = &self.target;
        if t.from as u32 == from
            && t.to as u32 == to
            && t.captured == captured
            && t.promotes == promotes
        {
            self.paths
                .push((key, path.iter().map(|&s| Square(s)).collect()));
        }
    }
}
