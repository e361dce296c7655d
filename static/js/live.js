/* The table follows its game. htmx's SSE extension holds the game's change stream open
   (sse-connect on #table-body) and the #poller fetches what changed at each event
   (hx-trigger="sse:change", 304 when nothing did), one fetch at a time (hx-sync="this:queue last").
   An idle page sends nothing. This file adds what the extension does not: the answer's ETag for
   the next fetch, a fetch every 5 s where no stream opens (a buffering proxy, a WSGI server's
   204), and healing after a network blip. */
let streamOpen = false;
let retryDelay = 1000;
let retryTimer = null;
// The table's #poller; a club night's page and a room screen mark theirs data-live-poller. Every
// poller has the ETag, the 5 s fetch without a stream and the back-off; only the table's says
// what its entry holds.
const isTablePoller = (el) => el?.id === "poller";
const isPoller = (el) => isTablePoller(el) || Boolean(el?.hasAttribute?.("data-live-poller"));
const fetchChanges = () => document.querySelectorAll("#poller, [data-live-poller]").forEach((poller) => htmx.trigger(poller, "changed"));
const streaming = (open) => { streamOpen = open; document.body.classList.toggle("streaming", open); };
document.addEventListener("htmx:sseOpen", () => streaming(true));
document.addEventListener("htmx:sseError", () => streaming(false));
// Without a stream, a fetch every 5 s; while a failed one waits to be tried again, the back-off decides.
setInterval(() => { if (!streamOpen && !retryTimer) fetchChanges(); }, 5000);

// A fetch that failed (no network, a server away) is tried again after 1, 2, 4... up to 30 s,
// and at once when the network comes back or the phone shows the page again; meanwhile a
// quiet mark says the page may be behind.
function retryLater() {
  document.body.classList.add("stale");
  if (retryTimer) return;
  retryTimer = setTimeout(() => { retryTimer = null; fetchChanges(); }, retryDelay);
  retryDelay = Math.min(retryDelay * 2, 30000);
}
function healed() {
  retryDelay = 1000;
  clearTimeout(retryTimer);
  retryTimer = null;
  document.body.classList.remove("stale");
}
window.addEventListener("online", () => { healed(); fetchChanges(); });
document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") fetchChanges(); });
document.addEventListener("htmx:sendError", (event) => { if (isPoller(event.detail.elt)) retryLater(); });
// The newest version of the game this phone has heard: a say or a hand of its own answers with
// the version it left (X-Live-Version), the table's fetch with the one it was drawn at (its ETag).
// A fetch drawn before this phone's own say landed, answered after the say's answer, would draw the
// round back as it was (seen in CI: the entry redrawn with the old winner, a Record then refused):
// it is not drawn. The say's own event fetches the round as it is.
let heardLive = 0;
const liveOf = (xhr) => Number((xhr?.getResponseHeader("X-Live-Version") || xhr?.getResponseHeader("ETag") || "").replace(/\D/g, "")) || 0;
document.addEventListener("htmx:beforeSwap", (event) => {
  if (isTablePoller(event.detail.elt) && liveOf(event.detail.xhr) < heardLive) event.detail.shouldSwap = false;
});
document.addEventListener("htmx:afterRequest", (event) => {
  const { elt: poller, xhr, successful } = event.detail;
  if (xhr?.getResponseHeader("X-Live-Version")) heardLive = Math.max(heardLive, liveOf(xhr));
  if (!isPoller(poller)) return;
  if (!successful && xhr?.status !== 304) { retryLater(); return; }
  healed();
  const etag = xhr?.getResponseHeader("ETag");
  if (etag) poller.setAttribute("hx-headers", JSON.stringify({ "If-None-Match": etag }));
});

