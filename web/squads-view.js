// Squads: the list, the editor (catalogue and own units, live points and violations),
// own-unit entry in the system's format, roster printing, JSON export/import, sharing.
import { el, clear, notify, button, debounce, working } from "./dom.js";
import { schemaForm } from "./schema-form.js";
import { newId, squadLabels } from "./store.js";
import { shareBox } from "./share-box.js";
import { cardElement } from "./unit-card.js";
import { plain, showRefs } from "./plain.js";

export class SquadsView {
  constructor(root, engine, store, systems) {
    Object.assign(this, { root, engine, store, systems });
  }

  // The saved squads as links, each with its system and size (only one system's, if given);
  // two of one name are told apart.
  squadList(only = null) {
    const list = el("ul", { class: "list" });
    const labels = squadLabels(this.store.data.squads);
    for (const squad of this.store.data.squads) {
      if (only && squad.system !== only) continue;
      const name = this.systems.name(squad.system);
      list.append(el("li", { class: "card" },
        el("a", { href: `#/squad/${squad.id}`, class: "squad-link" }, el("strong", {}, labels.get(squad.id))),
        el("small", {}, ` ${name} · ${squad.units.length} unit${squad.units.length === 1 ? "" : "s"}`)));
    }
    return list;
  }

  // #/squads, or #/squads/<system>: that system's squads (the home screen's system cards).
  async list(only = null) {
    // The list may be asked for again while it waits (another tab saved, a route change):
    // only the newest call draws, and the system picked for a new squad is kept.
    const token = (this.listToken = (this.listToken ?? 0) + 1);
    const current = () => token === this.listToken && /^#\/?squads(\/[^/]*)?\/?$/.test(location.hash);
    clear(this.root);
    // The saved squads can be read before the engine is ready (a first start is slow):
    // show them as saved, then draw the whole screen once the engine has checked them.
    await this.store.opened;
    if (current() && !this.store.checked) {
      // A first visit: say that the engine is loading, with its progress, not a bare heading.
      const wait = el("p", { class: "muted", id: "squads-loading" });
      const status = document.getElementById("engine-status");
      const since = performance.now();
      const show = () => {
        const stage = (status?.textContent ?? "").replace(/ \d+s$/, "");
        const seconds = ((performance.now() - since) / 1000).toFixed(0);
        wait.textContent = `Loading the rules engine, once for this device; your squads open when it is ready. ${stage} ${seconds}s`;
      };
      show();
      const tick = setInterval(show, 1000);
      const stop = () => clearInterval(tick);
      this.store.ready.then(stop, stop);
      try { this.root.append(el("h1", {}, "Squads"), wait, this.squadList(only)); } catch { clear(this.root); }
    }
    await this.store.ready;
    const playable = await this.systems.playable();
    if (!current()) return;
    clear(this.root);
    if (!playable.some((s) => s.id === only)) only = null;
    this.root.append(el("h1", {}, only ? `Squads: ${this.systems.name(only)}` : "Squads"));
    if (only) {
      this.newSystem = only;
      this.root.append(el("p", {}, el("a", { href: "#/squads", id: "all-squads" }, "All squads")));
    }
    const list = this.squadList(only);
    if (!list.children.length) list.append(el("li", { class: "muted" }, "No squads yet."));
    const system = el("select", { id: "new-squad-system", "aria-label": "Rule system" },
      ...playable.map((s) => el("option", { value: s.id }, s.name)));
    if (playable.some((s) => s.id === this.newSystem)) system.value = this.newSystem;
    system.addEventListener("change", () => { this.newSystem = system.value; });
    const create = button("New squad", async () => {
      const squad = { id: newId("s"), name: newSquadName(this.store.data.squads, this.systems.name(system.value)), system: system.value, limit: null, units: [] };
      await this.store.putSquad(squad);
      location.hash = `#/squad/${squad.id}`;
    }, { id: "new-squad", class: "primary" });
    const file = el("input", { type: "file", accept: "application/json,.json", id: "import-file", hidden: "" });
    file.addEventListener("change", () => working(this.importFile(file.files[0])));
    const importButton = button("Import JSON", () => file.click(), { id: "import-json" });
    this.root.append(list, el("div", { class: "actions" }, system, create), el("div", { class: "actions" }, importButton, file));
    // The personal library: own units kept for reuse in any squad of their system.
    const own = el("ul", { class: "list", id: "library" });
    for (const unit of this.store.data.units) {
      own.append(el("li", { class: "card" }, el("div", { class: "card-head" },
        el("strong", {}, unit.profile.name ?? unit.id), el("small", {}, this.systems.name(unit.system))),
        button("Remove from library", () => { this.store.removeUnit(unit.id); this.list(); }, { class: "small" })));
    }
    if (this.store.data.units.length) this.root.append(el("h2", {}, "My units"), own);
  }

