//! Agent specs as users type them: `NAME` or `NAME:key=value,key=value`.
//!
//! ```
//! use kanaszta_agents::AgentSpec;
//! let spec: AgentSpec = "ismcts:iters=250,rollout=greedy".parse().unwrap();
//! assert_eq!(spec.to_string(), "ismcts:iters=250,rollout=greedy");
//! assert_eq!("greedy".parse::<AgentSpec>().unwrap().to_string(), "greedy");
//! let err = "grody".parse::<AgentSpec>().unwrap_err().to_string();
//! assert!(err.contains("random, greedy, rules, ismcts, pimc"));
//! ```
//!
//! The canonical text of a spec ([`std::fmt::Display`]) names only the
//! parameters that differ from their defaults, in a fixed order, so equal
//! agents print equally and every printed spec parses back to itself.

use crate::{Agent, Family};
#[doc(hidden)]
pub use kanaszta_engine::classic::ClassicState;
use kanaszta_engine::GameState;
use std::any::Any;
use std::fmt;
use std::str::FromStr;

/// One documented parameter of an agent.
#[derive(Clone, Copy, Debug)]
pub struct ParamDoc {
    /// The key users type.
    pub key: &'static str,
    /// What values it takes.
    pub accepts: &'static str,
    /// What it does.
    pub doc: &'static str,
}

/// The parameters of one kind of agent: settable by key from text, readable
/// by key as text, and the agent they make. Declared with
/// [`agent_params!`](crate::agent_params), never by hand.
///
/// `G` is the rule family the agent plays ([`GameState`], the default, or
/// [`ClassicState`]): an agent that plays both families has one `Params`
/// type for each, under one name in the registry. One type erasure serves
/// every family's specs ([`AgentSpec<G>`](AgentSpec)).
pub trait Params<G: Family = GameState>:
    Default + Clone + PartialEq + fmt::Debug + Send + Sync + 'static
{
    /// The agent's name in specs.
    const NAME: &'static str;
    /// One line on what the agent does.
    const SUMMARY: &'static str;
    /// Every parameter, in canonical order.
    fn docs() -> &'static [ParamDoc];
    /// Sets one parameter; the error says what the key accepts.
    fn set(&mut self, key: &str, value: &str) -> Result<(), ParamError>;
    /// Reads one parameter as text (`None` for an unknown key).
    fn get(&self, key: &str) -> Option<String>;
    /// The declared range of a number parameter (`None` for an unknown
    /// key or a parameter that is not a number in a range).
    fn bounds(key: &str) -> Option<Bounds> {
        let _ = key;
        None
    }
    /// A new agent with these parameters.
    fn build(&self) -> Box<dyn Agent<G>>;
    /// Whether the parameters agree with one another (each is checked
    /// alone by [`Params::set`]); the error says what to give.
    fn check(&self) -> Result<(), String> {
        Ok(())
    }
}

/// The declared range of a number parameter, from its [`range`] parser.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// The least value accepted.
    pub lo: f64,
    /// The greatest value accepted.
    pub hi: f64,
    /// Whether the parameter takes whole numbers only.
    pub integer: bool,
}

/// A number type a parameter may have in a [`range`].
pub trait Number: FromStr + PartialOrd + fmt::Display + Copy {
    /// Whether the type holds whole numbers only.
    const INTEGER: bool;
    /// The value as an `f64`.
    fn to_f64(self) -> f64;
}

macro_rules! number {
    ($integer:expr; $($t:ty),*) => {
        $(impl Number for $t {
            const INTEGER: bool = $integer;
            fn to_f64(self) -> f64 {
                self as f64
            }
        })*
    };
}
number!(true; u8, u16, u32, u64, usize, i8, i16, i32, i64);
number!(false; f32, f64);

/// How a parameter's text becomes its value, for
/// [`agent_params!`](crate::agent_params): any `Fn(&str) -> Result<T,
/// E>` whose error becomes a [`ParamValueError`] (what is accepted), or a
/// [`range`], which also tells its [`Bounds`].
pub trait ParseParam<T> {
    /// The value of `text`, or what is accepted.
    fn parse_param(&self, text: &str) -> Result<T, ParamValueError>;
    /// The range accepted, for a number in a range.
    fn bounds(&self) -> Option<Bounds> {
        None
    }
}

impl<T, E: Into<ParamValueError>, F: Fn(&str) -> Result<T, E>> ParseParam<T> for F {
    fn parse_param(&self, text: &str) -> Result<T, ParamValueError> {
        self(text).map_err(Into::into)
    }
}

