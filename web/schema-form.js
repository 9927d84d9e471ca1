// Forms drawn from the JSON Schema of a pydantic model (a unit profile, an action's
// input). A field added to a model in the core appears here without JavaScript changes.
// Supported: integer/number, boolean, string, enum/const (select), optional (anyOf null),
// nested objects ($ref) and arrays of objects or enums (rows to add and remove).
import { el } from "./dom.js";

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
const choiceLabel = (choice) => String(choice).replaceAll("_", " ").replace(/^[a-z]/, (c) => c.toUpperCase());

const label = (name, node) => node.title ?? name.replaceAll("_", " ").replace(/^./, (c) => c.toUpperCase());

// Build a form for `schema` holding `value`. `custom[name](node, value, onChange)` may
// supply the control of a field (e.g. a unit picker). Returns {element, read()}.
export function schemaForm(schema, value = {}, { onChange = () => {}, custom = {}, skip = [] } = {}) {
  const root = schema;
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
    const made = control(root, field, current, onChange, name);
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
  };
}

function wrap(name, node, control, inline = true) {
  const help = node.description ? el("small", { class: "help" }, node.description) : "";
  const title = el("span", { class: "field-label" }, label(name, node));
  if (inline) return el("label", { class: "field", "data-field": name }, title, control, help);
  return el("fieldset", { class: "field-group", "data-field": name }, el("legend", {}, label(name, node)), help, control);
}

function control(root, node, current, onChange, name) {
  const optional = optionalOf(root, node);
  if (optional) return optionalControl(root, optional, current, onChange, name);
  const choices = node.enum ?? (node.const !== undefined ? [node.const] : null);
  if (choices) {
    const select = el("select", { name });
    for (const choice of choices) {
      const option = el("option", { value: JSON.stringify(choice) }, choiceLabel(choice));
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
  if (node.type === "array") return arrayControl(root, resolve(root, node.items), current ?? [], onChange, name);
  if (node.type === "object" || node.properties) {
    const inner = schemaForm({ ...root, ...node, $defs: root.$defs }, current ?? {}, { onChange });
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

function optionalControl(root, node, current, onChange, name) {
  const made = control(root, node, current ?? node.default, onChange, name);
  if (made.inline === false || node.type === "boolean") return made;
  const on = el("input", { type: "checkbox", "aria-label": "set" });
  on.checked = current !== null && current !== undefined;
  made.element.disabled = !on.checked;
  on.addEventListener("change", () => { made.element.disabled = !on.checked; onChange(); });
  return { element: el("span", { class: "optional" }, on, made.element), read: () => (on.checked ? made.read() : null) };
}

function arrayControl(root, item, current, onChange, name) {
  const list = el("div", { class: "rows" });
  const rows = [];
  const addRow = (value) => {
    const made = item.properties || item.$ref
      ? schemaForm({ ...item, $defs: root.$defs }, value, { onChange })
      : control(root, item, value, onChange, name);
    const remove = el("button", { type: "button", class: "small", "aria-label": "Remove" }, "✕");
    const row = el("div", { class: "row-item" }, made.element, remove);
    const entry = { read: made.read, row };
    remove.addEventListener("click", () => { rows.splice(rows.indexOf(entry), 1); row.remove(); onChange(); });
    rows.push(entry);
    list.append(row);
  };
  for (const value of current) addRow(value);
  const add = el("button", { type: "button", class: "small" }, "+ Add");
  add.addEventListener("click", () => { addRow(undefined); onChange(); });
  // Rows the model offers ready-made (its "presets" annotation: [{title, value}]): picking one adds it filled in.
  const presets = Array.isArray(item.presets) ? item.presets : [];
  const pick = presets.length ? el("select", { class: "preset-pick", "data-presets": name, "aria-label": `Add a ready-made ${label(name, {}).toLowerCase()} row` },
    el("option", { value: "" }, "+ Add a ready-made one…"), ...presets.map((p, i) => el("option", { value: String(i) }, p.title))) : "";
  if (pick) pick.addEventListener("change", () => { if (pick.value) addRow(structuredClone(presets[Number(pick.value)].value)); pick.value = ""; onChange(); });
  return { element: el("div", {}, list, el("div", { class: "row-adders" }, add, pick)), read: () => rows.map((r) => r.read()), inline: false };
}
