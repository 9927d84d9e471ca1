// #/recover: everything the app could not use as it is, kept for the player: items and whole
// stores that could not be read, and data saved by a newer version of the app (read-only
// here). Each can be looked at, exported as a file, or deleted (only when the player says so).
import { el, clear, button } from "./dom.js";
import { download, plain, whatIs } from "./store.js";

export async function recoverView(root, store) {
  clear(root);
  root.append(el("h1", {}, "Recover saved data"), el("p", { class: "muted" }, "Checking saved data…"));
  await store.opened;
  await Promise.race([store.ready, new Promise((resolve) => setTimeout(resolve, 3000))]);
  draw(root, store);
}

function draw(root, store) {
  clear(root);
  const state = [];
  if (store.failed) state.push(el("p", { class: "error", id: "recover-failed" }, `Saving is stopped: ${store.failed}.`));
  if (store.readonly) state.push(el("p", { class: "error", id: "recover-readonly" }, store.readonly));
  const counts = ["squads", "units", "games"].map((k) => `${store.data[k].length} ${whatIs(k)}${store.data[k].length === 1 ? "" : "s"}`).join(", ");
  root.append(
    el("h1", {}, "Recover saved data"),
    ...state,
    el("p", { id: "recover-summary" }, `Saved here: ${counts}. ${store.persisted ? "The browser keeps this data even when space runs low." : "The browser may clear this data when space runs low: export it now and then."}`),
    el("div", { class: "actions" }, button("Export everything", () => store.exportAll(), { class: "primary", id: "export-all" })),
  );

  const items = [
    ...store.aside.map((entry) => ({
      entry,
      title: `${whatIs(entry.kind)}${entry.id ? ` ${entry.id}` : ""}${nameOf(entry.raw)}`,
      why: `Could not be read: ${entry.reason}.${entry.inPlace ? " It is left where it was." : entry.unsaved ? " (Storage is full: it is still in its old place.)" : ""}`,
      when: entry.at,
      raw: plain(entry.raw),
      remove: () => store.deleteAside(entry),
    })),
    ...[...store.newer.entries()].map(([key, rec]) => ({
      entry: rec,
      title: `${whatIs(rec.kind)} ${rec.id}${nameOf(rec.data)}`,
      why: "Saved by a newer version of the app: read-only until the app is updated.",
      raw: rec.data,
      remove: () => store.deleteNewer(key),
    })),
  ];
  root.append(el("h2", {}, "Set aside"));
  if (!items.length) {
    root.append(el("p", { class: "muted", id: "recover-none" }, "Nothing was set aside: every saved item could be read."));
    return;
  }
  const list = el("ul", { class: "list", id: "recover-list" });
  items.forEach((item, i) => {
    const text = typeof item.raw === "string" ? item.raw : JSON.stringify(item.raw, null, 1);
    const shown = el("pre", { class: "raw", hidden: "" }, text);
    list.append(el("li", { class: "card recover-item", "data-kind": item.entry.kind },
      el("strong", {}, item.title),
      el("p", {}, item.why),
      el("small", {}, `${item.when ? `${new Date(item.when).toLocaleString()} · ` : ""}${text.length.toLocaleString()} characters`),
      el("div", { class: "actions" },
        button("View", () => { shown.hidden = !shown.hidden; }, { class: "small", "data-do": "view" }),
        button("Export", () => download(`set-aside-${item.entry.kind}-${i + 1}.json`, item.raw), { class: "small", "data-do": "export" }),
        button("Delete", async () => {
          if (!confirm(`Delete this ${whatIs(item.entry.kind)} for good? Export it first if in doubt.`)) return;
          if (await item.remove()) draw(root, store);
        }, { class: "small danger", "data-do": "delete" })),
      shown));
  });
  root.append(list);
}

function nameOf(raw) {
  return raw && typeof raw === "object" && typeof raw.name === "string" ? `: ${raw.name}` : "";
}