/// The parser of a number parameter in `lo..=hi`: see [`range`].
#[derive(Clone, Copy, Debug)]
pub struct NumberRange<T> {
    lo: T,
    hi: T,
}

impl<T: Number> ParseParam<T> for NumberRange<T> {
    fn parse_param(&self, text: &str) -> Result<T, ParamValueError> {
        parse_in(text, self.lo, self.hi)
    }
    fn bounds(&self) -> Option<Bounds> {
        Some(Bounds {
            lo: self.lo.to_f64(),
            hi: self.hi.to_f64(),
            integer: T::INTEGER,
        })
    }
}

/// A parameter's value as text, as specs write it (a switch as `on` or
/// `off`).
pub trait ParamText {
    /// The text.
    fn text(&self) -> String;
}

macro_rules! param_text_by_display {
    ($($t:ty),*) => {
        $(impl ParamText for $t {
            fn text(&self) -> String {
                self.to_string()
            }
        })*
    };
}
param_text_by_display!(u8, u16, u32, u64, usize, i32, i64, f64);

impl ParamText for bool {
    fn text(&self) -> String {
        switch_text(*self)
    }
}

/// Declares an agent's parameters in one place: the struct with its
/// fields' documentation and defaults, and for each field the parser of
/// its text, what it accepts and its line of help ([`Params`]). The
/// field's name is the key users type. With one line in
/// `registry.rs`, the agent is known by name to every command. The form
/// `struct … for classic Agent` declares the parameters of a classic
/// canasta player ([`Params<ClassicState>`](Params)); before its `summary`
/// it may name `check: F,`, a `fn(&Params) -> Result<(), String>` that
/// says whether the parameters agree ([`Params::check`]).
///
/// ```
/// use kanaszta_agents::{agent_params, range, switch, Agent, Moves};
/// # use kanaszta_engine::{Action, SeatView};
/// # use rand_pcg::Pcg64Mcg;
/// # pub struct Mine(MineParams);
/// # impl Mine { pub fn new(p: MineParams) -> Mine { Mine(p) } }
/// # impl Agent for Mine {
/// #     fn name(&self) -> String { "mine".into() }
/// #     fn act(&mut self, _: &SeatView, m: &mut Moves, _: &mut Pcg64Mcg) -> Action { m.all()[0] }
/// # }
/// agent_params! {
///     /// Parameters of `Mine`.
///     pub struct MineParams for Mine {
///         name: "mine",
///         summary: "plays the first listed action",
///         /// Smallest pile it takes.
///         pile: u32 = 3, range(1, 112), "1..112", "smallest pile it takes";
///         /// Goes out when it can.
///         out: bool = true, switch, "on|off", "goes out when it can";
///     }
/// }
/// let spec = kanaszta_agents::AgentSpec::of(MineParams::default());
/// assert_eq!(spec.to_string(), "mine");
/// ```
#[macro_export]
macro_rules! agent_params {
    // A classic canasta player's parameters (C-1 … C-24): the same
    // declaration, with `NAME`, `SUMMARY`, `docs`, `set`, `get`, `bounds`
    // and `build` (an `Agent<ClassicState>`) as inherent items and as
    // [`Params<ClassicState>`](crate::spec::Params), which the registry
    // lists.
    (
        $(#[$meta:meta])*
        $vis:vis struct $Name:ident for classic $Agent:ty {
            name: $agent_name:expr,
            $(check: $check:expr,)?
            summary: $summary:expr,
            $(
                $(#[$fmeta:meta])*
                $field:ident: $ty:ty = $default:expr, $parse:expr, $accepts:expr, $doc:expr;
            )*
        }
    ) => {
        $crate::agent_params!(@struct $(#[$meta])* $vis $Name { $($(#[$fmeta])* $field: $ty = $default;)* });

        impl $Name {
            /// The agent's name in specs.
            pub const NAME: &'static str = $agent_name;
            /// One line on what the agent does.
            pub const SUMMARY: &'static str = $summary;

            $crate::agent_params!(@items pub $( $field: $ty, $parse, $accepts, $doc; )*);

            /// A new agent with these parameters.
            pub fn build(&self) -> Box<dyn $crate::Agent<$crate::spec::ClassicState>> {
                Box::new(<$Agent>::new(self.clone()))
            }
        }

        impl $crate::spec::Params<$crate::spec::ClassicState> for $Name {
            const NAME: &'static str = $agent_name;
            const SUMMARY: &'static str = $summary;

            fn docs() -> &'static [$crate::ParamDoc] {
                $Name::docs()
            }
            fn set(&mut self, key: &str, value: &str) -> Result<(), $crate::ParamError> {
                $Name::set(self, key, value)
            }
            fn get(&self, key: &str) -> Option<String> {
                $Name::get(self, key)
            }
            fn bounds(key: &str) -> Option<$crate::Bounds> {
                $Name::bounds(key)
            }
            fn build(&self) -> Box<dyn $crate::Agent<$crate::spec::ClassicState>> {
                $Name::build(self)
            }
            fn check(&self) -> Result<(), String> {
                let check: fn(&$Name) -> Result<(), String> =
                    $crate::agent_params!(@check $($check)?);
                check(self)
            }
        }
    };
    // The agreement of a classic player's parameters: none asked, or the
    // function given as `check:`.
    (@check) => { |_| Ok(()) };
    (@check $check:expr) => { $check };
    // The struct with its defaults, for both families.
    (@struct $(#[$meta:meta])* $vis:vis $Name:ident {
        $($(#[$fmeta:meta])* $field:ident: $ty:ty = $default:expr;)*
    }) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq)]
        $vis struct $Name {
            $($(#[$fmeta])* pub $field: $ty,)*
        }

        impl Default for $Name {
            fn default() -> $Name {
                $Name {
                    $($field: $default,)*
                }
            }
        }
    };
    // `docs`, `set`, `get` and `bounds`, for both families: inherent
    // (`pub`) for classic players, the items of [`Params`] otherwise.
    (@items $fvis:vis $( $field:ident: $ty:ty, $parse:expr, $accepts:expr, $doc:expr; )*) => {
        /// Every parameter, in canonical order.
        $fvis fn docs() -> &'static [$crate::ParamDoc] {
            const DOCS: &[$crate::ParamDoc] = &[$($crate::ParamDoc {
                key: stringify!($field),
                accepts: $accepts,
                doc: $doc,
            },)*];
            DOCS
        }

        /// Sets one parameter; the error says what the key accepts.
        $fvis fn set(&mut self, key: &str, value: &str) -> Result<(), $crate::ParamError> {
            match key {
                $(stringify!($field) => {
                    self.$field = $crate::ParseParam::<$ty>::parse_param(&($parse), value)?
                })*
                _ => return Err($crate::ParamError::UnknownKey(key.to_string())),
            }
            Ok(())
        }

        /// Reads one parameter as text (`None` for an unknown key).
        $fvis fn get(&self, key: &str) -> Option<String> {
            match key {
                $(stringify!($field) => Some($crate::ParamText::text(&self.$field)),)*
                _ => None,
            }
        }

        /// The declared range of a number parameter (`None` for a
        /// switch or an unknown key).
        $fvis fn bounds(key: &str) -> Option<$crate::Bounds> {
            match key {
                $(stringify!($field) => $crate::ParseParam::<$ty>::bounds(&($parse)),)*
                _ => None,
            }
        }
    };
    (
        $(#[$meta:meta])*
        $vis:vis struct $Name:ident for $Agent:ty {
            name: $agent_name:expr,
            summary: $summary:expr,
            $(
                $(#[$fmeta:meta])*
                $field:ident: $ty:ty = $default:expr, $parse:expr, $accepts:expr, $doc:expr;
            )*
        }
    ) => {
        $crate::agent_params!(@struct $(#[$meta])* $vis $Name { $($(#[$fmeta])* $field: $ty = $default;)* });

        impl $crate::Params for $Name {
            const NAME: &'static str = $agent_name;
            const SUMMARY: &'static str = $summary;

            $crate::agent_params!(@items $( $field: $ty, $parse, $accepts, $doc; )*);

            fn build(&self) -> Box<dyn $crate::Agent> {
                Box::new(<$Agent>::new(self.clone()))
            }
        }
    };
}

/// The parser of a number parameter in `lo..=hi`, for
/// [`agent_params!`](crate::agent_params); its range is the parameter's
/// [`Bounds`] (what `kanaszta tune` moves it within).
pub fn range<T: Number>(lo: T, hi: T) -> NumberRange<T> {
    NumberRange { lo, hi }
}

/// The parser of an on/off parameter, for
/// [`agent_params!`](crate::agent_params): [`parse_switch`].
pub fn switch(value: &str) -> Result<bool, ParamValueError> {
    parse_switch(value)
}

/// A parsed agent spec: which agent, with which parameters, for the rule
/// family `G` (decorated canasta by default): `"rules".parse::<AgentSpec>()`
/// and `"rules".parse::<AgentSpec<ClassicState>>()` both look the name up
/// in the one registry ([`crate::AGENTS`]), each in its family.
pub struct AgentSpec<G: Family = GameState>(Erased<G>);

/// [`Params`] of any agent of one family `G`, behind one type.
trait AnyParams<G: Family>: Send + Sync {
    fn name(&self) -> &'static str;
    fn docs(&self) -> &'static [ParamDoc];
    fn get(&self, key: &str) -> Option<String>;
    fn default_get(&self, key: &str) -> Option<String>;
    fn bounds(&self, key: &str) -> Option<Bounds>;
    fn set(&mut self, key: &str, value: &str) -> Result<(), ParamError>;
    fn build(&self) -> Box<dyn Agent<G>>;
    fn clone_box(&self) -> Box<dyn AnyParams<G>>;
    fn as_any(&self) -> &dyn Any;
    fn same(&self, other: &dyn AnyParams<G>) -> bool;
    fn debug(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
}

impl<G: Family, P: Params<G>> AnyParams<G> for P {
    fn name(&self) -> &'static str {
        P::NAME
    }
    fn docs(&self) -> &'static [ParamDoc] {
        P::docs()
    }
    fn get(&self, key: &str) -> Option<String> {
        Params::get(self, key)
    }
    fn default_get(&self, key: &str) -> Option<String> {
        Params::get(&P::default(), key)
    }
    fn bounds(&self, key: &str) -> Option<Bounds> {
        P::bounds(key)
    }
    fn set(&mut self, key: &str, value: &str) -> Result<(), ParamError> {
        Params::set(self, key, value)
    }
    fn build(&self) -> Box<dyn Agent<G>> {
        Params::build(self)
    }
    fn clone_box(&self) -> Box<dyn AnyParams<G>> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn same(&self, other: &dyn AnyParams<G>) -> bool {
        other.as_any().downcast_ref::<P>() == Some(self)
    }
    fn debug(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// The parameters of some agent of the family `G`: what [`AgentSpec`]
/// holds. Its
/// [`fmt::Display`] is the canonical text of a spec: the name, then only
/// the parameters that differ from their defaults, in canonical order.
pub(crate) struct Erased<G: Family>(Box<dyn AnyParams<G>>);

impl<G: Family> Erased<G> {
    /// `p`, erased.
    pub(crate) fn of<P: Params<G>>(p: P) -> Erased<G> {
        Erased(Box::new(p))
    }

    /// The parameters, if they are of type `P`.
    pub(crate) fn params<P: Params<G>>(&self) -> Option<&P> {
        self.0.as_any().downcast_ref::<P>()
    }

    pub(crate) fn name(&self) -> &'static str {
        self.0.name()
    }

    pub(crate) fn docs(&self) -> &'static [ParamDoc] {
        self.0.docs()
    }

    pub(crate) fn get(&self, key: &str) -> Option<String> {
        self.0.get(key)
    }

    pub(crate) fn bounds(&self, key: &str) -> Option<Bounds> {
        self.0.bounds(key)
    }

    pub(crate) fn set(&mut self, key: &str, value: &str) -> Result<(), ParamError> {
        self.0.set(key, value)
    }

    pub(crate) fn build(&self) -> Box<dyn Agent<G>> {
        self.0.build()
    }

    pub(crate) fn debug(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.debug(f)
    }
}

impl<G: Family> Clone for Erased<G> {
    fn clone(&self) -> Erased<G> {
        Erased(self.0.clone_box())
    }
}

impl<G: Family> PartialEq for Erased<G> {
    fn eq(&self, other: &Erased<G>) -> bool {
        self.0.same(other.0.as_ref())
    }
}

impl<G: Family> fmt::Display for Erased<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = &self.0;
        f.write_str(p.name())?;
        let mut first = true;
        for doc in p.docs() {
            let v = p.get(doc.key);
            if v != p.default_get(doc.key) {
                f.write_str(if first { ":" } else { "," })?;
                first = false;
                write!(f, "{}={}", doc.key, v.unwrap_or_default())?;
            }
        }
        Ok(())
    }
}

impl<G: Family> Clone for AgentSpec<G> {
    fn clone(&self) -> AgentSpec<G> {
        AgentSpec(self.0.clone())
    }
}

impl<G: Family> PartialEq for AgentSpec<G> {
    fn eq(&self, other: &AgentSpec<G>) -> bool {
        self.0 == other.0
    }
}

impl<G: Family> fmt::Debug for AgentSpec<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.debug(f)
    }
}

/// Why a spec was refused: each case names the spec, the agent and the
/// parameter, and what is accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SpecError {
    /// No agent of this name is registered.
    UnknownAgent {
        /// The spec as given.
        spec: String,
        /// The name, lowercased.
        name: String,
        /// The family the spec was parsed for (`decorated`, `classic`).
        family: &'static str,
        /// The names registered for that family, in order.
        accepted: Vec<&'static str>,
    },
    /// An agent registered, but not for the family the spec was parsed
    /// for.
    NotForFamily {
        /// The spec as given.
        spec: String,
        /// The agent.
        agent: &'static str,
        /// The family the spec was parsed for.
        family: &'static str,
        /// The families the agent plays.
        plays: Vec<&'static str>,
        /// The names registered for `family`, in order.
        accepted: Vec<&'static str>,
    },
    /// An item that is not `key=value`.
    NotKeyValue {
        /// The spec as given.
        spec: String,
        /// The agent.
        agent: &'static str,
        /// The item.
        item: String,
        /// The keys and what each accepts (`key=range, …`).
        accepted: String,
    },
    /// A key the agent does not have.
    UnknownKey {
        /// The spec as given.
        spec: String,
        /// The agent.
        agent: &'static str,
        /// The key.
        key: String,
        /// The keys and what each accepts.
        accepted: String,
    },
    /// A key given twice.
    Duplicate {
        /// The spec as given.
        spec: String,
        /// The key.
        key: String,
    },
    /// A value the key does not accept.
    BadValue {
        /// The spec as given.
        spec: String,
        /// The agent.
        agent: &'static str,
        /// The key.
        key: String,
        /// The value.
        value: String,
        /// What the key accepts.
        reason: String,
    },
    /// Values that do not agree with one another (`eval` without `depth`).
    Disagree {
        /// The spec as given.
        spec: String,
        /// The agent.
        agent: &'static str,
        /// What disagrees and what to give.
        reason: String,
    },
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::UnknownAgent { spec, name, family: "decorated", accepted } => write!(
                f,
                "unknown agent `{name}` in spec `{spec}`; accepted: {} (e.g. `ismcts:iters=1000,c=0.7,rollout=greedy`; `kanaszta agents` lists every parameter)",
                accepted.join(", ")
            ),
            SpecError::UnknownAgent { spec, family, accepted, .. } => write!(
                f,
                "unknown {family} agent `{spec}`; accepted under {family} rules: {} (e.g. `ismcts:iters=200,rollout=rules`; `kanaszta agents` lists every parameter)",
                accepted.join(", ")
            ),
            SpecError::NotForFamily { spec, agent, family, plays, accepted } => write!(
                f,
                "agent spec `{spec}`: {agent} plays {} canasta only, not {family}; accepted under {family} rules: {} (`kanaszta agents` lists every agent with the families it plays)",
                plays.join(" and "),
                accepted.join(", ")
            ),
            SpecError::NotKeyValue { spec, agent, item, accepted } => write!(
                f,
                "agent spec `{spec}`: `{item}` is not key=value; {agent} accepts {accepted}"
            ),
            SpecError::UnknownKey { spec, agent, key, accepted } => write!(
                f,
                "agent spec `{spec}`: {agent} has no parameter `{key}`; accepted: {accepted}"
            ),
            SpecError::Duplicate { spec, key } => {
                write!(f, "agent spec `{spec}`: `{key}` is given twice")
            }
            SpecError::BadValue { spec, agent, key, value, reason } => write!(
                f,
                "agent spec `{spec}`: bad value `{value}` for {agent}'s `{key}`: {reason}"
            ),
            SpecError::Disagree { spec, agent, reason } => {
                write!(f, "agent spec `{spec}`: {agent}: {reason}")
            }
        }
    }
}

