//! The seed documents' worked examples (see shared/seed_examples.md, E01–E04),
//! checked through the library: games, suicide, scoring, blocks, liberties,
//! legal positions and clearing.

use gosolve::format::{diagram, sgf};
use gosolve::rules::geometry::Bits;
use gosolve::rules::position::{result_phrase, value_with_komi};
use gosolve::{Color, Game, GameError, Geometry, IllegalMove, Komi, Move, Position, Rules, Superko};

fn geo(w: usize, h: usize) -> Geometry {
    Geometry::new(w, h).unwrap()
}

fn nstt() -> Rules {
    Rules::default()
}

fn tt() -> Rules {
    Rules { suicide: true, ..Rules::default() }
}

fn mv(g: &Geometry, s: &str) -> Move {
    Move::parse(s, g).unwrap_or_else(|| panic!("bad move {s}"))
}

fn play_all(game: &mut Game, moves: &[&str]) {
    for m in moves {
        let m = mv(&game.geo, m);
        game.play(m).unwrap();
    }
}

fn names(g: &Geometry, moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| m.name(g)).collect()
}

fn set(g: &Geometry, pts: &[&str]) -> Bits {
    pts.iter().fold(0, |b, p| b | 1u64 << g.parse_point(p).unwrap())
}

// ---------------------------------------------------------------------------
// E01: the 2x2 superko game.

const E01: [&str; 6] = ["a2", "b2", "a1", "b1", "a2", "a1"];

#[test]
fn e01_positions_along_the_game() {
    let g = geo(2, 2);
    let mut game = Game::new(g, nstt(), Position::EMPTY, Color::Black).unwrap();
    let expected = ["X./..", "XO/..", "XO/X.", ".O/.O", "XO/.O", ".O/OO"];
    for (m, want) in E01.iter().zip(expected) {
        game.play(mv(&g, m)).unwrap();
        assert_eq!(diagram::compact(&g, &game.position), want, "after {m}");
    }
}

#[test]
fn e01_superko_forces_a_pass_and_white_wins_by_4() {
    for rules in [nstt(), tt()] {
        let g = geo(2, 2);
        let mut game = Game::new(g, rules, Position::EMPTY, Color::Black).unwrap();
        play_all(&mut game, &E01);
        assert_eq!(game.to_move, Color::Black);
        // 7.B[a2] would capture {a1,b1,b2} and recreate the position after move 1.
        let err = game.clone().play(mv(&g, "a2")).unwrap_err();
        assert_eq!(
            err,
            GameError::IllegalMove { number: 7, color: "black", mv: "a2".into(), reason: IllegalMove::Superko }
        );
        assert_eq!(err.to_string(), "move 7 (black a2): the move recreates an earlier position (superko)");
        assert_eq!(game.legal_moves(), vec![Move::Pass], "Black's only legal turn is pass");
        game.play(Move::Pass).unwrap();
        assert!(!game.is_over());
        game.play(Move::Pass).unwrap();
        assert!(game.is_over());
        assert_eq!(game.position.area(&g), (0, 4));
        assert_eq!(game.score(), -4);
        let value = value_with_komi(game.score(), rules.komi);
        assert_eq!(value, -4.0);
        assert_eq!(result_phrase(value), "White wins by 4");
        assert!(game.legal_moves().is_empty());
    }
}

#[test]
fn e01_as_sgf() {
    let text = "(;FF[4]GM[1]SZ[2];B[aa];W[ba];B[ab];W[bb];B[aa];W[ab];B[];W[])";
    let game = sgf::read_game(text).unwrap().to_game(None).unwrap();
    assert!(game.is_over());
    assert_eq!(game.score(), -4);
    let repeat = "(;FF[4]GM[1]SZ[2];B[aa];W[ba];B[ab];W[bb];B[aa];W[ab];B[aa])";
    let err = sgf::read_game(repeat).unwrap().to_game(None).unwrap_err();
    assert_eq!(err.to_string(), "move 7 (black a2): the move recreates an earlier position (superko)");
    // Written out and read back, the game is the same.
    let back = sgf::read_game(&sgf::write_game(&game, Some(-4.0))).unwrap();
    assert_eq!(back.moves, game.moves);
    assert_eq!(back.result.as_deref(), Some("W+4"));
    assert_eq!(back.to_game(None).unwrap().position, game.position);
}

// ---------------------------------------------------------------------------
// E02: 3x2, White a2, Black b1 b2, White to move.

