// Campaigns: a long-lived record of a map war whose battles are games of the app. The screen
// draws what the engine says (campaign.view): the map as a grid of cells with bases and
// teams in their side's colour, each tappable for its sheet; the steps of the turn as buttons,
// greyed with the reason; undo and redo; share the campaign or a battle's result by link.
// Every change goes through the engine (campaign.*) and is saved before it is shown.
import { el, clear, notify, button, hashFor, bdi } from "./dom.js";
import { newId, newSeed } from "./store.js";
import { plain } from "./plain.js";
import { tokenBox } from "./share-box.js";

export class CampaignsView {
  constructor(root, engine, store, systems) {
    Object.assign(this, { root, engine, store, systems });
    this.selected = null; // the tapped tile, as "x,y"
  }

  // #/campaigns: the saved campaigns, and a new one from a ready-made set-up
  async list() {
    clear(this.root);
    await this.store.ready;
    this.root.append(el("h1", {}, "Campaigns"));
    const list = el("ul", { class: "list", id: "campaign-list" });
    for (const c of this.store.data.campaigns) {
      list.append(el("li", { class: "card" }, el("a", { href: hashFor("campaign", c.id) }, el("strong", {}, bdi(c.name))),
        el("small", {}, ` ${this.systems.name(c.system)}${c.battle ? " · a battle is being played" : ""}`)));
    }
    if (!this.store.data.campaigns.length) list.append(el("li", { class: "muted" }, "No campaigns yet."));
    this.root.append(list, el("h2", {}, "New campaign"));
    const systems = [];
    for (const s of await this.systems.playable()) {
      const info = await this.systems.describe(s.id);
      if (info?.campaign) systems.push(s);
    }
    for (const s of systems) {
      const reply = await this.engine.call("campaign.describe", { system: s.id });
      if (!reply.ok) { this.root.append(el("p", { class: "error" }, reply.error.message)); continue; }
      const data = reply.result.data;
      this.root.append(el("h3", {}, this.systems.name(s.id)));
      if (data.note) this.root.append(el("p", { class: "muted" }, plain(data.note)));
      const presets = el("div", { class: "list" });
      presets.append(button("Set up a campaign with your teams", () => { location.hash = hashFor("campaign-setup", s.id); },
        { class: "primary", "data-setup": s.id }));
      (data.presets ?? []).forEach((preset, n) => {
        presets.append(button(preset.label, () => this.start(s.id, preset), { class: "primary", "data-preset": String(n) }));
      });
      this.root.append(presets);
    }
  }