impl std::error::Error for SpecError {}

/// The parameters `P` of spec `text`, whose part after the colon is
/// `body`, for the family `G`.
pub(crate) fn parse_params<G: Family, P: Params<G>>(
    text: &str,
    body: &str,
) -> Result<P, SpecError> {
    let mut p = P::default();
    parse_items(text, body, P::NAME, P::docs(), |k, v| p.set(k, v))?;
    p.check().map_err(|reason| SpecError::Disagree {
        spec: text.to_string(),
        agent: P::NAME,
        reason,
    })?;
    Ok(p)
}

/// Sets each `key=value` of `body` (the part of spec `text` after the
/// colon) with `set`, refusing what `docs` does not list, a key given
/// twice and a value `set` refuses.
pub(crate) fn parse_items(
    text: &str,
    body: &str,
    agent: &'static str,
    docs: &'static [ParamDoc],
    mut set: impl FnMut(&str, &str) -> Result<(), ParamError>,
) -> Result<(), SpecError> {
    let mut seen: Vec<&str> = Vec::new();
    for item in body.split(',') {
        let item = item.trim();
        if item.is_empty() {
            continue;
        }
        let Some((key, value)) = item.split_once('=') else {
            return Err(SpecError::NotKeyValue {
                spec: text.to_string(),
                agent,
                item: item.to_string(),
                accepted: keys_of(docs),
            });
        };
        let (key, value) = (key.trim(), value.trim());
        if !docs.iter().any(|d| d.key == key) {
            return Err(SpecError::UnknownKey {
                spec: text.to_string(),
                agent,
                key: key.to_string(),
                accepted: keys_of(docs),
            });
        }
        if seen.contains(&key) {
            return Err(SpecError::Duplicate {
                spec: text.to_string(),
                key: key.to_string(),
            });
        }
        seen.push(key);
        set(key, value).map_err(|reason| SpecError::BadValue {
            spec: text.to_string(),
            agent,
            key: key.to_string(),
            value: value.to_string(),
            reason: reason.to_string(),
        })?;
    }
    Ok(())
}

