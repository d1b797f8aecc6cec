//! A deliberately literal, slow implementation of the ten Tromp-Taylor rules,
//! used as an oracle for the fast bitboard engine in `src/`.
//!
//! Nothing here uses the `gosolve` crate: the board is a `Vec<Cell>`, "reach"
//! (rule 3) is an explicit breadth-first search, clearing (rule 4) empties every
//! point of a colour that does not reach empty, a move (rule 7) colours a point
//! and clears the opponent and then itself over the *whole* board, and superko
//! (rule 6) compares against a plain list of earlier boards by equality.
//!
//! Point `x + y*w` is column `x` (a, b, c … from the left) and row `y` (1, 2, …
//! from the bottom), the same numbering the documents use.

#![allow(dead_code)]

use std::collections::VecDeque;

/// Rule 2: each point is coloured black, white or empty.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Cell {
    Empty,
    Black,
    White,
}

impl Cell {
    /// The other player (only meaningful for `Black` and `White`).
    pub fn opponent(self) -> Cell {
        match self {
            Cell::Black => Cell::White,
            Cell::White => Cell::Black,
            Cell::Empty => panic!("Empty has no opponent"),
        }
    }
}

/// A grid colouring (rule 2) of a `w` × `h` board.
#[derive(Clone, PartialEq, Eq, Debug, Hash)]
pub struct Board {
    pub w: usize,
    pub h: usize,
    pub cells: Vec<Cell>,
}

impl Board {
    /// The empty grid.
    pub fn new(w: usize, h: usize) -> Board {
        assert!(w >= 1 && h >= 1);
        Board { w, h, cells: vec![Cell::Empty; w * h] }
    }

    /// A board drawn as in the documents: rows top (row h) to bottom (row 1),
    /// `X` black, `O` white, `.` empty; whitespace between points is ignored.
    pub fn from_diagram(rows: &[&str]) -> Board {
        let h = rows.len();
        let parsed: Vec<Vec<Cell>> = rows
            .iter()
            .map(|r| {
                r.chars()
                    .filter(|c| !c.is_whitespace())
                    .map(|c| match c {
                        'X' | 'x' | 'B' => Cell::Black,
                        'O' | 'o' | 'W' => Cell::White,
                        '.' => Cell::Empty,
                        other => panic!("bad diagram character {other:?}"),
                    })
                    .collect()
            })
            .collect();
        let w = parsed[0].len();
        let mut b = Board::new(w, h);
        for (i, row) in parsed.iter().enumerate() {
            assert_eq!(row.len(), w, "ragged diagram");
            let y = h - 1 - i;
            for (x, &c) in row.iter().enumerate() {
                b.set(x, y, c);
            }
        }
        b
    }

    pub fn len(&self) -> usize {
        self.w * self.h
    }

    pub fn get(&self, x: usize, y: usize) -> Cell {
        self.cells[x + y * self.w]
    }

    pub fn set(&mut self, x: usize, y: usize, c: Cell) {
        self.cells[x + y * self.w] = c;
    }

    /// Index of a point named like "a1", "c2" (column letter, row number).
    pub fn point(&self, name: &str) -> usize {
        let mut chars = name.chars();
        let col = chars.next().unwrap();
        let x = (col as u8 - b'a') as usize;
        let row: usize = chars.as_str().parse().unwrap();
        assert!(x < self.w && row >= 1 && row <= self.h, "point {name} off the board");
        x + (row - 1) * self.w
    }

    /// The points vertically or horizontally adjacent to point `p`.
    pub fn adjacent(&self, p: usize) -> Vec<usize> {
        let (x, y) = (p % self.w, p / self.w);
        let mut out = Vec::with_capacity(4);
        if x > 0 {
            out.push(p - 1);
        }
        if x + 1 < self.w {
            out.push(p + 1);
        }
        if y > 0 {
            out.push(p - self.w);
        }
        if y + 1 < self.h {
            out.push(p + self.w);
        }
        out
    }

