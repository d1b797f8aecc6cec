//! Property tests: the command line's numeric options and the SGF reader
//! never panic or abort on any input; they answer or give one-line errors
//! (exit 1 or 2, never 101 or 134).

use proptest::prelude::*;

#[path = "support/cli.rs"]
mod cli;

/// Numbers and near-numbers: what a user (or a script) might type.
fn numberish() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<f64>().prop_map(|f| f.to_string()),
        any::<i64>().prop_map(|i| i.to_string()),
        any::<u64>().prop_map(|i| i.to_string()),
        Just("NaN".to_string()),
        Just("inf".to_string()),
        Just("-inf".to_string()),
        Just("1e30".to_string()),
        Just("-0".to_string()),
        "[-+.0-9eE]{0,12}",
        // Any text but NUL, which no argv can carry (Command refuses it).
        "[^\\x00]{0,8}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn numeric_options_never_panic(flag in prop::sample::select(vec!["--time-limit", "--node-limit", "--table-mb", "--komi", "--threads"]), value in numberish()) {
        // A 1x1 board solves instantly whatever limits are accepted.
        let arg = format!("{flag}={value}");
        let out = cli::gosolve(&["solve", "1x1", &arg, "-q"]);
        let code = out.status.code();
        let stderr = String::from_utf8_lossy(&out.stderr);
        prop_assert!(matches!(code, Some(0) | Some(1) | Some(2)), "{arg}: {:?} {stderr}", out.status);
        prop_assert!(!stderr.contains("panicked"), "{arg}: {stderr}");
        if code != Some(0) {
            prop_assert_eq!(stderr.lines().count(), 1, "{}: {}", arg, stderr);
        }
    }

    #[test]
    fn sgf_reader_never_panics_on_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = gosolve::format::sgf::read_game(&text);
    }

    #[test]
    fn sgf_reader_never_panics_on_mutations(pos in 0usize..80, byte in any::<u8>(), cut in 0usize..80) {
        let base = "(;GM[1]FF[4]SZ[3:2]RU[TT]KM[0.5]AB[ba][bb]AW[aa]PL[W];W[ab];B[];W[ca](;B[cb])(;B[]))";
        let mut b = base.as_bytes().to_vec();
        let p = pos % b.len();
        b[p] = byte;
        b.truncate(cut.max(1).min(b.len()));
        let text = String::from_utf8_lossy(&b);
        if let Ok(g) = gosolve::format::sgf::read_game(&text) {
            let _ = g.to_game(None);
        }
    }
}
