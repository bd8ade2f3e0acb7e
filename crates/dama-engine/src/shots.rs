//! Shots: forced gains of material, proven by a full-width search that counts only material.
//!
//! A *shot* (a combination) is a move after which the side to move wins at least `gain` men's
//! worth of material more than it loses, whatever the opponent replies, within a few plies.
//! Kings are worth three men where they fly and one and a half where they move one square, so
//! a shot that lets the opponent crown has to win that back too. [`Count::Strict`] leans
//! against the side that plays the shot: its own kings count only as men, so crowning a man is
//! no gain (whether a king more wins depends on the ending, which only a search can judge);
//! [`Count::Full`] counts them in full. The proof looks at every
//! move of both sides for `plies` plies, then follows compulsory captures to the end (a
//! position where the side to move must capture is never scored), and scores a quiet position
//! by the difference in material only when the side that plays the shot is to move: the
//! opponent always makes one more move, so a counter-shot that would win the material back is
//! seen. Under a giveaway goal the difference is reversed: there a shot forces the opponent to
//! take more than it gives. A side with no move loses (wins,
//! giving away), which the proof counts as more than any gain; with a gain of [`WIN`] only
//! that counts, and the proof is of a won game.
//!
//! The search knows no evaluation, no pruning and no table, so what it proves does not depend
//! on the engine: the tactics suites use it to check the engine's moves, and `dama shots` to
//! find combinations in games.

use dama_core::bitboard::Bitboard;
use dama_core::rules::{Goal, Rules};
use dama_core::{with_rules, AnyMove, AnyPosition, Color, Move, Position};

type Bb<R> = dama_core::position::Bb<R>;

/// More than any difference in material (in half men): the side to move has no move (and loses, or wins under
/// a giveaway goal).
const DECIDED: i32 = 1000;

/// The gain that asks for a won game: the opponent left without a move (without pieces, or
/// blocked; the other way round under a giveaway goal).
pub const WIN: i32 = DECIDED;

/// How the kings of the side that plays the shot are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// As men: crowning gains nothing (how shots are found).
    Strict,
    /// At a king's worth, as the opponent's are.
    Full,
}

/// A proven shot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shot {
    /// Every first move that forces the gain (in the position's move order).
    pub moves: Vec<AnyMove>,
    /// The fewest plies (the shot's own moves and the replies, before the captures that
    /// follow) within which the gain is forced.
    pub plies: u32,
}

/// Why a proof gave up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unproven;

/// The proof search over one rule set, with a budget of positions.
struct Prover<R: Rules> {
    lists: Vec<Vec<Move<Bb<R>>>>,
    nodes: u64,
    budget: u64,
    /// The side that plays the shot: only with it to move is a quiet position scored.
    attacker: Color,
    count: Count,
}

impl<R: Rules> Prover<R> {
    fn new(budget: u64, attacker: Color, count: Count) -> Self {
        Prover {
            lists: Vec::new(),
            nodes: 0,
            budget,
            attacker,
            count,
        }
    }

    /// The material the side to move of `pos` must reach for a gain of `gain` men.
    fn target(&self, pos: &Position<R>, gain: i32) -> i32 {
        if gain >= WIN {
            DECIDED
        } else {
            self.material(pos) + 2 * gain
        }
    }

    /// The material of `color` in half men (the attacker's kings as men in a strict count).
    fn side_material(&self, pos: &Position<R>, color: Color) -> i32 {
        let strict = self.count == Count::Strict && color == self.attacker;
        let king = match (strict, R::FLYING_KINGS) {
            (true, _) => 2,
            (false, true) => 6,
            (false, false) => 3,
        };
        let pieces = pos.pieces(color);
        let kings = (pieces & pos.kings()).count() as i32;
        2 * (pieces.count() as i32 - kings) + king * kings
    }

    /// Material of the side to move less the opponent's, in half men (the reverse under a
    /// giveaway goal).
    fn material(&self, pos: &Position<R>) -> i32 {
        let us = pos.side_to_move();
        let own = self.side_material(pos, us);
        let theirs = self.side_material(pos, !us);
        match R::GOAL {
            Goal::Normal => own - theirs,
            Goal::Giveaway => theirs - own,
        }
    }

    /// The side to move cannot move.
    fn stuck() -> i32 {
        match R::GOAL {
            Goal::Normal => -DECIDED,
            Goal::Giveaway => DECIDED,
        }
    }

