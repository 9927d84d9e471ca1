// The page's side of the engine: starts the worker, reports its progress, and turns
// core.api calls into promises. Every call is `call(op, args)` -> reply object.
// If the engine dies on a request (a fatal error inside Pyodide) or stops answering, the
// worker is replaced by a fresh one and the call is answered with an error in words:
// no call waits for ever.
//
// A worker restored from a memory snapshot that dies (while restoring, or at any time after)
// blames the snapshot: it is dropped before the next worker starts, which then starts normally.
// A snapshot that passes its checksum but is bad cannot kill the engine for good.
//
// Two priorities (issue 26). A player's call (a tap's change, the sheet's own odds) is sent to the
// worker at once, in the order it was made: the worker answers in that order. A background call
// (`call(op, args, { background: group })`: the odds on each choice button, the views of a rolled
// result before Apply) waits on the page and is sent only when the worker has nothing else to do,
// one at a time, so a tap waits behind one background call at most, never behind a queue of them.
// `drop(group)` answers the group's calls not sent yet with a "skipped" reply (a newer tap made
// them moot); a call already sent is answered as usual. A player's call is never dropped.
import { BUILD_ID } from "./build-info.js";
import { dropStored, readStored, snapshotKey } from "./snapshot.js";

const RESTARTS_ALLOWED = 3;
// A restore from a snapshot takes a few seconds; one still not done after this long is taken as
// hung (a bad snapshot can hang it) and blamed like a worker that died.
const RESTORE_PATIENCE_MS = 30000;

export class Engine extends EventTarget {
  constructor(url = "./engine.js") {
    super();
    this.url = url;
    this.pending = new Map();
    this.nextId = 1;
    this.state = "idle";
    this.marks = null;
    // What the engine said of its memory snapshot after a normal start: {stored, message?, ...}.
    this.snapshot = null;
    this.queue = [];
    // Background calls not sent yet, oldest first: {id, message, group}; and how many calls the
    // worker holds (sent, not answered).
    this.later = [];
    this.sent = 0;
    this.restarts = 0;
    // How long a ready engine may stay silent while calls wait before it is given up as hung
    // (the time since the last reply, so calls queued behind a slow one are not counted twice).
    this.patience = 30000;
    this.timer = null;
  }

  // Started by the app once the service worker controls the page (so the runtime is
  // downloaded once); calls made before that wait in a queue.
  start() {
    if (this.worker) return;
    this.startedAt = performance.now();
    this.worker = new Worker(this.url, { type: "module" });
    this.setState("loading", { stage: this.restarts ? "restart" : "runtime" });
    this.worker.onmessage = ({ data }) => this.receive(data);
    this.worker.onerror = (event) => {
      if (this.state === "ready" || this.snapshot) this.restart("the engine stopped");
      else this.setState("failed", { message: event.message || "the engine could not start" });
    };
    for (const message of this.queue.splice(0)) this.post(message);
    this.pump();
  }

  post(message) {
    this.sent += 1;
    this.worker.postMessage(message);
  }

  // The oldest background call goes to the worker when it holds nothing else.
  pump() {
    if (!this.worker || this.sent > 0 || this.queue.length || !this.later.length) return;
    this.post(this.later.shift().message);
  }

  // The background calls of `group` (every group without one) not sent yet are answered "skipped".
  drop(group) {
    const kept = [];
    for (const call of this.later) {
      if (group !== undefined && call.group !== group) { kept.push(call); continue; }
      const resolve = this.pending.get(call.id);
      this.pending.delete(call.id);
      resolve?.({ ok: false, skipped: true, error: { code: "skipped", message: "A newer tap made this moot.", problems: [] } });
    }
    this.later = kept;
    this.mark();
    this.watch();
  }

  setState(state, detail = {}) {
    this.state = state;
    if (state === "failed") {
      // Nothing waits for ever on a dead engine: every pending call gets an error reply.
      this.answerAll(`The engine could not start: ${detail.message ?? "unknown error"}`);
      this.queue = [];
    }
    if (state === "ready") this.watch();
    this.dispatchEvent(new CustomEvent("state", { detail: { state, ...detail } }));
  }

  answerAll(message) {
    clearTimeout(this.timer);
    this.timer = null;
    for (const resolve of this.pending.values()) resolve({ ok: false, error: { code: "internal", message, problems: [] } });
    this.pending.clear();
    this.later = [];
    this.sent = 0;
    this.mark();
  }

