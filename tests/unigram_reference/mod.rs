//! The textbook Unigram trainer the engine's is checked against: every
//! cut of every word enumerated (no lattice, no forward-backward), every
//! substring counted, the loss without a piece found by cutting every
//! word again with the piece left out. Only for short words.

#![allow(dead_code)]

use std::collections::HashMap;

pub struct Config {
    pub vocab_size: usize,
    pub seed_size: usize,
    pub shrinking_factor: f64,
    pub em_iterations: usize,
    pub max_piece_length: usize,
    /// Words written with `▁` in front (sentencepiece); else the
    /// course's rule (strict substrings only).
    pub space_mark: bool,
}

/// One step as the reference makes it.
#[derive(Debug, Clone)]
pub struct Step {
    pub phase: &'static str,
    /// The pieces in the vocabulary after it, by text.
    pub pieces: Vec<String>,
    pub loss: f64,
    /// Scored: each piece of two characters or more and its score.
    pub scores: Vec<(String, f64)>,
    /// Pruned: the pieces removed, in the order they go.
    pub removed: Vec<String>,
    /// Estimated: the pieces dropped, in the order they go.
    pub dropped: Vec<String>,
}

pub fn words(text: &str, space_mark: bool) -> Vec<(Vec<char>, u64)> {
    let mut out: Vec<(Vec<char>, u64)> = Vec::new();
    for w in text.split(char::is_whitespace).filter(|w| !w.is_empty()) {
        let mut chars: Vec<char> = Vec::new();
        if space_mark {
            chars.push('\u{2581}');
        }
        chars.extend(w.chars());
        match out.iter_mut().find(|(c, _)| *c == chars) {
            Some(e) => e.1 += 1,
            None => out.push((chars, 1)),
        }
    }
    out
}

/// Seeds in id order, with their counts.
pub fn seeds(words: &[(Vec<char>, u64)], c: &Config) -> Vec<(String, u64)> {
    let mut counts: HashMap<String, (u64, bool)> = HashMap::new();
    for (w, f) in words {
        for i in 0..w.len() {
            for j in i + 1..=w.len().min(i + c.max_piece_length) {
                let e = counts.entry(w[i..j].iter().collect()).or_default();
                e.0 += f;
                e.1 |= j - i < w.len();
            }
        }
    }
    let mut chars: Vec<(String, u64)> = counts
        .iter()
        .filter(|(s, _)| s.chars().count() == 1)
        .map(|(s, &(n, _))| (s.clone(), n))
        .collect();
    chars.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut longer: Vec<(String, u64)> = counts
        .iter()
        .filter(|(s, (n, strict))| s.chars().count() > 1 && *n >= 2 && (*strict || c.space_mark))
        .map(|(s, &(n, _))| (s.clone(), n))
        .collect();
    let rank = |s: &(String, u64)| s.1 * s.0.chars().count() as u64;
    longer.sort_by(|a, b| rank(b).cmp(&rank(a)).then(a.0.cmp(&b.0)));
    longer.truncate(c.seed_size.saturating_sub(chars.len()));
    chars.extend(longer);
    chars
}

/// Every cut of `w` into pieces of `vocab` (text -> id), as lists of ids.
fn cuts(w: &[char], vocab: &HashMap<String, usize>) -> Vec<Vec<usize>> {
    if w.is_empty() {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for len in 1..=w.len() {
        let Some(&id) = vocab.get(&w[..len].iter().collect::<String>()) else {
            continue;
        };
        for mut rest in cuts(&w[len..], vocab) {
            rest.insert(0, id);
            out.push(rest);
        }
    }
    out
}

/// `ln(sum of e^x)` over `xs`, scaled by the largest.
fn log_sum(xs: &[f64]) -> f64 {
    let max = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if max == f64::NEG_INFINITY {
        return max;
    }
    max + xs.iter().map(|x| (x - max).exp()).sum::<f64>().ln()
}

fn cut_logp(cut: &[usize], logp: &[f64]) -> f64 {
    cut.iter().fold(0.0, |sum, &id| sum + logp[id])
}

fn best(w: &[char], vocab: &HashMap<String, usize>, logp: &[f64]) -> f64 {
    cuts(w, vocab)
        .iter()
        .map(|c| cut_logp(c, logp))
        .fold(f64::NEG_INFINITY, f64::max)
}

pub struct Reference<'a> {
    pub words: &'a [(Vec<char>, u64)],
    pub seeds: Vec<(String, u64)>,
    pub logp: Vec<f64>,
    pub alive: Vec<usize>,
    pub config: &'a Config,
}

