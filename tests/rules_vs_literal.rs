//! The fast engine (`Position`, `Game`) against the literal Tromp-Taylor oracle
//! in `tests/literal`: random games on many small boards under all four rule
//! variants, random colourings (legal and illegal), and the documents' examples.
//!
//! Everything is deterministic: each proptest runner has a fixed seed and a
//! fixed number of cases, and failure persistence is off.

mod literal;

use gosolve::{Color, Game, Geometry, IllegalMove, Komi, Move, Position, Rules, Superko};
use literal::{apply_move, Board, Cell, Ko, LiteralGame, Turn, Why};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};

// ---------------------------------------------------------------------------
// Conversions between the two worlds.

fn geo_of(b: &Board) -> Geometry {
    Geometry::new(b.w, b.h).unwrap()
}

fn to_position(b: &Board) -> Position {
    let mut p = Position::EMPTY;
    for (i, &c) in b.cells.iter().enumerate() {
        match c {
            Cell::Empty => {}
            Cell::Black => p.black |= 1u64 << i,
            Cell::White => p.white |= 1u64 << i,
        }
    }
    p
}

fn to_board(p: Position, geo: &Geometry) -> Board {
    let mut b = Board::new(geo.width(), geo.height());
    for i in 0..b.len() {
        let bit = 1u64 << i;
        b.cells[i] = match (p.black & bit != 0, p.white & bit != 0) {
            (false, false) => Cell::Empty,
            (true, false) => Cell::Black,
            (false, true) => Cell::White,
            (true, true) => panic!("point {i} is both black and white"),
        };
    }
    assert_eq!((p.black | p.white) & !geo.all(), 0, "stones off the board");
    b
}

fn to_color(c: Cell) -> Color {
    match c {
        Cell::Black => Color::Black,
        Cell::White => Color::White,
        Cell::Empty => panic!("empty is not a player"),
    }
}

fn to_move(t: Turn) -> Move {
    match t {
        Turn::Pass => Move::Pass,
        Turn::Move(p) => Move::Play(p as u8),
    }
}

fn to_illegal(w: Why) -> IllegalMove {
    match w {
        Why::Occupied => IllegalMove::Occupied,
        Why::Suicide => IllegalMove::Suicide,
        Why::Superko => IllegalMove::Superko,
        Why::GameOver => IllegalMove::GameOver,
    }
}

fn rules_of(suicide: bool, ko: Ko) -> Rules {
    let superko = match ko {
        Ko::Positional => Superko::Positional,
        Ko::Situational => Superko::Situational,
    };
    Rules { suicide, superko, komi: Komi(0) }
}

// ---------------------------------------------------------------------------
// The comparison at one moment of a game.

/// What one game exercised.
#[derive(Default, Debug, Clone, Copy)]
struct Tally {
    games: u64,
    /// Turns played (each one compared before and after).
    turns: u64,
    /// Games ended by two passes (the rest hit the turn cap).
    ended_by_passes: u64,
    /// Candidate turns compared with `try_move` (pass and every point, every turn).
    candidates: u64,
    /// Candidates refused for superko, and for suicide (no-suicide rules).
    superko: u64,
    suicide_refused: u64,
    /// Moves played that captured, and suicides played (suicide rules).
    captures: u64,
    suicides_played: u64,
}

impl Tally {
    fn add(&mut self, o: &Tally) {
        self.games += o.games;
        self.turns += o.turns;
        self.ended_by_passes += o.ended_by_passes;
        self.candidates += o.candidates;
        self.superko += o.superko;
        self.suicide_refused += o.suicide_refused;
        self.captures += o.captures;
        self.suicides_played += o.suicides_played;
    }
}

