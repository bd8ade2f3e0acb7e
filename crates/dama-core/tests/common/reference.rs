//! A slow, plainly written move generator used as the reference in property tests.
//!
//! It shares nothing with the crate's generator but the square numbering: it works on
//! (column, row) coordinates with a map of pieces, enumerates every capture path explicitly and
//! applies each variant's rules as the rule book states them.

use dama_core::{AnyPosition, Color, Role, Square, SquareSet, Variant};
use std::collections::{BTreeSet, HashMap};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Choice {
    Free,
    MostPieces,
    MostPiecesThenKings,
    KingFirst,
    Italian,
    HighestValue,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Crown {
    Continue,
    Ends,
    AtEnd,
}

struct Rules {
    men_back: bool,
    flying: bool,
    choice: Choice,
    crown: Crown,
    men_take_kings: bool,
    orthogonal: bool,
    king_move_limit: u8,
}

fn rules(v: Variant) -> Rules {
    use Variant::*;
    let base = Rules {
        men_back: true,
        flying: true,
        choice: Choice::Free,
        crown: Crown::Continue,
        men_take_kings: true,
        orthogonal: false,
        king_move_limit: 0,
    };
    match v {
        Russian | RussianGiveaway | DiagonalRussian | Spantsiretti => base,
        German => Rules {
            crown: Crown::Ends,
            ..base
        },
        English | Circassian => Rules {
            men_back: false,
            flying: false,
            crown: Crown::Ends,
            ..base
        },
        International | Antidraughts | Brazilian | Canadian => Rules {
            choice: Choice::MostPieces,
            crown: Crown::AtEnd,
            ..base
        },
        Pool => Rules {
            crown: Crown::AtEnd,
            ..base
        },
        Italian => Rules {
            men_back: false,
            flying: false,
            choice: Choice::Italian,
            crown: Crown::Ends,
            men_take_kings: false,
            ..base
        },
        Spanish | Portuguese => Rules {
            men_back: false,
            choice: Choice::MostPiecesThenKings,
            crown: Crown::AtEnd,
            ..base
        },
        Czech => Rules {
            men_back: false,
            choice: Choice::KingFirst,
            crown: Crown::Ends,
            ..base
        },
        Frisian => Rules {
            choice: Choice::HighestValue,
            crown: Crown::AtEnd,
            orthogonal: true,
            king_move_limit: 3,
            ..base
        },
    }
}

type Cell = (i32, i32);

struct Board {
    variant: Variant,
    w: i32,
    h: i32,
    pieces: HashMap<Cell, (Color, Role)>,
}

impl Board {
    fn from(pos: &AnyPosition) -> Board {
        let v = pos.variant();
        let mut pieces = HashMap::new();
        for sq in v.squares() {
            if let Some(p) = pos.piece_at(sq) {
                let (c, r) = v.coords(sq).unwrap();
                pieces.insert((c as i32, r as i32), (p.color, p.role));
            }
        }
        Board {
            variant: v,
            w: v.board().width as i32,
            h: v.board().height as i32,
            pieces,
        }
    }
    fn on_board(&self, (c, r): Cell) -> bool {
        c >= 0 && r >= 0 && c < self.w && r < self.h
    }
    fn square(&self, (c, r): Cell) -> Square {
        self.variant.square_at(c as u32, r as u32).unwrap()
    }
    fn crown_row(&self, color: Color) -> i32 {
        if color == Color::White {
            self.h - 1
        } else {
            0
        }
    }
}

/// One complete capture sequence.
#[derive(Clone, Debug)]
struct Seq {
    to: Cell,
    captured: Vec<Cell>,
    promotes: bool,
}

const DIAGONALS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
const ORTHOGONALS: [(i32, i32); 4] = [(0, 2), (0, -2), (2, 0), (-2, 0)];

struct Ctx<'a> {
    b: &'a Board,
    r: &'a Rules,
    color: Color,
    from: Cell,
}

