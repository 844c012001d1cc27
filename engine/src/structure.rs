//! Finite structures: each sort interpreted as `{0..n-1}`, each symbol as a table.
//!
//! Tables are flat and row-major: the entry for `f(a1, ..., ak)` sits at
//! `((a1 * n2 + a2) * n3 + ...) + ak`, where `ni` is the size of the i-th argument's sort.

use crate::error::{Error, Result};
use crate::signature::{FuncId, RelId, Signature, SortId};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// A finite structure for a signature (which is kept alongside, not inside).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Structure {
    /// Size of each sort, in declaration order; every size is at least 1.
    pub sizes: Vec<u32>,
    /// One table per function symbol (a constant's table has one entry).
    pub funcs: Vec<Vec<u32>>,
    /// One table per relation symbol.
    pub rels: Vec<Vec<bool>>,
}

/// Number of entries of a table whose arguments have these sorts.
pub fn table_len(sizes: &[u32], args: &[SortId]) -> usize {
    args.iter().map(|s| sizes[s.0 as usize] as usize).product()
}

/// Index of the entry for `args` in a row-major table over these argument sorts.
pub fn table_index(sizes: &[u32], arg_sorts: &[SortId], args: &[u32]) -> usize {
    arg_sorts.iter().zip(args).fold(0, |acc, (s, a)| {
        acc * sizes[s.0 as usize] as usize + *a as usize
    })
}

impl Structure {
    /// A structure whose every table is all zeros (and every relation false).
    pub fn zeroed(sig: &Signature, sizes: &[u32]) -> Structure {
        Structure {
            sizes: sizes.to_vec(),
            funcs: sig
                .funcs
                .iter()
                .map(|f| vec![0; table_len(sizes, &f.args)])
                .collect(),
            rels: sig
                .rels
                .iter()
                .map(|r| vec![false; table_len(sizes, &r.args)])
                .collect(),
        }
    }

    /// Builds a structure from functions giving each symbol's value by name.
    ///
    /// ```
    /// use birkhoff_engine::{Theory, Structure, eval};
    /// let t = Theory::parse("theory CommMagma\nfunc * : 2\naxiom comm: x * y = y * x", "t.bk").unwrap();
    /// let z3 = Structure::from_fn(&t.sig, &[3], |_, a| (a[0] + a[1]) % 3, |_, _| false);
    /// assert!(eval::check(&t, &z3).is_ok());
    /// ```
    pub fn from_fn(
        sig: &Signature,
        sizes: &[u32],
        f: impl Fn(&str, &[u32]) -> u32,
        r: impl Fn(&str, &[u32]) -> bool,
    ) -> Structure {
        let mut s = Structure::zeroed(sig, sizes);
        for id in sig.func_ids() {
            let d = sig.func_decl(id);
            for (i, args) in tuples(sizes, &d.args).enumerate() {
                s.funcs[id.0 as usize][i] = f(&d.name, &args);
            }
        }
        for id in sig.rel_ids() {
            let d = sig.rel_decl(id);
            for (i, args) in tuples(sizes, &d.args).enumerate() {
                s.rels[id.0 as usize][i] = r(&d.name, &args);
            }
        }
        s
    }

    /// Size of a sort.
    pub fn size(&self, s: SortId) -> u32 {
        self.sizes[s.0 as usize]
    }

    /// The value of `f(args)`.
    pub fn apply(&self, sig: &Signature, f: FuncId, args: &[u32]) -> u32 {
        self.funcs[f.0 as usize][table_index(&self.sizes, &sig.func_decl(f).args, args)]
    }

    /// Whether `R(args)` holds.
    pub fn holds(&self, sig: &Signature, r: RelId, args: &[u32]) -> bool {
        self.rels[r.0 as usize][table_index(&self.sizes, &sig.rel_decl(r).args, args)]
    }