/// Asserts that the engine's game and the literal game agree on everything
/// observable now, including the outcome of every possible next turn.
fn check_agree(lit: &LiteralGame, eng: &Game, tally: &mut Tally) -> Result<(), TestCaseError> {
    let geo = eng.geo;
    let ctx = || format!("\n{}moves so far: {:?}", lit.board.diagram(), eng.moves);
    prop_assert_eq!(eng.position, to_position(&lit.board), "positions differ{}", ctx());
    prop_assert_eq!(eng.to_move, to_color(lit.to_move), "player to move differs{}", ctx());
    prop_assert_eq!(eng.is_over(), lit.is_over(), "over/not over differs{}", ctx());
    prop_assert!(lit.board.legal_position(), "literal game reached an illegal position{}", ctx());
    prop_assert_eq!(eng.position.is_legal(&geo), lit.board.legal_position(), "is_legal differs{}", ctx());
    prop_assert_eq!(eng.position.area(&geo), lit.board.area(), "area differs{}", ctx());
    prop_assert_eq!(eng.score(), lit.score(), "score differs{}", ctx());

    let lit_legal: Vec<Move> = lit.legal_moves().into_iter().map(to_move).collect();
    prop_assert_eq!(eng.legal_moves(), lit_legal, "legal turns differ{}", ctx());

    let turns = std::iter::once(Turn::Pass).chain((0..lit.board.len()).map(Turn::Move));
    for t in turns {
        let want = lit.try_turn(t);
        tally.candidates += 1;
        match want {
            Err(Why::Superko) => tally.superko += 1,
            Err(Why::Suicide) => tally.suicide_refused += 1,
            _ => {}
        }
        let want = want.map(|b| to_position(&b)).map_err(to_illegal);
        let got = eng.try_move(to_move(t));
        prop_assert_eq!(got, want, "turn {:?} differs{}", t, ctx());
    }
    Ok(())
}

/// Plays one game, choosing with `choices[i]` among the literal engine's legal
/// turns at turn `i`; a pass is chosen with probability about `pass_pct`%
/// when a move is available. Both sides are compared before every turn and
/// at the end.
fn play_game(mut lit: LiteralGame, mut eng: Game, choices: &[u32], pass_pct: u32) -> Result<Tally, TestCaseError> {
    let mut tally = Tally { games: 1, ..Tally::default() };
    for &r in choices {
        check_agree(&lit, &eng, &mut tally)?;
        if lit.is_over() {
            break;
        }
        let legal = lit.legal_moves();
        let moves: Vec<Turn> = legal.iter().copied().filter(|&t| t != Turn::Pass).collect();
        let t =
            if moves.is_empty() || r % 100 < pass_pct { Turn::Pass } else { moves[(r / 100) as usize % moves.len()] };
        if let Turn::Move(p) = t {
            let (after, suicide) = apply_move(&lit.board, lit.to_move, p).unwrap();
            tally.suicides_played += suicide as u64;
            tally.captures += (after.count(lit.to_move.opponent()) < lit.board.count(lit.to_move.opponent())) as u64;
        }
        lit.play(t);
        let played = eng.play(to_move(t));
        prop_assert!(played.is_ok(), "engine refused {:?}: {:?}", t, played);
        tally.turns += 1;
    }
    check_agree(&lit, &eng, &mut tally)?;
    tally.ended_by_passes = lit.is_over() as u64;
    Ok(tally)
}

// ---------------------------------------------------------------------------
// Random games.

/// Longest game played (turns).
const CAP: usize = 200;

/// Boards from the brief with the number of random games per rule variant.
/// Larger boards cost more per turn (every point is tried every turn against
/// the whole history), so they get fewer games.
const GAME_BOARDS: &[(usize, usize, u32)] = &[
    (1, 1, 60),
    (1, 2, 100),
    (1, 3, 150),
    (1, 5, 150),
    (1, 7, 150),
    (2, 2, 200),
    (2, 3, 150),
    (3, 2, 150),
    (3, 3, 150),
    (4, 4, 80),
    (5, 5, 50),
    (2, 5, 100),
    (4, 3, 100),
];

fn runner(cases: u32, seed: u64) -> TestRunner {
    TestRunner::new(Config { cases, failure_persistence: None, rng_seed: RngSeed::Fixed(seed), ..Config::default() })
}

