// Forms drawn from the JSON Schema of a pydantic model (a unit profile, an action's
// input). A field added to a model in the core appears here without JavaScript changes.
// Supported: integer/number, boolean, string, enum/const (select), optional (anyOf null),
// nested objects ($ref) and arrays of objects or enums (rows to add and remove).
// Labels: an enum's `x-labels` map (value -> label) names its choices. An array marked
// `"x-checklist": "<key>"` whose items' <key> is an enum is drawn as a checklist: one tick
// per choice (grouped by the key's `x-groups`), the item's other fields (or those the key's
// `x-fields` lists for that choice) shown only when ticked, and `x-repeat` choices may be
// ticked again; the key's `x-choices` ({choice: {field: [values]}}) narrows a field's values for
// one choice. `setUnfit({path: {choice: reason}})` greys the choices that do not fit.
import { el } from "./dom.js";
import { plain } from "./plain.js";

const resolve = (root, node) => {
  let out = node ?? {};
  while (out.$ref) out = root.$defs?.[out.$ref.split("/").pop()] ?? {};
  if (out.allOf?.length === 1) out = { ...resolve(root, out.allOf[0]), ...out, allOf: undefined };
  return out;
};

const optionalOf = (root, node) => {
  const variants = (node.anyOf ?? []).filter((v) => v.type !== "null");
  return node.anyOf && variants.length === 1 ? resolve(root, variants[0]) : null;
};

// An enum value as the player reads it: "mobile_suit" shows as "Mobile suit"; "EFF", "RQ" stay.
const wordsOf = (choice) => String(choice).replaceAll("_", " ").replace(/^[a-z]/, (c) => c.toUpperCase());

const label = (name, node) => node.title ?? name.replaceAll("_", " ").replace(/^./, (c) => c.toUpperCase());
// The engine's label when its schema names one (`x-labels`), else the value as words.
const choiceLabel = (node, choice) => node["x-labels"]?.[String(choice)] ?? wordsOf(choice);

// Build a form for `schema` holding `value`. `custom[name](node, value, onChange)` may
// supply the control of a field (e.g. a unit picker). Returns {element, read()}.
export function schemaForm(schema, value = {}, { onChange = () => {}, custom = {}, skip = [], path = () => "", lists = [] } = {}) {
  const root = schema;
  const ctx = { path, lists };
  const readers = {};
  const box = el("div", { class: "schema-form" });
  const node = resolve(root, schema);
  for (const [name, raw] of Object.entries(node.properties ?? {})) {
    if (skip.includes(name)) continue;
    const field = resolve(root, raw);
    const current = value?.[name] ?? field.default;
    if (field.ui === "hidden" || raw.ui === "hidden") {
      // a value the game sets, not the player (e.g. a GUNFRAME structure's kind): kept as it was
      if (value && name in value) readers[name] = () => value[name];
      continue;
    }
    if (custom[name] || (field.ui && custom[field.ui])) {
      const made = (custom[name] ?? custom[field.ui])(field, current, onChange, name);
      readers[name] = made.read;
      box.append(wrap(name, field, made.element));
      continue;
    }
    const made = control(root, field, current, onChange, name, ctx);
    readers[name] = made.read;
    box.append(wrap(name, field, made.element, made.inline));
  }
  return {
    element: box,
    read() {
      const out = {};
      for (const [name, read] of Object.entries(readers)) {
        const v = read();
        if (v !== undefined) out[name] = v;
      }
      return out;
    },
    // Grey the checklist choices that would not fit, with the engine's reasons.
    setUnfit(unfit = {}) {
      for (const list of lists) list.setUnfit(unfit[list.path()] ?? {});
    },
  };
}

function wrap(name, node, control, inline = true) {
  const help = node.description ? el("small", { class: "help" }, plain(node.description)) : "";
  const title = el("span", { class: "field-label" }, label(name, node));
  if (inline) return el("label", { class: "field", "data-field": name }, title, control, help);
  return el("fieldset", { class: "field-group", "data-field": name }, el("legend", {}, label(name, node)), help, control);
}

