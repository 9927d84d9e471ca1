// Games: start one from squads, track every unit and side, resolve actions with exact
// odds, apply the result in one tap, undo and redo anything, adjust anything by hand.
// Every change goes through the engine (game.*) and is saved at once.
//
// The screen is unit-first: a one-line card per unit (expanding on tap) carries the
// actions it can take; an action opens a sheet laid out from what the system declares
// (core.systems.base.ActionFlow): the target among the other sides' units, the choices
// that change the dice as buttons with their odds, common modifiers as chips, the rest
// behind "more", a headline line of odds. Round, undo and redo sit in a bar at the bottom.
import { greyGated, gatedOption } from "./gates.js";
import { el, clear, notify, button, hashFor, hold } from "./dom.js";
import { schemaForm } from "./schema-form.js";
import { newId, newSeed, squadLabels } from "./store.js";
import { shareBox, tokenBox } from "./share-box.js";
import { cardElement, cellGrid } from "./unit-card.js";
import { pct, poolLine } from "./dice-display.js";
import { nameOf, plain, setSetting, showRefs } from "./plain.js";
import { campaignBanner } from "./campaign-view.js";

// A game with this many units or fewer shows every card open. None: every card starts as one
// line (what the player acts on now stays on it), so even a small game fits on the glass.
const OPEN_CARDS_UP_TO = 0;
// Height of the tallest bar of the small odds chart.
const CHART_PX = 40;
// A chart shows every row of its table up to this many rows, only the possible ones beyond.
const CHART_ALL_UP_TO = 60;
// How many characters of axis labels a chart's width holds side by side on a phone.
const CHART_LABEL_ROOM = 44;
// Background calls of the engine (engine-client.js), by what they are for: the odds on the sheet's
// choice buttons; the screen of a rolled result's game, worked out before Apply; Undo's game and
// screen, worked out after each change.
const CHOICE_ODDS = "choice-odds";
const VIEWS_AHEAD = "views-ahead";
const UNDO_AHEAD = "undo-ahead";
// Worked out ahead only for a game of at most this many characters: the engine remembers a reply
// only when it and its request together stay under 300,000 (core/answered.py).
const AHEAD_UP_TO = 120000;
const aheadFits = (game) => JSON.stringify(game).length <= AHEAD_UP_TO;

export class GamesView {
  constructor(root, engine, store, systems) {
    Object.assign(this, { root, engine, store, systems });
    this.viewer = null; // who looks (core: Viewer): null is the shared table phone
    // Leaving the game screen closes an open action sheet (and lets the page scroll again).
    window.addEventListener("hashchange", () => this.closeSheet());
  }

  // The saved games as links, each with its system, round and sides.
  gameList() {
    const list = el("ul", { class: "list" });
    for (const game of this.store.data.games) {
      list.append(el("li", { class: "card" }, el("a", { href: hashFor("game", game.id) }, el("strong", {}, game.name)),
        el("small", {}, ` ${this.systems.name(game.system)} · round ${game.round} · ${game.sides.map((s) => s.name).join(" vs ")}`)));
    }
    return list;
  }

