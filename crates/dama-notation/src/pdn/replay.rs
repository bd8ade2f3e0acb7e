//! Replaying games: every move resolved against the legal moves of its position.

use super::{Game, GameResult, MoveNode, Node, TextPos};
use crate::fen::FenError;
use crate::game_type::{GameType, GameTypeError, Layout, Notation};
use crate::move_text::{resolve_in, unresolved_error, MoveError, MoveText, SquareMap, Unresolved};
use core::fmt;
use dama_core::position::Bb;
use dama_core::rules::Rules;
use dama_core::{with_rules, AnyMove, AnyPosition, Move, Position, Variant};

/// How to replay.
#[derive(Clone, Copy, Debug)]
pub struct ReplayOptions {
    /// The variant of games that name none (no `GameType` or `Variant` tag). PDN files
    /// without a `GameType` are International draughts by convention.
    pub default_variant: Variant,
    /// Whether variations are replayed (and their errors reported) too.
    pub variations: bool,
    /// Whether the moves of the main line are returned.
    pub keep_moves: bool,
}

impl Default for ReplayOptions {
    fn default() -> Self {
        ReplayOptions {
            default_variant: Variant::International,
            variations: true,
            keep_moves: true,
        }
    }
}

/// A game that replayed without error.
#[derive(Clone, Debug)]
pub struct Replayed {
    /// The variant whose rules were used.
    pub variant: Variant,
    /// The layout its squares were read in.
    pub layout: Layout,
    /// The start position.
    pub start: AnyPosition,
    /// The moves of the main line (empty unless [`ReplayOptions::keep_moves`]).
    pub moves: Vec<AnyMove>,
    /// Number of main-line moves.
    pub plies: usize,
    /// Number of variation moves replayed.
    pub variation_plies: usize,
    /// The position after the main line.
    pub end: AnyPosition,
}

/// Why a game does not replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayErrorKind {
    /// The `GameType` tag cannot be read.
    BadGameType(GameTypeError),
    /// A `GameType` number dama does not play.
    UnsupportedGameType(u32),
    /// The `FEN` tag (or a set-up) cannot be read or is not a legal position; the text says
    /// why with squares named as the variant names them.
    BadFen(FenError, String),
    /// A move is not legal, is ambiguous or names no square of the board.
    Move {
        /// The move's number as the file gives it (`12.`, `12...`), or its ply in the line
        /// (`ply 7`) when no number comes before it.
        at: String,
        /// Whether the move is inside a variation.
        in_variation: bool,
        /// What is wrong.
        error: MoveError,
        /// The position the move was tried in.
        fen: String,
    },
    /// The `Result` tag and the game's terminator disagree.
    ResultMismatch {
        /// The tag's value.
        tag: String,
        /// The terminator's result.
        terminator: GameResult,
    },
}

/// A replay error with its place in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// Where.
    pub pos: TextPos,
    /// What (boxed: errors are rare and results stay small).
    pub kind: Box<ReplayErrorKind>,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.pos)?;
        match &*self.kind {
            ReplayErrorKind::BadGameType(e) => e.fmt(f),
            ReplayErrorKind::UnsupportedGameType(n) => {
                write!(f, "GameType {n} is not a game dama plays")
            }
            ReplayErrorKind::BadFen(_, text) => write!(f, "bad FEN: {text}"),
            ReplayErrorKind::Move {
                at,
                in_variation,
                error,
                fen,
            } => {
                let place = if *in_variation {
                    " (in a variation)"
                } else {
                    ""
                };
                write!(f, "{at}{place} {error} in position {fen}")
            }
            ReplayErrorKind::ResultMismatch { tag, terminator } => write!(
                f,
                "the Result tag says \"{tag}\" but the game ends with {}",
                terminator.text(Variant::Russian)
            ),
        }
    }
}

impl std::error::Error for ReplayError {}