  async importFile(file) {
    if (!file) return;
    let squad;
    try {
      squad = JSON.parse(await file.text());
    } catch {
      notify("That file is not JSON: nothing was imported.");
      return;
    }
    const reply = await this.engine.call("squad.check", { squad: { ...squad, id: newId("s") } });
    if (!reply.ok) {
      notify(`That file is not a squad: ${reply.error.message}. Nothing was imported.`);
      return;
    }
    if (await this.store.putSquad({ ...squad, id: newId("s") })) this.list();
  }

  // #/squad/<id>
  async edit(id) {
    clear(this.root);
    await this.store.ready;
    const squad = this.store.squad(id);
    if (!squad) {
      this.root.append(el("p", { class: "error" }, "This squad no longer exists."), el("a", { href: "#/squads" }, "All squads"));
      return;
    }
    const info = await this.systems.describe(squad.system);
    if (!info) return;
    const name = el("input", { id: "squad-name", value: squad.name, maxlength: "80", "aria-label": "Squad name" });
    const limit = el("input", { id: "squad-limit", type: "number", inputmode: "numeric", min: "1", value: squad.limit ?? "", placeholder: "none" });
    const summary = el("p", { id: "squad-total", class: "total", "aria-live": "polite" });
    const units = el("ul", { class: "list units", id: "squad-units" });
    const squadProblems = el("ul", { class: "violations", id: "squad-violations" });
    const persist = async () => {
      squad.name = name.value.trim() || "Unnamed squad";
      squad.limit = limit.value ? Number(limit.value) : null;
      // Shown once saved; if refused (read-only, changed elsewhere) the screen shows what is saved.
      if (!(await this.store.putSquad(squad))) {
        const saved = this.store.squad(squad.id);
        if (saved) { Object.assign(squad, saved); name.value = saved.name; limit.value = saved.limit ?? ""; }
      }
      await refresh();
    };
    name.addEventListener("change", persist);
    limit.addEventListener("change", persist);

    const refresh = async () => {
      const reply = await this.engine.call("squad.check", { squad });
      if (!reply.ok) { summary.textContent = reply.error.message; return; }
      const report = reply.result;
      // Not legal: the reason where the player looks (the first one, naming its unit), and a
      // book unit's own reason marked beside it below; not a bare "not legal" over the squad.
      const named = report.units.flatMap((u) => u.violations.map((v) => `${u.name}: ${v.message}`));
      const reasons = [...report.violations.map((v) => v.message), ...named];
      const more = reasons.length > 1 ? ` (and ${reasons.length - 1} more, marked below)` : "";
      summary.textContent = `${report.total}${report.limit ? ` / ${report.limit}` : ""} ${words(info).cost_word}` +
        (report.legal ? " · legal" : reasons.length ? ` · ${reasons[0]}${more}` : " · not legal yet");
      count.textContent = `${report.units.length} unit${report.units.length === 1 ? "" : "s"}`;
      // Only book units as printed break a rule: said plainly, not in alarm red (each is marked).
      const bookOnly = !report.violations.length && report.units.every((u) => !u.violations.length ||
        String(squad.units.find((e) => e.key === u.key)?.origin ?? "").startsWith("catalogue:"));
      summary.dataset.legal = report.legal ? "true" : bookOnly ? "book" : "false";
      clear(units);
      clear(squadProblems);
      for (const v of report.violations) squadProblems.append(el("li", {}, v.message + (v.ref && showRefs() ? ` (${v.ref})` : "")));
      for (const unit of report.units) {
        const entry = squad.units.find((u) => u.key === unit.key);
        // A book unit as printed: its reason beside it, plainly; an own unit's: in red, to mend.
        const printed = String(entry?.origin ?? "").startsWith("catalogue:");
        const problems = el("ul", { class: printed ? "violations printed" : "violations", "data-reason": unit.key },
          ...unit.violations.map((v) => el("li", {}, v.message + (v.ref && showRefs() ? ` (${v.ref})` : ""))));
        const actions = el("div", { class: "unit-actions" },
          el("a", { href: `#/unit/${squad.id}/${unit.key}`, class: "button small" }, "Edit"),
          button("Copy", () => { squad.units.push({ ...structuredClone(entry), key: nextKey(squad) }); persist(); }, { class: "small" }),
          button("Remove", () => { squad.units = squad.units.filter((u) => u.key !== unit.key); persist(); }, { class: "small" }));
        const origin = String(entry?.origin ?? "");
        const book = origin.startsWith("catalogue:") ? info.catalogue.find((c) => `catalogue:${c.id}` === origin) : null;
        units.append(el("li", { class: "card unit-row", "data-key": unit.key },
          el("div", { class: "card-head" }, el("strong", {}, unit.name), book?.note ? noteMark(book) : "",
            costMark(info, unit.cost)),
          problems, el("details", { class: "profile" }, el("summary", {}, "Card"), cardElement(unit.card)), actions));
      }
      if (!report.units.length) units.append(el("li", { class: "muted" }, "No units yet: add one from the book or define your own."));
    };

    // The ready-made units (the book's, or the app's own samples: the system names them): a list
    // to search, each with its value and a "+" to add it.
    const costs = await this.catalogueCosts(squad.system, info.catalogue);
    const listTitle = words(info).catalogue_title;
    const searchLabel = `Search ${listTitle.charAt(0).toLowerCase()}${listTitle.slice(1)}`;
    const search = el("input", { type: "search", id: "catalogue-search", placeholder: searchLabel,
      "aria-label": searchLabel, autocomplete: "off" });
    const rows = info.catalogue.map((c) => {
      const add = button("+", async () => {
        squad.units.push({ key: nextKey(squad), profile: structuredClone(c.profile), origin: `catalogue:${c.id}` });
        await persist();
      }, { class: "add", "data-add": c.id, "aria-label": `Add ${c.name}` });
      return el("li", { class: "catalogue-row", "data-catalogue-id": c.id, "data-name": c.name.toLowerCase() },
        el("span", { class: "catalogue-name" }, c.name), c.note ? noteMark(c) : "",
        costs[c.id] == null ? el("span", { class: "cost" }, "") : costMark(info, costs[c.id]), add);
    });
    const catalogue = el("ul", { class: "catalogue", id: "catalogue" }, ...rows);
    search.addEventListener("input", () => {
      const words = search.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
      for (const row of rows) row.hidden = !words.every((w) => row.dataset.name.includes(w));
    });
    const bookBox = info.catalogue.length
      ? el("details", { class: "book", id: "book", open: "" }, el("summary", {}, `${listTitle} (${info.catalogue.length})`), search, catalogue)
      : el("p", { class: "muted" }, "This book prints no units: define your own.");
    const library = el("select", { id: "library-pick", "aria-label": "Unit from my library" },
      el("option", { value: "" }, "Add one of my own units…"),
      ...this.store.data.units.filter((u) => u.system === squad.system).map((u) => el("option", { value: u.id }, u.profile.name ?? u.id)));
    library.addEventListener("change", () => {
      const own = this.store.data.units.find((u) => u.id === library.value);
      if (!own) return;
      squad.units.push({ key: nextKey(squad), profile: structuredClone(own.profile), origin: `own:${own.id}` });
      library.value = "";
      persist();
    });

    const share = el("div", { id: "share-area" });
    const count = el("span", { class: "muted", id: "squad-count" });
    this.root.append(
      el("h1", {}, info.info.name),
      el("div", { class: "row" }, el("label", {}, "Name ", name), el("label", {}, "Points limit ", limit)),
      // Share (and its QR code) at the top, above a book list that may run to many screens.
      el("div", { class: "actions", id: "squad-top-actions" },
        button("Share", async () => { clear(share); share.append(await shareBox(this.engine, { squad }, "squad")); }, { id: "share-squad", class: "primary" }),
        el("a", { href: `#/roster/${squad.id}`, class: "button" }, "Roster"),
        button("Export JSON", () => download(`${squad.name}.json`, squad), { id: "export-json" })),
      share,
      squadProblems, units,
      el("div", { class: "actions" }, library, el("a", { href: `#/unit/${squad.id}/new`, class: "button", id: "new-unit" }, "Define a unit")),
      bookBox,
      // The total stays in view while the player adds units.
      el("div", { class: "squad-bar" }, summary, count),
      el("h2", {}, "Squad"),
      el("div", { class: "actions" },
        button("Duplicate", async () => { const copy = { ...structuredClone(squad), id: newId("s"), name: `${squad.name} (copy)` }; if (await this.store.putSquad(copy)) location.hash = `#/squad/${copy.id}`; }),
        button("Delete", () => { if (confirm(`Delete ${squad.name}?`)) { this.store.removeSquad(squad.id); location.hash = "#/squads"; } }, { class: "danger" })),
    );
    await refresh();
  }

