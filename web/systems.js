// What the engine says about each rule system (formats, catalogue, actions), fetched
// once per system. Names for the shell come from the page itself, before Python runs.
import { notify } from "./dom.js";

export class Systems {
  constructor(engine) {
    this.engine = engine;
    this.cache = new Map();
    this.names = Object.fromEntries([...document.querySelectorAll("[data-system]")]
      .map((node) => [node.dataset.system, node.querySelector("strong").textContent]));
  }

  name(id) { return this.names[id] ?? id; }

  async playable() {
    const reply = await this.engine.call("meta");
    return reply.ok ? reply.result.systems.filter((s) => s.status === "playable") : [];
  }

  async describe(id) {
    if (!this.cache.has(id)) {
      const reply = await this.engine.call("system.describe", { system: id });
      if (!reply.ok) { notify(reply.error.message); return null; }
      this.cache.set(id, reply.result);
    }
    return this.cache.get(id);
  }
}