/// The variant of a game, from its `GameType` tag (or a `Variant` tag as playstrategy and
/// lidraughts write), else `default`; and the start FEN its type implies, if any.
///
/// # Errors
/// If the `GameType` cannot be read or names a game dama does not play.
pub fn game_variant(
    game: &Game,
    default: Variant,
) -> Result<(Variant, Layout, Option<&'static str>), ReplayErrorKind> {
    if let Some(text) = game.tag("GameType") {
        let gt = GameType::parse(text).map_err(ReplayErrorKind::BadGameType)?;
        let (variant, fen) = gt
            .variant()
            .ok_or(ReplayErrorKind::UnsupportedGameType(gt.number))?;
        return Ok((variant, gt.layout_for(variant), fen));
    }
    if let Some(v) = game.tag("Variant").and_then(variant_from_name) {
        return Ok((v, Layout::standard(v), None));
    }
    Ok((default, Layout::standard(default), None))
}

/// A variant from a `Variant` tag value such as "Russian", "Brazilian" or "American/English".
fn variant_from_name(name: &str) -> Option<Variant> {
    let name = name.trim().to_ascii_lowercase();
    name.split(['/', ','])
        .map(|part| part.trim().replace(' ', "-"))
        .find_map(|key| match key.as_str() {
            "standard" => Some(Variant::International),
            "frysk!" | "frysk" => None,
            k => Variant::from_key(k),
        })
}

struct Ctx<'a> {
    map: &'a SquareMap,
    opts: ReplayOptions,
    moves: Vec<AnyMove>,
    plies: usize,
    variation_plies: usize,
}

/// Replays a game.
///
/// # Errors
/// The first [`ReplayError`]: a bad `GameType` or `FEN`, an illegal or ambiguous move (in the
/// main line, or in a variation when [`ReplayOptions::variations`] is set), or a `Result` tag
/// that contradicts the terminator.
pub fn replay(game: &Game, opts: &ReplayOptions) -> Result<Replayed, ReplayError> {
    let at_game = |kind| ReplayError {
        pos: game.pos,
        kind: Box::new(kind),
    };
    let (variant, layout, implied_fen) =
        game_variant(game, opts.default_variant).map_err(at_game)?;
    let first = replay_with(game, opts, variant, layout, implied_fen);
    match first {
        // A declared numbering that the moves do not follow (kurnik writes "N1" for the
        // usual International numbering): try the standard one before giving up.
        Err(e) if layout != Layout::standard(variant) => {
            replay_with(game, opts, variant, Layout::standard(variant), implied_fen).map_err(|_| e)
        }
        other => other,
    }
}

/// The start position of a variant, built once per process (replaying a file starts
/// thousands of games from it).
fn start_of(variant: Variant) -> AnyPosition {
    static STARTS: std::sync::OnceLock<Vec<AnyPosition>> = std::sync::OnceLock::new();
    let starts = STARTS.get_or_init(|| {
        Variant::ALL
            .iter()
            .map(|&v| AnyPosition::start(v))
            .collect()
    });
    starts
        .iter()
        .find(|p| p.variant() == variant)
        .copied()
        .unwrap_or_else(|| AnyPosition::start(variant))
}

fn start_position(
    game: &Game,
    variant: Variant,
    implied_fen: Option<&str>,
) -> Result<(AnyPosition, bool), ReplayError> {
    let fen_text = game
        .tag("FEN")
        .filter(|t| !t.trim().is_empty())
        .or(implied_fen);
    match fen_text {
        None => Ok((start_of(variant), false)),
        Some(text) => {
            let bad = |e: FenError| ReplayError {
                pos: game.pos,
                kind: Box::new(ReplayErrorKind::BadFen(e.clone(), e.to_string())),
            };
            let fen = crate::fen::parse(variant, text).map_err(bad)?;
            let pos = AnyPosition::new(variant, &fen.setup)
                .map_err(|error| bad(FenError::Illegal { error, variant }))?;
            Ok((pos, fen.side_unknown))
        }
    }
}

