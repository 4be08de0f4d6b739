//! The status line in Unigram mode: the setup, the step and the phase of
//! its round (seeded, EM iteration i of n, scored, pruned), the pieces
//! against the size asked for, the loss and the corpus tokens.
//!
//! ```text
//!  unigram · seed 1000000 · shrink 0.75 │ step 5 │ round 1 EM 1/2 │ 813 → 99 pieces │ loss 4,681 │ 700 tok
//! ```

use crate::app::App;
use crate::app::unigram::UnigramView;
use bpeek_core::embedding::thousands;
use bpeek_core::train::unigram::{UnigramPhase, WordMarks};

/// The status items, each with its rank (0 = never dropped).
pub fn items(app: &App, u: &UnigramView) -> Vec<(usize, String)> {
    let t = &u.trainer;
    let c = t.config();
    let step = t.last_step();
    let mode = match c.marks {
        WordMarks::Space => "unigram",
        WordMarks::None => "unigram char",
    };
    let mut setup = format!(
        "{mode} shrink {} em {} max {}",
        c.shrinking_factor, c.em_iterations, c.max_piece_length
    );
    if c.byte_fallback {
        setup.push_str(" +bytes");
    }
    let phase = match (t.next_phase(), step.phase) {
        (Err(stop), _) => format!("stopped: {}", stop.code()),
        (_, UnigramPhase::Estimated { iteration }) => {
            format!("round {} EM {iteration}/{}", step.round, c.em_iterations)
        }
        (_, p) => format!("round {} {}", step.round, p.name()),
    };
    vec![
        (3, setup),
        (0, format!("step {}", t.step_count())),
        (0, phase),
        (
            1,
            format!(
                "{} {} {} pieces",
                step.pieces,
                app.theme.glyphs.arrow,
                c.learned_target()
            ),
        ),
        (
            2,
            format!("loss {}", thousands(step.loss.round().max(0.0) as u64)),
        ),
        (2, format!("{} tok", thousands(step.tokens))),
    ]
}
