//! Fitting a [`Network`] to self-play data.
//!
//! Every quiet position of the data predicts its game's result for the side to move through
//! `sigmoid(y)`, where `y` is the network's output in units of the logistic curve (the
//! search's centi-men are `y · 100 / k`; [`score_k`] finds the `k` with which the self-play
//! search's own scores best predict the results, so that the network speaks the search's
//! centi-men). The weights minimise the cross-entropy between
//! prediction and result (optionally blended with the self-play search's score) by Adam on
//! mini-batches of shuffled positions, the gradient of each batch computed on several
//! threads. Games whose number is a multiple of `hold_out` are held out to measure the error
//! on positions the fit never saw; the weights of the epoch with the lowest held-out error
//! are kept.
//!
//! The fit works in floating point; [`FloatNet::quantize`] turns the result into the integer
//! [`Network`] the search uses. The weights are kept within bounds during the fit so that the
//! integer sums cannot overflow: each first-layer weight and bias within ±[`INPUT_CLIP`] (a
//! position has at most 2 · 24 pieces on the boards played, so an accumulator stays within
//! ±32,767 / [`QA`]), each output weight within ±[`OUTPUT_CLIP`].

use crate::eval::{self, Tables};
use crate::network::{self, Activation, Network, Squares, KINDS, QA, QO};
use crate::selfplay::Record;
use dama_core::bitboard::Bitboard;
use dama_core::geometry::Geometry;
use dama_core::position::Bb;
use dama_core::rules::Rules;
use dama_core::{with_rules, Color, Position, Variant};

/// Bound of a first-layer weight or bias during the fit.
pub const INPUT_CLIP: f32 = 2.5;
/// Bound of an output weight during the fit, in units of the logistic curve per unit of
/// activation.
pub const OUTPUT_CLIP: f32 = 4.0;

/// The training positions, as the network sees them.
#[derive(Debug, Default)]
pub struct NetDataset {
    /// Playable squares of the board.
    pub squares: usize,
    /// Pieces a side has at the start.
    pub start_pieces: usize,
    /// The inputs of every position: the side to move's view, then the other's (the same
    /// number each).
    inputs: Vec<u16>,
    /// Where each position's inputs start (one more entry than positions).
    offsets: Vec<u32>,
    /// Pieces on the board.
    pieces: Vec<u8>,
    /// Draw scale (out of 1).
    scale: Vec<f32>,
    /// The game's result for the side to move (0, ½, 1); NaN for a detour, which has none.
    result: Vec<f32>,
    /// The self-play search's score for the side to move, centi-men.
    score: Vec<f32>,
    /// Whether the position is held out for validation.
    held_out: Vec<bool>,
}

impl NetDataset {
    /// Number of positions.
    pub fn len(&self) -> usize {
        self.result.len()
    }

    /// Whether there are no positions.
    pub fn is_empty(&self) -> bool {
        self.result.is_empty()
    }

    /// Positions held out for validation.
    pub fn held_out(&self) -> usize {
        self.held_out.iter().filter(|&&h| h).count()
    }

    /// The inputs of position `i` from the side to move's view and the other's.
    #[inline]
    fn views(&self, i: usize) -> (&[u16], &[u16]) {
        let s = &self.inputs[self.offsets[i] as usize..self.offsets[i + 1] as usize];
        s.split_at(s.len() / 2)
    }
}

/// Builds the dataset of `variant` from the positions of self-play `games` and from
/// `detours` (positions a random move away from the games, with a search score but no result
/// of their own: their target is the score alone); the games whose number is a multiple of
/// `hold_out_every` are held out (0: none). Records that are not legal positions are skipped;
/// their number is returned with the dataset.
pub fn dataset(
    variant: Variant,
    games: &[Record],
    detours: &[Record],
    hold_out_every: u32,
    settled: bool,
) -> (NetDataset, usize) {
    with_rules!(variant, R => dataset_of::<R>(variant, games, detours, hold_out_every, settled))
}