// The fetch says whether the entry may be replaced (nothing typed in it), which version and which
// round it was typed on, and who went out in it (an entry of a round no longer the one to play,
// or that says another winner than the round in progress, is replaced all the same: what was
// typed in it comes back, entry.js);
// a tap made while the answer was on its way keeps the entry it was made in.
const entryForm = () => document.querySelector("form[data-entry]");
document.addEventListener("htmx:configRequest", (event) => {
  if (!isTablePoller(event.detail.elt)) return;
  const form = entryForm();
  const version = form?.querySelector("input[name=version]");
  event.detail.headers["X-Entry-Pristine"] = event.detail.elt.dataset.askedPristine = form?.dataset.dirty ? "0" : "1";
  if (version) event.detail.headers["X-Entry-Version"] = version.value;
  // The hands a seated phone's form offers: a form drawn before a phone took (or left) a seat is drawn anew.
  if (form?.dataset.offered !== undefined) event.detail.headers["X-Entry-Offered"] = form.dataset.offered;
  if (!form?.dataset.round) return;  // a correction: neither
  event.detail.headers["X-Entry-Round"] = form.dataset.round;
  // Who went out as this form shows it: one that shows otherwise than the round in progress is drawn
  // anew. Not while this phone's own say is on its way: the answer may come from before it landed,
  // and the entry was drawn back to the old winner, then anew, losing a card tapped between (seen
  // in CI). Nothing is asked again after: the say, once it lands, is a change the phone hears of.
  if (saysOnTheWay) return;
  event.detail.headers["X-Entry-Winner"] = shownWinner(form);
});
// A say of who went out on its way: a request of the entry (a preview, Send, Record) whose winner
// is not the one the server last answered with (draft_winner), until its answer (or failure) is in.
const shownWinner = (form) => form.querySelector("input[name=winner]:checked")?.value || "";
let saysOnTheWay = 0;
const shown = new WeakMap();  // each request of the entry: the winner its form showed when sent
document.addEventListener("htmx:beforeSend", (event) => {  // sent: beforeRequest may yet be cancelled
  const form = event.detail.elt?.closest?.("form[data-entry]");
  const heard = form?.elements.draft_winner?.value;
  if (!form || heard === undefined) return;
  shown.set(event.detail.xhr, shownWinner(form));
  if (shownWinner(form) === "" || shownWinner(form) === heard) return;
  saysOnTheWay += 1;
  event.detail.xhr.addEventListener("loadend", () => { saysOnTheWay -= 1; });
});
// An answer that says the round has another winner than this phone showed when it asked (another
// phone's say landed after this one's) is taken as the round's, unless the phone chose again
// meanwhile: left showing its own, the phone's next preview said it again and undid the other
// phone's say, whose Record was then refused (seen in CI). A request queued meanwhile is sent
// after this, as the form now is.
document.addEventListener("htmx:afterRequest", (event) => {
  const sent = shown.get(event.detail.xhr);
  const form = event.detail.elt?.isConnected && event.detail.elt.closest?.("form[data-entry]");
  const heard = form?.elements.draft_winner?.value;
  if (sent === undefined || !form || !heard || heard === sent || shownWinner(form) !== sent) return;
  const radio = form.querySelector(`input[name=winner][value="${heard}"]`);
  if (!radio) return;
  radio.checked = true;
  radio.dispatchEvent(new Event("change", { bubbles: true }));
});
// A finger on the entry keeps it: an entry drawn anew between a key's press and its lift takes
// no tap (the press lands on one key, the lift on its twin), and a card went missing. A fresh
// entry that comes meanwhile waits; once the finger lifts the changes are fetched again, in full
// (its answer's version was taken as seen), as the phone then is (a tap made: typed in now).
let fingerOnEntry = false;
let entryHeld = false;
document.addEventListener("pointerdown", (event) => { fingerOnEntry = Boolean(event.target.closest?.("#entry")); }, true);
function lifted() {
  fingerOnEntry = false;
  if (!entryHeld) return;
  entryHeld = false;
  document.getElementById("poller")?.removeAttribute("hx-headers");
  setTimeout(fetchChanges, 0);  // after the tap's own click
}
document.addEventListener("pointerup", lifted, true);
document.addEventListener("pointercancel", lifted, true);
// An answer asked for an untouched entry that finds it typed in meanwhile leaves it, unless it
// brings another round (this one was recorded or undone: the phone left on it was seen in CI).
// Another winner is not reason enough: the phone's own say may be the newer (a fresh entry
// without it, drawn over the phone's typing, moved the keypad under the thumb: seen in CI), and
// the next fetch, typed, says which winner the phone shows.
const redraws = (form, slot) => {
  const fresh = slot?.querySelector?.("form[data-entry]");
  return Boolean(fresh) && fresh.dataset.round !== form.dataset.round;
};
document.addEventListener("htmx:oobBeforeSwap", (event) => {
  const poller = document.getElementById("poller");
  if (event.detail.target?.id !== "entry-slot") return;
  const form = entryForm();
  if (poller?.dataset.askedPristine === "1" && form?.dataset.dirty && !redraws(form, event.detail.fragment)) {
    event.detail.shouldSwap = false;
  } else if (fingerOnEntry) {
    event.detail.shouldSwap = false;
    entryHeld = true;
  }
});

// A fetch whose #poller was replaced meanwhile (this phone's own answer brought a new table: a
// seat taken, a round recorded) was asked as the phone was before: its answer is dropped, its
// out-of-band parts too, and the changes are fetched again. The check sits on the poller
// itself, because the events of an element that left the page no longer reach the document.
// A poller swapped in (with the table this phone's own step brought) hears nothing until htmx has
// readied it, 20 ms after the swap: an event in between, or the fetch again of an answer dropped
// in between, found no one to hear it and the phone stayed behind. Once ready it asks once (304
// when it missed nothing).
htmx.onLoad((root) => {
  const poller = root.id === "poller" ? root : root.querySelector?.("#poller");
  poller?.addEventListener("htmx:beforeSwap", (event) => {
    if (poller.isConnected) return;
    event.detail.shouldSwap = false;
    setTimeout(fetchChanges, 0);
  });
  if (poller && root === poller) htmx.trigger(poller, "changed");
});