pub(crate) fn keys_of(docs: &[ParamDoc]) -> String {
    let keys: Vec<String> = docs
        .iter()
        .map(|d| format!("{}={}", d.key, d.accepts))
        .collect();
    if keys.is_empty() {
        "no parameters".into()
    } else {
        keys.join(", ")
    }
}

/// The help of the agent whose parameters are `P` (for the family `G`):
/// its name and summary, then a line per parameter with its key padded
/// to `width`, its default and what it accepts.
pub(crate) fn help_of<G: Family, P: Params<G>>(out: &mut String, width: usize) {
    use fmt::Write;
    let d = P::default();
    let _ = writeln!(out, "{} — {}", P::NAME, P::SUMMARY);
    for doc in P::docs() {
        let _ = writeln!(
            out,
            "    {:<width$} {} (default {}; accepts {})",
            doc.key,
            doc.doc,
            d.get(doc.key).unwrap_or_default(),
            doc.accepts
        );
    }
}

impl<G: Family> AgentSpec<G> {
    /// The spec of the agent with parameters `p`.
    pub fn of<P: Params<G>>(p: P) -> AgentSpec<G> {
        AgentSpec(Erased::of(p))
    }

    /// The parameters, if the spec is of the agent whose parameters are `P`.
    pub fn params<P: Params<G>>(&self) -> Option<&P> {
        self.0.params()
    }