fn replay_with(
    game: &Game,
    opts: &ReplayOptions,
    variant: Variant,
    layout: Layout,
    implied_fen: Option<&str>,
) -> Result<Replayed, ReplayError> {
    let (mut start, side_unknown) = start_position(game, variant, implied_fen)?;
    let own_map;
    let map = if layout == Layout::standard(variant) {
        SquareMap::standard_ref(variant)
    } else {
        own_map = SquareMap::new(variant, &layout);
        &own_map
    };
    let mut ctx = Ctx {
        map,
        opts: *opts,
        moves: Vec::new(),
        plies: 0,
        variation_plies: 0,
    };
    let result = with_rules!(variant, R => {
        let mut pos = start.to_position::<R>();
        if side_unknown {
            // "?" as the side to move: the first move tells.
            if let Some(Node::Move(m)) = game.body.iter().find(|n| matches!(n, Node::Move(_))) {
                let mut other = start.setup().to_owned();
                other.side_to_move = !other.side_to_move;
                if let Ok(alt) = Position::<R>::from_setup(&other) {
                    if !names_legal_move(&pos, &m.text, map) && names_legal_move(&alt, &m.text, map) {
                        pos = alt;
                        start = AnyPosition::from_position(variant, &alt);
                    }
                }
            }
        }
        replay_line::<R>(variant, pos, &game.body, &mut ctx, false)
            .map(|end| AnyPosition::from_position(variant, &end))
    })?;
    check_result(game)?;
    Ok(Replayed {
        variant,
        layout,
        start,
        moves: ctx.moves,
        plies: ctx.plies,
        variation_plies: ctx.variation_plies,
        end: result,
    })
}

fn names_legal_move<R: Rules>(pos: &Position<R>, text: &MoveText, map: &SquareMap) -> bool {
    let legal = pos.legal_move_vec();
    resolve_in(pos, &legal, text, map).is_ok()
}

fn check_result(game: &Game) -> Result<(), ReplayError> {
    let (Some((terminator, pos)), Some(tag)) = (game.terminator, game.tag("Result")) else {
        return Ok(());
    };
    match GameResult::parse(tag) {
        Some(r)
            if r != terminator && r != GameResult::Unknown && terminator != GameResult::Unknown =>
        {
            Err(ReplayError {
                pos,
                kind: Box::new(ReplayErrorKind::ResultMismatch {
                    tag: tag.to_owned(),
                    terminator,
                }),
            })
        }
        _ => Ok(()),
    }
}

