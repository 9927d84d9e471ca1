// A unit's card as the system lays it out (core: RuleSystem.card): type, values with
// what sits on them, and what its special rules do.
import { el } from "./dom.js";
import { plain } from "./plain.js";

export function cardElement(card, { notes = true } = {}) {
  if (!card) return "";
  const grid = el("dl", { class: "card-lines" });
  for (const line of card.lines) {
    grid.append(el("dt", {}, line.label), el("dd", {}, el("strong", {}, plain(line.value)), line.note ? el("span", { class: "on" }, ` ${plain(line.note)}`) : ""));
  }
  const box = el("div", { class: "unit-profile" }, card.kind ? el("small", { class: "kind" }, card.kind) : "", grid);
  if (notes && card.notes.length) {
    box.append(el("details", {}, el("summary", {}, "Special rules"), el("ul", { class: "rule-notes" }, ...card.notes.map((n) => el("li", {}, plain(n))))));
  }
  return box;
}

// A track of cells to cross (core: UnitView.grids), drawn as the card prints it: a table whose
// cells are clear, half-crossed (\), crossed (X) or marked off, the current column outlined.
const MARKS = { half: "\\", full: "X", off: "—" };
const MARK_WORDS = { half: "half-crossed", full: "crossed", off: "marked off" };
export function cellGrid(grid, id) {
  const table = el("table", { class: "cell-grid", id, "aria-label": grid.title });
  // How wide the track is in characters (the longest row label, then each column's longest
  // text) and in columns, so the style can size its text for every column to fit unbroken.
  const cols = Math.max(1, ...grid.rows.map((r) => r.cells.length));
  let chars = Math.max(1, ...grid.rows.map((r) => r.label.length));
  for (let c = 0; c < cols; c++) {
    chars += Math.max(2, ...grid.rows.map((r) => (r.cells[c] ? r.cells[c].text.length + (r.cells[c].star ? 1 : 0) : 0)));
  }
  table.style.setProperty("--cols", String(cols));
  table.style.setProperty("--chars", String(chars));
  const body = el("tbody");
  for (const row of grid.rows) {
    const tr = el("tr", {}, el("th", { scope: "row" }, row.label));
    for (const cell of row.cells) {
      const words = [cell.text, MARK_WORDS[cell.mark] ?? "", cell.star ? "starred" : ""].filter(Boolean).join(", ");
      const td = el("td", { class: [cell.mark ? `m-${cell.mark}` : "", cell.star ? "star" : "", cell.current ? "now" : ""].filter(Boolean).join(" "),
        "data-mark": cell.mark || "clear", title: words },
        el("span", { class: "cell-text" }, cell.text + (cell.star ? "*" : "")),
        cell.mark && cell.mark !== "off" ? el("span", { class: "cell-mark", "aria-hidden": "true" }, MARKS[cell.mark]) : "");
      if (cell.mark) td.setAttribute("aria-label", words);
      tr.append(td);
    }
    body.append(tr);
  }
  table.append(body);
  const box = el("figure", { class: "cell-grid-box" }, table);
  if (grid.note) box.append(el("figcaption", { class: "cell-note" }, plain(grid.note)));
  return box;
}
