//! `bpeek bench`: time training steps, stepping back and seeking on a large
//! corpus, and (in the modules below) encoding, the explorer and a served
//! class. Figures are printed, never asserted: machines are noisy.

#[cfg(feature = "classroom")]
pub(crate) mod class;
#[cfg(not(feature = "classroom"))]
pub(crate) mod class {
    //! `bench --serve` in a build without the classroom: refused.
    use bpeek_core::error::Result;

    pub fn run(_: &bpeek_tui::options::args::BenchArgs, _: usize) -> Result<()> {
        Err(crate::cli::left_out(
            "classroom",
            "the classroom (`bench --serve`)",
        ))
    }
}
pub(crate) mod encode;
pub mod explorer;
pub mod figures;
pub(crate) mod limits;
pub(crate) mod side_by_side;

use bpeek_core::error::Result;
use bpeek_core::formats::files::read_prefix;
use bpeek_core::{Pretok, TieRule, Trainer, TrainerConfig};
use bpeek_tui::options::args::BenchArgs;
use figures::put;
use std::time::{Duration, Instant};

pub fn run(args: &BenchArgs) -> Result<()> {
    if args.format == bpeek_tui::options::args::Format::Json {
        figures::as_json();
    }
    run_bench(args)?;
    figures::finish()
}

fn run_bench(args: &BenchArgs) -> Result<()> {
    if let Some(students) = args.serve {
        return class::run(args, students);
    }
    limits::check(args)?;
    let (pretok, tie) = (args.pretok, args.tie);
    let limit = args.megabytes * 1_000_000;
    let (source, mut text) = match &args.corpus {
        Some(p) => (p.display().to_string(), read_prefix(p, limit)?),
        None => man_pages(limit).unwrap_or_else(|| ("generated text".into(), generated(limit))),
    };
    text.truncate(limit);
    put(&["corpus", "source"], source.clone());
    put(
        &["corpus", "megabytes"],
        figures::round(text.len() as f64 / 1e6, 3),
    );
    if args.encode {
        crate::say!("corpus: {source}");
        return encode::run(&String::from_utf8_lossy(&text), 3);
    }
    if args.tui && !args.compare.is_empty() {
        let base = bpeek_tui::options::args::TrainingOptions {
            pretok: Some(pretok),
            tie,
            ..Default::default()
        };
        return side_by_side::run(&source, &text, &base, &args.compare, args.merges);
    }
    if args.tui {
        let config = TrainerConfig {
            pretok,
            tie,
            ..Default::default()
        };
        return explorer::run(&source, text, config, args.merges);
    }
    train_and_seek(&source, text, pretok, tie, args.merges)
}

/// Train on `text` to `merges` merges timing every step, then step back
/// and seek, and report each with the peak memory.
fn train_and_seek(
    source: &str,
    text: Vec<u8>,
    pretok: Pretok,
    tie: TieRule,
    merges: usize,
) -> Result<()> {
    let bytes = text.len();
    put(&["pretok"], pretok.to_string());
    put(&["tie"], tie.to_string());
    crate::say!(
        "corpus: {source}, {:.1} MB; pretok {pretok}, tie {tie}",
        bytes as f64 / 1e6
    );
    let config = TrainerConfig {
        pretok,
        tie,
        max_merges: Some(merges),
        ..Default::default()
    };
    let mut trainer = first_count(text, config)?;
    let n = time_steps(&mut trainer, merges)?;
    let backs = time_steps_back(&mut trainer, n)?;
    time_seeks(&mut trainer, n, backs)?;
    report_peak_memory(bytes)
}

/// Build the trainer (chunking and the first count), timed.
fn first_count(text: Vec<u8>, config: TrainerConfig) -> Result<Trainer> {
    let t = Instant::now();
    let trainer = Trainer::new(text, config)?;
    let build = t.elapsed();
    put(&["first_count", "ms"], figures::ms(build));
    put(&["first_count", "chunks"], trainer.corpus().chunks().len());
    put(
        &["first_count", "occurrences"],
        trainer.corpus().occurrences().len(),
    );
    put(&["first_count", "pairs"], trainer.pairs().len());
    crate::say!(
        "chunk + first count: {}  ({} distinct chunks, {} occurrences, {} pairs)",
        ms(build),
        trainer.corpus().chunks().len(),
        trainer.corpus().occurrences().len(),
        trainer.pairs().len()
    );
    Ok(trainer)
}

/// Step until the trainer stops, each step timed; the number of steps.
fn time_steps(trainer: &mut Trainer, merges: usize) -> Result<usize> {
    let mut steps = Vec::with_capacity(merges);
    loop {
        let t = Instant::now();
        if trainer.step().is_err() {
            break;
        }
        steps.push(t.elapsed());
    }
    let n = steps.len();
    report("step", "step", &mut steps)?;
    if !steps.is_empty() {
        let median = steps[steps.len() / 2].as_secs_f64() * 1000.0;
        let slowest = steps[steps.len() - 1].as_secs_f64() * 1000.0;
        put(&["step", "target_median_ms"], 1.0);
        put(&["step", "target_slowest_ms"], 16.0);
        crate::say!(
            "  against the targets: median {}, slowest {}",
            against(median, 1.0),
            against(slowest, 16.0)
        );
    }
    Ok(n)
}

