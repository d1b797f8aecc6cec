//! Proof and disproof numbers of the test "value ≥ b" over a subtree, and
//! the choice of the most-proving leaves to send.
//!
//! Black to move is an OR node of the test (one move reaching b is
//! enough), White to move an AND node (every reply must reach it). A node
//! whose bounds decide the test has numbers (0, ∞) (proved) or (∞, 0)
//! (refuted); an open leaf starts from its mobility (an OR leaf (1, legal
//! moves), an AND leaf (legal moves, 1), as df-pn starts its leaves); an
//! open inner node takes the min and the sum of its children as in
//! proof-number search.
//!
//! Several leaves are chosen at once, one per idle worker: each walk from
//! the goal's node goes down to the most-proving child (OR: least proof
//! number; AND: least disproof number) *among the children that still have
//! a leaf to send*, so a leaf in flight is never sent twice and the next
//! walk takes the next most-proving one: at an AND node a sibling the
//! proof also needs, at an OR node the next best alternative.

use super::tree::{NodeId, Tree};

/// "Infinite" proof or disproof number.
pub const INF: u64 = u64::MAX / 4;

/// Numbers of the nodes of one subtree for one test.
#[derive(Clone, Debug, Default)]
pub struct Numbers {
    pub pn: Vec<u64>,
    pub dn: Vec<u64>,
    /// Leaves below that can be sent (open, not in flight).
    pub open: Vec<u32>,
}

/// How the test stands at a node: decided by its bounds or open.
pub fn status(tree: &Tree, id: NodeId, b: i32) -> Option<bool> {
    let n = tree.node(id);
    if n.lo >= b {
        Some(true)
    } else if n.hi < b {
        Some(false)
    } else {
        None
    }
}

/// The numbers of the subtree of `root` for "value ≥ b".
pub fn numbers(tree: &Tree, root: NodeId, b: i32) -> Numbers {
    let len = tree.len();
    let mut nums = Numbers { pn: vec![0; len], dn: vec![0; len], open: vec![0; len] };
    // Parents before children: fill in reverse.
    let order = open_subtree(tree, root, b);
    for &id in order.iter().rev() {
        let i = id as usize;
        let n = tree.node(id);
        match status(tree, id, b) {
            Some(true) => (nums.pn[i], nums.dn[i], nums.open[i]) = (0, INF, 0),
            Some(false) => (nums.pn[i], nums.dn[i], nums.open[i]) = (INF, 0, 0),
            None if n.children.is_empty() => {
                let m = u64::from(n.legal.max(1));
                let (mut pn, mut dn) = if n.black { (1, m) } else { (m, 1) };
                // The mover's number of the leaf's move, biased by its place
                // in the prior's order as df-pn biases it.
                match n.parent.map(|p| tree.node(p).black) {
                    Some(true) => pn = prior_bias(pn, n.order),
                    Some(false) => dn = prior_bias(dn, n.order),
                    None => {}
                }
                (nums.pn[i], nums.dn[i]) = (pn, dn);
                nums.open[i] = u32::from(n.busy.is_none());
            }
            None => {
                let (mut min_pn, mut sum_pn, mut min_dn, mut sum_dn, mut open) = (INF, 0u64, INF, 0u64, 0u32);
                for &c in &n.children {
                    let c = c as usize;
                    min_pn = min_pn.min(nums.pn[c]);
                    min_dn = min_dn.min(nums.dn[c]);
                    sum_pn = sum_pn.saturating_add(nums.pn[c]).min(INF);
                    sum_dn = sum_dn.saturating_add(nums.dn[c]).min(INF);
                    open += nums.open[c];
                }
                (nums.pn[i], nums.dn[i]) = if n.black { (min_pn, sum_dn) } else { (sum_pn, min_dn) };
                nums.open[i] = open;
            }
        }
    }
    nums
}

/// A number for the move ranked `r`-th (0: the first): df-pn's bias,
/// (w + 3r)·(100 + 25r)/100 (`PRIOR_STEP`, `PRIOR_PERCENT` of its df-pn).
fn prior_bias(w: u64, r: u32) -> u64 {
    let r = u64::from(r.min(64));
    (w + 3 * r) * (100 + 25 * r) / 100
}

/// The nodes of `root`'s subtree down to the nodes that decide the test
/// (their children are not needed), parents first.
fn open_subtree(tree: &Tree, root: NodeId, b: i32) -> Vec<NodeId> {
    let mut out = vec![root];
    let mut i = 0;
    while i < out.len() {
        let id = out[i];
        if status(tree, id, b).is_none() {
            out.extend_from_slice(&tree.node(id).children);
        }
        i += 1;
    }
    out
}

/// The most-proving leaf of `root`'s subtree among those that can be sent,
/// if any; it counts as sent afterwards (`open` lowered on its path).
pub fn pick(tree: &Tree, nums: &mut Numbers, root: NodeId) -> Option<NodeId> {
    if nums.open[root as usize] == 0 {
        return None;
    }
    let mut at = root;
    loop {
        let n = tree.node(at);
        if n.children.is_empty() {
            break;
        }
        let candidates = n.children.iter().copied().filter(|&c| nums.open[c as usize] > 0);
        let best = if n.black {
            candidates.min_by_key(|&c| (nums.pn[c as usize], nums.dn[c as usize]))
        } else {
            candidates.min_by_key(|&c| (nums.dn[c as usize], nums.pn[c as usize]))
        };
        match best {
            Some(c) => at = c,
            None => return None,
        }
    }
    // Taken: one leaf fewer to send on its path.
    let mut up = Some(at);
    while let Some(id) = up {
        nums.open[id as usize] -= 1;
        if id == root {
            break;
        }
        up = tree.node(id).parent;
    }
    Some(at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distributed::solve::tree::Evidence;
    use crate::rules::geometry::Geometry;
    use crate::rules::history::Game;
    use crate::rules::position::{Color, Position, Rules};

    /// Two leaves are picked at once, never the same one twice; a decided
    /// child is skipped; a whole subtree decided leaves nothing to pick.
    #[test]
    fn picks_distinct_most_proving_leaves() {
        let geo = Geometry::new(2, 2).unwrap();
        let game = Game::new(geo, Rules::default(), Position::EMPTY, Color::Black).unwrap();
        let mut t = Tree::new(game);
        let kids = t.expand(0, None);
        assert_eq!(kids.len(), 5);
        t.lower(kids[0], 0, Evidence::Static).unwrap();
        let mut nums = numbers(&t, 0, 1);
        assert_eq!(nums.open[0], 4);
        let a = pick(&t, &mut nums, 0).unwrap();
        let b = pick(&t, &mut nums, 0).unwrap();
        assert!(a != b && a != kids[0] && b != kids[0]);
        t.raise(kids[1], 3, Evidence::Static).unwrap();
        let mut nums = numbers(&t, 0, 1);
        assert_eq!((nums.pn[0], nums.open[0]), (0, 0));
        assert_eq!(pick(&t, &mut nums, 0), None);
    }
}
