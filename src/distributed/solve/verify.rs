//! `gosolve verify DIR`: check a distributed solve's proof (`DIR/proof.sgf`,
//! [`super::proof`]) in pieces.
//!
//! 1. The tree's logic, by the rules core alone: each statement's game is
//!    replayed from its root ([`crate::format::sgf`], [`Game::play`]); every
//!    move below is played the same way, so an illegal move (superko under
//!    the real history included) is an error; where the side the bound
//!    favours is to move at least one move is given, where the other side
//!    is, every legal move, pass included, exactly once; every line ends in
//!    a leaf, whose stated position (`GSPOS`) must be the one its moves
//!    reach.
//! 2. The leaves: `over` and `static` are checked here (the score;
//!    Benson's bounds); every worker's leaf is proved again, on the same
//!    backend as the solve, by another engine configuration: the
//!    alpha-beta alone (or, asked, df-pn), the path symmetry off, from an
//!    empty table (never the solve's shared checkpoint), and no answer of
//!    an earlier run is taken.
//!
//! Any fault is one line naming the statement and the line of moves.

use crate::distributed::protocol::{position_spec, ClaimWork, Outcome, Unit, Work};
use crate::distributed::scheduler::{wait_all, Observer, Reuse, Wait};
use crate::distributed::{DistError, Setup};
use crate::format::diagram;
use crate::format::sgf::{board_move, game_from_line};
use crate::rules::history::Game;
use crate::rules::life::score_bounds;
use crate::rules::position::{Color, Move};
use sgf_parse::go::Prop;
use sgf_parse::SgfNode;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// How the leaves are proved again.
#[derive(Clone, Debug)]
pub struct VerifyOptions {
    /// df-pn (the path symmetry off) instead of the alpha-beta alone.
    pub df_pn: bool,
    pub threads: usize,
    pub table_mb: usize,
    /// A node budget for each leaf (none: to the end).
    pub node_limit: Option<u64>,
}

/// One statement checked.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StatementReport {
    /// "value >= 25 at 5x5 after 'c3 c2'" (komi excluded).
    pub claim: String,
    /// Proof nodes (moves) below the statement's position.
    pub nodes: usize,
    /// Nodes where every reply was checked (AND), or one move (OR).
    pub and_nodes: usize,
    pub or_nodes: usize,
    pub over_leaves: usize,
    pub static_leaves: usize,
    pub worker_leaves: usize,
}

/// What a verification found (everything held).
#[derive(Clone, Debug, Default)]
pub struct VerifyReport {
    pub statements: Vec<StatementReport>,
    /// Leaves proved again (distinct positions and bounds) and their nodes.
    pub reproved: usize,
    pub nodes: u64,
    pub seconds: f64,
}

/// A leaf to prove again.
struct Leaf {
    game: Game,
    at_least: bool,
    value: i32,
    /// Statement index and line, for the error.
    statement: usize,
    line: String,
}

