//! The proof as SGF: what a skeptic checks with `gosolve verify`.
//!
//! One game tree per statement proved ("value ≥ b" or "value ≤ c" at a
//! position, komi excluded): a claim gives one (the claim, or the bound
//! that refutes it), a value two (≥ v and ≤ v), every move's value two a
//! move. Each tree is the game that leads to the position (root setup,
//! `RU`, `KM`, the history's moves, as `gosolve solve --sgf` reads it),
//! then, at the position, the property `GSCLAIM[>=b]` or `GSCLAIM[<=c]`
//! and the proof below it:
//! - where the side the bound favours is to move (Black for ≥, White for
//!   ≤), one move, the one that keeps the bound;
//! - where the other side is to move, every legal move, pass included,
//!   each a variation;
//! - at a leaf, `GSLEAF[...]` says why the bound holds there: `over` (two
//!   passes: the score), `static` (the board's size and Benson's
//!   pass-alive regions), `unit:ID` (a worker proved the same bound at this
//!   position: its answer is `answers/ID.json` of the work dir) or
//!   `after:ID` (a worker's unit at the parent, left undecided, proved it
//!   after this move); and `GSPOS[...]` the position reached (the stones,
//!   as `--position` writes them), and a comment in words.
//!
//! Every value is komi-excluded (Black − White area); the root comment
//! gives the komi and the bound with it.

use super::manager::{Bound, Manager};
use super::state::UnitRecord;
use super::tree::{Evidence, NodeId};
use crate::format::diagram;
use crate::format::numbers::signed;
use crate::format::sgf::{sgf_point, write_game};
use crate::rules::history::Game;
use crate::rules::position::{value_with_komi, Color, Move};
use std::collections::HashMap;

/// What a proof file holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Statements (game trees).
    pub statements: usize,
    /// Proof nodes below the statements' positions (each move a node).
    pub nodes: usize,
    /// Leaves by kind.
    pub unit_leaves: usize,
    pub after_leaves: usize,
    pub static_leaves: usize,
    pub over_leaves: usize,
}

impl Summary {
    pub fn leaves(&self) -> usize {
        self.unit_leaves + self.after_leaves + self.static_leaves + self.over_leaves
    }
}

/// The statement as `GSCLAIM` writes it.
pub fn claim_text(bound: Bound) -> String {
    match bound {
        Bound::AtLeast(b) => format!(">={b}"),
        Bound::AtMost(c) => format!("<={c}"),
    }
}

/// The proof of a finished manager as SGF text.
pub fn write_sgf(m: &Manager, records: &HashMap<&str, &UnitRecord>) -> (String, Summary) {
    let mut out = String::new();
    let mut sum = Summary::default();
    for (node, bound) in m.statements() {
        let game = m.tree.game_of(node);
        let base = write_game(&game, None);
        let mut s = base.trim_end().strip_suffix(')').expect("write_game ends the tree with ')'").to_string();
        let komi = game.rules.komi;
        let (words, with_komi) = match bound {
            Bound::AtLeast(b) => (format!("value >= {b}"), format!(">= {}", signed(value_with_komi(b, komi)))),
            Bound::AtMost(c) => (format!("value <= {c}"), format!("<= {}", signed(value_with_komi(c, komi)))),
        };
        s.push_str(&format!(
            "\nGSCLAIM[{}]C[{}]",
            claim_text(bound),
            escape(&format!(
                "gosolve proof: {words} (Black - White area, komi excluded; with komi {}: {with_komi}) at this \
                 position, {} to move, rules {}. Below: where the side this bound favours is to move, the move \
                 that keeps it; where the other side is to move, every legal move, pass included. GSLEAF says \
                 why a leaf holds (over: the score; static: Benson's bounds; unit:ID / after:ID: proved by a \
                 worker, answers/ID.json). Check it with gosolve verify.",
                game.rules.komi,
                game.to_move.name(),
                game.rules.describe()
            ))
        ));
        sum.statements += 1;
        emit(m, node, &game, bound, records, &mut s, &mut sum);
        s.push_str(")\n");
        out.push_str(&s);
    }
    (out, sum)
}

