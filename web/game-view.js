// Games: start one from squads, track every unit and side, resolve actions with exact
// odds, apply the result in one tap, undo and redo anything, adjust anything by hand.
// Every change goes through the engine (game.*) and is saved at once.
import { el, clear, notify, button, hashFor } from "./dom.js";
import { schemaForm } from "./schema-form.js";
import { newId, newSeed } from "./store.js";
import { shareBox, tokenBox } from "./share-box.js";
import { cardElement } from "./unit-card.js";
import { pct, poolLine } from "./dice-display.js";

export class GamesView {
  constructor(root, engine, store, systems) {
    Object.assign(this, { root, engine, store, systems });
    this.viewer = null; // who looks (core: Viewer): null is the shared table phone
  }

  // #/games and #/games/new/<opponent squad id>
  async list(opponentId = null) {
    clear(this.root);
    await this.store.ready;
    this.root.append(el("h1", {}, "Games"));
    const list = el("ul", { class: "list" });
    for (const game of this.store.data.games) {
      list.append(el("li", { class: "card" }, el("a", { href: hashFor("game", game.id) }, el("strong", {}, game.name)),
        el("small", {}, ` ${this.systems.name(game.system)} · round ${game.round} · ${game.sides.map((s) => s.name).join(" vs ")}`)));
    }
    if (!this.store.data.games.length) list.append(el("li", { class: "muted" }, "No games yet."));
    this.root.append(list, el("h2", {}, "New game"));
    const squads = this.store.data.squads;
    if (squads.length < 1) {
      this.root.append(el("p", {}, "Build a squad first, or open one from a share link."));
      return;
    }
    const rows = el("div", { class: "side-rows" });
    const sides = [];
    const addSide = (label, chosen) => {
      const n = sides.length;
      const select = el("select", { id: `side-${n}-squad`, "aria-label": `Squad of side ${n + 1}` },
        ...squads.map((q) => { const o = el("option", { value: q.id }, `${q.name} (${this.systems.name(q.system)})`); o.selected = q.id === chosen; return o; }));
      const name = el("input", { id: `side-${n}-name`, value: label, maxlength: "80", "aria-label": `Name of side ${n + 1}` });
      sides.push({ select, name });
      rows.append(el("div", { class: "row" }, name, select));
    };
    addSide("Player 1", squads.find((q) => q.id !== opponentId)?.id ?? squads[0].id);
    addSide(opponentId ? "Opponent" : "Player 2", opponentId ?? squads[squads.length - 1].id);
    const more = button("+ Side", () => { if (sides.length < 8) addSide(`Player ${sides.length + 1}`, squads[0].id); }, { id: "add-side" });
    const start = button("Start game", async () => {
      const chosen = sides.map((x) => ({ name: x.name.value.trim() || x.name.placeholder, squad: this.store.squad(x.select.value) }));
      const title = chosen.map((c) => c.squad.name).join(" vs ");
      const reply = await this.engine.call("game.new", { id: newId("g"), name: title, sides: chosen });
      if (!reply.ok) { notify(reply.error.message); return; }
      if (!(await this.store.putGame(reply.result))) return;
      location.hash = hashFor("game", reply.result.id);
      if (reply.result.name.length < title.length) notify(`The squads' names make a long title: the game is called "${reply.result.name}".`);
    }, { class: "primary", id: "start-game" });
    this.root.append(rows, el("div", { class: "actions" }, more, start));
  }

  // #/game/<id>
  async show(id) {
    clear(this.root);
    await this.store.ready;
    const game = this.store.game(id);
    if (!game) {
      this.root.append(el("p", { class: "error" }, "This game no longer exists."), el("a", { href: "#/games" }, "All games"));
      return;
    }
    this.game = game;
    this.info = await this.systems.describe(game.system);
    if (!this.info) return;
    this.cards = await this.unitCards(game);
    this.peek = null;
    await this.loadViews();
    this.render();
  }