    /// The best material the side to move can force within `depth` plies (then through the
    /// compulsory captures, and the opponent's answer to the attacker's last move), as far as
    /// it lies within (`alpha`, `beta`).
    fn value(
        &mut self,
        pos: &Position<R>,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Result<i32, Unproven> {
        self.nodes += 1;
        if self.nodes > self.budget {
            return Err(Unproven);
        }
        if self.lists.len() <= ply {
            self.lists.push(Vec::new());
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        let captures = pos.captures(&mut list);
        if !captures {
            if pos.count_quiet_moves() == 0 {
                self.lists[ply] = list;
                return Ok(Self::stuck());
            }
            if depth <= 0 && pos.side_to_move() == self.attacker {
                self.lists[ply] = list;
                return Ok(self.material(pos));
            }
            pos.quiet_moves(&mut list);
        }
        let mut best = -DECIDED - 1;
        let mut result = Ok(());
        for m in &list {
            let child = pos.play_unchecked(m);
            match self.value(&child, depth - 1, -beta, -alpha, ply + 1) {
                Ok(v) => {
                    best = best.max(-v);
                    alpha = alpha.max(best);
                    if alpha >= beta {
                        break;
                    }
                }
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.lists[ply] = list;
        result.map(|()| best)
    }

    /// Whether the side to move can force `target` material within `depth` plies.
    fn reaches(&mut self, pos: &Position<R>, depth: i32, target: i32) -> Result<bool, Unproven> {
        Ok(self.value(pos, depth, target - 1, target, 0)? >= target)
    }

    /// The first moves of `pos` that force `target` (material of its side to move) within
    /// `plies` plies; none when the side to move has no move.
    fn winning_moves(
        &mut self,
        pos: &Position<R>,
        plies: u32,
        target: i32,
    ) -> Result<Vec<Move<Bb<R>>>, Unproven> {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut winning = Vec::new();
        for m in moves {
            if self.forces(pos, &m, plies, target)? {
                winning.push(m);
            }
        }
        Ok(winning)
    }

    /// Whether `m` forces `target` (material of the side to move of `pos`) within `plies`.
    fn forces(
        &mut self,
        pos: &Position<R>,
        m: &Move<Bb<R>>,
        plies: u32,
        target: i32,
    ) -> Result<bool, Unproven> {
        let child = pos.play_unchecked(m);
        // The opponent must not reach more than -target from its side.
        Ok(!self.reaches(&child, plies as i32 - 1, 1 - target)?)
    }
}

/// The shot of `pos` with the fewest plies up to `max_plies` that wins at least `gain` men
/// (`gain` ≥ 1) by the strict count, or `None` if there is none (nor when the game is over);
/// [`Unproven`] when the search would look at more than `budget` positions.
///
/// # Errors
/// [`Unproven`] when the budget runs out.
pub fn find(
    pos: &AnyPosition,
    max_plies: u32,
    gain: i32,
    budget: u64,
) -> Result<Option<Shot>, Unproven> {
    with_rules!(pos.variant(), R => {
        let p = pos.to_position::<R>();
        let mut prover = Prover::<R>::new(budget, p.side_to_move(), Count::Strict);
        let target = prover.target(&p, gain);
        for plies in (1..=max_plies).step_by(2) {
            let moves = prover.winning_moves(&p, plies, target)?;
            if !moves.is_empty() {
                return Ok(Some(Shot {
                    moves: moves.iter().map(Move::to_any).collect(),
                    plies,
                }));
            }
        }
        Ok(None)
    })
}

/// Whether the move `m` of `pos` forces a gain of at least `gain` men, counted as `count`
/// says, within `plies` plies (the move itself counted). An illegal move forces nothing.
///
/// # Errors
/// [`Unproven`] when the search would look at more than `budget` positions.
pub fn forces(
    pos: &AnyPosition,
    m: &AnyMove,
    plies: u32,
    gain: i32,
    count: Count,
    budget: u64,
) -> Result<bool, Unproven> {
    if !pos.legal_moves().contains(m) {
        return Ok(false);
    }
    with_rules!(pos.variant(), R => {
        let p = pos.to_position::<R>();
        let mut prover = Prover::<R>::new(budget, p.side_to_move(), count);
        let target = prover.target(&p, gain);
        prover.forces(&p, &m.narrow::<Bb<R>>(), plies, target)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use dama_core::Variant;

    fn pos(variant: Variant, fen: &str) -> AnyPosition {
        AnyPosition::from_fen(variant, fen).unwrap()
    }

    /// The legal move of `p` from `from` to `to` (square names).
    fn mv(p: &AnyPosition, from: &str, to: &str) -> AnyMove {
        let v = p.variant();
        p.legal_moves()
            .into_iter()
            .find(|m| v.square_name(m.from) == from && v.square_name(m.to) == to)
            .unwrap_or_else(|| panic!("no move {from}-{to} in {}", p.fen()))
    }

    const BUDGET: u64 = 1_000_000;

    // White gives c3-d4; Black must take e5xc3 (c5xe3 is blocked by e3, and the man on c3
    // cannot jump on: a1 is taken); White takes back two, b2xd4xb6. Black's man on h6 then
    // moves and White is a man up.
    const TWO_FOR_ONE: &str = "W:Wa1,b2,c3,e3:Bc5,e5,h6";

    #[test]
    fn a_two_for_one_is_found_and_only_its_key_forces_it() {
        let p = pos(Variant::Russian, TWO_FOR_ONE);
        let shot = find(&p, 1, 1, BUDGET).unwrap().expect("a shot");
        assert_eq!(shot.plies, 1);
        assert_eq!(shot.moves, vec![mv(&p, "c3", "d4")]);
        assert!(forces(&p, &mv(&p, "c3", "d4"), 1, 1, Count::Strict, BUDGET).unwrap());
        assert!(!forces(&p, &mv(&p, "e3", "f4"), 1, 1, Count::Strict, BUDGET).unwrap());
        // A man, not two.
        assert_eq!(find(&p, 1, 2, BUDGET), Ok(None));
    }

    #[test]
    fn the_opponent_must_move_after_the_shot() {
        // After e5-f4 every white move gives a man (b2-c3, h2-g3, h4-g5), and the move after
        // Black's capture another: White may not stand still once the shot's moves are over.
        // (A position of the Russian shot suite.)
        let p = pos(Variant::Russian, "B:Wh4,a3,b2,h2:Bf8,b6,f6,c5,e5,b4");
        let shot = find(&p, 1, 2, BUDGET).unwrap().expect("a shot");
        assert_eq!(shot.moves, vec![mv(&p, "e5", "f4")]);
    }

    #[test]
    fn a_recapture_cancels_the_shot() {
        // Black's man on a7 takes the white man back on b6 (a7xc5).
        let p = pos(Variant::Russian, "W:Wa1,b2,c3,e3:Ba7,c5,e5,h6");
        assert!(!forces(&p, &mv(&p, "c3", "d4"), 1, 1, Count::Strict, BUDGET).unwrap());
    }

    #[test]
    fn crowning_counts_only_in_the_full_count() {
        // c7-d8 crowns; Black's a5 has a free move and nothing is taken.
        let p = pos(Variant::Russian, "W:Wc7:Ba5");
        let crown = mv(&p, "c7", "d8");
        assert!(!forces(&p, &crown, 1, 1, Count::Strict, BUDGET).unwrap());
        assert!(forces(&p, &crown, 1, 2, Count::Full, BUDGET).unwrap());
        assert_eq!(find(&p, 1, 1, BUDGET), Ok(None));
    }

    #[test]
    fn a_giveaway_win() {
        // e3-d4 makes Black take the last white man: White, without pieces, wins.
        let p = pos(Variant::RussianGiveaway, "W:We3:Bc5");
        let shot = find(&p, 1, WIN, BUDGET).unwrap().expect("a win");
        assert_eq!(shot.moves, vec![mv(&p, "e3", "d4")]);
        // Under the ordinary goal the same move loses the game.
        let p = pos(Variant::Russian, "W:We3:Bc5");
        assert_eq!(find(&p, 3, WIN, BUDGET), Ok(None));
    }

    #[test]
    fn the_budget_is_kept_and_a_finished_game_has_no_shot() {
        let start = AnyPosition::start(Variant::International);
        assert_eq!(find(&start, 9, 2, 1_000), Err(Unproven));
        let over = pos(Variant::Russian, "B:Wa1:B");
        assert_eq!(find(&over, 3, WIN, BUDGET), Ok(None));
        // An illegal move forces nothing.
        let p = pos(Variant::Russian, TWO_FOR_ONE);
        let other = mv(&pos(Variant::Russian, "W:Wg1:Bh8"), "g1", "h2");
        assert!(!forces(&p, &other, 1, 1, Count::Full, BUDGET).unwrap());
    }
}
