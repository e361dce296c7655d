/* Say plainly when the network is gone; a round recorded meanwhile is kept and sent again when
   the network is back (or with the banner's button). */
let pending = null;
function banner() {  // drawn anew only when what it says changes: an alert is read out each time
  const state = pending ? "unsent" : navigator.onLine ? "" : "offline";
  if ((document.getElementById("offline")?.dataset.state ?? "") === state) return;
  document.getElementById("offline")?.remove();
  if (!state) return;
  const texts = document.body.dataset;
  const shown = Object.assign(document.createElement("div"), { id: "offline", className: "offline-banner" });
  shown.dataset.state = state;
  shown.setAttribute("role", "alert");
  shown.textContent = `${pending ? texts.unsentText : texts.offlineText} `;
  if (pending) {
    const again = Object.assign(document.createElement("button"), { type: "button", textContent: texts.resendText });
    again.addEventListener("click", resend);
    shown.append(again);
  }
  document.body.prepend(shown);
}
function resend() {
  const form = pending;
  pending = null;
  banner();
  if (form?.isConnected) form.requestSubmit(form.querySelector("button.primary"));
}
document.addEventListener("htmx:sendError", (event) => {
  if (event.detail.elt?.matches?.("form[data-entry]")) pending = event.detail.elt;
  banner();
});
window.addEventListener("offline", banner);
window.addEventListener("online", () => (pending ? resend() : banner()));
document.addEventListener("DOMContentLoaded", banner);
