//! The statistics of `dama match`: the score of the games, the Elo difference with its error
//! bars and the likelihood of superiority, the same from the pairs of games that share an
//! opening, and a sequential probability ratio test that ends a match once its question is
//! answered.

/// Match statistics for the first player.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Stats {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Score fraction.
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            return 0.5;
        }
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games() as f64
    }

    /// Elo difference and the half-width of its 95% confidence interval.
    pub fn elo(&self) -> (f64, f64) {
        let n = self.games() as f64;
        if n == 0.0 {
            return (0.0, 0.0);
        }
        let s = self.score();
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * (0.0 - s).powi(2))
            / n;
        elo_interval(s, var, n)
    }

    /// Likelihood of superiority of the first player.
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt()))
    }

    pub fn summary(&self) -> String {
        let (elo, err) = self.elo();
        format!(
            "+{} ={} -{}  score {:.1}/{} ({:.1}%)  Elo {:+.0} ± {:.0}  LOS {:.1}%",
            self.wins,
            self.draws,
            self.losses,
            self.wins as f64 + self.draws as f64 / 2.0,
            self.games(),
            self.score() * 100.0,
            elo,
            err,
            self.los() * 100.0
        )
    }
}

/// The Elo difference of a mean score `s` per game, and the half-width of its 95% interval
/// when `var` is the variance of one of `n` independent samples of that mean.
fn elo_interval(s: f64, var: f64, n: f64) -> (f64, f64) {
    // With one result only the sample variance is zero; use the variance of one draw among
    // the samples instead, so that a clean sweep still gets honest error bars.
    let var = var.max(0.25 / n);
    let se = (var / n).sqrt();
    let lo = elo_of(s - 1.96 * se);
    let hi = elo_of(s + 1.96 * se);
    (elo_of(s), (hi - lo) / 2.0)
}

/// The logistic Elo difference of a score fraction (clamped short of 0 and 1).
fn elo_of(score: f64) -> f64 {
    let p = score.clamp(1e-3, 1.0 - 1e-3);
    -400.0 * (1.0 / p - 1.0).log10()
}

/// The expected score of a logistic Elo difference.
fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The results of the pairs of games, each opening played once with either colour, for the
/// first player: how many pairs it scored 0, ½, 1, 1½ and 2 points in. The two games of a pair
/// share their opening, so their results are not independent; the pairs are, and their
/// variance gives error bars that follow the match as it was played (narrower where the
/// openings are lopsided and each side wins its good colour).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pairs {
    pub counts: [u32; 5],
}

impl Pairs {
    /// Counts a pair in which the first player scored `half_points` half points (0 to 4).
    pub fn add(&mut self, half_points: u32) {
        self.counts[half_points.min(4) as usize] += 1;
    }

    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// The mean score per game and the variance of a pair's score per game, over `counts`
    /// (which may be fractional).
    fn moments(counts: [f64; 5]) -> (f64, f64) {
        let n: f64 = counts.iter().sum();
        if n == 0.0 {
            return (0.5, 0.0);
        }
        let value = |k: usize| k as f64 / 4.0;
        let mean = (0..5).map(|k| counts[k] * value(k)).sum::<f64>() / n;
        let var = (0..5)
            .map(|k| counts[k] * (value(k) - mean).powi(2))
            .sum::<f64>()
            / n;
        (mean, var)
    }

    fn real(&self) -> [f64; 5] {
        self.counts.map(f64::from)
    }

    /// Elo difference and the half-width of its 95% confidence interval, from the pairs.
    pub fn elo(&self) -> (f64, f64) {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return (0.0, 0.0);
        }
        let (mean, var) = Self::moments(self.real());
        elo_interval(mean, var, n)
    }

    /// The log-likelihood ratio of `sprt`'s second hypothesis against its first, in the
    /// normal approximation of the generalized test: with `m` the mean score per game of the
    /// pairs, `v` the variance of a pair's score and `s0`, `s1` the scores the two Elo
    /// differences expect, `N · (s1 − s0) · (2m − s0 − s1) / (2v)` over `N` pairs. Each of the
    /// five results is counted half a pair more than it happened, so that a first run of equal
    /// pairs (a variance of zero) is not taken as certainty; that weight fades as pairs come.
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let (mean, var) = Self::moments(self.real().map(|c| c + 0.5));
        let (s0, s1) = (score_of(sprt.elo0), score_of(sprt.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    pub fn summary(&self) -> String {
        let (elo, err) = self.elo();
        let c = self.counts;
        format!(
            "pairs scoring 0, ½, 1, 1½, 2: {} {} {} {} {}  Elo {:+.0} ± {:.0}",
            c[0], c[1], c[2], c[3], c[4], elo, err
        )
    }
}

/// A sequential probability ratio test: is the first player `elo0` or `elo1` Elo stronger
/// than the second? The match stops as soon as the evidence accepts one of the two, with
/// error rates `alpha` (accepting `elo1` when `elo0` holds) and `beta` (the reverse).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What a sequential test has concluded so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The first hypothesis (`elo0`) is accepted.
    H0,
    /// The second (`elo1`) is accepted.
    H1,
    /// Neither yet.
    Open,
}

