// #/open/<token>: a squad or game from a share link. Nothing is saved until the player
// says so, and a damaged link only produces a message: what is saved stays as it was.
import { el, clear, button } from "./dom.js";
import { newId } from "./store.js";
import { profileText } from "./squads-view.js";

export async function openShared(root, engine, store, systems, token) {
  clear(root);
  root.append(el("h1", {}, "Shared link"), el("p", { class: "muted" }, "Opening…"));
  await store.ready;
  const reply = await engine.call("share.decode", { token });
  clear(root);
  root.append(el("h1", {}, "Shared link"));
  if (!reply.ok) {
    root.append(el("p", { class: "error", id: "open-error", role: "alert" }, reply.error.message),
      el("p", {}, "Nothing was changed in your saved squads and games."), el("a", { href: "#/", class: "button" }, "Home"));
    return;
  }
  const shared = reply.result;
  if (shared.kind === "game") {
    const game = shared.game;
    root.append(el("p", {}, `A game of ${systems.name(game.system)}: ${game.sides.map((s) => s.name).join(" vs ")}, round ${game.round}.`),
      el("div", { class: "actions" }, button("Open this game", () => {
        const copy = { ...game, id: store.game(game.id) ? newId("g") : game.id };
        store.putGame(copy);
        location.hash = `#/game/${copy.id}`;
      }, { class: "primary", id: "open-game" })));
    return;
  }
  const squad = shared.squad;
  const check = await engine.call("squad.check", { squad });
  const report = check.ok ? check.result : null;
  const list = el("ul", { class: "list", id: "shared-units" });
  for (const unit of squad.units) {
    const r = report?.units.find((u) => u.key === unit.key);
    list.append(el("li", { class: "card" }, el("div", { class: "card-head" }, el("strong", {}, r?.name ?? unit.key),
      el("span", {}, r?.cost != null ? `${r.cost} pts` : "")), el("small", {}, profileText(unit.profile))));
  }
  const save = () => { const copy = { ...squad, id: newId("s") }; store.putSquad(copy); return copy; };
  root.append(
    el("h2", { id: "shared-name" }, squad.name),
    el("p", {}, `${systems.name(squad.system)} · ${report ? report.total : "?"} points${report && !report.legal ? " · breaks some rules" : ""}`),
    list,
    el("div", { class: "actions" },
      button("Save to my squads", () => { const copy = save(); location.hash = `#/squad/${copy.id}`; }, { class: "primary", id: "save-shared" }),
      button("Play against it", () => { const copy = save(); location.hash = `#/games/new/${copy.id}`; }, { id: "play-shared" })),
  );
}