function control(root, node, current, onChange, name, ctx = { path: () => "", lists: [] }) {
  const optional = optionalOf(root, node);
  if (optional) return optionalControl(root, optional, current, onChange, name, ctx);
  const choices = node.enum ?? (node.const !== undefined ? [node.const] : null);
  if (choices) {
    const select = el("select", { name });
    for (const choice of choices) {
      const option = el("option", { value: JSON.stringify(choice) }, choiceLabel(node, choice));
      if (choice === current) option.selected = true;
      select.append(option);
    }
    select.addEventListener("change", onChange);
    return { element: select, read: () => JSON.parse(select.value) };
  }
  if (node.type === "boolean") {
    const box = el("input", { type: "checkbox", name });
    box.checked = Boolean(current);
    box.addEventListener("change", onChange);
    return { element: box, read: () => box.checked };
  }
  if (node.type === "integer" || node.type === "number") {
    const input = el("input", { type: "number", inputmode: "numeric", name });
    if (node.minimum !== undefined) input.min = node.minimum;
    if (node.maximum !== undefined) input.max = node.maximum;
    input.value = current ?? "";
    input.addEventListener("input", onChange);
    return { element: input, read: () => (input.value === "" ? undefined : Number(input.value)) };
  }
  if (node.type === "array" && node["x-checklist"]) {
    return checklistControl(root, node, current ?? [], onChange, name, ctx);
  }
  if (node.type === "array") return arrayControl(root, resolve(root, node.items), current ?? [], onChange, name, ctx, node.maxItems);
  if (node.type === "object" || node.properties) {
    const inner = schemaForm({ ...root, ...node, $defs: root.$defs }, current ?? {},
      { onChange, path: () => `${ctx.path()}${name}.`, lists: ctx.lists });
    return { element: inner.element, read: inner.read, inline: false };
  }
  const input = el("input", { type: "text", name });
  if (node.maxLength) input.maxLength = node.maxLength;
  input.value = current ?? "";
  // Known values (e.g. upgrade ids) are offered as suggestions; others may still be typed.
  if (Array.isArray(node.examples) && node.examples.length) {
    const id = `list-${name}-${node.examples.length}`;
    if (!document.getElementById(id)) {
      document.body.append(el("datalist", { id }, ...node.examples.map((v) => el("option", { value: String(v) }))));
    }
    input.setAttribute("list", id);
  }
  input.addEventListener("input", onChange);
  return { element: input, read: () => input.value };
}

function optionalControl(root, node, current, onChange, name, ctx) {
  const made = control(root, node, current ?? node.default, onChange, name, ctx);
  if (made.inline === false || node.type === "boolean") return made;
  const on = el("input", { type: "checkbox", "aria-label": "set" });
  on.checked = current !== null && current !== undefined;
  made.element.disabled = !on.checked;
  on.addEventListener("change", () => { made.element.disabled = !on.checked; onChange(); });
  return { element: el("span", { class: "optional" }, on, made.element), read: () => (on.checked ? made.read() : null) };
}

function arrayControl(root, item, current, onChange, name, ctx, most = Infinity) {
  const list = el("div", { class: "rows" });
  const rows = [];
  // A list that is full hides "+ Add"; a ready-made row picked then replaces the last one (a
  // one-row list, such as a single close combat weapon, swaps rather than overflows).
  const full = () => rows.length >= most;
  const fit = () => { if (add) add.hidden = full(); };
  const addRow = (value) => {
    const entry = {};
    const path = () => `${ctx.path()}${name}.${rows.indexOf(entry)}.`;
    const made = item.properties || item.$ref
      ? schemaForm({ ...item, $defs: root.$defs }, value, { onChange, path, lists: ctx.lists })
      : control(root, item, value, onChange, name);
    // A row of one value (a role, a trait) has no label of its own: it is named by its list.
    const bare = item.properties || item.$ref ? null
      : made.element.matches("select, input") ? made.element : made.element.querySelector("select, input:not([type='checkbox'])");
    bare?.setAttribute("aria-label", label(name, item));
    const remove = el("button", { type: "button", class: "small", "aria-label": `Remove this ${label(name, {}).toLowerCase()} row` }, "✕");
    const row = el("div", { class: "row-item" }, made.element, remove);
    Object.assign(entry, { read: made.read, row });
    remove.addEventListener("click", () => { rows.splice(rows.indexOf(entry), 1); row.remove(); fit(); onChange(); });
    rows.push(entry);
    list.append(row);
    fit();
  };
  let add = null;
  for (const value of current) addRow(value);
  add = el("button", { type: "button", class: "small" }, "+ Add");
  add.addEventListener("click", () => { if (!full()) addRow(undefined); onChange(); });
  fit();
  // Rows the model offers ready-made (its "presets" annotation: [{title, value}]): picking one adds it filled in.
  const presets = Array.isArray(item.presets) ? item.presets : [];
  const pick = presets.length ? el("select", { class: "preset-pick", "data-presets": name, "aria-label": `Add a ready-made ${label(name, {}).toLowerCase()} row` },
    el("option", { value: "" }, "+ Add a ready-made one…"), ...presets.map((p, i) => el("option", { value: String(i) }, p.title))) : "";
  if (pick) pick.addEventListener("change", () => {
    if (pick.value) {
      if (full() && rows.length) { const last = rows.pop(); last.row.remove(); }
      addRow(structuredClone(presets[Number(pick.value)].value));
    }
    pick.value = ""; onChange();
  });
  return { element: el("div", {}, list, el("div", { class: "row-adders" }, add, pick)), read: () => rows.map((r) => r.read()), inline: false };
}

