//! What a pasted text costs in memory: a class server holds one encode box
//! per student, so a pasted megabyte must cost a few megabytes, not a
//! hundred. Heap bytes are counted by this test binary's allocator.

mod common;
mod heap;

use bpeek::tui::{Action, update};
use common::default_app;

#[global_allocator]
static ALLOCATOR: heap::Counting = heap::Counting;

/// Heap bytes per pasted byte that pasting `text` into `app`'s encode box
/// costs, once it is all encoded.
fn cost_of_paste(app: &mut bpeek::tui::App, text: &str) -> f64 {
    let before = heap::held();
    update(app, Action::StartEditing);
    update(app, Action::Paste(text.to_string()));
    update(app, Action::StopEditing);
    let mut parts = 0;
    while app.encode.encoding() {
        update(app, Action::EncodeMore);
        parts += 1;
        assert!(parts < 10_000);
    }
    (heap::held() - before) as f64 / text.len() as f64
}

fn a_megabyte_of_text() -> String {
    let line = "The baker's 12 loaves, 3.5 kg of flour; naïve café. Сегодня хлеб.\n";
    line.repeat(1_000_000 / line.len())
}

#[test]
fn a_pasted_megabyte_costs_a_few_megabytes_at_merge_zero() {
    let _alone = heap::alone();
    let mut app = default_app();
    update(&mut app, Action::Resize(80, 24));
    // Merge 0: one token per byte, the most tokens a text can have.
    let text = a_megabyte_of_text();
    let cost = cost_of_paste(&mut app, &text);
    assert_eq!(app.encode.tokens(), text.len(), "one token per byte");
    // The text itself, then per token 4 bytes of id, 4 of place (tokens
    // lie end to end, so an end says where each is) and a flag, and the
    // line index: about 10 bytes a byte. Places as ranges cost 16 more,
    // and each token's bytes kept beside it 80.
    eprintln!("a pasted byte costs {cost:.1} bytes at merge 0");
    assert!(cost < 12.0, "a pasted byte costs {cost:.1} bytes");
}

#[test]
fn a_pasted_megabyte_costs_a_few_times_its_size_under_a_real_tokenizer() {
    let _alone = heap::alone();
    let mut app = default_app();
    update(&mut app, Action::Resize(80, 24));
    while app.toks.selected_slot().label != "gpt2" {
        update(&mut app, Action::NextTokenizer);
    }
    for spec in app.toks.take_requests() {
        update(&mut app, Action::Loaded(common::loaded(&spec)));
    }
    let text = a_megabyte_of_text();
    let cost = cost_of_paste(&mut app, &text);
    let per_token = text.len() as f64 / app.encode.tokens() as f64;
    eprintln!("a pasted byte costs {cost:.1} bytes under gpt2 ({per_token:.1} bytes a token)");
    assert!(per_token > 2.0, "gpt2 makes tokens of several bytes");
    // The text, and 9 bytes a token: about 5 on this text of three
    // scripts, 3 on English prose.
    assert!(
        cost < 1.5 + 9.5 / per_token,
        "a pasted byte costs {cost:.1} bytes"
    );
}