  // Points of every unit the book prints, asked once per system (one engine call).
  async catalogueCosts(system, catalogue) {
    this.costCache ??= new Map();
    if (!this.costCache.has(system)) {
      const squad = { id: "book", name: "book", system, units: catalogue.map((c, i) => ({ key: `b${i}`, profile: c.profile })) };
      const reply = await this.engine.call("squad.check", { squad });
      const byKey = reply.ok ? Object.fromEntries(reply.result.units.map((u) => [u.key, u.cost])) : {};
      this.costCache.set(system, Object.fromEntries(catalogue.map((c, i) => [c.id, byKey[`b${i}`]])));
    }
    return this.costCache.get(system);
  }

  // #/unit/<squadId>/<key|new>: the editor of the kind the system names (system.describe: editor.kind).
  // "schema-form" is the form below; any other kind is the module web/editor-<kind>.js, whose
  // openEditor(root, context) may hand its current unit to the form below ("Edit as data").
  async unit(squadId, key) {
    await this.store.ready;
    const squad = this.store.squad(squadId);
    const info = squad ? await this.systems.describe(squad.system) : null;
    const kind = info?.editor.kind ?? "schema-form";
    if (kind === "schema-form") return this.unitForm(squadId, key);
    let editor;
    try {
      editor = await import(`./editor-${kind}.js`);
    } catch {
      notify(`This app has no "${kind}" editor: the unit opens as data.`);
      return this.unitForm(squadId, key);
    }
    return editor.openEditor(this.root, {
      engine: this.engine, store: this.store, squad, key, info, nextKey,
      asData: (profile) => this.unitForm(squadId, key, profile),
    });
  }