  // A dead or hung worker is replaced; the calls it held are answered with `why`.
  restart(why) {
    this.worker?.terminate();
    this.worker = null;
    this.answerAll(`${why}, so it was restarted: nothing was changed. Try again, or go back.`);
    if (this.restarts >= RESTARTS_ALLOWED) {
      this.setState("failed", { message: `${why} ${this.restarts + 1} times` });
      return;
    }
    this.restarts += 1;
    this.dispatchEvent(new CustomEvent("restart", { detail: { why, restarts: this.restarts } }));
    if (!this.snapshot) { this.start(); return; }
    // It came from a snapshot: the snapshot is dropped first, so the next worker starts normally.
    this.snapshot = false;
    this.blamed = why;
    this.setState("loading", { stage: "restart" });
    forgetSnapshot(why).finally(() => this.start());
  }

  // (Re)starts the silence timer while calls wait on a ready engine; stops it when none do.
  watch() {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.state === "ready" && this.pending.size) {
      this.timer = setTimeout(() => this.restart("The engine stopped answering"), this.patience);
    }
  }

  receive(data) {
    if (data.type === "progress" && data.snapshot) {
      this.snapshot = true;
      clearTimeout(this.restoreTimer);
      this.restoreTimer = setTimeout(() => {
        if (this.snapshot && this.state === "loading") this.restart("The engine did not start from its saved copy");
      }, RESTORE_PATIENCE_MS);
    }
    if (data.type === "progress") this.setState("loading", { ...data, stage: this.restarts && data.stage === "runtime" ? "restart" : data.stage });
    else if (data.type === "ready") {
      clearTimeout(this.restoreTimer);
      this.snapshot = data.marks?.start === "snapshot";
      this.marks = { ...data.marks, page_ready: performance.now(), ...(this.blamed ? { snapshot_blamed: this.blamed } : {}) };
      this.setState("ready", data);
    } else if (data.type === "failed") this.setState("failed", data);
    else if (data.type === "snapshot") this.snapshot = data;
    else if (data.type === "reply") {
      const resolve = this.pending.get(data.id);
      this.pending.delete(data.id);
      this.sent = Math.max(0, this.sent - 1);
      this.mark();
      if (!data.fatal) this.watch();
      if (resolve) {
        let reply;
        try {
          reply = JSON.parse(data.reply);
        } catch {
          reply = { ok: false, error: { code: "internal", message: "The engine gave an answer that could not be read.", problems: [] } };
        }
        resolve(reply);
      }
      if (data.fatal) this.restart("The engine failed on that request");
      // After the player's promise callbacks ran (a tap's next call is sent first), a waiting
      // background call may go.
      else setTimeout(() => this.pump(), 0);
    }
  }

  // How many calls wait for an answer, on the page's root (data-engine-busy): tests wait for 0.
  mark() { document.documentElement.dataset.engineBusy = String(this.pending.size); }

  // `background`: a group name for a call that may wait and be dropped (see the top of this file);
  // `first`: it goes before the other background calls waiting.
  call(op, args = {}, { background = null, first = false } = {}) {
    const id = this.nextId++;
    return new Promise((resolve) => {
      let message;
      try {
        message = { id, request: JSON.stringify({ op, args }) };
      } catch {
        resolve({ ok: false, error: { code: "bad_request", message: "This cannot be sent to the engine.", problems: [] } });
        return;
      }
      if (this.state === "failed") {
        resolve({ ok: false, error: { code: "internal", message: "The engine is not running: reload the page.", problems: [] } });
        return;
      }
      this.pending.set(id, resolve);
      this.mark();
      if (!this.timer) this.watch();
      if (background !== null) {
        this.later[first ? "unshift" : "push"]({ id, message, group: background });
        this.pump();
      }
      else if (this.worker) this.post(message);
      else this.queue.push(message);
    });
  }
}

// Drop this build's stored snapshot after a worker restored from it died, counting the failure
// (snapshot.js: a build whose snapshot failed MAX_FAILURES times makes no more in this browser).
async function forgetSnapshot(why) {
  try {
    const key = snapshotKey(BUILD_ID);
    const stored = await readStored();
    const failures = (stored?.key === key ? stored.failures ?? 0 : 0) + 1;
    await dropStored(key, `the engine died after starting from it (${why})`, failures);
  } catch { /* no IndexedDB here: the next worker has no snapshot to restore either */ }
}