  async change(op, args = {}) {
    const reply = await this.engine.call(op, { game: this.game, ...args });
    if (!reply.ok) { notify(reply.error.message); return false; }
    await this.commit(reply.result);
    return true;
  }

  async commit(game) {
    // Shown only once it is durable; if it was refused, the screen shows what is saved.
    if (!(await this.store.putGame(game))) { if (this.store.game(game.id)) this.show(game.id); return; }
    this.game = game;
    this.peek = null; // private holdings hide again after every change
    await this.loadViews();
    this.render();
  }

  // Hands, piles and other holdings the system shows (core: RuleSystem.unit_view).
  async loadViews() {
    const reply = await this.engine.call("game.views", { game: this.game, viewer: this.viewer });
    this.views = reply.ok ? reply.result.views : {};
    this.status = reply.ok ? reply.result.status : [];
  }

  render() {
    const game = this.game;
    const scrollY = window.scrollY;
    clear(this.root);
    const undoable = game.cursor > 1;
    const redoable = game.cursor < game.log.length;
    this.root.append(
      el("h1", {}, game.name),
      el("div", { class: "actions sticky-tools" },
        el("span", { class: "round", id: "round" }, `Round ${game.round}`),
        button("Next round", () => this.change("game.round"), { id: "next-round" }),
        button("↶ Undo", () => this.change("game.undo"), { id: "undo", ...(undoable ? {} : { disabled: "" }) }),
        button("↷ Redo", () => this.change("game.redo"), { id: "redo", ...(redoable ? {} : { disabled: "" }) })),
    );
    if (this.status?.length) {
      // The game as a whole: mission, environment, clocks (core: RuleSystem.status).
      this.root.append(el("dl", { class: "game-status", id: "game-status" }, ...this.status.flatMap((line) =>
        [el("dt", {}, line.label), el("dd", { title: line.note }, line.value)])));
    }
    if (this.info.options_schema) this.root.append(this.optionsBlock());
    game.sides.forEach((side, s) => this.root.append(this.sideBlock(side, s)));
    this.root.append(this.actionPanel(), this.logBlock(),
      el("div", { class: "actions" },
        button("Share this game", async (event) => { event.target.after(await shareBox(this.engine, { game: this.game }, "game")); }, { id: "share-game" }),
        button("Delete game", () => { if (confirm("Delete this game?")) { this.store.removeGame(game.id); location.hash = "#/games"; } }, { class: "danger" })));
    window.scrollTo(0, scrollY);
  }

  // The cards of every unit, asked once per game screen (profiles do not change in play).
  async unitCards(game) {
    const cards = {};
    for (const [s, side] of game.sides.entries()) {
      const squad = { id: "cards", name: side.squad_name || side.name, system: game.system,
        units: side.units.map((u) => ({ key: u.key, profile: u.profile })) };
      const reply = await this.engine.call("squad.check", { squad });
      if (reply.ok) for (const u of reply.result.units) cards[`${s}/${u.key}`] = u.card;
    }
    return cards;
  }

  // The named readings of ambiguous rules this game plays by (the system's options model).
  optionsBlock() {
    const schema = this.info.options_schema;
    const keys = Object.keys(schema.properties ?? {});
    const current = Object.fromEntries(keys.filter((k) => k in this.game.options).map((k) => [k, this.game.options[k]]));
    let form;
    const save = async () => {
      const chosen = form.read();
      const changes = keys.filter((k) => JSON.stringify(chosen[k]) !== JSON.stringify(current[k]))
        .map((k) => ({ path: ["options", k], value: chosen[k] }));
      if (changes.length) await this.change("game.adjust", { changes, text: `Rules reading changed: ${changes.map((c) => c.path[1]).join(", ")}` });
    };
    form = schemaForm(schema, current, { onChange: save });
    const box = el("details", { class: "rules-options", id: "rules-options" }, el("summary", {}, "Readings of unclear rules"), form.element);
    box.open = this.optionsOpen ?? false;
    box.addEventListener("toggle", () => { this.optionsOpen = box.open; });
    return box;
  }