/// Step back up to 200 of the `n` merges, each timed; how many.
fn time_steps_back(trainer: &mut Trainer, n: usize) -> Result<usize> {
    let mut backs = Vec::with_capacity(n);
    for _ in 0..n.min(200) {
        let t = Instant::now();
        trainer.undo();
        backs.push(t.elapsed());
    }
    report("step_back", "step back", &mut backs)?;
    Ok(backs.len())
}

/// Seek forward to `n` (from where stepping back left it), back to half
/// and back to 0, each timed.
fn time_seeks(trainer: &mut Trainer, n: usize, backs: usize) -> Result<()> {
    let t = Instant::now();
    trainer.seek(n);
    let forward = t.elapsed();
    let t = Instant::now();
    trainer.seek(n / 2);
    let half = t.elapsed();
    let t = Instant::now();
    trainer.seek(0);
    let zero = t.elapsed();
    put(&["seek", "from"], n.saturating_sub(backs));
    put(&["seek", "to"], n);
    put(&["seek", "forward_ms"], figures::ms(forward));
    put(&["seek", "back_to"], n / 2);
    put(&["seek", "back_ms"], figures::ms(half));
    put(&["seek", "back_to_0_ms"], figures::ms(zero));
    crate::say!(
        "seek: to {n} from {}: {}; back to {}: {}; back to 0: {}",
        n.saturating_sub(backs),
        ms(forward),
        n / 2,
        ms(half),
        ms(zero)
    );
    Ok(())
}

/// The process's peak memory against the target of 10x the corpus.
fn report_peak_memory(bytes: usize) -> Result<()> {
    let Some(kb) = peak_rss_kb() else {
        return Ok(());
    };
    let times = kb as f64 * 1000.0 / bytes.max(1) as f64;
    put(
        &["peak_memory", "mb"],
        figures::round(kb as f64 / 1000.0, 1),
    );
    put(&["peak_memory", "times_corpus"], figures::round(times, 2));
    put(&["peak_memory", "target_times_corpus"], 10.0);
    put(&["peak_memory", "met"], times < 10.0);
    let verdict = if times < 10.0 {
        "under the target of 10x"
    } else {
        "missed: the target is under 10x"
    };
    crate::say!(
        "peak memory: {:.1} MB ({times:.1}x the corpus; {verdict})",
        kb as f64 / 1000.0,
    );
    Ok(())
}

/// The times of `what` (figures under `key`): how many, median, p99,
/// slowest and total.
fn report(key: &str, what: &str, times: &mut [Duration]) -> Result<()> {
    put(&[key, "timed"], times.len());
    if times.is_empty() {
        crate::say!("{what}: none");
        return Ok(());
    }
    times.sort_unstable();
    let total: Duration = times.iter().sum();
    put(&[key, "median_ms"], figures::ms(times[times.len() / 2]));
    put(
        &[key, "p99_ms"],
        figures::ms(times[(times.len() * 99 / 100).min(times.len() - 1)]),
    );
    put(&[key, "slowest_ms"], figures::ms(times[times.len() - 1]));
    put(&[key, "total_ms"], figures::ms(total));
    crate::say!(
        "{what}: {} timed; median {}, p99 {}, slowest {}, total {}",
        times.len(),
        ms(times[times.len() / 2]),
        ms(times[(times.len() * 99 / 100).min(times.len() - 1)]),
        ms(times[times.len() - 1]),
        ms(total)
    );
    Ok(())
}

fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1000.0)
}

/// The system's man pages, decompressed, up to `limit` bytes.
fn man_pages(limit: usize) -> Option<(String, Vec<u8>)> {
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "zcat /usr/share/man/man1/*.gz 2>/dev/null | head -c {limit}"
        ))
        .output()
        .ok()?;
    (out.stdout.len() >= limit / 2).then(|| {
        (
            "man pages (zcat /usr/share/man/man1/*.gz)".into(),
            out.stdout,
        )
    })
}

/// English-like text made by shuffling the words of the bundled corpus.
fn generated(limit: usize) -> Vec<u8> {
    let words: Vec<&str> = bpeek_core::corpora::default_corpus()
        .text
        .split_whitespace()
        .collect();
    let mut out = Vec::with_capacity(limit);
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    while out.len() < limit {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        out.extend_from_slice(words[(seed % words.len() as u64) as usize].as_bytes());
        out.push(if seed.is_multiple_of(13) { b'\n' } else { b' ' });
    }
    out
}

/// Peak resident memory of this process, from /proc (Linux only).
fn peak_rss_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// How a time in milliseconds compares with a target, as a ratio.
fn against(ms: f64, target: f64) -> String {
    if ms <= target {
        format!("{:.1}x under {target} ms", target / ms.max(1e-6))
    } else {
        format!("{:.1}x over {target} ms", ms / target)
    }
}
