//! The paper as LaTeX: each part built here as a LaTeX fragment from the gathered facts (every
//! library text through [`crate::escape`], every formula through [`crate::math`]), then placed
//! by the template `templates/paper.tex` (minijinja, no escaping of its own: the template only
//! arranges fragments that are already safe).

use crate::escape::text;
use crate::gather::{LiteratureSearch, Paper, ShownModel};
use crate::math::Symbols;
use crate::tables::cayley;
use birkhoff_checker::prover::structural::{self, Notation};
use birkhoff_checker::{
    automorphisms_label,
    prover::certificate::GoalConstant,
    prover::readable::{Chain, ReadableProof, Reason},
    sizes_label, Count, Status,
};
use birkhoff_engine::Structure;
use birkhoff_library::record::StructureClaim;
use serde::Serialize;
use std::fmt::Write;

/// The template, embedded at build time.
const TEMPLATE: &str = include_str!("../templates/paper.tex");

#[derive(Serialize)]
struct ModelPart {
    heading: String,
    caption: String,
    tables: String,
}

#[derive(Serialize)]
struct TheoremPart {
    statement: String,
    proof: String,
}

#[derive(Serialize)]
struct RefutedPart {
    statement: String,
    countermodel: String,
}

#[derive(Serialize)]
struct Context {
    id: String,
    title: String,
    #[serde(rename = "abstract")]
    abstract_: String,
    definition: String,
    axioms: Vec<String>,
    identity: String,
    derivation: String,
    spectrum_intro: String,
    spectrum_table: String,
    spectrum_plot: String,
    oeis: String,
    models_intro: String,
    models: Vec<ModelPart>,
    theorems_intro: String,
    theorems: Vec<TheoremPart>,
    structure: String,
    placement: String,
    appendix: String,
    refuted_intro: String,
    refuted: Vec<RefutedPart>,
    open_intro: String,
    open: Vec<String>,
    related: String,
    omissions: String,
    bibliography: String,
}

/// How many subdirectly irreducible models the structure section shows as tables.
const SI_SHOWN: usize = 4;

/// Inline math, as `\(…\)`: with `$…$`, an empty formula (a statement of only spaces) would
/// be `$$`, which opens display math and breaks the compile.
fn m(s: &str) -> String {
    format!("\\({s}\\)")
}

/// A count as a table cell: exact, at least, or unknown.
fn count_cell(c: &Count) -> String {
    match c.status {
        Status::Exact => c.value.to_string(),
        Status::AtLeast => format!("$\\geq$\\,{}", c.value),
        Status::Unknown => "?".into(),
    }
}

impl Paper {
    /// The paper as a complete LaTeX document (OUTPUT.tex).
    pub fn to_latex(&self) -> String {
        let sym = Symbols::of(&self.theory.sig);
        let name = text(&self.record.name);
        let ctx = Context {
            id: text(&self.id),
            title: format!("The theory {name}"),
            abstract_: self.abstract_text(),
            definition: self.definition(&sym),
            axioms: self
                .theory
                .axioms
                .iter()
                .map(|a| {
                    format!(
                        "\\textsf{{{}}}: {}",
                        text(&a.name),
                        m(&sym.math(
                            &birkhoff_engine::print::FormulaPrinter {
                                bracket_operands: true,
                                ..birkhoff_engine::print::FormulaPrinter::new(&self.theory.sig, a)
                            }
                            .formula(&a.formula)
                        ))
                    )
                })
                .collect(),
            identity: self.identity(),
            derivation: self.derivation_text(),
            spectrum_intro: self.spectrum_intro(),
            spectrum_table: self.spectrum_table(),
            spectrum_plot: self.spectrum_plot(),
            oeis: self.oeis_text(),
            models_intro: if self.models.is_empty() {
                "No model of this theory is stored in the library.".into()
            } else {
                "The smallest models found that are new compared with the theory this one came from (or, when it has none, its smallest models), as Cayley tables over the elements $0, \\dots, n-1$.".into()
            },
            models: self
                .models
                .iter()
                .enumerate()
                .map(|(i, sm)| self.model_part(i, sm))
                .collect(),
            theorems_intro: if self.theorems.is_empty() {
                "No conjecture about this theory has been proved yet.".into()
            } else {
                "Each proof is a chain of equations; every step is one rewrite by the axiom or lemma named, at the position given (argument numbers from the root; ``the root'' is the whole term). Each proof typeset here was re-checked from this text.".into()
            },
            theorems: self
                .theorems
                .iter()
                .enumerate()
                .map(|(i, t)| TheoremPart {
                    statement: match &t.claim {
                        Some(c) => format!(
                            "\\label{{thm:{i}}}In every model, {}: {}.",
                            c.kind.sentence(&claim_notation(&sym, c)),
                            m(&sym.math(&t.statement))
                        ),
                        None => format!("\\label{{thm:{i}}}{}", m(&sym.math(&t.statement))),
                    },
                    proof: proof_text(&sym, t),
                })
                .collect(),
            structure: self.structure_section(&sym),
            placement: self.placement_section(),
            appendix: self.appendix(),
            refuted_intro: if self.refuted.is_empty() {
                "No conjecture about this theory has been refuted.".into()
            } else {
                "These laws do not follow from the axioms: each fails in the countermodel shown, which the evaluator checked.".into()
            },
            refuted: self.refuted_parts(&sym),
            open_intro: if self.open.is_empty() && self.patterns.is_empty() {
                "None.".into()
            } else {
                "Neither proved nor refuted; the spectrum patterns are suggested by the exact counts only.".into()
            },
            open: self
                .open
                .iter()
                .map(|c| {
                    format!(
                        "{} \\quad ({})",
                        m(&sym.math(&c.statement)),
                        text(&c.evidence)
                    )
                })
                .chain(
                    self.patterns
                        .iter()
                        .map(|p| format!("{} (from the spectrum)", text(&p.statement))),
                )
                .collect(),
            related: self.related(),
            omissions: if self.omissions.is_empty() {
                String::new()
            } else {
                format!(
                    "\\paragraph{{Not included.}} {}",
                    self.omissions
                        .iter()
                        .map(|o| text(o))
                        .collect::<Vec<_>>()
                        .join("; ")
                ) + "."
            },
            bibliography: self.thebibliography(),
        };
        let mut env = minijinja::Environment::new();
        // Fragments are LaTeX already; the template must not escape, trim or keep undefined names.
        env.set_auto_escape_callback(|_| minijinja::AutoEscape::None);
        env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
        env.set_keep_trailing_newline(true);
        let rendered = env
            .add_template("paper.tex", TEMPLATE)
            .and_then(|()| env.get_template("paper.tex"))
            .and_then(|t| t.render(&ctx));
        // The template is part of the program and its context always has every field: a failure
        // here is a bug, reported in the document rather than as a half-written file.
        rendered.unwrap_or_else(|e| format!("\\documentclass{{article}}\\begin{{document}}The paper template failed: {}\\end{{document}}\n", text(&e.to_string())))
    }