impl Ctx<'_> {
    fn occupied(&self, cell: Cell) -> bool {
        cell != self.from && self.b.pieces.contains_key(&cell)
    }

    /// The (captured piece, landing squares) pairs available from `at`.
    fn jumps(&self, at: Cell, king: bool, captured: &[Cell]) -> Vec<(Cell, Vec<Cell>)> {
        let mut dirs: Vec<(i32, i32)> = Vec::new();
        for d in DIAGONALS {
            let forward = if self.color == Color::White {
                d.1 > 0
            } else {
                d.1 < 0
            };
            if king || self.r.men_back || forward {
                dirs.push(d);
            }
        }
        if self.r.orthogonal {
            dirs.extend(ORTHOGONALS);
        }
        let mut out = Vec::new();
        for (dc, dr) in dirs {
            let step = |c: Cell| (c.0 + dc, c.1 + dr);
            let mut cell = step(at);
            if king && self.r.flying {
                while self.b.on_board(cell) && !self.occupied(cell) {
                    cell = step(cell);
                }
            }
            if !self.b.on_board(cell) || !self.occupied(cell) {
                continue;
            }
            let (pc, prole) = self.b.pieces[&cell];
            if pc == self.color || captured.contains(&cell) {
                continue;
            }
            if !king && !self.r.men_take_kings && prole == Role::King {
                continue;
            }
            let mut landings = Vec::new();
            let mut land = step(cell);
            while self.b.on_board(land) && !self.occupied(land) {
                landings.push(land);
                if !(king && self.r.flying) {
                    break;
                }
                land = step(land);
            }
            if !landings.is_empty() {
                out.push((cell, landings));
            }
        }
        out
    }

    fn extend(
        &self,
        at: Cell,
        king: bool,
        promoted: bool,
        captured: &mut Vec<Cell>,
        out: &mut Vec<Seq>,
    ) {
        for (over, landings) in self.jumps(at, king, captured) {
            captured.push(over);
            // A king must land where the capture can go on, if it can anywhere.
            let can_go_on =
                |land: Cell, captured: &Vec<Cell>| !self.jumps(land, king, captured).is_empty();
            let allowed: Vec<Cell> =
                if landings.len() > 1 && landings.iter().any(|&l| can_go_on(l, captured)) {
                    landings
                        .iter()
                        .copied()
                        .filter(|&l| can_go_on(l, captured))
                        .collect()
                } else {
                    landings.clone()
                };
            for land in allowed {
                let on_crown = !king && land.1 == self.b.crown_row(self.color);
                if on_crown {
                    match self.r.crown {
                        Crown::Ends => out.push(Seq {
                            to: land,
                            captured: captured.clone(),
                            promotes: true,
                        }),
                        Crown::Continue => {
                            let before = out.len();
                            self.extend(land, true, true, captured, out);
                            if out.len() == before && self.jumps(land, true, captured).is_empty() {
                                out.push(Seq {
                                    to: land,
                                    captured: captured.clone(),
                                    promotes: true,
                                });
                            }
                        }
                        Crown::AtEnd => {
                            if self.jumps(land, false, captured).is_empty() {
                                out.push(Seq {
                                    to: land,
                                    captured: captured.clone(),
                                    promotes: true,
                                });
                            } else {
                                self.extend(land, false, false, captured, out);
                            }
                        }
                    }
                } else if self.jumps(land, king, captured).is_empty() {
                    out.push(Seq {
                        to: land,
                        captured: captured.clone(),
                        promotes: promoted,
                    });
                } else {
                    self.extend(land, king, promoted, captured, out);
                }
            }
            captured.pop();
        }
    }
}

/// Legal moves as (from, to, captured, promotes).
pub fn legal_moves(pos: &AnyPosition) -> BTreeSet<(Square, Square, SquareSet, bool)> {
    let b = Board::from(pos);
    let r = rules(pos.variant());
    let color = pos.side_to_move();
    let mut captures: Vec<(Cell, bool, Seq)> = Vec::new();
    let mut mine: Vec<(Cell, Role)> = b
        .pieces
        .iter()
        .filter(|(_, (c, _))| *c == color)
        .map(|(&cell, &(_, role))| (cell, role))
        .collect();
    mine.sort_by_key(|(cell, _)| *cell);
    for &(cell, role) in &mine {
        let ctx = Ctx {
            b: &b,
            r: &r,
            color,
            from: cell,
        };
        let mut out = Vec::new();
        ctx.extend(cell, role == Role::King, false, &mut Vec::new(), &mut out);
        captures.extend(out.into_iter().map(|s| (cell, role == Role::King, s)));
    }
    let mut result = BTreeSet::new();
    if !captures.is_empty() {
        let kings_taken = |s: &Seq| {
            s.captured
                .iter()
                .filter(|c| b.pieces[c].1 == Role::King)
                .count() as i64
        };
        let key = |(_, by_king, s): &(Cell, bool, Seq)| -> Vec<i64> {
            let n = s.captured.len() as i64;
            match r.choice {
                Choice::Free => vec![],
                Choice::MostPieces => vec![n],
                Choice::MostPiecesThenKings => vec![n, kings_taken(s)],
                Choice::KingFirst => vec![*by_king as i64],
                Choice::Italian => {
                    // Rule 4: compare where the kings were met, first king first; a king met
                    // earlier wins (so the positions are negated).
                    let mut key = vec![n, *by_king as i64, kings_taken(s)];
                    key.extend(
                        s.captured
                            .iter()
                            .enumerate()
                            .filter(|(_, c)| b.pieces[c].1 == Role::King)
                            .map(|(i, _)| -(i as i64)),
                    );
                    key
                }
                Choice::HighestValue => {
                    let k = kings_taken(s);
                    vec![100 * (n - k) + 199 * k, *by_king as i64]
                }
            }
        };
        let best = captures.iter().map(key).max().unwrap();
        for c in captures.iter().filter(|c| key(c) == best) {
            let (from, _, s) = c;
            let captured: SquareSet = s.captured.iter().map(|&x| b.square(x)).collect();
            result.insert((b.square(*from), b.square(s.to), captured, s.promotes));
        }
        return result;
    }
    // Frisian: the king that made three quiet moves in a row (every king, if which one is not
    // known) may not make a fourth while its side has men.
    let king_moves = pos.setup().king_moves[color.index()];
    let moved_king = pos.setup().moved_king[color.index()];
    let has_men = mine.iter().any(|(_, role)| *role == Role::Man);
    for &(cell, role) in &mine {
        let king = role == Role::King;
        let this_king = moved_king.is_none_or(|sq| sq == b.square(cell));
        if king && r.king_move_limit > 0 && has_men && king_moves >= r.king_move_limit && this_king
        {
            continue;
        }
        for (dc, dr) in DIAGONALS {
            let forward = if color == Color::White {
                dr > 0
            } else {
                dr < 0
            };
            if !king && !forward {
                continue;
            }
            let mut to = (cell.0 + dc, cell.1 + dr);
            while b.on_board(to) && !b.pieces.contains_key(&to) {
                let promotes = !king && to.1 == b.crown_row(color);
                result.insert((b.square(cell), b.square(to), SquareSet::EMPTY, promotes));
                if !(king && r.flying) {
                    break;
                }
                to = (to.0 + dc, to.1 + dr);
            }
        }
    }
    result
}
