//! The manager's policy, without any I/O: goals (a claim, the value, or
//! the value of every move), which leaves to send with which budget, and
//! what an answer does to the tree. [`super::run`] drives it with real
//! workers, [`super::simulate`] with recorded answers on a simulated
//! clock, so both follow one policy.
//!
//! - **Goals.** A claim is one test "value ≥ b" at the root. The value is
//!   found by the search's value driver ([`Driver`]: the guess, then steps
//!   that gallop, inside the static range), each of its tests a
//!   distributed test, decided by the tree's bounds (fail-soft: a bound
//!   beyond the test narrows the range further). Every move's value: one
//!   such driver for each child of the root, all at once.
//! - **Selection.** One leaf per idle worker, the most-proving of the goal
//!   with the fewest units in flight ([`super::pns`]).
//! - **Budgets.** A leaf's unit has `unit_nodes` nodes, doubled each time
//!   it came back undecided where it could not be expanded.
//! - **Expansion.** A leaf whose unit comes back undecided gets a child for
//!   every legal move; the answer's root moves (what the worker proved
//!   after each) decide some of them at once. Below `max_depth`, or when
//!   the tree holds `max_nodes`, the leaf is sent again with twice the
//!   budget instead.

use super::pns::{self, status};
use super::tree::{Contradiction, Evidence, NodeId, Tree, TreeNode};
use crate::rules::history::Game;
use crate::search::engines::value_driver::{first_guess, Driver};
use crate::search::Node;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What is asked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "mode", rename_all = "snake_case")]
pub enum Mode {
    /// "value ≥ value" (`at_least`) or "value ≤ value" at the position,
    /// komi excluded.
    Claim { at_least: bool, value: i32 },
    /// The value of the position.
    Value,
    /// The value of every legal move (and so of the position).
    EveryMove,
}

/// The budgets and the tree's limits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Policy {
    /// Node budget of a leaf's first unit.
    pub unit_nodes: u64,
    /// Nodes deeper than this are not expanded (sent again with twice the budget).
    pub max_depth: u32,
    /// Nor when the tree holds this many nodes.
    pub max_nodes: usize,
}

impl Default for Policy {
    fn default() -> Self {
        Policy { unit_nodes: 1_000_000, max_depth: 40, max_nodes: 200_000 }
    }
}

/// One goal: a claim's test, or a value found by the value driver.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Goal {
    pub node: NodeId,
    /// A claim's fixed test "value ≥ b"; none: the value.
    pub claim: Option<i32>,
    /// The value driver's start (range, first guess) and every test it ran
    /// with its fail-soft result (b, g): replayed to rebuild it.
    pub range: (i32, i32),
    pub guess: i32,
    pub tests: Vec<(i32, i32)>,
    /// The open test "value ≥ b"; none: the goal is reached.
    pub test: Option<i32>,
}

/// A unit sent and not answered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Flight {
    pub id: String,
    pub node: NodeId,
    pub goal: usize,
    /// The unit's claim: "value ≥ value" or "value ≤ value".
    pub at_least: bool,
    pub value: i32,
    pub budget: u64,
}

impl Flight {
    /// The test "value ≥ b" its claim decides.
    pub fn test(&self) -> i32 {
        if self.at_least {
            self.value
        } else {
            self.value + 1
        }
    }
}

/// What a unit's answer says of its claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// Proved (true) or refuted (false).
    Holds(bool),
    /// Undecided within the budget; what the worker proved of the claim
    /// after each move (by name), where it did.
    Open { after: Vec<(String, Option<bool>)> },
}

/// A bound to prove at a node (komi excluded).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    AtLeast(i32),
    AtMost(i32),
}

/// The manager's policy and tree.
#[derive(Clone, Debug)]
pub struct Manager {
    pub tree: Tree,
    pub mode: Mode,
    pub policy: Policy,
    pub goals: Vec<Goal>,
    pub flights: BTreeMap<String, Flight>,
    drivers: Vec<Option<Driver>>,
}

