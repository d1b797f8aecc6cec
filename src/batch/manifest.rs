//! Manifests: the jobs of a batch (TOML, or JSON by extension), each resolved
//! to a game, its rules (and where they came from) and a hash of everything
//! that decides its search.

use super::{built_in, DEFAULT_MANIFEST};
use crate::format::{diagram, sgf};
use crate::limits;
use crate::rules::geometry::Geometry;
use crate::rules::history::Game;
use crate::rules::position::{Color, Komi, Move, Position, Rules, Superko};
use crate::search::tree::path::Path as SearchPath;
use crate::store;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::path::Path;

/// Fields a job may set and `[defaults]` may supply.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobDefaults {
    pub to: Option<String>,
    pub suicide: Option<bool>,
    pub superko: Option<Superko>,
    pub komi: Option<f64>,
    pub node_limit: Option<u64>,
    pub time_limit: Option<f64>,
    pub value_only: Option<bool>,
    pub confirm: Option<bool>,
    pub confirm_with: Option<ConfirmWith>,
}

/// The engine configuration of a confirmation's second solve (see
/// [`JobSpec::confirm`]): a value-only solve that differs from the first
/// in how it searches, never in what it may conclude.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ConfirmWith {
    /// Mirror moves below the root are searched too (`--no-path-symmetry`):
    /// the same searches over a larger tree, affordable wherever the first
    /// solve was.
    #[default]
    NoPathSymmetry,
    /// The iterative-deepening alpha-beta alone (`--alpha-beta`), no df-pn:
    /// the most independent of the two, but far slower on boards with long
    /// ko fights (1x12 was not done in an hour).
    AlphaBeta,
    /// The first solve's engine on another number of threads
    /// ([`ConfirmWith::other_threads`]): lazy SMP's helpers then share out
    /// and order the work differently. It stands in for `NoPathSymmetry`
    /// where switching path symmetry off would replay the first solve
    /// ([`path_symmetry_can_act`]: every strip opening, the empty strips of
    /// even length, 2xn for even n, 6x4, 5x5 after b1).
    OtherThreads,
}

impl ConfirmWith {
    /// How the record names it.
    pub fn name(self) -> &'static str {
        match self {
            ConfirmWith::NoPathSymmetry => "no-path-symmetry",
            ConfirmWith::AlphaBeta => "alpha-beta",
            ConfirmWith::OtherThreads => "other-threads",
        }
    }

    /// The threads of an `OtherThreads` check of a job solved on `threads`:
    /// two where it ran one, else half as many, so that a check of a solve
    /// on several threads asks for no more cores than the solve had.
    pub fn other_threads(threads: usize) -> usize {
        if threads <= 1 {
            2
        } else {
            threads / 2
        }
    }
}

/// One job as written in the manifest.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobSpec {
    pub id: String,
    pub board: Option<String>,
    pub position: Option<String>,
    pub to: Option<String>,
    pub moves: Option<String>,
    pub sgf: Option<String>,
    pub suicide: Option<bool>,
    pub superko: Option<Superko>,
    pub komi: Option<f64>,
    pub node_limit: Option<u64>,
    pub time_limit: Option<f64>,
    /// Only the value and its line, not every root move's value.
    pub value_only: Option<bool>,
    /// The value to test first (with komi, as values are shown): a
    /// value-only solve starts with "value ≥ guess" instead of climbing
    /// from the area score. Only the work depends on it, never the value,
    /// so it is not in the spec hash.
    pub guess: Option<f64>,
    pub published: Option<f64>,
    pub source: Option<String>,
    /// Confirm the value a second way before the job counts as solved: the
    /// two bounds `value ≥ v` and `value ≤ v` each proved by a claim of its
    /// own on a fresh table, and a value-only solve with another engine
    /// configuration ([`ConfirmWith`]).
    pub confirm: Option<bool>,
    pub confirm_with: Option<ConfirmWith>,
    /// Why the value differs from `published` (the rules, or the line that
    /// refutes it), for the value `explained_value`: a difference with no
    /// explanation for the value found fails the batch.
    pub explanation: Option<String>,
    pub explained_value: Option<f64>,
}

/// A manifest: defaults and jobs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    #[serde(default)]
    pub defaults: JobDefaults,
    #[serde(default, rename = "job", alias = "jobs")]
    pub jobs: Vec<JobSpec>,
}