impl Sprt {
    /// Reads `ELO0,ELO1` or `ELO0,ELO1,ALPHA,BETA` (the error rates 0.05 by default).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let bad = || {
            format!(
                "bad --sprt {text:?}: use ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA (e.g. 0,10 or \
                 0,10,0.05,0.05), with ELO0 < ELO1 and the error rates between 0 and 0.5"
            )
        };
        let values: Vec<f64> = text
            .split(',')
            .map(|w| w.trim().parse::<f64>().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
        let (elo0, elo1, alpha, beta) = match values[..] {
            [a, b] => (a, b, 0.05, 0.05),
            [a, b, c, d] => (a, b, c, d),
            _ => return Err(bad()),
        };
        let rate = |x: f64| x > 0.0 && x < 0.5;
        let sound = elo0.is_finite() && elo1.is_finite() && elo0 < elo1 && elo1 - elo0 <= 1000.0;
        if !(sound && rate(alpha) && rate(beta)) {
            return Err(bad());
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The log-likelihood ratios at which the first hypothesis and the second are accepted.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    pub fn verdict(&self, llr: f64) -> Verdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Open
        }
    }
}

/// The error function (Abramowitz–Stegun 7.1.26, error below 1.5e-7).
fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    if x >= 0.0 {
        y
    } else {
        -y
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statistics() {
        let s = Stats {
            wins: 30,
            draws: 40,
            losses: 30,
        };
        assert_eq!(s.score(), 0.5);
        assert!(s.elo().0.abs() < 1e-9);
        assert!((s.los() - 0.5).abs() < 1e-9);
        let s = Stats {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        let (elo, err) = s.elo();
        // Score 70%: +147 Elo.
        assert!((elo - 147.2).abs() < 1.0, "{elo}");
        assert!(err > 30.0 && err < 120.0, "{err}");
        assert!(s.los() > 0.999);
        assert!((erf(0.5) - 0.520_499_877_8).abs() < 1e-6);
        assert!((erf(-1.0) + 0.842_700_792_9).abs() < 1e-6);
    }

    #[test]
    fn pairs_give_their_own_error_bars() {
        // 100 pairs: every opening won with one colour and lost with the other (1 point
        // each) is an even match, and a tighter one than the same 100 wins and 100 losses
        // counted as independent games.
        let mut p = Pairs::default();
        for _ in 0..100 {
            p.add(2);
        }
        let (elo, err) = p.elo();
        assert!(elo.abs() < 1e-9);
        let games = Stats {
            wins: 100,
            draws: 0,
            losses: 100,
        };
        assert!(err < games.elo().1, "{err} against {}", games.elo().1);
        // 10 pairs won 2-0 and 90 drawn 1-1: a score of 55%, +35 Elo; a pair's score per
        // game varies by 0.9 · 0.05² + 0.1 · 0.45² = 0.0225, so the standard error of the
        // mean is 0.015 and the interval 0.55 ± 0.0294 in score.
        let mut p = Pairs::default();
        for i in 0..100 {
            p.add(if i < 10 { 4 } else { 2 });
        }
        let (elo, err) = p.elo();
        assert!((elo - 34.86).abs() < 0.05, "{elo}");
        let expected = (elo_of(0.55 + 0.0294) - elo_of(0.55 - 0.0294)) / 2.0;
        assert!((err - expected).abs() < 0.1, "{err} against {expected}");
        assert!(p.summary().contains("0 0 90 0 10"), "{}", p.summary());
    }

    #[test]
    fn the_sequential_test_weighs_the_pairs() {
        let sprt = Sprt::parse("0,10").unwrap();
        assert_eq!((sprt.alpha, sprt.beta), (0.05, 0.05));
        let (lower, upper) = sprt.bounds();
        assert!((lower + 2.944_439).abs() < 1e-5 && (upper - 2.944_439).abs() < 1e-5);
        // Pairs 5, 10, 70, 10, 5 (even, mean 0.5): with the half pair added to each result
        // the counts are 5.5, 10.5, 70.5, 10.5, 5.5 over 102.5, whose variance is
        // (2 · 5.5 · 0.25 + 2 · 10.5 · 0.0625) / 102.5 = 0.039634; s1 = 0.514387, so the
        // ratio is 100 · 0.014387 · (1 − 0.5 − 0.514387) / (2 · 0.039634) = −0.26114.
        let p = Pairs {
            counts: [5, 10, 70, 10, 5],
        };
        assert!((p.llr(&sprt) + 0.261_14).abs() < 1e-4, "{}", p.llr(&sprt));
        assert_eq!(sprt.verdict(p.llr(&sprt)), Verdict::Open);
        // A clean sweep is accepted as the stronger hypothesis after 19 pairs (10 Elo is a
        // small step to tell apart); a run of drawn pairs as the weaker one after 94.
        let mut sweep = Pairs::default();
        let mut draws = Pairs::default();
        let mut first_h1 = None;
        let mut first_h0 = None;
        for n in 1..=400 {
            sweep.add(4);
            draws.add(2);
            if first_h1.is_none() && sprt.verdict(sweep.llr(&sprt)) == Verdict::H1 {
                first_h1 = Some(n);
            }
            if first_h0.is_none() && sprt.verdict(draws.llr(&sprt)) == Verdict::H0 {
                first_h0 = Some(n);
            }
        }
        assert_eq!((first_h1, first_h0), (Some(19), Some(94)));
        assert_eq!(sprt.verdict(sweep.llr(&sprt)), Verdict::H1);
        // Parsing: error rates given, and bad forms refused.
        let s = Sprt::parse("-5, 5, 0.1, 0.2").unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-5.0, 5.0, 0.1, 0.2));
        for bad in [
            "",
            "10",
            "10,0",
            "0,10,0.05",
            "0,10,0,0.05",
            "0,10,0.05,0.5",
            "a,b",
            "0,NaN",
        ] {
            assert!(Sprt::parse(bad).is_err(), "{bad:?}");
        }
    }
}