fn dataset_of<R: Rules>(
    variant: Variant,
    games: &[Record],
    detours: &[Record],
    hold_out_every: u32,
    settled: bool,
) -> (NetDataset, usize) {
    let t = Tables::<Bb<R>>::new::<R>();
    let squares = Squares::new::<R>();
    let mut d = NetDataset {
        squares: R::G::SQUARES as usize,
        start_pieces: Position::<R>::START_PIECES,
        offsets: vec![0],
        ..NetDataset::default()
    };
    let mut skipped = 0;
    let mut views: [Vec<u16>; 2] = [Vec::new(), Vec::new()];
    let mut scratch = Vec::new();
    let records = games
        .iter()
        .map(|r| (r, true))
        .chain(detours.iter().map(|r| (r, false)));
    for (r, has_result) in records {
        let Ok(p) = r.position(variant) else {
            skipped += 1;
            continue;
        };
        let pos = p.to_position::<R>();
        if settled {
            // Only positions where the side not to move could not capture either.
            let other = Position::<R>::from_bitboards(
                pos.pieces(Color::White),
                pos.pieces(Color::Black),
                pos.kings(),
                !pos.side_to_move(),
            );
            scratch.clear();
            if other.captures(&mut scratch) {
                continue;
            }
        }
        views[0].clear();
        views[1].clear();
        network::inputs(&pos, &squares, |view, input| views[view].push(input as u16));
        let side = pos.side_to_move().index();
        d.inputs.extend_from_slice(&views[side]);
        d.inputs.extend_from_slice(&views[1 - side]);
        d.offsets.push(d.inputs.len() as u32);
        d.pieces.push(pos.occupied().count() as u8);
        d.scale.push(eval::draw_scale_of(&pos, &t) as f32 / 16.0);
        let sign = if pos.side_to_move() == Color::White {
            1.0
        } else {
            -1.0
        };
        d.result.push(if has_result {
            (sign * r.result as f32 + 1.0) / 2.0
        } else {
            f32::NAN
        });
        d.score.push(sign * r.score as f32);
        d.held_out
            .push(hold_out_every > 0 && r.game % hold_out_every == 0);
    }
    (d, skipped)
}

/// A network in floating point, as the fit sees it.
#[derive(Clone, Debug)]
pub struct FloatNet {
    /// Playable squares.
    pub squares: usize,
    /// Size of each accumulator.
    pub hidden: usize,
    /// Output buckets.
    pub buckets: usize,
    /// What the output sees of the accumulators.
    pub activation: Activation,
    /// `KINDS · squares` rows of `hidden`.
    pub input_weights: Vec<f32>,
    /// `hidden`.
    pub input_bias: Vec<f32>,
    /// Per bucket: `hidden` for the side to move, `hidden` for the other side.
    pub output_weights: Vec<f32>,
    /// Per bucket.
    pub output_bias: Vec<f32>,
    /// Per input, one per bucket: added for the side to move's view, taken away for the
    /// other's.
    pub direct_weights: Vec<f32>,
}