impl Reference<'_> {
    fn vocab(&self, without: Option<usize>) -> HashMap<String, usize> {
        self.alive
            .iter()
            .filter(|&&id| Some(id) != without)
            .map(|&id| (self.seeds[id].0.clone(), id))
            .collect()
    }

    fn loss(&self) -> f64 {
        let v = self.vocab(None);
        self.words
            .iter()
            .fold(0.0, |sum, (w, f)| sum - *f as f64 * best(w, &v, &self.logp))
    }

    /// One EM iteration; returns the pieces it drops.
    pub fn estimate(&mut self) -> Vec<String> {
        let v = self.vocab(None);
        // Every expected count as a list of logs, summed at the end: the
        // share of a piece no cut needs can be too small for a float.
        let mut expected: Vec<Vec<f64>> = vec![Vec::new(); self.seeds.len()];
        for (w, f) in self.words {
            let all = cuts(w, &v);
            let logs: Vec<f64> = all.iter().map(|c| cut_logp(c, &self.logp)).collect();
            let z = log_sum(&logs);
            for (c, l) in all.iter().zip(&logs) {
                for &id in c {
                    expected[id].push((*f as f64).ln() + l - z);
                }
            }
        }
        let logs: Vec<f64> = expected.iter().map(|e| log_sum(e)).collect();
        // sentencepiece's rule: a piece of two characters or more expected
        // fewer than half a time goes (counts compared in millionths, the
        // lowest first, then the later seed), never below the size asked.
        let key = |log: f64| (log.exp() * 1e6).round() as i64;
        let mut low: Vec<usize> = self
            .alive
            .iter()
            .copied()
            .filter(|&id| !self.is_char(id) && key(logs[id]) < 500_000)
            .collect();
        low.sort_by(|&a, &b| key(logs[a]).cmp(&key(logs[b])).then(b.cmp(&a)));
        let target = self.config.vocab_size - 1;
        low.truncate(self.alive.len().saturating_sub(target));
        self.alive.retain(|id| !low.contains(id));
        let total = log_sum(&self.alive.iter().map(|&id| logs[id]).collect::<Vec<_>>());
        for &id in &self.alive {
            self.logp[id] = logs[id] - total;
        }
        low.iter().map(|&id| self.seeds[id].0.clone()).collect()
    }

    fn is_char(&self, id: usize) -> bool {
        self.seeds[id].0.chars().count() == 1
    }

    fn scores(&self) -> Vec<(usize, f64)> {
        let v = self.vocab(None);
        let mut out = Vec::new();
        for &id in self.alive.iter().filter(|&&id| !self.is_char(id)) {
            let without = self.vocab(Some(id));
            let mut sum = 0.0;
            for (w, f) in self.words {
                let diff = best(w, &v, &self.logp) - best(w, &without, &self.logp);
                sum += *f as f64 * diff;
            }
            out.push((id, sum));
        }
        out
    }

    fn snapshot(&self, phase: &'static str) -> Step {
        let mut pieces: Vec<String> = self
            .alive
            .iter()
            .map(|&id| self.seeds[id].0.clone())
            .collect();
        pieces.sort();
        Step {
            phase,
            pieces,
            loss: self.loss(),
            scores: Vec::new(),
            removed: Vec::new(),
            dropped: Vec::new(),
        }
    }
}

/// Every step of a training, the seeding first.
pub fn train(text: &str, c: &Config) -> Vec<Step> {
    let words = words(text, c.space_mark);
    let seeds = seeds(&words, c);
    let total: u64 = seeds.iter().map(|s| s.1).sum();
    let logp = seeds
        .iter()
        .map(|s| (s.1 as f64 / total as f64).ln())
        .collect();
    let mut r = Reference {
        words: &words,
        alive: (0..seeds.len()).collect(),
        seeds,
        logp,
        config: c,
    };
    let mut steps = vec![r.snapshot("seeded")];
    if words.is_empty() {
        return steps;
    }
    let target = c.vocab_size - 1;
    loop {
        for _ in 0..c.em_iterations {
            let dropped = r.estimate();
            let mut estimated = r.snapshot("estimated");
            estimated.dropped = dropped;
            steps.push(estimated);
        }
        if r.alive.len() <= target || r.alive.iter().all(|&id| r.is_char(id)) {
            return steps;
        }
        let mut scores = r.scores();
        let mut scored = r.snapshot("scored");
        scored.scores = scores
            .iter()
            .map(|&(id, s)| (r.seeds[id].0.clone(), s))
            .collect();
        steps.push(scored);
        // Compared to a millionth of a nat, ties to the later seed.
        let key = |x: f64| (x * 1e6).round() as i64;
        scores.sort_by(|a, b| key(a.1).cmp(&key(b.1)).then(b.0.cmp(&a.0)));
        let keep = ((r.alive.len() as f64 * c.shrinking_factor).floor() as usize).max(target);
        let remove = r.alive.len().saturating_sub(keep).min(scores.len());
        let gone: Vec<usize> = scores[..remove].iter().map(|s| s.0).collect();
        r.alive.retain(|id| !gone.contains(id));
        let mut pruned = r.snapshot("pruned");
        pruned.removed = gone.iter().map(|&id| r.seeds[id].0.clone()).collect();
        steps.push(pruned);
    }
}
