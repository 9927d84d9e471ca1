// A unit's card as the system lays it out (core: RuleSystem.card): type, values with
// what sits on them, and what its special rules do.
import { el } from "./dom.js";

export function cardElement(card, { notes = true } = {}) {
  if (!card) return "";
  const grid = el("dl", { class: "card-lines" });
  for (const line of card.lines) {
    grid.append(el("dt", {}, line.label), el("dd", {}, el("strong", {}, line.value), line.note ? el("span", { class: "on" }, ` ${line.note}`) : ""));
  }
  const box = el("div", { class: "unit-profile" }, card.kind ? el("small", { class: "kind" }, card.kind) : "", grid);
  if (notes && card.notes.length) {
    box.append(el("details", {}, el("summary", {}, "Special rules"), el("ul", { class: "rule-notes" }, ...card.notes.map((n) => el("li", {}, n)))));
  }
  return box;
}