  adjust(path, value, text) {
    return this.change("game.adjust", { changes: [{ path, value }], text });
  }

  sideBlock(side, s) {
    const resources = el("div", { class: "resources" });
    for (const def of this.info.resources) {
      const value = side.resources[def.key] ?? 0;
      resources.append(stepper(def.label, value, (v) => this.adjust(["sides", s, "resources", def.key], v, `${side.name}: ${def.label} ${v}`),
        { min: def.min, max: def.max, id: `res-${s}-${def.key}` }));
    }
    const cards = el("div", { class: "unit-cards" });
    side.units.forEach((unit, u) => cards.append(this.unitCard(unit, s, u)));
    const head = el("h2", {}, side.name, el("small", {}, ` ${side.squad_name}`));
    return el("section", { class: "side", "data-side": String(s) }, head, resources, this.remoteButton(side, s), cards);
  }

  // When a side has secret choices to make (a hand to keep cards from), its player can make
  // them on their own phone: a link out (QR), and their answer link back (see core/remote.py).
  remoteButton(side, s) {
    const secret = side.units.some((unit) => (this.views?.[`${s}/${unit.key}`]?.sections ?? [])
      .some((x) => x.private && x.bind && x.bind.mode === "act"));
    if (!secret) return "";
    const box = el("div", { class: "remote", id: `remote-${s}` });
    box.append(button(`${side.name} chooses on their own phone`, async () => {
      const reply = await this.engine.call("remote.request", { game: this.game, side: s });
      clear(box);
      if (!reply.ok) { box.append(el("p", { class: "error", role: "alert" }, reply.error.message)); return; }
      box.append(el("p", { class: "muted" }, `${side.name}: scan this with your phone and pick there. `
        + "Then scan the answer code your phone shows with this phone. Only your hand travels in the link."),
        await tokenBox(this.engine, reply.result.token, `Choices for ${side.name}`, `remote-${s}`));
    }, { class: "small", id: `remote-ask-${s}` }));
    return box;
  }

  unitCard(unit, s, u) {
    const state = unit.state;
    const base = ["sides", s, "units", u, "state"];
    const card = el("article", { class: `unit-card${state.destroyed ? " destroyed" : ""}${state.activated ? " done" : ""}`, "data-unit": `${s}/${unit.key}` });
    card.append(el("div", { class: "card-head" }, el("strong", {}, unit.name),
      state.destroyed ? el("span", { class: "badge" }, "destroyed") : ""));
    const damage = stepper("Damage", state.damage, (v) => this.adjust([...base, "damage"], v, `${unit.name}: damage set to ${v}`),
      { min: 0, max: state.max_damage, suffix: ` / ${state.max_damage}`, id: `dmg-${s}-${unit.key}` });
    const bar = el("div", { class: "track" }, el("span", { class: "track-fill" }));
    bar.firstChild.style.width = `${Math.min(100, (state.damage / Math.max(1, state.max_damage)) * 100)}%`;
    card.append(damage, bar);
    const flags = el("div", { class: "chips" });
    const activated = button(state.activated ? "Activated" : "Ready", () => this.adjust([...base, "activated"], !state.activated,
      `${unit.name}: ${state.activated ? "ready again" : "activated"}`), { class: `chip${state.activated ? " on" : ""}`, "data-flag": "activated" });
    flags.append(activated);
    for (const def of this.info.tracked.filter((t) => t.kind === "condition")) {
      const on = state.conditions.includes(def.key);
      const next = on ? state.conditions.filter((c) => c !== def.key) : [...state.conditions, def.key];
      flags.append(button(def.label, () => this.adjust([...base, "conditions"], next, `${unit.name}: ${def.label} ${on ? "off" : "on"}`),
        { class: `chip${on ? " on" : ""}`, title: def.help, "data-flag": def.key }));
    }
    card.append(flags);
    const counters = el("div", { class: "counters" });
    for (const def of this.info.tracked.filter((t) => t.kind === "counter")) {
      const value = state.counters[def.key] ?? 0;
      counters.append(stepper(def.label, value, (v) => this.adjust([...base, "counters", def.key], v, `${unit.name}: ${def.label} ${v}`),
        { min: 0, max: def.max, id: `ctr-${s}-${unit.key}-${def.key}` }));
    }
    card.append(counters);
    const destroyed = button(state.destroyed ? "Back in play" : "Mark destroyed", () => this.adjust([...base, "destroyed"], !state.destroyed,
      `${unit.name}: ${state.destroyed ? "back in play" : "destroyed"}`), { class: "small" });
    const view = this.views?.[`${s}/${unit.key}`];
    for (const section of view?.sections ?? []) card.append(this.viewSection(section, `${s}/${unit.key}`, s));
    const profile = this.cards?.[`${s}/${unit.key}`];
    card.append(el("details", { class: "profile" }, el("summary", {}, "Profile"), cardElement(profile)), destroyed);
    return card;
  }

