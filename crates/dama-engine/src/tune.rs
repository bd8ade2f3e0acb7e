//! Tuning the evaluation from game data: positions labelled with the result of the game they
//! come from, and a logistic regression of the result on the evaluation features.
//!
//! The evaluation is linear in its weights ([`crate::eval`]), so the predicted score of a
//! position is `sigmoid(k * (w · f) / 100)` with `f` its features (White minus Black, times the
//! draw scale) and `k` a constant fitted first; the weights then follow the gradient of the
//! mean squared error between prediction and result (0, ½ or 1 for White).

use crate::engine::{Engine, EngineOptions};
use crate::eval::{self, feature, Features, Tables, Weights};
use crate::limits::Limits;
use dama_core::position::Bb;
use dama_core::rules::Rules;
use dama_core::{with_rules, AnyPosition, Color, Game, Variant};

/// One training position.
#[derive(Clone, Debug)]
pub struct Sample {
    /// Features (White minus Black), already multiplied by the draw scale / 16.
    pub features: [f32; feature::COUNT],
    /// The game's result for White: 1, ½ or 0.
    pub result: f32,
}

/// The features of a position, scaled as the evaluation scales them.
pub fn sample_features(pos: &AnyPosition) -> [f32; feature::COUNT] {
    with_rules!(pos.variant(), R => features_of::<R>(pos))
}

fn features_of<R: Rules>(pos: &AnyPosition) -> [f32; feature::COUNT] {
    let p = pos.to_position::<R>();
    let t = Tables::<Bb<R>>::new::<R>();
    let mut f = Features::default();
    let scale = eval::features(&p, &t, &mut f) as f32 / 16.0;
    let mut out = [0.0; feature::COUNT];
    for (o, v) in out.iter_mut().zip(f.0) {
        *o = v as f32 * scale;
    }
    out
}

/// Self-play for training data: `games` games of `variant` from the start after `random_plies`
/// random moves, each move searched to `nodes` nodes with `weights`. Returns the samples of
/// the positions where no capture is pending (quiet positions), and calls `progress` after
/// each game with the number of games played.
pub fn self_play(
    variant: Variant,
    games: u32,
    nodes: u64,
    random_plies: u32,
    weights: Option<Weights>,
    seed: u64,
    mut progress: impl FnMut(u32),
) -> Vec<Sample> {
    let mut rng = seed | 1;
    let mut next = move |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n as u64) as usize
    };
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 8,
        seed: Some(seed),
        ..EngineOptions::default()
    });
    engine.set_weights(weights);
    let mut samples = Vec::new();
    for g in 0..games {
        engine.new_game();
        let mut game = Game::new(variant);
        for _ in 0..random_plies {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let _ = game.play(&moves[next(moves.len())]);
        }
        let mut positions = Vec::new();
        while !game.is_over() && game.moves().len() < 300 {
            let pos = *game.position();
            if !pos.must_capture() {
                positions.push(pos);
            }
            engine.set_game(&game);
            let Some(m) = engine.search(Limits::nodes(nodes), |_| {}).best_move else {
                break;
            };
            if game.play(&m).is_err() {
                break;
            }
        }
        let result = match game.outcome().and_then(|o| o.winner) {
            Some(Color::White) => 1.0,
            Some(Color::Black) => 0.0,
            None => 0.5,
        };
        samples.extend(positions.iter().map(|p| Sample {
            features: sample_features(p),
            result,
        }));
        progress(g + 1);
    }
    samples
}

fn predict(w: &[f64], f: &[f32; feature::COUNT], k: f64) -> f64 {
    let e: f64 = w.iter().zip(f.iter()).map(|(w, f)| w * *f as f64).sum();
    1.0 / (1.0 + (-k * e / 100.0).exp())
}

/// Mean squared error of the predictions.
pub fn error(samples: &[Sample], weights: &Weights, k: f64) -> f64 {
    let w: Vec<f64> = weights.0.iter().map(|&x| x as f64).collect();
    let sum: f64 = samples
        .iter()
        .map(|s| (s.result as f64 - predict(&w, &s.features, k)).powi(2))
        .sum();
    sum / samples.len().max(1) as f64
}

/// The scaling constant `k` that best fits the current weights.
pub fn fit_k(samples: &[Sample], weights: &Weights) -> f64 {
    best_k(|k| error(samples, weights, k))
}

/// The `k` in 0.05–4 at which `loss` is lowest, to within about 1%: a coarse scan in steps of
/// half again, then a golden-section search between the neighbours of the best step. The loss
/// of a logistic fit is smooth in `k` with one minimum, so about two dozen calls (each a pass
/// over the data) find it; a scan at the same precision would need hundreds.
pub fn best_k(mut loss: impl FnMut(f64) -> f64) -> f64 {
    const LO: f64 = 0.05;
    const HI: f64 = 4.0;
    const STEP: f64 = 1.5;
    // The coarse scan, in log k (the loss changes alike for like ratios of k), its last step
    // at the top of the range.
    let steps = ((HI / LO).ln() / STEP.ln()).ceil() as usize;
    let scan: Vec<(f64, f64)> = (0..=steps)
        .map(|i| {
            let x = (LO.ln() + i as f64 * STEP.ln()).min(HI.ln());
            (x, loss(x.exp()))
        })
        .collect();
    let best = (0..scan.len())
        .min_by(|&a, &b| scan[a].1.total_cmp(&scan[b].1))
        .unwrap_or(0);
    let (mut a, mut b) = (
        scan[best.saturating_sub(1)].0,
        scan[(best + 1).min(steps)].0,
    );
    // Golden-section search on [a, b] in log k, down to a width of 1% in k.
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - ratio * (b - a);
    let mut d = a + ratio * (b - a);
    let (mut fc, mut fd) = (loss(c.exp()), loss(d.exp()));
    while b - a > 0.01 {
        if fc <= fd {
            (b, d, fd) = (d, c, fc);
            c = b - ratio * (b - a);
            fc = loss(c.exp());
        } else {
            (a, c, fc) = (c, d, fd);
            d = a + ratio * (b - a);
            fd = loss(d.exp());
        }
    }
    // The bracket holds the best step (at an end of the range, as one of its sides): keep it
    // if the search found nothing lower.
    let (x, f) = if fc <= fd { (c, fc) } else { (d, fd) };
    if f <= scan[best].1 { x } else { scan[best].0 }.exp()
}

