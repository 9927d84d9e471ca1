// The saved store: each squad, own unit and game is its own record in IndexedDB, written
// as it changes and confirmed durable (transaction complete, durability "strict") before
// the caller is told it is saved. Every record carries a version number, checked inside the
// write transaction, so no tab or window can overwrite newer data from another; a
// BroadcastChannel tells the other tabs to read what changed. What cannot be read is set
// aside (never deleted) for the recover screen (web/recover-view.js). The engine validates
// and migrates every record at start (store.check, core/storage.py).
import { notify, working } from "./dom.js";

const DB_NAME = "tc";
const DB_VERSION = 2; // the object stores below (2: campaigns); a newer app may add more
const FORMAT = 3; // core.storage.STORE_SCHEMA: the format of the records this app writes
const KINDS = ["squads", "units", "games", "campaigns"];
const LEGACY = "tc.store"; // the first release's localStorage store (core/storage.py, schema 1)
const WHAT = { squads: "squad", units: "own unit", games: "game", campaigns: "campaign", store: "whole saved store" };

export class Store extends EventTarget {
  constructor(engine) {
    super();
    this.engine = engine;
    this.data = { squads: [], units: [], games: [], campaigns: [] };
    this.versions = new Map(); // "kind/id" -> version of the record as last read or written
    this.aside = []; // set-aside entries; `unsaved` ones could not be written (storage full)
    this.newer = new Map(); // "kind/id" -> record saved by a newer version: read-only
    this.readonly = null; // why the whole store is read-only, if it is
    this.failed = null; // why saving failed: play stops until the player exports and reloads
    this.unsaved = []; // changes that could not be written, kept for the export
    this.damaged = []; // records whose compressed bytes cannot be inflated (left in place)
    this.odd = []; // records whose data is not an item at all: the check sets them aside
    this.formats = new Map(); // "kind/id" -> format the record was written in
    this.aliases = new Map(); // "kind/id" -> key of the record holding it, where that differs from its id
    this.queue = Promise.resolve(); // writes of this tab, one after the other
    this.channel = typeof BroadcastChannel === "function" ? new BroadcastChannel("tc.store") : null;
    if (this.channel) this.channel.onmessage = ({ data }) => working(this.receive(data));
    this.opened = this.open();
    this.ready = working(this.opened.then(() => this.check())); // counted from here: opening too
    this.checked = false; // until the engine has checked what was read (lists may show it as saved)
    const done = () => { this.checked = true; };
    this.ready.then(done, done);
  }

  // --- reading ---------------------------------------------------------------------

  async open() {
    try {
      this.db = await openDb();
    } catch (error) {
      // No IndexedDB at all (a broken profile, a private mode without it): show what the
      // first release saved, if anything, and say that nothing can be saved.
      this.loadLegacyIntoMemory();
      this.fail(`saved data cannot be opened (${describe(error)})`);
      return;
    }
    this.db.onversionchange = () => {
      this.db.close();
      this.readonly = "A newer version of the app was opened in another tab or window: reload this one.";
      notify(this.readonly);
    };
    if (this.db.version > DB_VERSION) {
      this.readonly = "This data was saved by a newer version of the app. Update the app to change it: until then it is read-only.";
    }
    try {
      const all = await this.readAll();
      if (!all.meta.get("legacy") && !this.readonly && legacyKeys().length) {
        await this.migrateLegacy(all);
        Object.assign(all, await this.readAll());
      }
      this.take(all);
    } catch (error) {
      this.loadLegacyIntoMemory();
      this.fail(`saved data cannot be read (${describe(error)})`);
    }
    if (this.readonly) notify(this.readonly);
  }