  // #/campaign-setup/<system>: the set-up screen the system describes (campaign.setup_form). Every
  // value is filled in (ready-made teams), so Start is the first thing offered; each change asks the
  // engine for the form again, and Start is greyed with the first problem while there is one.
  async setup(system, draft = {}) {
    await this.store.ready;
    const squads = this.store.data.squads.filter((q) => q.system === system);
    const reply = await this.engine.call("campaign.setup_form", { system, draft, squads });
    if (location.hash !== hashFor("campaign-setup", system)) return;
    clear(this.root);
    if (!reply.ok) { this.root.append(el("p", { class: "error" }, reply.error.message)); return; }
    const form = reply.result;
    const now = form.draft;
    const again = (next) => this.setup(system, next);
    this.root.append(el("h1", {}, "New campaign"));
    this.setupDrawn = (this.setupDrawn ?? 0) + 1; // tells a waiting reader the form is drawn anew
    const choices = el("div", { class: "setup-choices", id: "setup-choices", "data-drawn": String(this.setupDrawn) });
    for (const choice of form.choices) {
      choices.append(el("label", { class: "row" }, el("span", {}, choice.label),
        select(choice.options, choice.value, (value) => again({ ...now, choices: { ...now.choices, [choice.field]: value } }),
          { "data-choice": choice.field })));
    }
    const problem = form.problems[0] ?? "";
    const start = button("Start the campaign", async () => {
      const label = form.choices[0]?.options.find((o) => o.value === form.choices[0].value)?.label ?? "Campaign";
      const made = await this.engine.call("campaign.new", { id: newId("c"), system, name: label.split(" (")[0], draft: now, squads, seed: newSeed() });
      if (!made.ok) { notify(made.error.message); return; }
      if (!(await this.store.putCampaign(made.result.campaign))) return;
      location.hash = hashFor("campaign", made.result.campaign.id);
    }, { class: "primary", id: "setup-start" });
    if (problem) { start.disabled = true; start.append(el("small", {}, ` (${problem})`)); }
    this.root.append(choices, el("div", { class: "actions" }, start));
    if (form.problems.length > 1) this.root.append(el("ul", { class: "error", id: "setup-problems" }, ...form.problems.slice(1).map((p) => el("li", {}, p))));
    if (form.note) this.root.append(el("p", { class: "muted small" }, plain(form.note)));
    for (const side of form.sides) {
      const box = el("section", { class: `campaign-side side-${side.colour}`, "data-side": side.key }, el("h2", {}, side.name));
      side.teams.forEach((team, n) => {
        const put = (field, value) => {
          const teams = { ...now.teams, [side.key]: now.teams[side.key].map((t, i) => (i === n ? { ...t, [field]: value } : t)) };
          again({ ...now, teams });
        };
        const name = el("input", { value: team.name, maxlength: "60", "aria-label": `Name of team ${n + 1}`, "data-team-name": String(n) });
        name.addEventListener("change", () => { if (name.value.trim()) put("name", name.value.trim()); });
        box.append(el("div", { class: "setup-team", "data-team": String(n) }, name,
          select(side.places, team.place, (v) => put("place", v), { "aria-label": `Where ${team.name} starts`, "data-team-place": String(n) }),
          select(side.units, team.units, (v) => put("units", v), { "aria-label": `What ${team.name} fields`, "data-team-units": String(n) })));
      });
      this.root.append(box);
    }
  }

  async start(system, preset) {
    const reply = await this.engine.call("campaign.new", { id: newId("c"), system, name: preset.label.split(",")[0],
      setup: preset.setup, seed: newSeed() });
    if (!reply.ok) { notify(reply.error.message); return; }
    const campaign = reply.result.campaign;
    if (!(await this.store.putCampaign(campaign))) return;
    location.hash = hashFor("campaign", campaign.id);
  }

  // #/campaign/<id>
  async show(id) {
    clear(this.root);
    await this.store.ready;
    const campaign = this.store.campaign(id);
    if (!campaign) {
      this.root.append(el("p", { class: "error" }, "This campaign no longer exists."), el("a", { href: "#/campaigns" }, "All campaigns"));
      return;
    }
    if (this.campaign?.id !== id) { this.selected = null; this.asking = null; this.picking = null; }
    this.campaign = campaign;
    this.version = this.store.versionOf("campaigns", id); // what this screen's copy was read at
    const reply = await this.engine.call("campaign.view", { campaign });
    if (location.hash !== hashFor("campaign", id)) return;
    if (!reply.ok) { this.root.append(el("p", { class: "error" }, reply.error.message)); return; }
    this.view = reply.result;
    if (this.follow) {
      // the team just moved or placed stays selected on its new tile
      const cell = this.view.cells.find((c) => c.marks.some((m) => m.kind === "team" && m.key === this.follow));
      if (cell) this.selected = `${cell.x},${cell.y}`;
      this.follow = null;
    }
    this.render();
  }

  async commit(campaign) {
    // Compared with the version this screen's copy was read at: a change another tab made since is
    // never written over (the store refuses it and says so).
    if (!(await this.store.putCampaign(campaign, this.version))) { this.show(this.campaign.id); return false; }
    await this.show(campaign.id);
    return true;
  }