    /// Rule 3: point `p`, not coloured `c`, reaches `c` when a path of adjacent
    /// points of `p`'s colour leads from `p` to a point coloured `c`.
    /// (A point coloured `c` is "not said to reach" `c`; we answer false.)
    pub fn reaches(&self, p: usize, c: Cell) -> bool {
        let own = self.cells[p];
        if own == c {
            return false;
        }
        let mut seen = vec![false; self.len()];
        let mut queue = VecDeque::new();
        seen[p] = true;
        queue.push_back(p);
        while let Some(q) = queue.pop_front() {
            for n in self.adjacent(q) {
                if self.cells[n] == c {
                    return true;
                }
                if self.cells[n] == own && !seen[n] {
                    seen[n] = true;
                    queue.push_back(n);
                }
            }
        }
        false
    }

    /// Rule 4: clearing colour `c` empties all points of colour `c` that don't
    /// reach empty. All such points are found first, then emptied together.
    pub fn clear(&mut self, c: Cell) {
        assert!(c != Cell::Empty);
        let doomed: Vec<usize> =
            (0..self.len()).filter(|&p| self.cells[p] == c && !self.reaches(p, Cell::Empty)).collect();
        for p in doomed {
            self.cells[p] = Cell::Empty;
        }
    }

    /// The board after clearing colour `c`.
    pub fn cleared(&self, c: Cell) -> Board {
        let mut b = self.clone();
        b.clear(c);
        b
    }

    /// A legal position: every point is empty or reaches empty, i.e. clearing
    /// either colour changes nothing.
    pub fn legal_position(&self) -> bool {
        let by_points = (0..self.len()).all(|p| self.cells[p] == Cell::Empty || self.reaches(p, Cell::Empty));
        let by_clearing = self.cleared(Cell::Black) == *self && self.cleared(Cell::White) == *self;
        assert_eq!(by_points, by_clearing, "the two readings of a legal position disagree");
        by_points
    }

    /// Rule 9: the number of points of colour `c` plus the number of empty
    /// points that reach only `c`.
    pub fn score_of(&self, c: Cell) -> u32 {
        let other = c.opponent();
        (0..self.len())
            .filter(|&p| {
                self.cells[p] == c || (self.cells[p] == Cell::Empty && self.reaches(p, c) && !self.reaches(p, other))
            })
            .count() as u32
    }

    /// (Black's score, White's score).
    pub fn area(&self) -> (u32, u32) {
        (self.score_of(Cell::Black), self.score_of(Cell::White))
    }

    /// Black's score minus White's score (no komi).
    pub fn score(&self) -> i32 {
        let (b, w) = self.area();
        b as i32 - w as i32
    }

    /// Number of stones of colour `c`.
    pub fn count(&self, c: Cell) -> usize {
        self.cells.iter().filter(|&&x| x == c).count()
    }

    /// Rows top to bottom, `X` black, `O` white, `.` empty.
    pub fn diagram(&self) -> String {
        let mut s = String::new();
        for y in (0..self.h).rev() {
            for x in 0..self.w {
                s.push(match self.get(x, y) {
                    Cell::Empty => '.',
                    Cell::Black => 'X',
                    Cell::White => 'O',
                });
            }
            s.push('\n');
        }
        s
    }
}

/// Rule 7 literally: `c` colours the empty point `p`, then the opponent colour
/// is cleared, then `c` is cleared. Returns the new board and whether the
/// own-clearing step removed any stone (a suicide). `None` if `p` is occupied.
pub fn apply_move(board: &Board, c: Cell, p: usize) -> Option<(Board, bool)> {
    if board.cells[p] != Cell::Empty {
        return None;
    }
    let mut b = board.clone();
    b.cells[p] = c;
    b.clear(c.opponent());
    let before_own = b.clone();
    b.clear(c);
    let suicide = b != before_own;
    Some((b, suicide))
}

