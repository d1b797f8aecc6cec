//! Argument groups shared by several subcommands: rules and the starting position.

use anyhow::{bail, Context, Result};
use gosolve::format::diagram;
use gosolve::{Color, Game, Geometry, Komi, Position, Rules, Superko};

/// Rule options: `--suicide`, `--superko`, `--komi`.
#[derive(clap::Args, Clone, Debug)]
pub struct RuleArgs {
    /// Allow suicide (true Tromp-Taylor); default is no suicide (NSTT).
    #[arg(long)]
    pub suicide: bool,
    /// Superko flavour.
    #[arg(long, value_enum, default_value = "positional")]
    pub superko: SuperkoArg,
    /// Komi added to White's score (a multiple of 0.5).
    #[arg(long, default_value = "0", allow_hyphen_values = true)]
    pub komi: f64,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum SuperkoArg {
    Positional,
    Situational,
}

impl RuleArgs {
    pub fn rules(&self) -> Result<Rules> {
        let komi = Komi::from_f64(self.komi)
            .with_context(|| format!("komi {} is not a multiple of 0.5 (or is out of range)", self.komi))?;
        Ok(Rules {
            suicide: self.suicide,
            superko: match self.superko {
                SuperkoArg::Positional => Superko::Positional,
                SuperkoArg::Situational => Superko::Situational,
            },
            komi,
        })
    }
}

/// Parse a board size, with the error spelled for a user.
pub fn parse_board(s: &str) -> Result<Geometry> {
    s.parse::<Geometry>().map_err(|e| anyhow::anyhow!("{}", e))
}

/// Parse `b|w|black|white`.
pub fn parse_color(s: &str) -> Result<Color> {
    match Color::parse(s) {
        Some(c) => Ok(c),
        None => bail!("side to move '{}' is not one of b, w, black, white", s),
    }
}

/// A game starting from a diagram (or the empty board) with no earlier history.
pub fn game_from_diagram(geo: Geometry, rules: Rules, diagram_text: Option<&str>, to_move: Color) -> Result<Game> {
    let start = match diagram_text {
        Some(t) => diagram::parse(&geo, t).map_err(|e| anyhow::anyhow!("{}", e))?,
        None => Position::EMPTY,
    };
    Game::new(geo, rules, start, to_move).map_err(|e| anyhow::anyhow!("{}", e))
}