    /// Each refuted law with its countermodel. A countermodel is typeset once: as one of the
    /// small models shown, or as the next numbered countermodel; a law it also refutes names it.
    fn refuted_parts(&self, sym: &Symbols) -> Vec<RefutedPart> {
        let mut typeset: Vec<&Structure> = Vec::new();
        let si = self.si_shown();
        let mut parts = Vec::with_capacity(self.refuted.len());
        for r in &self.refuted {
            let countermodel = match &r.countermodel {
                None => "The countermodel's record could not be read.".to_string(),
                Some(s) => {
                    if let Some(k) = self.models.iter().position(|sm| sm.structure == *s) {
                        format!(
                            "\\noindent It fails in Model {} of Section~\\ref{{sec:models}}.",
                            k + 1
                        )
                    } else if let Some(k) = si.iter().position(|a| a.model == *s) {
                        format!(
                            "\\noindent It fails in SI model {} of Section~\\ref{{sec:structure}}.",
                            k + 1
                        )
                    } else if let Some(k) = typeset.iter().position(|t| *t == s) {
                        format!("\\noindent It fails in Countermodel {} above.", k + 1)
                    } else {
                        typeset.push(s);
                        format!(
                            "\\noindent\\textbf{{Countermodel {}}} (size {}).\\par\\noindent {}",
                            typeset.len(),
                            sizes_label(&s.sizes),
                            cayley(&self.theory.sig, s)
                        )
                    }
                }
            };
            parts.push(RefutedPart {
                statement: format!(
                    "The law {} does not hold in every model. ({})",
                    m(&sym.math(&r.statement)),
                    text(&r.evidence)
                ),
                countermodel,
            });
        }
        parts
    }