/// Rule 6 flavours.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ko {
    /// A move may not recreate any earlier grid colouring.
    Positional,
    /// A move may not recreate any earlier (colouring, player to move).
    Situational,
}

/// A turn (rule 6).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum Turn {
    Pass,
    Move(usize),
}

/// Why a turn is illegal.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Why {
    Occupied,
    Suicide,
    Superko,
    GameOver,
}

/// A literal game: the current board, whose turn, the run of consecutive
/// passes, and every earlier situation in a plain list.
#[derive(Clone, Debug)]
pub struct LiteralGame {
    pub board: Board,
    pub to_move: Cell,
    pub suicide_allowed: bool,
    pub ko: Ko,
    pub consecutive_passes: u32,
    /// Every situation so far, oldest first: (colouring, player to move).
    /// Positional superko looks only at the colourings.
    pub situations: Vec<(Board, Cell)>,
}

impl LiteralGame {
    /// Rule 5: an empty grid, Black to play.
    pub fn new(w: usize, h: usize, suicide_allowed: bool, ko: Ko) -> LiteralGame {
        let board = Board::new(w, h);
        LiteralGame {
            situations: vec![(board.clone(), Cell::Black)],
            board,
            to_move: Cell::Black,
            suicide_allowed,
            ko,
            consecutive_passes: 0,
        }
    }

    /// A game from a setup colouring (which must be legal) with `to_move` to
    /// play; the setup counts as the first earlier situation.
    pub fn from_setup(board: Board, to_move: Cell, suicide_allowed: bool, ko: Ko) -> LiteralGame {
        assert!(board.legal_position(), "setup must be a legal position");
        LiteralGame {
            situations: vec![(board.clone(), to_move)],
            board,
            to_move,
            suicide_allowed,
            ko,
            consecutive_passes: 0,
        }
    }

    /// Rule 8: two consecutive passes end the game.
    pub fn is_over(&self) -> bool {
        self.consecutive_passes >= 2
    }

    /// Rule 6: would the board `b` (with `next` to move) repeat an earlier one?
    fn repeats(&self, b: &Board, next: Cell) -> bool {
        match self.ko {
            Ko::Positional => self.situations.iter().any(|(old, _)| old == b),
            Ko::Situational => self.situations.iter().any(|(old, who)| old == b && *who == next),
        }
    }

    /// The board after `t`, or why `t` is illegal.
    pub fn try_turn(&self, t: Turn) -> Result<Board, Why> {
        if self.is_over() {
            return Err(Why::GameOver);
        }
        match t {
            Turn::Pass => Ok(self.board.clone()),
            Turn::Move(p) => {
                let (b, suicide) = apply_move(&self.board, self.to_move, p).ok_or(Why::Occupied)?;
                if suicide && !self.suicide_allowed {
                    return Err(Why::Suicide);
                }
                if self.repeats(&b, self.to_move.opponent()) {
                    return Err(Why::Superko);
                }
                Ok(b)
            }
        }
    }

    /// Every legal turn: pass first, then points in index order.
    pub fn legal_moves(&self) -> Vec<Turn> {
        if self.is_over() {
            return Vec::new();
        }
        let mut out = vec![Turn::Pass];
        out.extend((0..self.board.len()).map(Turn::Move).filter(|&t| self.try_turn(t).is_ok()));
        out
    }

    /// Play `t`; panics if illegal.
    pub fn play(&mut self, t: Turn) {
        let b = self.try_turn(t).unwrap_or_else(|why| panic!("illegal turn {t:?}: {why:?}"));
        self.consecutive_passes = if t == Turn::Pass { self.consecutive_passes + 1 } else { 0 };
        self.board = b;
        self.to_move = self.to_move.opponent();
        self.situations.push((self.board.clone(), self.to_move));
    }

    /// Rule 9: Black's score minus White's score.
    pub fn score(&self) -> i32 {
        self.board.score()
    }
}