  async readAll() {
    const stores = [...KINDS, "aside", "meta"];
    const out = { meta: new Map() };
    await this.tx(stores, "readonly", (t) => {
      for (const name of [...KINDS, "aside"]) {
        const req = t.objectStore(name).getAll();
        req.onsuccess = () => { out[name] = req.result; };
      }
      const meta = t.objectStore("meta").getAll();
      meta.onsuccess = () => { for (const m of meta.result) out.meta.set(m.key, m); };
    });
    for (const kind of KINDS) out[kind] = await Promise.all(out[kind].map((rec) => this.unpackRecord(kind, rec)));
    return out;
  }

  // A record as the views use it: `data` inflated from `z` if it was stored compressed. A
  // record whose bytes are damaged stays where it is and is listed on the recover screen.
  async unpackRecord(kind, rec) {
    if (!rec || !rec.z) return rec;
    try {
      return { ...rec, data: await unpack(rec.z) };
    } catch (error) {
      if (!this.damaged.some((e) => e.kind === kind && e.id === rec.id)) {
        // The browser's own words ("Failed to fetch") say nothing to a player: say what is wrong.
        this.damaged.push({ kind, id: rec.id, reason: "its saved bytes are damaged: they cannot be unpacked (changed or cut short on this device)", raw: rec.z, at: Date.now(), unsaved: true, inPlace: true });
      }
      return { ...rec, data: null };
    }
  }

  // Records in memory: the views read this.data synchronously.
  take(all) {
    for (const kind of KINDS) {
      for (const rec of all[kind]) {
        // a newer version may already have come from another tab while this one was reading
        if ((this.versions.get(`${kind}/${rec.id}`) ?? 0) <= rec.v) this.remember(kind, rec);
      }
    }
    this.aside = [...all.aside, ...this.damaged];
    if (all.meta.get("format")?.value > FORMAT && !this.readonly) {
      this.readonly = "This data was saved by a newer version of the app. Update the app to change it: until then it is read-only.";
    }
  }

  remember(kind, rec) {
    const key = `${kind}/${rec.id}`;
    this.versions.set(key, rec.v);
    this.formats.set(key, rec.format);
    if (rec.format > FORMAT) this.newer.set(key, { kind, ...rec });
    else this.newer.delete(key);
    if (rec.data && typeof rec.data === "object" && !Array.isArray(rec.data)) {
      // Saved under a key other than its id (by hand, or an old bug): its next save moves it to
      // its id and removes the old record in the same transaction, leaving no stale copy.
      if (rec.data.id !== undefined && rec.data.id !== rec.id) this.aliases.set(`${kind}/${rec.data.id}`, rec.id);
      put(this.data[kind], rec.data);
    }
    else if (!rec.z) this.odd.push({ kind, id: String(rec.id), format: rec.format ?? FORMAT, data: rec.data ?? null });
  }

  forget(kind, id) {
    this.versions.delete(`${kind}/${id}`);
    this.newer.delete(`${kind}/${id}`);
    this.data[kind] = this.data[kind].filter((x) => x.id !== id);
  }