fn games_for_variant(suicide: bool, ko: Ko, variant_seed: u64) {
    let rules = rules_of(suicide, ko);
    let mut total = Tally::default();
    for (k, &(w, h, cases)) in GAME_BOARDS.iter().enumerate() {
        let geo = Geometry::new(w, h).unwrap();
        let tally = std::cell::RefCell::new(Tally::default());
        // Pass probability per game: mostly small, so games run long and
        // often reach the cap; sometimes larger, so games end by two passes.
        let pass_pct = prop_oneof![3 => 0u32..4, 1 => 4u32..25];
        let strategy = (prop::collection::vec(any::<u32>(), CAP), pass_pct);
        runner(cases, variant_seed * 1000 + k as u64)
            .run(&strategy, |(choices, pass_pct)| {
                let lit = LiteralGame::new(w, h, suicide, ko);
                let eng = Game::new(geo, rules, Position::EMPTY, Color::Black).unwrap();
                let t = play_game(lit, eng, &choices, pass_pct)?;
                tally.borrow_mut().add(&t);
                Ok(())
            })
            .unwrap_or_else(|e| panic!("{} on {}x{}: {}", rules.describe(), w, h, e));
        let t = tally.into_inner();
        eprintln!("{} {}x{}: {:?}", rules.name(), w, h, t);
        total.add(&t);
    }
    eprintln!("{} TOTAL: {:?}", rules.name(), total);
    assert!(total.superko > 0 && total.captures > 0);
    if suicide {
        assert!(total.suicides_played > 0);
    } else {
        assert!(total.suicide_refused > 0);
    }
}

#[test]
fn games_nstt_positional() {
    games_for_variant(false, Ko::Positional, 1);
}

#[test]
fn games_nstt_situational() {
    games_for_variant(false, Ko::Situational, 2);
}

#[test]
fn games_tt_positional() {
    games_for_variant(true, Ko::Positional, 3);
}

#[test]
fn games_tt_situational() {
    games_for_variant(true, Ko::Situational, 4);
}

// ---------------------------------------------------------------------------
// Random colourings.

/// Boards for random colourings: the game boards plus the extreme shapes of
/// the 64-bit packing.
const POSITION_BOARDS: &[(usize, usize)] = &[
    (1, 1),
    (1, 2),
    (1, 3),
    (1, 5),
    (1, 7),
    (2, 2),
    (2, 3),
    (3, 2),
    (3, 3),
    (4, 4),
    (5, 5),
    (2, 5),
    (4, 3),
    (6, 5),
    (7, 9),
    (8, 8),
    (1, 64),
    (64, 1),
    (2, 32),
    (32, 2),
];

/// A random colouring of a board from `POSITION_BOARDS`: each point is empty
/// with probability about `empty_pct`%, otherwise black or white evenly.
fn colouring() -> impl Strategy<Value = Board> {
    (0..POSITION_BOARDS.len(), 0u32..100, prop::collection::vec(any::<u32>(), 64)).prop_map(|(k, empty_pct, rolls)| {
        let (w, h) = POSITION_BOARDS[k];
        let mut b = Board::new(w, h);
        for (cell, &r) in b.cells.iter_mut().zip(&rolls) {
            *cell = if r % 100 < empty_pct {
                Cell::Empty
            } else if (r / 100) % 2 == 0 {
                Cell::Black
            } else {
                Cell::White
            };
        }
        b
    })
}

/// `is_legal`, `clear` of each colour and `area` on random colourings, legal or not.
#[test]
fn random_colourings_legality_clearing_area() {
    let counts = std::cell::RefCell::new((0u32, 0u32));
    runner(20_000, 77)
        .run(&colouring(), |b| {
            let geo = geo_of(&b);
            let p = to_position(&b);
            prop_assert_eq!(to_board(p, &geo), b.clone());
            let lit_legal = b.legal_position();
            prop_assert_eq!(p.is_legal(&geo), lit_legal, "is_legal differs on\n{}", b.diagram());
            for c in [Cell::Black, Cell::White] {
                let mut q = p;
                q.clear(&geo, to_color(c));
                prop_assert_eq!(to_board(q, &geo), b.cleared(c), "clear {:?} differs on\n{}", c, b.diagram());
            }
            prop_assert_eq!(p.area(&geo), b.area(), "area differs on\n{}", b.diagram());
            prop_assert_eq!(p.score(&geo), b.score());
            let mut k = counts.borrow_mut();
            if lit_legal {
                k.0 += 1
            } else {
                k.1 += 1
            }
            Ok(())
        })
        .unwrap();
    let (legal, illegal) = counts.into_inner();
    eprintln!("random colourings: {legal} legal, {illegal} illegal");
    assert!(legal > 2_000 && illegal > 2_000, "the generator should give both kinds");
}

