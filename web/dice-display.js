// How rolled dice and chances read on screen, shared by the dice tool and the game screen.
import { el } from "./dom.js";

// A chance as a percentage; tiny but possible chances are not shown as 0.
export function pct(p) {
  if (p > 0 && p < 0.001) return "<0.1%";
  return `${(p * 100).toFixed(1)}%`;
}

// One rolled pool (core.pool.PoolRoll): each die, a reroll shown as "first→new".
export function poolLine(label, pool) {
  const line = el("div", { class: "pool-roll" }, el("span", { class: "label" }, `${label}:`));
  for (const die of pool.dice) {
    const classes = ["die", die.successes ? "hit" : "miss", die.crit ? "crit" : ""].join(" ").trim();
    const text = die.rerolled == null ? String(die.first) : `${die.first}→${die.rerolled}`;
    line.append(el("span", { class: classes }, text));
  }
  line.append(el("span", { class: "count" }, `${pool.successes} success${pool.successes === 1 ? "" : "es"}`));
  return line;
}
