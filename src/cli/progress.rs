//! Progress display for long runs (solves, table builds, batches).
//!
//! On a terminal (stderr is a TTY) it draws indicatif bars; otherwise (CI,
//! pipes, redirected logs) it writes plain lines to stderr, at most one every
//! [`LINE_INTERVAL`], so logs stay readable. The choice is made once, with
//! [`std::io::IsTerminal`].
//!
//! Terminal code, so it lives in the command line: the library reports
//! progress as plain values (`search::Progress`, `tables::BuildProgress`,
//! the `batch::BatchObserver` calls) and never draws anything itself.

use gosolve::batch::{BatchObserver, JobRecord};
use gosolve::search::{ClaimSeen, Progress};
use gosolve::tables::BuildProgress;
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::HashMap;
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Least time between two plain progress lines.
pub const LINE_INTERVAL: Duration = Duration::from_secs(5);

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// indicatif bars on stderr.
    Bars,
    /// Plain periodic lines on stderr.
    Lines,
    /// Nothing.
    Quiet,
}

impl Mode {
    /// Bars when stderr is a terminal, plain lines otherwise.
    pub fn detect() -> Mode {
        if std::io::stderr().is_terminal() {
            Mode::Bars
        } else {
            Mode::Lines
        }
    }
}

/// `1234567` → `1.23M`.
pub fn human_count(n: f64) -> String {
    let a = n.abs();
    if a >= 1e9 {
        format!("{:.2}G", n / 1e9)
    } else if a >= 1e6 {
        format!("{:.2}M", n / 1e6)
    } else if a >= 1e4 {
        format!("{:.1}k", n / 1e3)
    } else {
        format!("{:.0}", n)
    }
}

/// Seconds as `42s`, `3m05s`, `2h07m`.
pub fn human_duration(secs: f64) -> String {
    if !secs.is_finite() {
        return "?".into();
    }
    let s = secs.max(0.0).round() as u64;
    if s < 60 {
        format!("{}s", s)
    } else if s < 3600 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{}h{:02}m", s / 3600, (s % 3600) / 60)
    }
}

/// Rate-limits plain lines.
struct Throttle {
    last: Mutex<Option<Instant>>,
}

impl Throttle {
    fn new() -> Throttle {
        Throttle { last: Mutex::new(None) }
    }
    /// True (and the clock restarts) when a line may be printed now.
    fn ready(&self) -> bool {
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        match *last {
            Some(t) if t.elapsed() < LINE_INTERVAL => false,
            _ => {
                *last = Some(Instant::now());
                true
            }
        }
    }
}

/// Progress of one table build: entries done / total, rate, ETA.
pub struct TableBuildProgress {
    label: String,
    mode: Mode,
    bar: Option<ProgressBar>,
    throttle: Throttle,
    /// The latest plain line not printed yet (throttled away), printed by
    /// [`TableBuildProgress::finish`] so a log ends on the final state, not on
    /// the first "0/114 entries … ETA ?" of a fast build.
    unprinted: Mutex<Option<String>>,
}

impl TableBuildProgress {
    pub fn new(label: &str, mode: Mode) -> TableBuildProgress {
        let bar = (mode == Mode::Bars).then(|| {
            let b = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
            b.set_style(
                ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} entries {msg}")
                    .expect("valid template")
                    .progress_chars("=> "),
            );
            b.set_prefix(label.to_string());
            b.enable_steady_tick(Duration::from_millis(500));
            b
        });
        TableBuildProgress {
            label: label.to_string(),
            mode,
            bar,
            throttle: Throttle::new(),
            unprinted: Mutex::new(None),
        }
    }

    fn describe(p: &BuildProgress) -> String {
        let fresh = (p.done - p.resumed.min(p.done)) as f64;
        let rate = fresh / p.seconds.max(1e-9);
        let eta = if rate > 0.0 { human_duration((p.total - p.done.min(p.total)) as f64 / rate) } else { "?".into() };
        format!(
            // The work list runs from the fullest positions to the empty
            // board, and the emptier are slower: the stones say where it is.
            "{:.1}%, {}/{} solves, at {} stones, {:.1} entries/s, elapsed {}, ETA {}{}{}",
            100.0 * p.done as f64 / (p.total.max(1)) as f64,
            p.solved,
            p.to_solve,
            p.stones,
            rate,
            human_duration(p.seconds),
            eta,
            if p.resumed > 0 { format!(", {} resumed", p.resumed) } else { String::new() },
            if p.in_flight > 0 && p.oldest_in_flight >= 10.0 {
                format!(", {} running (oldest {})", p.in_flight, human_duration(p.oldest_in_flight))
            } else {
                String::new()
            }
        )
    }

    /// Show a progress report.
    pub fn update(&self, p: &BuildProgress) {
        match self.mode {
            Mode::Bars => {
                if let Some(b) = &self.bar {
                    b.set_length(p.total);
                    b.set_position(p.done);
                    b.set_message(Self::describe(p));
                }
            }
            Mode::Lines => {
                let line = format!("{}: {}/{} entries, {}", self.label, p.done, p.total, Self::describe(p));
                let mut unprinted = self.unprinted.lock().unwrap_or_else(|e| e.into_inner());
                if self.throttle.ready() {
                    eprintln!("{}", line);
                    *unprinted = None;
                } else {
                    *unprinted = Some(line);
                }
            }
            Mode::Quiet => {}
        }
    }

    /// Remove the bar, or print the last plain line if it was held back (the
    /// caller prints the outcome).
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
        if let Some(line) = self.unprinted.lock().unwrap_or_else(|e| e.into_inner()).take() {
            eprintln!("{}", line);
        }
    }
}