  // A section of holdings. A private one (a hand) stays hidden on a shared phone until its
  // owner taps to look; a bound one lets the owner act by picking its items.
  viewSection(section, ref, s) {
    const key = `${ref}:${section.title}`;
    const box = el("div", { class: "holding", "data-section": section.title });
    box.append(el("strong", {}, section.title));
    if (section.private && this.peek !== key) {
      box.append(button(`Show (only ${this.game.sides[s].name} looking)`, () => { this.peek = key; this.render(); },
        { class: "small peek" }));
      return box;
    }
    const picked = new Set();
    const list = el("ul", { class: "items" });
    for (const item of section.items) {
      const text = el("span", {}, el("b", {}, item.label), ` (${item.id})`, item.detail ? el("small", {}, ` ${item.detail}`) : "");
      if (section.bind) {
        const tick = el("input", { type: "checkbox", value: item.id, "aria-label": item.label });
        tick.addEventListener("change", () => { if (tick.checked) picked.add(item.id); else picked.delete(item.id); });
        list.append(el("li", {}, el("label", {}, tick, text)));
      } else {
        list.append(el("li", {}, text));
      }
    }
    box.append(list);
    if (section.bind?.mode === "prefill") {
      // Picking an item fills the action form; the player completes it (a target) and rolls.
      const bind = section.bind;
      box.append(button(bind.label, () => {
        if (bind.count && picked.size !== bind.count) { notify(`Pick exactly ${bind.count}.`); return; }
        const ids = [...picked];
        this.lastInput = { ...this.lastInput, [bind.action]: { ...bind.fixed, [bind.field]: bind.count === 1 ? ids[0] : ids } };
        this.selectedAction = bind.action;
        this.render();
        document.getElementById("action-panel")?.scrollIntoView({ block: "start" });
      }, { class: "primary small", "data-prefill": bind.action }));
    } else if (section.bind) {
      const bind = section.bind;
      const asked = el("div");
      const send = async (extra) => {
        if (bind.count && picked.size !== bind.count) { notify(`Pick exactly ${bind.count}.`); return; }
        const reply = await this.engine.call("game.act", { game: this.game, action: bind.action,
          input: { ...bind.fixed, [bind.field]: [...picked], ...extra } });
        clear(asked);
        if (!reply.ok) { notify(reply.error.message); return; }
        if (reply.result.ask) {
          const ask = reply.result.ask;
          asked.append(askBlock(ask, (value, also) => send({ ...extra, [ask.field]: value, ...also })));
        } else if (reply.result.complete) {
          await this.commit(reply.result.game);
        }
      };
      box.append(button(bind.label, () => send({}), { class: "primary small", "data-bind": bind.action }), asked);
    }
    if (section.private) box.append(button("Hide", () => { this.peek = null; this.render(); }, { class: "small" }));
    return box;
  }

