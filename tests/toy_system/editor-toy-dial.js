// The toy system's own editor kind, "toy-dial" (a test site only): a name and a points budget,
// which the system's "suggest" tool turns into a unit. The shell finds it as editor-toy-dial.js
// because the toy system names this kind (system.describe: editor.kind); no rule lives here.
import { el, clear, button } from "./dom.js";

export async function openEditor(root, { engine, store, squad, key, info, nextKey }) {
  clear(root);
  const { tools, data } = info.editor;
  const entry = squad.units.find((u) => u.key === key);
  const name = el("input", { id: "toy-name", value: entry?.profile.name ?? data.default_name, "aria-label": "Name" });
  const points = el("input", { id: "toy-points", type: "number", inputmode: "numeric", value: String(data.default_points), "aria-label": "Points" });
  const shown = el("p", { id: "toy-unit", "aria-live": "polite" });
  let suggestion = null;
  const ask = async () => {
    const reply = await engine.call("system.tool", { system: squad.system, tool: tools.suggest, args: { name: name.value, points: Number(points.value) } });
    suggestion = reply.ok ? reply.result : null;
    shown.className = reply.ok ? "" : "error";
    shown.textContent = reply.ok ? reply.result.text : reply.error.message;
  };
  name.addEventListener("input", ask);
  points.addEventListener("input", ask);
  const save = button("Save to squad", async () => {
    await ask();
    if (!suggestion) return;
    if (entry) entry.profile = suggestion.profile;
    else squad.units.push({ key: nextKey(squad), profile: suggestion.profile, origin: "own" });
    store.putSquad(squad);
    location.hash = `#/squad/${squad.id}`;
  }, { class: "primary", id: "toy-save" });
  root.append(el("h1", {}, "Dial a unit"), el("label", {}, "Name ", name), el("label", {}, "Points ", points), shown,
    el("div", { class: "actions" }, save, el("a", { href: `#/squad/${squad.id}`, class: "button" }, "Cancel")));
  await ask();
}