/// Why a manifest cannot be used. Messages are one line.
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    #[error("cannot read manifest {path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("manifest {path}: {message}")]
    Parse { path: String, message: String },
    #[error("manifest {path}: job '{id}': {message}")]
    Job { path: String, id: String, message: String },
}

impl Manifest {
    /// Parse manifest text; JSON when `name` ends in `.json`, TOML otherwise.
    pub fn parse(name: &str, text: &str) -> Result<Manifest, ManifestError> {
        let parse_err = |message: String| ManifestError::Parse { path: name.to_string(), message };
        if name.to_ascii_lowercase().ends_with(".json") {
            serde_json::from_str(text).map_err(|e| parse_err(e.to_string()))
        } else {
            toml::from_str(text).map_err(|e: toml::de::Error| {
                let at = e.span().map(|s| {
                    let line = text[..s.start.min(text.len())].matches('\n').count() + 1;
                    format!(" (line {})", line)
                });
                parse_err(format!("{}{}", e.message().trim().replace('\n', " "), at.unwrap_or_default()))
            })
        }
    }

    /// Read a manifest file.
    pub fn read(path: &Path) -> Result<Manifest, ManifestError> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| ManifestError::Io { path: name.clone(), source })?;
        Manifest::parse(&name, &text)
    }

    /// The built-in manifest.
    pub fn default_manifest() -> Manifest {
        Manifest::parse("data/batch-default.toml", DEFAULT_MANIFEST).expect("the built-in manifest parses")
    }

    /// A built-in manifest by name (see [`super::BUILT_IN`]).
    pub fn named(name: &str) -> Option<Manifest> {
        let (file, text) = built_in(name)?;
        Some(Manifest::parse(file, text).expect("the built-in manifests parse"))
    }

    /// Check every job and set it up; `name` is for messages, `base` the
    /// directory SGF paths are relative to.
    pub fn resolve(&self, name: &str, base: &Path) -> Result<Vec<Job>, ManifestError> {
        let mut ids = HashSet::new();
        let mut out = Vec::new();
        for spec in &self.jobs {
            let err = |message: String| ManifestError::Job { path: name.to_string(), id: spec.id.clone(), message };
            if spec.id.is_empty()
                || !spec.id.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
                || spec.id.starts_with('.')
            {
                return Err(ManifestError::Parse {
                    path: name.to_string(),
                    message: format!(
                        "job id '{}' must be non-empty letters, digits, '.', '_' or '-' (it names the result file)",
                        spec.id
                    ),
                });
            }
            if !ids.insert(spec.id.clone()) {
                return Err(ManifestError::Parse {
                    path: name.to_string(),
                    message: format!("job id '{}' appears twice", spec.id),
                });
            }
            out.push(Job::new(spec.with_defaults(&self.defaults), base).map_err(err)?);
        }
        Ok(out)
    }
}

impl JobSpec {
    /// Set this job up as a manifest's job is (its defaults already
    /// applied; SGF paths relative to `base`): what a distributed worker
    /// does with the job it is sent. The error is one line.
    pub fn resolve(&self, base: &Path) -> Result<Job, String> {
        Job::new(self.clone(), base)
    }

    fn with_defaults(&self, d: &JobDefaults) -> JobSpec {
        let mut s = self.clone();
        s.to = s.to.or_else(|| d.to.clone());
        s.suicide = s.suicide.or(d.suicide);
        s.superko = s.superko.or(d.superko);
        s.komi = s.komi.or(d.komi);
        s.node_limit = s.node_limit.or(d.node_limit);
        s.time_limit = s.time_limit.or(d.time_limit);
        s.value_only = s.value_only.or(d.value_only);
        s.confirm = s.confirm.or(d.confirm);
        s.confirm_with = s.confirm_with.or(d.confirm_with);
        s
    }

    /// Whether the job asks for its value to be confirmed.
    pub fn confirms(&self) -> bool {
        self.confirm == Some(true)
    }
}

