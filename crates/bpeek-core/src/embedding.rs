//! What a vocabulary costs a model: its embedding table and its output
//! head, each one row of `d_model` numbers per token. Counted untied (two
//! tables), the usual case for large models; a tied model pays half.

/// The largest model width `--d-model` takes: wider than any model
/// published (the widest are about 25,600), small enough that no product
/// overflows.
pub const MAX_D_MODEL: u32 = 1 << 16;

/// The parameters a vocabulary of `vocab` tokens costs a model of width
/// `d_model`: embedding table plus output head, untied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EmbeddingCost {
    pub vocab: u64,
    pub d_model: u32,
}

impl EmbeddingCost {
    pub fn new(vocab: usize, d_model: u32) -> Self {
        EmbeddingCost {
            vocab: vocab as u64,
            d_model,
        }
    }

    /// `2 x V x d`.
    pub fn params(self) -> u64 {
        2 * self.vocab * u64::from(self.d_model)
    }

    /// `vocab 50,257 x d 4,096 x 2 = 411.7M params`, with `times` as the
    /// multiplication sign (`x` where only ASCII is drawn).
    pub fn sum(self, times: &str) -> String {
        format!(
            "vocab {} {times} d {} {times} 2 = {} params",
            thousands(self.vocab),
            thousands(u64::from(self.d_model)),
            short_count(self.params())
        )
    }
}

/// `--d-model`: a whole number from 1 to [`MAX_D_MODEL`].
pub fn parse_d_model(s: &str) -> std::result::Result<u32, String> {
    let bound = format!("a model width from 1 to {MAX_D_MODEL} (e.g. 768, 4096)");
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("expected {bound}"));
    }
    match s.parse::<u64>() {
        Ok(d) if (1..=u64::from(MAX_D_MODEL)).contains(&d) => Ok(d as u32),
        _ => Err(format!("{s} is out of range: expected {bound}")),
    }
}

/// `50257` as `50,257`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A count in a few characters: `950`, `12.3k`, `411.7M`, `1.2B`.
pub fn short_count(n: u64) -> String {
    let scaled = |unit: f64, suffix: &str| format!("{:.1}{suffix}", n as f64 / unit);
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => scaled(1e3, "k"),
        1_000_000..1_000_000_000 => scaled(1e6, "M"),
        _ => scaled(1e9, "B"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gpt2s_vocabulary_at_width_4096_costs_411_7_million() {
        // 2 x 50257 x 4096 = 411,705,344, worked out by hand.
        let cost = EmbeddingCost::new(50_257, 4096);
        assert_eq!(cost.params(), 411_705_344);
        assert_eq!(cost.sum("x"), "vocab 50,257 x d 4,096 x 2 = 411.7M params");
    }

    #[test]
    fn counts_are_grouped_and_shortened() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(short_count(950), "950");
        assert_eq!(short_count(2_291_712), "2.3M");
        assert_eq!(short_count(12_300), "12.3k");
        assert_eq!(short_count(1_234_000_000), "1.2B");
    }

    #[test]
    fn the_width_is_a_whole_number_in_range() {
        assert_eq!(parse_d_model("4096"), Ok(4096));
        assert_eq!(parse_d_model("65536"), Ok(65536));
        for bad in [
            "0",
            "65537",
            "-1",
            "4k",
            "",
            "1e3",
            "99999999999999999999999",
        ] {
            let e = parse_d_model(bad).unwrap_err();
            assert!(e.contains("from 1 to 65536"), "{bad}: {e}");
        }
    }
}