    /// The section on what the models are made of: the survey's table of simple, subdirectly
    /// irreducible and directly indecomposable models, the smallest nontrivial subdirectly
    /// irreducible models, and the structure theorems that the proved structure statements give
    /// together, each proof citing the statements it rests on.
    fn structure_section(&self, sym: &Symbols) -> String {
        let mut s = String::new();
        let Some(survey) = &self.survey else {
            return "The models were not surveyed: the theory is not one of algebras (it has relations or several sorts), or its models could not be counted.".into();
        };
        s.push_str("For each size $n$: the models up to isomorphism, how many were analysed, and how many of those are simple (no congruences but the two trivial ones), subdirectly irreducible (SI: a least nontrivial congruence, the monolith) and directly indecomposable (not a product of two smaller models), from the congruence lattice of each model (congruences of all operations). By Birkhoff's subdirect representation theorem every model is a subdirect product of SI models, so the SI models are the building blocks of the class.\n\n");
        s.push_str("\\begin{center}\\begin{tabular}{rrrrrr}\\toprule\n$n$ & models & analysed & simple & SI & indecomposable \\\\\\midrule\n");
        for r in &survey.sizes {
            let x = &r.summary;
            let _ = writeln!(
                s,
                "{} & {} & {} & {} & {} & {} \\\\",
                r.size,
                count_cell(&r.models),
                x.analysed,
                x.simple,
                x.subdirectly_irreducible,
                x.directly_indecomposable
            );
        }
        s.push_str("\\bottomrule\\end{tabular}\\end{center}\n\n");
        let partial: Vec<String> = survey
            .sizes
            .iter()
            .filter(|r| !r.complete())
            .map(|r| r.size.to_string())
            .collect();
        if !partial.is_empty() {
            let _ = writeln!(s, "At sizes {}, not every model was analysed (the count was cut short or the models were too many): the columns there describe the first models in canonical order only.\n", partial.join(", "));
        }
        if let Some(semi) = survey.semisimple(&self.theory) {
            let sizes: Vec<String> = semi
                .irreducible
                .iter()
                .map(|(n, simple)| format!("{n}{}", if *simple { " (simple)" } else { "" }))
                .collect();
            let _ = writeln!(s, "\\paragraph{{Observation.}} Every model of size at most {} is a direct product of subdirectly irreducible models: every directly indecomposable model of those sizes is subdirectly irreducible, and the direct factors of a model are models (the axioms are equations) of no larger size. The subdirectly irreducible models there are of sizes {}. Whether every finite model is such a product is open; it holds at every size checked.\n", semi.up_to, sizes.join(", "));
        }
        let si = self.si_shown();
        if !si.is_empty() {
            let _ = writeln!(
                s,
                "The smallest subdirectly irreducible models of size at least 2 (the first {}):\n",
                si.len()
            );
            for (k, a) in si.iter().enumerate() {
                let simple = a.anatomy.irreducibility.as_ref().is_some_and(|i| i.simple);
                // A model typeset in Section 3 already is referred to, not printed again.
                let table = match self.models.iter().position(|sm| sm.structure == a.model) {
                    Some(j) => format!("Model {} of Section~\\ref{{sec:models}}.", j + 1),
                    None => cayley(&self.theory.sig, &a.model),
                };
                let _ = writeln!(
                    s,
                    "\\paragraph{{SI model {} (size {}{}).}} \\noindent {table}\n\n{}\n",
                    k + 1,
                    a.anatomy.size,
                    if simple { ", simple" } else { "" },
                    anatomy_text(sym, a),
                );
            }
        }
        // The structure theorems: the proved structure statements read together.
        let axioms = structural::axiom_facts(&self.theory);
        let claims = self.theorems.iter().filter_map(|t| t.claim.as_ref());
        let any_fact = !axioms.is_empty() || claims.clone().next().is_some();
        let composed = crate::structure::structure_theorems(&self.theory, claims, &|t, op| {
            notation(sym, t, op)
        });
        let name = text(&self.record.name);
        for th in &composed {
            // Each part is cited by the number of the theorem that proves it.
            let cited: Vec<String> = th
                .parts
                .iter()
                .filter_map(|part| {
                    let k = part.kind;
                    let at = self
                        .theorems
                        .iter()
                        .position(|t| t.claim.as_ref().is_some_and(|c| c.fact().answers(part)));
                    at.map(|i| format!("Theorem~\\ref{{thm:{i}}} ({})", k.name()))
                        .or_else(|| {
                            // A part that is an axiom is cited by the axiom's name.
                            axioms
                                .iter()
                                .find(|a| a.kind == k && a.operation == part.operation)
                                .map(|a| {
                                    format!(
                                        "the axiom \\textsf{{{}}} ({})",
                                        text(&a.term),
                                        k.name()
                                    )
                                })
                        })
                })
                .collect();
            let _ = writeln!(
                s,
                "\\begin{{theorem}}[Structure]\nLet \\(S\\) be a model of {name}. {}\n\\end{{theorem}}\n\\begin{{proof}}\nBy {} (the theorems in Section~\\ref{{sec:theorems}}, each proved with a certificate replayed by the independent checker). {}\n\\end{{proof}}\n",
                th.sentence,
                cited.join(", "),
                th.argument
            );
        }
        if composed.is_empty() && any_fact {
            s.push_str("The structure statements proved (Section~\\ref{sec:theorems}, those stated in words) do not yet combine into a structure theorem of the kinds Birkhoff knows (a retract, an ideal, a Boolean group, an ideal extension, a map into the centre).\n");
        }
        s
    }

    /// The subdirectly irreducible models of size at least 2 that the structure section shows,
    /// smallest first: at most [`SI_SHOWN`].
    fn si_shown(&self) -> Vec<&birkhoff_checker::survey::Analysed> {
        let Some(survey) = &self.survey else {
            return Vec::new();
        };
        survey
            .sizes
            .iter()
            .flat_map(|r| &r.analysed)
            .filter(|a| {
                a.anatomy.size > 1
                    && a.anatomy
                        .irreducibility
                        .as_ref()
                        .is_some_and(|i| i.subdirectly_irreducible)
            })
            .take(SI_SHOWN)
            .collect()
    }