/// A checked job, ready to run.
#[derive(Clone, Debug)]
pub struct Job {
    /// The spec with defaults applied.
    pub spec: JobSpec,
    /// The game to solve (its current position, with its history).
    pub game: Game,
    /// Hash of everything that decides the search (hex).
    pub hash: String,
    /// Where each part of the rules came from (see [`JobRecord::rules_source`](super::JobRecord::rules_source)).
    pub rules_source: String,
}

/// Whether path symmetry (the solver's skipping of mirror moves below the
/// root, which `--no-path-symmetry` switches off) can prune a move that a
/// search without it would make at a node with a choice.
///
/// It acts at a node whose every situation from the game's start is fixed
/// by a symmetry s. Below the game's position, a move keeps that only on
/// an empty point that s fixes (a stone elsewhere, or what it captures,
/// leaves the situation unlike its image, and a suicide there could only
/// take a group with the liberty s(p)); a pass keeps it too, but then the
/// opponent's mirror replies reach positions that the table, which stores
/// each result under its symmetric images, answers anyway. So where no
/// symmetry of the history fixes an empty point, the search without path
/// symmetry is the first one again (node for node on one thread:
/// `results/solve.md`, 2026-12-02).
pub fn path_symmetry_can_act(game: &Game) -> bool {
    let path = SearchPath::from_game(game);
    let empty = game.position.empty(&game.geo);
    Geometry::iter(u64::from(path.symmetric())).any(|i| {
        let s = path.symmetry(i as usize);
        Geometry::iter(empty).any(|p| s.point(p) == p)
    })
}

/// Where each rule came from: "job" (its fields or `[defaults]`), "sgf" (its
/// `RU`/`KM`) or "default", e.g. `suicide: sgf, superko: sgf, komi: job`.
fn rules_source_of(spec: &JobSpec, sgf: Option<&sgf::SgfGame>) -> String {
    let from = |given: bool, in_file: bool| {
        if given {
            "job"
        } else if in_file {
            "sgf"
        } else {
            "default"
        }
    };
    let ru = sgf.is_some_and(|g| g.ru.is_some());
    let km = sgf.is_some_and(|g| g.km);
    format!(
        "suicide: {}, superko: {}, komi: {}",
        from(spec.suicide.is_some(), ru),
        from(spec.superko.is_some(), ru),
        from(spec.komi.is_some(), km)
    )
}

#[derive(Serialize)]
struct HashInput<'a> {
    board: String,
    position: &'a Option<String>,
    to: &'a Option<String>,
    moves: &'a Option<String>,
    sgf_text: Option<String>,
    rules: (bool, &'static str, i32),
    node_limit: Option<u64>,
    time_limit: Option<f64>,
    // Left out when false, so that the hashes of jobs written before the
    // field existed stay the same.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    value_only: bool,
}

impl Job {
    /// The configuration of the job's value check: its `confirm_with`,
    /// except that where switching path symmetry off would search as the
    /// first solve did ([`path_symmetry_can_act`] is false), another thread
    /// count stands in ([`ConfirmWith::OtherThreads`]).
    pub fn second_configuration(&self) -> ConfirmWith {
        match self.spec.confirm_with.unwrap_or_default() {
            ConfirmWith::NoPathSymmetry if !path_symmetry_can_act(&self.game) => ConfirmWith::OtherThreads,
            with => with,
        }
    }