  // A step with choices asks them first (a battle's game type); one that picks a tile waits for a
  // tap on the map.
  async step(step, input = step.input) {
    if (step.choices?.length && input === step.input) { this.asking = step; this.render(); return; }
    if (step.pick === "tile" && !("x" in input)) { this.asking = null; this.picking = { ...step, input }; this.render(); return; }
    this.asking = null;
    this.picking = null;
    if (step.action === "battle") { await this.battle(step, input); return; }
    this.follow = step.team || null;
    const reply = await this.engine.call("campaign.act", { campaign: this.campaign, action: step.action, input, seed: newSeed() });
    if (!reply.ok) { notify(reply.error.message); this.render(); return; }
    if (!reply.result.complete) { notify("More dice are needed."); return; }
    if (await this.commit(reply.result.campaign)) this.say(reply.result.event.text);
  }

  async battle(step, input) {
    const reply = await this.engine.call("campaign.battle", { campaign: this.campaign, input, game_id: newId("g") });
    if (!reply.ok) { notify(reply.error.message); this.render(); return; }
    // The game first: the campaign never points at a battle that is not saved.
    if (!(await this.store.putGame(reply.result.game))) return;
    if (!(await this.store.putCampaign(reply.result.campaign, this.version))) return;
    location.hash = hashFor("game", reply.result.game.id);
  }

  async undoRedo(op) {
    const reply = await this.engine.call(op, { campaign: this.campaign });
    if (!reply.ok) { notify(reply.error.message); return; }
    await this.commit(reply.result);
  }

  say(text) {
    const line = document.getElementById("campaign-said");
    if (line) line.textContent = plain(text); // rulebook lines only when the player turned them on
  }

  colour(side) { return this.view.sides.find((s) => s.key === side)?.colour ?? "none"; }

  render() {
    const v = this.view;
    clear(this.root);
    this.root.append(el("h1", { id: "campaign-title" }, bdi(v.title)));
    this.root.append(el("div", { class: "campaign-status", id: "campaign-status" },
      ...v.status.map((line) => el("span", {}, `${line.label}: `, el("b", {}, line.value)))));
    this.root.append(el("div", { class: "campaign-sides" }, ...v.sides.map((s) =>
      el("div", { class: `campaign-side side-${s.colour}`, "data-side": s.key }, el("strong", {}, s.name),
        ...s.lines.map((l) => el("span", {}, ` · ${l.label} ${l.value}`))))));
    this.root.append(this.map(), this.mapKey());
    if (v.note) this.root.append(el("p", { class: "muted small" }, plain(v.note)));
    const last = plain(this.campaign.log[this.campaign.cursor - 1]?.text ?? "");
    const said = el("p", { id: "campaign-said", role: "status" }, this.picking ? this.pickPrompt() : last);
    this.root.append(said);
    this.root.append(this.sheet());
    this.root.append(this.battleBox());
    // The turn's own steps (and each team's Event Die, rolled in turn) under the map; a team's
    // actions on its sheet.
    const general = v.steps.filter((s) => !s.team || s.action === "event_die");
    const events = general.filter((s) => s.action === "event_die");
    this.root.append(el("div", { class: "actions many campaign-steps", id: "campaign-steps" },
      ...[...general.filter((s) => s.action !== "event_die"), ...events].map((s) => this.stepButton(s, true))));
    const share = el("div", { id: "campaign-share" });
    this.root.append(el("div", { class: "actions many" },
      button("Undo", () => this.undoRedo("campaign.undo"), { id: "campaign-undo" }),
      button("Redo", () => this.undoRedo("campaign.redo"), { id: "campaign-redo" }),
      button("Share the campaign", async () => {
        const reply = await this.engine.call("campaign.share", { campaign: this.campaign });
        clear(share);
        if (!reply.ok) { share.append(el("p", { class: "error" }, reply.error.message)); return; }
        share.append(await tokenBox(this.engine, reply.result.token, "Link to this campaign", "campaign-link"));
      }, { id: "campaign-share-button" }),
      button("Delete campaign", async () => {
        if (!confirm("Delete this campaign? Its battles' games stay in Games.")) return;
        if (await this.store.removeCampaign(this.campaign.id)) location.hash = "#/campaigns";
      }, { class: "danger", id: "campaign-delete" })), share);
    this.root.append(el("details", { class: "log" }, el("summary", {}, "Log"),
      el("ol", { id: "campaign-log", "data-cursor": String(this.campaign.cursor) }, ...v.log.map((t) => el("li", {}, plain(t))))));
    if (this.asking) this.root.append(this.askBox(this.asking));
    else if (this.picking) {
      this.root.append(el("nav", { class: "campaign-bar", id: "campaign-pick" }, el("span", { class: "prompt" }, this.pickPrompt()),
        button("Cancel", () => { this.picking = null; this.render(); }, { id: "pick-cancel" })));
    } else {
      const bar = this.selectedTeam() ? this.teamBar() : this.turnBar(general);
      // what the last step did, at the top of the bar: in sight with the map, not under the bar
      if (bar) { said.classList.add("bar-said"); bar.prepend(said); }
      this.root.append(bar);
    }
    this.keepInSight();
  }

