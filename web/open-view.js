// #/open/<token>: a squad or game from a share link. Nothing is saved until the player
// says so, and a damaged link only produces a message: what is saved stays as it was.
import { el, clear, button, notify, bdi, hashFor } from "./dom.js";
import { tokenBox } from "./share-box.js";
import { openCampaign } from "./campaign-view.js";
import { newId, newSeed } from "./store.js";
import { profileText, words } from "./squads-view.js";
import { cardElement } from "./unit-card.js";

const SAFE_ID = /^[A-Za-z0-9_-]{1,40}$/;

export async function openShared(root, engine, store, systems, token) {
  clear(root);
  const opening = el("p", { class: "muted" }, "Opening…");
  root.append(el("h1", {}, "Shared link"), opening);
  // On a first visit the engine takes seconds to start: the squad's name and size are read from
  // the link meanwhile, as a preview only (nothing is saved or offered until the engine has
  // checked the whole link, which may still refuse it).
  peek(token).then((squad) => {
    const system = squad && systems.names[squad.system];
    if (!system || !opening.isConnected) return;
    opening.replaceWith(el("div", { id: "shared-preview" },
      el("h2", {}, bdi(squad.name)),
      el("p", {}, `${system} · ${squad.units} unit${squad.units === 1 ? "" : "s"}`),
      el("p", { class: "muted" }, "Checking the link… (the rules engine is starting)")));
  });
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
  // Names longer than the app keeps were shortened to open the link: say so.
  for (const note of shared.notes ?? []) root.append(el("p", { class: "muted", "data-note": "shortened" }, note));
  if (shared.kind === "request") { await pickHere(root, engine, shared.request); return; }
  if (shared.kind === "answer") { await applyAnswer(root, engine, store, shared.answer); return; }
  if (shared.kind === "campaign" || shared.kind === "result") { await openCampaign(root, engine, store, shared); return; }
  if (shared.kind === "game") {
    const game = shared.game;
    const names = game.sides.flatMap((s, i) => (i ? [" vs ", bdi(s.name)] : [bdi(s.name)]));
    root.append(el("p", {}, `A game of ${systems.name(game.system)}: `, ...names, `, round ${game.round}.`),
      el("div", { class: "actions" }, button("Open this game", async () => {
        // A new id if this phone has the game already, or if the link's id is not one the app makes.
        const fresh = store.game(game.id) || !SAFE_ID.test(game.id);
        const copy = { ...game, id: fresh ? newId("g") : game.id };
        if (!(await store.putGame(copy))) return;
        location.hash = hashFor("game", copy.id);
      }, { class: "primary", id: "open-game" })));
    return;
  }
  const squad = shared.squad;
  const check = await engine.call("squad.check", { squad });
  const report = check.ok ? check.result : null;
  // A unit's value in the book's word (the system's editor names it: "pts", "PV").
  const said = words(await systems.describe(squad.system));
  const list = el("ul", { class: "list", id: "shared-units" });
  for (const unit of squad.units) {
    const r = report?.units.find((u) => u.key === unit.key);
    // A unit that breaks a building rule (a book unit as printed) says why beside it.
    list.append(el("li", { class: "card", "data-key": unit.key }, el("div", { class: "card-head" }, el("strong", {}, bdi(r?.name ?? unit.key)),
      el("span", {}, r?.cost != null ? `${r.cost} ${said.cost_short}` : "")),
      r?.violations.length ? el("p", { class: "unit-note" }, r.violations.map((v) => v.message).join("; ")) : "",
      r?.card ? el("details", { class: "profile" }, el("summary", {}, "Card"), cardElement(r.card)) : el("small", {}, profileText(unit.profile))));
  }
  const save = () => { const copy = { ...squad, id: newId("s") }; store.putSquad(copy); return copy; };
  // "Play against it": which of my squads of this system plays it? Then straight into the game.
  const chooser = el("div", { id: "play-with" });
  const chooseMine = async () => {
    const mine = store.data.squads.filter((q) => q.system === squad.system);
    clear(chooser);
    const start = async (own) => {
      const opponent = save();
      const reply = await engine.call("game.new", { id: newId("g"), name: `${own.name} vs ${opponent.name}`,
        sides: [{ name: "Me", squad: own }, { name: "Opponent", squad: opponent }] });
      if (!reply.ok) { notify(reply.error.message); return; }
      await store.putGame(reply.result);
      location.hash = `#/game/${reply.result.id}`;
    };
    const later = el("div", { class: "actions" }, button("Choose on the new game screen", () => { const copy = save(); location.hash = `#/games/new/${copy.id}`; },
      { id: "play-choose-later" }));
    if (mine.length) {
      chooser.append(el("h3", {}, "Which of your squads plays it?"),
        el("div", { class: "list" }, ...mine.map((own) => button(own.name, () => start(own), { class: "primary", "data-mine": own.id }))), later);
    } else {
      // No squad of this system here: the system's ready-made forces play it, or a squad built
      // now from the book's units; never the shared squad against itself.
      const info = await systems.describe(squad.system);
      const byId = Object.fromEntries((info?.catalogue ?? []).map((u) => [u.id, u]));
      const forces = (info?.sample_forces ?? []).filter((f) => f.units.every((id) => byId[id]));
      const ready = (f) => ({ id: newId("s"), name: f.name, system: squad.system, limit: null,
        units: f.units.map((id, i) => ({ key: `u${i + 1}`, profile: byId[id].profile, origin: `catalogue:${id}` })) });
      const build = button("Build my squad from the book's units", async () => {
        save();
        const own = { id: newId("s"), name: `My ${systems.name(squad.system)} squad`, system: squad.system, limit: null, units: [] };
        if (!(await store.putSquad(own))) return;
        location.hash = `#/squad/${own.id}`;
      }, { id: "play-build-own", class: forces.length ? "" : "primary" });
      chooser.append(el("h3", {}, "You have no squad of this system yet. Who plays it?"),
        el("div", { class: "list" }, ...forces.map((f) => button(`Ready-made: ${f.name}`, () => start(ready(f)), { class: "primary", "data-force": f.name }))),
        el("div", { class: "actions" }, build), later);
    }
    chooser.scrollIntoView({ block: "nearest" });
  };
  root.append(
    el("h2", { id: "shared-name" }, bdi(squad.name)),
    el("p", {}, `${systems.name(squad.system)} · ${report ? report.total : "?"} ${said.cost_word}`),
    report?.violations.length ? el("p", { class: "unit-note", id: "shared-squad-notes" }, report.violations.map((v) => v.message).join("; ")) : "",
    list,
    el("div", { class: "actions" },
      button("Save to my squads", () => { const copy = save(); location.hash = hashFor("squad", copy.id); }, { class: "primary", id: "save-shared" }),
      button("Play against it", () => chooseMine(), { id: "play-shared" })),
    chooser,
  );
}