    fn new(spec: JobSpec, base: &Path) -> Result<Job, String> {
        let komi = match spec.komi {
            Some(k) => {
                Some(Komi::from_f64(k).ok_or_else(|| format!("komi {} is not a multiple of 0.5 from -500 to 500", k))?)
            }
            None => None,
        };
        if let Some(t) = spec.time_limit {
            limits::seconds(t).map_err(|e| format!("time_limit: {}", e))?;
        }
        if let Some(n) = spec.node_limit {
            limits::node_limit(n).map_err(|e| format!("node_limit: {}", e))?;
        }
        if let Some(g) = spec.guess {
            if spec.value_only != Some(true) {
                return Err("guess is the first test of a value-only solve: give value_only = true too".into());
            }
            let k = komi.map_or(0.0, |k| k.as_f64());
            if (g + k).fract() != 0.0 || (g + k).abs() > 64.0 {
                return Err(format!(
                    "guess {g} is not a value of this board with komi {k} (an area difference less the komi)"
                ));
            }
        }
        if spec.explanation.is_some() != spec.explained_value.is_some() {
            return Err("explanation and explained_value go together (the value the explanation is for)".into());
        }
        if spec.explained_value.is_some() && spec.published.is_none() {
            return Err("explained_value explains a difference from published, which is not given".into());
        }
        // Rules: the job's fields (with [defaults]), else the SGF's RU/KM, else NSTT, komi 0.
        let over = |base: Rules| Rules {
            suicide: spec.suicide.unwrap_or(base.suicide),
            superko: spec.superko.unwrap_or(base.superko),
            komi: komi.unwrap_or(base.komi),
        };
        let mut rules = over(Rules::default());
        let mut rules_source = rules_source_of(&spec, None);
        let mut sgf_text = None;
        let mut game = if let Some(file) = &spec.sgf {
            if spec.position.is_some() || spec.to.is_some() {
                return Err("sgf cannot be combined with position or to".into());
            }
            let path = base.join(file);
            let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {}", path.display(), e))?;
            let g = sgf::read_game(&text).map_err(|e| format!("{}: {}", path.display(), e))?;
            if let Some(b) = &spec.board {
                let geo: Geometry = b.parse().map_err(|e| format!("{}", e))?;
                if geo != g.geo {
                    return Err(format!("board {} but the SGF is {}", geo.name(), g.geo.name()));
                }
            }
            rules = over(g.rules);
            rules_source = rules_source_of(&spec, Some(&g));
            let game = g.to_game(Some(rules)).map_err(|e| format!("{}: {}", path.display(), e))?;
            sgf_text = Some(text);
            game
        } else {
            let board = spec.board.as_deref().ok_or("give board (e.g. \"3x3\") or sgf")?;
            let geo: Geometry = board.parse().map_err(|e| format!("{}", e))?;
            let start = match &spec.position {
                Some(t) => diagram::parse(&geo, t).map_err(|e| e.to_string())?,
                None => Position::EMPTY,
            };
            let to = spec.to.as_deref().unwrap_or("b");
            let to = Color::parse(to).ok_or_else(|| format!("to = '{}' is not one of b, w", to))?;
            Game::new(geo, rules, start, to).map_err(|e| e.to_string())?
        };
        if let Some(moves) = &spec.moves {
            for m in moves.split([' ', ',']).filter(|s| !s.is_empty()) {
                let mv = Move::parse(m, &game.geo)
                    .ok_or_else(|| format!("move '{}' is not a point of {} or pass", m, game.geo.name()))?;
                game.play(mv).map_err(|e| e.to_string())?;
            }
        }
        let input = HashInput {
            board: game.geo.name(),
            position: &spec.position,
            to: &spec.to,
            moves: &spec.moves,
            sgf_text,
            rules: (rules.suicide, rules.superko.name(), rules.komi.0),
            node_limit: spec.node_limit,
            time_limit: spec.time_limit,
            value_only: spec.value_only == Some(true),
        };
        let json = serde_json::to_string(&input).expect("hash input serializes");
        let hash = format!("{:016x}", store::fnv1a64(json.as_bytes()));
        Ok(Job { spec, game, hash, rules_source })
    }

    /// Where the position column of the summary comes from: start, moves, side.
    pub fn position_text(&self) -> String {
        position_text(&self.game)
    }
}