fn replay_line<R: Rules>(
    variant: Variant,
    mut pos: Position<R>,
    nodes: &[Node],
    ctx: &mut Ctx,
    in_variation: bool,
) -> Result<Position<R>, ReplayError> {
    let mut legal: Vec<Move<Bb<R>>> = Vec::with_capacity(64);
    // The position before the last move: where a variation starts.
    let mut before = pos;
    let mut ply = 0usize;
    let mut last_number: Option<(u32, usize)> = None;
    let mut k = 0;
    while k < nodes.len() {
        let node = &nodes[k];
        k += 1;
        match node {
            Node::Move(m) => {
                ply += 1;
                if let Some(n) = m.number {
                    last_number = Some((n.number, ply - usize::from(n.continuation)));
                }
                legal.clear();
                pos.legal_moves(&mut legal);
                let resolved = match resolve_in(&pos, &legal, &m.text, ctx.map) {
                    Err(Unresolved::Ambiguous(list)) => {
                        match disambiguate(variant, &pos, &legal, &list, &nodes[k..], ctx.map) {
                            Some(i) => Ok(i),
                            None => Err(Unresolved::Ambiguous(list)),
                        }
                    }
                    Err(Unresolved::Illegal) => {
                        match split_capture(&pos, &legal, &nodes[k - 1..], ctx.map) {
                            Some((i, used)) => {
                                k += used;
                                Ok(i)
                            }
                            None => Err(Unresolved::Illegal),
                        }
                    }
                    other => other,
                };
                let index = resolved.map_err(|e| {
                    let at = match (m.number, last_number) {
                        (Some(n), _) if n.continuation => format!("{}...", n.number),
                        (Some(n), _) => format!("{}.", n.number),
                        (None, Some((n, first))) if ply == first + 1 => format!("{n}..."),
                        _ => format!("ply {ply}"),
                    };
                    move_error(variant, &pos, &legal, m, e, at, in_variation)
                })?;
                before = pos;
                pos = pos.play_unchecked(&legal[index]);
                if in_variation {
                    ctx.variation_plies += 1;
                } else {
                    ctx.plies += 1;
                    if ctx.opts.keep_moves {
                        ctx.moves.push(legal[index].to_any());
                    }
                }
            }
            Node::Variation(inner) if ctx.opts.variations => {
                // A variation is an alternative to the move before it; some exporters (the
                // lidraughts broadcasts) put the alternative to the *next* move there.
                let counted = ctx.variation_plies;
                if let Err(e) = replay_line::<R>(variant, before, inner, ctx, true) {
                    ctx.variation_plies = counted;
                    if before == pos || replay_line::<R>(variant, pos, inner, ctx, true).is_err() {
                        return Err(e);
                    }
                }
            }
            Node::Setup(text, at) => {
                let fen_text = text
                    .trim()
                    .strip_prefix("FEN")
                    .map(|t| t.trim().trim_matches('"'))
                    .unwrap_or(text.trim());
                let bad = |e: FenError| ReplayError {
                    pos: *at,
                    kind: Box::new(ReplayErrorKind::BadFen(e.clone(), e.to_string())),
                };
                let fen = crate::fen::parse(variant, fen_text).map_err(bad)?;
                pos = Position::<R>::from_setup(&fen.setup)
                    .map_err(|error| bad(FenError::Illegal { error, variant }))?;
                before = pos;
            }
            _ => {}
        }
    }
    Ok(pos)
}

/// An ambiguous move (several legal moves with the written start and end, as older files write
/// captures without their path): the one candidate after which the rest of the line replays,
/// if exactly one does.
fn disambiguate<R: Rules>(
    variant: Variant,
    pos: &Position<R>,
    legal: &[Move<Bb<R>>],
    candidates: &[usize],
    rest: &[Node],
    map: &SquareMap,
) -> Option<usize> {
    if !rest.iter().any(|n| matches!(n, Node::Move(_))) {
        return None;
    }
    let mut fits = candidates.iter().copied().filter(|&i| {
        let mut scratch = Ctx {
            map,
            opts: ReplayOptions {
                default_variant: variant,
                variations: false,
                keep_moves: false,
            },
            moves: Vec::new(),
            plies: 0,
            variation_plies: 0,
        };
        replay_line::<R>(
            variant,
            pos.play_unchecked(&legal[i]),
            rest,
            &mut scratch,
            false,
        )
        .is_ok()
    });
    let first = fits.next()?;
    fits.next().is_none().then_some(first)
}

/// A capture written one jump per move, as playstrategy exports multiple captures
/// (`e7xc5 c5xa3` for `e7xc5xa3`): the legal move whose path the texts of `nodes[0]` and the
/// moves after it spell out, and how many move nodes after the first it used.
fn split_capture<R: Rules>(
    pos: &Position<R>,
    legal: &[Move<Bb<R>>],
    nodes: &[Node],
    map: &SquareMap,
) -> Option<(usize, usize)> {
    let squares = |t: &MoveText| -> Option<Vec<dama_core::Square>> {
        t.squares().map(|r| map.square(r)).collect()
    };
    let Node::Move(first) = nodes.first()? else {
        return None;
    };
    let mut path = squares(&first.text)?;
    let candidates: Vec<(usize, Vec<Vec<dama_core::Square>>)> = legal
        .iter()
        .enumerate()
        .filter(|(_, m)| m.is_capture() && m.from() == path[0])
        .map(|(i, m)| (i, pos.capture_paths(m)))
        .collect();
    let mut used = 0;
    let mut last_node = 0;
    loop {
        let mut prefix_of_some = false;
        let mut exact = None;
        for (i, paths) in &candidates {
            for p in paths {
                if p.len() > path.len() && p[..path.len()] == path[..] {
                    prefix_of_some = true;
                } else if *p == path {
                    exact = Some(*i);
                }
            }
        }
        if let Some(i) = exact {
            if used > 0 {
                return Some((i, last_node));
            }
        }
        if !prefix_of_some {
            return None;
        }
        // The next move node must go on from where the path stands.
        let (offset, next) =
            nodes[last_node + 1..]
                .iter()
                .enumerate()
                .find_map(|(j, n)| match n {
                    Node::Move(m) => Some((j, m)),
                    _ => None,
                })?;
        let more = squares(&next.text)?;
        if more.first() != path.last() {
            return None;
        }
        path.extend_from_slice(&more[1..]);
        last_node += offset + 1;
        used += 1;
    }
}