/// The proof of `bound` at `node` (its game `game`), appended to `s`: the
/// node's own properties, then its children.
fn emit(
    m: &Manager,
    node: NodeId,
    game: &Game,
    bound: Bound,
    records: &HashMap<&str, &UnitRecord>,
    s: &mut String,
    sum: &mut Summary,
) {
    let n = m.tree.node(node);
    let (holds, by) = match bound {
        Bound::AtLeast(b) => (n.lo >= b, &n.lo_by),
        Bound::AtMost(c) => (n.hi <= c, &n.hi_by),
    };
    debug_assert!(holds, "a statement of the proof holds at every node it reaches");
    if by.is_leaf() {
        let what = match bound {
            Bound::AtLeast(b) => format!("value >= {b} here"),
            Bound::AtMost(c) => format!("value <= {c} here"),
        };
        let (tag, words) = match by {
            Evidence::Over => {
                sum.over_leaves += 1;
                ("over".to_string(), format!("{what}: the game is over, the score is {}", game.score()))
            }
            Evidence::Static => {
                sum.static_leaves += 1;
                ("static".to_string(), format!("{what}: by the board's size and Benson's pass-alive regions"))
            }
            Evidence::Unit { unit } => {
                sum.unit_leaves += 1;
                (format!("unit:{unit}"), format!("{what}: proved by unit {unit}{}", work_of(records, unit)))
            }
            Evidence::After { unit } => {
                sum.after_leaves += 1;
                (
                    format!("after:{unit}"),
                    format!("{what}: proved after this move by unit {unit} at the parent{}", work_of(records, unit)),
                )
            }
            Evidence::Children => unreachable!("a leaf's evidence"),
        };
        s.push_str(&format!(
            "GSLEAF[{}]GSPOS[{}]C[{}]",
            tag,
            diagram::compact(&game.geo, &game.position),
            escape(&words)
        ));
        return;
    }
    let prover_black = matches!(bound, Bound::AtLeast(_));
    let kids: Vec<NodeId> = if n.black == prover_black {
        let keeps = |&c: &NodeId| {
            let k = m.tree.node(c);
            match bound {
                Bound::AtLeast(b) => k.lo >= b,
                Bound::AtMost(c) => k.hi <= c,
            }
        };
        // The child whose own evidence is a leaf first (a shorter proof).
        let good: Vec<NodeId> = n.children.iter().copied().filter(keeps).collect();
        let leafy = |c: NodeId| {
            let k = m.tree.node(c);
            match bound {
                Bound::AtLeast(_) => k.lo_by.is_leaf(),
                Bound::AtMost(_) => k.hi_by.is_leaf(),
            }
        };
        good.iter().copied().find(|&c| leafy(c)).or(good.first().copied()).into_iter().collect()
    } else {
        n.children.clone()
    };
    let many = kids.len() > 1;
    for c in kids {
        let name = m.tree.node(c).mv.clone().unwrap_or_default();
        let mv = Move::parse(&name, &game.geo).expect("a tree move names a move");
        let mut next = game.clone();
        next.play(mv).expect("a tree move is legal");
        if many {
            s.push_str("\n(");
        }
        let at = match mv {
            Move::Pass => String::new(),
            Move::Play(p) => sgf_point(&game.geo, p),
        };
        s.push_str(&format!(";{}[{}]", if game.to_move == Color::Black { 'B' } else { 'W' }, at));
        sum.nodes += 1;
        emit(m, c, &next, bound, records, s, sum);
        if many {
            s.push(')');
        }
    }
}

/// ", 1234 nodes in 0.1 s on HOST": a unit's work, where recorded.
fn work_of(records: &HashMap<&str, &UnitRecord>, unit: &str) -> String {
    records
        .get(unit)
        .map(|r| format!(" ({} nodes in {:.2} s on {}, budget {})", r.nodes, r.seconds, r.host, r.budget))
        .unwrap_or_default()
}

/// SGF text escaping for a property value.
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace(']', "\\]")
}