fn e02(rules: Rules, order: &[&str]) -> Game {
    let g = geo(3, 2);
    let mut game = Game::new(g, rules, Position::EMPTY, Color::Black).unwrap();
    play_all(&mut game, order);
    assert_eq!(diagram::compact(&g, &game.position), "OX./.X.");
    assert_eq!(game.to_move, Color::White);
    game
}

const E02_ORDERS: [[&str; 3]; 2] = [["b1", "a2", "b2"], ["b2", "a2", "b1"]];

#[test]
fn e02_suicide_illegal_under_nstt() {
    for order in E02_ORDERS {
        let mut game = e02(nstt(), &order);
        let g = game.geo;
        let err = game.play(mv(&g, "a1")).unwrap_err();
        assert_eq!(
            err,
            GameError::IllegalMove { number: 4, color: "white", mv: "a1".into(), reason: IllegalMove::Suicide }
        );
        assert_eq!(names(&g, &game.legal_moves()), ["pass", "c1", "c2"]);
    }
}

#[test]
fn e02_suicide_clears_white_under_tt() {
    for order in E02_ORDERS {
        let mut game = e02(tt(), &order);
        let g = game.geo;
        game.play(mv(&g, "a1")).unwrap();
        assert_eq!(diagram::compact(&g, &game.position), ".X./.X.");
        assert_eq!(game.position.white, 0);
        assert_eq!(game.position.black, set(&g, &["b1", "b2"]));
    }
    // Under TT the suicide is one more legal option.
    let game = e02(tt(), &E02_ORDERS[0]);
    assert_eq!(names(&game.geo, &game.legal_moves()), ["pass", "a1", "c1", "c2"]);
}

#[test]
fn e02_two_passes_black_wins_by_3() {
    for rules in [nstt(), tt()] {
        let mut game = e02(rules, &E02_ORDERS[0]);
        game.play(Move::Pass).unwrap();
        game.play(Move::Pass).unwrap();
        assert!(game.is_over());
        assert_eq!(game.position.area(&game.geo), (4, 1), "B 2 stones + c1,c2; W 1 stone, a1 reaches both");
        assert_eq!(game.score(), 3);
        assert_eq!(result_phrase(value_with_komi(game.score(), Komi(0))), "Black wins by 3");
    }
    // The same position as a setup, from SGF.
    let sg = sgf::read_game("(;GM[1]SZ[3:2]AW[aa]AB[ba][bb]PL[W])").unwrap();
    let mut game = sg.to_game(None).unwrap();
    assert_eq!(names(&game.geo, &game.legal_moves()), ["pass", "c1", "c2"]);
    game.play(Move::Pass).unwrap();
    game.play(Move::Pass).unwrap();
    assert_eq!(game.score(), 3);
}

#[test]
fn e02_superko_flavour_does_not_matter_here() {
    let rules = Rules { superko: Superko::Situational, ..nstt() };
    let game = e02(rules, &E02_ORDERS[0]);
    assert_eq!(names(&game.geo, &game.legal_moves()), ["pass", "c1", "c2"]);
}

// ---------------------------------------------------------------------------
// E03: 4x3 "Go Basics" positions.

const E03_POSITION_1: &str = "O.X./XXOX/XXOX";

/// Blocks of color `c` with their liberties, as sorted point-name lists.
fn blocks(g: &Geometry, pos: &Position, c: Color) -> Vec<(Vec<String>, Vec<String>)> {
    let mut left = pos.stones(c);
    let empty = pos.empty(g);
    let mut out = Vec::new();
    while left != 0 {
        let seed = left & left.wrapping_neg();
        let block = g.flood(seed, pos.stones(c));
        left &= !block;
        let libs = g.neighbours(block) & empty;
        let n = |b: Bits| Geometry::iter(b).map(|p| g.point_name(p)).collect::<Vec<_>>();
        out.push((n(block), n(libs)));
    }
    out
}

fn owned(v: &[(&[&str], &[&str])]) -> Vec<(Vec<String>, Vec<String>)> {
    v.iter()
        .map(|(b, l)| (b.iter().map(|s| s.to_string()).collect(), l.iter().map(|s| s.to_string()).collect()))
        .collect()
}

