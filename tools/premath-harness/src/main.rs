// premath-harness: premath's join-check job in process, timed the way scripts/bench/solo-job.mjs
// times turngate's, so that `npm run bench` can compare the two jobs and not two processes.
//
//   premath-harness --report FILE
//       prints premath's `harness-join-check --json` report for FILE (to check it against ours)
//   premath-harness [--warm-ms 300] [--batch-ms 50] [--measure-ms 600] FILE...
//       per FILE, one JSON line: {"file", "jobs", "wall", "cpu"}: per-job wall and CPU medians over
//       batches (milliseconds). CPU is the process's CPU time (CLOCK_PROCESS_CPUTIME_ID: every
//       thread, user + system).
//
// Every file is read into memory once before any timing; a job is premath's unchanged
// `harness_join_check::run(path, true)` on those bytes, returning the report text (src/job.rs).
#![no_std]

extern crate std as real_std;

mod job;

use real_std::prelude::rust_2024::*;
use real_std::hint::black_box;
use real_std::time::Instant;
use real_std::{eprintln, format, println, vec};

#[repr(C)]
struct Timespec {
    tv_sec: i64,
    tv_nsec: i64,
}

unsafe extern "C" {
    fn clock_gettime(clock: i32, time: *mut Timespec) -> i32;
}

const CLOCK_PROCESS_CPUTIME_ID: i32 = 2;

/// The process's CPU time in milliseconds.
fn cpu_ms() -> f64 {
    let mut t = Timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec; the clock id is Linux's process CPU-time clock.
    let rc = unsafe { clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_PROCESS_CPUTIME_ID) failed");
    t.tv_sec as f64 * 1e3 + t.tv_nsec as f64 / 1e6
}

/// One job: premath's `run` on `bytes`, returning the report it printed.
fn job(bytes: &'static [u8]) -> String {
    job::set_input(bytes);
    job::premath::run(String::from("<memory>"), true);
    job::take_report()
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(|a, b| a.total_cmp(b));
    values[values.len() / 2]
}

fn json_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn usage(message: &str) -> ! {
    eprintln!("premath-harness: {message}");
    eprintln!(
        "usage: premath-harness --report FILE | premath-harness [--warm-ms N] [--batch-ms N] [--measure-ms N] FILE..."
    );
    real_std::process::exit(2);
}

fn read(path: &str) -> &'static [u8] {
    match real_std::fs::read(path) {
        Ok(bytes) => Box::leak(bytes.into_boxed_slice()),
        Err(err) => usage(&format!("cannot read {path}: {err}")),
    }
}

fn main() {
    let mut args = real_std::env::args().skip(1);
    let mut warm_ms = 300.0;
    let mut batch_ms = 50.0;
    let mut measure_ms = 600.0;
    let mut files = vec![];
    while let Some(arg) = args.next() {
        let mut number = |name: &str| -> f64 {
            let value = args.next().unwrap_or_else(|| usage(&format!("{name}: expected a number")));
            value.parse().unwrap_or_else(|_| usage(&format!("{name}: expected a number, got {value}")))
        };
        match arg.as_str() {
            "--report" => {
                let path = args.next().unwrap_or_else(|| usage("--report: expected a file"));
                let report = job(read(&path));
                real_std::print!("{report}");
                return;
            }
            "--warm-ms" => warm_ms = number("--warm-ms"),
            "--batch-ms" => batch_ms = number("--batch-ms"),
            "--measure-ms" => measure_ms = number("--measure-ms"),
            _ if arg.starts_with("--") => usage(&format!("unknown option {arg}")),
            _ => files.push(arg),
        }
    }
    if files.is_empty() {
        usage("no input file");
    }
    let inputs: Vec<(String, &'static [u8])> = files.into_iter().map(|f| { let b = read(&f); (f, b) }).collect();
    for (file, bytes) in inputs {
        black_box(job(bytes));
        let warm_start = Instant::now();
        let mut warm = 1;
        while warm_start.elapsed().as_secs_f64() * 1e3 < warm_ms || warm < 2 {
            black_box(job(bytes));
            warm += 1;
        }
        let mut wall = vec![];
        let mut cpu = vec![];
        let mut jobs_total = 0;
        let measure_start = Instant::now();
        while measure_start.elapsed().as_secs_f64() * 1e3 < measure_ms || wall.len() < 3 {
            let cpu_start = cpu_ms();
            let start = Instant::now();
            let mut jobs = 0;
            while start.elapsed().as_secs_f64() * 1e3 < batch_ms || jobs < 1 {
                black_box(job(bytes));
                jobs += 1;
            }
            let elapsed = start.elapsed().as_secs_f64() * 1e3;
            let used = cpu_ms() - cpu_start;
            wall.push(elapsed / jobs as f64);
            cpu.push(used / jobs as f64);
            jobs_total += jobs;
        }
        println!(
            "{{\"file\":{},\"jobs\":{},\"wall\":{},\"cpu\":{}}}",
            json_string(&file),
            jobs_total,
            median(wall),
            median(cpu)
        );
    }
}
