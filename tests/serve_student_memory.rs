//! A student's memory budget in a served class, as the class sees it: a
//! student whose own work holds more than `--student-memory` is told so,
//! its own work stops and is let go, and the class goes on. The server runs
//! in this process, with the allocator that charges each session's large
//! blocks to its account.

mod ssh;

use ssh::{Class, Conn, Term, runtime};

#[global_allocator]
static ALLOCATOR: bpeek::memory_owner::OwningAllocator = bpeek::memory_owner::OwningAllocator;

/// About 3 MB of made-up words: one column of its own, counted, holds
/// more than the 10 MB budget of the test (about 14 MB).
fn corpus(dir: &std::path::Path) -> std::path::PathBuf {
    let syllables = ["ka", "to", "ri", "en", "sa", "mo", "lu", "the", "ing", "qu"];
    let mut seed = 1u64;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    };
    let words: Vec<String> = (0..20_000)
        .map(|_| {
            (0..1 + next(4))
                .map(|_| syllables[next(syllables.len())])
                .collect()
        })
        .collect();
    let mut text = String::new();
    while text.len() < 3_000_000 {
        for _ in 0..12 {
            text.push_str(&words[next(words.len())]);
            text.push(' ');
        }
        text.push_str(".\n");
    }
    let path = dir.join("words.txt");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_student_past_its_memory_budget_is_told_lets_its_columns_go_and_still_follows() {
    let dir = std::env::temp_dir().join(format!("bpeek-student-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let corpus = corpus(&dir);
    let class = Class::start_with(
        "student-memory",
        &[corpus.to_str().unwrap(), "--student-memory", "10MB"],
    );
    runtime().block_on(async {
        let teacher = Conn::login(class.port(), "teacher", Some(&class.token()))
            .await
            .unwrap();
        let mut teacher = teacher.terminal(100, 30).await;
        teacher
            .wait_for("the teacher's explorer", |t: &Term| {
                t.screen().contains("merge 0/")
            })
            .await;
        let student = Conn::login(class.port(), "student", None).await.unwrap();
        let mut student = student.terminal(100, 30).await;
        student
            .wait_for("the student's explorer", |t: &Term| {
                t.screen().contains("merge 0/")
            })
            .await;

        // Following the class costs the student nothing of its own.
        teacher.send(b"n").await;
        student
            .wait_for("the teacher's step", |t: &Term| {
                t.status_line().contains("merge 1/")
            })
            .await;
        assert!(!student.screen().contains("memory budget"));

        // A column of the student's own: a count of 3 MB and more.
        student.send(b"o").await;
        student.send(b"t").await;
        student
            .wait_for("the budget said", |t: &Term| {
                t.screen().contains("past your memory budget (")
                    && t.screen()
                        .contains(" of 10 MB): your own work stopped and let go")
            })
            .await;
        assert!(
            !student.screen().contains("the lists hold the same"),
            "the columns are let go:\n{}",
            student.screen()
        );

        // The class goes on, and the student follows it.
        teacher.send(b"n").await;
        teacher.send(b"n").await;
        student
            .wait_for("the teacher's steps", |t: &Term| {
                t.status_line().contains("merge 3/")
            })
            .await;
    });
    let _ = std::fs::remove_dir_all(&dir);
}