  // Once the engine runs: every record validated and brought up to date; unreadable ones
  // are moved aside (the copy and the removal in one transaction, so nothing is lost if
  // storage is full: then they stay where they are and are only hidden from the lists).
  async check() {
    const records = [];
    for (const kind of KINDS) {
      for (const item of this.data[kind]) {
        const key = `${kind}/${item.id}`;
        if (!this.newer.has(key)) records.push({ kind, id: String(item.id), format: this.formats.get(key) ?? FORMAT, data: item });
      }
    }
    records.push(...this.odd.splice(0));
    if (!records.length) return;
    // The version each checked copy had: while the engine checks, this tab or another may
    // save a newer one, which the older checked copy must not replace (nor be set aside).
    const checked = new Map(records.map((r) => [`${r.kind}/${r.id}`, this.versions.get(`${r.kind}/${r.id}`)]));
    const current = (rec) => this.versions.get(`${rec.kind}/${rec.id}`) === checked.get(`${rec.kind}/${rec.id}`);
    const reply = await this.engine.call("store.check", { records });
    if (!reply.ok) { notify(`Saved data could not be checked: ${reply.error.message}`); return; }
    const { kept, set_aside: found, newer } = reply.result;
    for (const rec of kept) if (current(rec)) put(this.data[rec.kind], rec.data);
    // A game a newer app saved in a newer game format: read-only here, as a newer record is.
    for (const key of newer) {
      const rec = records.find((r) => `${r.kind}/${r.id}` === key);
      if (rec && current(rec)) this.newer.set(key, { kind: rec.kind, id: rec.id, v: this.versions.get(key), format: rec.format, data: rec.data });
    }
    if (newer.length) this.dispatchEvent(new CustomEvent("change", { detail: { newer: true } }));
    const bad = found.filter(current);
    if (!bad.length) return;
    for (const item of bad) this.data[item.kind] = this.data[item.kind].filter((x) => String(x.id) !== item.id);
    let failure = null;
    const entries = bad.map((item) => ({ kind: item.kind, id: item.id, reason: item.reason, raw: item.raw, at: Date.now(), from: "check" }));
    const saved = !this.readonly && !this.failed && await this.tx([...KINDS, "aside"], "readwrite", (t) => {
      for (const entry of entries) {
        // Only the very record that was checked: a newer one saved meanwhile stays.
        const req = t.objectStore(entry.kind).get(entry.id);
        req.onsuccess = () => {
          if (req.result && req.result.v !== checked.get(`${entry.kind}/${entry.id}`)) return;
          t.objectStore("aside").add(entry);
          t.objectStore(entry.kind).delete(entry.id);
        };
      }
    }).then(() => true, (error) => { failure = error; return false; });
    if (saved) this.aside = [...(await this.readAll()).aside, ...this.damaged];
    else this.aside.push(...entries.map((e) => ({ ...e, unsaved: true })));
    if (failure) this.fail(`what could not be read cannot be set aside (${describe(failure)})`);
    notify(`${bad.length} saved item(s) could not be read and were set aside: nothing was deleted. See "Recover saved data".`);
    this.dispatchEvent(new CustomEvent("change", { detail: { aside: true } }));
  }

  // The first release kept one JSON text in localStorage: every item becomes a record, the
  // rest (unreadable text, items it had set aside) goes aside, all in one transaction.
  // The localStorage keys are left as they were.
  async migrateLegacy() {
    const keys = legacyKeys();
    const now = Date.now();
    const records = { squads: [], units: [], games: [], campaigns: [] };
    const aside = [];
    const text = localStorage.getItem(LEGACY);
    if (text !== null) {
      let store;
      try { store = JSON.parse(text); } catch { store = undefined; }
      const format = store && typeof store === "object" && !Array.isArray(store) ? store.schema_version ?? 0 : null;
      if (format === null || !Number.isInteger(format) || format < 0) {
        aside.push({ kind: "store", reason: "the saved text is not readable (cut short or edited?)", raw: text, at: now, from: LEGACY });
      } else {
        for (const kind of KINDS) {
          const items = store[kind] ?? [];
          if (!Array.isArray(items)) { aside.push({ kind, reason: "not a list", raw: items, at: now, from: LEGACY }); continue; }
          const seen = new Set();
          for (const item of items) {
            const id = item && typeof item === "object" ? item.id : undefined;
            if (typeof id !== "string" || !id || seen.has(id)) {
              aside.push({ kind, reason: seen.has(id) ? "a second item with the same id" : "it has no id", raw: item, at: now, from: LEGACY });
              continue;
            }
            seen.add(id);
            records[kind].push({ id, v: 1, format, data: item });
          }
        }
      }
    }
    for (const key of keys) {
      if (key.startsWith(`${LEGACY}.unreadable.`)) {
        aside.push({ kind: "store", reason: "the saved text was not readable (cut short or edited?)", raw: localStorage.getItem(key), at: Number(key.split(".").pop()) || now, from: key });
      }
    }
    let kept = [];
    try { kept = JSON.parse(localStorage.getItem(`${LEGACY}.aside`) ?? "[]"); } catch {
      kept = [{ kind: "store", reason: "the list of set-aside items is not readable", raw: localStorage.getItem(`${LEGACY}.aside`) }];
    }
    for (const item of Array.isArray(kept) ? kept : [kept]) {
      // {"schema_version": -1} (with empty lists) is only the mark the first release left for
      // unreadable text, which is kept whole under its own key (above).
      if (isMark(item?.raw)) continue;
      aside.push({ kind: item?.kind ?? "store", reason: item?.reason ?? "set aside", raw: item?.raw ?? item, at: now, from: `${LEGACY}.aside` });
    }
    await this.tx([...KINDS, "aside", "meta"], "readwrite", (t) => {
      for (const kind of KINDS) for (const rec of records[kind]) t.objectStore(kind).put(rec);
      for (const entry of aside) t.objectStore("aside").add(entry);
      t.objectStore("meta").put({ key: "legacy", at: now, keys });
      t.objectStore("meta").put({ key: "format", value: FORMAT });
    });
  }