  // A unit in the system's own stat format (a form drawn from its schema), from `profile` if given.
  async unitForm(squadId, key, profile = null) {
    clear(this.root);
    await this.store.ready;
    const squad = this.store.squad(squadId);
    if (!squad) { this.root.append(el("p", { class: "error" }, "This squad no longer exists.")); return; }
    const info = await this.systems.describe(squad.system);
    const entry = squad.units.find((u) => u.key === key);
    const start = profile ?? entry?.profile ?? info.catalogue[0]?.profile ?? {};
    const status = el("div", { id: "unit-status", "aria-live": "polite" });
    let form;
    const check = async () => {
      const reply = await this.engine.call("unit.check", { system: squad.system, profile: form.read() });
      clear(status);
      if (!reply.ok) { status.append(el("p", { class: "error" }, reply.error.message)); return null; }
      const r = reply.result;
      form.setUnfit(r.unfit);
      status.append(el("p", { class: "total" }, r.cost === null ? "Not a valid unit yet" : `${r.cost} ${words(info).cost_word}`,
        r.cost === 0 && words(info).zero_cost ? el("small", { class: "cost-why" }, ` (${words(info).zero_cost})`) : ""),
        el("ul", { class: "violations" }, ...r.violations.map((v) => el("li", {}, v.message + (v.ref && showRefs() ? ` (${v.ref})` : "")))));
      return r;
    };
    form = schemaForm(info.profile_schema, start, { onChange: debounce(check, 200) });
    const saveTo = async (alsoLibrary) => {
      const r = await check();
      if (!r?.valid) { notify("Fix the marked fields first: the unit was not saved."); return; }
      if (entry) entry.profile = r.profile;
      else squad.units.push({ key: nextKey(squad), profile: r.profile, origin: "own" });
      if (alsoLibrary && !(await this.store.putUnit({ id: newId("u"), system: squad.system, profile: r.profile }))) return;
      if (!(await this.store.putSquad(squad))) return;
      location.hash = `#/squad/${squad.id}`;
    };
    this.root.append(el("h1", {}, entry ? "Edit unit" : "Define a unit"), form.element, status,
      el("div", { class: "actions" },
        button("Save to squad", () => saveTo(false), { class: "primary", id: "save-unit" }),
        button("Save, and keep in my library", () => saveTo(true), { id: "save-unit-library" }),
        el("a", { href: `#/squad/${squad.id}`, class: "button" }, "Cancel")));
    await check();
  }