/// The most open moves a claim's progress line names: near the end of a
/// long proof, the few moves it still waits for (an assembly along a line
/// picks its next line from them); before that, a count says enough.
const OPEN_NAMED: usize = 4;

/// What the progress line of a running claim says of its root moves (the
/// open ones named only when at most [`OPEN_NAMED`] are left).
/// A value-only solve's line names its test just before (`testing ≥ +6, `),
/// so there the count follows it as the test's: `decided after …`.
fn claim_text(c: &ClaimSeen, of_test: bool) -> String {
    let (k, n) = (c.decided, c.total);
    let what = if of_test { "decided" } else { "claim decided" };
    if c.open.is_empty() || c.open.len() > OPEN_NAMED {
        format!("{what} after {k}/{n} moves, ")
    } else {
        format!("{what} after {k}/{n} moves (open: {}), ", c.open.join(" "))
    }
}

/// Progress of one solve: root moves done, nodes, rate, depth, elapsed. Shown
/// only once the search has run long enough to report (about a million
/// nodes), so quick solves print nothing.
pub struct SolveProgress {
    label: String,
    mode: Mode,
    bar: Option<ProgressBar>,
    throttle: Throttle,
}

impl SolveProgress {
    pub fn new(label: &str, mode: Mode) -> SolveProgress {
        let bar = (mode == Mode::Bars).then(|| {
            let b = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            b.set_style(ProgressStyle::with_template("{spinner} {prefix} {msg}").expect("valid template"));
            b.set_prefix(label.to_string());
            b
        });
        SolveProgress { label: label.to_string(), mode, bar, throttle: Throttle::new() }
    }

    /// The line: `decided` is what a claim knows of its root moves (see
    /// [`ClaimSeen`]).
    fn describe(p: &Progress, decided: Option<&ClaimSeen>) -> String {
        // A value-only solve has no root moves to count.
        let moves = match (p.root_moves_total, decided) {
            (_, Some(c)) => claim_text(c, !p.value_tests.is_empty()),
            (0, None) => String::new(),
            (n, None) => format!("root move {}/{}, ", (p.root_moves_done + 1).min(n), n),
        };
        format!(
            "{}{}{} nodes ({}/s), depth {}, elapsed {}",
            value_text(p),
            moves,
            human_count(p.nodes as f64),
            human_count(p.nodes as f64 / p.seconds.max(1e-9)),
            p.max_depth,
            human_duration(p.seconds)
        )
    }

    /// Show a progress report (with a claim's decided moves, once known).
    pub fn update(&self, p: &Progress, decided: Option<&ClaimSeen>) {
        match self.mode {
            Mode::Bars => {
                if let Some(b) = &self.bar {
                    b.set_message(Self::describe(p, decided));
                    b.tick();
                }
            }
            Mode::Lines => {
                if self.throttle.ready() {
                    eprintln!("{}: {}", self.label, Self::describe(p, decided));
                }
            }
            Mode::Quiet => {}
        }
    }

    /// Remove the spinner (the caller prints the outcome).
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }

    /// Print a line on stderr without breaking the spinner (nothing when quiet).
    pub fn println(&self, line: &str) {
        match (&self.bar, self.mode) {
            (Some(b), _) if !b.is_finished() => b.println(line),
            (_, Mode::Quiet) => {}
            _ => eprintln!("{}", line),
        }
    }
}

/// Progress of a batch: an overall bar and one bar per running job.
pub struct BatchProgress {
    mode: Mode,
    multi: Option<MultiProgress>,
    overall: Option<ProgressBar>,
    jobs: Mutex<HashMap<String, ProgressBar>>,
    done: Mutex<(usize, usize)>,
    throttle: Throttle,
}

