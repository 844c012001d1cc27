//! Signatures: the sorts, function symbols and relation symbols a theory speaks about.

use serde::{Deserialize, Serialize};

/// Index of a sort in its [`Signature`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SortId(pub u32);

/// Index of a function symbol (constants included) in its [`Signature`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct FuncId(pub u32);

/// Index of a relation symbol in its [`Signature`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct RelId(pub u32);

/// How a binary infix symbol groups when it is repeated: `x * y * z`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Assoc {
    /// `(x * y) * z`
    Left,
    /// `x * (y * z)`
    Right,
    /// An error: the user must bracket.
    None,
}

/// How a binary symbol is written: infix with a precedence, or prefix `f(x, y)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Fixity {
    /// Prefix application `f(x, y)`.
    Prefix,
    /// Infix `x f y`; a higher precedence binds tighter.
    Infix {
        /// Binding strength; higher binds tighter.
        prec: u8,
        /// Grouping of repeated applications.
        assoc: Assoc,
    },
}

/// A declared sort.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SortDecl {
    /// The sort's name.
    pub name: String,
}

/// A declared function symbol `f : A B -> C`; a constant has no arguments.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FuncDecl {
    /// The symbol as written.
    pub name: String,
    /// Argument sorts, in order.
    pub args: Vec<SortId>,
    /// Result sort.
    pub result: SortId,
    /// How applications are written.
    pub fixity: Fixity,
}

/// A declared relation symbol `R : A B`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RelDecl {
    /// The symbol as written.
    pub name: String,
    /// Argument sorts, in order.
    pub args: Vec<SortId>,
    /// How applications are written.
    pub fixity: Fixity,
}

/// The most arguments a function or relation symbol may take, on every path that builds a
/// signature: a table of a 17-ary symbol has n^17 cells, beyond any search at n >= 2.
pub const MAX_ARITY: usize = 16;

/// The most sorts a signature may declare, on every path that builds one: a spectrum walks every
/// tuple of sizes, n^k of them for k sorts.
pub const MAX_SORTS: usize = 16;

/// The name of the sort a theory gets when it declares none.
pub const DEFAULT_SORT: &str = "U";

/// Sorts, function symbols and relation symbols, each addressed by its index.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Signature {
    /// Declared sorts; never empty once a theory is built.
    pub sorts: Vec<SortDecl>,
    /// Function symbols, constants included.
    pub funcs: Vec<FuncDecl>,
    /// Relation symbols.
    pub rels: Vec<RelDecl>,
}

impl Signature {
    /// A signature with the single default sort and no symbols.
    pub fn single_sorted() -> Self {
        Signature {
            sorts: vec![SortDecl {
                name: DEFAULT_SORT.into(),
            }],
            ..Default::default()
        }
    }

    /// True when there is exactly one sort.
    pub fn is_single_sorted(&self) -> bool {
        self.sorts.len() == 1
    }

    /// The sort called `name`.
    pub fn sort(&self, name: &str) -> Option<SortId> {
        self.sorts
            .iter()
            .position(|s| s.name == name)
            .map(|i| SortId(i as u32))
    }

    /// The function symbol called `name`.
    pub fn func(&self, name: &str) -> Option<FuncId> {
        self.funcs
            .iter()
            .position(|f| f.name == name)
            .map(|i| FuncId(i as u32))
    }

    /// The relation symbol called `name`.
    pub fn rel(&self, name: &str) -> Option<RelId> {
        self.rels
            .iter()
            .position(|r| r.name == name)
            .map(|i| RelId(i as u32))
    }

    /// The declaration of a sort.
    pub fn sort_decl(&self, id: SortId) -> &SortDecl {
        &self.sorts[id.0 as usize]
    }

    /// The declaration of a function symbol.
    pub fn func_decl(&self, id: FuncId) -> &FuncDecl {
        &self.funcs[id.0 as usize]
    }

    /// The declaration of a relation symbol.
    pub fn rel_decl(&self, id: RelId) -> &RelDecl {
        &self.rels[id.0 as usize]
    }

    /// Ids of all function symbols, in declaration order.
    pub fn func_ids(&self) -> impl Iterator<Item = FuncId> {
        (0..self.funcs.len() as u32).map(FuncId)
    }

