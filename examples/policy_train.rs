//! Count the 3x3 patterns of proving moves in a checkpoint and write the
//! ranks `src/search/policy.rs` reads (see its documentation):
//!
//! ```text
//! cargo run --release --example policy_train -- CHECKPOINT[,CHECKPOINT...] OUT.bin [TABLE_MB]
//! ```
//!
//! Several checkpoints, separated by commas, are counted together (of one
//! board, or of several: the codes do not name the board). Every sixteenth
//! position (by a hash of it) is held out of the counts and used to report
//! how often the scores rank the proving move first, and how often each
//! prior built into this binary does.

use gosolve::rules::geometry::Geometry;
use gosolve::rules::position::{Color, Position};
use gosolve::search::ordering::policy::{self, captures, Patterns, Prior, CODES};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        return Err("usage: policy_train CHECKPOINT[,CHECKPOINT...] OUT [TABLE_MB]".into());
    }
    let table_mb = args.get(3).map(|s| s.parse()).transpose()?.unwrap_or(12288);
    let (mut wins, mut trials) = (vec![0u64; CODES], vec![0u64; CODES]);
    // Held-out positions, each with the index of its board in `boards`.
    let mut held_out: Vec<(usize, Position, Color, u8)> = Vec::new();
    let mut boards: Vec<(Geometry, Patterns)> = Vec::new();
    let mut proved = 0u64;
    for file in args[1].split(',') {
        let (memory, _) = gosolve::tables::checkpoint::load_any(std::path::Path::new(file), table_mb)?;
        let g = memory.geometry();
        let patterns = Patterns::new(&g);
        let board = boards.len();
        memory.for_each_proof_move(|pos, me, best| {
            proved += 1;
            let h =
                (pos.black.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ pos.white.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)) >> 40;
            if h % 16 == 0 {
                held_out.push((board, pos, me, best));
                return;
            }
            legal_codes(&g, &patterns, &pos, me, &mut |p, c| {
                trials[c] += 1;
                wins[c] += (p == best) as u64;
            });
        });
        boards.push((g, patterns));
    }
    if proved == 0 {
        return Err("no proving move in the checkpoints".into());
    }
    let score = |c: usize| (wins[c] as f64 + 1.0) / (trials[c] as f64 + 10.0);
    let whole_board = |c: usize| policy::rank_of_code(Prior::WholeBoard, c as u32) as f64;
    let tight = |c: usize| policy::rank_of_code(Prior::Tight, c as u32) as f64;
    let scorers: [(&str, &dyn Fn(usize) -> f64); 3] = [
        ("these counts", &score),
        ("the built-in whole-board prior", &whole_board),
        ("the built-in tight prior", &tight),
    ];
    for (name, by) in scorers {
        let (mut first, mut three, mut ranks) = (0u64, 0u64, 0u64);
        for &(board, ref pos, me, best) in &held_out {
            let (geo, patterns) = &boards[board];
            let mut list = Vec::new();
            legal_codes(geo, patterns, pos, me, &mut |p, c| list.push((by(c), p)));
            list.sort_by(|a, b| b.0.total_cmp(&a.0));
            let r = list.iter().position(|&(_, p)| p == best).unwrap_or(list.len()) as u64;
            (first, three, ranks) = (first + (r == 0) as u64, three + (r < 3) as u64, ranks + r);
        }
        let n = held_out.len().max(1) as f64;
        eprintln!(
            "{proved} results with a proving move, {} held out, {name}: first {:.1} %, among three {:.1} %, mean rank {:.2}",
            held_out.len(),
            100.0 * first as f64 / n,
            100.0 * three as f64 / n,
            ranks as f64 / n
        );
    }
    // Ranks: the order of the distinct scores (an unseen code scores 0.1).
    let mut distinct: Vec<f64> = (0..CODES).map(score).collect();
    distinct.sort_by(f64::total_cmp);
    distinct.dedup();
    let rank = |s: f64| distinct.binary_search_by(|x| x.total_cmp(&s)).expect("a score of the list") as u16;
    // An unseen code scores (0 + 1) / (0 + 10).
    let mut out = rank(1.0 / 10.0).to_le_bytes().to_vec();
    let mut seen = 0;
    for (c, &t) in trials.iter().enumerate() {
        if t > 0 {
            out.extend_from_slice(&(c as u32).to_le_bytes());
            out.extend_from_slice(&rank(score(c)).to_le_bytes());
            seen += 1;
        }
    }
    gosolve::store::write_atomic(std::path::Path::new(&args[2]), &out)?;
    eprintln!("{seen} codes seen, {} distinct scores; written to {}", distinct.len(), args[2]);
    Ok(())
}

/// Each legal move of `me` in `pos` (superko aside) with its code.
fn legal_codes(geo: &Geometry, patterns: &Patterns, pos: &Position, me: Color, f: &mut dyn FnMut(u8, usize)) {
    for p in Geometry::iter(pos.empty(geo)) {
        let Ok(next) = pos.play(geo, me, p, false) else { continue };
        f(p, patterns.code(pos, me, p, captures(pos, me, &next)) as usize);
    }
}