impl BatchProgress {
    /// `total` jobs in the manifest.
    pub fn new(total: usize, mode: Mode) -> BatchProgress {
        let (multi, overall) = if mode == Mode::Bars {
            let m = MultiProgress::with_draw_target(ProgressDrawTarget::stderr());
            let o = m.add(ProgressBar::new(total as u64));
            o.set_style(
                ProgressStyle::with_template("batch [{bar:30}] {pos}/{len} jobs, elapsed {elapsed} {msg}")
                    .expect("valid template")
                    .progress_chars("=> "),
            );
            o.enable_steady_tick(Duration::from_millis(500));
            (Some(m), Some(o))
        } else {
            (None, None)
        };
        BatchProgress {
            mode,
            multi,
            overall,
            jobs: Mutex::new(HashMap::new()),
            done: Mutex::new((0, total)),
            throttle: Throttle::new(),
        }
    }

    /// Print a line without breaking the bars.
    pub fn println(&self, line: &str) {
        match (&self.multi, self.mode) {
            (Some(m), _) => {
                let _ = m.println(line);
            }
            (None, Mode::Quiet) => {}
            (None, _) => eprintln!("{}", line),
        }
    }

    /// Remove the bars.
    pub fn finish(&self) {
        if let Some(o) = &self.overall {
            o.finish_and_clear();
        }
        if let Some(m) = &self.multi {
            let _ = m.clear();
        }
    }

    fn job_text(p: &Progress, claim: Option<&ClaimSeen>) -> String {
        let text = format!(
            "{}{}{} nodes, {} nodes/s, depth {}",
            value_text(p),
            claim.map(|c| claim_text(c, !p.value_tests.is_empty())).unwrap_or_default(),
            human_count(p.nodes as f64),
            human_count(p.nodes as f64 / p.seconds.max(1e-9)),
            p.max_depth
        );
        // A value-only job and a confirmation's check have no root moves to count.
        match p.root_moves_total {
            0 => text,
            total => format!("{text}, root moves {}/{total}", p.root_moves_done),
        }
    }
}

