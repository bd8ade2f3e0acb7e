//! Fitting a pattern [`Model`] to self-play data by logistic regression.
//!
//! Every quiet position of the data predicts its game's result through
//! `sigmoid(k · eval / 100)`, where `eval` (White's view, centi-men) is linear in every weight
//! of the model: the linear features and the window configurations, each with an opening and
//! an ending weight mixed by the number of men left. The weights minimise the cross-entropy
//! between prediction and result (optionally blended with the self-play search's own score),
//! plus a small L2 penalty on the window weights, by full-batch Adam on two threads. A part
//! of the games is held out to report the error on positions the fit never saw; the weights of
//! the epoch with the lowest held-out error are kept.

use crate::eval::{self, feature, Features, Tables};
use crate::pattern::{self, Layout, Model, PatternSink, Windows, QUANTUM, TABLE_SIZE};
use crate::selfplay::Record;
use dama_core::position::Bb;
use dama_core::rules::Rules;
use dama_core::{with_rules, Variant};

/// The training positions, as the model sees them.
#[derive(Debug, Default)]
pub struct Dataset {
    /// Number of window tables of the board.
    pub tables: usize,
    /// Linear features, `feature::COUNT` per position.
    base: Vec<i16>,
    /// Window configurations: White's and Black's view per table, `2 · tables` per position.
    windows: Vec<u16>,
    /// Share of the opening weights (men left / men at the start).
    phase: Vec<f32>,
    /// Draw scale (out of 1).
    scale: Vec<f32>,
    /// The game's result for White (0, ½, 1).
    result: Vec<f32>,
    /// The self-play search's score for White, centi-men.
    score: Vec<f32>,
    /// Whether the position is held out for validation.
    held_out: Vec<bool>,
}

impl Dataset {
    /// Number of positions.
    pub fn len(&self) -> usize {
        self.phase.len()
    }

    /// Whether there are no positions.
    pub fn is_empty(&self) -> bool {
        self.phase.is_empty()
    }

    /// Positions held out for validation.
    pub fn held_out(&self) -> usize {
        self.held_out.iter().filter(|&&h| h).count()
    }
}

struct Collect<'a> {
    windows: &'a mut Vec<u16>,
}

impl PatternSink for Collect<'_> {
    fn window(&mut self, _table: usize, white: usize, black: usize) {
        self.windows.push(white as u16);
        self.windows.push(black as u16);
    }
}

/// Builds the dataset of `records` of `variant`, seen through `windows`; the games whose
/// number is a multiple of `hold_out_every` are held out (0: none). Records that are not legal
/// positions are skipped; their number is returned with the dataset.
pub fn dataset(
    variant: Variant,
    records: &[Record],
    hold_out_every: u32,
    windows: Windows,
) -> (Dataset, usize) {
    with_rules!(variant, R => dataset_of::<R>(variant, records, hold_out_every, windows))
}

fn dataset_of<R: Rules>(
    variant: Variant,
    records: &[Record],
    hold_out_every: u32,
    windows: Windows,
) -> (Dataset, usize) {
    let t = Tables::<Bb<R>>::new::<R>();
    let layout = Layout::<Bb<R>>::with::<R>(windows);
    let total = pattern::phase_total::<R>() as f32;
    let mut d = Dataset {
        tables: layout.tables(),
        ..Dataset::default()
    };
    let mut skipped = 0;
    for r in records {
        let Ok(p) = r.position(variant) else {
            skipped += 1;
            continue;
        };
        let pos = p.to_position::<R>();
        let mut f = Features::default();
        let scale = eval::features(&pos, &t, &mut f);
        d.base.extend(
            f.0.iter()
                .map(|&x| x.clamp(i16::MIN as i32, i16::MAX as i32) as i16),
        );
        pattern::windows(
            &pos,
            &layout,
            &mut Collect {
                windows: &mut d.windows,
            },
        );
        d.phase.push((pattern::phase(&pos) as f32 / total).min(1.0));
        d.scale.push(scale as f32 / 16.0);
        d.result.push((r.result as f32 + 1.0) / 2.0);
        d.score.push(r.score as f32);
        d.held_out
            .push(hold_out_every > 0 && r.game % hold_out_every == 0);
    }
    (d, skipped)
}

/// Settings of a fit.
#[derive(Clone, Copy, Debug)]
pub struct FitConfig {
    /// Scale of the sigmoid: `sigmoid(k · eval / 100)` predicts the result.
    pub k: f64,
    /// Weight of the game result in the target; the rest is the search score through the same
    /// sigmoid.
    pub result_weight: f64,
    /// Epochs of full-batch Adam.
    pub epochs: u32,
    /// Adam's step size, in centi-men.
    pub rate: f64,
    /// L2 penalty on the window weights (per centi-man squared, relative to the mean loss).
    pub l2: f64,
    /// Threads computing the gradient.
    pub threads: usize,
}