/// Fits the weights by gradient descent (Adam) on the mean squared error, starting from
/// `start`. The man's weight is kept fixed (it sets the scale: a man is worth 100).
pub fn fit(samples: &[Sample], start: &Weights, k: f64, epochs: u32) -> Weights {
    let n = feature::COUNT;
    let mut w: Vec<f64> = start.0.iter().map(|&x| x as f64).collect();
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let (b1, b2, rate) = (0.9, 0.999, 1.0);
    let count = samples.len().max(1) as f64;
    for t in 1..=epochs {
        let mut grad = vec![0.0; n];
        for s in samples {
            let p = predict(&w, &s.features, k);
            // d/dw (r - p)^2 = -2 (r - p) p (1 - p) k/100 f
            let g = -2.0 * (s.result as f64 - p) * p * (1.0 - p) * k / 100.0;
            for (gi, fi) in grad.iter_mut().zip(s.features.iter()) {
                *gi += g * *fi as f64;
            }
        }
        for i in 0..n {
            if i == feature::MAN {
                continue;
            }
            let g = grad[i] / count;
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(t as i32));
            let vh = v[i] / (1.0 - b2.powi(t as i32));
            w[i] -= rate * mh / (vh.sqrt() + 1e-12);
        }
    }
    let mut out = [0; feature::COUNT];
    for (o, x) in out.iter_mut().zip(w) {
        *o = x.round() as i32;
    }
    Weights(out)
}

/// Weights as text: one `name value` line per feature.
pub fn write_weights(w: &Weights) -> String {
    (0..feature::COUNT)
        .map(|i| format!("{} {}\n", eval::feature_name(i), w.0[i]))
        .collect()
}

/// Reads weights written by [`write_weights`]; features not named keep `base`'s value.
///
/// # Errors
/// A message naming the first line that is not `name value` with a known name.
pub fn read_weights(text: &str, base: &Weights) -> Result<Weights, String> {
    let mut w = *base;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split_whitespace();
        let (Some(name), Some(value), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(format!("line {}: expected `name value`", n + 1));
        };
        let i = (0..feature::COUNT)
            .find(|&i| eval::feature_name(i) == name)
            .ok_or_else(|| format!("line {}: unknown feature {name:?}", n + 1))?;
        w.0[i] = value
            .parse()
            .ok()
            .filter(|v: &i32| v.abs() <= 10_000)
            .ok_or_else(|| format!("line {}: bad value {value:?}", n + 1))?;
    }
    Ok(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_round_trip() {
        let w = Weights::for_variant(Variant::International);
        assert_eq!(
            read_weights(&write_weights(&w), &Weights([0; feature::COUNT])),
            Ok(w)
        );
        assert!(read_weights("man x", &w).is_err());
        assert!(read_weights("nothing 3", &w).is_err());
        assert!(read_weights("man 1 2", &w).is_err());
        assert_eq!(
            read_weights("# comment\n\nking 250\n", &w).unwrap().0[feature::KING],
            250
        );
    }

    #[test]
    fn best_k_finds_the_minimum_in_few_passes() {
        for target in [0.05, 0.09, 0.3, 0.77, 1.0, 2.5, 4.0] {
            let mut calls = 0;
            let k = best_k(|k: f64| {
                calls += 1;
                let x = (k / target).ln();
                x * x + 0.1 * x * x * x * x
            });
            assert!((k / target - 1.0).abs() < 0.01, "{k} for {target}");
            assert!(calls <= 25, "{calls} passes for {target}");
        }
    }

    #[test]
    fn fitting_recovers_a_known_weight() {
        // Results decided by the king count alone: a fit from a wrong king value moves it
        // towards the truth and lowers the error.
        let mut samples = Vec::new();
        for i in 0..400 {
            let mut f = [0.0; feature::COUNT];
            f[feature::KING] = ((i % 5) as f32) - 2.0;
            f[feature::MAN] = ((i % 3) as f32) - 1.0;
            let e = 300.0 * f[feature::KING] + 100.0 * f[feature::MAN];
            let p = 1.0 / (1.0 + (-(e as f64) / 100.0).exp());
            samples.push(Sample {
                features: f,
                result: p as f32,
            });
        }
        let mut start = Weights([0; feature::COUNT]);
        start.0[feature::MAN] = 100;
        start.0[feature::KING] = 100;
        let before = error(&samples, &start, 1.0);
        let fitted = fit(&samples, &start, 1.0, 1000);
        assert!(error(&samples, &fitted, 1.0) < before / 4.0);
        assert!((fitted.0[feature::KING] - 300).abs() < 40, "{fitted:?}");
    }

    #[test]
    fn self_play_produces_labelled_positions() {
        let s = self_play(Variant::Russian, 2, 300, 4, None, 9, |_| {});
        assert!(s.len() > 20);
        assert!(s.iter().all(|x| [0.0, 0.5, 1.0].contains(&x.result)));
    }
}