/// "value +1 to +18, testing ≥ +10, " for a value-only solve: the bounds
/// proved on its value so far (see [`Progress::value_bounds`]) and the
/// tests it runs now ([`Progress::value_tests`]), each where there are any.
fn value_text(p: &Progress) -> String {
    use gosolve::format::numbers::{bounds, tests};
    let proved = bounds(p.value_bounds.0, p.value_bounds.1).map(|b| format!("value {b}, ")).unwrap_or_default();
    match p.value_tests.is_empty() {
        true => proved,
        false => format!("{proved}testing {}, ", tests(&p.value_tests)),
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl BatchObserver for BatchProgress {
    fn note(&self, line: &str) {
        self.println(&format!("gosolve: {line}"));
    }

    fn job_started(&self, id: &str) {
        if let Some(m) = &self.multi {
            let b = m.add(ProgressBar::new_spinner());
            b.set_style(ProgressStyle::with_template("  {spinner} {prefix}: {elapsed} {msg}").expect("valid template"));
            b.set_prefix(id.to_string());
            b.enable_steady_tick(Duration::from_millis(250));
            lock(&self.jobs).insert(id.to_string(), b);
        }
    }

    fn job_progress(&self, id: &str, p: &Progress, claim: Option<&ClaimSeen>) {
        match self.mode {
            Mode::Bars => {
                if let Some(b) = lock(&self.jobs).get(id) {
                    b.set_message(Self::job_text(p, claim));
                }
            }
            Mode::Lines => {
                if self.throttle.ready() {
                    let (done, total) = *lock(&self.done);
                    eprintln!(
                        "batch {}/{} done; {}: {}, {}",
                        done,
                        total,
                        id,
                        Self::job_text(p, claim),
                        human_duration(p.seconds)
                    );
                }
            }
            Mode::Quiet => {}
        }
    }

    fn jobs_planned(&self, n: usize) {
        *lock(&self.done) = (0, n);
        if let Some(o) = &self.overall {
            o.set_length(n as u64);
            o.set_position(0);
        }
    }

    fn job_finished(&self, id: &str, record: &JobRecord, skipped: bool) {
        let (done, total) = {
            let mut d = lock(&self.done);
            d.0 += 1;
            *d
        };
        if let Some(b) = lock(&self.jobs).remove(id) {
            b.finish_and_clear();
            if let Some(m) = &self.multi {
                m.remove(&b);
            }
        }
        if let Some(o) = &self.overall {
            o.set_position(done as u64);
        }
        let what = if skipped { "skipped (already done)".to_string() } else { record.outcome_text() };
        self.println(&format!("[{}/{}] {}: {}", done, total, id, what));
    }
}

/// Progress of distributed units (a sharded table build): a bar of the
/// units answered, a line per retry and note.
pub struct UnitsProgress {
    mode: Mode,
    bar: Option<ProgressBar>,
    label: String,
    counts: Mutex<(usize, usize)>,
}

impl UnitsProgress {
    /// `total` units.
    pub fn new(label: &str, total: usize, mode: Mode) -> UnitsProgress {
        let bar = (mode == Mode::Bars).then(|| {
            let b = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
            b.set_style(
                ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} units, elapsed {elapsed} {msg}")
                    .expect("valid template")
                    .progress_chars("=> "),
            );
            b.set_prefix(label.to_string());
            b.enable_steady_tick(Duration::from_millis(500));
            b
        });
        UnitsProgress { mode, bar, label: label.to_string(), counts: Mutex::new((0, total)) }
    }

    fn println(&self, line: &str) {
        match (&self.bar, self.mode) {
            (Some(b), _) => b.println(line),
            (None, Mode::Quiet) => {}
            (None, _) => eprintln!("{}", line),
        }
    }

    /// Remove the bar.
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

impl gosolve::distributed::Observer for UnitsProgress {
    fn unit_started(&self, id: &str, attempt: u32) {
        if self.mode == Mode::Lines {
            eprintln!(
                "{}: {} started{}",
                self.label,
                id,
                if attempt > 1 { format!(" (run {attempt})") } else { String::new() }
            );
        }
    }

    fn unit_finished(&self, f: &gosolve::distributed::Finished) {
        let (done, total) = {
            let mut c = lock(&self.counts);
            c.0 += 1;
            *c
        };
        if let Some(b) = &self.bar {
            b.set_position(done as u64);
        }
        let how = if f.reused {
            "answered by an earlier run".to_string()
        } else {
            format!(
                "{}, {} nodes in {:.1} s on {}",
                f.answer.outcome.name(),
                human_count(f.answer.nodes as f64),
                f.answer.seconds,
                f.answer.host
            )
        };
        self.println(&format!("[{done}/{total}] {}: {how}", f.unit.id));
    }

    fn unit_retried(&self, id: &str, why: &str) {
        self.println(&format!("gosolve: {id}: {why}; running it again"));
    }

    fn note(&self, line: &str) {
        self.println(&format!("gosolve: {line}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn progress() -> Progress {
        Progress { nodes: 2_000_000, seconds: 4.0, max_depth: 30, ..Default::default() }
    }

    /// A claim's line counts the moves it is decided after, and names the
    /// open ones once at most four are left.
    #[test]
    fn a_claim_names_its_last_open_moves() {
        let open = |n: usize| (0..n).map(|i| format!("p{i}")).collect::<Vec<_>>();
        let many = ClaimSeen { decided: 2, total: 23, open: open(21) };
        let line = SolveProgress::describe(&progress(), Some(&many));
        assert!(line.starts_with("claim decided after 2/23 moves, 2.00M nodes"), "{line}");
        let few = ClaimSeen { decided: 21, total: 23, open: vec!["b3".into(), "d4".into()] };
        let line = SolveProgress::describe(&progress(), Some(&few));
        assert!(line.starts_with("claim decided after 21/23 moves (open: b3 d4), 2.00M nodes"), "{line}");
        assert!(SolveProgress::describe(&progress(), None).starts_with("2.00M nodes"));
        // A batch job's check says the same, after its id.
        let line = BatchProgress::job_text(&progress(), Some(&few));
        assert!(line.starts_with("claim decided after 21/23 moves (open: b3 d4), 2.00M nodes"), "{line}");
    }

    /// A value-only solve's line and a batch job's line lead with the
    /// bounds proved so far, once there are any.
    #[test]
    fn a_value_only_line_shows_its_bounds() {
        let p = Progress { value_bounds: (Some(1.0), Some(18.0)), ..progress() };
        let line = SolveProgress::describe(&p, None);
        assert!(line.starts_with("value +1 to +18, 2.00M nodes"), "{line}");
        let line = BatchProgress::job_text(&Progress { value_bounds: (Some(-0.5), None), ..progress() }, None);
        assert!(line.starts_with("value ≥ -0.5, 2.00M nodes"), "{line}");
        assert!(BatchProgress::job_text(&progress(), None).starts_with("2.00M nodes"));
    }

    /// The tests running are named after the bounds, and alone before the
    /// first bound (an hours-long first test says which it is).
    #[test]
    fn a_value_only_line_names_its_tests() {
        let p = Progress { value_tests: vec![24.0], ..progress() };
        let line = BatchProgress::job_text(&p, None);
        assert!(line.starts_with("testing ≥ +24, 2.00M nodes"), "{line}");
        let p = Progress { value_bounds: (Some(1.0), Some(18.0)), value_tests: vec![3.0, 18.0], ..progress() };
        let line = SolveProgress::describe(&p, None);
        assert!(line.starts_with("value +1 to +18, testing ≥ +3 and ≥ +18, 2.00M nodes"), "{line}");
    }
}