  // The whole map stays in sight above the bar at the bottom, together with it: the page scrolls
  // for the player (never the other way round), and a bar with more steps than the room the map
  // leaves scrolls inside itself. Where even that cannot fit (very large text), the tapped tile.
  keepInSight() {
    const bar = this.root.querySelector(".campaign-bar");
    const map = this.root.querySelector("#campaign-map");
    if (!map || !bar) return;
    const high = window.innerHeight;
    const room = high - map.getBoundingClientRect().height - 8;
    bar.style.setProperty("max-height", room >= high * 0.3 ? `${Math.floor(room)}px` : "");
    const { top, bottom } = map.getBoundingClientRect();
    const barTop = high - bar.getBoundingClientRect().height; // where the sticky bar sits
    const least = bottom + 4 - barTop; // scrolled at least this far, the map's foot clears the bar
    let by = Math.min(Math.max(0, least), top); // ...and at most this far, its head stays on screen
    if (least > top) {
      // the map and the bar cannot both fit: the tapped tile (or the map's head) above the bar
      const cell = this.root.querySelector("#campaign-map .cell.selected");
      by = cell ? Math.max(0, cell.getBoundingClientRect().bottom + 4 - barTop) : top;
    }
    if (by) window.scrollBy(0, by);
  }

  pickPrompt() {
    const p = this.picking;
    return p.team ? `Tap the tile for ${this.sheetTitle(p.team)}.` : `${p.label}: tap the tile.`;
  }

  sheetTitle(key) { return this.view.sheets.find((s) => s.key === key)?.title ?? ""; }

  // The mark of the tapped tile whose steps the bar shows: its team, else its base.
  selectedTeam() {
    const cell = this.view.cells.find((c) => `${c.x},${c.y}` === this.selected);
    const marks = [...(cell?.marks ?? [])].sort((a, b) => (a.kind === b.kind ? 0 : a.kind === "team" ? -1 : 1));
    return marks.find((m) => this.view.steps.some((s) => s.team === m.key && s.action !== "event_die"))?.key ?? "";
  }

  // The tapped team's (or base's) steps, at the bottom where a thumb reaches them (no scrolling).
  teamBar() {
    const key = this.selectedTeam();
    const steps = this.view.steps.filter((s) => s.team === key && s.action !== "event_die");
    if (!steps.length) return "";
    const close = button("Close", () => { this.selected = null; this.render(); }, { id: "team-steps-close", class: "small" });
    return el("nav", { class: "campaign-bar", id: "team-steps", "aria-label": this.sheetTitle(key) },
      el("strong", {}, bdi(this.sheetTitle(key))), close, el("div", { class: "bar-steps" }, ...steps.map((s) => this.stepButton(s))));
  }

  // With no team tapped: the turn's next steps (begin, each Event Die, end) at the bottom, on screen.
  turnBar(general) {
    const steps = general.filter((s) => s.enabled && !s.minor);
    if (!steps.length) return "";
    return el("nav", { class: "campaign-bar", id: "turn-steps", "aria-label": "The turn" },
      el("div", { class: "bar-steps" }, ...steps.map((s) => this.stepButton(s))));
  }

