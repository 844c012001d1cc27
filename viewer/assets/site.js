// Birkhoff's site: sorting and filtering of tables. Loaded from its own file (the pages allow no
// inline script). A table with class "sortable" sorts by a column when its header is clicked
// (or activated with Enter): by number when both cells read as numbers, else by text. The
// search box #filter hides the rows of "filterable" tables that do not contain all its words;
// a page opened as index.html#filter=WORDS starts filtered, and one opened as
// discoveries.html#sort=score&order=descending starts sorted by the column with that header
// (ascending unless the order says otherwise), so a sorted or filtered view can be linked.
"use strict";

function sortKey(cell) {
  const raw = cell.textContent.trim();
  const n = Number(raw);
  return raw !== "" && !Number.isNaN(n) ? n : raw.toLowerCase();
}

function sortBy(table, column, th, order) {
  const ascending = order ? order === "ascending" : th.getAttribute("aria-sort") !== "ascending";
  for (const other of table.tHead.rows[0].cells) other.removeAttribute("aria-sort");
  th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
  const body = table.tBodies[0];
  const rows = Array.from(body.rows);
  rows.sort((a, b) => {
    const x = sortKey(a.cells[column]);
    const y = sortKey(b.cells[column]);
    // Numbers before text either way, so a column of scores keeps "not scored" last.
    if (typeof x !== typeof y) return typeof x === "number" ? -1 : 1;
    const order = x < y ? -1 : x > y ? 1 : 0;
    return ascending ? order : -order;
  });
  for (const row of rows) body.appendChild(row);
}

function applyFilter(text) {
  const words = text.toLowerCase().split(/\s+/).filter((w) => w !== "");
  let shown = 0;
  for (const row of document.querySelectorAll("table.filterable tbody tr")) {
    const content = row.textContent.toLowerCase();
    row.hidden = !words.every((w) => content.includes(w));
    if (!row.hidden) shown += 1;
  }
  const count = document.getElementById("shown");
  if (count) count.textContent = String(shown);
}

document.addEventListener("DOMContentLoaded", () => {
  for (const table of document.querySelectorAll("table.sortable")) {
    Array.from(table.tHead.rows[0].cells).forEach((th, column) => {
      th.tabIndex = 0;
      th.addEventListener("click", () => sortBy(table, column, th));
      th.addEventListener("keydown", (e) => {
        if (e.key === "Enter") sortBy(table, column, th);
      });
    });
  }
  const wanted = new URLSearchParams(location.hash.slice(1));
  const sortColumn = wanted.get("sort");
  if (sortColumn) {
    const order = wanted.get("order") === "descending" ? "descending" : "ascending";
    for (const table of document.querySelectorAll("table.sortable")) {
      Array.from(table.tHead.rows[0].cells).forEach((th, column) => {
        if (th.textContent.trim() === sortColumn) sortBy(table, column, th, order);
      });
    }
  }
  const filter = document.getElementById("filter");
  if (filter) {
    filter.addEventListener("input", () => applyFilter(filter.value));
    const start = wanted.get("filter");
    if (start) {
      filter.value = start;
      applyFilter(start);
    }
  }
});
