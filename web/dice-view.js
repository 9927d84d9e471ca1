// The dice tool: a pool form, the exact odds as a bar chart and a table, and rolling
// (by the app or from real dice typed in). All arithmetic happens in core.api.
import { el, clear, notify, debounce } from "./dom.js";
import { pct, poolLine } from "./dice-display.js";

const STORE_KEY = "tc.dice";
const STORE_VERSION = 1;

export class DiceView {
  constructor(root, engine) {
    this.root = root;
    this.engine = engine;
    this.form = root.querySelector("#pool-form");
    this.opposed = root.querySelector("#opposed");
    this.defense = root.querySelector('[data-pool="defense"]');
    this.error = root.querySelector("#form-error");
    this.typed = null;
    this.seq = 0;
    this.computeLater = debounce(() => this.compute(), 120); // once the typing stops
    this.restore();
    this.form.addEventListener("input", () => this.changed());
    this.form.addEventListener("change", () => this.changed());
    root.querySelector("#roll-app").addEventListener("click", () => this.rollByApp());
    root.querySelector("#roll-typed").addEventListener("click", () => this.startTyped());
    root.querySelector("#typed-undo").addEventListener("click", () => this.typeFace(null));
    root.querySelector("#typed-clear").addEventListener("click", () => this.startTyped());
    engine.addEventListener("state", ({ detail }) => {
      if (detail.state === "ready" && !this.root.hidden) this.compute();
    });
  }

  show() {
    this.syncFields();
    if (this.engine.state === "ready") this.compute();
  }

  // --- the form -------------------------------------------------------------------
  readPool(fieldset) {
    const get = (name) => fieldset.querySelector(`[name="${name}"]`).value.trim();
    const int = (name) => (get(name) === "" ? null : Number(get(name)));
    const pool = {
      dice: int("dice"),
      sides: int("sides"),
      success_on: int("success_on"),
      crit_on: int("crit_on"),
      crit_extra: int("crit_extra") ?? 0,
      reroll: get("reroll"),
    };
    if (pool.reroll === "faces") {
      pool.reroll_faces = get("reroll_faces").split(/[^0-9]+/).filter(Boolean).map(Number);
    }
    return pool;
  }

  args() {
    const args = { attack: this.readPool(this.form.querySelector('[data-pool="attack"]')) };
    if (this.opposed.checked) args.defense = this.readPool(this.defense);
    return args;
  }

  syncFields() {
    this.defense.hidden = !this.opposed.checked;
    for (const fieldset of this.form.querySelectorAll("fieldset")) {
      const faces = fieldset.querySelector(".faces-field");
      faces.hidden = fieldset.querySelector('[name="reroll"]').value !== "faces";
    }
  }

  changed() {
    this.syncFields();
    this.save();
    this.typed = null;
    this.root.querySelector("#typed").hidden = true;
    this.computeLater();
  }

  // --- saved settings -------------------------------------------------------------
  save() {
    const values = {};
    for (const input of this.form.querySelectorAll("input, select")) {
      const key = `${input.closest("fieldset")?.dataset.pool ?? "form"}.${input.name || input.id}`;
      values[key] = input.type === "checkbox" ? input.checked : input.value;
    }
    values["form.opposed"] = this.opposed.checked;
    localStorage.setItem(STORE_KEY, JSON.stringify({ v: STORE_VERSION, values }));
  }

  restore() {
    const raw = localStorage.getItem(STORE_KEY);
    if (!raw) return;
    let saved;
    try {
      saved = JSON.parse(raw);
      if (saved?.v !== STORE_VERSION || typeof saved.values !== "object") throw new Error("unknown format");
    } catch {
      // A hand-edited or damaged save: keep it aside, say so, start from defaults.
      localStorage.setItem(`${STORE_KEY}.unreadable`, raw);
      localStorage.removeItem(STORE_KEY);
      notify("Saved dice settings could not be read, so the defaults are shown. The old text was kept aside.");
      return;
    }
    for (const input of this.form.querySelectorAll("input, select")) {
      const key = `${input.closest("fieldset")?.dataset.pool ?? "form"}.${input.name || input.id}`;
      if (!(key in saved.values)) continue;
      if (input.type === "checkbox") input.checked = Boolean(saved.values[key]);
      else input.value = String(saved.values[key]);
    }
    this.opposed.checked = Boolean(saved.values["form.opposed"]);
    this.syncFields();
  }

  showError(message) {
    this.error.textContent = message;
    this.error.hidden = !message;
  }

