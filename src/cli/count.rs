//! `gosolve count legal WxH` and `gosolve count games WxH`: the library's
//! counters with timing, human or JSON output.

use super::common::parse_board;
use anyhow::Result;
use gosolve::count::games::{count_games, count_games_unlimited};
use gosolve::count::legal::{count_legal, count_legal_brute, CountError};
use gosolve::{Komi, Rules, Superko};
use std::time::Instant;

#[derive(clap::Args)]
pub struct CountArgs {
    #[command(subcommand)]
    pub what: CountWhat,
}

#[derive(clap::Subcommand)]
pub enum CountWhat {
    /// Legal positions: colourings in which every block has a liberty (empty board included).
    Legal(LegalArgs),
    /// Complete games from the empty board to two consecutive passes (Tromp's count;
    /// default: suicide allowed, positional superko).
    Games(GamesArgs),
}

#[derive(clap::Args)]
pub struct LegalArgs {
    /// Board size, WxH (columns x rows) or N.
    pub board: String,
    /// Enumerate all 3^n colourings instead of the border-state dynamic program (at most 20 points).
    #[arg(long)]
    pub brute: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Print nothing on stderr (counting shows no progress; accepted so that every subcommand takes it).
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(clap::Args)]
pub struct GamesArgs {
    /// Board size, WxH (columns x rows) or N.
    pub board: String,
    /// Rules: suicide is allowed by default here, as in Tromp's count
    /// (--no-suicide forbids it); komi does not change a count and is refused.
    #[command(flatten)]
    pub rules: super::common::RuleArgs,
    /// Try boards above the size limit (4 points; 3 under situational superko) anyway; may never finish.
    #[arg(long)]
    pub force: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Print nothing on stderr (counting shows no progress; accepted so that every subcommand takes it).
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(serde::Serialize)]
struct Report<'a> {
    board: String,
    kind: &'a str,
    count: u128,
    seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    method: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    suicide: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    superko: Option<&'a str>,
}

pub fn run(args: CountArgs) -> Result<()> {
    match args.what {
        CountWhat::Legal(a) => legal(a),
        CountWhat::Games(a) => games(a),
    }
}

/// A board the method refuses (too big to finish) is a usage error; an
/// overflow found while counting is not.
fn refused(e: CountError) -> anyhow::Error {
    match e {
        CountError::TooBig(_) => super::common::usage(e),
        e => e.into(),
    }
}

fn legal(a: LegalArgs) -> Result<()> {
    let geo = parse_board(&a.board)?;
    let t = Instant::now();
    let count = if a.brute { count_legal_brute(&geo) } else { count_legal(&geo) }.map_err(refused)?;
    let seconds = t.elapsed().as_secs_f64();
    let method = if a.brute { "brute force" } else { "border-state DP" };
    if a.json {
        let r = Report {
            board: geo.name(),
            kind: "legal",
            count,
            seconds,
            method: Some(if a.brute { "brute" } else { "dp" }),
            suicide: None,
            superko: None,
        };
        println!("{}", serde_json::to_string(&r)?);
    } else {
        let noun = if count == 1 { "legal position" } else { "legal positions" };
        println!("{}: {} {} ({}, {:.3} s)", geo.name(), thousands(count), noun, method, seconds);
    }
    Ok(())
}

fn games(a: GamesArgs) -> Result<()> {
    let geo = parse_board(&a.board)?;
    if a.rules.komi.is_some() {
        bail_usage!("--komi does not change the number of games; leave it out");
    }
    let rules = a.rules.over(Rules { suicide: true, superko: Superko::Positional, komi: Komi(0) });
    let superko = rules.superko;
    let t = Instant::now();
    let count =
        if a.force { count_games_unlimited(&geo, &rules) } else { count_games(&geo, &rules) }.map_err(refused)?;
    let seconds = t.elapsed().as_secs_f64();
    if a.json {
        let r = Report {
            board: geo.name(),
            kind: "games",
            count,
            seconds,
            method: None,
            suicide: Some(rules.suicide),
            superko: Some(superko.name()),
        };
        println!("{}", serde_json::to_string(&r)?);
    } else {
        println!(
            "{}: {} {} ({}, {} superko; {:.3} s)",
            geo.name(),
            thousands(count),
            if count == 1 { "complete game" } else { "complete games" },
            if rules.suicide { "suicide allowed" } else { "no suicide" },
            superko.name(),
            seconds
        );
    }
    Ok(())
}

/// `24318165` → `24,318,165`.
fn thousands(n: u128) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}