    /// Where the theory sits among known classes over its signature: each neighbour's relation
    /// with its evidence, and the Hasse diagram (TikZ) of the classes strictly comparable with it.
    fn placement_section(&self) -> String {
        use birkhoff_library::placement::{InclusionRec, Relation};
        let name = text(&self.record.name);
        let reducts = self.placement.as_ref().map_or(String::new(), |p| {
            if p.reducts.is_empty() {
                return String::new();
            }
            let items: Vec<String> = p
                .reducts
                .iter()
                .map(|r| {
                    let map: Vec<String> = r
                        .map
                        .iter()
                        .map(|(from, to)| {
                            format!("\\texttt{{{}}} as \\texttt{{{}}}", text(to), text(from))
                        })
                        .collect();
                    format!(
                        "\\item reading {}, every model of {name} is one of \\textsf{{{}}};",
                        map.join(", "),
                        text(&r.name)
                    )
                })
                .collect();
            format!("Classes over other symbols contain a reduct of it: each axiom of the class, its symbols read as those of {name}, was derived from the axioms of {name} (certificates replayed). The strongest such classes found:\n\\begin{{itemize}}\n{}\n\\end{{itemize}}\n", items.join("\n"))
        });
        let Some(p) = self.placement.as_ref().filter(|p| !p.neighbours.is_empty()) else {
            return format!("{reducts}It was compared with no known class over its own symbols: no catalogue entry or other discovery has exactly its symbols, or the time for comparing ran out first.");
        };
        let refuted = |d: &InclusionRec| match d {
            InclusionRec::Refuted { axiom, .. } => format!(
                "a model of size {} violates its axiom \\textsf{{{}}}",
                sizes_label(&d.model_sizes()),
                text(axiom)
            ),
            _ => String::new(),
        };
        let mut s = format!("Each catalogue entry and each other discovery with the same symbols was compared with {name} both ways: an inclusion is proved when every axiom of the larger class was derived from the smaller one's axioms (certificates replayed), and refuted by a model of one theory, checked by the evaluator, that violates an axiom of the other.\n\\begin{{itemize}}\n");
        let mut incomparable = Vec::new();
        let mut unknown = Vec::new();
        for n in &p.neighbours {
            let other = format!("\\textsf{{{}}}", text(&n.name));
            let line = match n.relation() {
                Relation::Same => format!("the same class as {other}: each implies the other's axioms"),
                Relation::Above => format!("contained in {other}, strictly: every model of {name} is one of {other}, and {} of {other}", refuted(&n.implied_by)),
                Relation::Below => format!(
                    "contains {other}, strictly: every model of {other} is one of {name}, and {}",
                    refuted(&n.implies)
                ),
                Relation::Incomparable => {
                    incomparable.push(other);
                    continue;
                }
                Relation::Undecided => {
                    unknown.push(other);
                    continue;
                }
            };
            let _ = writeln!(s, "\\item {line};");
        }
        if !incomparable.is_empty() {
            let _ = writeln!(
                s,
                "\\item incomparable with {} (a model of each violates an axiom of the other);",
                incomparable.join(", ")
            );
        }
        if !unknown.is_empty() {
            let _ = writeln!(
                s,
                "\\item not decided, within half a second per axiom: {};",
                unknown.join(", ")
            );
        }
        s.push_str("\\end{itemize}\n");
        if p.not_reached > 0 {
            let _ = writeln!(
                s,
                "{} more classes with the same symbols were not compared for lack of time.\n",
                p.not_reached
            );
        }
        if p.nodes.len() > 1 {
            let (n, level) = (p.nodes.len(), &p.levels);
            let mut tikz = String::from("\\begin{center}\\begin{tikzpicture}[every node/.style={draw, rounded corners, font=\\small\\sffamily}]\n");
            for (i, node) in p.nodes.iter().enumerate() {
                let row: Vec<usize> = (0..n).filter(|&j| level[j] == level[i]).collect();
                let k = row.iter().position(|&j| j == i).unwrap_or(0);
                let x = (k as f64 - (row.len() as f64 - 1.0) / 2.0) * 4.0;
                let label = if i == 0 {
                    format!("\\textbf{{{}}}", text(node))
                } else {
                    text(node)
                };
                let _ = writeln!(
                    tikz,
                    "\\node (n{i}) at ({x:.1},{:.1}) {{{label}}};",
                    level[i] as f64 * 1.5
                );
            }
            for &(lo, hi) in &p.covers {
                let _ = writeln!(tikz, "\\draw (n{lo}) -- (n{hi});");
            }
            tikz.push_str("\\end{tikzpicture}\\end{center}\n");
            let _ = writeln!(s, "The classes strictly comparable with {name}, larger classes higher; a line joins a class to each smallest class above it among those shown, and every line is a proved inclusion (an inclusion not proved is not drawn).\n\n{tikz}");
        }
        s + &reducts
    }