fn move_error<R: Rules>(
    variant: Variant,
    pos: &Position<R>,
    legal: &[Move<Bb<R>>],
    m: &MoveNode,
    e: Unresolved,
    at: String,
    in_variation: bool,
) -> ReplayError {
    let any = AnyPosition::from_position(variant, pos);
    let error = unresolved_error(&any, &m.text, e, |i| legal[i].to_any());
    ReplayError {
        pos: m.pos,
        kind: Box::new(ReplayErrorKind::Move {
            at,
            in_variation,
            error,
            fen: any.fen(),
        }),
    }
}

/// Rewrites every move of a game (variations included) in another notation, and its `FEN` and
/// `GameType` tags to match. Returns the number of moves rewritten.
///
/// # Errors
/// The [`ReplayError`] if the game does not replay; the game is then left as it was.
pub fn convert(
    game: &mut Game,
    notation: Notation,
    opts: &ReplayOptions,
) -> Result<usize, ReplayError> {
    let replayed = replay(game, opts)?;
    let variant = replayed.variant;
    let target = Layout::with_notation(variant, notation);
    let map = SquareMap::new(variant, &replayed.layout);
    let map = &map;
    let mut body = game.body.clone();
    let mut count = 0;
    rewrite_line(variant, replayed.start, &mut body, map, &target, &mut count);
    game.body = body;
    let standard = Layout::standard(variant);
    let game_type = if target == standard {
        GameType::of(variant)
    } else {
        crate::game_type::full_game_type(variant, notation)
    };
    game.set_tag("GameType", game_type.to_string());
    if game.tag("FEN").is_some() || replayed.start != start_of(variant) {
        game.set_tag(
            "FEN",
            crate::fen::write_in(variant, replayed.start.setup(), &target),
        );
    }
    Ok(count)
}

fn rewrite_line(
    variant: Variant,
    mut pos: AnyPosition,
    nodes: &mut [Node],
    map: &SquareMap,
    target: &Layout,
    count: &mut usize,
) {
    let mut before = pos;
    for node in nodes.iter_mut() {
        match node {
            Node::Move(m) => {
                let Ok(mv) = crate::move_text::resolve(&pos, &m.text, map) else {
                    return;
                };
                let text = crate::move_text::write_move_in(&pos, &mv, target);
                if let Ok(t) = MoveText::parse(&text) {
                    m.text = t;
                    *count += 1;
                }
                before = pos;
                match pos.play(&mv) {
                    Ok(next) => pos = next,
                    Err(_) => return,
                }
            }
            Node::Variation(inner) => rewrite_line(variant, before, inner, map, target, count),
            Node::Setup(text, _) => {
                let fen_text = text
                    .trim()
                    .strip_prefix("FEN")
                    .map(|t| t.trim().trim_matches('"'))
                    .unwrap_or(text.trim());
                if let Ok(p) = AnyPosition::from_fen(variant, fen_text) {
                    pos = p;
                    before = p;
                    *text = format!(
                        "FEN \"{}\"",
                        crate::fen::write_in(variant, p.setup(), target)
                    );
                }
            }
            _ => {}
        }
    }
}
