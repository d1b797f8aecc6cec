//! gosolve against GNU Go over GTP, refereed under Tromp-Taylor (NSTT:
//! no suicide, positional superko, komi 0): 2x2 and 3x3 with gosolve as
//! Black and as White, 2x4 (GNU Go has no rectangular boards: recorded as
//! refused), and 4x4 with gosolve as Black under a time per move.
//!
//! Writes each game to `results/gtp/<board>-gosolve-<colour>.sgf`, gosolve's
//! stderr (what each genmove proved) next to it as `.log`, and the table to
//! `results/gtp.md`.
//!
//! ```sh
//! cargo bench --bench gtp_match                       # all games (4x4: 60 s a move)
//! cargo bench --bench gtp_match -- --4x4-time 120     # more time for 4x4
//! cargo bench --bench gtp_match -- --skip-4x4
//! ```

use gosolve::gtp::referee::{play_game, GtpClient};
use gosolve::{Geometry, Rules};
use std::fmt::Write as _;
use std::process::Stdio;
use std::time::Instant;

const BIN: &str = env!("CARGO_BIN_EXE_gosolve");

fn gnugo() -> Option<String> {
    gosolve::gtp::referee::find_gnugo()
}

/// The empty board's solved value (NSTT, komi 0): from results/batch where
/// the default batch solves it, 4x4 from results/parallel.md (+2, value only,
/// 16 cores).
fn solved_value(board: &str) -> f64 {
    if board == "4x4" {
        return 2.0;
    }
    let path = format!("{}/results/batch/{board}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["value_with_komi"].as_f64().unwrap()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut time_4x4 = 60.0;
    let mut skip_4x4 = false;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--4x4-time" => {
                time_4x4 = args.get(i + 1).and_then(|s| s.parse().ok()).expect("--4x4-time SECONDS");
                i += 1;
            }
            "--skip-4x4" => skip_4x4 = true,
            _ => {} // cargo bench passes --bench
        }
        i += 1;
    }
    let Some(gnugo) = gnugo() else {
        eprintln!("gtp_match: GNU Go is not installed (Debian: apt-get install gnugo; or GNUGO=/path): nothing to run");
        return;
    };
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = format!("{root}/results/gtp");
    std::fs::create_dir_all(&dir).unwrap();
    let peer_version = GtpClient::spawn("GNU Go", &gnugo, &["--mode", "gtp"])
        .map(|mut c| c.send("version").unwrap_or_default())
        .unwrap_or_default();
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_default();
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);

    let mut games: Vec<(&str, bool, f64)> = vec![
        ("2x2", true, 0.0),
        ("2x2", false, 0.0),
        ("3x3", true, 0.0),
        ("3x3", false, 0.0),
        ("2x4", true, 0.0),
        ("2x4", false, 0.0),
    ];
    if !skip_4x4 {
        games.push(("4x4", true, time_4x4));
    }
    let mut table = String::new();
    for (board, black, tpm) in games {
        let geo: Geometry = board.parse().unwrap();
        let target = solved_value(board);
        let colour = if black { "black" } else { "white" };
        let stem = format!("{dir}/{board}-gosolve-{colour}");
        let log = std::fs::File::create(format!("{stem}.log")).unwrap();
        let tpm_s = tpm.to_string();
        let mut me = GtpClient::spawn_with_stderr(
            "gosolve",
            BIN,
            &["gtp", "--time-per-move", &tpm_s, "--table-mb", "1024"],
            Stdio::from(log),
        )
        .unwrap();
        let mut peer = GtpClient::spawn("GNU Go", &gnugo, &["--mode", "gtp", "--chinese-rules"]).unwrap();
        let start = Instant::now();
        let (b, w) = if black { (&mut me, &mut peer) } else { (&mut peer, &mut me) };
        let limit = if tpm > 0.0 { format!("{tpm} s a move") } else { "none (solve to the end)".into() };
        match play_game(b, w, geo, Rules::default(), 400) {
            Ok(g) => {
                let secs = start.elapsed().as_secs_f64();
                let (bn, wn) = if black { ("gosolve", "GNU Go") } else { ("GNU Go", "gosolve") };
                std::fs::write(format!("{stem}.sgf"), g.sgf(bn, wn)).unwrap();
                let ok = if black { g.value >= target } else { g.value <= target };
                let moves: Vec<String> = g.game.moves.iter().map(|&(_, m)| m.name(&geo)).collect();
                println!(
                    "{board} gosolve {colour}: {:+} (solved {:+}) {} in {secs:.1} s: {}",
                    g.value,
                    target,
                    if ok { "ok" } else { "WORSE" },
                    moves.join(" ")
                );
                let _ = writeln!(
                    table,
                    "| {board} | {colour} | {limit} | {} | {:+} | {} | {} | {} | {secs:.1} | `{}` |",
                    gosolve::format::sgf::result_text(g.value),
                    target,
                    if ok { "yes" } else { "**no**" },
                    g.game.moves.len(),
                    if g.replaced.is_empty() {
                        "0".to_string()
                    } else {
                        g.replaced
                            .iter()
                            .map(|(n, who, what)| format!("move {n} {who}: {what}"))
                            .collect::<Vec<_>>()
                            .join("; ")
                    },
                    moves.join(" ")
                );
            }
            Err(e) => {
                println!("{board} gosolve {colour}: not played: {e}");
                let _ = std::fs::remove_file(format!("{stem}.log"));
                let _ = writeln!(table, "| {board} | {colour} | {limit} | not played: {e} | {:+} | | | | | |", target);
            }
        }
    }
    // Headed by date and version, as every entry in results/.
    let date = gosolve::process::utc_now();
    let date = date.get(..10).unwrap_or(&date);
    let version = env!("CARGO_PKG_VERSION");
    let md = format!(
        "# gosolve against GNU Go over GTP\n\n\
         ## {date}, gosolve {version}: matches against GNU Go {peer_version}\n\n\
         Command: `cargo bench --bench gtp_match` (`benches/gtp_match.rs`). Machine: {cores} cores ({cpu}),\n\
         shared with other jobs, so times are indicative only. Peer: GNU Go {peer_version} (`gnugo --mode gtp --chinese-rules`, level 10).\n\n\
         Referee (`gosolve::gtp::referee`): Tromp-Taylor, no suicide, positional superko, komi 0, empty board,\n\
         Black first; each engine answers `reg_genmove`, the referee checks the move against the game\n\
         (an illegal proposal or a resignation is played as a pass and counted in *replaced*), and sends\n\
         it to both engines; the game ends at two passes and is scored by area. gosolve runs with\n\
         `gosolve gtp --time-per-move T --table-mb 1024` (all cores). \"Solved\" is the empty board's\n\
         perfect-play value (results/batch/*.json; 4x4 from results/parallel.md); \"not worse\" means\n\
         the result is at least that for gosolve as Black, at most that as White.\n\n\
         | board | gosolve | time limit | result | solved | not worse | moves | replaced | seconds | game |\n\
         |---|---|---|---|---|---|---|---|---|---|\n{table}\n\
         Games: `results/gtp/<board>-gosolve-<colour>.sgf`; gosolve's stderr (each genmove's exact value\n\
         and principal variation, or the bounds it proved when the time ran out) in the `.log` beside it.\n"
    );
    std::fs::write(format!("{root}/results/gtp.md"), md).unwrap();
    println!("wrote results/gtp.md");
}