  // What a step asks before it is sent (a battle's game type, who joins), then the step itself.
  askBox(step) {
    const input = { ...step.input };
    const box = el("div", { class: "phase-ask", id: "campaign-ask" }, el("p", { class: "prompt" }, el("strong", {}, step.label), step.team ? ` · ${this.sheetTitle(step.team)}` : ""));
    for (const choice of step.choices) {
      input[choice.field] = choice.value;
      if (choice.multiple) {
        const chosen = new Set(choice.value);
        const group = el("fieldset", { "data-choice": choice.field }, el("legend", {}, choice.label));
        for (const o of choice.options) {
          const box = el("input", { type: "checkbox", ...(chosen.has(o.value) ? { checked: "" } : {}) });
          box.addEventListener("change", () => { if (box.checked) chosen.add(o.value); else chosen.delete(o.value); input[choice.field] = [...chosen]; });
          group.append(el("label", { class: "row" }, box, el("span", {}, o.note ? `${o.note}: ${o.label}` : o.label)));
        }
        box.append(group);
      } else if (!choice.options.length) {
        // no options: the players write it (a name)
        const text = el("input", { value: choice.value, maxlength: "60", "data-choice": choice.field });
        text.addEventListener("input", () => { input[choice.field] = text.value.trim(); });
        box.append(el("label", { class: "row" }, el("span", {}, choice.label), text));
      } else {
        box.append(el("label", { class: "row" }, el("span", {}, choice.label),
          select(choice.options, choice.value, (v) => { input[choice.field] = v; }, { "data-choice": choice.field })));
      }
    }
    box.append(el("div", { class: "actions" },
      button(step.action === "battle" ? "Start the battle" : step.label, () => this.step(step, input), { class: "primary", id: "ask-go" }),
      button("Cancel", () => { this.asking = null; this.render(); }, { id: "ask-cancel" })));
    return box;
  }

  // `full`: with its note (the exact odds of its roll) under the label.
  stepButton(step, full = false) {
    const b = button(step.label, () => this.step(step), { class: step.enabled && !step.minor ? "primary" : "", "data-step": step.action });
    if (full && step.note) b.append(el("small", { class: "step-note" }, plain(step.note)));
    if (!step.enabled) { b.disabled = true; b.title = step.reason; b.append(el("small", {}, ` (${step.reason})`)); }
    return b;
  }

  // The grid (8x8): north at the top. Each tile is one button (about 42 px on a 390 px phone)
  // showing its base (its whole name, wrapped) and team; a tap opens their sheets below the map.
  // The columns are labelled along the top and the rows down the left side with the coordinates
  // the sheets and the log name a tile by ("x 7, y 8"): a tile named in words is found on the map.
  map() {
    const v = this.view;
    const xs = [...new Set(v.cells.map((c) => c.x))];
    const grid = el("div", { class: `campaign-map cols-${v.width}`, id: "campaign-map" });
    grid.style.setProperty("--cols", String(xs.length));
    grid.append(el("span", { class: "axis corner", "aria-hidden": "true" }));
    for (const x of xs) grid.append(el("span", { class: "axis axis-x", "data-axis-x": String(x), "aria-hidden": "true" }, el("small", {}, "x"), String(x)));
    let row = null;
    for (const cell of v.cells) {
      if (cell.y !== row) {
        row = cell.y;
        grid.append(el("span", { class: "axis axis-y", "data-axis-y": String(row), "aria-hidden": "true" }, el("small", {}, "y"), String(row)));
      }
      const names = cell.marks.map((m) => `${m.kind === "team" ? "team" : "base"} ${m.label}`);
      const node = button("", () => {
        if (this.picking) { this.step(this.picking, { ...this.picking.input, x: cell.x, y: cell.y }); return; }
        this.selected = `${cell.x},${cell.y}`; this.asking = null; this.render();
      },
        { class: `cell zone-${cell.zone ? this.colour(cell.zone) : "none"}${cell.closed ? " closed" : ""}`,
          "data-x": String(cell.x), "data-y": String(cell.y),
          "aria-label": `Tile x ${cell.x}, y ${cell.y}${cell.terrain ? `, ${cell.terrain}` : ""}${cell.closed ? ", closed" : ""}${names.length ? `: ${names.join(", ")}` : ""}` });
      // the terrain name the players gave the tile (its own geography), small, above its marks
      if (cell.terrain) node.append(el("span", { class: "terrain", "data-terrain": cell.terrain, "aria-hidden": "true" }, cell.terrain));
      if (!cell.marks.length && !this.picking) node.disabled = true;
      if (cell.closed && this.picking) node.disabled = true;
      if (`${cell.x},${cell.y}` === this.selected) node.classList.add("selected");
      for (const mark of cell.marks) {
        // its whole name (it wraps inside the tile), or the short mark the system gives (a team's "E1")
        node.append(el("span", {
          class: `mark mark-${mark.kind} side-${mark.side ? this.colour(mark.side) : "none"}${mark.flag ? ` flag-${mark.flag}` : ""}`,
          "data-mark": mark.key, "aria-hidden": "true" }, mark.short || mark.label));
      }
      grid.append(node);
    }
    return el("div", { class: "map-box" }, grid);
  }