  // #/games and #/games/new/<opponent squad id>
  async list(opponentId = null) {
    const token = (this.listToken = (this.listToken ?? 0) + 1);
    const current = () => token === this.listToken && /^#\/?games(\/|$)/.test(location.hash);
    clear(this.root);
    // Saved games can be read before the engine is ready: shown as saved, then the whole
    // screen once the engine has checked them.
    await this.store.opened;
    if (current() && !this.store.checked) {
      try { this.root.append(el("h1", {}, "Games"), this.gameList()); } catch { clear(this.root); }
    }
    await this.store.ready;
    if (!current()) return;
    clear(this.root);
    this.root.append(el("h1", {}, "Games"));
    const list = this.gameList();
    if (!this.store.data.games.length) list.append(el("li", { class: "muted" }, "No games yet."));
    this.root.append(list, el("h2", {}, "New game"));
    const squads = this.store.data.squads;
    const labels = squadLabels(squads);
    if (squads.length < 1) {
      this.root.append(el("p", {}, "Build a squad first, or open one from a share link."));
      return;
    }
    const rows = el("div", { class: "side-rows" });
    const sides = [];
    const addSide = (label, chosen) => {
      const n = sides.length;
      const select = el("select", { id: `side-${n}-squad`, "aria-label": `Squad of side ${n + 1}` },
        ...squads.map((q) => { const o = el("option", { value: q.id }, `${labels.get(q.id)} (${this.systems.name(q.system)})`); o.selected = q.id === chosen; return o; }));
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
      // What the squads break, and what to do about it: the squads are the player's to change.
      if (!reply.ok) { notify(`${said(reply.error.message).replace(/\.$/, "")}. Pick other squads, or fix these in their squad editor, then start again.`); return; }
      if (!(await this.store.putGame(reply.result))) return;
      location.hash = hashFor("game", reply.result.id);
      if (reply.result.name.length < title.length) notify(`The squads' names make a long title: the game is called "${reply.result.name}".`);
    }, { class: "primary", id: "start-game" });
    this.root.append(rows, el("div", { class: "actions" }, more, start));
  }

  // #/sample/<system>: a game of the system's first two ready-made forces (system.describe:
  // sample_forces, units by catalogue id), started at once; the link is replaced by the game's.
  async sample(systemId) {
    clear(this.root);
    this.root.append(el("p", { class: "muted", id: "sample-wait" }, "Setting out the sample battle…"));
    await this.store.ready;
    const info = await this.systems.describe(systemId);
    const forces = info?.sample_forces ?? [];
    if (!location.hash.startsWith("#/sample/")) return;
    if (forces.length < 2) {
      clear(this.root);
      this.root.append(el("p", { class: "error" }, "This system has no sample battle."), el("a", { href: "#/games" }, "Games"));
      return;
    }
    const byId = Object.fromEntries(info.catalogue.map((u) => [u.id, u]));
    const sides = forces.slice(0, 2).map((f) => ({
      name: f.name.replace(/^[^:]*:\s*/, ""),
      squad: { id: newId("s"), name: f.name, system: systemId, limit: null,
        units: f.units.map((id, i) => ({ key: `u${i + 1}`, profile: byId[id].profile, origin: `catalogue:${id}` })) },
    }));
    const reply = await this.engine.call("game.new", { id: newId("g"), name: sides.map((x) => x.name).join(" vs "), sides });
    if (!reply.ok) { notify(reply.error.message); return; }
    if (!(await this.store.putGame(reply.result))) return;
    location.replace(hashFor("game", reply.result.id));
  }

  // #/game/<id>
  async show(id) {
    clear(this.root);
    await this.store.ready;
    const game = this.store.game(id);
    const version = this.store.versionOf("games", id); // what this screen's copy was read at
    if (!game) {
      this.root.append(el("p", { class: "error" }, "This game no longer exists."), el("a", { href: "#/games" }, "All games"));
      return;
    }
    if (this.store.newer.has(`games/${id}`)) {
      // Saved by a newer version of the app: never drawn as if this one could play it.
      this.root.append(el("h1", {}, game.name ?? "Game"),
        el("p", { class: "error", id: "game-newer" }, "This game was saved by a newer version of the app: update the app to open it. Nothing was changed."),
        el("a", { href: "#/recover" }, "Recover saved data"));
      return;
    }
    this.game = game;
    this.version = version;
    // The player may leave while the engine answers: a late answer must not draw over
    // the screen they went to.
    const here = () => location.hash === hashFor("game", id);
    this.info = await this.systems.describe(game.system);
    if (!this.info || !here()) return;
    this.cards = await this.unitCards(game);
    this.drawn = new Map(); // cards drawn (cachedCard) and the sides' blocks: none of another game's
    this.sideNodes = new Map();
    this.peek = null;
    this.closeSheet();
    this.toast = null;
    this.asked = null;
    this.changed = new Set();
    const units = game.sides.reduce((n, side) => n + side.units.length, 0);
    this.open = new Set(units <= OPEN_CARDS_UP_TO ? game.sides.flatMap((side, s) => side.units.map((u) => `${s}/${u.key}`)) : []);
    await this.loadViews();
    if (here()) { this.render(); this.undoAhead(); }
  }

  action(name) { return this.info.actions.find((a) => a.name === name); }

  unitByRef(ref) {
    const [s, key] = String(ref).split("/");
    return this.game.sides[Number(s)]?.units.find((u) => u.key === key);
  }

  // Changes to the game run one after another, each on the game as the one before left it: a
  // tap made while the engine is still answering an earlier one (two Undos in a row) waits its
  // turn, and is neither lost (both sent with the same game) nor answered out of order.
  serial(work) {
    const run = (this.changing ?? Promise.resolve()).then(work, work);
    this.changing = run.catch(() => {});
    return run;
  }

  // `toast` may be a function of the game as the change finds it (what Undo undoes is known
  // only when its turn comes).
  change(op, args = {}, { toast = null } = {}) {
    return this.serial(async () => {
      this.engine.drop(UNDO_AHEAD);
      const before = this.game;
      const base = this.version; // the version of the copy this change is computed from
      const reply = await this.engine.call(op, { game: before, ...args });
      if (!reply.ok) { notify(said(reply.error.message)); return false; }
      await this.commitNow(reply.result, { toast: typeof toast === "function" ? toast(before) : toast, base });
      return true;
    });
  }

  commit(game, options = {}) {
    return this.serial(() => this.commitNow(game, options));
  }

  // `base`: the version of the copy the change was computed from, taken when the engine was asked
  // (another tab's change heard meanwhile redraws the screen and moves this.version on).
  // `focus`: the unit the change was aimed at (an action's target): its card is the one shown
  // and marked, even when the change left it as it was (a miss) or touched only what the card's
  // one line does not show (armor).
  async commitNow(game, { toast = null, undoable = false, base = this.version, focus = null } = {}) {
    const before = this.game;
    this.asked = null;
    // Shown only once it is durable; if it was refused, the screen shows what is saved.
    if (!(await this.store.putGame(game, base))) { if (this.store.game(game.id)) this.show(game.id); return; }
    this.game = game;
    this.version = this.store.versionOf("games", game.id);
    this.peek = null; // private holdings hide again after every change
    this.changed = changedUnits(before, game);
    const hurt = changedUnits(before, game, (st) => [st.damage, st.destroyed]);
    const aimed = focus && this.unitByRef(focus) ? focus : null;
    if (aimed) this.changed.add(aimed);
    if (toast !== null) {
      const summary = [...hurt].map((ref) => this.unitLine(ref)).filter(Boolean).join(" · ");
      // Follow-ups the action offers at once (core: ActionResult.offers), e.g. reaction fire.
      const last = game.log[game.cursor - 1];
      const offers = game.cursor > before.cursor && last?.kind === "action" ? (last.detail?.offers ?? []) : [];
      this.toast = { text: toast, summary, undoable, offers };
    } else {
      this.toast = null;
    }
    await this.loadViews();
    if (location.hash !== hashFor("game", game.id)) return;
    this.render();
    this.undoAhead();
    const first = aimed ?? [...hurt, ...this.changed][0];
    if (first && toast !== null) {
      const card = this.root.querySelector(`[data-unit="${first}"]`);
      const bar = document.getElementById("game-bar");
      if (card) {
        const box = card.getBoundingClientRect();
        const bottom = window.innerHeight - (bar?.offsetHeight ?? 0) * 2 - 24;
        if (box.top < 60 || box.bottom > bottom) card.scrollIntoView({ block: "center" });
      }
    }
  }

  // Undo, worked out ahead in the background while the player looks at the change just made: the
  // game one step back and its screen (both remembered by the engine), so an Undo tapped then
  // only saves and draws. A tap meanwhile goes first (engine-client.js); a newer change drops it.
  undoAhead() {
    this.engine.drop(UNDO_AHEAD);
    const game = this.game;
    if (game.cursor <= 1 || !aheadFits(game)) return;
    this.engine.call("game.undo", { game }, { background: UNDO_AHEAD }).then((back) => {
      if (back.ok && this.game === game) this.engine.call("game.views", { game: back.result, viewer: this.viewer }, { background: UNDO_AHEAD });
    });
  }

  // "Growler 6/10" (or "destroyed") for the toast after a change.
  unitLine(ref) {
    const unit = this.unitByRef(ref);
    if (!unit) return "";
    const st = unit.state;
    return st.destroyed ? `${unit.name} destroyed` : `${unit.name} ${st.damage}/${st.max_damage}`;
  }

  // Hands, piles and other holdings the system shows (core: RuleSystem.unit_view).
  async loadViews() {
    this.engine.drop(VIEWS_AHEAD); // one not started yet: this call works it out now
    const reply = await this.engine.call("game.views", { game: this.game, viewer: this.viewer });
    this.views = reply.ok ? reply.result.views : {};
    this.status = reply.ok ? reply.result.status : [];
    this.phase = reply.ok ? reply.result.phase : null;
    this.gated = reply.ok ? reply.result.gated ?? {} : {};
    // A step that would only ask the players something (whom a card attacks) asks it at once.
    this.stepAsk = null;
    const step = this.phase?.steps[this.phase.current];
    if (step?.ask_at_once && step.action && !step.sheet) {
      const tried = await this.engine.call("game.act", { game: this.game, action: step.action, input: step.input, seed: newSeed() });
      if (tried.ok && tried.result.ask) this.stepAsk = { step, ask: tried.result.ask };
    }
  }

  render() {
    const game = this.game;
    const scrollY = window.scrollY;
    // The screen is built anew, but a unit card no change reached is the node drawn before, left in
    // place (cachedCard, place): a tap's change redraws the cards it changed, not every card.
    const parts = [];
    this.root.classList.add("game-screen");
    // The round by the title, unless the system's own lines under it say it ("Round 2 of 3"): once.
    const ownRound = (this.status ?? []).some((line) => /^round$/i.test(line.label));
    parts.push(el("h1", {}, el("span", { id: "game-title" }, game.name),
      ...(ownRound ? [] : [" ", el("small", { class: "round", id: "round" }, `Round ${game.round}`)])));
    const banner = campaignBanner(game, this.engine, this.store, (op, args, opts) => this.change(op, args, opts));
    if (banner) parts.push(banner); // a campaign's battle: the way back, its end, its result
    if (this.status?.length) {
      // The game as a whole: mission, environment, clocks (core: RuleSystem.status).
      parts.push(el("dl", { class: "game-status", id: "game-status" }, ...this.status.flatMap((line) =>
        [el("dt", {}, line.label), el("dd", { title: plain(line.note) }, plain(line.value))])));
    }
    if (this.phase) parts.push(this.phaseStrip());
    // The side whose turn it is comes first: its units are the ones that act now.
    const turn = game.state?.active_side;
    const order = game.sides.map((side, s) => s);
    if (Number.isInteger(turn) && turn > 0 && turn < order.length) order.unshift(...order.splice(turn, 1));
    for (const s of order) parts.push(this.sideBlock(game.sides[s], s));
    parts.push(this.gameActions(), this.logBlock());
    if (this.info.options_schema) parts.push(this.optionsBlock());
    parts.push(this.settingsBlock(),
      el("div", { class: "actions" },
        button("Share this game", async (event) => { event.target.after(await shareBox(this.engine, { game: this.game }, "game")); }, { id: "share-game" }),
        button("Delete game", async () => {
          if (confirm("Delete this game?")) { await this.store.removeGame(game.id); location.hash = "#/games"; }
        }, { class: "danger" })),
      this.bottomBar());
    const asked = this.asked ?? (this.stepAsk && !this.sheet ? this.stepQuestion() : null);
    if (asked && this.toast) {
      // What just changed (with Undo) and what the players decide next, one above the other.
      parts.push(el("div", { class: "float-stack" }, this.toastBox(), asked));
    } else if (asked) {
      parts.push(asked);
    } else if (this.toast) {
      parts.push(this.toastBox());
    }
    if (this.sheet) parts.push(this.sheet.node);
    place(this.root, parts);
    window.scrollTo(0, scrollY);
    this.dismissOnNextTap();
  }

  // What the last change did goes on the player's next tap anywhere else (its Undo stays in the
  // bottom bar); a tap on it (its text, Undo, an offer) keeps it.
  dismissOnNextTap() {
    this.offTap?.();
    const box = document.getElementById("toast");
    if (!box) return;
    const tapped = (event) => {
      const toast = document.getElementById("toast");
      if (!toast || toast.contains(event.target)) return;
      this.offTap?.();
      this.toast = null;
      toast.remove();
    };
    document.addEventListener("pointerdown", tapped, true);
    this.offTap = () => { document.removeEventListener("pointerdown", tapped, true); this.offTap = null; };
  }

  // Round, undo and redo: always on screen, at the bottom where a thumb reaches.
  bottomBar() {
    const game = this.game;
    const undoable = game.cursor > 1;
    const redoable = game.cursor < game.log.length;
    const step = this.phase?.steps[this.phase.current];
    // Undo says what it takes back: the step in full when read out or hovered, its start on the button.
    const last = undoable ? plain(game.log[game.cursor - 1]?.text ?? "") : "";
    const undo = button("↶ Undo", () => this.change("game.undo", {}, { toast: (g) => `Undone: ${g.log[g.cursor - 1]?.text ?? ""}` }),
      { id: "undo", ...(undoable ? { "aria-label": `Undo: ${last}`, title: `Undo: ${last}` } : { disabled: "" }) });
    if (last) undo.append(el("small", { class: "undo-what", "aria-hidden": "true" }, last));
    return el("nav", { class: "game-bar", id: "game-bar", "aria-label": "Game" },
      undo,
      button("↷ Redo", () => this.change("game.redo", {}, { toast: (g) => `Redone: ${g.log[g.cursor]?.text ?? ""}` }), { id: "redo", ...(redoable ? {} : { disabled: "" }) }),
      step?.action ? button(this.action(step.action)?.label ?? step.label, () => this.runStep(step), { class: "primary", id: "phase-next", "data-step": step.key }) : "",
      this.phase?.round_button === false ? ""
        : button("Next round", () => this.change("game.round", {}, { toast: (g) => `Round ${g.round + 1}` }),
          // Greyed while the system says the round is not over (core: RuleSystem.round_refusal), the reason given.
          { id: "next-round", ...(this.phase?.round_refusal
            ? { disabled: "", title: plain(this.phase.round_refusal), "aria-label": `Next round (${plain(this.phase.round_refusal)})` } : {}) }));
  }

  // The turn's steps (core: RuleSystem.phase), the one the game is at marked; its button is
  // the obvious one in the bottom bar.
  phaseStrip() {
    const { steps, current } = this.phase;
    const step = steps[current];
    return el("nav", { class: "phase-strip", id: "phase-strip", "aria-label": "Turn" },
      el("ol", {}, ...steps.map((s, i) => el("li", {
        class: i < current ? "done" : i === current ? "now" : "", "data-step": s.key, ...(i === current ? { "aria-current": "step" } : {}),
      }, s.label))),
      step.hint ? el("p", { class: "phase-hint", id: "phase-hint" }, plain(step.hint)) : "");
  }

  // The next step of the turn: a sheet when it rolls dice or has choices, else done at once
  // (asking only what the engine cannot decide), and logged with Undo at hand.
  async runStep(step, picks = {}) {
    const action = this.action(step.action);
    if (!action) return;
    if (step.sheet) { this.openSheet(action, step.input, { sheet: true }); return; }
    await this.runNow(action, step.input, picks);
  }

  // An action carried out at once, with no sheet (a step of the turn, or an action that rolls
  // nothing and has nothing to fill in): what the engine cannot decide is asked over the bottom
  // bar; if it turns out to need dice after all, its sheet opens.
  async runNow(action, input, picks = {}) {
    const base = this.version;
    const reply = await this.engine.call("game.act", { game: this.game, action: action.name, input: { ...input, ...picks }, seed: newSeed() });
    this.asked = null;
    if (!reply.ok) { notify(said(reply.error.message)); this.render(); return; }
    if (reply.result.ask) {
      const ask = reply.result.ask;
      this.asked = el("div", { class: "phase-ask", id: "phase-ask" },
        askBlock(ask, (value, also) => this.runNow(action, input, { ...picks, [ask.field]: value, ...also })),
        button("Cancel", () => { this.asked = null; this.render(); }, { class: "small", id: "phase-cancel" }));
      this.render();
      return;
    }
    if (!reply.result.complete) { this.openSheet(action, { ...input, ...picks }, { sheet: true }); return; }
    const target = action.flow?.target ? input[action.flow.target] : null;
    await this.commit(reply.result.game, { toast: reply.result.event.text, undoable: true, base, focus: target });
  }

  // Nothing to fill in on the action's sheet: every field is given (the acting unit, from its
  // card) or one the engine asks after the tap, if it needs it.
  nothingToAsk(action, preset) {
    const props = action.input_schema?.properties ?? {};
    return Object.entries(props).every(([name, field]) => preset[name] !== undefined || field.ui === "hidden" || field.ui === "asked");
  }

  // The next step's question, asked before its button is tapped (PhaseStep.ask_at_once).
  stepQuestion() {
    const { step, ask } = this.stepAsk;
    const block = askBlock(ask, (value, also) => { this.stepAsk = null; this.runStep(step, { [ask.field]: value, ...also }); });
    block.id = "step-ask"; // the sheet's own question keeps #action-ask
    return el("div", { class: "phase-ask", id: "phase-ask" }, block);
  }

  // What the last change did, kept on screen until the next one; Undo right there.
  toastBox() {
    const { text, summary, undoable, offers = [] } = this.toast;
    const follow = offers.filter((o) => this.action(o.action)).map((o, i) => button(plain(o.label), () => {
      this.toast = null;
      this.openSheet(this.action(o.action), o.input);
    }, { class: "primary small", "data-offer": String(i) }));
    // Two lines at most (the units' new damage first), the whole of it a tap on the text away.
    const line = el("button", { type: "button", class: "toast-line", id: "toast-line", "aria-expanded": "false" },
      el("span", { class: "toast-clamp" }, summary ? el("strong", { id: "toast-units" }, `${summary} `) : "", el("span", { id: "toast-text" }, plain(text))));
    line.addEventListener("click", () => {
      const open = line.getAttribute("aria-expanded") !== "true";
      line.setAttribute("aria-expanded", String(open));
      line.classList.toggle("open", open);
    });
    return el("div", { class: "toast", id: "toast", role: "status" },
      line,
      follow.length ? el("div", { class: "offers", id: "toast-offers" }, ...follow) : "",
      undoable ? button("Undo", () => this.change("game.undo", {}, { toast: `Undone: ${text}` }), { id: "toast-undo", class: "small" }) : "",
      button("✕", () => { this.toast = null; document.getElementById("toast")?.remove(); }, { class: "small", "aria-label": "Dismiss", id: "toast-close" }));
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
      const names = changes.map((c) => schema.properties[c.path[1]]?.title ?? nameOf(c.path[1]));
      if (changes.length) await this.change("game.adjust", { changes, text: `Rules reading changed: ${names.join(", ")}` });
    };
    form = schemaForm(schema, current, { onChange: save });
    plainForm(form.element);
    const box = el("details", { class: "rules-options", id: "rules-options" }, el("summary", {}, "Readings of unclear rules"), form.element);
    box.open = this.optionsOpen ?? false;
    box.addEventListener("toggle", () => { this.optionsOpen = box.open; });
    return box;
  }

  settingsBlock() {
    const tick = el("input", { type: "checkbox", id: "show-refs" });
    tick.checked = showRefs();
    tick.addEventListener("change", () => { setSetting("refs", tick.checked); this.render(); });
    return el("label", { class: "setting" }, tick, "Show rulebook line numbers");
  }

  adjust(path, value, text) {
    return this.change("game.adjust", { changes: [{ path, value }], text }, { toast: text });
  }

  sideBlock(side, s) {
    const resources = el("div", { class: "resources" });
    for (const def of this.info.resources) {
      const value = side.resources[def.key] ?? 0;
      resources.append(stepper(def.label, value, (v) => this.adjust(["sides", s, "resources", def.key], v, `${side.name}: ${def.label} ${v}`),
        { min: def.min, max: def.max, id: `res-${s}-${def.key}` }));
    }
    // The side's block and its row of cards are the nodes drawn before, their cards kept in place.
    this.sideNodes ??= new Map();
    const held = this.sideNodes.get(s) ?? { section: el("section", { class: "side", "data-side": String(s) }), cards: el("div", { class: "unit-cards" }) };
    this.sideNodes.set(s, held);
    const cards = held.cards;
    place(cards, side.units.map((unit, u) => this.cachedCard(unit, s, u)));
    // The squad's name under the side's, unless it only repeats it ("Sample force: Asura Team").
    const squad = side.squad_name ?? "";
    const repeats = !squad || squad === side.name || squad.endsWith(`: ${side.name}`);
    const head = el("h2", {}, side.name, repeats ? "" : el("small", {}, ` ${squad}`));
    // The side's counts fold to one line (those in use), their steppers a tap away.
    let box = "";
    if (this.info.resources.length) {
      const used = this.info.resources.filter((def) => (side.resources[def.key] ?? 0) !== 0)
        .map((def) => `${def.label} ${side.resources[def.key]}`);
      this.resOpen ??= new Set();
      box = el("details", { class: "resources-box", id: `resources-${s}` },
        el("summary", {}, used.length ? used.join(" · ")
          // one or two counts read by name even at 0 ("Troopers dead 0"); more fold to one phrase
          : this.info.resources.length <= 2 ? this.info.resources.map((def) => `${def.label} 0`).join(" · ") : "Counts: all 0"), resources);
      box.open = this.resOpen.has(s);
      box.addEventListener("toggle", () => { if (box.open) this.resOpen.add(s); else this.resOpen.delete(s); });
    }
    place(held.section, [head, box, this.remoteButton(side, s), cards]);
    return held.section;
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
      if (!reply.ok) { box.append(el("p", { class: "error", role: "alert" }, said(reply.error.message))); return; }
      box.append(el("p", { class: "muted" }, `${side.name}: scan this with your phone and pick there. `
        + "Then scan the answer code your phone shows with this phone. Only your hand travels in the link."),
        await tokenBox(this.engine, reply.result.token, `Choices for ${side.name}`, `remote-${s}`));
    }, { class: "small", id: `remote-ask-${s}` }));
    return box;
  }

  // Actions a unit takes (the system's actions whose acting unit is declared).
  unitActions() { return this.info.actions.filter((a) => a.flow?.actor); }

  // The unit's card: the very node drawn last time when nothing it shows has changed since (the
  // unit, its views and greyed actions, the turn's gate, open or not, just changed or not, the
  // holdings peeked at, the rulebook-lines setting). A card whose holdings the player picks from is
  // built anew each time, as before (its ticks are the card's own).
  cachedCard(unit, s, u) {
    const ref = `${s}/${unit.key}`;
    const view = this.views?.[ref] ?? null;
    const step = this.phase?.steps[this.phase.current];
    const picked = (view?.sections ?? []).some((x) => x.bind);
    const sig = picked ? null : JSON.stringify([unit, s, u, view, this.gated?.[ref] ?? null, step?.gate ? step.label : "",
      this.open.has(ref), this.changed?.has(ref) ?? false, this.peek, showRefs(), this.game.sides[s].name, this.cards?.[ref] ?? null]);
    const held = this.drawn?.get(ref);
    if (sig !== null && held?.sig === sig) return held.node;
    const node = this.unitCard(unit, s, u);
    (this.drawn ??= new Map()).set(ref, { sig, node });
    return node;
  }

  unitCard(unit, s, u) {
    const state = unit.state;
    const ref = `${s}/${unit.key}`;
    const base = ["sides", s, "units", u, "state"];
    const open = this.open.has(ref);
    const classes = ["unit-card", state.destroyed ? "destroyed" : "", state.activated ? "done" : "",
      open ? "open" : "", this.changed?.has(ref) ? "changed" : ""].filter(Boolean).join(" ");
    const card = el("article", { class: classes, "data-unit": ref });

    // The one line: name, damage bar, the conditions in force; a tap opens the rest.
    const bar = el("span", { class: "track", "aria-hidden": "true" }, el("span", { class: "track-fill" }));
    bar.firstChild.style.width = `${Math.min(100, (state.damage / Math.max(1, state.max_damage)) * 100)}%`;
    const badges = el("span", { class: "badges" });
    if (state.destroyed) badges.append(el("span", { class: "badge bad" }, "destroyed"));
    if (state.activated) badges.append(el("span", { class: "badge" }, "activated"));
    for (const def of this.info.tracked) {
      if (def.kind === "condition" && state.conditions.includes(def.key)) badges.append(el("span", { class: "badge on" }, def.label));
      if (def.kind === "counter" && (state.counters[def.key] ?? 0) > 0 && def.max === 1) badges.append(el("span", { class: "badge on" }, def.label));
    }
    const toggle = el("button", { type: "button", class: "card-toggle", "aria-expanded": String(open), "aria-controls": `more-${s}-${unit.key}` },
      el("strong", { class: "unit-name" }, unit.name),
      // Damage taken of what destroys it, named so "3/6" is not read as 3 left.
      el("span", { class: "dmg-box" }, el("small", { class: "dmg-label", "aria-hidden": "true" }, "damage "),
        el("span", { class: "dmg", "aria-label": `damage ${state.damage} of ${state.max_damage}` }, `${state.damage}/${state.max_damage}`)),
      bar, badges);
    toggle.addEventListener("click", () => {
      if (this.open.has(ref)) this.open.delete(ref); else this.open.add(ref);
      const now = this.open.has(ref);
      card.classList.toggle("open", now);
      toggle.setAttribute("aria-expanded", String(now));
      more.hidden = !now;
    });
    const row = el("div", { class: "card-row" }, toggle);
    // Before the game's first step (a priority roll) no unit acts: greyed, the reason in words.
    const gate = this.phase?.steps[this.phase.current];
    const gated = gate?.gate ? `${gate.label} first` : "";
    if (!state.destroyed) {
      for (const action of this.unitActions().filter((a) => a.flow.primary)) {
        const why = gated || this.gated?.[ref]?.[action.name];
        row.append(button(action.label, () => this.openSheet(action, { [action.flow.actor]: ref }),
          { class: "primary small act", "data-act": action.name, "aria-label": `${action.label} with ${unit.name}${why ? ` (${plain(why)})` : ""}`,
            ...(why ? { disabled: "", title: plain(why) } : {}) }));
      }
    }
    card.append(row);
    // Tracks of cells the system draws as its card prints them: always in view, so a hit shows.
    (this.views?.[ref]?.grids ?? []).forEach((grid, g) => card.append(cellGrid(grid, `grid-${s}-${unit.key}-${g}`)));

    const more = el("div", { class: "card-more", id: `more-${s}-${unit.key}` });
    more.hidden = !open;
    const damage = stepper("Damage", state.damage, (v) => this.adjust([...base, "damage"], v, `${unit.name}: damage set to ${v}`),
      { min: 0, max: state.max_damage, suffix: ` / ${state.max_damage}`, id: `dmg-${s}-${unit.key}` });
    more.append(damage);
    // Each condition a toggle under its own name (its label never turns into another word): one
    // that is on is filled and ticked, one that is off an empty outline (style.css .flags).
    const flags = el("div", { class: "chips flags", role: "group", "aria-label": `${unit.name}: conditions` });
    flags.append(button("Activated", () => this.adjust([...base, "activated"], !state.activated,
      `${unit.name}: ${state.activated ? "ready again" : "activated"}`), { class: `chip${state.activated ? " on" : ""}`, "data-flag": "activated", "aria-pressed": String(state.activated) }));
    for (const def of this.info.tracked.filter((t) => t.kind === "condition")) {
      const on = state.conditions.includes(def.key);
      const next = on ? state.conditions.filter((c) => c !== def.key) : [...state.conditions, def.key];
      flags.append(button(def.label, () => this.adjust([...base, "conditions"], next, `${unit.name}: ${def.label} ${on ? "off" : "on"}`),
        { class: `chip${on ? " on" : ""}`, title: plain(def.help), "data-flag": def.key, "aria-pressed": String(on) }));
    }
    more.append(flags);
    const counters = el("div", { class: "counters" });
    for (const def of this.info.tracked.filter((t) => t.kind === "counter")) {
      const value = state.counters[def.key] ?? 0;
      counters.append(stepper(def.label, value, (v) => this.adjust([...base, "counters", def.key], v, `${unit.name}: ${def.label} ${v}`),
        { min: 0, max: def.max, id: `ctr-${s}-${unit.key}-${def.key}` }));
    }
    more.append(counters);
    // What the player acts on now (a hand to choose from, cards to resolve) stays on the card
    // even when it is folded to one line; the rest of the holdings open with the card.
    const view = this.views?.[ref];
    const now = el("div", { class: "card-now" });
    for (const section of view?.sections ?? []) (section.bind && !state.destroyed ? now : more).append(this.viewSection(section, ref, s));
    if (now.childElementCount) card.append(now);
    if (!state.destroyed) {
      // Every other action this unit can take, one tap away.
      const others = this.unitActions().filter((a) => !a.flow.primary);
      if (others.length) {
        const pick = el("select", { class: "more-actions", "aria-label": `More actions for ${unit.name}` },
          el("option", { value: "" }, "More actions…"), ...others.map((a) => {
            // One the unit lacks what it needs for (core: ActionSpec.needs) greyed, with the reason.
            const option = el("option", { value: a.name }, a.label);
            const why = this.gated?.[ref]?.[a.name];
            return why ? gatedOption(option, why) : option;
          }));
        pick.addEventListener("change", () => {
          const action = this.action(pick.value);
          pick.value = "";
          if (action) this.openSheet(action, { [action.flow.actor]: ref });
        });
        more.append(pick);
      }
    }
    const profile = this.cards?.[ref];
    const destroyed = button(state.destroyed ? "Back in play" : "Mark destroyed", () => this.adjust([...base, "destroyed"], !state.destroyed,
      `${unit.name}: ${state.destroyed ? "back in play" : "destroyed"}`), { class: "small" });
    more.append(el("details", { class: "profile" }, el("summary", {}, "Profile"), cardElement(profile)), destroyed);
    card.append(more);
    return card;
  }

  // A section of holdings. A private one (a hand) stays hidden on a shared phone until its
  // owner taps to look; a bound one lets the owner act by picking its items.
  viewSection(section, ref, s) {
    const key = `${ref}:${section.title}`;
    const box = el("div", { class: "holding", "data-section": section.title });
    box.append(el("strong", {}, section.title));
    if (section.private && this.peek !== key) {
      box.append(button(`Show (only ${this.game.sides[s].name} looking)`, () => {
        // The owner looks: the last change's note steps aside and the whole hand comes into view.
        this.peek = key; this.toast = null; this.render();
        const shown = [...this.root.querySelectorAll(`[data-unit="${ref}"] .holding`)].find((x) => x.dataset.section === section.title);
        if (shown) {
          const box = shown.getBoundingClientRect();
          const bar = document.getElementById("game-bar")?.offsetHeight ?? 0;
          if (box.top < 0 || box.bottom > window.innerHeight - bar) shown.scrollIntoView({ block: box.height > window.innerHeight - bar ? "start" : "center" });
        }
      }, { class: "small peek" }));
      return box;
    }
    const picked = new Set();
    const list = el("ul", { class: "items" });
    // A binding that acts as soon as enough items are picked (no button to confirm; Undo after).
    const auto = section.bind?.auto && section.bind.mode !== "prefill" && section.bind.count > 0;
    let send = null;
    for (const item of section.items) {
      const text = el("span", {}, el("b", {}, item.label), item.detail ? el("small", {}, ` ${item.detail}`) : "");
      if (section.bind) {
        const tick = el("input", { type: "checkbox", value: item.id, "aria-label": item.label });
        tick.addEventListener("change", () => {
          if (tick.checked) picked.add(item.id); else picked.delete(item.id);
          if (auto && picked.size === section.bind.count) send?.({});
        });
        list.append(el("li", {}, el("label", {}, tick, text)));
      } else {
        list.append(el("li", {}, text));
      }
    }
    box.append(list);
    if (section.bind?.mode === "prefill") {
      // Picking an item fills the action sheet; the player completes it (a target) and rolls.
      const bind = section.bind;
      box.append(button(bind.label, () => {
        if (bind.count && picked.size !== bind.count) { notify(`Pick exactly ${bind.count}.`); return; }
        const ids = [...picked];
        const action = this.action(bind.action);
        if (action) this.openSheet(action, { ...bind.fixed, [bind.field]: bind.count === 1 ? ids[0] : ids }, { sheet: true });
      }, { class: "primary small", "data-prefill": bind.action }));
    } else if (section.bind) {
      const bind = section.bind;
      const asked = el("div");
      send = async (extra) => {
        if (bind.count && picked.size !== bind.count) { notify(`Pick exactly ${bind.count}.`); return; }
        const base = this.version;
        const reply = await this.engine.call("game.act", { game: this.game, action: bind.action,
          input: { ...bind.fixed, [bind.field]: [...picked], ...extra } });
        clear(asked);
        if (!reply.ok) { notify(said(reply.error.message)); return; }
        if (reply.result.ask) {
          const ask = reply.result.ask;
          asked.append(askBlock(ask, (value, also) => send({ ...extra, [ask.field]: value, ...also })));
        } else if (reply.result.complete) {
          await this.commit(reply.result.game, { toast: reply.result.event.text, undoable: true, base });
        }
      };
      if (auto) {
        box.insertBefore(el("p", { class: "muted bind-hint" }, `Tap ${bind.count === 1 ? "one" : bind.count} to ${bind.label.charAt(0).toLowerCase()}${bind.label.slice(1)}.`), list);
        box.append(asked);
      } else {
        box.append(button(bind.label, () => send({}), { class: "primary small", "data-bind": bind.action }), asked);
      }
    }
    if (section.private) box.append(button("Hide", () => { this.peek = null; this.render(); }, { class: "small" }));
    return box;
  }

  // Actions of the game as a whole (and any action, for any unit): picking one opens its sheet.
  gameActions() {
    const panel = el("section", { class: "game-actions", id: "game-actions" }, el("h2", {}, "Actions"));
    if (!this.info.actions.length) { panel.append(el("p", { class: "muted" }, "This system has no actions yet.")); return panel; }
    const chooser = el("select", { id: "action-pick", "aria-label": "Action" },
      el("option", { value: "" }, "Choose an action…"), ...this.info.actions.map((a) => el("option", { value: a.name }, a.label)));
    chooser.addEventListener("change", () => {
      const action = this.action(chooser.value);
      chooser.value = "";
      if (action) this.openSheet(action, {}, { sheet: true });
    });
    panel.append(chooser);
    return panel;
  }

  closeSheet() {
    this.engine.drop(CHOICE_ODDS);
    this.sheet?.node.remove();
    this.sheet = null;
    document.body.classList.remove("sheet-open");
  }

  // --- the action sheet: who, at whom, the choices with their odds, roll, apply ------------
  // `sheet`: open it even when there is nothing to fill in (picked from the list of actions, where
  // the acting unit is chosen on the sheet).
  openSheet(action, preset, { sheet = false } = {}) {
    if (!sheet && action.rolls === false && this.nothingToAsk(action, preset)) {
      // Rolls nothing and asks nothing (End turn): applied in one tap, with Undo.
      this.closeSheet();
      this.runNow(action, preset);
      return;
    }
    this.closeSheet();
    const flow = action.flow ?? { choices: [], common: [], headline: [] };
    const schema = action.input_schema;
    const props = schema.properties ?? {};
    // What this action was last given is offered again for the same unit only: another unit has
    // its own weapons and its own situation.
    const last = this.lastInput?.[action.name] ?? {};
    const sameUnit = !flow.actor || preset[flow.actor] === undefined || last[flow.actor] === preset[flow.actor];
    const state = { ...(sameUnit ? last : {}), ...preset };
    const node = el("section", { class: "sheet", id: "action-panel", role: "dialog", "aria-modal": "true", "aria-labelledby": "sheet-title" });
    this.sheet = { node, action };
    document.body.classList.add("sheet-open");

    const title = el("h2", { id: "sheet-title" });
    const head = el("div", { class: "sheet-head" }, title,
      button("✕", () => this.closeSheet(), { class: "small", id: "sheet-close", "aria-label": "Close" }));
    const who = el("div", { class: "sheet-who" });
    const targets = el("div", { class: "targets", id: "targets" });
    const choices = el("div", { class: "choices" });
    const pickRows = el("div", { class: "picks", id: "picks" });
    const chips = el("div", { class: "mods" });
    const odds = el("div", { class: "action-odds", id: "action-odds" });
    // The headline of the odds sits in the foot, over Roll: in view whatever the sheet's length.
    const oddsLine = el("div", { class: "odds-line", id: "odds-line", "aria-live": "polite" });
    const result = el("div", { class: "action-result", id: "action-result", "aria-live": "polite" });
    // What the units named lack for a modifier or option (game.gates): greyed, with the reason here.
    const gatedList = el("ul", { class: "gated-list", id: "gated-list" });
    gatedList.hidden = true;
    let gated = {};
    const regrey = () => greyGated(node, gated, gatedList,
      Object.fromEntries(Object.entries(props).map(([k, v]) => [k, v.title ?? nameOf(k)])));
    const flagged = new Set([flow.actor, flow.target, ...flow.choices, ...(flow.picks ?? [])].filter(Boolean));
    const chipFields = flow.common.filter((name) => props[name]?.type === "boolean");
    chipFields.forEach((name) => flagged.add(name));
    // A chip starts as the engine's default says (a modifier on by default shows on).
    for (const name of chipFields) if (state[name] === undefined && props[name].default !== undefined) state[name] = props[name].default;
    const hasLayout = flow.choices.length || chipFields.length || flow.target || flow.picks?.length;
    const custom = { "own-unit": this.unitPicker(() => true), "enemy-unit": this.unitPicker(() => true), side: this.sidePicker() };
    // Fields the engine asks about after the tap, by name, when it needs them: not in the form.
    for (const [name, field] of Object.entries(props)) if (field.ui === "asked") flagged.add(name);
    let typed = null;
    let picks = {};
    let seed = null;
    // Whether the sheet as filled in needs no die (a side picked rather than rolled for): learnt
    // from the engine (game.act given no dice completes); then Apply replaces the two roll buttons.
    let noDice = false;
    let tapped = false; // the last change was a tap on a choice
    const changed = () => { typed = null; picks = {}; clear(result); refresh(); probe(); };
    // A common modifier that is not a chip (a number: how far, how many) is shown first, above the
    // rest; only the others sit behind "More modifiers", which is left out when none is left.
    const firstFields = flow.common.filter((name) => props[name] && !flagged.has(name));
    const rest = schemaForm(schema, state, { onChange: changed, custom, skip: [...flagged, ...firstFields] });
    const upfront = schemaForm(schema, state, { onChange: changed, custom, skip: Object.keys(props).filter((k) => !firstFields.includes(k)) });
    plainForm(rest.element);
    plainForm(upfront.element);
    const read = () => ({ ...rest.read(), ...upfront.read(), ...Object.fromEntries([...flagged].filter((k) => state[k] !== undefined).map((k) => [k, state[k]])) });

    const drawWho = () => {
      clear(who);
      const actor = flow.actor ? this.unitByRef(state[flow.actor]) : null;
      title.textContent = actor ? `${action.label}: ${actor.name}` : action.label;
      if (flow.actor && !preset[flow.actor]) {
        // Opened from the list of actions: the acting unit is picked here.
        const made = this.unitPicker(() => true)(props[flow.actor] ?? {}, state[flow.actor], () => {
          state[flow.actor] = made.read();
          drawWho(); drawTargets(); loadPicks();
        }, flow.actor);
        if (state[flow.actor] === undefined) {
          // The first unit of the side whose turn it is, when the game says whose turn it is.
          const turn = this.game.state?.active_side;
          const first = turn === null || turn === undefined ? null : this.game.sides[turn]?.units.find((x) => !x.state.destroyed);
          if (first) made.element.value = `${turn}/${first.key}`;
          state[flow.actor] = made.read();
        }
        title.textContent = `${action.label}: ${this.unitByRef(state[flow.actor])?.name ?? ""}`;
        who.append(el("label", { class: "field" }, el("span", { class: "field-label" }, nameOf(flow.actor)), made.element));
      }
    };
    // The unit acted on: the other sides' units only, each under its side's name.
    const drawTargets = () => {
      clear(targets);
      if (!flow.target) return;
      const mine = Number(String(state[flow.actor] ?? "").split("/")[0]);
      targets.append(el("p", { class: "step-label" }, state[flow.target] ? "Target" : "Pick a target"));
      this.game.sides.forEach((side, s) => {
        if (s === mine) return;
        const live = side.units.filter((x) => !x.state.destroyed);
        if (!live.length) return;
        targets.append(el("div", { class: "target-side", role: "group", "aria-label": side.name },
          el("small", {}, side.name),
          ...live.map((unit) => {
            const ref = `${s}/${unit.key}`;
            const on = state[flow.target] === ref;
            const pick = button("", () => {
              state[flow.target] = ref; drawTargets(); changed();
            }, { class: `target${on ? " on" : ""}`, "data-target": ref, "aria-pressed": String(on) });
            pick.append(el("span", { class: "target-name" }, unit.name), el("small", {}, `${unit.state.damage}/${unit.state.max_damage}`));
            return pick;
          })));
      });
    };
    const drawChoices = () => {
      clear(choices);
      for (const name of flow.choices) {
        const field = props[name] ?? {};
        const values = field.enum ?? [];
        if (state[name] === undefined) state[name] = field.default ?? values[0];
        const group = el("div", { class: "choice-row", role: "group", "aria-label": field.title ?? nameOf(name), "data-choice-field": name },
          ...values.map((value) => {
            const on = state[name] === value;
            return button("", () => { state[name] = value; drawChoices(); tapped = true; changed(); },
              { class: `choice${on ? " on" : ""}`, "data-value": String(value), "aria-pressed": String(on) });
          }));
        // A choice that stands for a side (`x-sides`: value -> side index) reads as that side's name.
        const sideName = (v) => this.game.sides[field["x-sides"]?.[v]]?.name;
        for (const b of group.querySelectorAll("button")) b.append(el("span", { class: "choice-name" }, sideName(b.dataset.value) ?? field["x-labels"]?.[b.dataset.value] ?? nameOf(b.dataset.value)), el("small", { class: "choice-odds" }, ""));
        choices.append(group);
      }
    };
    // What the acting unit itself offers (its own weapons...), asked of the engine (game.picks):
    // one button each, with its key numbers; one it cannot use now greyed, with the reason.
    let offered = {};
    const loadPicks = async () => {
      offered = {};
      if (flow.picks?.length && state[flow.actor]) {
        const reply = await this.engine.call("game.picks", { game: this.game, action: action.name, actor: state[flow.actor] });
        offered = reply.ok ? reply.result.fields : {};
      }
      drawPicks();
      changed();
    };
    const drawPicks = () => {
      clear(pickRows);
      for (const name of flow.picks ?? []) {
        const list = offered[name] ?? [];
        const usable = list.filter((p) => !p.unavailable);
        // The unit's first usable value, never one left from another unit's sheet.
        if (!usable.some((p) => p.value === state[name])) state[name] = usable.length ? usable[0].value : props[name]?.default;
        const label = props[name]?.title ?? nameOf(name);
        const group = el("div", { class: "pick-row", role: "group", "aria-label": label, "data-pick-field": name },
          el("p", { class: "step-label" }, label));
        for (const p of list) {
          const on = !p.unavailable && p.value === state[name];
          const b = button("", () => { state[name] = p.value; drawPicks(); changed(); },
            { class: `choice pick${on ? " on" : ""}`, "data-value": String(p.value), "aria-pressed": String(on), ...(p.unavailable ? { disabled: "" } : {}) });
          b.append(el("span", { class: "choice-name" }, p.label),
            p.detail ? el("small", { class: "pick-detail" }, plain(p.detail)) : "",
            p.unavailable ? el("small", { class: "pick-why" }, plain(p.unavailable)) : el("small", { class: "choice-odds" }, ""));
          group.append(b);
        }
        if (!list.length) group.append(el("p", { class: "muted" }, "Nothing to pick."));
        pickRows.append(group);
      }
    };
    const drawChips = () => {
      clear(chips);
      if (!chipFields.length) return;
      // Each chip has its own info tap: the explanation of that modifier alone, under the chips.
      const help = el("p", { class: "mod-help", id: "mod-help", "aria-live": "polite" });
      const open = chipFields.includes(this.helpOpen) ? this.helpOpen : null;
      help.hidden = !open;
      if (open) help.append(el("b", {}, props[open].title ?? nameOf(open)), ` ${plain(props[open].description)}`);
      const row = el("div", { class: "chips" }, ...chipFields.map((name) => {
        const on = Boolean(state[name]);
        const title = props[name].title ?? nameOf(name);
        const chip = button(title, () => { state[name] = !state[name]; drawChips(); changed(); },
          { class: `chip mod${on ? " on" : ""}`, "data-mod": name, "aria-pressed": String(on) });
        const info = button("i", () => { this.helpOpen = open === name ? null : name; drawChips(); },
          { class: "chip info", "data-mod-info": name, "aria-label": `What ${title} means`, "aria-expanded": String(open === name) });
        return el("span", { class: "mod-pair" }, chip, info);
      }));
      chips.append(row, help);
      regrey();
    };

    let asking = 0;
    const refresh = async () => {
      const ask = ++asking;
      this.engine.drop(CHOICE_ODDS); // the buttons' odds of the sheet as it was: moot now
      const input = read();
      const asked = await this.engine.call("game.gates", { game: this.game, action: action.name, input });
      if (ask !== asking) return;
      gated = asked.ok ? asked.result : {};
      // A modifier left on from this action's last use goes back to its default when this unit lacks it.
      const off = Object.keys(gated.fields ?? {}).filter((k) => flagged.has(k) && state[k] !== undefined && state[k] !== props[k]?.default);
      if (off.length) { off.forEach((k) => { state[k] = props[k]?.default; }); drawChips(); refresh(); return; }
      regrey();
      if (!action.has_odds) return;
      if (flow.target && !input[flow.target]) {
        clear(odds);
        clear(oddsLine);
        oddsLine.append(el("p", { class: "muted" }, "Pick a target to see the odds."));
        return;
      }
      const reply = await this.engine.call("game.odds", { game: this.game, action: action.name, input, viewer: this.viewer });
      if (ask !== asking) return;
      clear(odds);
      clear(oddsLine);
      if (!reply.ok) { oddsLine.append(el("p", { class: "error" }, said(reply.error.message))); return; }
      odds.append(oddsBlock(reply.result, flow.headline));
      oddsLine.append(odds.querySelector("#odds-headline"));
      // Each choice's and each usable pick's headline, so the buttons compare the options
      // (which range band, which weapon does best here).
      const rows = [
        ...flow.choices.map((name) => [name, choices.querySelectorAll(`[data-choice-field="${name}"] button`),
          (b) => props[name].enum.find((v) => String(v) === b.dataset.value)]),
        ...(flow.picks ?? []).map((name) => [name, pickRows.querySelectorAll(`[data-pick-field="${name}"] button:not([disabled])`),
          (b) => (offered[name] ?? []).find((p) => String(p.value) === b.dataset.value)?.value]),
      ];
      // They are background calls: the engine works them out when no tap waits, and a newer tap
      // drops those not started (engine-client.js), so a tap never queues behind them.
      for (const [name, buttons, valueOf] of rows) {
        for (const b of buttons) {
          const value = valueOf(b);
          const shown = b.querySelector(".choice-odds");
          const put = (other) => {
            if (ask === asking && !other.skipped) shown.textContent = other.ok ? shortOdds(other.result, flow.headline) : "—";
          };
          if (value === input[name]) put(reply);
          else this.engine.call("game.odds", { game: this.game, action: action.name, input: { ...input, [name]: value }, viewer: this.viewer }, { background: CHOICE_ODDS }).then(put);
        }
      }
    };

    // Only for an action that may roll and shows no odds: a sheet with odds always rolls.
    let probing = 0;
    const probe = async () => {
      const byTap = tapped;
      tapped = false;
      if (action.rolls === false || action.has_odds) return;
      const ask = ++probing;
      const reply = await this.engine.call("game.act", { game: this.game, action: action.name, input: read(), faces: [] });
      if (ask !== probing || this.sheet?.node !== node) return;
      const none = Boolean(reply.ok && reply.result.complete && !reply.result.ask);
      if (none !== noDice) { noDice = none; drawRoll(); }
      // The sheet's one choice picked, and it rolls nothing (who goes first, picked by the players):
      // applied at once.
      if (none && byTap && onlyChoice) { typed = []; seed = null; run(typed); }
    };

    const run = async (faces) => {
      const input = { ...read(), ...picks };
      this.lastInput = { ...this.lastInput, [action.name]: read() };
      const base = this.version;
      const reply = await this.engine.call("game.act", { game: this.game, action: action.name, input, seed, ...(faces ? { faces } : {}) });
      clear(result);
      if (!reply.ok) { result.append(el("p", { class: "error", role: "alert" }, said(reply.error.message))); return; }
      if (reply.result.ask) {
        result.append(askBlock(reply.result.ask, (value, also) => { picks = { ...picks, [reply.result.ask.field]: value, ...also }; run(faces); }),
          el("div", { class: "actions" }, button("Cancel", () => { picks = {}; clear(result); })));
        reveal(result);
        return;
      }
      if (!reply.result.complete) {
        const need = reply.result.need;
        result.append(el("p", { class: "prompt", id: "action-prompt" }, `Roll ${need.count} d${need.sides} for ${need.purpose}, then tap each face.`),
          el("output", { class: "faces-typed" }, typed.join(" ") || "no dice yet"),
          el("div", { class: "keypad" }, ...Array.from({ length: need.sides }, (_, i) => button(String(i + 1), () => { typed.push(i + 1); run(typed); }, { class: "key", "data-face": String(i + 1) }))),
          el("div", { class: "actions" }, button("⌫ Undo", () => { typed.pop(); run(typed); })));
        reveal(result);
        return;
      }
      const pending = reply.result.game;
      const text = reply.result.event.text;
      const aimedAt = flow.target ? input[flow.target] ?? null : null;
      // (With no dice given, so a sheet changed since the engine was asked cannot roll unseen.)
      if (action.rolls === false || (noDice && faces?.length === 0)) {
        // Nothing was rolled, so there is nothing to look at before it counts: applied at once, with Undo.
        typed = null; picks = {}; this.closeSheet();
        await this.commit(pending, { toast: text, undoable: true, base, focus: aimedAt });
        return;
      }
      // While the player reads the result, the engine works out the screen of the game it would
      // leave (game.views is remembered by the engine: Apply then only saves and draws).
      if (aheadFits(pending)) this.engine.call("game.views", { game: pending, viewer: this.viewer }, { background: VIEWS_AHEAD, first: true });
      result.append(el("p", { class: "verdict", id: "action-text" }, plain(text)), diceLine(reply.result.event.detail),
        el("div", { class: "actions" },
          button("Apply", async () => { typed = null; picks = {}; this.closeSheet(); await this.commit(pending, { toast: text, undoable: true, base, focus: aimedAt }); },
            { class: "primary", id: "apply-result" }),
          button("Discard", () => { typed = null; picks = {}; clear(result); })));
      reveal(result);
    };

    drawWho();
    drawTargets();
    drawChoices();
    drawPicks();
    drawChips();
    const restBox = hasLayout && rest.element.childElementCount
      ? el("details", { class: "more-mods", id: "more-mods" }, el("summary", {}, "More modifiers"), rest.element)
      : rest.element;
    // Rolling and the result sit at the foot of the sheet, in reach whatever the form's length.
    const onlyChoice = flow.choices.length === 1 && !flow.target && !flow.picks?.length && !chipFields.length
      && !firstFields.length && !rest.element.childElementCount;
    const rollRow = el("div", { class: "actions roll" });
    const drawRoll = () => {
      clear(rollRow);
      rollRow.append(...(action.rolls === false
        ? [button("Apply", () => { typed = null; picks = {}; seed = newSeed(); run(null); }, { class: "primary", id: "action-apply" })]
        : noDice ? [button("Apply", () => { typed = []; picks = {}; seed = null; run(typed); }, { class: "primary", id: "action-apply" })]
        : [button(action.roll_label ?? "Roll for me", () => { typed = null; picks = {}; seed = newSeed(); run(null); }, { class: "primary", id: "action-roll" }),
          button(action.typed_label ?? "I rolled real dice", () => { typed = []; picks = {}; seed = null; run(typed); }, { id: "action-typed" })]));
    };
    drawRoll();
    // A sheet with nothing to fill in and no odds (a roll-off) says what the roll is for.
    const about = !hasLayout && !action.has_odds && !Object.keys(props).some((k) => !flagged.has(k) && props[k].ui !== "hidden") && action.help
      ? el("p", { class: "sheet-about", id: "sheet-about" }, plain(action.help)) : "";
    node.append(head, el("div", { class: "sheet-body" }, about, who, targets, pickRows, choices, chips, firstFields.length ? upfront.element : "", gatedList, restBox, odds),
      el("div", { class: "sheet-foot" }, oddsLine, rollRow, result));
    this.root.append(node);
    node.addEventListener("keydown", (event) => { if (event.key === "Escape") this.closeSheet(); });
    title.setAttribute("tabindex", "-1");
    title.focus({ preventScroll: true });
    if (flow.picks?.length) loadPicks(); else refresh();
    probe();
  }

  // A side of the game by its name (the engine keeps its number); empty when the field allows it.
  sidePicker() {
    return (node, current, onChange, name) => {
      const select = el("select", { name, id: `pick-${name}` });
      const optional = (node.anyOf ?? []).some((v) => v.type === "null");
      if (optional) select.append(el("option", { value: "" }, "— by lot —"));
      this.game.sides.forEach((side, s) => {
        const option = el("option", { value: String(s) }, side.name);
        option.selected = s === current;
        select.append(option);
      });
      if (optional && (current === null || current === undefined)) select.value = "";
      select.addEventListener("change", onChange);
      return { element: select, read: () => (select.value === "" ? null : Number(select.value)) };
    };
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

  logBlock() {
    const list = el("ol", { class: "log", id: "game-log", reversed: "" });
    this.game.log.forEach((event, i) => {
      list.prepend(el("li", { class: i < this.game.cursor ? "" : "undone" }, plain(event.text)));
    });
    return el("section", {}, el("h2", {}, "Log"), list);
  }
}

