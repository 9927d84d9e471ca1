// The "card-deck" editor: a unit that is a frame and a deck of cards, built from parts.
// The player picks a frame, a pilot, a weapon per slot, boosters and generic cards, and adds
// own cards in a one-card-at-a-time editor. Every change asks the engine (the system's
// "assemble" tool) for the assembled unit, the counters by slot and the deck violations: no
// rule lives here. The system names its tools for each step and supplies every choice, label
// and blank value (system.describe: editor.tools and editor.data), so nothing is copied here.
// An engine error is shown and changes nothing the player entered.
import { el, clear, notify, button } from "./dom.js";
import { newId } from "./store.js";
import { plain, showRefs } from "./plain.js";

const problemText = (error) => (error.problems.length
  ? error.problems.map((p) => (p.field ? `${p.field.replaceAll(".", " ")}: ${p.message}` : p.message)).join("; ")
  : error.message);

export async function openEditor(root, { engine, store, squad, key, info, asData, nextKey }) {
  clear(root);
  const { tools, data } = info.editor;
  const { zones: ZONES, forms: FORMS, types: TYPES } = data;
  const tool = (step, args = {}) => engine.call("system.tool", { system: squad.system, tool: tools[step], args });
  // A card's printed values in one line, as the engine writes them (parts, then the assembled unit).
  const cardText = (card) => built?.texts[card.id] ?? parts.texts[card.id] ?? "";
  const partsReply = await tool("parts");
  if (!partsReply.ok) { root.append(el("p", { class: "error" }, partsReply.error.message)); return; }
  const parts = partsReply.result;
  const entry = squad.units.find((u) => u.key === key);
  let choice = { name: data.new_name, frame: structuredClone(parts.frames[0]), pilot_cards: [], weapons: [], boosters: [], generics: [], own_cards: [] };
  if (entry) {
    const split = await tool("split", entry.profile);
    if (split.ok) choice = split.result;
    else {
      notify(`This ${data.unit_label} cannot open in the deck builder (${split.error.message}): edit it as data.`);
      asData();
      return;
    }
  }
  const sampleCards = [...parts.pilots.flatMap((p) => p.cards), ...parts.weapons.flatMap((w) => w.cards), ...parts.boosters, ...parts.generics];

  // --- live status: counters, violations, engine messages ------------------------------
  const counters = el("ul", { class: "deck-counters", id: "deck-counters", "aria-live": "polite" });
  const problems = el("ul", { class: "violations", id: "deck-violations" });
  const status = el("p", { id: "deck-status", class: "muted" });
  let built = null;
  let asked = 0;
  const refresh = async () => {
    const mine = ++asked;
    const reply = await tool("assemble", send());
    if (mine !== asked) return reply;
    if (!reply.ok) {
      delete status.dataset.legal;
      status.className = "error";
      status.textContent = `Not saved yet: ${problemText(reply.error)}`;
      return reply;
    }
    built = reply.result;
    clear(counters);
    for (const s of built.summary.slots) {
      // The slot's rulebook line only when the player asked for line numbers; what the line says stays.
      const note = plain(s.ref).replace(/^[\s:;,]+/, "");
      counters.append(el("li", { "data-key": s.key, "data-state": s.state, ...(note ? { title: note } : {}) }, el("small", {}, s.label), el("strong", {}, s.text)));
    }
    clear(problems);
    for (const v of built.violations) problems.append(el("li", { "data-rule": v.rule }, v.message + (v.ref && showRefs() ? ` (${v.ref})` : "")));
    status.className = built.legal ? "legal" : "muted";
    status.textContent = built.legal ? "A legal deck: ready to play." : "";
    status.dataset.legal = String(built.legal);
    room.textContent = `Its slots hold at most ${built.summary.most_cards} cards.`;
    drawOwn();
    return reply;
  };
  // What goes to the engine: empty weapon slots are left out.
  const send = () => ({ ...choice, weapons: choice.weapons.filter((w) => w.name) });
  const changed = () => { drawPicks(); refresh(); };

  // --- name and frame ----------------------------------------------------------------
  const name = el("input", { id: "deck-name", value: choice.name, maxlength: "80", "aria-label": "Suit name" });
  name.addEventListener("input", () => { choice.name = name.value; refresh(); });
  const frameBox = el("div", { class: "frame-values" });
  const room = el("p", { class: "muted", id: "frame-room" });
  const frameDetails = el("details", {}, el("summary", {}, "Frame values"), frameBox);
  const framePick = el("select", { id: "deck-frame", "aria-label": "Frame" },
    ...parts.frames.map((f) => el("option", { value: f.id }, `${f.name}: move ${f.base_movement}, ${f.weapon_slots} weapons, ${f.booster_slots} boosters`)),
    el("option", { value: "" }, "My own frame…"));
  const sameFrame = parts.frames.find((f) => JSON.stringify(f) === JSON.stringify(choice.frame));
  framePick.value = sameFrame ? sameFrame.id : "";
  frameDetails.open = !sameFrame;
  framePick.addEventListener("change", () => {
    const sample = parts.frames.find((f) => f.id === framePick.value);
    choice.frame = sample ? structuredClone(sample) : { ...choice.frame, ...structuredClone(data.own_frame) };
    frameDetails.open = !sample;
    drawFrame();
    changed();
  });
  const drawFrame = () => {
    clear(frameBox);
    const f = choice.frame;
    const num = (label, get, set, attrs = {}) => {
      const input = el("input", { type: "number", inputmode: "numeric", value: get() ?? "", "aria-label": label, ...attrs });
      input.addEventListener("input", () => { set(input.value === "" ? null : Number(input.value)); refresh(); drawWeaponSlots(); });
      return el("label", {}, label, input);
    };
    const frameName = el("input", { name: "frame-name", value: f.name, maxlength: "60", "aria-label": "Frame name" });
    frameName.addEventListener("input", () => { f.name = frameName.value; refresh(); });
    const ability = el("input", { name: "frame-ability", value: f.ability ?? "", maxlength: "400", "aria-label": "Frame ability" });
    ability.addEventListener("input", () => { f.ability = ability.value; refresh(); });
    f.armor ??= structuredClone(data.blank_armor);
    frameBox.append(
      el("label", { class: "wide" }, "Name ", frameName),
      el("div", { class: "row" },
        num("Base move", () => f.base_movement, (v) => { f.base_movement = v; }, { name: "frame-move" }),
        num("Weapon slots", () => f.weapon_slots, (v) => { f.weapon_slots = v; }, { name: "frame-weapons" }),
        num("Booster slots", () => f.booster_slots, (v) => { f.booster_slots = v; }, { name: "frame-boosters" })),
      el("div", { class: "row" }, el("span", {}, "Armour"),
        ...ZONES.map((z) => num(z[0].toUpperCase() + z.slice(1), () => f.armor[z], (v) => { f.armor[z] = v; }, { name: `frame-armor-${z}` }))),
      el("label", { class: "wide" }, "Ability ", ability));
  };
  drawFrame();

  // --- picks: pilot, weapon slots, boosters, generics -----------------------------------
  const pilotBox = el("div", {});
  const weaponBox = el("div", { id: "weapon-slots" });
  const boosterBox = el("div", { class: "pick-list", id: "booster-picks" });
  const genericBox = el("div", { class: "pick-list", id: "generic-picks" });
  const ownBox = el("ul", { class: "list", id: "own-cards" });

  // A ticked card: toggling it adds or removes its id in `list`.
  const tick = (card, list, name, onToggle) => {
    const box = el("input", { type: "checkbox", name, value: card.id });
    box.checked = list.includes(card.id);
    box.addEventListener("change", () => onToggle(box.checked));
    return el("label", { class: "pick" }, box, el("span", {}, el("strong", {}, card.name), el("small", {}, ` ${cardText(card)}`)));
  };
  const toggleIn = (list, id) => (on) => {
    const at = list.indexOf(id);
    if (on && at < 0) list.push(id);
    if (!on && at >= 0) list.splice(at, 1);
    refresh();
  };

  const pilotOf = (id) => parts.pilots.find((p) => p.cards.some((c) => c.id === id));
  const drawPilot = () => {
    clear(pilotBox);
    const current = choice.pilot_cards.length ? pilotOf(choice.pilot_cards[0])?.name ?? "" : "";
    const pick = el("select", { id: "deck-pilot", "aria-label": "Pilot" }, el("option", { value: "" }, "No pilot cards"),
      ...parts.pilots.map((p) => el("option", { value: p.name }, p.name)));
    pick.value = current;
    pick.addEventListener("change", () => {
      const pilot = parts.pilots.find((p) => p.name === pick.value);
      choice.pilot_cards = pilot ? pilot.cards.map((c) => c.id) : [];
      changed();
    });
    const shown = parts.pilots.filter((p) => p.name === current || p.cards.some((c) => choice.pilot_cards.includes(c.id)));
    pilotBox.append(pick, el("div", { class: "pick-list", id: "pilot-picks" },
      ...shown.flatMap((p) => p.cards.map((c) => tick(c, choice.pilot_cards, "pilot-card", toggleIn(choice.pilot_cards, c.id))))));
  };

  const ownWeapons = () => [...new Set(choice.own_cards.filter((c) => c.type === "weapon" && c.group.trim()).map((c) => c.group.trim()))];
  const drawWeaponSlots = () => {
    clear(weaponBox);
    // One row per slot of the frame (L115); a weapon beyond them stays, to be removed by the player.
    const slots = Number(choice.frame.weapon_slots) || 0;
    while (choice.weapons.length > slots && !choice.weapons.at(-1).name) choice.weapons.pop();
    while (choice.weapons.length < slots) choice.weapons.push({ name: "", cards: [] });
    choice.weapons.forEach((slot, i) => {
      const names = [...parts.weapons.map((w) => w.name), ...ownWeapons()];
      if (slot.name && !names.includes(slot.name)) names.push(slot.name);
      const pick = el("select", { id: `weapon-slot-${i}`, "aria-label": `Weapon slot ${i + 1}` }, el("option", { value: "" }, "Empty slot"),
        ...names.map((n) => el("option", { value: n }, parts.weapons.some((w) => w.name === n) ? n : `${n} (own cards)`)));
      pick.value = slot.name;
      pick.addEventListener("change", () => {
        const weapon = parts.weapons.find((w) => w.name === pick.value);
        choice.weapons[i] = { name: pick.value, cards: weapon ? weapon.cards.map((c) => c.id) : [] };
        changed();
      });
      const weapon = parts.weapons.find((w) => w.name === slot.name);
      const remove = i >= (Number(choice.frame.weapon_slots) || 0)
        ? button("Remove slot", () => { choice.weapons.splice(i, 1); changed(); }, { class: "small" }) : "";
      weaponBox.append(el("div", { class: "weapon-slot", "data-slot": String(i) },
        el("div", { class: "row" }, el("label", {}, `Slot ${i + 1} `, pick), remove),
        weapon ? el("div", { class: "pick-list" }, ...weapon.cards.map((c) => tick(c, slot.cards, `weapon-${i}-card`, toggleIn(slot.cards, c.id)))) : ""));
    });
  };

  const drawOwn = () => {
    clear(ownBox);
    choice.own_cards.forEach((card, i) => {
      ownBox.append(el("li", { class: "card own-card", "data-id": card.id },
        el("div", { class: "card-head" }, el("strong", {}, card.name), el("small", {}, card.type + (card.group ? ` · ${card.group}` : "") + (card.number ? ` ${card.number}` : ""))),
        el("small", {}, cardText(card)),
        el("div", { class: "unit-actions" },
          button("Edit", () => openEditor(card, i), { class: "small" }),
          button("Copy", () => openEditor({ ...structuredClone(card), id: ownId(), name: `${card.name} (copy)` }, -1), { class: "small" }),
          button("Remove", () => { choice.own_cards.splice(i, 1); changed(); }, { class: "small" }))));
    });
    if (!choice.own_cards.length) ownBox.append(el("li", { class: "muted" }, "No own cards yet."));
  };

  const drawPicks = () => {
    drawPilot();
    drawWeaponSlots();
    clear(boosterBox);
    boosterBox.append(...parts.boosters.map((c) => tick(c, choice.boosters, "booster", toggleIn(choice.boosters, c.id))));
    clear(genericBox);
    genericBox.append(...parts.generics.map((c) => tick(c, choice.generics, "generic", toggleIn(choice.generics, c.id))));
    drawOwn();
  };

  // --- the card editor: one card at a time --------------------------------------------
  const editorBox = el("div", { id: "card-editor-box" });
  const ownId = () => {
    let n = choice.own_cards.length + 1;
    while (choice.own_cards.some((c) => c.id === `own-${n}`)) n++;
    return `own-${n}`;
  };
  const blankCard = () => ({ ...structuredClone(data.blank_card), id: ownId() });
  const openEditor = (card, index) => {
    clear(editorBox);
    editorBox.append(cardEditor(card, index));
    editorBox.scrollIntoView({ block: "start" });
  };
  const cardEditor = (start, index) => {
    const card = structuredClone(start);
    const error = el("p", { class: "error", id: "card-error", "aria-live": "polite" });
    const text = (field, label, max) => {
      const input = el("input", { name: `card-${field}`, value: card[field] ?? "", maxlength: String(max), "aria-label": label });
      input.addEventListener("input", () => { card[field] = input.value; });
      return el("label", { class: "wide" }, label, input);
    };
    const num = (field, label, optional = false) => {
      const input = el("input", { type: "number", inputmode: "numeric", name: `card-${field}`, value: card[field] ?? "", "aria-label": label });
      input.addEventListener("input", () => { card[field] = input.value === "" ? (optional ? null : undefined) : Number(input.value); });
      return el("label", {}, label, input);
    };
    const type = el("select", { name: "card-type", "aria-label": "Card type" }, ...TYPES.map((t) => el("option", { value: t }, t)));
    type.value = card.type;
    type.addEventListener("change", () => { card.type = type.value; });

    const marks = el("div", { class: "rows", id: "card-attacks" });
    const drawMarks = () => {
      clear(marks);
      card.attacks.forEach((mark, i) => {
        const zone = el("select", { name: "mark-zone", "aria-label": "Zone" }, ...ZONES.map((z) => el("option", { value: z }, z)));
        zone.value = mark.zone;
        zone.addEventListener("change", () => { mark.zone = zone.value; });
        const form = el("select", { name: "mark-form", "aria-label": "Form" }, ...FORMS.map((f) => el("option", { value: f }, f)));
        form.value = mark.form;
        const count = el("input", { type: "number", inputmode: "numeric", name: "mark-count", value: mark.count, "aria-label": "Marks" });
        count.addEventListener("input", () => { mark.count = count.value === "" ? undefined : Number(count.value); });
        const range = el("input", { type: "number", inputmode: "numeric", name: "mark-range", value: mark.range ?? "", "aria-label": "Range", placeholder: "range" });
        range.disabled = mark.form !== "ranged";
        range.addEventListener("input", () => { mark.range = range.value === "" ? null : Number(range.value); });
        form.addEventListener("change", () => {
          mark.form = form.value;
          range.disabled = mark.form !== "ranged";
          if (range.disabled) { mark.range = null; range.value = ""; }
        });
        marks.append(el("div", { class: "row-item mark-row" }, zone, form, el("span", {}, "×"), count, range,
          button("✕", () => { card.attacks.splice(i, 1); drawMarks(); }, { class: "small", "aria-label": "Remove mark" })));
      });
    };
    drawMarks();
    const addMark = button("+ Attack mark", () => { card.attacks.push(structuredClone(data.blank_mark)); drawMarks(); }, { class: "small", id: "card-add-mark" });

    const blocks = el("div", { class: "chips", role: "group", "aria-label": "Block zones" },
      ...ZONES.map((z) => {
        const box = el("input", { type: "checkbox", name: "card-block", value: z });
        box.checked = card.blocks.includes(z);
        box.addEventListener("change", () => { card.blocks = ZONES.filter((zz) => (zz === z ? box.checked : card.blocks.includes(zz))); });
        return el("label", { class: "chip" }, box, z);
      }));
    const flag = (label, get, set, nameAttr) => {
      const box = el("input", { type: "checkbox", name: nameAttr });
      box.checked = get();
      box.addEventListener("change", () => set(box.checked));
      return el("label", {}, box, label);
    };
    // Effects the app applies by itself (core: cards.Effect); the ability text says the same in words.
    const effects = el("div", { class: "rows", id: "card-effects" });
    const drawEffects = () => {
      clear(effects);
      card.effects.forEach((effect, i) => {
        const kind = el("select", { name: "effect-kind", "aria-label": "Effect" },
          ...data.effects.map(({ value, label }) => el("option", { value }, label)));
        kind.value = effect.kind;
        kind.addEventListener("change", () => { effect.kind = kind.value; });
        const amount = el("input", { type: "number", inputmode: "numeric", name: "effect-amount", value: effect.amount, "aria-label": "Amount" });
        amount.addEventListener("input", () => { effect.amount = amount.value === "" ? undefined : Number(amount.value); });
        effects.append(el("div", { class: "row-item" }, kind, amount,
          button("✕", () => { card.effects.splice(i, 1); drawEffects(); }, { class: "small", "aria-label": "Remove effect" })));
      });
    };
    drawEffects();
    const addEffect = button("+ Effect", () => { card.effects.push(structuredClone(data.blank_effect)); drawEffects(); }, { class: "small", id: "card-add-effect" });
    const timing = el("select", { name: "card-timing", "aria-label": "When the effects apply" },
      ...data.timings.map(({ value, label }) => el("option", { value }, label)));
    timing.value = card.timing ?? data.blank_card.timing;
    timing.addEventListener("change", () => { card.timing = timing.value; });
    const ability = el("textarea", { name: "card-ability", maxlength: "400", rows: "2", "aria-label": "Ability text" });
    ability.value = card.ability ?? "";
    ability.addEventListener("input", () => { card.ability = ability.value; });

    const save = async () => {
      const reply = await tool("card", card);
      if (!reply.ok) { error.textContent = `This card cannot be kept yet: ${problemText(reply.error)}`; return; }
      if (index >= 0) choice.own_cards[index] = reply.result;
      else choice.own_cards.push(reply.result);
      clear(editorBox);
      changed();
    };
    return el("fieldset", { class: "card-editor", id: "card-editor" },
      el("legend", {}, index >= 0 ? "Edit card" : "New card"),
      text("name", "Name ", 60),
      el("div", { class: "row" }, el("label", {}, "Type ", type), num("number", "No. ", true)),
      text("group", "Pilot or weapon ", 60),
      el("div", { class: "row" }, num("initiative", "Initiative "), num("movement", "Move ")),
      el("div", { class: "field-group" }, el("strong", {}, "Attack marks"), marks, addMark),
      el("div", { class: "field-group" }, el("strong", {}, "Blocks"), blocks),
      el("div", { class: "row" },
        flag("Single use", () => card.single_use, (v) => { card.single_use = v; }, "card-single-use"),
        flag("Guard break", () => card.keywords.includes("guard_break"),
          (v) => { card.keywords = v ? [...new Set([...card.keywords, "guard_break"])] : card.keywords.filter((k) => k !== "guard_break"); }, "card-guard-break")),
      el("label", { class: "wide" }, "Ability ", ability),
      el("div", { class: "field-group" }, el("strong", {}, "Effects the app applies"), effects, addEffect,
        el("label", {}, "Applied ", timing)),
      error,
      el("div", { class: "actions" },
        button(index >= 0 ? "Save card" : "Add to deck", save, { class: "primary", id: "card-save" }),
        button("Close", () => clear(editorBox), { id: "card-cancel" })));
  };
  const copyPick = el("select", { id: "copy-sample", "aria-label": "Copy a sample card" },
    el("option", { value: "" }, "Copy a sample card…"), ...sampleCards.map((c) => el("option", { value: c.id }, `${c.name} (${c.type}${c.group ? `, ${c.group}` : ""})`)));
  copyPick.addEventListener("change", () => {
    const card = sampleCards.find((c) => c.id === copyPick.value);
    copyPick.value = "";
    if (card) openEditor({ ...structuredClone(card), id: ownId(), name: `${card.name} (mine)` }, -1);
  });

  // --- saving -------------------------------------------------------------------------
  const saveTo = async (alsoLibrary) => {
    const reply = await refresh();
    if (!reply?.ok) { notify("The deck could not be assembled: see the message under the counters. Nothing was lost."); return; }
    const profile = reply.result.profile;
    if (entry) entry.profile = profile;
    else squad.units.push({ key: nextKey(squad), profile, origin: "own" });
    // Leave only once it is saved (durably); a refused save keeps the player here with a message.
    if (alsoLibrary && !(await store.putUnit({ id: newId("u"), system: squad.system, profile }))) return;
    if (!(await store.putSquad(squad))) return;
    location.hash = `#/squad/${squad.id}`;
  };

  drawPicks();
  root.append(el("div", { class: "deck-builder" },
    el("h1", {}, entry ? `Edit ${data.unit_label}` : `Build a ${data.unit_label}`),
    el("p", { class: "muted" }, `Parts: ${parts.label}.`),
    el("label", { class: "wide" }, "Name ", name),
    el("fieldset", {}, el("legend", {}, "Frame"), framePick, room, frameDetails),
    el("fieldset", {}, el("legend", {}, "Pilot"), pilotBox),
    el("fieldset", {}, el("legend", {}, "Weapons"), weaponBox),
    el("fieldset", {}, el("legend", {}, "Boosters"), boosterBox),
    el("fieldset", {}, el("legend", {}, "Generic cards"), genericBox),
    el("fieldset", {}, el("legend", {}, "Own cards"), ownBox,
      el("div", { class: "actions" }, button("New card", () => openEditor(blankCard(), -1), { id: "new-card" }), copyPick),
      editorBox),
    el("div", { class: "deck-status" }, counters, problems, status),
    el("div", { class: "actions" },
      button("Save to squad", () => saveTo(false), { class: "primary", id: "deck-save" }),
      button("Save, and keep in my library", () => saveTo(true), { id: "deck-save-library" })),
    el("div", { class: "actions" },
      button("Edit as data", () => asData(built?.profile), { id: "deck-as-data" }),
      el("a", { href: `#/squad/${squad.id}`, class: "button" }, "Cancel")),
  ));
  await refresh();
}