impl Manager {
    /// A manager for `mode` at `game`; `guess` is the first test of the
    /// root's value ("value ≥ guess", [`Mode::Value`] only: the work
    /// depends on it, the value never does).
    pub fn new(game: Game, mode: Mode, policy: Policy, guess: Option<i32>) -> Manager {
        let mut tree = Tree::new(game);
        let targets: Vec<NodeId> = match mode {
            Mode::EveryMove => tree.expand(0, None),
            _ => vec![0],
        };
        if let Some(&first) = targets.first().filter(|&&t| t != 0) {
            let _ = tree.propagate(first);
        }
        let goals = targets
            .into_iter()
            .map(|node| {
                let n = tree.node(node);
                let claim = match mode {
                    Mode::Claim { at_least, value } => Some(if at_least { value } else { value + 1 }),
                    _ => None,
                };
                let g = tree.game_of(node);
                let root_guess = guess.filter(|_| node == 0);
                let guess = claim.or(root_guess).unwrap_or_else(|| first_guess(&g.geo, &Node::of_game(&g)));
                Goal { node, claim, range: (n.lo, n.hi), guess, tests: Vec::new(), test: None }
            })
            .collect();
        Manager::restore(tree, mode, policy, goals, Vec::new())
    }

    /// A manager read back from its state.
    pub fn restore(tree: Tree, mode: Mode, policy: Policy, goals: Vec<Goal>, flights: Vec<Flight>) -> Manager {
        let drivers = goals
            .iter()
            .map(|g| {
                g.claim.is_none().then(|| {
                    let mut d = Driver::new(g.range, g.guess);
                    for &(b, v) in &g.tests {
                        d.record(b, v);
                    }
                    d
                })
            })
            .collect();
        let flights: BTreeMap<String, Flight> = flights.into_iter().map(|f| (f.id.clone(), f)).collect();
        let mut tree = tree;
        // A leaf marked in flight by a unit no longer in flight can be sent.
        for n in &mut tree.nodes {
            if n.busy.as_ref().is_some_and(|id| !flights.contains_key(id)) {
                n.busy = None;
            }
        }
        let mut m = Manager { tree, mode, policy, goals, flights, drivers };
        m.advance();
        m
    }

    /// The tree's nodes, for the state file.
    pub fn nodes(&self) -> &[TreeNode] {
        &self.tree.nodes
    }

    /// Move every goal to its next open test (the tree's bounds decide the
    /// tests they can, fail-soft); whether every goal is reached.
    pub fn advance(&mut self) -> bool {
        for (g, d) in self.goals.iter_mut().zip(self.drivers.iter_mut()) {
            let n = self.tree.node(g.node);
            g.test = match (g.claim, d) {
                (Some(b), _) => status(&self.tree, g.node, b).is_none().then_some(b),
                (None, Some(d)) => loop {
                    if n.lo >= n.hi {
                        break None;
                    }
                    let b = d.next();
                    match status(&self.tree, g.node, b) {
                        Some(ge) => {
                            let v = if ge { n.lo } else { n.hi };
                            g.tests.push((b, v));
                            d.record(b, v);
                        }
                        None => break Some(b),
                    }
                },
                (None, None) => None,
            };
        }
        self.done()
    }

    /// Whether every goal is reached.
    pub fn done(&self) -> bool {
        self.goals.iter().all(|g| g.test.is_none())
    }

    /// Leaves for up to `free` idle workers, marked in flight.
    pub fn select(&mut self, free: usize) -> Vec<Flight> {
        let active: Vec<(usize, NodeId, i32)> =
            self.goals.iter().enumerate().filter_map(|(i, g)| g.test.map(|b| (i, g.node, b))).collect();
        if free == 0 || active.is_empty() {
            return Vec::new();
        }
        let mut nums: Vec<pns::Numbers> =
            active.iter().map(|&(_, node, b)| pns::numbers(&self.tree, node, b)).collect();
        let mut load: Vec<usize> =
            active.iter().map(|&(i, _, _)| self.flights.values().filter(|f| f.goal == i).count()).collect();
        let mut out = Vec::new();
        while out.len() < free {
            let Some(k) =
                (0..active.len()).filter(|&k| nums[k].open[active[k].1 as usize] > 0).min_by_key(|&k| (load[k], k))
            else {
                break;
            };
            let (goal, node, b) = active[k];
            let Some(leaf) = pns::pick(&self.tree, &mut nums[k], node) else { break };
            load[k] += 1;
            let (at_least, value) = match self.mode {
                Mode::Claim { at_least: false, .. } => (false, b - 1),
                _ => (true, b),
            };
            let grown = self.tree.node(leaf).grown;
            let id = format!("n{leaf}-{}{}-k{grown}", if at_least { "ge" } else { "le" }, signed(value));
            let budget = self.policy.unit_nodes.max(1).saturating_mul(1u64 << grown.min(40));
            let f = Flight { id: id.clone(), node: leaf, goal, at_least, value, budget };
            self.tree.nodes[leaf as usize].busy = Some(id.clone());
            self.flights.insert(id, f.clone());
            out.push(f);
        }
        out
    }