    /// Checks that the structure fits the signature: sizes, table lengths, values in range.
    pub fn validate(&self, sig: &Signature) -> Result<()> {
        let bad = |m: String| Err(Error::Structure(m));
        if self.sizes.len() != sig.sorts.len() {
            return bad(format!(
                "{} sort sizes given, but the signature has {} sorts",
                self.sizes.len(),
                sig.sorts.len()
            ));
        }
        if let Some(i) = self.sizes.iter().position(|&n| n == 0) {
            return bad(format!(
                "sort {} is empty; first-order structures have non-empty sorts",
                sig.sorts[i].name
            ));
        }
        if self.funcs.len() != sig.funcs.len() || self.rels.len() != sig.rels.len() {
            return bad("the number of tables does not match the number of symbols".into());
        }
        for id in sig.func_ids() {
            let d = sig.func_decl(id);
            let table = &self.funcs[id.0 as usize];
            if table.len() != table_len(&self.sizes, &d.args) {
                return bad(format!(
                    "the table of {} has {} entries, expected {}",
                    d.name,
                    table.len(),
                    table_len(&self.sizes, &d.args)
                ));
            }
            let n = self.size(d.result);
            if let Some(v) = table.iter().find(|&&v| v >= n) {
                return bad(format!(
                    "{} takes the value {v}, outside its sort {} of size {n}",
                    d.name,
                    sig.sort_decl(d.result).name
                ));
            }
        }
        for id in sig.rel_ids() {
            let d = sig.rel_decl(id);
            if self.rels[id.0 as usize].len() != table_len(&self.sizes, &d.args) {
                return bad(format!(
                    "the table of relation {} has the wrong number of entries",
                    d.name
                ));
            }
        }
        Ok(())
    }
}

/// All argument tuples for these sorts, in table order.
pub fn tuples(sizes: &[u32], args: &[SortId]) -> impl Iterator<Item = Vec<u32>> {
    let dims: Vec<u32> = args.iter().map(|s| sizes[s.0 as usize]).collect();
    let total: usize = dims.iter().map(|&d| d as usize).product();
    (0..total).map(move |mut i| {
        let mut t = vec![0u32; dims.len()];
        for k in (0..dims.len()).rev() {
            t[k] = (i % dims[k] as usize) as u32;
            i /= dims[k] as usize;
        }
        t
    })
}

/// Nests a flat row-major table into arrays, one level per argument.
fn nest<T: Clone + Into<Value>>(flat: &[T], dims: &[u32]) -> Value {
    match dims {
        [] => flat[0].clone().into(),
        [_, rest @ ..] => {
            let chunk = rest.iter().map(|&d| d as usize).product::<usize>().max(1);
            Value::Array(flat.chunks(chunk).map(|c| nest(c, rest)).collect())
        }
    }
}

fn flatten(v: &Value, dims: &[u32], what: &str, out: &mut Vec<Value>) -> Result<()> {
    match dims {
        [] => {
            out.push(v.clone());
            Ok(())
        }
        [d, rest @ ..] => {
            let arr = v.as_array().ok_or_else(|| {
                Error::Structure(format!("{what}: expected an array of {d} entries"))
            })?;
            if arr.len() != *d as usize {
                return Err(Error::Structure(format!(
                    "{what}: expected {d} entries, found {}",
                    arr.len()
                )));
            }
            arr.iter().try_for_each(|x| flatten(x, rest, what, out))
        }
    }
}

impl Structure {
    /// JSON with symbol names: `{"sizes": {"U": 3}, "functions": {"*": [[..],..]}, "relations": {..}}`.
    pub fn to_json(&self, sig: &Signature) -> Value {
        let sizes: serde_json::Map<String, Value> = sig
            .sort_ids()
            .map(|s| (sig.sort_decl(s).name.clone(), json!(self.size(s))))
            .collect();
        let dims = |args: &[SortId]| args.iter().map(|s| self.size(*s)).collect::<Vec<_>>();
        let funcs: serde_json::Map<String, Value> = sig
            .func_ids()
            .map(|f| {
                (
                    sig.func_decl(f).name.clone(),
                    nest(&self.funcs[f.0 as usize], &dims(&sig.func_decl(f).args)),
                )
            })
            .collect();
        let rels: serde_json::Map<String, Value> = sig
            .rel_ids()
            .map(|r| {
                let bits: Vec<u32> = self.rels[r.0 as usize].iter().map(|&b| b as u32).collect();
                (
                    sig.rel_decl(r).name.clone(),
                    nest(&bits, &dims(&sig.rel_decl(r).args)),
                )
            })
            .collect();
        json!({ "sizes": sizes, "functions": funcs, "relations": rels })
    }

