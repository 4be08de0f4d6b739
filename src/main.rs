use bpeek::cli::{self, Cli};
use clap::Parser;
use clap::error::ErrorKind;
use std::alloc::{GlobalAlloc, Layout, System};

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

/// The system's allocator, except that a request it cannot meet ends the
/// program with a clear error (and the terminal and files as they were)
/// instead of Rust's abort: a corpus or text too big for the memory there
/// is, is bad input like any other.
struct ReportingAllocator;

/// Requests at least this big fail while small ones still succeed, so
/// the terminal can be put back and temporary files removed the usual way.
const BIG_REQUEST: usize = 1 << 16;

// SAFETY: every call goes to the system allocator unchanged; only a null
// answer is turned into the end of the process.
unsafe impl GlobalAlloc for ReportingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if p.is_null() {
            out_of_memory(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if p.is_null() {
            out_of_memory(layout.size());
        }
        p
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if p.is_null() {
            out_of_memory(new_size);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: ReportingAllocator = ReportingAllocator;

#[cold]
fn out_of_memory(size: usize) -> ! {
    if size >= BIG_REQUEST {
        bpeek::tui::terminal::mode::restore_if_entered();
        bpeek::bpe::io::atomic::remove_temporaries();
    }
    // Written without allocating: the message must get out even when
    // nothing more can be had.
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut mb = size.div_ceil(1 << 20).max(1);
    while mb > 0 || at == digits.len() {
        at -= 1;
        digits[at] = b'0' + (mb % 10) as u8;
        mb /= 10;
    }
    let parts: [&[u8]; 3] = [
        b"bpeek: out of memory: ",
        &digits[at..],
        b" MB more could not be had; try a smaller input, or a machine with more memory\n",
    ];
    for part in parts {
        // SAFETY: writes a valid buffer to stderr.
        unsafe { libc::write(2, part.as_ptr().cast(), part.len()) };
    }
    // SAFETY: ends the process at once; nothing else is to run.
    unsafe { libc::_exit(1) }
}

fn main() {
    bpeek::error::install_panic_hook();
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