/// How a summary writes a game: its setup, the moves since, who is to move.
pub(super) fn position_text(game: &Game) -> String {
    let geo = &game.geo;
    let start = if game.start == Position::EMPTY { "empty".to_string() } else { diagram::compact(geo, &game.start) };
    let side = if game.to_move == Color::Black { "B" } else { "W" };
    if game.moves.is_empty() {
        format!("{}, {} to move", start, side)
    } else {
        let moves: Vec<String> = game
            .moves
            .iter()
            .enumerate()
            .map(|(i, (c, m))| format!("{}.{}[{}]", i + 1, c.letter(), m.name(geo)))
            .collect();
        format!("{} + {}, {} to move", start, moves.join(" "), side)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Path symmetry can act only where a symmetry of the history fixes an
    /// empty point: the centre of an odd strip, a row or column of an odd
    /// side, a diagonal of a square.
    #[test]
    fn path_symmetry_acts_only_through_a_fixed_empty_point() {
        let acts = |w: usize, h: usize, moves: &str| path_symmetry_can_act(&Game::after(w, h, Rules::default(), moves));
        assert!(acts(1, 9, "") && acts(3, 3, "") && acts(5, 5, "c3") && acts(5, 5, "a1") && acts(4, 4, ""));
        assert!(acts(5, 5, "c1") && acts(2, 11, "") && acts(5, 5, "pass"));
        assert!(!acts(1, 8, "") && !acts(1, 10, "pass") && !acts(1, 17, "a9") && !acts(1, 17, "a2"));
        assert!(!acts(2, 10, "") && !acts(6, 4, "") && !acts(5, 5, "b1"));
    }

    #[test]
    fn default_manifest_resolves() {
        let m = Manifest::default_manifest();
        let jobs = m.resolve("default", Path::new(".")).unwrap();
        assert!(jobs.len() >= 12);
        // The hashes of the records written before a job's fields grew (value_only, confirm).
        let hash = |id: &str| jobs.iter().find(|j| j.spec.id == id).map(|j| j.hash.as_str());
        assert_eq!(hash("1x3"), Some("22accc2597042fe3"));
        assert_eq!(hash("3x2-doc-example"), Some("8067db2d4b5d4083"));
        let doc = jobs.iter().find(|j| j.game.moves.len() == 3).expect("the documents' 3x2 example");
        assert_eq!(doc.game.to_move, Color::White);
        assert_eq!(doc.spec.published, Some(6.0));
    }

    /// The 5x5 openings: one job per orbit of Black's first move (pass
    /// included) under the board's symmetries, each the position after it.
    #[test]
    fn openings_manifest_has_every_first_move_once() {
        let m = Manifest::named("5x5-openings").unwrap();
        let jobs = m.resolve("5x5-openings", Path::new(".")).unwrap();
        let firsts: Vec<String> = jobs.iter().map(|j| j.spec.moves.clone().unwrap()).collect();
        assert_eq!(firsts, ["c3", "pass", "a1", "b1", "c1", "b2", "c2"]);
        for j in &jobs {
            assert_eq!(j.spec.id, format!("5x5-{}", j.spec.moves.as_deref().unwrap()));
            assert_eq!((j.game.geo.width(), j.game.geo.height(), j.game.moves.len()), (5, 5, 1));
            assert_eq!(j.game.to_move, Color::White);
            assert!(j.spec.confirms(), "{}", j.spec.id);
        }
    }

    /// The strips' openings: for 1x16-1x20, pass and a1 up to the middle
    /// (the rest mirror them), each the position after it, value-only,
    /// confirmed and with a guess.
    #[test]
    fn strip_openings_manifest_has_each_first_move_up_to_mirroring() {
        let m = Manifest::named("strip-openings").unwrap();
        let jobs = m.resolve("strip-openings", Path::new(".")).unwrap();
        for n in 16..=20usize {
            let ours: Vec<&Job> = jobs.iter().filter(|j| j.game.geo.height() == n).collect();
            let mut want = vec!["pass".to_string()];
            want.extend((1..=n.div_ceil(2)).map(|k| format!("a{k}")));
            let got: Vec<String> = ours.iter().map(|j| j.spec.moves.clone().unwrap()).collect();
            assert_eq!(got, want, "1x{n}");
            for j in ours {
                assert_eq!(j.spec.id, format!("1x{n}-{}", j.spec.moves.as_deref().unwrap()));
                assert_eq!((j.game.geo.width(), j.game.moves.len(), j.game.to_move), (1, 1, Color::White));
                assert!(j.spec.confirms() && j.spec.value_only == Some(true), "{}", j.spec.id);
                assert!(j.spec.guess.is_some(), "{}: each job starts at its guess", j.spec.id);
            }
        }
        assert_eq!(jobs.len(), 51);
    }

    /// The rectangular table: every board of at most 30 points with 1 to 5
    /// rows, once each, the longer side first (strips 1xN), each confirmed.
    #[test]
    fn rectangular_manifest_is_the_whole_table() {
        let m = Manifest::named("rectangular").unwrap();
        let jobs = m.resolve("rectangular", Path::new(".")).unwrap();
        let mut shapes: Vec<(usize, usize)> = Vec::new();
        for j in &jobs {
            let (w, h) = (j.game.geo.width(), j.game.geo.height());
            assert_eq!(j.spec.id, j.game.geo.name());
            assert!(j.game.moves.is_empty() && j.game.start == Position::EMPTY);
            assert!(j.spec.confirms(), "{}", j.spec.id);
            let (long, short) = if w == 1 { (h, w) } else { (w, h) };
            assert!(long >= short, "{}: the longer side first", j.spec.id);
            shapes.push((short, long));
        }
        let mut want = Vec::new();
        for short in 1..=5 {
            for long in short..=30 / short {
                want.push((short, long));
            }
        }
        assert_eq!(shapes, want);
        assert_eq!(jobs.len(), 58);
        let published = |id: &str| jobs.iter().find(|j| j.spec.id == id).and_then(|j| j.spec.published);
        for (id, v) in [("4x2", 8.), ("3x3", 9.), ("4x3", 4.), ("5x3", 15.), ("4x4", 2.), ("5x4", 20.), ("5x5", 25.)] {
            assert_eq!(published(id), Some(v), "{id}");
        }
        for (id, v) in [("10x2", 4.), ("11x2", 4.), ("7x3", 5.), ("8x3", 24.), ("6x4", 1.), ("7x4", 4.), ("6x5", 4.)] {
            assert_eq!(published(id), Some(v), "{id}");
        }
        let hayward = [0., 0., 3., 4., 0., 1., 2., 3., 0., 1., 2., 2.];
        for (n, v) in hayward.iter().enumerate() {
            assert_eq!(published(&format!("1x{}", n + 1)), Some(*v));
        }
        assert_eq!(Manifest::named("default"), Some(Manifest::default_manifest()));
        assert_eq!(Manifest::named("nope"), None);
    }

    #[test]
    fn explanations_need_their_value_and_a_published_one() {
        let bad = |extra: &str| {
            let m = Manifest::parse("m.toml", &format!("[[job]]\nid = \"a\"\nboard = \"1x5\"\n{}", extra)).unwrap();
            m.resolve("m.toml", Path::new(".")).unwrap_err().to_string()
        };
        assert!(bad("published = 2\nexplanation = \"x\"\n").contains("explained_value"));
        assert!(bad("explanation = \"x\"\nexplained_value = 0\n").contains("published"));
        let e = Manifest::parse("m.toml", "[[job]]\nid = \"a\"\nboard = \"1x5\"\nconfirm_with = \"guess\"\n");
        assert!(e.unwrap_err().to_string().contains("guess"));
    }

    #[test]
    fn manifest_errors_are_one_line() {
        let e = Manifest::parse("m.toml", "[[job]]\nid = \"a\"\nbord = \"2x2\"\n").unwrap_err().to_string();
        assert!(!e.contains('\n') && e.contains("bord"), "{e}");
        let m = Manifest::parse("m.toml", "[[job]]\nid = \"a\"\nboard = \"2x2\"\nposition = \"XX/XX\"\n").unwrap();
        let e = m.resolve("m.toml", Path::new(".")).unwrap_err().to_string();
        assert!(e.contains("job 'a'") && e.contains("illegal"), "{e}");
        let m = Manifest::parse("m.json", r#"{"job": [{"id": "../x", "board": "2x2"}]}"#).unwrap();
        assert!(m.resolve("m.json", Path::new(".")).is_err());
    }

    #[test]
    fn hash_tracks_search_inputs_only() {
        let parse = |extra: &str| {
            let m = Manifest::parse("m.toml", &format!("[[job]]\nid = \"a\"\nboard = \"2x2\"\n{}", extra)).unwrap();
            m.resolve("m", Path::new(".")).unwrap()[0].hash.clone()
        };
        assert_eq!(parse(""), parse("published = 1\nsource = \"x\"\n"));
        assert_ne!(parse(""), parse("komi = 0.5\n"));
        assert_ne!(parse(""), parse("time_limit = 5\n"));
        assert_ne!(parse(""), parse("value_only = true\n"));
        // Fields that do not decide the search leave the hash (and the records written before them) alone.
        assert_eq!(parse(""), parse("value_only = false\nconfirm = true\nconfirm_with = \"alpha-beta\"\n"));
        assert_eq!(parse("value_only = true\n"), parse("value_only = true\nguess = 1\n"));
    }
}