    /// The agent's name (`random`, `greedy`, …).
    pub fn name(&self) -> &'static str {
        self.0.name()
    }

    /// A new agent of this spec.
    pub fn build(&self) -> Box<dyn Agent<G>> {
        self.0.build()
    }

    /// The value of parameter `key` as text (`None`: the agent has no
    /// such parameter).
    pub fn get(&self, key: &str) -> Option<String> {
        self.0.get(key)
    }

    /// The documented parameters of the agent, in canonical order.
    pub fn docs(&self) -> &'static [ParamDoc] {
        self.0.docs()
    }

    /// The declared range of number parameter `key` (`None`: no such
    /// parameter, or not a number in a range).
    pub fn bounds(&self, key: &str) -> Option<Bounds> {
        self.0.bounds(key)
    }

    /// This spec with parameter `key` set to `value`; the error says what
    /// the key accepts.
    pub fn with(&self, key: &str, value: &str) -> Result<AgentSpec<G>, SpecError> {
        let mut p = self.0.clone();
        if !self.0.docs().iter().any(|d| d.key == key) {
            return Err(SpecError::UnknownKey {
                spec: self.to_string(),
                agent: self.name(),
                key: key.to_string(),
                accepted: keys_of(self.0.docs()),
            });
        }
        p.set(key, value).map_err(|reason| SpecError::BadValue {
            spec: self.to_string(),
            agent: self.name(),
            key: key.to_string(),
            value: value.to_string(),
            reason: reason.to_string(),
        })?;
        Ok(AgentSpec(p))
    }
}