    /// Reads the JSON of [`Structure::to_json`]. A single-sorted structure may give `"size": n`.
    /// A field or a symbol this reading does not know is an error, not something to skip: a
    /// misspelt table name would otherwise leave the table missing or, worse, unchecked.
    pub fn from_json(sig: &Signature, v: &Value) -> Result<Structure> {
        let err = |m: String| Error::Structure(m);
        let obj = v.as_object().ok_or_else(|| {
            err(
                "a structure is a JSON object with `sizes` (or `size`) and `functions`/`relations`"
                    .into(),
            )
        })?;
        if let Some(k) = obj
            .keys()
            .find(|k| !matches!(k.as_str(), "size" | "sizes" | "functions" | "relations"))
        {
            return Err(err(format!(
                "unknown field {} (a structure has `sizes` or `size`, `functions` and `relations`)",
                shown(k)
            )));
        }
        type IsDeclared<'a> = &'a dyn Fn(&str) -> bool;
        let declared: [(&str, IsDeclared); 2] = [
            ("functions", &|n| sig.func(n).is_some()),
            ("relations", &|n| sig.rel(n).is_some()),
        ];
        for (field, known) in declared {
            if let Some(k) = obj
                .get(field)
                .and_then(Value::as_object)
                .and_then(|m| m.keys().find(|k| !known(k)))
            {
                return Err(err(format!(
                    "`{field}` names {}, which the theory does not declare",
                    shown(k)
                )));
            }
        }
        if let Some(k) = obj
            .get("sizes")
            .and_then(Value::as_object)
            .and_then(|m| m.keys().find(|k| sig.sort(k).is_none()))
        {
            return Err(err(format!(
                "`sizes` names {}, which is not a sort of the theory",
                shown(k)
            )));
        }
        let mut sizes: Vec<u64> = Vec::new();
        if let Some(n) = v.get("size").and_then(Value::as_u64) {
            if !sig.is_single_sorted() {
                return Err(err(
                    "this theory has several sorts: give `sizes` per sort".into()
                ));
            }
            sizes.push(n);
        } else {
            let map = v
                .get("sizes")
                .and_then(Value::as_object)
                .ok_or_else(|| err("missing `sizes` (or `size`)".into()))?;
            for s in &sig.sorts {
                let n = map
                    .get(&s.name)
                    .and_then(Value::as_u64)
                    .ok_or_else(|| err(format!("missing the size of sort {}", s.name)))?;
                sizes.push(n);
            }
        }
        if sizes.iter().any(|&n| n == 0 || n > 1 << 16) {
            return Err(err("every sort size must be between 1 and 65536".into()));
        }
        let sizes: Vec<u32> = sizes.into_iter().map(|n| n as u32).collect();
        // The tables are built from the entries given (`flatten` checks their number), so a large
        // size with few entries is an error rather than a huge allocation.
        let mut s = Structure {
            sizes: sizes.clone(),
            funcs: Vec::new(),
            rels: Vec::new(),
        };
        let empty = serde_json::Map::new();
        let funcs = v
            .get("functions")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        for f in sig.func_ids() {
            let d = sig.func_decl(f);
            let table = funcs
                .get(&d.name)
                .ok_or_else(|| err(format!("missing the table of {}", d.name)))?;
            let mut flat = Vec::new();
            flatten(
                table,
                &d.args
                    .iter()
                    .map(|a| sizes[a.0 as usize])
                    .collect::<Vec<_>>(),
                &d.name,
                &mut flat,
            )?;
            let values = flat.iter().map(|x| {
                let n = x
                    .as_u64()
                    .ok_or_else(|| err(format!("{}: entries must be element numbers", d.name)))?;
                u32::try_from(n).map_err(|_| err(format!("{}: value {n} is too large", d.name)))
            });
            s.funcs.push(values.collect::<Result<_>>()?);
        }
        let rels = v
            .get("relations")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        for r in sig.rel_ids() {
            let d = sig.rel_decl(r);
            let table = rels
                .get(&d.name)
                .ok_or_else(|| err(format!("missing the table of relation {}", d.name)))?;
            let mut flat = Vec::new();
            flatten(
                table,
                &d.args
                    .iter()
                    .map(|a| sizes[a.0 as usize])
                    .collect::<Vec<_>>(),
                &d.name,
                &mut flat,
            )?;
            let values = flat.iter().map(|x| match x {
                Value::Bool(b) => Ok(*b),
                Value::Number(n) if n.as_u64() == Some(0) => Ok(false),
                Value::Number(n) if n.as_u64() == Some(1) => Ok(true),
                _ => Err(err(format!(
                    "relation {}: entries must be 0/1 or true/false",
                    d.name
                ))),
            });
            s.rels.push(values.collect::<Result<_>>()?);
        }
        s.validate(sig)?;
        Ok(s)
    }
}

