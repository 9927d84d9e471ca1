// The saved store (squads, own units, games) in localStorage, written after every
// change so a killed page loses nothing. The engine validates and migrates it at
// start (store.load); anything it cannot read is kept aside, never deleted.
import { notify } from "./dom.js";

const KEY = "tc.store";
const ASIDE_KEY = "tc.store.aside";

export class Store {
  constructor(engine) {
    this.engine = engine;
    this.raw = read(KEY);
    // Before the engine is ready, show what was saved as it is (names only).
    this.data = this.raw && typeof this.raw === "object" ? this.raw : {};
    this.data.squads ??= [];
    this.data.units ??= [];
    this.data.games ??= [];
    this.readonly = false;
    this.ready = this.migrate();
  }

  async migrate() {
    const reply = await this.engine.call("store.load", { data: this.raw });
    if (!reply.ok) {
      notify(`Saved data could not be checked: ${reply.error.message}`);
      this.readonly = true;
      return;
    }
    const { store, set_aside: aside, notes, readonly } = reply.result;
    this.readonly = readonly;
    if (aside.length) {
      const kept = read(ASIDE_KEY) ?? [];
      localStorage.setItem(ASIDE_KEY, JSON.stringify([...kept, ...aside]));
    }
    if (notes.length) notify(notes.join(" "));
    if (!readonly) {
      this.data = store;
      this.save();
    }
  }

  save() {
    if (this.readonly) return;
    try {
      localStorage.setItem(KEY, JSON.stringify(this.data));
    } catch (error) {
      notify(`Could not save: ${error.message}. Export your squads to keep them.`);
    }
  }

  squad(id) { return this.data.squads.find((s) => s.id === id); }
  game(id) { return this.data.games.find((g) => g.id === id); }

  putSquad(squad) { put(this.data.squads, squad); this.save(); }
  putGame(game) { put(this.data.games, game); this.save(); }
  putUnit(unit) { put(this.data.units, unit); this.save(); }

  removeSquad(id) { this.data.squads = this.data.squads.filter((s) => s.id !== id); this.save(); }
  removeGame(id) { this.data.games = this.data.games.filter((g) => g.id !== id); this.save(); }
  removeUnit(id) { this.data.units = this.data.units.filter((u) => u.id !== id); this.save(); }
}

function put(list, item) {
  const at = list.findIndex((x) => x.id === item.id);
  if (at >= 0) list[at] = item;
  else list.push(item);
}

function read(key) {
  const text = localStorage.getItem(key);
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    localStorage.setItem(`${key}.unreadable.${Date.now()}`, text);
    return { schema_version: -1 };
  }
}

// A seed for a roll by the app: the engine rolls from it, the same again if it has to ask a pick.
export function newSeed() {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}

export function newId(prefix) {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return prefix + Array.from(bytes, (b) => b.toString(36).padStart(2, "0")).join("").slice(0, 10);
}