  // Without IndexedDB, the first release's data is still shown (and can be exported).
  loadLegacyIntoMemory() {
    try {
      const store = JSON.parse(localStorage.getItem(LEGACY) ?? "{}");
      for (const kind of KINDS) if (Array.isArray(store?.[kind])) this.data[kind] = store[kind].filter((x) => x && typeof x === "object");
    } catch { /* the text stays in localStorage, untouched */ }
  }

  // Another tab saved a record: read it and show it here.
  async receive(message) {
    const { kind, id, v } = message ?? {};
    if (!KINDS.includes(kind)) return;
    await this.opened; // a message that comes while this tab is still reading waits for it
    if (!this.db) return;
    if ((this.versions.get(`${kind}/${id}`) ?? 0) >= v && !message.aside) return;
    try {
      await this.queue; // our own writes first
      if (message.aside) {
        this.aside = [...(await this.readAll()).aside, ...this.damaged];
      } else {
        const rec = await this.get(kind, id);
        if (rec) this.remember(kind, rec);
        else this.forget(kind, id);
      }
    } catch { return; }
    this.dispatchEvent(new CustomEvent("change", { detail: { kind, id } }));
  }

  async get(kind, id) {
    let rec;
    await this.tx([kind], "readonly", (t) => {
      const req = t.objectStore(kind).get(id);
      req.onsuccess = () => { rec = req.result; };
    });
    return this.unpackRecord(kind, rec);
  }

  // Copies: a screen edits its copy and saves it; until then (or if it is refused) the
  // store keeps what is saved.
  squad(id) { return copy(this.data.squads.find((s) => s.id === id)); }
  game(id) { return copy(this.data.games.find((g) => g.id === id)); }
  campaign(id) { return copy(this.data.campaigns.find((c) => c.id === id)); }

  // --- writing ------------------------------------------------------------------------

  // Each resolves to true once the change is durable, or false (with a message shown) if it
  // was refused (read-only, changed elsewhere) or could not be written (play then stops).
  // `base`: the version the screen's copy was read at (versionOf), when the change was computed
  // from it. Another tab's change heard meanwhile moves this tab's latest version on, not the
  // screen's copy: a change computed from an older copy is refused and said so, never written
  // over theirs.
  putSquad(squad, base) { return this.write("squads", squad.id, squad, base); }
  putGame(game, base) { return this.write("games", game.id, game, base); }
  putCampaign(campaign, base) { return this.write("campaigns", campaign.id, campaign, base); }
  removeCampaign(id) { return this.write("campaigns", id, null); }
  versionOf(kind, id) {
    const alias = this.aliases.get(`${kind}/${id}`);
    return this.versions.get(alias !== undefined ? `${kind}/${alias}` : `${kind}/${id}`) ?? 0;
  }
  putUnit(unit) { return this.write("units", unit.id, unit); }
  removeSquad(id) { return this.write("squads", id, null); }
  removeGame(id) { return this.write("games", id, null); }
  removeUnit(id) { return this.write("units", id, null); }