/// A name from a file as an error message shows it: quoted, control characters escaped, and cut
/// to 80 characters (a file may hold a megabyte-long key).
fn shown(name: &str) -> String {
    let cut: String = name.chars().take(80).collect();
    let more = if cut.len() < name.len() { "..." } else { "" };
    format!("{cut:?}{more}")
}

/// Parses JSON text like `serde_json::from_str`, but refuses an object that gives one key twice
/// (serde_json keeps the last silently, so a table given twice would be half read).
pub fn parse_json_strict(text: &str) -> std::result::Result<Value, String> {
    use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
    struct Strict;
    impl<'de> DeserializeSeed<'de> for Strict {
        type Value = Value;
        fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Value, D::Error> {
            d.deserialize_any(Strict)
        }
    }
    impl<'de> Visitor<'de> for Strict {
        type Value = Value;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON value")
        }
        fn visit_bool<E>(self, b: bool) -> std::result::Result<Value, E> {
            Ok(Value::Bool(b))
        }
        fn visit_i64<E>(self, n: i64) -> std::result::Result<Value, E> {
            Ok(n.into())
        }
        fn visit_u64<E>(self, n: u64) -> std::result::Result<Value, E> {
            Ok(n.into())
        }
        fn visit_f64<E>(self, n: f64) -> std::result::Result<Value, E> {
            Ok(serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number))
        }
        fn visit_str<E>(self, s: &str) -> std::result::Result<Value, E> {
            Ok(Value::String(s.to_string()))
        }
        fn visit_string<E>(self, s: String) -> std::result::Result<Value, E> {
            Ok(Value::String(s))
        }
        fn visit_unit<E>(self) -> std::result::Result<Value, E> {
            Ok(Value::Null)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Value, A::Error> {
            let mut out = Vec::new();
            while let Some(v) = seq.next_element_seed(Strict)? {
                out.push(v);
            }
            Ok(Value::Array(out))
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Value, A::Error> {
            let mut out = serde_json::Map::new();
            while let Some(key) = map.next_key::<String>()? {
                if out.contains_key(&key) {
                    return Err(serde::de::Error::custom(format!(
                        "{} is given twice",
                        shown(&key)
                    )));
                }
                let v = map.next_value_seed(Strict)?;
                out.insert(key, v);
            }
            Ok(Value::Object(out))
        }
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let v = Strict.deserialize(&mut de).map_err(|e| e.to_string())?;
    de.end().map_err(|e| e.to_string())?;
    Ok(v)
}