    /// The appendix: why the agent kept the discovery (its score dimensions), which is about the
    /// search, not about the mathematics.
    fn appendix(&self) -> String {
        if self.record.notes.is_empty() {
            return String::new();
        }
        format!(
            "\\appendix\n\\section{{Why the agent kept this theory}}\n{}\n",
            text(&self.record.notes)
        )
    }

    fn abstract_text(&self) -> String {
        let name = text(&self.record.name);
        let sizes: Vec<String> = self
            .spectrum
            .iter()
            .filter(|r| r.iso.value > 0)
            .map(|r| sizes_label(&r.sizes))
            .collect();
        let mut s = format!("We describe {name}, a theory found by Birkhoff's research agent");
        if let Some(parent) = self.derivation.get(1) {
            let _ = write!(s, ", derived from {}", text(&parent.name));
        }
        s.push('.');
        if !sizes.is_empty() {
            let _ = write!(s, " It has models of sizes {}.", sizes.join(", "));
        }
        // Only the parts this paper has.
        let mut parts = Vec::new();
        if !self.spectrum.is_empty() {
            parts.push("its spectrum".to_string());
        }
        if !self.models.is_empty() {
            parts.push("its smallest models as Cayley tables".to_string());
        }
        let counted = [
            (self.theorems.len(), "theorem", "with equational proofs"),
            (self.refuted.len(), "refuted law", "with countermodels"),
            (self.open.len() + self.patterns.len(), "open conjecture", ""),
        ];
        parts.extend(
            counted
                .iter()
                .filter(|(n, _, _)| *n > 0)
                .map(|(n, what, how)| {
                    format!("{n} {what}{} {how}", if *n == 1 { "" } else { "s" })
                        .trim_end()
                        .to_string()
                }),
        );
        match parts.as_slice() {
            [] => {}
            [one] => {
                let _ = write!(s, " We give {one}.");
            }
            [init @ .., last] => {
                let _ = write!(s, " We give {} and {last}.", init.join(", "));
            }
        }
        s
    }