// The envelope of a squad's link (core/share.py: format byte, CRC-32, raw-deflated JSON in
// base64url), read in the page for the preview alone: its name, system and number of units, or
// null for anything else or anything odd. The engine decodes and checks the link itself.
const TOKEN_FORMAT = 1;
const PEEK_MAX = 2_000_000;
async function peek(token) {
  try {
    if (typeof DecompressionStream !== "function" || token.length > 4 * PEEK_MAX) return null;
    const text = atob(token.replace(/-/g, "+").replace(/_/g, "/"));
    if (text.charCodeAt(0) !== TOKEN_FORMAT || text.length < 6) return null;
    const body = Uint8Array.from(text.slice(5), (c) => c.charCodeAt(0));
    const reader = new Blob([body]).stream().pipeThrough(new DecompressionStream("deflate-raw")).getReader();
    const parts = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > PEEK_MAX) { reader.cancel(); return null; }
      parts.push(value);
    }
    const raw = new Uint8Array(await new Blob(parts).arrayBuffer());
    const crc = ((text.charCodeAt(1) << 24) | (text.charCodeAt(2) << 16) | (text.charCodeAt(3) << 8) | text.charCodeAt(4)) >>> 0;
    if (crc32(raw) !== crc) return null;
    const payload = JSON.parse(new TextDecoder().decode(raw));
    const data = payload?.d;
    if (payload?.k !== "squad" || typeof payload.s !== "string" || typeof data?.n !== "string" || !Array.isArray(data.u)) return null;
    const name = data.n.length > 80 ? `${data.n.slice(0, 79)}…` : data.n;
    return { name, system: payload.s, units: data.u.length };
  } catch {
    return null;
  }
}

function crc32(bytes) {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

// A request from the table's phone: this player's secret choices, made here. Nothing is
// saved on this phone; the picks go back as an answer link (core/remote.py).
async function pickHere(root, engine, request) {
  root.append(el("h2", { id: "remote-title" }, bdi(request.side_name), ": your choices in ", bdi(request.game_name)),
    el("p", { class: "muted" }, "Only you see these. Pick, then show the answer code to the table's phone."));
  const picked = request.picks.map(() => new Set());
  request.picks.forEach((pick, i) => {
    const bind = pick.section.bind;
    const list = el("ul", { class: "items" });
    for (const item of pick.section.items) {
      const tick = el("input", { type: "checkbox", value: item.id, "data-pick": String(i), "aria-label": item.label });
      tick.addEventListener("change", () => { if (tick.checked) picked[i].add(item.id); else picked[i].delete(item.id); });
      list.append(el("li", {}, el("label", {}, tick, el("b", {}, bdi(item.label)), " (", bdi(item.id), ")", item.detail ? el("small", {}, " ", bdi(item.detail)) : "")));
    }
    root.append(el("section", { class: "holding" }, el("h3", {}, bdi(pick.unit_name), `: ${pick.section.title}`),
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

// An answer coming back to the table's phone: it changes a saved game, so the player is
// asked first; then it is applied to the game it answers, or refused with a message and
// the game untouched.
async function applyAnswer(root, engine, store, answer) {
  const game = store.game(answer.game);
  const fail = (message) => root.append(el("p", { class: "error", id: "open-error", role: "alert" }, message),
    el("p", {}, "Nothing was changed in your saved games."), el("a", { href: "#/games", class: "button" }, "Games"));
  if (!game) { fail("This answer belongs to a game that is not on this phone."); return; }
  const side = game.sides[answer.side]?.name ?? "the other player";
  const ask = el("div", { id: "answer-ask" },
    el("p", {}, "These are the secret choices of ", bdi(side), " for your game ", bdi(game.name),
      ". Applying them adds them to the game, face down."));
  const apply = async () => {
    clear(ask);
    ask.append(el("p", { class: "muted" }, "Applying…"));
    const current = store.game(answer.game) ?? game;
    const base = store.versionOf("games", answer.game);
    const reply = await engine.call("remote.apply", { game: current, answer, seed: newSeed() });
    clear(ask);
    if (!reply.ok) { fail(reply.error.message); return; }
    if (!(await store.putGame(reply.result, base))) return;
    location.hash = hashFor("game", game.id);
    notify(`${side} has chosen; the cards stay face down.`);
  };
  ask.append(el("div", { class: "actions" },
    button("Apply to the game", apply, { class: "primary", id: "apply-answer" }),
    el("a", { href: hashFor("game", game.id), class: "button", id: "skip-answer" }, "Not now")));
  root.append(ask);
}