  // #/roster/<id>: a printable page.
  async roster(id) {
    clear(this.root);
    await this.store.ready;
    const squad = this.store.squad(id);
    if (!squad) return;
    const reply = await this.engine.call("squad.check", { squad });
    const report = reply.ok ? reply.result : { total: "?", units: [] };
    const said = words(await this.systems.describe(squad.system));
    const cards = el("div", { class: "roster" });
    for (const unit of squad.units) {
      const r = report.units.find((u) => u.key === unit.key);
      const card = cardElement(r?.card, { notes: false });
      cards.append(el("article", { class: "roster-card" },
        el("div", { class: "card-head" }, el("strong", {}, r?.name ?? unit.key), el("span", { class: "cost" }, `${r?.cost ?? "?"} ${said.cost_short}`)),
        card || el("p", {}, profileText(unit.profile)),
        r?.card?.notes.length ? el("ul", { class: "rule-notes" }, ...r.card.notes.map((n) => el("li", {}, plain(n)))) : "",
        r?.violations.length ? el("ul", { class: "violations" }, ...r.violations.map((v) => el("li", {}, v.message))) : ""));
    }
    this.root.append(el("h1", {}, squad.name), el("p", {}, `${this.systems.name(squad.system)} · ${report.total} ${said.cost_word}`), cards,
      el("div", { class: "actions no-print" }, button("Print", () => print()), el("a", { href: `#/squad/${id}`, class: "button" }, "Back")));
  }
}

// The squad editor's words a system may give (EditorInfo.data): the heading of its list of
// ready-made units, the book's word for a unit's value (after a total, and short), why a 0.
export function words(info) {
  const data = info?.editor?.data ?? {};
  return { catalogue_title: data.catalogue_title ?? "The book's units", cost_word: data.cost_word ?? "points",
    cost_short: data.cost_short ?? "pts", zero_cost: data.zero_cost ?? "" };
}

// A unit's value in the book's word ("12 pts", "216 PV"); a 0 the book gives says why, in words.
function costMark(info, cost) {
  const { cost_short: word, zero_cost: why } = words(info);
  return el("span", { class: "cost" }, cost === null ? "?" : `${cost} ${word}`,
    cost === 0 && why ? el("small", { class: "cost-why" }, why) : "");
}

// A book unit's note (e.g. a printed cost that breaks the rules): a neutral mark that tells
// more when tapped, not an alarm.
function noteMark(unit) {
  const text = el("span", { class: "note-text", role: "note" }, unit.note);
  text.hidden = true;
  const mark = button("i", () => { text.hidden = !text.hidden; mark.setAttribute("aria-expanded", String(!text.hidden)); },
    { class: "info-mark", "aria-label": `About ${unit.name}`, "aria-expanded": "false" });
  return el("span", { class: "note" }, mark, text);
}

// "GUNFRAME squad 2": the system's name and the next free number.
export function newSquadName(squads, systemName) {
  let n = 1;
  while (squads.some((q) => q.name === `${systemName} squad ${n}`)) n++;
  return `${systemName} squad ${n}`;
}

export function nextKey(squad) {
  let n = squad.units.length + 1;
  while (squad.units.some((u) => u.key === `u${n}`)) n++;
  return `u${n}`;
}

export function profileText(profile) {
  return Object.entries(profile)
    .filter(([k]) => k !== "name")
    .map(([k, v]) => `${k.replaceAll("_", " ")}: ${typeof v === "object" ? JSON.stringify(v) : v}`)
    .join(" · ");
}

function download(name, data) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 1)], { type: "application/json" }));
  const link = el("a", { href: url, download: name.replace(/[^\w.-]+/g, "_") });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