  // The bases by their whole names, each with its tile, in the map's reading order: what a tile
  // too small for a long name wraps is read here at the text's own size.
  mapKey() {
    const items = [];
    for (const cell of this.view.cells) {
      for (const mark of cell.marks.filter((m) => m.kind === "base")) {
        items.push(el("li", { class: `side-${mark.side ? this.colour(mark.side) : "none"}${mark.flag ? ` flag-${mark.flag}` : ""}`, "data-key": mark.key },
          el("span", {}, bdi(mark.label)), el("span", { class: "key-tile" }, `x ${cell.x}, y ${cell.y}`)));
      }
    }
    return items.length ? el("ul", { class: "map-key", id: "map-key", "aria-label": "Bases and their tiles" }, ...items) : "";
  }

  sheet() {
    const box = el("section", { class: "campaign-sheet", id: "campaign-sheet" });
    const cell = this.view.cells.find((c) => `${c.x},${c.y}` === this.selected);
    const marks = cell ? [...cell.marks].sort((a, b) => (a.kind === b.kind ? 0 : a.kind === "team" ? -1 : 1)) : [];
    if (!marks.length) { box.append(el("p", { class: "muted" }, "Tap a team or a base on the map.")); return box; }
    for (const mark of marks) {
      const sheet = this.view.sheets.find((s) => s.key === mark.key);
      if (!sheet) continue;
      box.append(el("h2", {}, bdi(sheet.title)),
        el("ul", { class: "lines" }, ...sheet.lines.map((l) => el("li", {}, el("b", {}, `${l.label}: `), bdi(l.value),
          l.note ? el("small", {}, ` ${l.note}`) : ""))));
    }
    return box;
  }

  // The battle being played: open its game; once it is over, take its result back or send it.
  battleBox() {
    const box = el("div", { id: "campaign-battle" });
    const pending = this.campaign.battle;
    if (!pending) return box;
    const game = this.store.game(pending.game_id);
    box.append(el("p", {}, "A battle is being played."));
    if (game) box.append(el("a", { class: "button", href: hashFor("game", game.id), id: "open-battle" }, "Open the battle"));
    if (game?.state?.ended) {
      const out = el("div", { id: "result-share" });
      box.append(
        button("Apply the result", async () => {
          const reply = await this.engine.call("campaign.result", { campaign: this.campaign, game });
          if (!reply.ok) { notify(reply.error.message); return; }
          if (await this.commit(reply.result)) this.say(reply.result.log[reply.result.cursor - 1].text);
        }, { class: "primary", id: "apply-result" }),
        button("Send the result", async () => {
          const reply = await this.engine.call("campaign.share_result", { campaign: this.campaign, game });
          clear(out);
          if (!reply.ok) { out.append(el("p", { class: "error" }, reply.error.message)); return; }
          out.append(await tokenBox(this.engine, reply.result.token, "Result of this battle", "result-link"));
        }, { id: "send-result" }), out);
    } else if (!game) {
      box.append(el("p", { class: "muted" }, "Its game is on another phone: open the result link sent from it."));
    }
    return box;
  }
}