impl<G: Family> fmt::Display for AgentSpec<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// Parses an on/off parameter (`on`, `off`; also `1`, `0`, `true`, `false`).
pub fn parse_switch(value: &str) -> Result<bool, ParamValueError> {
    match value {
        "on" | "1" | "true" => Ok(true),
        "off" | "0" | "false" => Ok(false),
        _ => Err(ParamValueError::Switch),
    }
}

/// A parameter's value refused: what is accepted (the spec's error names
/// the agent, the parameter and the value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamValueError {
    /// Not `on` or `off` ([`parse_switch`]).
    Switch,
    /// Not a number from `lo` to `hi` ([`parse_in`]), the bounds as text.
    Range {
        /// The least value accepted.
        lo: String,
        /// The greatest value accepted.
        hi: String,
    },
    /// None of the names accepted, e.g. `random|greedy|rules`.
    OneOf(&'static str),
    /// A model file refused (`value:model=FILE`, `ismcts:eval=FILE`).
    Model(ModelError),
}

impl From<ModelError> for ParamValueError {
    fn from(e: ModelError) -> ParamValueError {
        ParamValueError::Model(e)
    }
}

impl fmt::Display for ParamValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValueError::Switch => f.write_str("expected on or off"),
            ParamValueError::Range { lo, hi } => {
                write!(f, "expected a number from {lo} to {hi}")
            }
            ParamValueError::OneOf(accepts) => write!(f, "expected one of {accepts}"),
            ParamValueError::Model(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ParamValueError {}

/// A parameter refused by [`Params::set`]: a key the agent does not have,
/// or a value the key does not accept.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParamError {
    /// No parameter of this key.
    UnknownKey(String),
    /// The value refused: what the key accepts.
    Value(ParamValueError),
}

