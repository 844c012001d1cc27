"""Select and convert the TPTP set of benches/provers/run.sh (issue 52), by the rule in README.md.

    python3 benches/provers/tptp/select.py TPTP_DIR OUT_DIR [--split held_out|tuning]

TPTP_DIR holds the library's Problems/ and Axioms/ folders (the user supplies it; nothing of
the library is in this repository). For every problem the rule admits, OUT_DIR/<split>/NAME.p
is written: the clauses of the problem with its includes inlined, as `fof` formulas with
explicit quantifiers, the one disequation of the negated conjecture turned into the
conjecture it negates, and the problem's Status line kept (run.sh reads the expected answer
from it). A line per problem considered goes to stdout: name, split or the reason it was left
out.
"""
import hashlib
import os
import re
import sys

DOMAINS = ("GRP", "LAT", "BOO", "RNG", "COL")
MAX_RATING = 0.5
# SHA-256 of the problem name, first byte mod 8: 0 is the held-out set, 1 the tuning set, the
# rest is not run (the whole selection is about 720 problems, four hours per prover at 10 s).
SPLITS = {0: "held_out", 1: "tuning"}


def header_field(text, field):
    m = re.search(r"^% " + field + r"\s*: (.*)$", text, re.M)
    return m.group(1).strip() if m else None


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return "\n".join(line for line in text.split("\n") if not line.lstrip().startswith("%"))


def statements(text):
    """The top-level `word(...).` statements of a TPTP text, comments removed."""
    text = strip_comments(text)
    out, depth, start, quote = [], 0, None, None
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = None
            continue
        if ch in "'\"":
            quote = ch
        elif ch == "(":
            if depth == 0 and start is None:
                start = text.rfind("\n", 0, i) + 1
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                out.append(text[start:i + 1].strip())
                start = None
    return out


def split_args(s):
    """Top-level comma-separated parts of s."""
    parts, depth, cur, quote = [], 0, "", None
    for ch in s:
        if quote:
            cur += ch
            if ch == quote:
                quote = None
            continue
        if ch in "'\"":
            quote = ch
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    parts.append(cur.strip())
    return parts


def unwrap(s):
    s = s.strip()
    while s.startswith("(") and s.endswith(")") and balanced(s[1:-1]):
        s = s[1:-1].strip()
    return s


def balanced(s):
    depth = 0
    for ch in s:
        depth += ch == "("
        depth -= ch == ")"
        if depth < 0:
            return False
    return depth == 0


def literal(formula):
    """(lhs, op, rhs) of a unit equality literal, or None."""
    f = unwrap(formula)
    depth = 0
    for i, ch in enumerate(f):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif depth == 0 and ch in "!=":
            if f.startswith("!=", i):
                return f[:i].strip(), "!=", f[i + 2:].strip()
            if ch == "=":
                return f[:i].strip(), "=", f[i + 1:].strip()
        elif depth == 0 and ch in "|&~":
            return None
    return None


def variables(s):
    seen = []
    for v in re.findall(r"(?<![A-Za-z0-9_'])[A-Z][A-Za-z0-9_]*", s):
        if v not in seen:
            seen.append(v)
    return seen


def clauses(path, tptp, selection=None):
    """(name, role, formula) of every cnf clause of a file, includes inlined."""
    out = []
    for st in statements(open(path, encoding="utf-8", errors="replace").read()):
        kind, _, rest = st.partition("(")
        args = split_args(rest[:-1])
        if kind == "include":
            inc = args[0].strip("'")
            names = None
            if len(args) > 1:
                names = [n.strip() for n in args[1].strip("[]").split(",")]
            out += clauses(os.path.join(tptp, inc), tptp, names)
        elif kind == "cnf":
            if selection is None or args[0] in selection:
                out.append((args[0], args[1], args[2]))
        else:
            raise ValueError(f"{kind} statement")
    return out


def convert(path, tptp):
    """The problem as fof text, or the reason it is left out."""
    text = open(path, encoding="utf-8", errors="replace").read()
    try:
        cls = clauses(path, tptp)
    except (ValueError, OSError) as e:
        return None, f"unreadable: {e}"
    axioms, goals = [], []
    for name, role, formula in cls:
        lit = literal(formula)
        if lit is None:
            return None, f"clause {name} is not a unit equality"
        lhs, op, rhs = lit
        if op == "!=":
            if role != "negated_conjecture":
                return None, f"disequation {name} is not the negated conjecture"
            if variables(lhs + rhs):
                return None, f"negated conjecture {name} has variables"
            goals.append((name, lhs, rhs))
        else:
            vs = variables(lhs + rhs)
            quant = f"! [{','.join(vs)}] : " if vs else ""
            axioms.append(f"fof({name},axiom,\n    {quant}( {lhs} = {rhs} ) ).")
    if len(goals) != 1:
        return None, f"{len(goals)} disequations"
    name, lhs, rhs = goals[0]
    head = "\n".join(
        f"% {field:<9}: {header_field(text, field)}" for field in ("File", "Domain", "Problem", "Status", "Rating", "SPC")
    )
    body = "\n\n".join(axioms + [f"fof({name},conjecture,\n    {lhs} = {rhs} )."])
    return f"{head}\n% Converted by benches/provers/tptp/select.py: includes inlined, cnf as fof.\n\n{body}\n", None


def main():
    tptp, out = sys.argv[1], sys.argv[2]
    wanted = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--split" else None
    for domain in DOMAINS:
        folder = os.path.join(tptp, "Problems", domain)
        for file in sorted(os.listdir(folder)):
            if not file.endswith(".p"):
                continue
            name = file[:-2]
            path = os.path.join(folder, file)
            text = open(path, encoding="utf-8", errors="replace").read(8000)
            spc = header_field(text, "SPC") or ""
            rating = header_field(text, "Rating") or ""
            status = header_field(text, "Status") or ""
            if not (spc.startswith("CNF_") and spc.endswith("_UEQ")):
                continue
            if status not in ("Unsatisfiable", "Satisfiable"):
                print(f"{name}\tout\tstatus {status}")
                continue
            m = re.match(r"([0-9.]+)", rating)
            if not m or float(m.group(1)) > MAX_RATING:
                print(f"{name}\tout\trating {rating.split(',')[0]}")
                continue
            split = SPLITS.get(hashlib.sha256(name.encode()).digest()[0] % 8)
            if split is None or (wanted and split != wanted):
                continue
            fof, why = convert(path, tptp)
            if fof is None:
                print(f"{name}\tout\t{why}")
                continue
            os.makedirs(os.path.join(out, split), exist_ok=True)
            with open(os.path.join(out, split, name + ".p"), "w", encoding="utf-8") as f:
                f.write(fof)
            print(f"{name}\t{split}\t{status}")


main()
