//! Is a candidate new compared with the theory it came from? A move can produce a theory with
//! other axioms but the same models: Group with the left alternative law (every group satisfies
//! it), or Loop with a new left division (every loop has exactly one). Such a candidate is no
//! discovery, however its axioms read. The comparison uses the models both checks found, so it
//! is evidence at the sizes counted exactly, not a proof of equivalence, and says so.

use crate::situation::Candidate;
use birkhoff_checker::{canonical_form, sizes_label, Status};
use birkhoff_engine::{eval, Signature, Structure};
use std::collections::BTreeSet;

/// Where `parent`'s symbols sit in `child`'s signature: the tables of a child's model for these
/// symbols form a model over the parent's signature (its reduct). `None` if the sorts differ or
/// a parent symbol is missing or has another profile in `child`.
fn symbol_map(parent: &Signature, child: &Signature) -> Option<(Vec<usize>, Vec<usize>)> {
    if parent.sorts != child.sorts {
        return None;
    }
    let funcs = parent
        .funcs
        .iter()
        .map(|p| {
            child
                .funcs
                .iter()
                .position(|c| c.name == p.name && c.args == p.args && c.result == p.result)
        })
        .collect::<Option<Vec<_>>>()?;
    let rels = parent
        .rels
        .iter()
        .map(|p| {
            child
                .rels
                .iter()
                .position(|c| c.name == p.name && c.args == p.args)
        })
        .collect::<Option<Vec<_>>>()?;
    Some((funcs, rels))
}

/// The reduct of a child's model to the parent's symbols. Sorts and argument profiles agree, so
/// each table is copied as it is.
fn reduct(m: &Structure, (funcs, rels): &(Vec<usize>, Vec<usize>)) -> Structure {
    Structure {
        sizes: m.sizes.clone(),
        funcs: funcs.iter().map(|&f| m.funcs[f].clone()).collect(),
        rels: rels.iter().map(|&r| m.rels[r].clone()).collect(),
    }
}

/// Why `c` shows nothing new compared with `parent`, or `None` when it differs or cannot be
/// compared. Nothing new means: at every size where both spectra are exact (at least one of them
/// above 1) the counts agree, and
/// - with the same symbols: every model of the parent found (at any size) satisfies `c`'s
///   axioms, so its added axioms hold there and, counts being equal, the models are the same;
/// - with new symbols, none of them a constant: every model of the parent at those sizes is the
///   reduct of one of `c`'s, and the counts being equal, each expands to the new symbols in
///   exactly one way.
pub fn no_new_models(c: &Candidate, parent: &Candidate) -> Option<String> {
    if !(c.checked && parent.checked) {
        return None;
    }
    let mut compared = Vec::new();
    for row in c.spectrum.iter().filter(|r| r.iso.status == Status::Exact) {
        if let Some(p) = parent
            .spectrum
            .iter()
            .find(|p| p.sizes == row.sizes && p.iso.status == Status::Exact)
        {
            if p.iso.value != row.iso.value {
                return None;
            }
            compared.push(row.sizes.clone());
        }
    }
    if !compared.iter().any(|s| s.iter().any(|&n| n > 1)) {
        return None;
    }
    let sizes = compared
        .iter()
        .map(|s| sizes_label(s))
        .collect::<Vec<_>>()
        .join(", ");
    let (p_sig, c_sig) = (&parent.theory.sig, &c.theory.sig);
    let spectra = format!(
        "its spectrum equals that of its parent {} at sizes {sizes} (exact counts)",
        parent.name
    );
    if p_sig == c_sig {
        let all_satisfy = parent
            .models
            .iter()
            .all(|m| eval::check(&c.theory, &m.model).is_ok());
        return all_satisfy.then(|| {
            format!(
                "no new models: {spectra}, and all {} models of {} found satisfy its axioms",
                parent.models.len(),
                parent.name
            )
        });
    }
    // A new constant has its one value in each finite model (a finite lattice's bounds), but
    // the class may still differ in its infinite members, and a proof can say so (bounded
    // lattices are not lattices: `Invariant::NoConstantTerm`): identification decides it.
    let is_new = |n: &str| p_sig.func(n).is_none() && p_sig.rel(n).is_none();
    if c_sig
        .funcs
        .iter()
        .any(|f| f.args.is_empty() && is_new(&f.name))
    {
        return None;
    }
    let map = symbol_map(p_sig, c_sig)?;
    let reducts: BTreeSet<Structure> = c
        .models
        .iter()
        .filter(|m| compared.contains(&m.model.sizes))
        .map(|m| canonical_form(p_sig, &reduct(&m.model, &map)).form)
        .collect();
    let every_parent_model_expands = parent
        .models
        .iter()
        .filter(|m| compared.contains(&m.model.sizes))
        .all(|m| reducts.contains(&canonical_form(p_sig, &m.model).form));
    let new_symbols: Vec<&str> = c_sig
        .funcs
        .iter()
        .map(|f| f.name.as_str())
        .chain(c_sig.rels.iter().map(|r| r.name.as_str()))
        .filter(|n| is_new(n))
        .collect();
    every_parent_model_expands.then(|| format!("no new models: {spectra}, and each model of {} there extends to the new symbols {} in exactly one way", parent.name, new_symbols.join(", ")))
}

/// The smallest model found of `c` that is not a model of `parent` (whose symbols `c` declares
/// under the same names), as a caption naming the axiom it violates and Cayley tables: what is
/// new in `c`, rather than a small model both share. `None` when every model found is also a
/// parent's (a candidate that only adds laws) or the symbols do not match.
pub fn new_model(c: &Candidate, parent: &birkhoff_engine::Theory) -> Option<String> {
    let w = birkhoff_checker::prover::equivalence::new_model_against(
        &c.theory,
        c.models.iter().map(|m| m.model.clone()).collect(),
        parent,
    )?;
    let at: Vec<String> = w
        .assignment
        .iter()
        .map(|(x, n)| format!("{x} = {n}"))
        .collect();
    Some(format!(
        "not a model of {} (its axiom {} fails at {}):\n{}",
        parent.name,
        w.axiom,
        at.join(", "),
        birkhoff_engine::tables::cayley(&c.theory.sig, &w.model)
    ))
}
