// A share link for a squad or a game: the URL (its token lives in the fragment, which
// never reaches a server), its length, a QR code drawn by the engine, and the phone's
// share sheet where there is one.
import { el, button } from "./dom.js";

export async function shareBox(engine, what, kind) {
  const reply = await engine.call("share.encode", what);
  if (!reply.ok) return el("p", { class: "error" }, reply.error.message);
  const url = `${location.origin}${location.pathname}#/open/${reply.result.token}`;
  const field = el("input", { readonly: "", value: url, id: `share-url`, "aria-label": "Share link" });
  const box = el("div", { class: "share" },
    el("p", {}, `Link to this ${kind} (${url.length} characters):`), field,
    el("div", { class: "actions" },
      button("Copy link", async () => {
        field.select();
        try { await navigator.clipboard.writeText(url); } catch { document.execCommand?.("copy"); }
      }, { id: "copy-link" }),
      navigator.share ? button("Share…", () => navigator.share({ title: "Table Companion", url }).catch(() => {})) : ""));
  const qr = await engine.call("share.qr", { text: url });
  if (qr.ok) {
    box.append(el("img", { class: "qr", id: "share-qr", alt: `QR code of the link (version ${qr.result.version})`,
      src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(qr.result.svg)}` }));
  } else {
    box.append(el("p", { class: "muted" }, qr.error.message));
  }
  return box;
}
