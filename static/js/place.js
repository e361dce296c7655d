/* Nothing moves under the thumb, and nothing covers what it taps next. */
const bar = () => document.querySelector("#entry .record-bar");
const isBody = (event) => event.detail.target?.id === "table-body";

// After Record, undo or redo the entry stays where it was on the screen, whatever the
// announcement above it now says (unless a refusal's error is brought into view).
let entryTop = null;
document.addEventListener("htmx:beforeSwap", (event) => {
  entryTop = isBody(event) ? document.getElementById("entry")?.getBoundingClientRect().top ?? null : null;
});
document.addEventListener("htmx:afterSwap", (event) => {
  const entry = document.getElementById("entry");
  if (entryTop === null || !entry || !isBody(event)) return;
  if (!document.querySelector("#entry-errors[data-refused] li, #entry .error")) window.scrollBy(0, entry.getBoundingClientRect().top - entryTop);
  entryTop = null;
});

// The notice ("Round 3 recorded. Undo") covers no control and moves none: the Record bar keeps a
// row for it (its first row, where each hand's penalty so far is, reserved at the notice's height
// whether a notice shows or not), and the notice sits over that row while it shows. Without the
// bar on the screen it sits at the bottom of the screen (over the deal the row tells just after
// Record, for the notice's few seconds: it covers no key). Once the game is over it sits at the
// top of the screen, over the trophy, clear of Play again and Share.
function placeNotice() {
  const toast = document.getElementById("toast");
  const record = bar();
  if (!toast?.firstElementChild) return;  // white space is no notice
  toast.classList.toggle("at-top", Boolean(document.querySelector("#final .winner-banner")));
  const height = window.innerHeight;
  const top = record?.getBoundingClientRect().top;
  if (!record || top < height / 4 || top > height) { toast.style.bottom = ""; return; }  // no bar on the screen
  const row = record.querySelector(".running") || record;
  toast.style.bottom = `${Math.max(0, height - row.getBoundingClientRect().bottom + 6)}px`;  // 6 px clear of Record
}
// Another phone's step (a push: the live fetch's out-of-band parts) never moves this phone's
// entry: the announcement above it may grow or shrink, the card of the round in progress come or
// go, the entry itself be drawn anew (the browser's scroll anchoring lost its anchor with it, and
// idle keypads jumped 66-144 px: issue 49). What changed above is made up by scrolling as much,
// where the keypad is on the screen (a thumb is there; the entry's own rows above it change too:
// who went out has no button to tap for), else where the entry is.
let pushed = null;
const onScreen = (el) => { const r = el?.getBoundingClientRect(); return r && r.bottom > 0 && r.top < window.innerHeight; };
const ANCHORS = ["#entry .keypad", "#entry"];
document.addEventListener("htmx:beforeSwap", (event) => {
  const anchor = event.detail.elt?.id === "poller" && ANCHORS.find((sel) => onScreen(document.querySelector(sel)));
  pushed = anchor ? { anchor, top: document.querySelector(anchor).getBoundingClientRect().top } : null;
});
document.addEventListener("htmx:afterSwap", (event) => {
  const el = pushed && document.querySelector(pushed.anchor);
  if (event.detail.elt?.id === "poller" && el?.getClientRects().length) window.scrollBy(0, el.getBoundingClientRect().top - pushed.top);
  pushed = null;
});
document.addEventListener("htmx:afterSettle", placeNotice);
document.addEventListener("DOMContentLoaded", placeNotice);
window.addEventListener("scroll", placeNotice, { passive: true });
document.addEventListener("htmx:oobAfterSwap", (event) => {
  if (event.detail.target?.id === "entry-slot") setTimeout(placeNotice, 0);
});
// The notice goes at the next tap elsewhere, or by itself after about 8 s; nothing moves when it goes.
const NOTICE_MS = 8000;
let noticeTimer = null;
function dismissNotice() {
  clearTimeout(noticeTimer);
  const toast = document.getElementById("toast");
  if (toast?.firstElementChild) toast.textContent = "";
}
document.addEventListener("click", (event) => {
  if (!event.target.closest("#toast")) dismissNotice();
});
function noticeShown() {
  clearTimeout(noticeTimer);
  if (document.getElementById("toast")?.firstElementChild) noticeTimer = setTimeout(dismissNotice, NOTICE_MS);
}
document.addEventListener("DOMContentLoaded", noticeShown);
// A change made on another phone is told the same way, once (a hand sent in later brings the same
// notice again: not shown twice), and never over this phone's own notice of its own change.
document.addEventListener("htmx:oobBeforeSwap", (event) => {
  const { target, fragment } = event.detail;
  if (target?.id !== "toast") return;
  const version = Number(fragment?.querySelector?.("[data-version]")?.dataset.version || 0);
  if (fragment?.querySelector?.("[data-told]") && version <= Number(target.dataset.version || 0)) {
    event.detail.shouldSwap = false;
    return;
  }
  if (version) target.dataset.version = String(version);
});
document.addEventListener("htmx:oobAfterSwap", (event) => {
  if (event.detail.target?.id !== "toast") return;
  placeNotice();
  noticeShown();
});

// The finish reaches every phone: when the last round is recorded, here or on another phone, the
// winner, the places and Play again come into view (a page opened after the end stays at its top).
// It stays in view while nobody touches the phone: a part above it that goes after it was shown
// (the "Who is this phone?" card, when the phone's own Record answers after the push that told
// it the game was over) moved it out of view one time in three.
let wasOver = null;
let finishPinned = false;
function showFinish() {
  const banner = document.querySelector("#final .winner-banner");
  if ((wasOver === false || finishPinned) && banner) {
    const final = document.getElementById("final");
    if (Math.abs(final.getBoundingClientRect().top) > 1) final.scrollIntoView({ block: "start" });
    finishPinned = true;
  }
  wasOver = Boolean(banner);
}
["pointerdown", "wheel", "keydown", "touchstart"].forEach((type) => document.addEventListener(type, () => { finishPinned = false; }, { passive: true, capture: true }));
document.addEventListener("DOMContentLoaded", showFinish);
document.addEventListener("htmx:afterSettle", showFinish);
document.addEventListener("htmx:oobAfterSwap", (event) => { if (event.detail.target?.id === "final") setTimeout(showFinish, 0); });