impl From<ParamValueError> for ParamError {
    fn from(e: ParamValueError) -> ParamError {
        ParamError::Value(e)
    }
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamError::UnknownKey(key) => write!(f, "unknown key `{key}`"),
            ParamError::Value(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ParamError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ParamError::Value(e) => Some(e),
            ParamError::UnknownKey(_) => None,
        }
    }
}

/// An on/off parameter as text.
pub fn switch_text(on: bool) -> String {
    if on { "on" } else { "off" }.into()
}

/// Parses a number parameter in `lo..=hi`.
pub fn parse_in<T>(value: &str, lo: T, hi: T) -> Result<T, ParamValueError>
where
    T: FromStr + PartialOrd + fmt::Display + Copy,
{
    match value.parse::<T>() {
        Ok(v) if v >= lo && v <= hi => Ok(v),
        _ => Err(ParamValueError::Range {
            lo: lo.to_string(),
            hi: hi.to_string(),
        }),
    }
}

/// The `format` a model file names.
pub const MODEL_FORMAT: &str = "kanaszta-value-model";

/// Why a model file is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ModelError {
    /// The file cannot be read: the system's reason.
    Read(String),
    /// Not JSON: the parser's reason.
    NotJson(String),
    /// JSON, but its `format` is not a value model's.
    NotModel,
    /// A field missing or malformed: what was wrong with it.
    Field(String),
    /// A model of another family.
    Family {
        /// The model's family.
        model: String,
        /// The family of the game.
        game: &'static str,
    },
    /// A model of another encoding.
    Encoding {
        /// The model's encoding version.
        version: u32,
        /// The model's encoding length.
        len: usize,
        /// This build's encoding length for the family.
        want: usize,
    },
    /// An error of the file at `path`.
    In {
        /// The file.
        path: String,
        /// What was wrong with it.
        source: Box<ModelError>,
    },
}

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ModelError::Read(e) => f.write_str(e),
            ModelError::NotJson(e) => write!(f, "not JSON: {e}"),
            ModelError::NotModel => write!(
                f,
                "not a value model (its \"format\" is not \"{MODEL_FORMAT}\"; `kanaszta learn fit` writes them)"
            ),
            ModelError::Field(e) => f.write_str(e),
            ModelError::Family { model, game } => write!(
                f,
                "a model of {model} canasta; this is {game} canasta (fit one on data of this family)"
            ),
            ModelError::Encoding { version, len, want } => write!(
                f,
                "a model of encoding version {version} ({len} entries); this build encodes version {} ({want} entries): fit it again",
                kanaszta_engine::ENCODING_VERSION
            ),
            ModelError::In { path, source } => write!(f, "{path}: {source}"),
        }
    }
}

