// The page's side of the engine: starts the worker, reports its progress, and turns
// core.api calls into promises. Every call is `call(op, args)` -> reply object.
export class Engine extends EventTarget {
  constructor(url = "./engine.js") {
    super();
    this.url = url;
    this.pending = new Map();
    this.nextId = 1;
    this.state = "idle";
    this.marks = null;
    this.queue = [];
  }

  // Started by the app once the service worker controls the page (so the runtime is
  // downloaded once); calls made before that wait in a queue.
  start() {
    if (this.worker) return;
    this.startedAt = performance.now();
    this.worker = new Worker(this.url, { type: "module" });
    this.setState("loading", { stage: "runtime" });
    this.worker.onmessage = ({ data }) => this.receive(data);
    this.worker.onerror = (event) => this.setState("failed", { message: event.message || "the engine could not start" });
    for (const message of this.queue.splice(0)) this.worker.postMessage(message);
  }

  setState(state, detail = {}) {
    this.state = state;
    if (state === "failed") {
      // Nothing waits for ever on a dead engine: every pending call gets an error reply.
      const reply = { ok: false, error: { code: "internal", message: `The engine could not start: ${detail.message ?? "unknown error"}`, problems: [] } };
      for (const resolve of this.pending.values()) resolve(reply);
      this.pending.clear();
      this.queue = [];
    }
    this.dispatchEvent(new CustomEvent("state", { detail: { state, ...detail } }));
  }

  receive(data) {
    if (data.type === "progress") this.setState("loading", data);
    else if (data.type === "ready") {
      this.marks = { ...data.marks, page_ready: performance.now() };
      this.setState("ready", data);
    } else if (data.type === "failed") this.setState("failed", data);
    else if (data.type === "reply") {
      const resolve = this.pending.get(data.id);
      this.pending.delete(data.id);
      if (resolve) resolve(JSON.parse(data.reply));
    }
  }

  call(op, args = {}) {
    const id = this.nextId++;
    const message = { id, request: JSON.stringify({ op, args }) };
    return new Promise((resolve) => {
      if (this.state === "failed") {
        resolve({ ok: false, error: { code: "internal", message: "The engine is not running: reload the page.", problems: [] } });
        return;
      }
      this.pending.set(id, resolve);
      if (this.worker) this.worker.postMessage(message);
      else this.queue.push(message);
    });
  }
}