/// Every move of both colours, with and without suicide, from random legal
/// colourings: `Position::play` against the literal rule 7.
#[test]
fn random_positions_every_move() {
    let strategy = colouring().prop_filter("legal positions only", |b| b.legal_position());
    let mut r = TestRunner::new(Config {
        cases: 6_000,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(78),
        max_global_rejects: 1_000_000,
        ..Config::default()
    });
    r.run(&strategy, |b| {
        let geo = geo_of(&b);
        let p = to_position(&b);
        for c in [Cell::Black, Cell::White] {
            for i in 0..b.len() {
                let lit = apply_move(&b, c, i);
                for suicide in [false, true] {
                    let want = match &lit {
                        None => Err(IllegalMove::Occupied),
                        Some((_, true)) if !suicide => Err(IllegalMove::Suicide),
                        Some((after, _)) => Ok(to_position(after)),
                    };
                    let got = p.play(&geo, to_color(c), i as u8, suicide);
                    prop_assert_eq!(got, want, "{:?} at {} (suicide {}) on\n{}", c, i, suicide, b.diagram());
                }
            }
        }
        Ok(())
    })
    .unwrap();
}

/// Random games from random legal setups, either player first, each variant.
#[test]
fn games_from_random_setups() {
    let strategy = (
        colouring().prop_filter("legal, at most 30 points", |b| b.len() <= 30 && b.legal_position()),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        prop::collection::vec(any::<u32>(), 60),
        0u32..30,
    );
    let mut r = TestRunner::new(Config {
        cases: 1_500,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(79),
        max_global_rejects: 1_000_000,
        ..Config::default()
    });
    r.run(&strategy, |(b, white_first, suicide, situational, choices, pass_pct)| {
        let ko = if situational { Ko::Situational } else { Ko::Positional };
        let first = if white_first { Cell::White } else { Cell::Black };
        let geo = geo_of(&b);
        let lit = LiteralGame::from_setup(b.clone(), first, suicide, ko);
        let eng = Game::new(geo, rules_of(suicide, ko), to_position(&b), to_color(first)).unwrap();
        play_game(lit, eng, &choices, pass_pct)?;
        Ok(())
    })
    .unwrap();
}

/// The engine refuses exactly the illegal setups.
#[test]
fn game_setup_legality() {
    runner(3_000, 80)
        .run(&colouring(), |b| {
            let geo = geo_of(&b);
            let made = Game::new(geo, Rules::default(), to_position(&b), Color::Black);
            prop_assert_eq!(made.is_ok(), b.legal_position());
            Ok(())
        })
        .unwrap();
}

// ---------------------------------------------------------------------------
// The documents' examples (shared/seed_examples.md), pinning the oracle itself
// and checking the engine on them too.

fn names(b: &Board, turns: &[Turn]) -> Vec<String> {
    turns
        .iter()
        .map(|t| match t {
            Turn::Pass => "pass".to_string(),
            Turn::Move(p) => {
                let (x, y) = (p % b.w, p / b.w);
                format!("{}{}", (b'a' + x as u8) as char, y + 1)
            }
        })
        .collect()
}

/// Plays the same named turns on both engines.
fn both_play(lit: &mut LiteralGame, eng: &mut Game, name: &str) {
    let t = if name == "pass" { Turn::Pass } else { Turn::Move(lit.board.point(name)) };
    lit.play(t);
    eng.play(to_move(t)).unwrap();
    check_agree(lit, eng, &mut Tally::default()).unwrap();
}

/// E01: 1.B[a2] 2.W[b2] 3.B[a1] 4.W[b1] 5.B[a2] 6.W[a1]; 7.B[a2] would recreate
/// the position after move 1, so Black must pass; after two passes W+4.
#[test]
fn e01_two_by_two_superko_game() {
    for suicide in [false, true] {
        let mut lit = LiteralGame::new(2, 2, suicide, Ko::Positional);
        let geo = Geometry::new(2, 2).unwrap();
        let mut eng = Game::new(geo, rules_of(suicide, Ko::Positional), Position::EMPTY, Color::Black).unwrap();
        let after = [["X.", ".."], ["XO", ".."], ["XO", "X."], [".O", ".O"], ["XO", ".O"], [".O", "OO"]];
        for (name, rows) in ["a2", "b2", "a1", "b1", "a2", "a1"].iter().zip(after) {
            both_play(&mut lit, &mut eng, name);
            assert_eq!(lit.board, Board::from_diagram(&rows), "after {name}");
        }
        let a2 = Turn::Move(lit.board.point("a2"));
        assert_eq!(lit.try_turn(a2), Err(Why::Superko));
        // The capture itself is ordinary rule 7: it would give the board after move 1.
        assert_eq!(apply_move(&lit.board, Cell::Black, lit.board.point("a2")).unwrap().0, lit.situations[1].0);
        assert_eq!(lit.legal_moves(), vec![Turn::Pass], "Black has no legal move");
        both_play(&mut lit, &mut eng, "pass");
        assert!(!lit.is_over());
        both_play(&mut lit, &mut eng, "pass");
        assert!(lit.is_over());
        assert_eq!(lit.legal_moves(), vec![]);
        assert_eq!(lit.board.area(), (0, 4));
        assert_eq!(lit.score(), -4, "W+4");
    }
}