// Makes `fresh` (nodes, strings; "" and null left out) the children of `parent`, leaving where they
// are the nodes already there in that order: only what is new, moved or gone is touched, so the
// browser styles and lays out again only that.
function place(parent, fresh) {
  const nodes = fresh.filter((n) => n !== "" && n !== null && n !== undefined)
    .map((n) => (typeof n === "string" ? document.createTextNode(n) : n));
  const keep = new Set(nodes);
  for (const node of [...parent.childNodes]) if (!keep.has(node)) node.remove();
  let at = parent.firstChild;
  for (const node of nodes) {
    if (node === at) at = at.nextSibling;
    else parent.insertBefore(node, at);
  }
}

// Units whose tracked state differs between two versions of a game, as "side/key".
// `part` picks what counts (the whole state by default).
function changedUnits(before, after, part = (st) => st) {
  const out = new Set();
  if (!before) return out;
  after.sides.forEach((side, s) => side.units.forEach((unit) => {
    const old = before.sides[s]?.units.find((u) => u.key === unit.key);
    if (!old || JSON.stringify(part(old.state)) !== JSON.stringify(part(unit.state))) out.add(`${s}/${unit.key}`);
  }));
  return out;
}

// A form drawn from a schema, in players' words: names for ids, no line numbers unless asked.
function plainForm(root) {
  for (const help of root.querySelectorAll(".help")) help.textContent = plain(help.textContent);
  for (const option of root.querySelectorAll("select:not([id^='pick-']) option")) option.textContent = nameOf(option.textContent);
}