    /// Ids of all relation symbols, in declaration order.
    pub fn rel_ids(&self) -> impl Iterator<Item = RelId> {
        (0..self.rels.len() as u32).map(RelId)
    }

    /// Ids of all sorts, in declaration order.
    pub fn sort_ids(&self) -> impl Iterator<Item = SortId> {
        (0..self.sorts.len() as u32).map(SortId)
    }

    /// Checks what every theory must satisfy whatever built it: at least one sort and at most
    /// [`MAX_SORTS`], no name declared twice (sorts among themselves; functions and relations share
    /// one namespace), at most [`MAX_ARITY`] arguments per symbol, and every sort index in range.
    pub fn check_well_formed(&self) -> Result<(), String> {
        if self.sorts.is_empty() {
            return Err("the signature declares no sort".into());
        }
        if self.sorts.len() > MAX_SORTS {
            return Err(format!(
                "{} sorts are declared; at most {MAX_SORTS} are allowed",
                self.sorts.len()
            ));
        }
        let mut sorts = std::collections::HashSet::new();
        for s in &self.sorts {
            if !sorts.insert(s.name.as_str()) {
                return Err(format!("sort `{}` is declared twice", s.name));
            }
        }
        let mut symbols = std::collections::HashSet::new();
        let profiles = self
            .funcs
            .iter()
            .map(|f| (&f.name, &f.args, Some(f.result)))
            .chain(self.rels.iter().map(|r| (&r.name, &r.args, None)));
        for (name, args, result) in profiles {
            if !symbols.insert(name.as_str()) {
                return Err(format!("symbol `{name}` is declared twice"));
            }
            if args.len() > MAX_ARITY {
                return Err(format!(
                    "symbol `{name}` takes {} arguments; at most {MAX_ARITY} are allowed",
                    args.len()
                ));
            }
            if args
                .iter()
                .chain(result.iter())
                .any(|s| s.0 as usize >= self.sorts.len())
            {
                return Err(format!(
                    "symbol `{name}` refers to a sort that is not declared"
                ));
            }
        }
        Ok(())
    }

    /// Whether `name` is already used by a function or relation symbol.
    pub fn has_symbol(&self, name: &str) -> bool {
        self.func(name).is_some() || self.rel(name).is_some()
    }

    /// A one-line profile such as `* : U U -> U`.
    pub fn func_profile(&self, id: FuncId) -> String {
        let d = self.func_decl(id);
        let args: Vec<&str> = d
            .args
            .iter()
            .map(|s| self.sort_decl(*s).name.as_str())
            .collect();
        if args.is_empty() {
            format!("{} : {}", d.name, self.sort_decl(d.result).name)
        } else {
            format!(
                "{} : {} -> {}",
                d.name,
                args.join(" "),
                self.sort_decl(d.result).name
            )
        }
    }

    /// A one-line profile such as `<= : U U`.
    pub fn rel_profile(&self, id: RelId) -> String {
        let d = self.rel_decl(id);
        let args: Vec<&str> = d
            .args
            .iter()
            .map(|s| self.sort_decl(*s).name.as_str())
            .collect();
        format!("{} : {}", d.name, args.join(" "))
    }
}

/// Whether a symbol name is made of operator characters (and so is written infix when binary).
pub fn is_symbolic(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| !c.is_alphanumeric() && c != '_' && c != '\'')
}

/// The default precedence of an infix symbol: a higher number binds tighter.
pub fn default_precedence(name: &str) -> u8 {
    match name {
        "+" | "-" | "⊕" => 50,
        "^" | "∧" | "⊓" => 40,
        "v" | "∨" | "⊔" => 35,
        _ => 60,
    }
}

/// The default fixity of a binary symbol called `name` with no fixity declaration:
/// infix and left associative when the name is made of operator characters, prefix otherwise.
pub fn default_binary_fixity(name: &str) -> Fixity {
    if is_symbolic(name) {
        Fixity::Infix {
            prec: default_precedence(name),
            assoc: Assoc::Left,
        }
    } else {
        Fixity::Prefix
    }
}