    /// Apply the answer of unit `id` (one not in flight is ignored).
    pub fn apply(&mut self, id: &str, reply: &Reply) -> Result<(), Contradiction> {
        let Some(f) = self.flights.remove(id) else { return Ok(()) };
        let node = f.node;
        self.tree.nodes[node as usize].busy = None;
        let b = f.test();
        match reply {
            Reply::Holds(h) => self.bound(node, *h == f.at_least, b, Evidence::Unit { unit: id.to_string() })?,
            Reply::Open { after } => {
                if self.expandable(node) {
                    let kids = self.tree.expand(node, Some(b));
                    if let Some(&k) = kids.first() {
                        self.tree.propagate(k)?;
                    }
                    for (mv, holds) in after {
                        let (Some(h), Some(child)) = (holds, self.tree.child_by_move(node, mv)) else { continue };
                        self.bound(child, *h == f.at_least, b, Evidence::After { unit: id.to_string() })?;
                    }
                } else {
                    self.tree.nodes[node as usize].grown += 1;
                }
            }
        }
        self.advance();
        Ok(())
    }

    /// Give up on unit `id` without an answer: its leaf stays marked in
    /// flight, so it is never sent again (the simulation's units that the
    /// recording has nothing for).
    pub fn abandon(&mut self, id: &str) {
        self.flights.remove(id);
    }

    /// "value ≥ b" (`ge`) or its refutation proved at `node`.
    fn bound(&mut self, node: NodeId, ge: bool, b: i32, by: Evidence) -> Result<(), Contradiction> {
        if ge {
            self.tree.raise(node, b, by)
        } else {
            self.tree.lower(node, b - 1, by)
        }
    }

    fn expandable(&self, node: NodeId) -> bool {
        let n = self.tree.node(node);
        n.legal > 0
            && n.children.is_empty()
            && n.depth < self.policy.max_depth
            && self.tree.len() + n.legal as usize <= self.policy.max_nodes
    }

    /// What the proof proves, once [`Manager::done`]: the claim or its
    /// refutation; the value (both bounds); or both bounds of every move.
    pub fn statements(&self) -> Vec<(NodeId, Bound)> {
        match self.mode {
            Mode::Claim { at_least, value } => {
                let b = if at_least { value } else { value + 1 };
                let ge = status(&self.tree, 0, b) == Some(true);
                vec![(0, if ge { Bound::AtLeast(b) } else { Bound::AtMost(b - 1) })]
            }
            _ if self.goals.is_empty() => {
                let n = self.tree.node(0);
                vec![(0, Bound::AtLeast(n.lo)), (0, Bound::AtMost(n.hi))]
            }
            Mode::Value | Mode::EveryMove => self
                .goals
                .iter()
                .flat_map(|g| {
                    let n = self.tree.node(g.node);
                    [(g.node, Bound::AtLeast(n.lo)), (g.node, Bound::AtMost(n.hi))]
                })
                .collect(),
        }
    }

    /// The claim's outcome (claims only, once done): whether it holds.
    pub fn claim_holds(&self) -> Option<bool> {
        match self.mode {
            Mode::Claim { at_least, value } => {
                let b = if at_least { value } else { value + 1 };
                status(&self.tree, 0, b).map(|ge| ge == at_least)
            }
            _ => None,
        }
    }

    /// The root's value, once known.
    pub fn value(&self) -> Option<i32> {
        let n = self.tree.node(0);
        (n.lo == n.hi).then_some(n.lo)
    }

    /// Every move's value (every-move mode, once done), in the tree's order.
    pub fn move_values(&self) -> Vec<(String, i32)> {
        match self.mode {
            Mode::EveryMove => self
                .goals
                .iter()
                .map(|g| (self.tree.node(g.node).mv.clone().unwrap_or_default(), self.tree.node(g.node).lo))
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// `5` → "5", `-3` → "m3": a value in a unit's id.
fn signed(v: i32) -> String {
    if v < 0 {
        format!("m{}", -v)
    } else {
        v.to_string()
    }
}