    fn definition(&self, sym: &Symbols) -> String {
        let sig = &self.theory.sig;
        let symbols: Vec<String> = sig
            .funcs
            .iter()
            .map(|f| {
                let what = match f.args.len() {
                    0 => "a constant".to_string(),
                    1 => "a unary operation".to_string(),
                    2 => "a binary operation".to_string(),
                    3 => "a ternary operation".to_string(),
                    n => format!("an operation of arity {n}"),
                };
                format!("{what} {}", m(&symbol_math(sym, &f.name)))
            })
            .chain(sig.rels.iter().map(|r| {
                format!(
                    "a relation {} of arity {}",
                    m(&symbol_math(sym, &r.name)),
                    r.args.len()
                )
            }))
            .collect();
        let sorts = if sig.is_single_sorted() {
            String::new()
        } else {
            format!(
                " with sorts {}",
                sig.sorts
                    .iter()
                    .map(|s| m(&crate::escape::math_name(&s.name, true)))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        let doc = if self.theory.doc.is_empty() {
            String::new()
        } else {
            format!(" ({})", text(&self.theory.doc))
        };
        let kind = if sig.rels.is_empty() && sig.is_single_sorted() {
            "an algebra: a set"
        } else {
            "a structure: a set"
        };
        format!("A \\emph{{{}}}{doc} is {kind}{sorts} with {} satisfying the following axioms. Free variables are universally quantified. Every term is written with all its brackets, so that \\((x \\cdot y) \\cdot z\\) and \\(x \\cdot (y \\cdot z)\\) are different terms: no operation is taken to be associative unless an axiom says so.", text(&self.record.name), if symbols.is_empty() { "no symbols".into() } else { symbols.join(", ") })
    }

    fn identity(&self) -> String {
        let mut s = String::new();
        if !self.record.aliases.is_empty() {
            let names: Vec<String> = self
                .record
                .aliases
                .iter()
                .map(|a| format!("{} (cycle {})", text(&a.name), a.cycle))
                .collect();
            let _ = writeln!(s, "\\paragraph{{Also known as.}} {}.", names.join(", "));
        }
        if !self.related.is_empty() {
            // The entries' own doc strings and OEIS numbers; their written references are not
            // cited here (only confirmed REF records are).
            let items: Vec<String> = self
                .related
                .iter()
                .map(|i| {
                    format!(
                        "\\item \\textsf{{{}}}: {}{}",
                        text(&i.name),
                        text(&i.doc),
                        i.oeis
                            .as_ref()
                            .map(|a| format!(" (spectrum: OEIS {})", text(a)))
                            .unwrap_or_default()
                    )
                })
                .collect();
            let _ = writeln!(s, "\\paragraph{{Related catalogue entries.}} The known classes it was derived from, and those they imply:\n\\begin{{itemize}}\n{}\n\\end{{itemize}}", items.join("\n"));
        }
        if !self.record.presentations.is_empty() {
            let items: Vec<String> = self
                .record
                .presentations
                .iter()
                .map(|p| format!("{}: {}", text(&p.name), text(&p.evidence)))
                .collect();
            let _ = writeln!(
                s,
                "\\paragraph{{Other presentations.}} {}.",
                items.join("; ")
            );
        }
        s
    }

    fn derivation_text(&self) -> String {
        let steps: Vec<String> = self
            .derivation
            .iter()
            .map(|a| format!("\\item {} --- {}", text(&a.name), text(&a.origin)))
            .collect();
        format!("From the discovery back to where it started:\n\\begin{{enumerate}}\n{}\n\\end{{enumerate}}", steps.join("\n"))
    }

    fn spectrum_intro(&self) -> String {
        if self.spectrum.is_empty() {
            return "No spectrum is stored for this theory.".into();
        }
        "The number of models of each size, up to isomorphism and labeled. A count marked $\\geq$ is a lower bound: its search was cut short.".into()
    }

    fn spectrum_table(&self) -> String {
        if self.spectrum.is_empty() {
            return String::new();
        }
        let mut s = String::from("\\begin{center}\\begin{tabular}{rrrl}\\toprule\n$n$ & iso & labeled & status \\\\\\midrule\n");
        for r in &self.spectrum {
            let exact = r.iso.status == Status::Exact && r.labeled.status == Status::Exact;
            let _ = writeln!(
                s,
                "{} & {} & {} & {} \\\\",
                sizes_label(&r.sizes),
                count_cell(&r.iso),
                count_cell(&r.labeled),
                if exact { "exact" } else { "at least" }
            );
        }
        s.push_str("\\bottomrule\\end{tabular}\\end{center}");
        s
    }

    /// A pgfplots log-scale plot of the single-sorted rows: zero counts are left out (no place
    /// on a log axis), lower bounds are hollow marks.
    fn spectrum_plot(&self) -> String {
        let points = |labeled: bool, exact: bool| -> Vec<(u32, u128)> {
            self.spectrum
                .iter()
                .filter(|r| r.sizes.len() == 1)
                .map(|r| (r.sizes[0], if labeled { r.labeled } else { r.iso }))
                .filter(|(_, c)| {
                    c.value > 0
                        && c.status != Status::Unknown
                        && (c.status == Status::Exact) == exact
                })
                .map(|(n, c)| (n, c.value))
                .collect()
        };
        let series = [
            ("iso", false, true, "blue, mark=*"),
            ("labeled", true, true, "red, mark=square*"),
            ("iso, lower bound", false, false, "blue, mark=o"),
            ("labeled, lower bound", true, false, "red, mark=square"),
        ];
        let all: Vec<(u32, u128)> = series
            .iter()
            .flat_map(|(_, l, e, _)| points(*l, *e))
            .collect();
        let (Some(nmin), Some(nmax), Some(cmax)) = (
            all.iter().map(|p| p.0).min(),
            all.iter().map(|p| p.0).max(),
            all.iter().map(|p| p.1).max(),
        ) else {
            return String::new();
        };
        let mut s = format!("\\begin{{center}}\\begin{{tikzpicture}}\\begin{{axis}}[ymode=log, width=0.8\\textwidth, height=6.5cm, xlabel={{order $n$}}, ylabel={{models}}, xmin={}, xmax={}, ymin=0.5, ymax={:e}, xtick distance=1, legend pos=north west, legend cell align=left]\n", nmin as f64 - 0.5, nmax as f64 + 0.5, (cmax as f64) * 4.0);
        for (label, labeled, exact, style) in series {
            let p = points(labeled, exact);
            if p.is_empty() {
                continue;
            }
            let coords: Vec<String> = p
                .iter()
                .map(|(n, c)| format!("({n},{:e})", *c as f64))
                .collect();
            let _ = writeln!(
                s,
                "\\addplot[only marks, {style}] coordinates {{{}}};\n\\addlegendentry{{{label}}}",
                coords.join(" ")
            );
        }
        s.push_str("\\end{axis}\\end{tikzpicture}\\end{center}");
        s
    }

    fn oeis_text(&self) -> String {
        if self.spectrum.is_empty() {
            return String::new();
        }
        if self.oeis.is_empty() {
            return "The spectrum matches no sequence of the OEIS data Birkhoff ships.".into();
        }
        let items: Vec<String> = self
            .oeis
            .iter()
            .map(|o| format!("\\item {}", text(&o.describe())))
            .collect();
        format!(
            "The spectrum matches these OEIS sequences:\n\\begin{{itemize}}\n{}\n\\end{{itemize}}",
            items.join("\n")
        )
    }

    fn model_part(&self, i: usize, sm: &ShownModel) -> ModelPart {
        let size = sizes_label(&sm.structure.sizes);
        ModelPart {
            heading: format!("Model {} (size {size}).", i + 1),
            caption: text(&sm.caption),
            tables: cayley(&self.theory.sig, &sm.structure),
        }
    }

    fn related(&self) -> String {
        if self.references.is_empty() {
            return match &self.literature {
                LiteratureSearch::NotRun => "The literature was not searched for this theory: no search by Birkhoff's literature agent is recorded for it (it runs only when asked, as \\texttt{birkhoff literature}, and needs network access). So nothing is cited, and nothing in this paper claims the theory is new to the literature.".into(),
                LiteratureSearch::Unreadable(_) => "The literature agent's records could not be read (see below), so it is not known whether the literature was searched; nothing is cited, and nothing in this paper claims the theory is new to the literature.".into(),
                LiteratureSearch::Run { searches, answers } => {
                    let answered = answers.values().filter(|a| !a.starts_with("skipped")).count();
                    let sources: Vec<String> = answers
                        .iter()
                        .map(|(source, answer)| format!("{} ({})", text(source), text(answer)))
                        .collect();
                    let times = if *searches == 1 { "once".to_string() } else { format!("{searches} times") };
                    if answered == 0 {
                        format!("The literature agent tried to search for this theory {times}, but no source answered: {}. The literature was therefore not searched, nothing is cited, and nothing in this paper claims the theory is new to the literature.", sources.join(", "))
                    } else {
                        format!("The literature agent searched for this theory {times} (last answers: {}) and no reference was confirmed by a lookup by identifier, so none is cited. (Unconfirmed candidates are never cited.)", sources.join(", "))
                    }
                }
            };
        }
        let keys: Vec<String> = self
            .references
            .iter()
            .map(|r| crate::bibtex::key(&r.number))
            .collect();
        format!("The literature agent confirmed these references for this theory by a lookup by identifier: \\cite{{{}}}. Unconfirmed candidates are never cited.", keys.join(","))
    }

    fn thebibliography(&self) -> String {
        if self.references.is_empty() {
            return String::new();
        }
        let mut s = String::from("\\begin{thebibliography}{99}\n");
        for r in &self.references {
            let p = &r.paper;
            let _ = writeln!(
                s,
                "\\bibitem{{{}}} {}. \\emph{{{}}}. {}.{}",
                crate::bibtex::key(&r.number),
                text(&p.authors.join(", ")),
                text(&p.title),
                p.year.map_or("n.d.".to_string(), |y| y.to_string()),
                crate::bibtex::identifiers(&p.ids)
                    .map(|i| format!(" {}.", text(&i)))
                    .unwrap_or_default()
            );
        }
        s.push_str("\\end{thebibliography}");
        s
    }
}

/// What one SI model is made of, in a sentence or two: its congruences and monolith, its
/// automorphism group's order, and for each binary operation its idempotents, centre and nucleus
/// and, for a quasigroup operation, the orders of the multiplication and inner mapping groups.
fn anatomy_text(sym: &Symbols, a: &birkhoff_checker::survey::Analysed) -> String {
    let an = &a.anatomy;
    let set = |xs: &[u32]| {
        let items: Vec<String> = xs.iter().map(u32::to_string).collect();
        if items.is_empty() {
            "empty".to_string()
        } else {
            format!("\\(\\{{{}\\}}\\)", items.join(", "))
        }
    };
    let mut out = Vec::new();
    if let (Some(c), Some(i)) = (&an.congruences, &an.irreducibility) {
        let monolith = i
            .monolith
            .as_ref()
            .filter(|_| !i.simple)
            .map_or(String::new(), |m| {
                let blocks: Vec<String> = m.classes().iter().map(|b| set(b)).collect();
                format!(", its monolith has the blocks {}", blocks.join(" "))
            });
        out.push(format!("It has {} congruences{monolith}", c.len()));
    }
    out.push(format!(
        "its automorphism group has order {}",
        automorphisms_label(a.automorphisms)
    ));
    for b in &an.binary {
        let op = symbol_math(sym, &b.operation);
        let mut part = format!(
            "for \\({op}\\), the idempotents are {}, the centre is {} and the nucleus is {}",
            set(&b.idempotents),
            set(&b.centre),
            set(&b.nucleus)
        );
        if let Some(t) = &b.translations {
            let order =
                |o: Option<u64>| o.map_or("more than \\(2^{64}\\)".into(), |o| o.to_string());
            part += &format!(
                "; the multiplication group (generated by the translations \\(x \\mapsto a {op} x\\) and \\(x \\mapsto x {op} a\\)) has order {}",
                order(t.multiplication_group)
            );
            if t.identity.is_some() {
                part += &format!(
                    " and the inner mapping group (the stabilizer of the identity) order {}{}",
                    order(t.inner_mapping_group),
                    if t.automorphic == Some(true) {
                        ", every inner mapping being an automorphism"
                    } else {
                        ""
                    }
                );
            }
        }
        out.push(part);
    }
    out.join("; ") + "."
}

/// A symbol (function or relation) on its own, as math.
fn symbol_math(sym: &Symbols, name: &str) -> String {
    sym.math(name)
}

/// How a stored structure statement's sentence writes its mathematics in the paper, with its
/// partner term for a statement about a pair.
fn claim_notation(sym: &Symbols, c: &StructureClaim) -> Notation {
    let n = notation(sym, &c.term, &c.operation);
    if c.kind.about_pair() {
        n.with_partner(notation(sym, &c.partner, &c.operation))
    } else {
        n
    }
}

/// How a structure statement's sentence writes its mathematics in the paper.
fn notation(sym: &Symbols, term: &str, op: &str) -> Notation {
    let t = sym.math(term);
    Notation {
        var: m("x"),
        term: m(&t),
        op: m(&symbol_math(sym, op)),
        map: m(&format!("x \\mapsto {t}")),
        image: m(&format!("\\{{{t}\\}}")),
        letter: m,
        partner: None,
    }
}

/// A theorem's proof as numbered steps, or why it is not shown.
fn proof_text(sym: &Symbols, t: &crate::gather::Theorem) -> String {
    match &t.proof {
        Err(why) => format!(
            "\\noindent\\emph{{Proof not shown:}} {}. ({})",
            text(why),
            text(&t.evidence)
        ),
        Ok(p) => readable(sym, p, &t.evidence),
    }
}

fn readable(sym: &Symbols, p: &ReadableProof, evidence: &str) -> String {
    let mut s = String::from("\\begin{proof}\n");
    if !p.variables.is_empty() {
        let vars: Vec<String> = p.variables.iter().map(|v| sym.math(&v.name)).collect();
        let _ = writeln!(s, "Let {} be arbitrary elements.", m(&vars.join(", ")));
    }
    for (name, statement) in &p.cited {
        let _ = writeln!(
            s,
            "The proof uses \\textsf{{{}}}, {}, proved before it (its certificate is part of this one's).",
            text(name),
            m(&sym.math(statement))
        );
    }
    for l in &p.lemmas {
        let _ = writeln!(
            s,
            "\\par\\smallskip\\noindent\\textbf{{Lemma {}.}} {}{}.",
            l.number,
            for_all_math(sym, &l.variables),
            m(&format!("{} = {}", sym.math(&l.lhs), sym.math(&l.rhs)))
        );
        chain(&mut s, sym, &l.proof, &p.cited);
    }
    if !p.lemmas.is_empty() {
        let _ = writeln!(s, "\\par\\smallskip\\noindent\\textbf{{The theorem.}}");
    }
    chain(&mut s, sym, &p.proof, &p.cited);
    let _ = writeln!(
        s,
        "\\par\\noindent{{\\small ({})}}\n\\end{{proof}}",
        text(evidence)
    );
    s
}

/// "For all x_1, x_2, " before an open lemma's statement; nothing before a ground one.
fn for_all_math(sym: &Symbols, variables: &[GoalConstant]) -> String {
    if variables.is_empty() {
        return String::new();
    }
    let names: Vec<String> = variables.iter().map(|v| sym.math(&v.name)).collect();
    format!("For all {}, ", m(&names.join(", ")))
}

/// A chain of steps; a step by one of the `cited` statements names it as such, not as an axiom.
fn chain(s: &mut String, sym: &Symbols, c: &Chain, cited: &[(String, String)]) {
    let _ = writeln!(s, "\\par\\noindent {}", m(&sym.math(&c.start)));
    if c.steps.is_empty() {
        return;
    }
    s.push_str("\\begin{enumerate}\n");
    for step in &c.steps {
        let by = match &step.by {
            Reason::Axiom { name, part: 0 } if cited.iter().any(|(n, _)| n == name) => {
                format!("\\textsf{{{}}}", text(name))
            }
            Reason::Axiom { name, part: 0 } => format!("axiom \\textsf{{{}}}", text(name)),
            Reason::Axiom { name, part } => {
                format!("axiom \\textsf{{{}}} (equation {})", text(name), part + 1)
            }
            Reason::Lemma { number } => format!("Lemma {number}"),
        };
        let at = if step.position.is_empty() {
            "at the root".to_string()
        } else {
            format!(
                "at {}",
                step.position
                    .iter()
                    .map(|i| i.to_string())
                    .collect::<Vec<_>>()
                    .join(".")
            )
        };
        let dir = if step.reversed { ", right to left" } else { "" };
        let _ = writeln!(
            s,
            "\\item {} \\hfill {{\\small by {by}{dir}, {at}}}",
            m(&format!("= {}", sym.math(&step.term)))
        );
    }
    s.push_str("\\end{enumerate}\n");
}
