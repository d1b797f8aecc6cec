//! `gosolve check`: solve every claim of the catalogue and print a table of
//! claimed against found answers. The loading, solving and comparing live in
//! [`gosolve::catalogue`]; this module only selects claims and prints.
//!
//! Exit status: 0 when no claim disagreed unexpectedly, 1 when some claim
//! disagreed, 2 when the catalogue could not be read or some check failed (as
//! `diff`, trouble wins over differences). Timeouts, skipped and unchecked
//! claims do not change it, nor do claims the catalogue records as refuted
//! (`refuted = "why"`, shown REFUTED) when the solver indeed disagrees.

use super::common::{parse_seconds, read_checkpoint, TableMbArg};
use anyhow::Result;
use gosolve::catalogue::{self, CheckOptions, CheckResult, Claim, Summary, Verdict};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args, Debug)]
#[command(after_help = "Exit status: 0 all checked claims agree (or are REFUTED as the catalogue records),\n\
    1 some claim DISAGREEs unexpectedly, 2 errors.\n\n\
    Examples:\n  \
    gosolve check\n  \
    gosolve check --only E02-perfect-play-nstt --only 2x2-value --json\n  \
    gosolve check --all --time-limit 600\n  \
    gosolve check --only 5x5-value --all --checkpoint 5x5.ck --table-mb 12288")]
pub struct CheckArgs {
    /// Print one JSON object (every result and a summary) instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Check only the claim with this id (repeatable).
    #[arg(long, value_name = "ID")]
    pub only: Vec<String>,
    /// Catalogue file (default: data/catalogue.toml when present here, else the built-in copy).
    #[arg(long, value_name = "FILE")]
    pub catalogue: Option<PathBuf>,
    /// Time limit of each claim's solve, in seconds (more than 0, at most 1e9).
    /// `--max-seconds` is its old name.
    #[arg(long, alias = "max-seconds", value_name = "SECONDS", default_value = "60", allow_hyphen_values = true, value_parser = parse_seconds)]
    pub time_limit: Duration,
    /// Also check the claims marked expensive.
    #[arg(long)]
    pub all: bool,
    /// A solve's checkpoint (`solve --checkpoint FILE`): the claims on its
    /// board and rules of play start from what it proved, in a table of
    /// --table-mb's size; read only, never written. The other claims get
    /// tables of --table-mb or the default size, whichever is smaller. E.g.
    /// the empty 5x5 board's +25 from the checkpoint of its proof
    /// (scripts/moonshot.sh).
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    #[command(flatten)]
    pub table: TableMbArg,
}

pub fn run(args: CheckArgs) -> Result<()> {
    let code = match run_inner(&args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("gosolve: error: {:#}", e);
            2
        }
    };
    std::io::stdout().flush().ok();
    if code != 0 {
        std::process::exit(code);
    }
    Ok(())
}

fn run_inner(args: &CheckArgs) -> Result<i32> {
    let table_mb = args.table.checked(1)?;
    let default_path = PathBuf::from("data/catalogue.toml");
    let (cat, origin) = match &args.catalogue {
        Some(p) => (catalogue::load_file(p)?, p.display().to_string()),
        None if default_path.is_file() => (catalogue::load_file(&default_path)?, default_path.display().to_string()),
        None => (catalogue::load(catalogue::BUILTIN)?, "built-in copy of data/catalogue.toml".to_string()),
    };
    let selected: Vec<&Claim> = if args.only.is_empty() {
        cat.claims.iter().collect()
    } else {
        let mut out = Vec::new();
        for id in &args.only {
            match cat.get(id) {
                Some(c) => {
                    if !out.iter().any(|o: &&Claim| o.id == c.id) {
                        out.push(c)
                    }
                }
                None => {
                    let near: Vec<&str> = cat
                        .claims
                        .iter()
                        .map(|c| c.id.as_str())
                        .filter(|c| c.to_ascii_lowercase().contains(&id.to_ascii_lowercase()))
                        .collect();
                    if near.is_empty() {
                        bail_usage!("no claim '{}' in {}", id, origin);
                    }
                    bail_usage!("no claim '{}' in {}; did you mean: {}", id, origin, near.join(", "));
                }
            }
        }
        out
    };
    // With a checkpoint, --table-mb sizes its table, which stays in memory
    // for the whole run; each claim it does not fit gets a table of its own
    // beside it, of --table-mb or the default size, whichever is smaller
    // (so that "--all" beside a 12 GiB checkpoint does not ask for twice
    // that), and the two must fit together.
    let (memory, claim_mb) = match &args.checkpoint {
        Some(path) => {
            let claim_mb = table_mb.min(gosolve::search::machine_table_mb_shared(1));
            gosolve::limits::check_table_memory_beside("--table-mb", table_mb, 1, claim_mb, "another claim's table")
                .map_err(|e| anyhow::anyhow!("{}", e))?;
            let memory = read_checkpoint(path, table_mb)?;
            (Some(memory), claim_mb)
        }
        None => (None, table_mb),
    };
    let opts = CheckOptions { run_expensive: args.all, time_limit: Some(args.time_limit), table_mb: claim_mb, memory };

    let results = if args.json {
        catalogue::check_all(&selected, &opts, |_| {})
    } else {
        println!("catalogue: {} ({} claims, {} selected)", origin, cat.claims.len(), selected.len());
        let widths = Widths::of(&selected);
        println!("{}", widths.header());
        let results = catalogue::check_all(&selected, &opts, |r| {
            println!("{}", widths.row(r));
            std::io::stdout().flush().ok();
        });
        print_details(&selected, &results);
        results
    };
    let summary = Summary::of(&results);
    if args.json {
        let j = serde_json::json!({
            "catalogue": origin,
            "results": results,
            "summary": summary,
            "exit_code": summary.exit_code(),
        });
        println!("{}", serde_json::to_string_pretty(&j)?);
    } else {
        println!();
        println!("{}", summary_line(&summary));
    }
    Ok(summary.exit_code())
}