  write(kind, id, item, base = undefined) {
    const key = `${kind}/${id}`;
    const refused = this.refusal(key);
    if (refused) { notify(refused); return Promise.resolve(false); }
    // The screen may read it back at once (e.g. the route to a new squad); undone if refused.
    const text = item === null ? null : JSON.stringify(item);
    const data = text === null ? null : JSON.parse(text);
    if (data === null) this.data[kind] = this.data[kind].filter((x) => x.id !== id);
    else put(this.data[kind], data);
    const run = () => this.commit(kind, id, data, text, base);
    const done = working(this.queue.then(run, run));
    this.queue = done.catch(() => {});
    return done;
  }

  refusal(key) {
    if (this.failed) { this.showFailure(); return `Saving is stopped: ${this.failed}. Export your data, then reload.`; }
    if (this.readonly) return `${this.readonly} Nothing was changed.`;
    if (this.newer.has(key)) return "This item was saved by a newer version of the app: update the app to change it. Nothing was changed.";
    return null;
  }

  async commit(kind, id, data, text, read = undefined) {
    await this.opened; // versions known before anything is written
    if (this.failed || this.readonly) { notify(this.refusal(`${kind}/${id}`)); return false; }
    const key = `${kind}/${id}`;
    const alias = this.aliases.get(key);
    const latest = this.versionOf(kind, id);
    // The version this change was computed from: the screen's copy's, when it says so.
    const base = read ?? latest;
    let conflict = null;
    let v = base;
    try {
      const body = data === null ? null : await pack(text);
      await this.tx([kind], "readwrite", (t) => {
        const os = t.objectStore(kind);
        const req = os.get(alias ?? id);
        req.onsuccess = () => {
          const now = req.result;
          if ((now?.v ?? 0) !== base || latest !== base || now?.format > FORMAT) {
            conflict = { rec: now };
            t.abort();
            return;
          }
          v = base + 1;
          if (data === null) os.delete(id);
          else os.put({ id, v, format: FORMAT, ...body });
          if (alias !== undefined) os.delete(alias); // the stale copy under its old key
        };
      });
    } catch (error) {
      if (conflict) {
        // Another tab or window saved it first: theirs stays, this screen shows it.
        if (conflict.rec) this.remember(kind, await this.unpackRecord(kind, conflict.rec));
        else this.forget(kind, id);
        notify(`This ${WHAT[kind]} was changed in another tab or window, so your last change was not saved. The screen now shows the latest.`);
        this.dispatchEvent(new CustomEvent("change", { detail: { kind, id } }));
        return false;
      }
      // Kept for the export, and the screen goes back to what is really saved.
      this.unsaved.push({ kind, id, data, reason: describe(error), at: Date.now() });
      try {
        const rec = await this.get(kind, id);
        if (rec) this.remember(kind, rec);
        else this.forget(kind, id);
      } catch { /* reading failed too: the screen keeps what it had */ }
      this.fail(`the last change could not be saved (${describe(error)})`);
      this.dispatchEvent(new CustomEvent("change", { detail: { kind, id } }));
      return false;
    }
    if (data === null) this.versions.delete(key);
    else { this.versions.set(key, v); this.formats.set(key, FORMAT); }
    if (alias !== undefined) {
      this.aliases.delete(key);
      this.versions.delete(`${kind}/${alias}`);
      this.tell({ kind, id: alias, v: Number.MAX_SAFE_INTEGER });
    }
    this.tell({ kind, id, v: data === null ? base + 1 : v });
    return true;
  }