  // --- actions: pick, see the odds, roll or type dice, apply in one tap ------------------
  actionPanel() {
    const panel = el("section", { class: "action-panel", id: "action-panel" }, el("h2", {}, "Action"));
    if (!this.info.actions.length) { panel.append(el("p", { class: "muted" }, "This system has no actions yet.")); return panel; }
    const chooser = el("select", { id: "action-pick" }, ...this.info.actions.map((a) => {
      const option = el("option", { value: a.name }, a.label);
      option.selected = a.name === this.selectedAction;
      return option;
    }));
    const body = el("div");
    panel.append(chooser, body);
    const draw = () => { clear(body); body.append(this.actionForm(this.info.actions.find((a) => a.name === chooser.value))); };
    chooser.addEventListener("change", () => { this.selectedAction = chooser.value; draw(); });
    draw();
    return panel;
  }

  unitPicker(filter) {
    return (node, current, onChange, name) => {
      const select = el("select", { name, id: `pick-${name}` });
      const optional = (node.anyOf ?? []).some((v) => v.type === "null");
      if (optional) select.append(el("option", { value: "" }, "— none (or every unit) —"));
      this.game.sides.forEach((side, s) => {
        const group = el("optgroup", { label: side.name });
        for (const unit of side.units.filter((x) => !x.state.destroyed)) {
          const ref = `${s}/${unit.key}`;
          if (!filter(s)) continue;
          const option = el("option", { value: ref }, unit.name);
          option.selected = ref === current;
          group.append(option);
        }
        if (group.children.length) select.append(group);
      });
      if (optional && !current) select.value = "";
      select.addEventListener("change", onChange);
      return { element: select, read: () => (optional && !select.value ? null : select.value) };
    };
  }

  actionForm(action) {
    const box = el("div", { class: "action-form" });
    const odds = el("div", { class: "action-odds", id: "action-odds", "aria-live": "polite" });
    const result = el("div", { class: "action-result", id: "action-result", "aria-live": "polite" });
    let form;
    let typed = null;
    const refresh = async () => {
      if (!action.has_odds) return;
      const reply = await this.engine.call("game.odds", { game: this.game, action: action.name, input: form.read(), viewer: this.viewer });
      clear(odds);
      if (!reply.ok) { odds.append(el("p", { class: "error" }, reply.error.message)); return; }
      odds.append(oddsBlock(reply.result));
    };
    const custom = {
      "own-unit": this.unitPicker(() => true),
      "enemy-unit": this.unitPicker(() => true),
    };
    form = schemaForm(action.input_schema, this.lastInput?.[action.name] ?? {}, { onChange: () => { typed = null; refresh(); }, custom });
    // Picks a player made when the engine asked (a tie, a blocker) and the seed of this roll:
    // both are kept while the same roll is asked again, so the dice do not change under a pick.
    let picks = {};
    let seed = null;
    const run = async (faces) => {
      const input = { ...form.read(), ...picks };
      this.lastInput = { ...this.lastInput, [action.name]: form.read() };
      const reply = await this.engine.call("game.act", { game: this.game, action: action.name, input, seed, ...(faces ? { faces } : {}) });
      clear(result);
      if (!reply.ok) { result.append(el("p", { class: "error", role: "alert" }, reply.error.message)); return; }
      if (reply.result.ask) {
        result.append(askBlock(reply.result.ask, (value, also) => { picks = { ...picks, [reply.result.ask.field]: value, ...also }; run(faces); }),
          el("div", { class: "actions" }, button("Cancel", () => { picks = {}; clear(result); })));
        return;
      }
      if (!reply.result.complete) {
        const need = reply.result.need;
        result.append(el("p", { class: "prompt", id: "action-prompt" }, `Roll ${need.count} d${need.sides} for ${need.purpose}, then tap each face.`),
          el("output", { class: "faces-typed" }, typed.join(" ") || "no dice yet"),
          el("div", { class: "keypad" }, ...Array.from({ length: need.sides }, (_, i) => button(String(i + 1), () => { typed.push(i + 1); run(typed); }, { class: "key", "data-face": String(i + 1) }))),
          el("div", { class: "actions" }, button("⌫ Undo", () => { typed.pop(); run(typed); })));
        return;
      }
      const pending = reply.result.game;
      result.append(el("p", { class: "verdict", id: "action-text" }, reply.result.event.text), diceLine(reply.result.event.detail),
        el("div", { class: "actions" },
          button("Apply", () => { typed = null; picks = {}; this.commit(pending); }, { class: "primary", id: "apply-result" }),
          button("Discard", () => { typed = null; picks = {}; clear(result); })));
    };
    box.append(form.element, odds,
      el("div", { class: "actions" },
        button("Roll for me", () => { typed = null; picks = {}; seed = newSeed(); run(null); }, { class: "primary", id: "action-roll" }),
        button("I rolled real dice", () => { typed = []; picks = {}; seed = null; run(typed); }, { id: "action-typed" })),
      result);
    refresh();
    return box;
  }

