// A share link for a squad or a game: the URL (its token lives in the fragment, which
// never reaches a server), its length, a QR code drawn by the engine, and the phone's
// share sheet where there is one.
import { el, button } from "./dom.js";

export async function shareBox(engine, what, kind) {
  const reply = await engine.call("share.encode", what);
  if (!reply.ok) return el("p", { class: "error" }, reply.error.message);
  const box = await tokenBox(engine, reply.result.token, `Link to this ${kind}`);
  if (what.game && !box.querySelector("img.qr") && what.game.log.length) {
    // Too long for a QR code: the game as it stands, without its log, makes a shorter link.
    const short = button("Share without the log", async () => {
      const again = await engine.call("share.encode", { ...what, history: false });
      if (!again.ok) { short.replaceWith(el("p", { class: "error" }, again.error.message)); return; }
      box.replaceWith(await tokenBox(engine, again.result.token, `Link to this ${kind} as it stands, without its log`));
    }, { id: "share-short" });
    box.append(short);
  }
  return box;
}

// Any token as a link: the field, copy, the share sheet and the QR code another phone scans.
export async function tokenBox(engine, token, label, id = "share") {
  const url = `${location.origin}${location.pathname}#/open/${token}`;
  const field = el("input", { readonly: "", value: url, id: `${id}-url`, "aria-label": label });
  const box = el("div", { class: "share", id: `${id}-box` },
    el("p", {}, `${label} (${url.length} characters):`), field,
    el("div", { class: "actions" },
      button("Copy link", async () => {
        field.select();
        try { await navigator.clipboard.writeText(url); } catch { document.execCommand?.("copy"); }
      }, { id: `${id === "share" ? "copy-link" : `${id}-copy`}` }),
      navigator.share ? button("Share…", () => navigator.share({ title: "Table Companion", url }).catch(() => {})) : ""));
  const qr = await engine.call("share.qr", { text: url });
  if (qr.ok) {
    // A long link makes a dense code: at least 2.5 px a module (quiet zone included), so a
    // camera can still tell them apart, within the screen's width.
    const modules = 17 + 4 * qr.result.version + 8;
    const img = el("img", { class: "qr", id: `${id}-qr`, alt: "QR code of the link",
      src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(qr.result.svg)}` });
    img.style.width = `${Math.max(240, Math.ceil(modules * 2.5) + 16)}px`;
    box.append(img);
  } else {
    box.append(el("p", { class: "muted" }, qr.error.message));
  }
  return box;
}
