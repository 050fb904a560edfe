// premath's join-check job, compiled unchanged from premath's source and run on bytes in memory.
//
// `include!` pastes premath's `crates/premath-cli/src/commands/harness_join_check.rs` into the
// module `premath` below; not one of its lines is edited. Its `run(input, json)` reads the input
// with `std::fs::read` and prints the report with `println!`. This crate is `#![no_std]` (it
// links the real standard library as `real_std`), so the `std` that premath's file names is the
// module `std` defined here: the real standard library, except that `std::fs::read` returns the
// bytes set by `set_input` (no file, no copy), and `println!` appends to a string that `take_report`
// returns. Everything else premath's file calls is the real thing.

use real_std::cell::{Cell, RefCell};
use real_std::string::String;

real_std::thread_local! {
    static INPUT: Cell<&'static [u8]> = const { Cell::new(&[]) };
    static REPORT: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Sets the bytes the next `run` reads as its input file.
pub fn set_input(bytes: &'static [u8]) {
    INPUT.with(|input| input.set(bytes));
}

/// Returns what `run` printed since the last call, and starts a new report.
pub fn take_report() -> String {
    REPORT.with(|report| real_std::mem::take(&mut *report.borrow_mut()))
}

#[doc(hidden)]
pub fn print_line(args: real_std::fmt::Arguments<'_>) {
    use real_std::fmt::Write;
    REPORT.with(|report| {
        let mut report = report.borrow_mut();
        report.write_fmt(args).expect("formatting into a String does not fail");
        report.push('\n');
    });
}

/// The standard library as premath's file sees it.
pub mod std {
    pub use real_std::{collections, path, process};

    pub mod fs {
        /// The input set by `set_input`, whatever the path: the bytes in memory, not copied.
        pub fn read<P: AsRef<real_std::path::Path>>(_path: P) -> real_std::io::Result<&'static [u8]> {
            Ok(super::super::INPUT.with(|input| input.get()))
        }
    }
}

pub mod premath {
    #[allow(unused_imports)]
    use real_std::prelude::rust_2024::*;
    #[allow(unused_imports)]
    use real_std::{eprintln, format, vec};

    use super::std;

    macro_rules! println {
        ($($arg:tt)*) => {
            $crate::job::print_line(format_args!($($arg)*))
        };
    }

    include!(concat!(env!("PREMATH_SRC"), "/crates/premath-cli/src/commands/harness_join_check.rs"));
}
