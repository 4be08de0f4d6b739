//! The `bpeek` program: parses the command line, runs the command and prints
//! an error as one line with its exit code.

use bpeek::cli::{self, Cli};
use bpeek::memory_owner;
use clap::Parser;
use clap::error::ErrorKind;
use std::alloc::{GlobalAlloc, Layout};

/// Looks at standard input before the Rust runtime replaces a closed one
/// with `/dev/null` (ELF start-up hooks run before `main`'s runtime set-up).
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static NOTE_CLOSED_STDIN: extern "C" fn() = note_closed_stdin;

#[cfg(target_os = "linux")]
extern "C" fn note_closed_stdin() {
    // SAFETY: F_GETFD only asks whether descriptor 0 is open.
    if unsafe { libc::fcntl(0, libc::F_GETFD) } == -1 {
        bpeek::cli::input::STDIN_CLOSED_AT_START.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// The system's allocator, with the heap counted against the memory
/// budget ([`bpeek::memory_budget`]): a request the budget or the system
/// cannot meet ends the program with a clear error (and the terminal and
/// files as they were) instead of Rust's abort or the kernel's OOM killer:
/// a corpus or text too big for the memory there is, is bad input like any
/// other. Large blocks are also charged to the account of the thread that
/// makes them ([`bpeek::memory_owner`]: a served student's budget).
struct ReportingAllocator;

use bpeek::memory_budget::{SMALL_REQUEST, give_back, take};

// SAFETY: every call goes to the system allocator through the owner
// accounts, which keep the layout's size and alignment; the counting only
// reads the sizes, and a null answer or a refused request ends the process.
unsafe impl GlobalAlloc for ReportingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !take(layout.size()) {
            out_of_memory(layout.size(), true);
        }
        let p = unsafe { memory_owner::alloc(layout, false) };
        if p.is_null() {
            out_of_memory(layout.size(), false);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !take(layout.size()) {
            out_of_memory(layout.size(), true);
        }
        let p = unsafe { memory_owner::alloc(layout, true) };
        if p.is_null() {
            out_of_memory(layout.size(), false);
        }
        p
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let old = layout.size();
        if new_size > old && !take(new_size - old) {
            out_of_memory(new_size, true);
        }
        let p = unsafe { memory_owner::realloc(ptr, layout, new_size) };
        if p.is_null() {
            out_of_memory(new_size, false);
        }
        if new_size < old {
            give_back(old - new_size);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        give_back(layout.size());
        unsafe { memory_owner::dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: ReportingAllocator = ReportingAllocator;

/// `n` in decimal, written into `buf` without allocating.
fn decimal(mut n: u64, buf: &mut [u8; 20]) -> &[u8] {
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return &buf[at..];
        }
    }
}

#[cold]
fn out_of_memory(size: usize, over_budget: bool) -> ! {
    if size >= SMALL_REQUEST {
        bpeek::tui::terminal::mode::restore_if_entered();
        bpeek::bpe::formats::atomic::remove_temporaries();
    }
    // Written without allocating: the message must get out even when
    // nothing more can be had.
    let (mut a, mut b) = ([0u8; 20], [0u8; 20]);
    let more = decimal(size.div_ceil(1 << 20).max(1) as u64, &mut a);
    let budget = bpeek::memory_budget::budget().unwrap_or(0) >> 20;
    let budget = decimal(budget as u64, &mut b);
    let parts: [&[u8]; 5] = if over_budget {
        [
            b"bpeek: out of memory: ",
            more,
            b" MB more would pass the memory budget of ",
            budget,
            b" MB (BPEEK_MAX_MEMORY, or the memory available at start); try a smaller input\n",
        ]
    } else {
        [
            b"bpeek: out of memory: ",
            more,
            b" MB more could not be had; try a smaller input, or a machine with more memory\n",
            b"",
            b"",
        ]
    };
    for part in parts {
        // SAFETY: writes a valid buffer to stderr.
        unsafe { libc::write(2, part.as_ptr().cast(), part.len()) };
    }
    // SAFETY: ends the process at once; nothing else is to run.
    unsafe { libc::_exit(1) }
}

fn main() {
    bpeek::error::install_panic_hook();
    if let Err(e) = bpeek::memory_budget::set_from_environment() {
        bpeek::tell!("bpeek: {e}");
        std::process::exit(e.exit_code());
    }
    let args = Cli::try_parse().unwrap_or_else(|e| usage_error(e));
    if args.command.is_none()
        && let Some(corpus) = args.explorer.training.corpus.as_deref()
    {
        refuse_misspelled_command(corpus);
    }
    let command = args.command.unwrap_or(cli::Command::Tui(args.explorer));
    if let Err(e) = cli::run(command) {
        bpeek::tell!("bpeek: {e}");
        std::process::exit(e.exit_code());
    }
}

/// `bpeek trian` reads as the explorer on a corpus file `trian`: where no
/// such file exists and the word is a command's name misspelled, say so as
/// the usage error it is.
fn refuse_misspelled_command(corpus: &str) {
    use clap::CommandFactory;
    if corpus == "-" || std::path::Path::new(corpus).exists() || corpus.contains(['/', '.']) {
        return;
    }
    let cli = Cli::command();
    let near = cli
        .get_subcommands()
        .map(|c| c.get_name())
        .filter(|name| edit_distance(name, corpus) <= 2)
        .min_by_key(|name| edit_distance(name, corpus));
    if let Some(name) = near {
        bpeek::tell!(
            "bpeek: unrecognized command '{corpus}' (and no file of that name); a similar command exists: '{name}'"
        );
        bpeek::tell!("For more information, try '--help'.");
        std::process::exit(2);
    }
}

/// Levenshtein distance, for names a few letters long.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

/// Help and version go out as clap writes them; a usage error is told like
/// every other error (`bpeek: ...`), in a few lines, with exit code 2.
fn usage_error(e: clap::Error) -> ! {
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        e.exit()
    }
    // A name the engine refused: its own message, on one line, as the
    // errors found after parsing are.
    if e.kind() == ErrorKind::ValueValidation
        && let Some(source) = std::error::Error::source(&e)
    {
        let option = match e.get(clap::error::ContextKind::InvalidArg) {
            Some(clap::error::ContextValue::String(arg)) => {
                arg.split(' ').next().unwrap_or("").to_string()
            }
            _ => String::new(),
        };
        let source = source.to_string();
        let value = match e.get(clap::error::ContextKind::InvalidValue) {
            Some(clap::error::ContextValue::String(v)) => bpeek::error::quoted(v),
            _ => String::new(),
        };
        if value.is_empty() || source.contains(&value) {
            bpeek::tell!("bpeek: {option}: {source}");
        } else {
            bpeek::tell!("bpeek: {option} {value}: {source}");
        }
        std::process::exit(2)
    }
    bpeek::tell!("{}", usage_message(&e.render().to_string()).trim_end());
    std::process::exit(2)
}

/// clap's message, shortened: the error on one line (required arguments
/// named in it), a similar name if clap found one, the usage line and where
/// to read more. Tips to put `--` before a value are left out: the options
/// that take numbers read negative ones and say what they expect instead.
fn usage_message(rendered: &str) -> String {
    let mut lines = rendered.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("bad usage");
    let mut message = first.strip_prefix("error: ").unwrap_or(first).to_string();
    let mut rest = Vec::new();
    for line in lines {
        if line.starts_with("Usage:") || line.starts_with("For more information") {
            rest.push(line.to_string());
        } else if let Some(tip) = line.strip_prefix("tip: ") {
            if !tip.contains("use '--") {
                rest.insert(0, tip.to_string());
            }
        } else if !line.starts_with("tip:") {
            // Further lines of the error itself, such as the missing arguments.
            message.push(' ');
            message.push_str(line);
        }
    }
    let mut out = format!("bpeek: {message}\n");
    for line in rest {
        out.push_str(&line);
        out.push('\n');
    }
    out
}