// The engine's refusal as a sentence for players: plain words, a capital first letter.
function said(message) {
  const text = plain(message);
  return text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?]$/.test(text) ? "" : ".");
}

// Keep what the player must look at next (a result, a prompt) on screen inside the sheet.
// Counted as work in flight until it is done (dom.js), or for 250 ms on a page that draws no frames.
function reveal(node) {
  const release = hold();
  const fallback = setTimeout(release, 250);
  requestAnimationFrame(() => {
    clearTimeout(fallback);
    node.scrollIntoView({ block: "end", behavior: "instant" });
    release();
  });
}

function stepper(label, value, set, { min = 0, max = null, suffix = "", id = "" } = {}) {
  const down = button("−", () => set(value - 1), { class: "step", "aria-label": `${label} down`, ...(min !== null && value <= min ? { disabled: "" } : {}) });
  const up = button("+", () => set(value + 1), { class: "step", "aria-label": `${label} up`, ...(max !== null && max !== undefined && value >= max ? { disabled: "" } : {}) });
  return el("div", { class: "stepper", id }, el("span", { class: "step-label" }, label), down, el("output", {}, `${value}${suffix}`), up);
}

// The engine's question when an action needs a player's pick: one button per option, or ticks
// and a confirm button when several may be chosen.
function askBlock(ask, choose) {
  const box = el("div", { class: "ask", id: "action-ask", role: "group", "aria-label": plain(ask.prompt) }, el("p", { class: "prompt" }, plain(ask.prompt)));
  if (!ask.many) {
    // The option the odds before the roll assumed is marked, so the player sees what the odds meant.
    // Many options (a split of a pool of dice) wrap in rows of two, never squeezed into one row.
    box.append(el("div", { class: ask.options.length > 4 ? "actions many" : "actions" }, ...ask.options.map((o) => {
      const b = button(o.label, () => choose(o.value, o.also ?? {}), { class: "primary", "data-choice": JSON.stringify(o.value), "data-also": JSON.stringify(o.also ?? {}) });
      if (o.assumed) b.append(el("small", { class: "assumed" }, " (as in the odds)"));
      return b;
    })));
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

// The table the headline is about: the first headline key naming a table, else the first table.
function mainTable(odds, headline) {
  const name = (headline ?? []).find((k) => k in odds.tables) ?? Object.keys(odds.tables)[0];
  return name ? [name, odds.tables[name]] : [null, null];
}

// A long table lists only the values that can happen (core.pool.table): "at least 1" is the
// at-least of the first row from 1 (the same row as value 1 where every value is listed).
// Whether a table leaves out values between its first and last row (only the possible ones listed).
const gaps = (t) => t.rows.length > 0 && t.rows.at(-1).value - t.rows[0].value + 1 > t.rows.length;

const atLeastOne = (table) => table.rows.find((r) => r.value >= 1)?.p_at_least ?? 0;

// "34% · avg 0.5": the chance of at least one and the average of the main table, for a choice
// button; an average in the hundreds or more ("avg 1061") without decimals.
function shortOdds(odds, headline) {
  const [, table] = mainTable(odds, headline);
  if (!table) return "";
  const mean = table.p_mean >= 100 ? String(Math.round(table.p_mean)) : table.p_mean.toFixed(1);
  return `${Math.round(atLeastOne(table) * 100)}% · avg ${mean}`;
}

// The headline line (any damage, mean, what the system names as key), a small chart of the
// main table, and every table behind a disclosure.
function oddsBlock(odds, headline = []) {
  const box = el("div", {});
  const [main, table] = mainTable(odds, headline);
  const parts = [];
  if (table && table.rows.every((r) => r.value === 0 || r.value === 1)) {
    // a yes-or-no table (on target or not): its chance alone; its mean would only repeat it
    parts.push(el("span", { "data-key": "any" }, `${nameOf(main)} `, el("b", {}, pct(atLeastOne(table)))));
  } else if (table) {
    parts.push(el("span", { "data-key": "any" }, `Any ${nameOf(main).toLowerCase()} `, el("b", {}, pct(atLeastOne(table)))),
      el("span", { "data-key": "mean" }, `mean `, el("b", {}, table.p_mean.toFixed(2))));
  }
  for (const key of headline.filter((k) => k !== main)) {
    if (key in odds.facts) parts.push(el("span", { "data-key": key }, `${nameOf(key)} `, el("b", {}, pct(odds.facts[key]))));
    else if (key in odds.tables) parts.push(el("span", { "data-key": key }, `${nameOf(key)} mean `, el("b", {}, odds.tables[key].p_mean.toFixed(2))));
  }
  if (!headline.length) {
    for (const [key, p] of Object.entries(odds.facts)) parts.push(el("span", { "data-key": key }, `${nameOf(key)} `, el("b", {}, pct(p))));
  }
  box.append(el("p", { class: "headline", id: "odds-headline" }, ...parts.flatMap((p, i) => (i ? [" · ", p] : [p]))));
  if (table) {
    const top = Math.max(...table.rows.map((r) => r.p_exactly), 1e-9);
    const chart = el("div", { class: "chart mini", id: "odds-chart", role: "img",
      "aria-label": `Chance of each ${nameOf(main).toLowerCase()} result` });
    // A table running to the thousands (damage counted in hundreds) charts only the results that
    // can happen: thousands of empty columns would cost seconds a tap and show nothing.
    const charted = table.rows.length > CHART_ALL_UP_TO ? table.rows.filter((r) => r.p_exactly > 0) : table.rows;
    // Its axis labelled as often as the numbers fit a phone's width side by side, each whole on
    // one line ("1000", never "100" over "0"): the exact values are in the full tables.
    const widest = Math.max(...charted.map((r) => String(r.value).length));
    const every = Math.max(1, Math.ceil(charted.length / Math.floor(CHART_LABEL_ROOM / (widest + 1))));
    charted.forEach((row, i) => {
      const fill = el("span", { class: "fill", "data-value": String(row.value), "data-p": String(row.p_exactly) });
      fill.style.height = `${((row.p_exactly / top) * CHART_PX).toFixed(2)}px`;
      chart.append(el("div", { class: "col" }, fill, el("small", {}, i % every ? "" : String(row.value))));
    });
    box.append(chart);
  }
  const full = el("details", { class: "odds-full" }, el("summary", {}, "Full odds"));
  if (odds.summary) full.append(el("p", { class: "summary" }, plain(odds.summary)));
  // The tables are drawn when the player opens them, not on every tap (they may run to thousands
  // of rows); the facts follow them, as before.
  const facts = Object.entries(odds.facts).map(([name, p]) => el("p", { "data-fact": name }, `${nameOf(name)}: ${pct(p)}`));
  full.append(...facts);
  full.addEventListener("toggle", () => {
    if (!full.open || full.querySelector("table")) return;
    for (const [name, t] of Object.entries(odds.tables)) {
      const label = nameOf(name);
      const rows = t.rows.map((r) => el("tr", {}, el("td", {}, String(r.value)), el("td", {}, pct(r.p_exactly)), el("td", {}, pct(r.p_at_least))));
      const drawn = el("table", { class: "odds", "data-table": name },
        el("caption", {}, `${label} (mean ${t.p_mean.toFixed(2)})${gaps(t) ? ", only the results that can happen" : ""}`),
        el("thead", {}, el("tr", {}, el("th", {}, label), el("th", {}, "Exactly"), el("th", {}, "At least"))), el("tbody", {}, ...rows));
      if (facts.length) facts[0].before(drawn);
      else full.append(drawn);
    }
  });
  box.append(full);
  return box;
}

function diceLine(detail) {
  const box = el("div", {});
  for (const key of ["attack", "defense"]) {
    if (detail?.[key]?.dice) box.append(poolLine(nameOf(key), detail[key]));
  }
  return box;
}