  // An entry of the aside store, or a record left in place (damaged bytes, or storage full).
  async deleteAside(entry) {
    const inPlace = entry.n === undefined && KINDS.includes(entry.kind) && entry.id;
    if ((entry.n !== undefined || inPlace) && this.db) {
      const [store, key] = inPlace ? [entry.kind, entry.id] : ["aside", entry.n];
      const ok = await this.tx([store], "readwrite", (t) => t.objectStore(store).delete(key)).then(() => true, (e) => {
        notify(`Could not delete it (${describe(e)}), so nothing was changed. Try again; if it keeps failing, reload the app.`);
        return false;
      });
      if (!ok) return false;
      this.tell({ kind: "squads", id: null, v: 0, aside: true });
    }
    this.aside = this.aside.filter((x) => x !== entry);
    this.damaged = this.damaged.filter((x) => x !== entry);
    if (inPlace) this.versions.delete(`${entry.kind}/${entry.id}`);
    return true;
  }

  async deleteNewer(key) {
    const rec = this.newer.get(key);
    if (!rec || !this.db) return false;
    const ok = await this.tx([rec.kind], "readwrite", (t) => t.objectStore(rec.kind).delete(rec.id)).then(() => true, () => false);
    if (ok) { this.forget(rec.kind, rec.id); this.tell({ kind: rec.kind, id: rec.id, v: rec.v + 1 }); }
    return ok;
  }

  // The other tabs read it again (a closed channel only means they learn it at their next write).
  tell(message) {
    try { this.channel?.postMessage(message); } catch { /* closed */ }
  }

  // --- failure --------------------------------------------------------------------------

  fail(reason) {
    this.failed ??= reason;
    this.showFailure();
  }

  // Over every screen but the recover screen, where the player can export and delete.
  showFailure() {
    const box = document.getElementById("store-failed");
    if (!box || !this.failed) return;
    box.hidden = location.hash.startsWith("#/recover");
    if (box.hidden) return;
    document.getElementById("store-failed-text").textContent =
      `Saving stopped: ${this.failed}. Nothing more will be changed. Export everything now to keep it, then free some space or reload.`;
    document.getElementById("store-failed-export").onclick = () => this.exportAll();
    document.getElementById("store-failed-reload").onclick = () => location.reload();
    document.getElementById("store-failed-export").focus();
  }

  // Everything this tab holds, saved or set aside, as one JSON file.
  everything() {
    return {
      exported: new Date().toISOString(), format: FORMAT, ...this.data,
      newer: [...this.newer.values()].map((rec) => ({ ...rec, z: plain(rec.z) })),
      set_aside: this.aside.map(({ unsaved, ...e }) => ({ ...e, raw: plain(e.raw) })), unsaved: this.unsaved,
    };
  }

  exportAll() { download(`table-companion-${new Date().toISOString().slice(0, 10)}.json`, this.everything()); }

  // --- IndexedDB ------------------------------------------------------------------------

  tx(stores, mode, work) {
    return new Promise((resolve, reject) => {
      let t;
      try {
        t = this.db.transaction(stores, mode, { durability: mode === "readwrite" ? "strict" : "default" });
      } catch (error) { reject(error); return; }
      t.oncomplete = () => resolve();
      t.onerror = (event) => { event.preventDefault?.(); };
      t.onabort = () => reject(t.error ?? new DOMException("the save was cancelled", "AbortError"));
      try { work(t); } catch (error) { try { t.abort(); } catch { /* already over */ } reject(error); }
    });
  }
}