/// Under situational superko 7.B[a2] gives (position after move 1, White to
/// move), which did occur (after move 1 White was to move): still illegal.
#[test]
fn e01_situational_also_forbids_7_a2() {
    let mut lit = LiteralGame::new(2, 2, false, Ko::Situational);
    for name in ["a2", "b2", "a1", "b1", "a2", "a1"] {
        lit.play(Turn::Move(lit.board.point(name)));
    }
    assert_eq!(lit.try_turn(Turn::Move(lit.board.point("a2"))), Err(Why::Superko));
}

fn e02_setup() -> Board {
    Board::from_diagram(&["OX.", ".X."])
}

/// E02: 3x2 after 1.B[b1] 2.W[a2] 3.B[b2] (or b2/b1 swapped), White to move.
#[test]
fn e02_three_by_two_suicide() {
    for order in [["b1", "a2", "b2"], ["b2", "a2", "b1"]] {
        for ko in [Ko::Positional, Ko::Situational] {
            for suicide in [false, true] {
                let mut lit = LiteralGame::new(3, 2, suicide, ko);
                let geo = Geometry::new(3, 2).unwrap();
                let mut eng = Game::new(geo, rules_of(suicide, ko), Position::EMPTY, Color::Black).unwrap();
                check_agree(&lit, &eng, &mut Tally::default()).unwrap();
                for name in order {
                    both_play(&mut lit, &mut eng, name);
                }
                assert_eq!(lit.board, e02_setup());
                assert_eq!(lit.to_move, Cell::White);
                let a1 = lit.board.point("a1");
                let (after, was_suicide) = apply_move(&lit.board, Cell::White, a1).unwrap();
                assert!(was_suicide, "W a1 is suicide");
                assert_eq!(after, Board::from_diagram(&[".X.", ".X."]), "{{a1,a2}} is cleared");
                if suicide {
                    assert_eq!(lit.try_turn(Turn::Move(a1)), Ok(after.clone()));
                    assert_eq!(names(&lit.board, &lit.legal_moves()), ["pass", "a1", "c1", "c2"]);
                } else {
                    assert_eq!(lit.try_turn(Turn::Move(a1)), Err(Why::Suicide));
                    assert_eq!(names(&lit.board, &lit.legal_moves()), ["pass", "c1", "c2"], "NSTT: c1, c2 or pass");
                }
                both_play(&mut lit, &mut eng, "pass");
                both_play(&mut lit, &mut eng, "pass");
                assert!(lit.is_over());
                // B: 2 stones + c1, c2; W: 1 stone, a1 reaches both colours.
                assert_eq!(lit.board.area(), (4, 1));
                assert_eq!(lit.score(), 3, "B+3");
                // With a2 agreed dead: B+6.
                let mut dead = lit.board.clone();
                let a2 = dead.point("a2");
                dead.cells[a2] = Cell::Empty;
                assert_eq!(dead.score(), 6);
            }
        }
    }
}