  logBlock() {
    const list = el("ol", { class: "log", id: "game-log", reversed: "" });
    this.game.log.forEach((event, i) => {
      list.prepend(el("li", { class: i < this.game.cursor ? "" : "undone" }, event.text));
    });
    return el("section", {}, el("h2", {}, "Log"), list);
  }
}

function stepper(label, value, set, { min = 0, max = null, suffix = "", id = "" } = {}) {
  const down = button("−", () => set(value - 1), { class: "step", "aria-label": `${label} down`, ...(min !== null && value <= min ? { disabled: "" } : {}) });
  const up = button("+", () => set(value + 1), { class: "step", "aria-label": `${label} up`, ...(max !== null && max !== undefined && value >= max ? { disabled: "" } : {}) });
  return el("div", { class: "stepper", id }, el("span", { class: "step-label" }, label), down, el("output", {}, `${value}${suffix}`), up);
}

// The engine's question when an action needs a player's pick: one button per option, or ticks
// and a confirm button when several may be chosen.
function askBlock(ask, choose) {
  const box = el("div", { class: "ask", id: "action-ask", role: "group", "aria-label": ask.prompt }, el("p", { class: "prompt" }, ask.prompt));
  if (!ask.many) {
    box.append(el("div", { class: "actions" }, ...ask.options.map((o) => button(o.label, () => choose(o.value, o.also ?? {}), { class: "primary", "data-choice": JSON.stringify(o.value) }))));
    return box;
  }
  const chosen = new Set();
  box.append(el("ul", { class: "items" }, ...ask.options.map((o) => {
    const tick = el("input", { type: "checkbox", "data-choice": JSON.stringify(o.value) });
    tick.addEventListener("change", () => { if (tick.checked) chosen.add(o.value); else chosen.delete(o.value); });
    return el("li", {}, el("label", {}, tick, ` ${o.label}`));
  })), button("Confirm", () => choose([...chosen], {}), { class: "primary", id: "ask-confirm" }));
  return box;
}

function oddsBlock(odds) {
  const box = el("div", {});
  if (odds.summary) box.append(el("p", { class: "summary" }, odds.summary));
  for (const [name, table] of Object.entries(odds.tables)) {
    const rows = table.rows.map((r) => el("tr", {}, el("td", {}, String(r.value)), el("td", {}, pct(r.p_exactly)), el("td", {}, pct(r.p_at_least))));
    box.append(el("table", { class: "odds", "data-table": name },
      el("caption", {}, `${name} (mean ${table.p_mean.toFixed(2)})`),
      el("thead", {}, el("tr", {}, el("th", {}, name), el("th", {}, "Exactly"), el("th", {}, "At least"))), el("tbody", {}, ...rows)));
  }
  for (const [name, p] of Object.entries(odds.facts)) box.append(el("p", { "data-fact": name }, `${name.replaceAll("_", " ")}: ${pct(p)}`));
  return box;
}

function diceLine(detail) {
  const box = el("div", {});
  for (const key of ["attack", "defense"]) {
    if (detail?.[key]?.dice) box.append(poolLine(key, detail[key]));
  }
  return box;
}