// Opened without a version, so that a database a newer app made still opens (read-only).
// A database that lacks some of our stores (made by hand, or cut short) gets them added.
function openDb(version = undefined) {
  return new Promise((resolve, reject) => {
    const req = version ? indexedDB.open(DB_NAME, version) : indexedDB.open(DB_NAME);
    req.onupgradeneeded = () => {
      const db = req.result;
      for (const kind of KINDS) if (!db.objectStoreNames.contains(kind)) db.createObjectStore(kind, { keyPath: "id" });
      if (!db.objectStoreNames.contains("aside")) db.createObjectStore("aside", { keyPath: "n", autoIncrement: true });
      if (!db.objectStoreNames.contains("meta")) db.createObjectStore("meta", { keyPath: "key" });
    };
    req.onsuccess = () => {
      const db = req.result;
      const missing = [...KINDS, "aside", "meta"].filter((n) => !db.objectStoreNames.contains(n));
      // An older database (version 1 had no campaigns) is brought to this app's version, adding
      // the stores it lacks; a newer one (a higher version) is read as it is, never changed.
      if (!missing.length && (version || db.version >= DB_VERSION)) { resolve(db); return; }
      db.close();
      // A newer app's database is never changed, even to add what this one needs.
      if (db.version > DB_VERSION) reject(new Error(`a newer version of the app keeps it in another shape (version ${db.version})`));
      else if (version) reject(new Error(`the database lacks ${missing.join(", ")}`));
      else openDb(Math.max(DB_VERSION, db.version + 1)).then(resolve, reject);
    };
    req.onerror = () => reject(req.error);
    req.onblocked = () => reject(new Error("another tab holds an older version of the app open: close it"));
  });
}

// The saved form: JSON, raw-deflated when that makes it smaller (as share links are): a long
// game's log repeats itself, so a game of 1 MB of JSON is saved in a few kB.
const PACK_FROM = 1024;

async function pack(text) {
  if (text.length < PACK_FROM || typeof CompressionStream !== "function") return { data: JSON.parse(text) };
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  return { z: new Uint8Array(await new Response(stream).arrayBuffer()), n: text.length };
}

async function unpack(z) {
  const stream = new Blob([z]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return JSON.parse(await new Response(stream).text());
}

function isMark(raw) {
  return Boolean(raw) && typeof raw === "object" && raw.schema_version === -1 &&
    Object.entries(raw).every(([k, v]) => k === "schema_version" || (Array.isArray(v) && !v.length));
}

function legacyKeys() {
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key === LEGACY || key.startsWith(`${LEGACY}.`)) out.push(key);
    }
  } catch { /* no localStorage: nothing to bring over */ }
  return out;
}

function describe(error) {
  if (error?.name === "QuotaExceededError") return "the storage on this device is full";
  return error?.message || error?.name || String(error);
}

// Damaged compressed bytes, as text that survives an export (base64).
export function plain(raw) {
  if (!(raw instanceof Uint8Array)) return raw;
  let text = "";
  for (let i = 0; i < raw.length; i += 8192) text += String.fromCharCode(...raw.subarray(i, i + 8192));
  return { base64: btoa(text) };
}

export function whatIs(kind) { return WHAT[kind] ?? kind; }

export function download(name, data) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 1)], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name.replace(/[^\w.-]+/g, "_");
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function copy(item) {
  return item === undefined ? undefined : structuredClone(item);
}

function put(list, item) {
  const at = list.findIndex((x) => x.id === item.id);
  if (at >= 0) list[at] = item;
  else list.push(item);
}

// A seed for a roll by the app: the engine rolls from it, the same again if it has to ask a pick.
export function newSeed() {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}

export function newId(prefix) {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return prefix + Array.from(bytes, (b) => b.toString(36).padStart(2, "0")).join("").slice(0, 10);
}

// Squads' names as lists and pickers show them: two squads of one name are told apart
// ("GUNFRAME squad 1 (1 of 2)", "GUNFRAME squad 1 (2 of 2)"), a unique name is shown as it is.
export function squadLabels(squads) {
  const total = new Map();
  for (const q of squads) total.set(q.name, (total.get(q.name) ?? 0) + 1);
  const seen = new Map();
  const out = new Map();
  for (const q of squads) {
    const n = total.get(q.name);
    const k = (seen.get(q.name) ?? 0) + 1;
    seen.set(q.name, k);
    out.set(q.id, n > 1 ? `${q.name} (${k} of ${n})` : q.name);
  }
  return out;
}