/// E04: the 6x5 chains diagram of seed 000 rule 4, an illegal position, and the
/// boards after clearing black and after clearing white.
#[test]
fn e04_six_by_five_clearing() {
    let b = Board::from_diagram(&["OXOOX.", "OXOX..", "OOOX..", "XXXOX.", "OX..XO"]);
    assert_eq!((b.w, b.h), (6, 5));
    assert!(!b.legal_position());
    // Rule 3 on this board: b5 reaches white but not empty; c1 (empty) reaches both.
    assert!(!b.reaches(b.point("b5"), Cell::Empty));
    assert!(b.reaches(b.point("b5"), Cell::White));
    assert!(b.reaches(b.point("c1"), Cell::Black) && b.reaches(b.point("c1"), Cell::White));
    assert!(!b.reaches(b.point("a1"), Cell::Empty));
    assert!(b.reaches(b.point("e5"), Cell::Empty));
    let after_black = Board::from_diagram(&["O.OOX.", "O.OX..", "OOOX..", "XXXOX.", "OX..XO"]);
    let after_white = Board::from_diagram(&[".X..X.", ".X.X..", "...X..", "XXXOX.", ".X..XO"]);
    assert_eq!(b.cleared(Cell::Black), after_black);
    assert_eq!(b.cleared(Cell::White), after_white);
    // The engine agrees.
    let geo = geo_of(&b);
    let p = to_position(&b);
    assert!(!p.is_legal(&geo));
    let mut q = p;
    q.clear(&geo, Color::Black);
    assert_eq!(to_board(q, &geo), after_black);
    let mut q = p;
    q.clear(&geo, Color::White);
    assert_eq!(to_board(q, &geo), after_white);
}

/// E03: the 4x3 position 1 is illegal; removing exactly one of b1, b2, d1, d2,
/// c3, c1, c2 makes it legal, and no single added stone does. The full black
/// board is illegal, the empty board legal.
#[test]
fn e03_four_by_three_legal_positions() {
    let b = Board::from_diagram(&["O.X.", "XXOX", "XXOX"]);
    assert!(!b.legal_position());
    let mut fixes: Vec<String> = Vec::new();
    for i in 0..b.len() {
        match b.cells[i] {
            Cell::Empty => {
                for c in [Cell::Black, Cell::White] {
                    let mut v = b.clone();
                    v.cells[i] = c;
                    assert!(!v.legal_position(), "adding {c:?} at {i} should not help");
                }
            }
            _ => {
                let mut v = b.clone();
                v.cells[i] = Cell::Empty;
                if v.legal_position() {
                    fixes.extend(names(&b, &[Turn::Move(i)]));
                }
            }
        }
    }
    fixes.sort();
    assert_eq!(fixes, ["b1", "b2", "c1", "c2", "c3", "d1", "d2"]);
    assert!(Board::new(4, 3).legal_position());
    let mut full = Board::new(4, 3);
    full.cells.iter_mut().for_each(|c| *c = Cell::Black);
    assert!(!full.legal_position());
    assert!(!to_position(&full).is_legal(&Geometry::new(4, 3).unwrap()));
}

/// A few hand-made checks of the oracle's own corner cases.
#[test]
fn oracle_corner_cases() {
    // 1x1: every move is a suicide that restores the empty board.
    let g = LiteralGame::new(1, 1, true, Ko::Positional);
    assert_eq!(g.try_turn(Turn::Move(0)), Err(Why::Superko), "positional: repeats the empty board");
    let g = LiteralGame::new(1, 1, true, Ko::Situational);
    assert_eq!(g.try_turn(Turn::Move(0)), Ok(Board::new(1, 1)), "situational: (empty, White) is new");
    let g = LiteralGame::new(1, 1, false, Ko::Situational);
    assert_eq!(g.try_turn(Turn::Move(0)), Err(Why::Suicide));
    // Situational: after Black passes, (empty, White to move) is recorded; a
    // White suicide would give (empty, Black to move), the start: a repeat.
    let mut g = LiteralGame::new(1, 1, true, Ko::Situational);
    g.play(Turn::Pass);
    assert_eq!(g.try_turn(Turn::Move(0)), Err(Why::Superko));
    assert_eq!(g.legal_moves(), vec![Turn::Pass]);
    // Positional: a pass does not make a new colouring, and the game ends after two.
    let mut g = LiteralGame::new(1, 2, false, Ko::Positional);
    assert_eq!(g.legal_moves(), vec![Turn::Pass, Turn::Move(0), Turn::Move(1)]);
    g.play(Turn::Move(0));
    assert_eq!(g.legal_moves(), vec![Turn::Pass, Turn::Move(1)], "W a2 captures a1");
    g.play(Turn::Move(1));
    assert_eq!(g.board, Board::from_diagram(&["O", "."]));
    // Black a1 would capture the white stone and recreate the board after move 1.
    assert_eq!(g.try_turn(Turn::Move(0)), Err(Why::Superko));
    g.play(Turn::Pass);
    g.play(Turn::Pass);
    assert!(g.is_over());
    assert_eq!(g.try_turn(Turn::Pass), Err(Why::GameOver));
    assert_eq!(g.board.area(), (0, 2));
}