  // --- odds -----------------------------------------------------------------------
  async compute() {
    const seq = ++this.seq;
    const reply = await this.engine.call("dice.odds", this.args());
    if (seq !== this.seq) return; // a newer request is on its way
    this.root.querySelector("#odds-pending").hidden = true;
    if (!reply.ok) {
      this.showError(reply.error.message);
      this.root.querySelector("#odds").classList.add("stale");
      return;
    }
    this.showError("");
    this.root.querySelector("#odds").classList.remove("stale");
    this.renderOdds(reply.result);
    if (!performance.getEntriesByName("tc-first-odds").length) performance.mark("tc-first-odds");
  }

  renderOdds(result) {
    const { rows, mean, p_mean: pMean } = result.net;
    const chart = this.root.querySelector("#chart");
    const top = Math.max(...rows.map((r) => r.p_exactly));
    clear(chart);
    for (const row of rows) {
      const bar = el("div", { class: "col", title: `${row.value}: ${pct(row.p_exactly)}` });
      const fill = el("span", { class: "fill" });
      fill.style.height = `${top ? (row.p_exactly / top) * 100 : 0}%`;
      bar.append(fill, el("small", {}, String(row.value)));
      chart.append(bar);
    }
    const table = this.root.querySelector("#odds-table");
    const body = table.querySelector("tbody");
    clear(body);
    for (const row of rows) {
      body.append(el("tr", {},
        el("td", {}, String(row.value)),
        el("td", { title: row.exactly }, pct(row.p_exactly)),
        el("td", { title: row.at_least }, pct(row.p_at_least))));
    }
    table.hidden = false;
    this.root.querySelector("#odds-mean").textContent = `mean ${pMean.toFixed(2)} (${mean})`;
    const crits = result.attack_crits.rows.filter((r) => r.value >= 1);
    const critText = crits.length
      ? `At least one critical: ${pct(crits[0].p_at_least)}; mean ${result.attack_crits.p_mean.toFixed(2)}.`
      : "No criticals possible.";
    const both = result.defense_crits
      ? ` At least one net success with a critical: ${pct(result.p_net_and_crit)}. Opposed criticals: mean ${result.defense_crits.p_mean.toFixed(2)}.`
      : "";
    this.root.querySelector("#crit-line").textContent = critText + both;
  }

  // --- rolling --------------------------------------------------------------------
  async rollByApp() {
    this.root.querySelector("#typed").hidden = true;
    this.typed = null;
    const reply = await this.engine.call("dice.roll", this.args());
    this.renderRoll(reply);
  }

  async startTyped() {
    this.typed = [];
    this.root.querySelector("#typed").hidden = false;
    clear(this.root.querySelector("#roll-result"));
    await this.askTyped();
  }

  async typeFace(face) {
    if (!this.typed) return;
    if (face === null) this.typed.pop();
    else this.typed.push(face);
    await this.askTyped();
  }

  async askTyped() {
    const reply = await this.engine.call("dice.roll", { ...this.args(), faces: this.typed });
    const prompt = this.root.querySelector("#typed-prompt");
    this.root.querySelector("#typed-faces").textContent = this.typed.join(" ") || "no dice yet";
    const keypad = this.root.querySelector("#keypad");
    clear(keypad);
    if (!reply.ok) {
      prompt.textContent = reply.error.message;
      return;
    }
    const { complete, need } = reply.result;
    if (complete) {
      prompt.textContent = "All dice entered.";
      this.renderRoll(reply);
      return;
    }
    prompt.textContent = `Roll ${need.count} d${need.sides} for ${need.purpose}, then tap each face.`;
    for (let face = 1; face <= need.sides; face++) {
      const key = el("button", { type: "button", class: "key", "data-face": String(face) }, String(face));
      key.addEventListener("click", () => this.typeFace(face));
      keypad.append(key);
    }
  }

  renderRoll(reply) {
    const out = this.root.querySelector("#roll-result");
    clear(out);
    if (!reply.ok) {
      out.append(el("p", { class: "error", role: "alert" }, reply.error.message));
      return;
    }
    const { roll } = reply.result;
    out.append(poolLine("Pool", roll.attack));
    if (roll.defense) out.append(poolLine("Opposed", roll.defense));
    const crits = roll.attack.crits;
    out.append(el("p", { class: "verdict" },
      `${roll.net} net success${roll.net === 1 ? "" : "es"}` +
      (crits ? `, ${crits} critical${crits === 1 ? "" : "s"}` : "")));
  }
}