/// Verify the proof in `dir` (see the module documentation).
pub fn verify(
    dir: &Path,
    setup: &Setup,
    opts: &VerifyOptions,
    observer: Arc<dyn Observer>,
) -> Result<VerifyReport, DistError> {
    let start = Instant::now();
    let file = dir.join("proof.sgf");
    let text = std::fs::read_to_string(&file).map_err(|e| {
        DistError::Other(format!(
            "cannot read the proof {}: {e} (a distributed solve writes it in its work dir when it ends)",
            file.display()
        ))
    })?;
    let name = file.display().to_string();
    let trees = parse(&text).map_err(|e| DistError::Other(format!("{name}: {e}")))?;
    if trees.is_empty() {
        return Err(DistError::Other(format!("{name} holds no proof")));
    }
    let mut report = VerifyReport::default();
    let mut leaves = Vec::new();
    for (i, root) in trees.iter().enumerate() {
        let st = check_statement(root, i, &mut leaves)
            .map_err(|e| DistError::Other(format!("{name}: statement {}: {e}", i + 1)))?;
        report.statements.push(st);
    }
    // The workers' leaves, each distinct one proved again.
    let mut distinct: BTreeMap<String, usize> = BTreeMap::new();
    let mut units: HashMap<String, usize> = HashMap::new();
    let (mut sched, _lock) = setup.start(observer)?;
    for (k, leaf) in leaves.iter().enumerate() {
        let key = serde_json::to_string(&(position_spec("leaf", &leaf.game), leaf.at_least, leaf.value))
            .expect("a spec serializes");
        if distinct.contains_key(&key) {
            continue;
        }
        let id = format!("verify-{}", distinct.len() + 1);
        distinct.insert(key, k);
        units.insert(id.clone(), k);
        let work = ClaimWork {
            position: position_spec(&id, &leaf.game),
            at_least: leaf.at_least,
            value: leaf.value,
            node_limit: opts.node_limit,
            time_limit: None,
            read_checkpoint: None,
            write_delta: false,
            checkpoint_every: Some(600.0),
            alpha_beta: !opts.df_pn,
            no_path_symmetry: true,
        };
        let unit = Unit::new(&id, &leaf.game.geo, opts.threads.max(1), opts.table_mb, Work::Claim(work));
        sched.submit(unit, Reuse::Nothing)?;
    }
    let mut fault: Option<String> = None;
    let end = wait_all(&mut sched, |f| {
        report.nodes += f.answer.nodes;
        report.reproved += 1;
        let leaf = &leaves[units[&f.unit.id]];
        let what = format!(
            "statement {}: the leaf after '{}' (value {} {})",
            leaf.statement + 1,
            leaf.line,
            if leaf.at_least { ">=" } else { "<=" },
            leaf.value
        );
        let bad = match &f.answer.outcome {
            Outcome::Proved => None,
            Outcome::Refuted => Some(format!("{what} is false: unit {} refuted it", f.unit.id)),
            Outcome::Undecided { limit } => Some(format!("{what} was not proved again ({limit})")),
            Outcome::Failed { reason, .. } => Some(format!("{what}: unit {} failed: {reason}", f.unit.id)),
            Outcome::Done => Some(format!("{what}: unit {} answered 'done'", f.unit.id)),
        };
        if fault.is_none() {
            fault = bad;
        }
    })?;
    match end {
        Wait::Interrupted => return Err(DistError::Other("interrupted; run verify again".into())),
        Wait::Deadline => return Err(DistError::Other("time limit reached; run verify again".into())),
        _ => {}
    }
    if let Some(f) = fault {
        return Err(DistError::Other(format!("{name}: {f}")));
    }
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}

/// Parse the collection (on a thread with a deep stack: the crate's trees
/// nest one level a move).
fn parse(text: &str) -> Result<Vec<SgfNode<Prop>>, String> {
    let owned = text.to_string();
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || sgf_parse::go::parse(&owned).map_err(|e| format!("not valid SGF: {e}")))
        .map_err(|e| format!("cannot start the parser: {e}"))?
        .join()
        .map_err(|_| "the SGF parser failed".to_string())?
}

/// A private property's first value.
fn private<'a>(node: &'a SgfNode<Prop>, id: &str) -> Option<&'a str> {
    node.properties().find_map(|p| match p {
        Prop::Unknown(name, values) if name == id => values.first().map(String::as_str),
        _ => None,
    })
}

/// Check one statement's tree; its workers' leaves go to `leaves`.
fn check_statement(root: &SgfNode<Prop>, index: usize, leaves: &mut Vec<Leaf>) -> Result<StatementReport, String> {
    // The main line down to the node that states the claim: the game.
    let mut line: Vec<Vec<Prop>> = Vec::new();
    let mut at = root;
    loop {
        line.push(at.properties().cloned().collect());
        if private(at, "GSCLAIM").is_some() {
            break;
        }
        match at.children().collect::<Vec<_>>().as_slice() {
            [only] => at = only,
            [] => return Err("no GSCLAIM property on its main line".into()),
            _ => return Err("its game branches before the GSCLAIM property".into()),
        }
    }
    let game = game_from_line(&line).and_then(|g| g.to_game(None)).map_err(|e| format!("its game: {e}"))?;
    let claim = private(at, "GSCLAIM").unwrap_or_default().trim().to_string();
    let (at_least, value) = parse_claim(&claim).ok_or_else(|| format!("GSCLAIM[{claim}] is not >=N or <=N"))?;
    let history: Vec<String> = game.moves.iter().map(|(_, m)| m.name(&game.geo)).collect();
    let mut st = StatementReport {
        claim: format!(
            "value {} {} (komi excluded) at {} after '{}'",
            if at_least { ">=" } else { "<=" },
            value,
            game.geo.name(),
            history.join(" ")
        ),
        ..Default::default()
    };
    let mut path = Vec::new();
    check_node(at, &game, (at_least, value), index, &mut path, &mut st, leaves)?;
    Ok(st)
}

/// ">=5" → (true, 5); "<=-3" → (false, -3).
fn parse_claim(s: &str) -> Option<(bool, i32)> {
    if let Some(v) = s.strip_prefix(">=") {
        return v.trim().parse().ok().map(|v| (true, v));
    }
    s.strip_prefix("<=").and_then(|v| v.trim().parse().ok()).map(|v| (false, v))
}