function select(options, value, onChange, attrs = {}) {
  const node = el("select", attrs, ...options.map((o) => el("option", { value: o.value, ...(o.value === value ? { selected: "" } : {}) },
    o.note && !o.label.includes(o.note) ? `${o.label} (${o.note})` : o.label)));
  node.addEventListener("change", () => onChange(node.value));
  return node;
}

// On a campaign battle's game screen: the way back to its campaign; the battle ended by the
// players (who won) when the game cannot tell; and its result recorded in the campaign, saved
// against the version of the campaign it was computed from before the screen says so.
export function campaignBanner(game, engine, store, change) {
  const campaign = store.data.campaigns.find((c) => c.battle?.game_id === game.id);
  if (!campaign) return "";
  const box = el("section", { class: "campaign-banner", id: "campaign-banner" },
    el("p", {}, "A battle of the campaign ", el("a", { href: hashFor("campaign", campaign.id), id: "back-to-campaign" }, bdi(campaign.name)), "."));
  if (!game.state?.ended) {
    const names = game.sides.map((s) => s.name);
    box.append(el("details", { id: "end-battle" }, el("summary", {}, "End the battle"), el("div", { class: "actions" },
      ...names.map((name, i) => button(`${name} won`, () => change("game.adjust", {
        changes: [{ path: ["state", "ended"], value: true }, { path: ["state", "winners"], value: [i] }], text: `The players end the battle: ${name} won`,
      }, { toast: `${name} won` }), { "data-winner": String(i) })),
      button("Draw", () => change("game.adjust", {
        changes: [{ path: ["state", "ended"], value: true }, { path: ["state", "winners"], value: [] }], text: "The players end the battle: a draw",
      }, { toast: "A draw" }), { "data-winner": "none" }))));
    return box;
  }
  box.append(button("Record the result in the campaign", async () => {
    const base = store.versionOf("campaigns", campaign.id);
    const current = store.campaign(campaign.id);
    const reply = await engine.call("campaign.result", { campaign: current, game: store.game(game.id) ?? game });
    if (!reply.ok) { notify(reply.error.message); return; }
    if (!(await store.putCampaign(reply.result, base))) return;
    location.hash = hashFor("campaign", campaign.id);
  }, { class: "primary", id: "record-result" }));
  return box;
}

// A shared campaign, or one battle's result for a campaign on this phone (web/open-view.js).
export async function openCampaign(root, engine, store, shared) {
  if (shared.kind === "campaign") {
    const c = shared.campaign;
    const mine = store.campaign(c.id);
    root.append(el("p", {}, "A campaign: ", bdi(c.name), mine ? ". This phone has a copy of it: opening replaces that copy." : "."),
      el("div", { class: "actions" }, button(mine ? "Replace my copy" : "Save this campaign", async () => {
        if (!(await store.putCampaign(c))) return;
        location.hash = hashFor("campaign", c.id);
      }, { class: "primary", id: "open-campaign" })));
    return;
  }
  const result = shared.result;
  const mine = store.campaign(result.campaign_id);
  const fail = (message) => root.append(el("p", { class: "error", id: "open-error", role: "alert" }, message),
    el("p", {}, "Nothing was changed in your saved campaigns."), el("a", { href: "#/campaigns", class: "button" }, "Campaigns"));
  if (!mine) { fail("This battle result belongs to a campaign that is not on this phone."); return; }
  const ask = el("div", { id: "result-ask" }, el("p", {}, "The result of a battle of your campaign ", bdi(mine.name), "."));
  ask.append(el("div", { class: "actions" }, button("Apply to the campaign", async () => {
    const current = store.campaign(result.campaign_id) ?? mine;
    const reply = await engine.call("campaign.apply_result", { campaign: current, result });
    clear(ask);
    if (!reply.ok) { fail(reply.error.message); return; }
    if (!(await store.putCampaign(reply.result))) return;
    location.hash = hashFor("campaign", mine.id);
  }, { class: "primary", id: "apply-shared-result" })));
  root.append(ask);
}