/// What a fit reports after some epochs.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Epochs done.
    pub epoch: u32,
    /// Mean cross-entropy on the training positions.
    pub train: f64,
    /// Mean cross-entropy on the held-out positions (NaN without any).
    pub validation: f64,
}

/// Parameter layout: the linear features' (opening, ending) pairs, then each table's.
fn base_at(f: usize) -> usize {
    2 * f
}

fn table_at(table: usize, index: usize) -> usize {
    2 * feature::COUNT + 2 * (table * TABLE_SIZE + index)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The model's evaluation of position `i` for White (centi-men) under parameters `w`.
fn predict(d: &Dataset, w: &[f64], i: usize) -> f64 {
    let (mut mg, mut eg) = (0.0, 0.0);
    let base = &d.base[i * feature::COUNT..(i + 1) * feature::COUNT];
    for (f, &x) in base.iter().enumerate() {
        if x != 0 {
            mg += w[base_at(f)] * x as f64;
            eg += w[base_at(f) + 1] * x as f64;
        }
    }
    let win = &d.windows[i * 2 * d.tables..(i + 1) * 2 * d.tables];
    for j in 0..d.tables {
        let a = table_at(j, win[2 * j] as usize);
        let b = table_at(j, win[2 * j + 1] as usize);
        mg += w[a] - w[b];
        eg += w[a + 1] - w[b + 1];
    }
    let ph = d.phase[i] as f64;
    (ph * mg + (1.0 - ph) * eg) * d.scale[i] as f64
}

fn target(d: &Dataset, c: &FitConfig, i: usize) -> f64 {
    let r = d.result[i] as f64;
    if c.result_weight >= 1.0 {
        r
    } else {
        c.result_weight * r + (1.0 - c.result_weight) * sigmoid(c.k * d.score[i] as f64 / 100.0)
    }
}

fn cross_entropy(p: f64, t: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// Summed losses of a pass over some positions.
#[derive(Clone, Copy, Debug, Default)]
struct Losses {
    /// Cross-entropy summed over the training positions...
    train: f64,
    /// ...and their number.
    train_count: usize,
    /// Cross-entropy summed over the held-out positions...
    held_out: f64,
    /// ...and their number.
    held_out_count: usize,
}

/// Sums the loss over the training and held-out positions of `range`, and adds the gradient
/// of the training loss (summed, not averaged) to `grad`.
fn pass(
    d: &Dataset,
    c: &FitConfig,
    w: &[f64],
    range: std::ops::Range<usize>,
    grad: &mut [f64],
) -> Losses {
    let (mut train, mut nt, mut val, mut nv) = (0.0, 0, 0.0, 0);
    for i in range {
        let e = predict(d, w, i);
        let p = sigmoid(c.k * e / 100.0);
        let t = target(d, c, i);
        let loss = cross_entropy(p, t);
        if d.held_out[i] {
            val += loss;
            nv += 1;
            continue;
        }
        train += loss;
        nt += 1;
        // d loss / d eval.
        let g = (p - t) * c.k / 100.0 * d.scale[i] as f64;
        let ph = d.phase[i] as f64;
        let (gm, ge) = (g * ph, g * (1.0 - ph));
        let base = &d.base[i * feature::COUNT..(i + 1) * feature::COUNT];
        for (f, &x) in base.iter().enumerate() {
            if x != 0 {
                grad[base_at(f)] += gm * x as f64;
                grad[base_at(f) + 1] += ge * x as f64;
            }
        }
        let win = &d.windows[i * 2 * d.tables..(i + 1) * 2 * d.tables];
        for j in 0..d.tables {
            let a = table_at(j, win[2 * j] as usize);
            let b = table_at(j, win[2 * j + 1] as usize);
            grad[a] += gm;
            grad[a + 1] += ge;
            grad[b] -= gm;
            grad[b + 1] -= ge;
        }
    }
    Losses {
        train,
        train_count: nt,
        held_out: val,
        held_out_count: nv,
    }
}

/// Mean cross-entropy of a linear weight set alone on the dataset (training, held-out): the
/// baseline the fit is compared with.
pub fn linear_loss(d: &Dataset, weights: &eval::Weights, k: f64) -> (f64, f64) {
    let w = linear_weights(weights, d.tables);
    let c = FitConfig {
        k,
        result_weight: 1.0,
        epochs: 0,
        rate: 0.0,
        l2: 0.0,
        threads: 1,
    };
    let mut grad = vec![0.0; w.len()];
    let l = pass(d, &c, &w, 0..d.len(), &mut grad);
    (
        l.train / l.train_count.max(1) as f64,
        l.held_out / l.held_out_count.max(1) as f64,
    )
}

/// The `k` for which the linear weights best predict the results (so that the fitted model
/// keeps the scale of centi-men: a man is worth about 100).
pub fn fit_k(d: &Dataset, weights: &eval::Weights) -> f64 {
    crate::tune::best_k(|k| linear_loss(d, weights, k).0)
}

/// Where a fit starts.
#[derive(Clone, Copy, Debug)]
pub enum Start<'a> {
    /// Linear weights for both phases, every window weight zero.
    Linear(&'a eval::Weights),
    /// A fitted model's weights: its linear features and its tables, which must be the first
    /// tables of the fit's layout (the same windows in the same order; any further tables
    /// start at zero).
    Model(&'a Model),
}

/// Whether a fit of `variant` with `windows` can start from `model` ([`Start::Model`]): its
/// tables must be the first of the layout's, on the same board.
pub fn can_start_from(variant: Variant, model: &Model, windows: Windows) -> bool {
    with_rules!(variant, R => {
        let wanted = Layout::<Bb<R>>::with::<R>(windows);
        model.layout::<R>().is_ok_and(|own| {
            own.tables() <= wanted.tables() && own.pairs[..] == wanted.pairs[..own.tables()]
        })
    })
}

/// Linear weights in the fit's units and order, the same in both phases, for `tables` window
/// tables at zero.
fn linear_weights(weights: &eval::Weights, tables: usize) -> Vec<f64> {
    let mut w = vec![0.0; table_at(tables, 0)];
    for f in 0..feature::COUNT {
        w[base_at(f)] = weights.0[f] as f64;
        w[base_at(f) + 1] = weights.0[f] as f64;
    }
    w
}

/// A model's weights in the fit's units and order, for `tables` tables (those the model does
/// not have at zero).
///
/// # Panics
///
/// If the model has more than `tables` tables.
fn model_weights(model: &Model, tables: usize) -> Vec<f64> {
    assert!(model.table_count() <= tables, "more tables than the fit's");
    let q = QUANTUM as f64;
    let mut w = vec![0.0; table_at(tables, 0)];
    for (f, [mg, eg]) in model.base.iter().enumerate() {
        w[base_at(f)] = *mg as f64 / q;
        w[base_at(f) + 1] = *eg as f64 / q;
    }
    for (i, [mg, eg]) in model.tables.iter().enumerate() {
        w[table_at(0, i)] = *mg as f64 / q;
        w[table_at(0, i) + 1] = *eg as f64 / q;
    }
    w
}

/// Fits a model to `d` from `start`. `progress` is called every ten epochs and at the end.
///
/// # Panics
///
/// If `start` is a model with more tables than `d` has.
pub fn fit(
    d: &Dataset,
    variant: Variant,
    start: Start<'_>,
    c: &FitConfig,
    mut progress: impl FnMut(&Progress),
) -> Model {
    let n = table_at(d.tables, 0);
    let mut w = match start {
        Start::Linear(weights) => linear_weights(weights, d.tables),
        Start::Model(model) => model_weights(model, d.tables),
    };
    let mut m = vec![0.0; n];
    let mut v = vec![0.0; n];
    let (b1, b2) = (0.9, 0.999);
    let threads = c.threads.clamp(1, 64);
    let len = d.len();
    let chunk = len.div_ceil(threads).max(1);
    let mut best = (f64::MAX, w.clone());
    let train_count = (len - d.held_out()).max(1) as f64;
    for epoch in 1..=c.epochs {
        let results: Vec<(Vec<f64>, Losses)> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let w = &w;
                    s.spawn(move || {
                        let mut grad = vec![0.0; n];
                        let r = pass(
                            d,
                            c,
                            w,
                            (t * chunk).min(len)..((t + 1) * chunk).min(len),
                            &mut grad,
                        );
                        (grad, r)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("gradient thread"))
                .collect()
        });
        let mut grad = vec![0.0; n];
        let (mut train, mut nt, mut val, mut nv) = (0.0, 0, 0.0, 0);
        for (g, l) in results {
            for (x, y) in grad.iter_mut().zip(g) {
                *x += y;
            }
            train += l.train;
            nt += l.train_count;
            val += l.held_out;
            nv += l.held_out_count;
        }
        let train = train / nt.max(1) as f64;
        let validation = if nv > 0 { val / nv as f64 } else { f64::NAN };
        // The loss of the weights before this step: keep the best seen.
        let score = if nv > 0 { validation } else { train };
        if score < best.0 {
            best = (score, w.clone());
        }
        if epoch % 10 == 0 || epoch == c.epochs {
            progress(&Progress {
                epoch,
                train,
                validation,
            });
        }
        let rate = c.rate * (1.0 - 0.9 * epoch as f64 / c.epochs.max(1) as f64);
        for i in 0..n {
            let mut g = grad[i] / train_count;
            if i >= table_at(0, 0) {
                g += c.l2 * w[i];
            }
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(epoch as i32));
            let vh = v[i] / (1.0 - b2.powi(epoch as i32));
            w[i] -= rate * mh / (vh.sqrt() + 1e-9);
        }
    }
    let w = best.1;
    let mut model = Model::zero(variant, d.tables);
    let q = QUANTUM as f64;
    for f in 0..feature::COUNT {
        model.base[f] = [
            (w[base_at(f)] * q).round() as i32,
            (w[base_at(f) + 1] * q).round() as i32,
        ];
    }
    for (i, t) in model.tables.iter_mut().enumerate() {
        let a = table_at(0, i);
        *t = [
            (w[a] * q).round().clamp(-32767.0, 32767.0) as i16,
            (w[a + 1] * q).round().clamp(-32767.0, 32767.0) as i16,
        ];
    }
    model
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selfplay;

    #[test]
    fn fitting_lowers_the_error_and_the_model_evaluates_as_fitted() {
        let config = selfplay::Config {
            variant: Variant::Russian,
            games: 16,
            nodes: 400,
            random_plies: 6,
            balance: 300,
            max_plies: 200,
            resign: 1000,
            // One thread: the games, and so the fit checked below, are the same on every run.
            threads: 1,
            seed: 3,
            starts: std::sync::Arc::new([]),
            detours: 0,
        };
        let (records, _) = crate::test_support::selfplay_in_memory(&config, 2);
        // Every layout of windows; the engine finds the layout from the model's tables.
        let mut strips = None;
        for windows in Windows::ALL {
            let (d, skipped) = dataset(Variant::Russian, &records, 0, windows);
            assert_eq!(skipped, 0);
            assert_eq!(d.len(), records.len());
            let tables = match windows {
                Windows::Sparse => 5,
                Windows::Dense => 13,
                Windows::Strips => 17,
                Windows::Bands => 19,
            };
            assert_eq!(d.tables, tables);
            let start = eval::Weights::for_variant(Variant::Russian);
            let k = fit_k(&d, &start);
            let (before, _) = linear_loss(&d, &start, k);
            let c = FitConfig {
                k,
                result_weight: 1.0,
                epochs: 60,
                rate: 2.0,
                l2: 0.0,
                threads: 2,
            };
            let mut last = f64::MAX;
            let model = fit(&d, Variant::Russian, Start::Linear(&start), &c, |p| {
                last = p.train
            });
            assert!(last < before, "{last} >= {before}");
            // The engine's integer evaluation of a position agrees with the fit's prediction.
            let w = model_weights(&model, d.tables);
            type R = dama_core::rules::Russian;
            let t = Tables::<Bb<R>>::new::<R>();
            let layout = model.layout::<R>().unwrap();
            for (i, r) in records.iter().enumerate().step_by(7) {
                let p = r.position(Variant::Russian).unwrap().to_position::<R>();
                let mut e = pattern::evaluate(&p, &t, &layout, &model) as f64;
                if r.side == dama_core::Color::Black {
                    e = -e;
                }
                let expected = predict(&d, &w, i);
                assert!((e - expected).abs() <= 2.5, "{e} vs {expected}");
            }
            if windows == Windows::Strips {
                strips = Some((model, c, before));
            }
        }

        // A fit started from a model starts from its loss, also on a layout that adds tables
        // after the model's (which start at zero), and a step too small to move a weight by a
        // quantum gives the model back.
        let (model, mut c, linear) = strips.unwrap();
        c.epochs = 1;
        c.rate = 1e-9;
        let start_loss = |windows| {
            let (d, _) = dataset(Variant::Russian, &records, 0, windows);
            let mut loss = f64::NAN;
            let again = fit(&d, Variant::Russian, Start::Model(&model), &c, |p| {
                loss = p.train
            });
            (loss, again)
        };
        let (same, again) = start_loss(Windows::Strips);
        let (wider, _) = start_loss(Windows::Bands);
        assert!(same < linear, "{same} >= {linear}");
        assert!((same - wider).abs() < 1e-9, "{same} vs {wider}");
        assert!(can_start_from(Variant::Russian, &model, Windows::Bands));
        assert!(can_start_from(Variant::Russian, &model, Windows::Strips));
        assert!(!can_start_from(Variant::Russian, &model, Windows::Dense));
        assert!(!can_start_from(
            Variant::International,
            &model,
            Windows::Bands
        ));
        assert_eq!(again, model);
    }
}
