//! Ctrl-C and SIGTERM: one process-wide flag, installed on first use, that
//! the long commands (`solve`, `table build`, `batch`) hand to the library as
//! their abort flag. The library only reads the flag; catching the signal
//! is the command line's business.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// The flag Ctrl-C and SIGTERM set (installed on first use). A second
/// signal exits at once.
pub fn interrupt_flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let f = flag.clone();
        let installed = ctrlc::set_handler(move || {
            if f.swap(true, Ordering::SeqCst) {
                eprintln!("gosolve: interrupted again, exiting without saving");
                std::process::exit(130);
            }
            eprintln!("gosolve: interrupt: stopping and saving finished work (interrupt again to quit at once)");
        });
        if let Err(e) = installed {
            eprintln!("gosolve: warning: cannot handle interrupts ({}); an interrupt loses unsaved work", e);
        }
        flag
    })
    .clone()
}