// A field's schema with its enum narrowed to `values` (kept optional if it was).
function narrow(root, raw, values) {
  const node = resolve(root, raw);
  if (node.anyOf) return { ...node, anyOf: node.anyOf.map((v) => (v.type === "null" ? v : { ...resolve(root, v), enum: values })) };
  return { ...node, enum: values };
}

// An array of items keyed by an enum field, as a checklist: one tick per choice. The stored
// value is unchanged (a list of items); items of a choice the schema does not know are kept.
function checklistControl(root, node, current, onChange, name, ctx) {
  const item = resolve(root, node.items);
  const keyName = node["x-checklist"];
  const key = resolve(root, item.properties?.[keyName]);
  const choices = key.enum ?? [];
  const fieldsOf = (choice) => key["x-fields"]?.[choice] ?? Object.keys(item.properties ?? {}).filter((f) => f !== keyName);
  const repeat = new Set(key["x-repeat"] ?? []);
  const box = el("div", { class: "checklist", "data-checklist": name });
  const groups = new Map();
  const groupOf = (choice) => {
    const title = choices.includes(choice) ? key["x-groups"]?.[choice] ?? "" : "Not in the lists";
    if (!groups.has(title)) {
      const group = el("div", { class: "check-group", "data-group": title }, title ? el("h3", {}, title) : "");
      groups.set(title, group);
      box.append(group);
    }
    return groups.get(title);
  };
  const lines = [];
  let seq = current.length;
  const addLine = (choice, value, order, after = null) => {
    const line = { choice, value, seq: order };
    const tick = el("input", { type: "checkbox", "data-choice": choice });
    tick.checked = Boolean(value);
    const text = el("span", { class: "check-name" }, choiceLabel(key, choice));
    const help = key["x-help"]?.[choice] ? el("small", { class: "help" }, plain(key["x-help"][choice])) : "";
    const reason = el("small", { class: "unfit-reason" });
    const details = el("div", { class: "check-details" });
    const again = repeat.has(choice) ? el("button", { type: "button", class: "small again" }, "+ Again") : "";
    const row = el("div", { class: "check-item", "data-choice": choice },
      el("label", { class: "check-label" }, tick, text), reason, details, help);
    if (again) details.after(again);
    let sub = null;
    const draw = () => {
      details.replaceChildren();
      sub = null;
      if (tick.checked) {
        const shown = fieldsOf(choice);
        const skip = Object.keys(item.properties ?? {}).filter((f) => !shown.includes(f));
        if (shown.length) {
          const narrowed = { ...item.properties };
          for (const [field, values] of Object.entries(key["x-choices"]?.[choice] ?? {})) {
            // a value already there stays offered (and shown as it is), even where it does not fit
            const had = line.value?.[field];
            const offered = had != null && !values.includes(had) ? [...values, had] : values;
            if (narrowed[field]) narrowed[field] = narrow(root, narrowed[field], offered);
          }
          sub = schemaForm({ ...item, properties: narrowed, $defs: root.$defs }, line.value ?? {}, { onChange, skip });
          details.append(sub.element);
        }
      }
      row.classList.toggle("ticked", tick.checked);
      if (again) again.hidden = !tick.checked;
    };
    tick.addEventListener("change", () => {
      if (tick.checked && line.seq === Infinity) line.seq = seq++;
      if (!tick.checked) { line.value = { ...(line.value ?? {}), ...(sub?.read() ?? {}) }; line.seq = Infinity; }
      draw();
      onChange();
    });
    if (again) again.addEventListener("click", () => { addLine(choice, { [keyName]: choice }, seq++, line); onChange(); });
    Object.assign(line, {
      row, tick, reason,
      read: () => (tick.checked ? { ...(line.value ?? {}), ...(sub?.read() ?? {}), [keyName]: choice } : undefined),
    });
    if (after) { after.row.after(row); lines.splice(lines.indexOf(after) + 1, 0, line); }
    else { groupOf(choice).append(row); lines.push(line); }
    draw();
    return line;
  };
  // What the unit has, in its order; then each other choice once, unticked.
  current.forEach((value, i) => {
    const choice = value?.[keyName];
    const earlier = lines.findLast((l) => l.choice === choice);
    addLine(choice, value, i, earlier ?? null);
  });
  for (const choice of choices) if (!lines.some((l) => l.choice === choice)) addLine(choice, null, Infinity);
  const list = {
    path: () => `${ctx.path()}${name}`,
    setUnfit(reasons) {
      for (const line of lines) {
        const why = line.tick.checked ? "" : reasons[String(line.choice)] ?? "";
        line.reason.textContent = why;
        line.row.classList.toggle("unfit", Boolean(why));
        line.tick.disabled = Boolean(why);
      }
    },
  };
  ctx.lists.push(list);
  const read = () => lines.filter((l) => l.tick.checked).sort((a, b) => a.seq - b.seq).map((l) => l.read());
  return { element: box, read, inline: false };
}