#[test]
fn e03_position_1_blocks_and_liberties() {
    let g = geo(4, 3);
    let pos = diagram::parse(&g, E03_POSITION_1).unwrap();
    assert_eq!(
        blocks(&g, &pos, Color::Black),
        owned(&[(&["a1", "b1", "a2", "b2"], &["b3"]), (&["d1", "d2"], &["d3"]), (&["c3"], &["b3", "d3"])])
    );
    assert_eq!(blocks(&g, &pos, Color::White), owned(&[(&["c1", "c2"], &[]), (&["a3"], &["b3"])]));
    assert!(!pos.is_legal(&g));
}

#[test]
fn e03_single_stone_removals_that_make_it_legal() {
    let g = geo(4, 3);
    let pos = diagram::parse(&g, E03_POSITION_1).unwrap();
    let mut fixes = Vec::new();
    for p in Geometry::iter(pos.black | pos.white) {
        let mut q = pos;
        q.set(p, None);
        if q.is_legal(&g) {
            fixes.push(g.point_name(p));
        }
    }
    fixes.sort();
    assert_eq!(fixes, ["b1", "b2", "c1", "c2", "c3", "d1", "d2"]);
    // No single added stone works.
    for p in Geometry::iter(pos.empty(&g)) {
        for c in [Color::Black, Color::White] {
            let mut q = pos;
            q.set(p, Some(c));
            assert!(!q.is_legal(&g), "adding {:?} at {}", c, g.point_name(p));
        }
    }
}

#[test]
fn e03_empty_and_all_black_boards() {
    let g = geo(4, 3);
    assert!(Position::EMPTY.is_legal(&g), "position 3: no blocks, legal");
    let all_black = Position { black: g.all(), white: 0 };
    assert_eq!(blocks(&g, &all_black, Color::Black).len(), 1);
    assert!(!all_black.is_legal(&g), "position 4: one black block, no white, illegal");
    // And it is the only position with one black block and no white block that is illegal:
    // any empty point would be a liberty of that single block.
    for hole in 0..g.points() as u8 {
        let p = Position { black: g.all() & !(1u64 << hole), white: 0 };
        assert!(p.is_legal(&g));
    }
}

// ---------------------------------------------------------------------------
// E04: the 6x5 chains diagram and clearing (rule 4).

const E04: &str = "OXOOX./OXOX../OOOX../XXXOX./OX..XO";

#[test]
fn e04_chains_and_liberties() {
    let g = geo(6, 5);
    let pos = diagram::parse(&g, E04).unwrap();
    assert!(!pos.is_legal(&g));
    let libs = |c: Color, chain: &[&str]| -> u32 {
        let b = set(&g, chain);
        let found = blocks(&g, &pos, c)
            .into_iter()
            .find(|(pts, _)| set(&g, &pts.iter().map(String::as_str).collect::<Vec<_>>()) == b)
            .unwrap_or_else(|| panic!("no chain {chain:?}"));
        found.1.len() as u32
    };
    assert_eq!(blocks(&g, &pos, Color::Black).len(), 5);
    assert_eq!(libs(Color::Black, &["b4", "b5"]), 0);
    assert_eq!(libs(Color::Black, &["a2", "b1", "b2", "c2"]), 1);
    assert_eq!(libs(Color::Black, &["d3", "d4"]), 2);
    assert_eq!(libs(Color::Black, &["e1", "e2"]), 3);
    assert_eq!(libs(Color::Black, &["e5"]), 2);
    assert_eq!(blocks(&g, &pos, Color::White).len(), 4);
    assert_eq!(libs(Color::White, &["a1"]), 0);
    assert_eq!(libs(Color::White, &["a3", "a4", "a5", "b3", "c3", "c4", "c5", "d5"]), 0);
    assert_eq!(libs(Color::White, &["d2"]), 1);
    assert_eq!(libs(Color::White, &["f1"]), 1);
}

#[test]
fn e04_clearing_black_and_clearing_white() {
    let g = geo(6, 5);
    let pos = diagram::parse(&g, E04).unwrap();
    let mut black_cleared = pos;
    black_cleared.clear(&g, Color::Black);
    assert_eq!(diagram::compact(&g, &black_cleared), "O.OOX./O.OX../OOOX../XXXOX./OX..XO");
    let mut white_cleared = pos;
    white_cleared.clear(&g, Color::White);
    assert_eq!(diagram::compact(&g, &white_cleared), ".X..X./.X.X../...X../XXXOX./.X..XO");
    // Clearing white leaves a legal position; clearing black does not (white has dead chains).
    assert!(white_cleared.is_legal(&g));
    assert!(!black_cleared.is_legal(&g));
}
