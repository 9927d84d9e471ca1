// #/open/<token>: a squad or game from a share link. Nothing is saved until the player
// says so, and a damaged link only produces a message: what is saved stays as it was.
import { el, clear, button, notify } from "./dom.js";
import { tokenBox } from "./share-box.js";
import { newId, newSeed } from "./store.js";
import { profileText } from "./squads-view.js";
import { cardElement } from "./unit-card.js";

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
  if (shared.kind === "request") { await pickHere(root, engine, shared.request); return; }
  if (shared.kind === "answer") { await applyAnswer(root, engine, store, shared.answer); return; }
  if (shared.kind === "game") {
    const game = shared.game;
    root.append(el("p", {}, `A game of ${systems.name(game.system)}: ${game.sides.map((s) => s.name).join(" vs ")}, round ${game.round}.`),
      el("div", { class: "actions" }, button("Open this game", async () => {
        const copy = { ...game, id: store.game(game.id) ? newId("g") : game.id };
        if (!(await store.putGame(copy))) return;
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
      el("span", {}, r?.cost != null ? `${r.cost} pts` : "")),
      r?.card ? el("details", { class: "profile" }, el("summary", {}, "Card"), cardElement(r.card)) : el("small", {}, profileText(unit.profile))));
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

// A request from the table's phone: this player's secret choices, made here. Nothing is
// saved on this phone; the picks go back as an answer link (core/remote.py).
async function pickHere(root, engine, request) {
  root.append(el("h2", { id: "remote-title" }, `${request.side_name}: your choices in ${request.game_name}`),
    el("p", { class: "muted" }, "Only you see these. Pick, then show the answer code to the table's phone."));
  const picked = request.picks.map(() => new Set());
  request.picks.forEach((pick, i) => {
    const bind = pick.section.bind;
    const list = el("ul", { class: "items" });
    for (const item of pick.section.items) {
      const tick = el("input", { type: "checkbox", value: item.id, "data-pick": String(i), "aria-label": item.label });
      tick.addEventListener("change", () => { if (tick.checked) picked[i].add(item.id); else picked[i].delete(item.id); });
      list.append(el("li", {}, el("label", {}, tick, el("b", {}, item.label), ` (${item.id})`, item.detail ? el("small", {}, ` ${item.detail}`) : "")));
    }
    root.append(el("section", { class: "holding" }, el("h3", {}, `${pick.unit_name}: ${pick.section.title}`),
      el("p", {}, bind.count ? `${bind.label}: pick ${bind.count}.` : bind.label), list));
  });
  const out = el("div", { id: "remote-answer" });
  root.append(el("div", { class: "actions" }, button("Done: make the answer code", async () => {
    const chosen = picked.map((set, i) => ({ pick: i, items: [...set] }));
    const reply = await engine.call("remote.answer", { request, chosen });
    clear(out);
    if (!reply.ok) { out.append(el("p", { class: "error", role: "alert" }, reply.error.message)); return; }
    out.append(el("p", {}, "Scan this with the table's phone (or send it the link)."),
      await tokenBox(engine, reply.result.token, "Your answer", "answer"));
  }, { class: "primary", id: "make-answer" })), out);
}

// An answer coming back to the table's phone: applied to the saved game it answers, or
// refused with a message, the game untouched.
async function applyAnswer(root, engine, store, answer) {
  const game = store.game(answer.game);
  const fail = (message) => root.append(el("p", { class: "error", id: "open-error", role: "alert" }, message),
    el("p", {}, "Nothing was changed in your saved games."), el("a", { href: "#/games", class: "button" }, "Games"));
  if (!game) { fail("This answer belongs to a game that is not on this phone."); return; }
  const reply = await engine.call("remote.apply", { game, answer, seed: newSeed() });
  if (!reply.ok) { fail(reply.error.message); return; }
  if (!(await store.putGame(reply.result))) return;
  location.hash = `#/game/${game.id}`;
  notify(`${game.sides[answer.side]?.name ?? "The other player"} has chosen; the cards stay face down.`);
}