/// A small deterministic generator for the starting weights and the shuffles.
#[derive(Clone, Debug)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in `[-1, 1)`.
    fn symmetric(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

impl FloatNet {
    /// A network with small random weights (`seed` picks them).
    pub fn random(
        squares: usize,
        hidden: usize,
        buckets: usize,
        activation: Activation,
        seed: u64,
    ) -> FloatNet {
        let mut rng = Rng(seed | 1);
        let inputs = KINDS * squares;
        let scale = 1.0 / (squares as f32).sqrt();
        FloatNet {
            squares,
            hidden,
            buckets,
            activation,
            input_weights: (0..inputs * hidden)
                .map(|_| rng.symmetric() * scale)
                .collect(),
            input_bias: vec![0.5; hidden],
            output_weights: (0..buckets * 2 * hidden)
                .map(|_| rng.symmetric() / (2.0 * hidden as f32).sqrt())
                .collect(),
            output_bias: vec![0.0; buckets],
            // Material to start from: a man half a unit of the logistic curve from each view
            // (a unit in all, about a man's worth), a king two and a half men.
            direct_weights: (0..inputs)
                .flat_map(|input| {
                    let value = [0.5, 1.25, -0.5, -1.25][input / squares];
                    std::iter::repeat_n(value, buckets)
                })
                .collect(),
        }
    }

    /// The parameters as one slice each, in a fixed order (for the optimiser).
    fn parts_mut(&mut self) -> [&mut [f32]; 5] {
        [
            &mut self.input_weights,
            &mut self.input_bias,
            &mut self.output_weights,
            &mut self.output_bias,
            &mut self.direct_weights,
        ]
    }

    /// The parameters in the order of [`FloatNet::parts_mut`].
    fn parts(&self) -> [&[f32]; 5] {
        [
            &self.input_weights,
            &self.input_bias,
            &self.output_weights,
            &self.output_bias,
            &self.direct_weights,
        ]
    }

    /// The integer network for the search: `cp_per_unit` centi-men per unit of the logistic
    /// curve (`100 / k`).
    pub fn quantize(&self, variant: Variant, cp_per_unit: f32) -> Network {
        let q = |x: f32, unit: f32| (x * unit).round().clamp(-32767.0, 32767.0) as i16;
        let mut net = Network::zero(variant, self.hidden, self.buckets, self.activation);
        net.squares = self.squares;
        let unit = self.activation.unit() as f32;
        net.input_weights = self
            .input_weights
            .iter()
            .map(|&w| q(w, QA as f32))
            .collect();
        net.input_bias = self.input_bias.iter().map(|&w| q(w, QA as f32)).collect();
        net.output_weights = self
            .output_weights
            .iter()
            .map(|&w| q(w, cp_per_unit * QO as f32))
            .collect();
        net.output_bias = self
            .output_bias
            .iter()
            .map(|&b| (b * cp_per_unit * unit * QO as f32).round() as i32)
            .collect();
        net.direct_weights = self
            .direct_weights
            .iter()
            .map(|&w| (w * cp_per_unit * unit * QO as f32).round() as i32)
            .collect();
        net
    }

    /// The network's output for position `i` of `d` (units of the logistic curve, before the
    /// draw scale), with the accumulators left in `acc` (side to move's, then the other's).
    fn forward(&self, d: &NetDataset, i: usize, acc: &mut [f32]) -> f32 {
        let h = self.hidden;
        let (own, other) = d.views(i);
        let (a, b) = acc.split_at_mut(h);
        for (view, acc) in [(own, a), (other, b)] {
            acc.copy_from_slice(&self.input_bias);
            for &input in view {
                let row = &self.input_weights[input as usize * h..(input as usize + 1) * h];
                for (x, w) in acc.iter_mut().zip(row) {
                    *x += w;
                }
            }
        }
        let b = self.buckets;
        let bucket = network::bucket(d.pieces[i] as usize, d.start_pieces, b);
        let w = &self.output_weights[bucket * 2 * h..(bucket + 1) * 2 * h];
        let mut y = self.output_bias[bucket];
        for &input in own {
            y += self.direct_weights[input as usize * b + bucket];
        }
        for &input in other {
            y -= self.direct_weights[input as usize * b + bucket];
        }
        match self.activation {
            Activation::Clipped => {
                for (x, w) in acc.iter().zip(w) {
                    y += x.clamp(0.0, 1.0) * w;
                }
            }
            Activation::Squared => {
                for (x, w) in acc.iter().zip(w) {
                    let a = x.clamp(0.0, 1.0);
                    y += a * a * w;
                }
            }
        }
        y
    }
}

/// How far the integer network's evaluation of `records` (centi-men, for the side to move)
/// lies from the floating-point network's: the mean and the largest difference.
pub fn quantization_error(
    variant: Variant,
    records: &[Record],
    net: &FloatNet,
    quantized: &Network,
    cp_per_unit: f32,
) -> (f64, f64) {
    with_rules!(variant, R => quantization_error_of::<R>(variant, records, net, quantized, cp_per_unit))
}

fn quantization_error_of<R: Rules>(
    variant: Variant,
    records: &[Record],
    net: &FloatNet,
    quantized: &Network,
    cp_per_unit: f32,
) -> (f64, f64) {
    let (d, _) = dataset_of::<R>(variant, records, &[], 0, false);
    let t = Tables::<Bb<R>>::new::<R>();
    let mut acc = vec![0.0; 2 * net.hidden];
    let (mut sum, mut max, mut n) = (0.0f64, 0.0f64, 0);
    for r in records {
        let Ok(p) = r.position(variant) else {
            continue;
        };
        let pos = p.to_position::<R>();
        let e = network::evaluate(&pos, &t, quantized) as f64;
        let f = (net.forward(&d, n, &mut acc) * d.scale[n] * cp_per_unit) as f64;
        let diff = (e - f).abs();
        sum += diff;
        max = max.max(diff);
        n += 1;
    }
    (sum / n.max(1) as f64, max)
}

/// Settings of a fit.
#[derive(Clone, Copy, Debug)]
pub struct NetConfig {
    /// Scale of the sigmoid through which the self-play score (centi-men) becomes a target.
    pub k: f64,
    /// Weight of the game result in the target; the rest is the search score.
    pub result_weight: f32,
    /// Passes over the training positions.
    pub epochs: u32,
    /// Positions per step.
    pub batch: usize,
    /// Adam's step size at the start (it falls to a hundredth of it by the last epoch, along
    /// a cosine).
    pub rate: f32,
    /// Decoupled weight decay: each step shrinks every weight (not the biases) by this share
    /// of the step size.
    pub weight_decay: f32,
    /// Threads computing the gradient.
    pub threads: usize,
    /// Seed of the shuffles.
    pub seed: u64,
}

/// What a fit reports after each epoch.
#[derive(Clone, Copy, Debug)]
pub struct NetProgress {
    /// Epochs done.
    pub epoch: u32,
    /// Mean cross-entropy on the training positions during the epoch.
    pub train: f64,
    /// Mean cross-entropy on the held-out positions after it (NaN without any).
    pub validation: f64,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

fn cross_entropy(p: f32, t: f32) -> f64 {
    let p = (p as f64).clamp(1e-9, 1.0 - 1e-9);
    let t = t as f64;
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// Gradient buffers of one thread.
struct Grad {
    net: FloatNet,
    loss: f64,
    count: usize,
}

impl Grad {
    fn new(n: &FloatNet) -> Grad {
        let zero = |v: &Vec<f32>| vec![0.0; v.len()];
        Grad {
            net: FloatNet {
                input_weights: zero(&n.input_weights),
                input_bias: zero(&n.input_bias),
                output_weights: zero(&n.output_weights),
                output_bias: zero(&n.output_bias),
                direct_weights: zero(&n.direct_weights),
                ..*n
            },
            loss: 0.0,
            count: 0,
        }
    }

    fn clear(&mut self) {
        for part in self.net.parts_mut() {
            part.fill(0.0);
        }
        self.loss = 0.0;
        self.count = 0;
    }
}

/// The target of position `i`: its result, blended with its score (a detour's score alone).
#[inline]
fn target(d: &NetDataset, c: &NetConfig, i: usize) -> f32 {
    let score = || sigmoid((c.k * d.score[i] as f64 / 100.0) as f32);
    match d.result[i] {
        r if r.is_nan() => score(),
        r if c.result_weight >= 1.0 => r,
        r => c.result_weight * r + (1.0 - c.result_weight) * score(),
    }
}

/// The scale `k` of the logistic curve with which the self-play search's own scores of the
/// positions of `games` best predict their results (least cross-entropy between
/// `sigmoid(k · score / 100)` and the result), on every n-th position (n the positions over
/// 200,000, rounded down: all of them below 400,000, else 200,000 to 400,000).
/// A network fitted with it reads a search score of `s` as the chance the search's scores
/// carry in this variant, and its output is in the search's centi-men. A score of 0 predicts
/// an even chance whatever `k`, so positions without a score (games imported from PDN files)
/// do not move it; `None` when no position has a score.
pub fn score_k(games: &[Record]) -> Option<f64> {
    let sample: Vec<(f64, f64)> = games
        .iter()
        .step_by((games.len() / 200_000).max(1))
        .map(|r| (r.score as f64 / 100.0, (r.result as f64 + 1.0) / 2.0))
        .collect();
    if sample.iter().all(|&(s, _)| s == 0.0) {
        return None;
    }
    let loss = |k: f64| {
        sample
            .iter()
            .map(|&(s, r)| {
                // The cross-entropy of sigmoid(x) against r, written to stay finite for
                // the largest scores: ln(1 + e^-|x|) + max(x, 0) - r·x.
                let x = k * s;
                (-x.abs()).exp().ln_1p() + x.max(0.0) - r * x
            })
            .sum::<f64>()
    };
    Some(crate::tune::best_k(loss))
}

/// Replaces the score of every game position by a blend of it with the scores of the
/// positions played after it in its game: `g(t) = (1 − λ) · s(t) + λ · g(t + 1)`, the last
/// position of a game keeping its own. The scores are White's, so they blend as they are; a
/// later search sees what lay beyond the horizon of an earlier one, and `λ` sets how far
/// ahead the blend reaches (about `λ / (1 − λ)` plies on average). A game is a run of
/// records of one game number whose plies rise; `λ = 0` changes nothing.
pub fn lookahead_scores(games: &mut [Record], lambda: f64) {
    // A NaN blends nothing, as 0 does.
    let lambda = if lambda.is_nan() {
        0.0
    } else {
        lambda.clamp(0.0, 1.0)
    };
    if lambda == 0.0 {
        return;
    }
    let mut next: Option<(u32, u16, f64)> = None;
    for r in games.iter_mut().rev() {
        let own = r.score as f64;
        let blended = match next {
            Some((game, ply, g)) if game == r.game && ply > r.ply => {
                (1.0 - lambda) * own + lambda * g
            }
            _ => own,
        };
        next = Some((r.game, r.ply, blended));
        r.score = blended.round().clamp(i16::MIN as f64, i16::MAX as f64) as i16;
    }
}

/// Adds the gradient of the loss on the positions `batch` of `d` to `g`.
fn accumulate(d: &NetDataset, c: &NetConfig, net: &FloatNet, batch: &[u32], g: &mut Grad) {
    let h = net.hidden;
    let mut acc = vec![0.0f32; 2 * h];
    let mut dacc = vec![0.0f32; 2 * h];
    for &i in batch {
        let i = i as usize;
        let scale = d.scale[i];
        let y = net.forward(d, i, &mut acc) * scale;
        let p = sigmoid(y);
        let t = target(d, c, i);
        g.loss += cross_entropy(p, t);
        g.count += 1;
        let dy = (p - t) * scale;
        let bucket = network::bucket(d.pieces[i] as usize, d.start_pieces, net.buckets);
        let range = bucket * 2 * h..(bucket + 1) * 2 * h;
        let w = &net.output_weights[range.clone()];
        let gw = &mut g.net.output_weights[range];
        g.net.output_bias[bucket] += dy;
        let squared = net.activation == Activation::Squared;
        for j in 0..2 * h {
            let x = acc[j];
            let a = x.clamp(0.0, 1.0);
            let active = x > 0.0 && x < 1.0;
            // The activation and its slope.
            let (f, slope) = if squared { (a * a, 2.0 * a) } else { (a, 1.0) };
            gw[j] += dy * f;
            dacc[j] = if active { dy * w[j] * slope } else { 0.0 };
        }
        let (own, other) = d.views(i);
        let b = net.buckets;
        for &input in own {
            g.net.direct_weights[input as usize * b + bucket] += dy;
        }
        for &input in other {
            g.net.direct_weights[input as usize * b + bucket] -= dy;
        }
        for (view, da) in [(own, &dacc[..h]), (other, &dacc[h..])] {
            for (b, x) in g.net.input_bias.iter_mut().zip(da) {
                *b += x;
            }
            for &input in view {
                let row = &mut g.net.input_weights[input as usize * h..(input as usize + 1) * h];
                for (r, x) in row.iter_mut().zip(da) {
                    *r += x;
                }
            }
        }
    }
}

/// Mean cross-entropy of `net` on the held-out positions of `d` (NaN without any), on
/// `threads` threads.
pub fn held_out_loss(d: &NetDataset, c: &NetConfig, net: &FloatNet) -> f64 {
    let held: Vec<u32> = (0..d.len() as u32)
        .filter(|&i| d.held_out[i as usize])
        .collect();
    if held.is_empty() {
        return f64::NAN;
    }
    let threads = c.threads.clamp(1, 64);
    let chunk = held.len().div_ceil(threads);
    let total: f64 = std::thread::scope(|s| {
        let handles: Vec<_> = held
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    let mut acc = vec![0.0f32; 2 * net.hidden];
                    part.iter()
                        .map(|&i| {
                            let i = i as usize;
                            let y = net.forward(d, i, &mut acc) * d.scale[i];
                            cross_entropy(sigmoid(y), target(d, c, i))
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("loss thread"))
            .sum()
    });
    total / held.len() as f64
}

/// Fits `net` to `d`. `progress` is called after every epoch. Returns the weights of the
/// epoch with the lowest held-out loss (the last without held-out positions).
pub fn fit(
    d: &NetDataset,
    mut net: FloatNet,
    c: &NetConfig,
    mut progress: impl FnMut(&NetProgress),
) -> FloatNet {
    let threads = c.threads.clamp(1, 64);
    let mut train: Vec<u32> = (0..d.len() as u32)
        .filter(|&i| !d.held_out[i as usize])
        .collect();
    let mut rng = Rng(c.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut grads: Vec<Grad> = (0..threads).map(|_| Grad::new(&net)).collect();
    let mut m = Grad::new(&net);
    let mut v = Grad::new(&net);
    let (b1, b2) = (0.9f32, 0.999f32);
    let mut step = 0i32;
    let batch = c.batch.max(1);
    let steps_total = (c.epochs as usize * train.len().div_ceil(batch)).max(1);
    let mut best = (f64::MAX, net.clone());
    for epoch in 1..=c.epochs {
        for i in (1..train.len()).rev() {
            let j = rng.below(i + 1);
            train.swap(i, j);
        }
        let (mut loss, mut count) = (0.0, 0);
        for positions in train.chunks(batch) {
            let part = positions.len().div_ceil(threads);
            std::thread::scope(|s| {
                for (g, chunk) in grads.iter_mut().zip(positions.chunks(part)) {
                    let net = &net;
                    s.spawn(move || {
                        g.clear();
                        accumulate(d, c, net, chunk, g);
                    });
                }
            });
            // The threads that got positions (a short last batch may leave some out).
            let used = positions.chunks(part).count();
            let n = positions.len() as f32;
            step += 1;
            let progress_share = step as f32 / steps_total as f32;
            let rate = c.rate
                * (0.01 + 0.99 * 0.5 * (1.0 + (std::f32::consts::PI * progress_share).cos()));
            let bias1 = 1.0 - b1.powi(step);
            let bias2 = 1.0 - b2.powi(step);
            for g in &grads[..used] {
                loss += g.loss;
                count += g.count;
            }
            let (head, tail) = grads.split_at_mut(1);
            let first = &mut head[0];
            for other in &tail[..used - 1] {
                let mut dst = first.net.parts_mut();
                for (dst, src) in dst.iter_mut().zip(other.net.parts()) {
                    for (a, b) in dst.iter_mut().zip(src) {
                        *a += b;
                    }
                }
            }
            let grad = first.net.parts_mut();
            let ms = m.net.parts_mut();
            let vs = v.net.parts_mut();
            let ws = net.parts_mut();
            for (part, (((w, g), m), v)) in ws.into_iter().zip(grad).zip(ms).zip(vs).enumerate() {
                // Parts: input weights, input biases, output weights, output biases, direct
                // weights. The weights decay (not the biases, nor the direct weights, which
                // carry the material).
                let clip = match part {
                    0 | 1 => INPUT_CLIP,
                    2 => OUTPUT_CLIP,
                    _ => f32::MAX,
                };
                let decay = if part == 0 || part == 2 {
                    1.0 - rate * c.weight_decay
                } else {
                    1.0
                };
                for (((w, g), m), v) in w.iter_mut().zip(g.iter()).zip(m.iter_mut()).zip(v) {
                    let g = g / n;
                    *m = b1 * *m + (1.0 - b1) * g;
                    *v = b2 * *v + (1.0 - b2) * g * g;
                    let update = rate * (*m / bias1) / ((*v / bias2).sqrt() + 1e-8);
                    *w = (*w * decay - update).clamp(-clip, clip);
                }
            }
        }
        let validation = held_out_loss(d, c, &net);
        let train_loss = loss / count.max(1) as f64;
        let score = if validation.is_nan() {
            train_loss
        } else {
            validation
        };
        if score < best.0 {
            best = (score, net.clone());
        }
        progress(&NetProgress {
            epoch,
            train: train_loss,
            validation,
        });
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selfplay;

    /// A few fast self-play games of Russian, on one thread so that the games are the same on
    /// every run (each thread keeps its own hash table from game to game).
    fn records() -> Vec<Record> {
        let config = selfplay::Config {
            variant: Variant::Russian,
            games: 24,
            nodes: 400,
            random_plies: 6,
            balance: 300,
            max_plies: 200,
            resign: 1000,
            threads: 1,
            seed: 5,
            starts: std::sync::Arc::new([]),
            detours: 0,
        };
        crate::test_support::selfplay_in_memory(&config, 2).0
    }

    #[test]
    fn fitting_lowers_the_error_and_the_network_evaluates_as_fitted() {
        let records = records();
        let (d, skipped) = dataset(Variant::Russian, &records, &[], 0, false);
        assert_eq!(skipped, 0);
        assert_eq!(d.len(), records.len());
        for activation in Activation::ALL {
            fit_and_check(&records, &d, activation);
        }
    }

    fn fit_and_check(records: &[Record], d: &NetDataset, activation: Activation) {
        let c = NetConfig {
            k: 0.5,
            result_weight: 1.0,
            epochs: 30,
            batch: 256,
            rate: 0.01,
            weight_decay: 0.0,
            threads: 2,
            seed: 1,
        };
        let start = FloatNet::random(d.squares, 32, 4, activation, 7);
        let mut first = f64::NAN;
        let mut last = f64::NAN;
        let net = fit(d, start, &c, |p| {
            if p.epoch == 1 {
                first = p.train;
            }
            last = p.train;
        });
        assert!(last < first - 0.02, "{last} vs {first}");
        // The search's integer evaluation agrees with the fit's, in centi-men (and the two
        // are not both zero).
        assert!(net.output_weights.iter().any(|&w| w.abs() > 0.05));
        let cp = 100.0 / c.k as f32;
        let quantized = net.quantize(Variant::Russian, cp);
        type R = dama_core::rules::Russian;
        quantized.check::<R>().unwrap();
        let t = Tables::<Bb<R>>::new::<R>();
        let mut acc = vec![0.0; 2 * net.hidden];
        // Up to the rounding of the weights to integers: each hidden unit's sum carries up to
        // 25 rounded input weights, and 64 rounded products reach the output, so single
        // positions stray by a few centi-men (at most 5.8 over thirteen runs of varying data,
        // mean 0.6-1.0) while a wrong feature, bucket or sign strays by whole men.
        let (mut total, mut worst, mut n) = (0.0f32, 0.0f32, 0);
        for (i, r) in records.iter().enumerate().step_by(5) {
            let pos = r.position(Variant::Russian).unwrap().to_position::<R>();
            let e = network::evaluate(&pos, &t, &quantized) as f32;
            let expected = net.forward(d, i, &mut acc) * d.scale[i] * cp;
            total += (e - expected).abs();
            worst = worst.max((e - expected).abs());
            n += 1;
        }
        let mean = total / n as f32;
        assert!(mean <= 2.0, "{activation:?}: mean error {mean} centi-men");
        assert!(
            worst <= 12.0,
            "{activation:?}: worst error {worst} centi-men"
        );
        // And the stored form reads back the same.
        let back = Network::from_bytes(&quantized.to_bytes()).unwrap();
        assert_eq!(back, quantized);
    }

    /// Records whose results are drawn with the chance `sigmoid(k · score / 100)`: scores
    /// spread over ±600 centi-men, the results from a fixed pseudo-random sequence.
    fn scored_records(k: f64, n: u32) -> Vec<Record> {
        let mut rng = Rng(99);
        (0..n)
            .map(|i| {
                let score = (rng.below(1201) as i16) - 600;
                let p = 1.0 / (1.0 + (-k * score as f64 / 100.0).exp());
                let u = rng.below(1_000_000) as f64 / 1_000_000.0;
                Record {
                    white: dama_core::SquareSet(0),
                    black: dama_core::SquareSet(0),
                    kings: dama_core::SquareSet(0),
                    side: Color::White,
                    result: if u < p { 1 } else { -1 },
                    score,
                    ply: 0,
                    game: i,
                }
            })
            .collect()
    }

    #[test]
    fn the_scale_is_the_one_the_scores_predict_the_results_with() {
        for k in [0.3, 1.2] {
            let found = score_k(&scored_records(k, 100_000)).unwrap();
            assert!((found / k - 1.0).abs() < 0.05, "{found} for {k}");
        }
        // Positions without a score (games imported from PDN files) do not move it, and
        // alone they give no scale.
        let mut mixed = scored_records(0.3, 100_000);
        let mut unscored = scored_records(1.2, 100_000);
        for r in &mut unscored {
            r.score = 0;
        }
        mixed.extend_from_slice(&unscored);
        let found = score_k(&mixed).unwrap();
        assert!((found / 0.3 - 1.0).abs() < 0.05, "{found}");
        assert_eq!(score_k(&unscored), None);
        assert_eq!(score_k(&[]), None);
    }

    #[test]
    fn lookahead_blends_the_scores_of_later_positions_of_the_same_game() {
        let base = records()[0];
        let game = |n: u32, scores: &[i16]| -> Vec<Record> {
            scores
                .iter()
                .enumerate()
                .map(|(ply, &score)| Record {
                    score,
                    ply: ply as u16,
                    game: n,
                    ..base
                })
                .collect()
        };
        let mut rs = game(1, &[0, 100, 200]);
        rs.extend(game(2, &[40, -40]));
        let before = rs.clone();
        lookahead_scores(&mut rs, 0.0);
        assert_eq!(rs, before);
        lookahead_scores(&mut rs, f64::NAN);
        assert_eq!(rs, before);
        lookahead_scores(&mut rs, 0.5);
        let scores: Vec<i16> = rs.iter().map(|r| r.score).collect();
        // 200; 0.5·100 + 0.5·200 = 150; 0.5·0 + 0.5·150 = 75; the second game on its own.
        assert_eq!(scores, [75, 150, 200, 0, -40]);
    }

    #[test]
    fn a_detour_is_fitted_to_its_score_and_a_game_position_to_its_result() {
        let records = records();
        let (games, detours) = records.split_at(records.len() / 2);
        let (d, _) = dataset(Variant::Russian, games, detours, 0, false);
        let mut c = NetConfig {
            k: 0.5,
            result_weight: 1.0,
            epochs: 1,
            batch: 256,
            rate: 0.01,
            weight_decay: 0.0,
            threads: 1,
            seed: 1,
        };
        for weight in [1.0, 0.5, 0.0] {
            c.result_weight = weight;
            for i in [0, games.len() - 1, games.len(), d.len() - 1] {
                let s = sigmoid((c.k * d.score[i] as f64 / 100.0) as f32);
                let expected = if i < games.len() {
                    weight * d.result[i] + (1.0 - weight) * s
                } else {
                    assert!(d.result[i].is_nan());
                    s
                };
                assert!(
                    (target(&d, &c, i) - expected).abs() < 1e-6,
                    "{i} at {weight}"
                );
            }
        }
    }
}
