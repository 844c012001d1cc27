//! A discrimination tree: patterns stored by their symbols in preorder, a variable standing for
//! any subterm, so that the patterns that may match a term are found by one walk down the tree
//! instead of a match attempt per pattern (as E and Waldmeister find rewrite rules).
//!
//! The tree is not perfect: all variables are one key, so a pattern with a repeated variable is
//! returned for terms it does not match, and the caller still matches each candidate.
//!
//! ```
//! use birkhoff_checker::prover::discrimination::DiscriminationTree;
//! use birkhoff_engine::signature::FuncId;
//! use birkhoff_engine::syntax::{Term, VarId};
//! let (f, a) = (FuncId(0), FuncId(1));
//! let x = Term::Var(VarId(0));
//! let mut tree = DiscriminationTree::default();
//! tree.insert(&Term::App(f, vec![x.clone(), Term::App(a, vec![])]), "f(x, a)");
//! tree.insert(&Term::App(a, vec![]), "a");
//! let t = Term::App(f, vec![Term::App(a, vec![]), Term::App(a, vec![])]);
//! assert_eq!(tree.find(&t, |v| Some(*v)), Some("f(x, a)"));
//! assert_eq!(tree.find(&x, |v| Some(*v)), None);
//! ```

use birkhoff_engine::syntax::Term;

/// The key of a variable: any subterm.
const ANY: u32 = u32::MAX;

/// One node: its children by key, and the values of the patterns that end here.
struct Node<V> {
    children: Vec<(u32, usize)>,
    values: Vec<V>,
}

impl<V> Default for Node<V> {
    fn default() -> Self {
        Node {
            children: Vec::new(),
            values: Vec::new(),
        }
    }
}

/// Values stored under patterns, retrieved by the terms the patterns may match.
pub struct DiscriminationTree<V> {
    nodes: Vec<Node<V>>,
}

impl<V> Default for DiscriminationTree<V> {
    fn default() -> Self {
        DiscriminationTree {
            nodes: vec![Node::default()],
        }
    }
}

impl<V> DiscriminationTree<V> {
    /// Stores `value` under `pattern`.
    pub fn insert(&mut self, pattern: &Term, value: V) {
        let mut node = 0;
        let mut todo = vec![pattern];
        while let Some(t) = todo.pop() {
            let key = match t {
                Term::Var(_) => ANY,
                Term::App(f, args) => {
                    todo.extend(args.iter().rev());
                    f.0
                }
            };
            node = match self.nodes[node].children.iter().find(|&&(k, _)| k == key) {
                Some(&(_, child)) => child,
                None => {
                    self.nodes.push(Node::default());
                    let child = self.nodes.len() - 1;
                    self.nodes[node].children.push((key, child));
                    child
                }
            };
        }
        self.nodes[node].values.push(value);
    }

    /// The first `Some` that `try_value` gives for a value whose pattern may match `t` (the
    /// variables of `t` are rigid: only a pattern's variable stands for them), in an order fixed
    /// by the order of insertion.
    pub fn find<R>(&self, t: &Term, mut try_value: impl FnMut(&V) -> Option<R>) -> Option<R> {
        self.walk(0, &mut vec![t], &mut try_value)
    }

    /// [`DiscriminationTree::find`] from `node` with `todo` the subterms still to read, the next
    /// last; `todo` is as it was when this returns.
    fn walk<R>(
        &self,
        node: usize,
        todo: &mut Vec<&Term>,
        try_value: &mut impl FnMut(&V) -> Option<R>,
    ) -> Option<R> {
        let Some(t) = todo.pop() else {
            return self.nodes[node].values.iter().find_map(try_value);
        };
        let mut found = None;
        for &(key, child) in &self.nodes[node].children {
            found = match t {
                _ if key == ANY => self.walk(child, todo, try_value),
                Term::App(f, args) if f.0 == key => {
                    let depth = todo.len();
                    todo.extend(args.iter().rev());
                    let found = self.walk(child, todo, try_value);
                    todo.truncate(depth);
                    found
                }
                _ => None,
            };
            if found.is_some() {
                break;
            }
        }
        todo.push(t);
        found
    }
}