/// Column widths of the table.
struct Widths {
    id: usize,
    kind: usize,
    board: usize,
    rules: usize,
    claimed: usize,
    found: usize,
}

const TRUNCATE: usize = 24;

/// The board column of a claim whose board the source does not give (its
/// diagram is not in the source as recorded: nothing to set up or solve).
const NO_BOARD: &str = "no diagram";

impl Widths {
    fn of(claims: &[&Claim]) -> Widths {
        let max = |f: &dyn Fn(&Claim) -> usize, min: usize| claims.iter().map(|c| f(c)).max().unwrap_or(0).max(min);
        Widths {
            id: max(&|c| c.id.len(), 5),
            kind: max(&|c| c.kind.name().len(), 4),
            board: max(&|c| c.board().map(|g| g.name().len()).unwrap_or(NO_BOARD.len()), 5),
            rules: max(&|c| c.rules.name().len(), 5),
            claimed: max(&|c| c.claimed_text.chars().count().min(TRUNCATE), 7),
            found: 17,
        }
    }
    fn header(&self) -> String {
        let h = format!(
            "{:<iw$}  {:<kw$}  {:<bw$}  {:<rw$}  {:<cw$}  {:<fw$}  {:>8}  result",
            "claim",
            "kind",
            "board",
            "rules",
            "claimed",
            "found",
            "time",
            iw = self.id,
            kw = self.kind,
            bw = self.board,
            rw = self.rules,
            cw = self.claimed,
            fw = self.found
        );
        let rule = "-".repeat(h.len() + 20);
        format!("{}\n{}", h, rule)
    }
    fn row(&self, r: &CheckResult) -> String {
        let time = match r.verdict {
            Verdict::Skipped | Verdict::NotChecked => "-".to_string(),
            _ => format!("{:.3}s", r.seconds),
        };
        format!(
            "{:<iw$}  {:<kw$}  {:<bw$}  {:<rw$}  {:<cw$}  {:<fw$}  {:>8}  {}",
            r.id,
            r.kind.name(),
            r.board.as_deref().unwrap_or(NO_BOARD),
            r.rules,
            cut(&r.claimed, TRUNCATE),
            cut(r.found.as_deref().unwrap_or("-"), 40),
            time,
            r.result_text(),
            iw = self.id,
            kw = self.kind,
            bw = self.board,
            rw = self.rules,
            cw = self.claimed,
            fw = self.found
        )
    }
}

fn cut(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n - 1).collect();
        t.push('…');
        t
    }
}

/// After the table: every disagreement with its refuting line, then the
/// remarks on rules that differ, timeouts and errors.
fn print_details(claims: &[&Claim], results: &[CheckResult]) {
    for (c, r) in claims.iter().zip(results) {
        let show = matches!(
            r.verdict,
            Verdict::Disagree | Verdict::Refuted | Verdict::Timeout | Verdict::Error | Verdict::Found
        ) || (r.published_rules.is_some() && matches!(r.verdict, Verdict::Agree));
        if !show {
            continue;
        }
        println!();
        println!("{} — {}: {}", r.id, r.verdict.name(), c.setup);
        println!("  source: {}{}", c.source, c.url.as_deref().map(|u| format!(" <{}>", u)).unwrap_or_default());
        if let Some(q) = &c.quote {
            println!("  text: \"{}\"", q);
        }
        if let Some(p) = &r.published_rules {
            println!(
                "  rules differ: the source computed under {}; found here under {} ({})",
                p,
                r.rules,
                c.rules.describe()
            );
        }
        match r.verdict {
            Verdict::Disagree | Verdict::Refuted => {
                if let Some(m) = &r.message {
                    println!("  {}", m);
                }
                println!("  claimed {}, found {}", r.claimed, r.found.as_deref().unwrap_or("-"));
                for l in &r.refutation {
                    println!("  {}", l);
                }
            }
            Verdict::Found => {
                println!("  found {} (the source gives no value)", r.found.as_deref().unwrap_or("-"));
                if !r.line.is_empty() {
                    println!("  perfect play: {}", r.line.join(" "));
                }
            }
            Verdict::Agree if !r.line.is_empty() => {
                println!("  perfect play: {}", r.line.join(" "))
            }
            _ => {
                if let Some(m) = &r.message {
                    println!("  {}", m);
                }
            }
        }
        for d in &r.detail {
            if matches!(r.verdict, Verdict::Disagree | Verdict::Refuted)
                && r.refutation.iter().any(|l| l.contains(d.as_str()))
            {
                continue;
            }
            println!("  {}", d);
        }
        if let Some(n) = &c.notes {
            println!("  note: {}", n);
        }
    }
}

fn summary_line(s: &Summary) -> String {
    let mut parts = vec![format!("{} agree", s.agree), format!("{} DISAGREE", s.disagree)];
    for (n, what) in [
        (s.refuted, "REFUTED (known to be wrong, as recorded)"),
        (s.found, "found (no claimed value)"),
        (s.timeout, "timeout"),
        (s.skipped, "skipped (expensive; run with --all)"),
        (s.not_checked, "not checked (the source shows no diagram of the position)"),
        (s.error, "error"),
    ] {
        if n > 0 {
            parts.push(format!("{} {}", n, what));
        }
    }
    format!("{} claims: {}", s.claims, parts.join(", "))
}