/// Whether the value bounds `(lo, hi)` prove the claim.
fn proves((at_least, value): (bool, i32), lo: i32, hi: i32) -> bool {
    if at_least {
        lo >= value
    } else {
        hi <= value
    }
}

/// Check the proof below `node`, whose game is `game`.
fn check_node(
    node: &SgfNode<Prop>,
    game: &Game,
    claim: (bool, i32),
    index: usize,
    path: &mut Vec<String>,
    st: &mut StatementReport,
    leaves: &mut Vec<Leaf>,
) -> Result<(), String> {
    let here = format!("'{}'", path.join(" "));
    let children: Vec<&SgfNode<Prop>> = node.children().collect();
    if let Some(tag) = private(node, "GSLEAF") {
        if !children.is_empty() {
            return Err(format!("the leaf after {} has moves below it", here));
        }
        let stated = private(node, "GSPOS").ok_or_else(|| format!("the leaf after {} has no GSPOS", here))?;
        let reached = diagram::compact(&game.geo, &game.position);
        if stated.trim() != reached {
            return Err(format!("the leaf after {} states the position {stated}, its moves reach {reached}", here));
        }
        match tag.split_once(':').map_or((tag, ""), |(a, b)| (a, b)) {
            ("over", _) => {
                if !game.is_over() {
                    return Err(format!("the leaf after {} is marked over, but the game goes on", here));
                }
                let s = game.score();
                if !proves(claim, s, s) {
                    return Err(format!("the game over after {} scores {s}: the claim fails there", here));
                }
                st.over_leaves += 1;
            }
            ("static", _) => {
                let n = game.geo.points() as i32;
                let (lo, hi) = if game.is_over() {
                    (game.score(), game.score())
                } else {
                    let (lo, hi) = score_bounds(&game.geo, &game.position);
                    (lo.max(-n), hi.min(n))
                };
                if !proves(claim, lo, hi) {
                    return Err(format!(
                        "the leaf after {} is marked static, but the static bounds there are {lo}..{hi}",
                        here
                    ));
                }
                st.static_leaves += 1;
            }
            ("unit" | "after", id) if !id.is_empty() => {
                st.worker_leaves += 1;
                leaves.push(Leaf {
                    game: game.clone(),
                    at_least: claim.0,
                    value: claim.1,
                    statement: index,
                    line: path.join(" "),
                });
            }
            _ => return Err(format!("the leaf after {} has an unknown mark GSLEAF[{tag}]", here)),
        }
        return Ok(());
    }
    if children.is_empty() {
        return Err(format!("the line {} ends without a leaf mark (GSLEAF)", here));
    }
    if game.is_over() {
        return Err(format!("the game is over after {} (two passes), yet the proof goes on", here));
    }
    let prover = if claim.0 { Color::Black } else { Color::White };
    let mut seen: Vec<Move> = Vec::new();
    for child in &children {
        if private(child, "GSCLAIM").is_some() {
            return Err(format!("a second GSCLAIM below {}", here));
        }
        let mut found = None;
        for p in child.properties() {
            let (color, mv, name) = match p {
                Prop::B(m) => (Color::Black, m, "B"),
                Prop::W(m) => (Color::White, m, "W"),
                Prop::AB(_) | Prop::AW(_) | Prop::AE(_) | Prop::PL(_) => {
                    return Err(format!("setup inside the proof after {}", here));
                }
                _ => continue,
            };
            if found.is_some() {
                return Err(format!("a node after {} holds two moves", here));
            }
            if color != game.to_move {
                return Err(format!("{} plays after {}, but {} is to move", color.name(), here, game.to_move.name()));
            }
            found = Some(board_move(&game.geo, name, mv).map_err(|e| format!("after {}: {e}", here))?);
        }
        let mv = found.ok_or_else(|| format!("a node after {} holds no move", here))?;
        if seen.contains(&mv) {
            return Err(format!("the move {} after {} is given twice", mv.name(&game.geo), here));
        }
        seen.push(mv);
        let mut next = game.clone();
        next.play(mv).map_err(|e| format!("after {}: {e}", here))?;
        path.push(mv.name(&game.geo));
        st.nodes += 1;
        let r = check_node(child, &next, claim, index, path, st, leaves);
        path.pop();
        r?;
    }
    if game.to_move == prover {
        st.or_nodes += 1;
    } else {
        st.and_nodes += 1;
        let legal = game.legal_moves();
        if let Some(missing) = legal.iter().find(|m| !seen.contains(m)) {
            return Err(format!(
                "the reply {} of {} after {} is missing (every reply of the defender must be answered)",
                missing.name(&game.geo),
                game.to_move.name(),
                here
            ));
        }
    }
    Ok(())
}