impl std::error::Error for ModelError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_errors_are_typed_and_say_what_is_accepted() {
        assert_eq!(parse_switch("maybe"), Err(ParamValueError::Switch));
        assert_eq!(parse_switch("off"), Ok(false));
        let e = parse_in("200", 0.0, 100.0).unwrap_err();
        assert_eq!(
            e,
            ParamValueError::Range {
                lo: "0".into(),
                hi: "100".into()
            }
        );
        assert_eq!(e.to_string(), "expected a number from 0 to 100");
        let e = crate::search::Rollout::parse("zz").unwrap_err();
        assert_eq!(e.to_string(), "expected one of random|greedy|rules");
    }

    #[test]
    fn every_agent_name_parses_and_prints_bare() {
        for name in crate::agent_names() {
            let s: AgentSpec = name.parse().unwrap();
            assert_eq!(s.to_string(), name);
            assert_eq!(s.name(), name);
            assert_eq!(s.build().name(), name);
        }
    }

    #[test]
    fn unknown_agent_lists_the_accepted_names() {
        let e = "minimax".parse::<AgentSpec>().unwrap_err().to_string();
        assert!(e.contains("unknown agent `minimax`"), "{e}");
        assert!(e.contains("random, greedy, rules, ismcts, pimc"), "{e}");
    }

    #[test]
    fn unknown_key_lists_the_accepted_keys() {
        let e = "random:speed=3"
            .parse::<AgentSpec>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("no parameter `speed`"), "{e}");
        assert!(e.contains("discard="), "{e}");
        let e = "greedy:7".parse::<AgentSpec>().unwrap_err().to_string();
        assert!(e.contains("not key=value"), "{e}");
    }

    /// Each refusal is its own case, naming the agent and the key.
    #[test]
    fn refusals_are_typed() {
        let e = "random:speed=3".parse::<AgentSpec>().unwrap_err();
        assert!(
            matches!(&e, SpecError::UnknownKey { agent: "random", key, .. } if key == "speed"),
            "{e:?}"
        );
        let e = "greedy:pile=0".parse::<AgentSpec>().unwrap_err();
        assert!(
            matches!(&e, SpecError::BadValue { agent: "greedy", key, value, .. } if key == "pile" && value == "0"),
            "{e:?}"
        );
        let e = "minimax".parse::<AgentSpec>().unwrap_err();
        assert!(
            matches!(&e, SpecError::UnknownAgent { name, accepted, .. } if name == "minimax" && accepted.contains(&"rules")),
            "{e:?}"
        );
    }

    #[test]
    fn bad_value_says_what_is_accepted() {
        let e = "random:discard=2"
            .parse::<AgentSpec>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("bad value `2`"), "{e}");
        assert!(e.contains("from 0 to 1"), "{e}");
        let e = "random:discard=0.1,discard=0.2"
            .parse::<AgentSpec>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("given twice"), "{e}");
    }

    #[test]
    fn specs_round_trip_through_their_text() {
        for text in [
            "random:discard=0.5",
            "random:discard=0.5,patience=10",
            "greedy",
            "rules",
            "ismcts",
            "pimc",
        ] {
            let s: AgentSpec = text.parse().unwrap();
            let again: AgentSpec = s.to_string().parse().unwrap();
            assert_eq!(s, again, "{text}");
            assert_eq!(s.to_string(), text);
        }
        // Defaults written out are dropped from the canonical text.
        let s: AgentSpec = "random:discard=0.3".parse().unwrap();
        assert_eq!(s.to_string(), "random");
        // Case and spaces are forgiven in the name and around items.
        let s: AgentSpec = " Random: patience = 12 ".parse().unwrap();
        assert_eq!(s.to_string(), "random:patience=12");
    }

    /// A number parameter's range is the one its `range` parser declares.
    #[test]
    fn number_parameters_tell_their_declared_range() {
        let g: AgentSpec = "greedy".parse().unwrap();
        let b = g.bounds("pile").expect("pile is a number in a range");
        assert_eq!((b.lo, b.hi, b.integer), (1.0, 112.0, true));
        assert_eq!(g.bounds("open_pickup"), None, "a switch has no range");
        assert_eq!(g.bounds("speed"), None);
        let r: AgentSpec = "random".parse().unwrap();
        let b = r.bounds("discard").unwrap();
        assert_eq!((b.lo, b.hi, b.integer), (0.0, 1.0, false));
        let moved = g.with("pile", "9").unwrap();
        assert_eq!(moved.to_string(), "greedy:pile=9");
        assert!(g
            .with("pile", "0")
            .unwrap_err()
            .to_string()
            .contains("from 1 to 112"));
        assert!(matches!(
            g.with("speed", "1"),
            Err(SpecError::UnknownKey { .. })
        ));
    }

    #[test]
    fn help_documents_every_parameter_with_its_default() {
        let h = AgentSpec::help();
        for name in crate::agent_names() {
            assert!(h.contains(&format!("{name} — ")), "{h}");
        }
        assert!(h.contains("discard") && h.contains("default 0.3"), "{h}");
    }
}
