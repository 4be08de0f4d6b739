//! Small SentencePiece models for the tests: a few characters, pieces of
//! up to five of them with scores drawn from a handful of values (so that
//! ties happen), and now and then an unused piece, a user-defined symbol,
//! a missing character and byte fallback.

use crate::models::spm::{Algorithm, ModelSpec, NormalizerSpec, Piece, PieceType, SpmModel};

/// splitmix64, so that a failing seed can be run again.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

pub fn piece(text: &str, score: f32, kind: PieceType) -> Piece {
    Piece {
        text: text.as_bytes().to_vec(),
        score,
        kind,
    }
}

/// A model of these pieces, with the defaults of a `.model` file.
pub fn model_of(pieces: Vec<Piece>, algorithm: Algorithm) -> SpmModel {
    let byte_fallback = pieces.iter().any(|p| p.kind == PieceType::Byte);
    SpmModel::new(ModelSpec {
        pieces,
        algorithm,
        byte_fallback,
        split_digits: false,
        treat_whitespace_as_suffix: false,
        unk_surface: None,
        normalizer: NormalizerSpec::default(),
    })
    .unwrap()
}

pub const CHARS: [&str; 6] = ["a", "b", "c", "d", "\u{2581}", "é"];

/// A random text of up to `most` characters of [`CHARS`].
pub fn random_text(rng: &mut Rng, least: usize, most: usize) -> String {
    let n = least + rng.below(most - least + 1);
    (0..n).map(|_| CHARS[rng.below(CHARS.len())]).collect()
}

pub fn random_model(rng: &mut Rng, algorithm: Algorithm) -> SpmModel {
    let mut pieces = vec![
        piece("<unk>", 0.0, PieceType::Unknown),
        piece("<s>", 0.0, PieceType::Control),
    ];
    let score = |rng: &mut Rng| match algorithm {
        Algorithm::Bpe => -(rng.below(6) as f32),
        Algorithm::Unigram => -(rng.below(40) as f32) / 4.0 - 0.5,
    };
    let mut texts = std::collections::HashSet::new();
    for c in CHARS {
        if rng.below(8) != 0 {
            texts.insert(c.to_string());
            let s = score(rng) - 4.0;
            pieces.push(piece(c, s, PieceType::Normal));
        }
    }
    let user = rng.below(5) == 0;
    for k in 0..4 + rng.below(14) {
        let text = random_text(rng, 2, 5);
        if !texts.insert(text.clone()) {
            continue;
        }
        let kind = if user && k == 0 {
            PieceType::UserDefined
        } else if rng.below(10) == 0 {
            PieceType::Unused
        } else {
            PieceType::Normal
        };
        let s = score(rng);
        pieces.push(piece(&text, s, kind));
    }
    if rng.below(3) == 0 {
        for b in 0..=255u8 {
            pieces.push(piece(&format!("<0x{b:02X}>"), 0.0, PieceType::Byte));
        }
    }
    let model = model_of(pieces, algorithm);
    if algorithm == Algorithm::Unigram && rng.below(3) == 0 {
        // Hugging Face's sums, in double precision.
        let exact = model
            .pieces
            .iter()
            .map(|p| p.score as f64 + rng.below(100) as f64 * 1e-9)
            .collect();
        return model.with_exact_scores(exact);
    }
    model
}
